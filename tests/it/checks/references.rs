//! References: guides and records citing superseded records, the guides listed with each record,
//! and ids that name no record.

use super::{assert_findings, assert_none};
use crate::fixture::*;

#[test]
fn doc_cites_superseded() {
    let c = "checks/doc-cites-superseded";
    assert_findings(
        c,
        &[
            ("doc-cites-superseded", "warning", "ADR-0001", "README.md"),
            (
                "doc-cites-superseded",
                "warning",
                "ADR-0001",
                "docs/onboarding.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn doc_cites_superseded_not_for_guides_citing_current_records() {
    let j = json("checks/doc-cites-superseded");
    assert_none(
        "checks/doc-cites-superseded",
        "doc-cites-superseded",
        "ADR-0002",
    );
    let paths: Vec<&str> = finding_list(&j)
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(!paths.contains(&"docs/current.md"), "{paths:?}");
}

#[test]
fn docs_lists_only_guides_that_cite_a_record() {
    let j = json("checks/doc-cites-superseded");
    let docs: Vec<(String, Vec<String>)> = j["docs"]
        .as_array()
        .expect("docs")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                strings(&d["cites"]),
            )
        })
        .collect();
    let mut docs = docs;
    docs.sort();
    assert_eq!(
        docs,
        vec![
            ("README.md".to_string(), sorted(&["ADR-0001"])),
            ("docs/current.md".to_string(), sorted(&["ADR-0002"])),
            ("docs/onboarding.md".to_string(), sorted(&["ADR-0001"])),
        ]
    );
}

#[test]
fn unknown_reference() {
    let c = "checks/unknown-reference";
    assert_findings(
        c,
        &[(
            "unknown-reference",
            "warning",
            "ADR-0001",
            "docs/adr/0001-cites-a-missing-record.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn unknown_reference_not_for_own_id_existing_ids_or_fenced_examples() {
    let c = "checks/unknown-reference";
    assert_none(c, "unknown-reference", "ADR-0002");
    assert_none(c, "unknown-reference", "ADR-0003");
    assert_none(c, "unknown-reference", "ADR-0088");
    // The fields fixture names ADR-0099 only inside a fence.
    assert!(!findings(&json("fields"))
        .iter()
        .any(|(code, _)| code == "unknown-reference"));
}

#[test]
fn cites_superseded() {
    let c = "checks/cites-superseded";
    assert_findings(
        c,
        &[
            (
                "cites-superseded",
                "warning",
                "ADR-0003",
                "docs/adr/0003-current-cites-the-old-rule.md",
            ),
            (
                "cites-superseded",
                "warning",
                "ADR-0005",
                "docs/adr/0005-current-cites-a-deprecated-rule.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn cites_superseded_not_for_proposals_or_the_superseding_record() {
    let c = "checks/cites-superseded";
    assert_none(c, "cites-superseded", "ADR-0004");
    assert_none(c, "cites-superseded", "ADR-0002");
    assert_none(c, "cites-superseded", "ADR-0007");
}
