//! Where records and guides are (CONTRACT.md §8): record folders other tools name (adr-tools'
//! `.adr-dir`, log4brains' `.log4brains.yml`), records in parts, and what is not a guide
//! (change logs, test fixtures, a guide that already cites the successor).

use crate::fixture::{assert_corpus, copy_fixture, json, record_at};

const CORPUS: &str = "reading/tools-parts-guides";

#[test]
fn folders_parts_and_guides_are_read_as_a_careful_reader_would() {
    assert_corpus(CORPUS);
}

#[test]
fn record_folders_named_by_adr_tools_and_log4brains_are_read() {
    let doc = json(CORPUS);
    assert_eq!(
        record_at(&doc, "src/adr/0002-record-decisions-with-log4brains.md")["supersedes"],
        serde_json::json!(["ADR-0001"])
    );
    record_at(
        &doc,
        "packages/api/decisions-log/20240611-use-a-job-queue.md",
    );
}

#[test]
fn a_chapter_beside_its_record_is_neither_a_record_nor_a_citation() {
    let doc = json(CORPUS);
    let r = record_at(&doc, "docs/adr/0003-split-the-monolith.md");
    assert_eq!(r["cites"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["governs"], serde_json::json!([]), "{r:#}");
    // With --docs naming only the record folder, the same.
    let fixture = copy_fixture(CORPUS);
    let out = fixture.run_json(&["check", "--docs", "docs/adr"]);
    out.assert_code(0);
    let paths: Vec<String> = out.json()["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "docs/adr/0003-split-the-monolith.md",
            "docs/adr/0004-cite-both.md",
            "docs/adr/0005-cite-the-old-one.md"
        ]
    );
}

/// A document that declares its own status (a spec, a plan of its own time) is not a guide, and
/// a record that cites the successor too was written knowing the newer decision: neither is
/// left behind by a superseded record.
#[test]
fn a_spec_with_its_own_status_and_a_record_citing_the_successor_too_are_not_flagged() {
    let doc = json(CORPUS);
    let flagged: Vec<(String, String)> = crate::fixture::finding_list(&doc)
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        !flagged.iter().any(|(_, p)| p == "docs/specs/jobs.md"),
        "{flagged:?}"
    );
    assert!(
        !flagged
            .iter()
            .any(|(_, p)| p == "docs/adr/0004-cite-both.md"),
        "{flagged:?}"
    );
    assert!(flagged.contains(&(
        "cites-superseded".to_string(),
        "docs/adr/0005-cite-the-old-one.md".to_string()
    )));
}
