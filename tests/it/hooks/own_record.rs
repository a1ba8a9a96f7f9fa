//! A commit that adds a record carries its own decision for the files that record governs
//! (docs/hooks.md, `record_edit_covers`), through real `git commit` with the installed hooks and
//! through `review`: another decision governing only those files gets one short line, which
//! names it for the branch; a file the new record does not govern, or a record that is only
//! edited, still counts; `record_edit_covers = false` turns the rule off.

use super::{commit_all, install, ok};
use crate::fixture::adr;
use crate::git::GitRepo;

/// `hooks::decisions`' repository (ADR-0001 governs `src/auth/`), with the hooks installed.
/// `off` names a `[hooks]` key set false.
fn repo(off: Option<&str>) -> GitRepo {
    let repo = super::decisions();
    if let Some(key) = off {
        repo.write(".context-graph.toml", &format!("[hooks]\n{key} = false\n"));
        repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Configure");
    }
    install(&repo);
    repo
}

/// ADR-0005, naming `src/auth/login.py`.
fn lockout() -> String {
    adr(
        5,
        "Lock an account after five failed logins",
        "Accepted",
        Some("2025-02-03"),
        "The check lives in `src/auth/login.py`.",
    )
}

const LINE: &str = "context-graph: the record it adds governs files that ADR-0001 also governs";

/// The decisions `review` of the commits after `base` lists with full commits, and the
/// (decision, reason) pairs it lists as quiet.
fn review(repo: &GitRepo, base: &str) -> (Vec<String>, Vec<(String, String)>) {
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let json = run.json();
    let ids = json["query"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    let quiet = json["query"]["quiet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let s = |k: &str| q[k].as_str().unwrap().to_string();
            (s("decision"), s("reason"))
        })
        .collect();
    (ids, quiet)
}

fn head(repo: &GitRepo) -> String {
    repo.git(&["rev-parse", "HEAD"]).trim().to_string()
}

/// Commits what is staged with `message`: no one-line for ADR-0001, which `review` of the
/// commits after `base` still counts.
fn still_counts(repo: &GitRepo, base: &str, message: &str) {
    let err = commit_all(repo, message);
    assert!(!err.contains(LINE), "{err}");
    let (ids, quiet) = review(repo, base);
    assert!(ids.iter().any(|id| id == "ADR-0001"), "{ids:?} {quiet:?}");
    assert!(
        !quiet.iter().any(|(_, why)| why == "own-record"),
        "{quiet:?}"
    );
}

#[test]
fn a_commit_adding_the_record_for_a_file_names_the_other_decision_in_one_line() {
    let repo = repo(None);
    repo.git(&["checkout", "-q", "-b", "lockout"]);
    let base = head(&repo);
    repo.write("docs/adr/0005-lockout.md", &lockout())
        .write("src/auth/login.py", "def login(): lock()\n");
    let err = commit_all(&repo, "Lock accounts");
    assert!(err.contains(LINE), "{err}");
    assert!(!err.contains("context-graph: warning"), "{err}");
    // The next commit of the branch touching ADR-0001's files is a repeat: it was named.
    let err = super::commit(&repo, "src/auth/token.py", "def token(): 1\n", "Tidy");
    let err = ok(&err, "git commit");
    assert!(!err.contains("context-graph: warning"), "{err}");
    assert!(err.contains("context-graph: ADR-0001 again"), "{err}");
    // `review` says the same: quiet for the first, a repeat for the second.
    let (_, quiet) = review(&repo, &base);
    assert!(
        quiet.contains(&("ADR-0001".into(), "own-record".into())),
        "{quiet:?}"
    );
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    let json = run.json();
    let d = &json["query"]["decisions"][0];
    assert_eq!(d["id"], "ADR-0001", "{json}");
    assert_eq!(
        d["repeats"].as_array().map(Vec::len),
        Some(1),
        "{json}\n{}",
        repo.git(&["log", "--format=%H %an <%ae> %P %s"])
    );
}

#[test]
fn a_file_the_new_record_does_not_govern_still_counts() {
    let repo = repo(None);
    let base = head(&repo);
    repo.write("docs/adr/0005-lockout.md", &lockout())
        .write("src/auth/login.py", "def login(): lock()\n")
        .write("src/auth/token.py", "def token(): lock()\n");
    still_counts(&repo, &base, "Lock accounts");
}

#[test]
fn a_commit_editing_an_older_record_still_counts() {
    let repo = repo(None);
    repo.write("docs/adr/0005-lockout.md", &lockout());
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Record the lockout");
    let base = head(&repo);
    repo.write(
        "docs/adr/0005-lockout.md",
        &format!("{}\nAmended: ten failed logins.\n", lockout()),
    )
    .write(
        "src/auth/login.py",
        "def login(): lock(10)  # and tokens stay short-lived\n",
    );
    still_counts(&repo, &base, "Ten tries");
}

#[test]
fn record_edit_covers_false_brings_the_warning_back() {
    let repo = repo(Some("record_edit_covers"));
    let base = head(&repo);
    repo.write("docs/adr/0005-lockout.md", &lockout()).write(
        "src/auth/login.py",
        "def login(): lock()  # and tokens stay short-lived\n",
    );
    still_counts(&repo, &base, "Lock accounts");
}
