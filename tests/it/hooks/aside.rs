//! What counts less on its own (docs/hooks.md), through real `git commit` with the installed
//! hooks and through `review`: a documentation page a decision reaches only through its folder
//! is no reason to warn (a page the record names is), and an edit to a file three or more
//! decisions govern gives one short line naming them, not a full warning each (adding such a
//! file warns in full). `skip_doc_pages = false` and `skip_shared_files = false` bring the full
//! warnings back.

use super::{commit, commit_all, install, ok};
use crate::fixture::adr;
use crate::git::GitRepo;

/// Records: ADR-0001 governs `src/auth/`; ADR-0002 names the page `src/auth/GUIDE.md`;
/// ADR-0003, ADR-0004 and ADR-0005 each govern `ci/`. `off` names a `[hooks]` key set false.
fn repo(off: Option<&str>) -> GitRepo {
    let repo = GitRepo::new();
    let record =
        |n: u32, title: &str, body: &str| adr(n, title, "Accepted", Some("2025-01-01"), body);
    repo.write(
        "docs/adr/0001-tokens.md",
        &record(
            1,
            "Tokens expire after an hour",
            "The login code in `src/auth/` keeps tokens short-lived.",
        ),
    )
    .write(
        "docs/adr/0002-guide.md",
        &record(
            2,
            "Keep a guide for the login",
            "The guide `src/auth/GUIDE.md` explains the login.",
        ),
    );
    for (n, title) in [
        (3, "Run the tests on every push"),
        (4, "Build with one toolchain"),
        (5, "Audit the dependencies"),
    ] {
        repo.write(
            &format!("docs/adr/000{n}-ci.md"),
            &record(n, title, "The jobs in `ci/` carry this out."),
        );
    }
    repo.write("src/auth/login.py", "def login(): pass\n")
        .write("src/auth/README.md", "# Auth\n")
        .write("src/auth/GUIDE.md", "# Guide\n")
        .write("ci/test.yml", "jobs: [test]\n");
    if let Some(key) = off {
        repo.write(".context-graph.toml", &format!("[hooks]\n{key} = false\n"));
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

/// git's stderr for committing `rel` as `text`.
fn committed(off: Option<&str>, rel: &str, text: &str) -> String {
    let repo = repo(off);
    ok(&commit(&repo, rel, text, "Change it"), "git commit")
}

fn full(err: &str, ids: &str) -> bool {
    err.contains(&format!("its staged changes touch paths governed by {ids}"))
}

#[test]
fn a_page_under_a_governed_folder_does_not_warn_but_a_named_page_does() {
    let err = committed(None, "src/auth/README.md", "# Auth\n\nHow to log in.\n");
    assert!(!err.contains("context-graph: warning"), "{err}");
    // The page ADR-0002 names warns, for ADR-0002 alone.
    let err = committed(None, "src/auth/GUIDE.md", "# Guide\n\nThe login guide.\n");
    assert!(full(&err, "ADR-0002,"), "{err}");
    // Code beside it still warns.
    let err = committed(None, "src/auth/login.py", "def login(): return 1\n");
    assert!(full(&err, "ADR-0001,"), "{err}");
    let err = committed(
        Some("skip_doc_pages"),
        "src/auth/README.md",
        "# Auth\n\nHow tokens expire.\n",
    );
    assert!(full(&err, "ADR-0001,"), "{err}");
}

/// A decision about documents (every file it names a page) has its subject in its folders'
/// pages: a page there warns (anvil-serving's record on published findings).
#[test]
fn a_page_under_the_folder_of_a_decision_about_documents_warns() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-findings.md",
        &adr(
            1,
            "Published findings are durable",
            "Accepted",
            Some("2025-01-01"),
            "Findings in `docs/findings/` are never rewritten; `AGENTS.md` says so.",
        ),
    )
    .write("docs/findings/f1.md", "# Finding 1\n")
    .write("AGENTS.md", "# Agents\n");
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    let err = ok(
        &commit(
            &repo,
            "docs/findings/f1.md",
            "# Finding 1, rewritten\n",
            "Edit f1",
        ),
        "git commit",
    );
    assert!(full(&err, "ADR-0001,"), "{err}");
}

