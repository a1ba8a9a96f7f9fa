//! `index --status --json`: its keys in the order printed, its freshness, and that asking neither
//! makes nor updates the index.

use super::{write_tokens_record, ADR2, PAST_RACY_WINDOW};
use crate::env::Run;
use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Instant;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::schema;

/// The top-level keys of a JSON object, in the order printed.
fn printed_keys(out: &Run) -> Vec<String> {
    let doc = out.json();
    let text = out.stdout();
    let mut keys: Vec<(usize, String)> = doc
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| {
            let at = text
                .find(&format!("\n  \"{k}\":"))
                .unwrap_or_else(|| panic!("{k} at the top level of {text}"));
            (at, k.clone())
        })
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| k).collect()
}

const STATUS_KEYS: &[&str] = &[
    "path",
    "schema_version",
    "head",
    "indexed_head",
    "fresh",
    "records",
    "commits",
    "paths",
];

#[test]
fn status_reports_its_keys_and_freshness_without_updating() {
    let repo = GitRepo::new();
    write_tokens_record(&repo)
        .write(
            ADR2,
            &adr(2, "Login", "Accepted", None, "In `src/auth/login.rs`."),
        )
        .write("src/auth/login.rs", "1\n")
        .write("src/other/util.rs", "1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let written = Instant::now();
    repo.write("src/auth/login.rs", "2\n");
    let second = repo.commit_at("2025-03-02T10:00:00Z", "Ben", "Login for ADR-0001");

    // Before any query: no file, and status does not make one.
    let out = repo.run(&["index", "--status", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(printed_keys(&out), STATUS_KEYS, "{}", out.stdout());
    let before = out.json();
    assert_eq!(before["fresh"], false);
    assert_eq!(before["indexed_head"], Value::Null);
    assert_eq!(before["head"], second.as_str());
    assert!(
        !repo.index_file().exists(),
        "index --status created the index"
    );

    // Records are trusted only once older than the racy window.
    std::thread::sleep(PAST_RACY_WINDOW.saturating_sub(written.elapsed()));
    let q = repo.run(&["why", "src/auth/login.rs", "--git", "--json"]);
    assert_eq!(q.code, Some(0), "{}", q.stderr);
    let out = repo.run(&["index", "--status", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(printed_keys(&out), STATUS_KEYS, "{}", out.stdout());
    let s = out.json();
    assert_eq!(s["fresh"], true, "fresh after a --git query: {s:#}");
    assert_eq!(s["schema_version"], schema::SCHEMA_VERSION);
    assert_eq!(s["head"], second.as_str());
    assert_eq!(s["indexed_head"], second.as_str());
    assert_eq!(s["records"], 2);
    assert_eq!(s["commits"], 2);
    // The two records, src/auth/login.rs and src/other/util.rs.
    assert_eq!(s["paths"], 4, "{s:#}");
    let path = PathBuf::from(s["path"].as_str().expect("path is a string"));
    assert_eq!(
        path.canonicalize().expect("the index exists"),
        repo.index_file().canonicalize().unwrap()
    );

    // A new commit: stale, and status (twice) does not update it.
    repo.write("src/other/util.rs", "2\n");
    let third = repo.commit_at("2025-03-03T10:00:00Z", "Cy", "Utility");
    for round in 0..2 {
        let s = repo.index_status();
        assert_eq!(s["fresh"], false, "round {round}: {s:#}");
        assert_eq!(s["head"], third.as_str(), "round {round}");
        assert_eq!(s["indexed_head"], second.as_str(), "round {round}");
        assert_eq!(s["commits"], 2, "round {round}");
    }
    let q = repo.run(&["why", "src/auth/login.rs", "--git", "--json"]);
    assert_eq!(q.code, Some(0), "{}", q.stderr);
    let s = repo.index_status();
    assert_eq!(
        s["fresh"], true,
        "a --git query brings it up to date: {s:#}"
    );
    assert_eq!(s["indexed_head"], third.as_str());
    assert_eq!(s["commits"], 3);
}
