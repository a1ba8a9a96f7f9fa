//! A change that shares next to nothing with the record (docs/hooks.md, `skip_unechoed`):
//! through real `git commit` with the installed hooks and through `review`. The lines a commit
//! adds or removes in a decision's files, and its message, are compared with the record's words
//! as `why` compares a file with the records; under the threshold the hook says one line, not
//! the full warning, and `review` lists the commit as quiet (`unechoed`). A change speaking of
//! the decision is warned in full; `skip_unechoed = false` brings the full warning back. A
//! change that reads far more like another record than its own gets one line too
//! (`echoed-elsewhere`).

use super::{commit, install, ok};
use crate::fixture::adr;
use crate::git::GitRepo;

/// Five records, each governing a folder: ADR-0001 keeps sessions in Redis (`src/session/`).
fn repo(off: bool) -> GitRepo {
    let repo = GitRepo::new();
    let records = [
        (
            "Sessions live in Redis",
            "The session store in `src/session/` keeps each session in Redis, with a time \
             to live of an hour.",
        ),
        (
            "Invoices are sent as PDF",
            "The code in `src/billing/` renders invoices with a PDF printer.",
        ),
        (
            "Logs are structured",
            "The code in `src/logs/` writes JSON lines for the collector.",
        ),
        (
            "Search uses Lucene",
            "The index in `src/search/` is a Lucene index, rebuilt nightly.",
        ),
        (
            "Mail goes through a queue",
            "The mailer in `src/mail/` enqueues each message for the worker.",
        ),
    ];
    for (n, (title, body)) in (1u32..).zip(records) {
        repo.write(
            &format!("docs/adr/000{n}-r.md"),
            &adr(n, title, "Accepted", Some("2025-01-01"), body),
        );
    }
    repo.write(
        "src/session/store.py",
        "def save(s):\n    pass\n\ndef fmt(x):\n    return str(x)\n",
    );
    if off {
        repo.write(".context-graph.toml", "[hooks]\nskip_unechoed = false\n");
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

const SPEAKS: &str =
    "def save(s):\n    redis.set(s.id, s, ttl=3600)\n\ndef fmt(x):\n    return str(x)\n";
const SILENT: &str = "def save(s):\n    pass\n\ndef fmt(x):\n    return str(x).strip()\n";

fn full(err: &str) -> bool {
    err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001,")
}

/// Words of ADR-0002's (invoices, PDF, printer), and one of ADR-0001's (session).
const BILLING: &str = "def save(s):\n    pdf.render_invoice(s)  # invoices go to the printer\n\ndef fmt(x):\n    return str(x)\n";

const ELSEWHERE: &str = "context-graph: it touches files governed by ADR-0001, in lines that read \
                         far more like docs/adr/0002-r.md; cite the one it follows or changes";

const LINE: &str =
    "context-graph: it touches files governed by ADR-0001, in lines that share next \
                    to nothing with the record; cite it if it follows or changes it";

/// git's stderr for committing `store.py` as `text` with `message`, in a fresh repository
/// (`off`: `skip_unechoed = false`).
fn committed(off: bool, text: &str, message: &str) -> String {
    let repo = repo(off);
    ok(
        &commit(&repo, "src/session/store.py", text, message),
        "git commit",
    )
}

#[test]
fn a_change_speaking_of_the_decision_is_warned_in_full() {
    let err = committed(false, SPEAKS, "Keep each session an hour");
    assert!(full(&err), "{err}");
    assert!(!err.contains(LINE), "{err}");
}

#[test]
fn a_change_sharing_nothing_with_the_record_gets_one_line() {
    let err = committed(false, SILENT, "Trim the output");
    assert!(!full(&err), "{err}");
    assert!(err.contains(LINE), "{err}");
    // The message alone can speak of it.
    let err = committed(false, SILENT, "Trim the Redis session keys");
    assert!(full(&err), "{err}");
}

#[test]
fn a_change_reading_like_another_record_gets_one_line() {
    let err = committed(false, BILLING, "Save the session's invoice as a PDF");
    assert!(!full(&err), "{err}");
    assert!(err.contains(ELSEWHERE), "{err}");
    assert!(!err.contains(LINE), "{err}");
    // Said of this record as much as of the other: warned in full.
    let err = committed(
        false,
        BILLING,
        "Save the Redis session, an hour to live, with its invoice",
    );
    assert!(full(&err), "{err}");
    assert!(!err.contains(ELSEWHERE), "{err}");
    // The rule is `skip_unechoed`'s.
    let err = committed(true, BILLING, "Save the session's invoice as a PDF");
    assert!(full(&err), "{err}");
}

#[test]
fn review_says_which_change_reads_like_another_record() {
    let repo = repo(false);
    let base = repo.head();
    repo.write("src/session/store.py", BILLING);
    repo.commit_at(
        "2025-02-03T10:00:00Z",
        "Ana",
        "Save the session's invoice as a PDF",
    );
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let quiet = run.json()["query"]["quiet"].clone();
    assert_eq!(quiet[0]["reason"], "echoed-elsewhere", "{quiet:#}");
    assert_eq!(quiet[0]["like"], "docs/adr/0002-r.md", "{quiet:#}");
    let text = repo.run(&["review", &format!("{base}..HEAD")]).stdout();
    assert!(
        text.contains("1 the change reads far more like another record")
            && text.contains(
                "(ADR-0001: the change reads far more like another record, `docs/adr/0002-r.md`)"
            ),
        "{text}"
    );
}

/// A line only re-indented is not a line changed: what is left is compared.
#[test]
fn a_line_only_reindented_says_nothing() {
    let repo = repo(false);
    ok(
        &commit(
            &repo,
            "src/session/store.py",
            SPEAKS,
            "Keep each session an hour",
        ),
        "git commit",
    );
    let indented = SPEAKS.replace("    redis", "        redis");
    let err = ok(
        &commit(
            &repo,
            "src/session/store.py",
            &format!("if True:\n{indented}"),
            "Wrap",
        ),
        "git commit",
    );
    assert!(err.contains(LINE), "{err}");
    assert!(!full(&err), "{err}");
}

#[test]
fn skip_unechoed_false_brings_the_full_warning_back() {
    let err = committed(true, SILENT, "Trim the output");
    assert!(full(&err), "{err}");
    assert!(!err.contains(LINE), "{err}");
}

#[test]
fn review_lists_the_silent_change_as_quiet_and_counts_the_other() {
    let repo = repo(false);
    let base = repo.head();
    repo.write("src/session/store.py", SILENT);
    let silent = repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Trim the output");
    repo.write("src/session/store.py", SPEAKS);
    let speaks = repo.commit_at("2025-02-04T10:00:00Z", "Bo", "Keep each session an hour");
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let q = run.json()["query"].clone();
    let short = |sha: &str| repo.git(&["rev-parse", "--short", sha]).trim().to_string();
    assert_eq!(
        q["quiet"],
        serde_json::json!([{
            "sha": short(&silent),
            "author": "Ana",
            "subject": "Trim the output",
            "decision": "ADR-0001",
            "reason": "unechoed"
        }]),
        "{q:#}"
    );
    let commits: Vec<&str> = q["decisions"][0]["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["sha"].as_str().unwrap())
        .collect();
    assert_eq!(commits, [short(&speaks)], "{q:#}");
    let text = repo.run(&["review", &format!("{base}..HEAD")]).stdout();
    assert!(
        text.contains("1 the change shares next to nothing with the record"),
        "{text}"
    );
}

/// commit-msg answers from the table the refresh keeps (ADR-0018), which holds the records'
/// words: the same one line and the same full warning, with no note that the scan memo was
/// checked.
#[test]
fn the_hooks_table_keeps_the_records_words() {
    let repo = repo(false);
    ok(
        &commit(&repo, "src/other.py", "a = 1\n", "Other"),
        "git commit",
    );
    let _ = repo.index_status(); // waits for the refresh post-commit started
    let dir = repo.index_file().parent().unwrap().to_path_buf();
    assert!(
        dir.join("index.governing").is_file(),
        "the refresh keeps it"
    );
    for (text, message, one_line) in [
        (SILENT, "Trim the output", true),
        (SPEAKS, "Keep each session an hour", false),
    ] {
        repo.write("src/session/store.py", text);
        ok(
            &super::git(&repo, &["add", "src/session/store.py"], &[]),
            "git add",
        );
        repo.write(".git/MSG", &format!("{message}\n"));
        let run = repo.run(&["hook", "commit-msg", ".git/MSG"]);
        assert_eq!(run.code, Some(0), "{}", run.describe());
        assert_eq!(run.stderr.contains(LINE), one_line, "{}", run.describe());
        assert_eq!(full(&run.stderr), !one_line, "{}", run.describe());
        let note = std::fs::read_to_string(dir.join("checked")).unwrap_or_default();
        assert_eq!(note, "", "answered from the table");
        ok(&super::git(&repo, &["reset", "-q"], &[]), "git reset");
        repo.write(
            "src/session/store.py",
            "def save(s):\n    pass\n\ndef fmt(x):\n    return str(x)\n",
        );
    }
}
