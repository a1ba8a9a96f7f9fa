//! `why PATH` with markers (docs/reading.md, docs/markers.md): a record a marker in PATH declares is listed
//! with `declared_by`, apart from the entries it `matches`; the key appears only when a marker
//! declared it.

use super::{decisions, json, records_repo};
use serde_json::json;

fn owned(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn declared_by_stands_apart_from_matches() {
    let repo = records_repo();
    repo.write(
        "src/core/sync.rs",
        "//! The sync loop.\n// @adr 1, 3\nfn sync() {}\n",
    );
    let doc = json(&repo, &["why", "src/core/sync.rs"]);
    assert_eq!(
        doc["query"],
        json!({"why": "src/core/sync.rs", "decisions": [
            {"id": "ADR-0001", "status": "accepted", "current": true, "matches": ["src/core/"],
             "declared_by": [{"path": "src/core/sync.rs", "line": 2}]},
            {"id": "ADR-0003", "status": "accepted", "current": true, "matches": [],
             "declared_by": [{"path": "src/core/sync.rs", "line": 2}]},
        ], "mentioned_by": [], "related": []})
    );
    // A file no marker declares anything in: no `declared_by` key at all.
    let plain = json(&repo, &["why", "src/core/engine.rs"]);
    assert_eq!(
        plain["query"]["decisions"],
        json!([{"id": "ADR-0001", "status": "accepted", "current": true, "matches": ["src/core/"]}])
    );
    let ids: Vec<&str> = doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["ADR-0001", "ADR-0003"], "the records of the answer");
}

#[test]
fn a_folder_lists_every_file_under_it_that_declares() {
    let repo = records_repo();
    repo.write("src/sync/retry.ts", "// @adr 3\n")
        .write("src/sync/backoff.ts", "\n\n// @adr 3\n")
        .write("src/other/x.ts", "// @adr 12\n")
        .write("src/syncer.ts", "// @adr 12\n");
    assert_eq!(
        decisions(&json(&repo, &["why", "src/sync"])),
        [(
            "ADR-0003".to_string(),
            vec![],
            owned(&["src/sync/backoff.ts:3", "src/sync/retry.ts:1"])
        )]
    );
    assert_eq!(
        decisions(&json(&repo, &["why", "src/sync/"]))[0].2,
        owned(&["src/sync/backoff.ts:3", "src/sync/retry.ts:1"]),
        "a trailing slash is the same folder"
    );
}

#[test]
fn current_decisions_come_first_then_by_id() {
    let repo = records_repo();
    repo.write("lib/mixed.rs", "// @adr 6, 2, 12\n// @adr 4, 3\n");
    let order: Vec<String> = decisions(&json(&repo, &["why", "lib/mixed.rs"]))
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    assert_eq!(
        order,
        ["ADR-0003", "ADR-0012", "ADR-0002", "ADR-0004", "ADR-0006"]
    );
}

#[test]
fn markdown_names_the_declaring_file_and_line() {
    let repo = records_repo();
    repo.write("src/sync/retry.ts", "// Retry.\n\n// @adr 3, 2\n");
    let out = repo.run(&["why", "src/sync/retry.ts"]);
    assert_eq!(out.code, Some(0), "{}", out.describe());
    let text = out.stdout();
    assert!(
        text.contains("## ADR-0003: Retry (accepted)\n\n- Record: `docs/adr/0003-retry.md`\n- Decided: 2025-02-01\n- Declared by `src/sync/retry.ts:3`\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "- ADR-0002: Old retry (superseded by ADR-0003), declared by `src/sync/retry.ts:3`\n"
        ),
        "{text}"
    );
    assert!(!text.contains("Governs: —"), "{text}");
    let both = repo.run(&["why", "src/core/engine.rs"]).stdout();
    assert!(both.contains("- Governs: `src/core/`\n"), "{both}");
}
