//! What a commit writes into records cites (docs/hooks.md, `record_edit_cites`), through real
//! `git commit` with the installed hooks and through `review`: a record the commit adds, or
//! the lines it adds to an older one, naming a decision whose code the commit changes, names
//! that decision as its message would; a record that named it before the edit does not, and
//! `record_edit_cites = false` brings the warning back.

use super::{commit_all, install};
use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::Value;

/// `hooks::decisions`' repository (ADR-0001 governs `src/auth/`), with the hooks installed.
fn repo(off: bool) -> GitRepo {
    let repo = super::decisions();
    if off {
        repo.write(
            ".context-graph.toml",
            "[hooks]\nrecord_edit_cites = false\n",
        );
        repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Configure");
    }
    install(&repo);
    repo
}

/// ADR-0005, on refresh tokens, naming `src/auth/refresh.py`; `body` is its decision.
fn refresh(body: &str) -> String {
    adr(
        5,
        "Refresh tokens rotate",
        "Accepted",
        Some("2025-02-03"),
        &format!("The rotation lives in `src/auth/refresh.py`. {body}"),
    )
}

const CITING: &str = "Access tokens stay short-lived, as ADR-0001 decided.";

fn head(repo: &GitRepo) -> String {
    repo.git(&["rev-parse", "HEAD"]).trim().to_string()
}

/// Whether `review` of the commits after `base` says the last one cites ADR-0001.
fn review_cites(repo: &GitRepo, base: &str) -> bool {
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let json: Value = run.json();
    let d = json["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .find(|d| d["id"] == "ADR-0001")
        .unwrap_or_else(|| panic!("ADR-0001 touched: {json:#}"));
    d["cited"] == true && d["commits"][0]["cites_record"] == true
}

/// A change to `src/auth/token.py`, which ADR-0001 governs and ADR-0005 does not.
const TOKEN: &str = "def token(): return short_lived()\n";

#[test]
fn a_record_the_commit_adds_that_cites_the_decision_cites_it() {
    let repo = repo(false);
    let base = head(&repo);
    repo.write("docs/adr/0005-refresh.md", &refresh(CITING))
        .write("src/auth/token.py", TOKEN);
    let err = commit_all(&repo, "Rotate refresh tokens");
    assert!(!err.contains("ADR-0001"), "{err}");
    assert!(review_cites(&repo, &base));
}

#[test]
fn a_record_the_commit_adds_without_citing_it_is_warned() {
    let repo = repo(false);
    let base = head(&repo);
    repo.write("docs/adr/0005-refresh.md", &refresh("Rotation is daily."))
        .write("src/auth/token.py", TOKEN);
    let err = commit_all(&repo, "Rotate refresh tokens");
    assert!(
        err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001"),
        "{err}"
    );
    assert!(!review_cites(&repo, &base));
}

#[test]
fn only_the_lines_an_edit_adds_cite() {
    let repo = repo(false);
    repo.write("docs/adr/0005-refresh.md", &refresh("Rotation is daily."));
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Record the rotation");
    // A line naming ADR-0001 added to the older record cites it.
    let base = head(&repo);
    repo.write(
        "docs/adr/0005-refresh.md",
        &format!("{}\n{CITING}\n", refresh("Rotation is daily.")),
    )
    .write("src/auth/token.py", TOKEN);
    let err = commit_all(&repo, "Keep access tokens short");
    assert!(!err.contains("ADR-0001"), "{err}");
    assert!(review_cites(&repo, &base));
    // The record names it still, but this edit writes other lines: it is warned.
    let base = head(&repo);
    repo.write(
        "docs/adr/0005-refresh.md",
        &format!(
            "{}\n{CITING}\nRotation is hourly.\n",
            refresh("Rotation is daily.")
        ),
    )
    .write(
        "src/auth/token.py",
        "def token(): return shorter(minutes=5)\n",
    );
    let err = commit_all(&repo, "Hourly rotation");
    assert!(err.contains("governed by ADR-0001"), "{err}");
    assert!(!review_cites(&repo, &base));
}

#[test]
fn record_edit_cites_false_brings_the_warning_back() {
    let repo = repo(true);
    let base = head(&repo);
    repo.write("docs/adr/0005-refresh.md", &refresh(CITING))
        .write("src/auth/token.py", TOKEN);
    let err = commit_all(&repo, "Rotate refresh tokens");
    assert!(err.contains("governed by ADR-0001"), "{err}");
    assert!(!review_cites(&repo, &base));
}