#[test]
fn an_edit_to_a_file_three_decisions_govern_gives_one_short_line() {
    let err = committed(None, "ci/test.yml", "jobs: [test, lint]\n");
    assert!(!err.contains("context-graph: warning"), "{err}");
    assert!(
        err.contains(
            "context-graph: it edits files that ADR-0003, ADR-0004 and ADR-0005 all govern"
        ),
        "{err}"
    );
    // Adding a file of a new kind there is a change to what they govern: the full warning.
    let ci = "# release: run the tests on every push, build with one toolchain, audit the dependencies\n";
    let err = committed(None, "ci/release.sh", ci);
    assert!(full(&err, "ADR-0003, ADR-0004 and ADR-0005,"), "{err}");
    let ci = "jobs: [lint]\n# run the tests on every push, build with one toolchain, audit the dependencies\n";
    let err = committed(Some("skip_shared_files"), "ci/test.yml", ci);
    assert!(full(&err, "ADR-0003, ADR-0004 and ADR-0005,"), "{err}");
}

#[test]
fn review_lists_both_as_quiet_with_their_reason() {
    let repo = repo(None);
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    for (rel, text) in [
        ("src/auth/README.md", "# Auth\n\nMore.\n"),
        ("ci/test.yml", "jobs: []\n"),
    ] {
        repo.write(rel, text);
        repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Edit");
    }
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let json = run.json();
    let reasons: Vec<(String, String)> = json["query"]["quiet"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["decision"].as_str().unwrap().into(),
                q["reason"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        reasons.contains(&("ADR-0001".into(), "doc-pages".into())),
        "{reasons:?}"
    );
    for id in ["ADR-0003", "ADR-0004", "ADR-0005"] {
        assert!(
            reasons.contains(&(id.into(), "shared-files".into())),
            "{reasons:?}"
        );
    }
    assert_eq!(json["query"]["decisions"], serde_json::json!([]), "{json}");
}

#[test]
fn a_version_bump_with_its_docs_sync_is_quiet() {
    let repo = repo(None);
    repo.write("src/auth/version.py", "VERSION = \"0.4.0\"\n");
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Version");
    repo.write("src/auth/version.py", "VERSION = \"0.5.0\"\n")
        .write(
            "docs/install.md",
            "# Install\n\nRun v0.5.0, with the new flags.\n",
        );
    let err = commit_all(&repo, "docs: sync to v0.5.0");
    assert!(!err.contains("context-graph: warning"), "{err}");
    // A code file beside the bump is no release: warned.
    repo.write("src/auth/version.py", "VERSION = \"0.6.0\"\n")
        .write("src/free.py", "def free(): return 2\n");
    let err = commit_all(&repo, "Bump, and fix the token expiry");
    assert!(full(&err, "ADR-0001,"), "{err}");
}

#[test]
fn a_bots_commit_does_not_end_an_authors_run_in_review() {
    let repo = repo(None);
    let base = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    repo.write("src/auth/login.py", "def login(): return 1\n");
    let first = repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Log in faster");
    repo.write("src/free.py", "x = 1\n");
    repo.commit_at("2025-02-03T11:00:00Z", "dependabot[bot]", "Bump x");
    repo.write("src/auth/login.py", "def login(): return 2\n");
    let second = repo.commit_at("2025-02-03T12:00:00Z", "Ana", "Log in again");
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    let json = run.json();
    let short = |sha: &str| repo.git(&["rev-parse", "--short", sha]).trim().to_string();
    let adr1 = json["query"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == "ADR-0001")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        adr1["repeats"],
        serde_json::json!([{"sha": short(&second), "first": short(&first)}]),
        "{json}"
    );
}

#[test]
fn a_change_to_comment_lines_alone_is_quiet() {
    let err = committed(
        None,
        "src/auth/login.py",
        "# Logs the user in.\ndef login(): pass\n",
    );
    assert!(!err.contains("context-graph: warning"), "{err}");
    let err = committed(
        None,
        "src/auth/login.py",
        "def login(): pass  # now\ntoken = 1\n",
    );
    assert!(full(&err, "ADR-0001,"), "{err}");
    // A comment after the same code (ev-node's typo fix in a trailing `//` comment).
    let err = committed(None, "src/auth/login.py", "def login(): pass  # typo\n");
    assert!(!err.contains("context-graph: warning"), "{err}");
    let err = committed(
        Some("skip_whitespace"),
        "src/auth/login.py",
        "# Logs in; the token expires.\ndef login(): pass\n",
    );
    assert!(full(&err, "ADR-0001,"), "{err}");
}
