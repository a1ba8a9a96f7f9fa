//! One test per check of the reference (CONTRACT.md §3 codes, all but `dangling-marker`), each
//! on its own fixture under `fixtures/checks/<code>/` that also holds the near misses that must
//! not be reported. Each asserts code, severity, record and path of every finding.

use crate::fixture::*;
use std::collections::BTreeMap;

/// The severity CONTRACT.md §3 gives each code.
const SEVERITY: &[(&str, &str)] = &[
    ("superseded-still-current", "problem"),
    ("superseded-by-unknown", "problem"),
    ("governed-path-gone", "problem"),
    ("governed-path-moved", "warning"),
    ("doc-cites-superseded", "warning"),
    ("duplicate-id", "problem"),
    ("supersession-cycle", "problem"),
    ("successor-not-reciprocal", "warning"),
    ("superseded-without-successor", "warning"),
    ("supersedes-unknown", "warning"),
    ("unknown-reference", "warning"),
    ("status-missing", "warning"),
    ("status-unrecognised", "warning"),
    ("cites-superseded", "warning"),
    ("overlapping-governance", "warning"),
    ("dangling-marker", "warning"),
];

/// Asserts the fixture's findings are exactly `want` (code, severity, record, path).
fn assert_findings(corpus: &str, want: &[(&str, &str, &str, &str)]) {
    let j = json(corpus);
    assert_eq!(finding_rows(&j), rows(want), "findings of {corpus}");
}

fn assert_none(corpus: &str, code: &str, record: &str) {
    let j = json(corpus);
    assert!(
        !has_finding(&j, code, record),
        "{corpus}: unexpected {code} about {record}: {:#}",
        j["findings"]
    );
}

#[test]
fn superseded_still_current() {
    let c = "checks/superseded-still-current";
    assert_findings(
        c,
        &[
            (
                "superseded-still-current",
                "problem",
                "ADR-0001",
                "docs/adr/0001-accepted-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0003",
                "docs/adr/0003-no-status-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0005",
                "docs/adr/0005-proposed-with-a-successor.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0009",
                "docs/adr/0009-implemented-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0015",
                "docs/adr/0015-accepted-names-its-own-successor.md",
            ),
            (
                "status-missing",
                "warning",
                "ADR-0003",
                "docs/adr/0003-no-status-but-superseded.md",
            ),
            (
                "successor-not-reciprocal",
                "warning",
                "ADR-0015",
                "docs/adr/0016-silent-successor.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn superseded_still_current_not_for_deprecated_rejected_or_superseded_records() {
    let c = "checks/superseded-still-current";
    for id in ["ADR-0007", "ADR-0011", "ADR-0013"] {
        assert_none(c, "superseded-still-current", id);
    }
    // The successors themselves are current and fine.
    for id in ["ADR-0002", "ADR-0004", "ADR-0006", "ADR-0010", "ADR-0014"] {
        assert_none(c, "superseded-still-current", id);
    }
}

#[test]
fn superseded_by_unknown() {
    let c = "checks/superseded-by-unknown";
    assert_findings(
        c,
        &[(
            "superseded-by-unknown",
            "problem",
            "ADR-0001",
            "docs/adr/0001-points-at-a-missing-record.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn superseded_by_unknown_is_not_also_an_unknown_reference() {
    let c = "checks/superseded-by-unknown";
    assert_none(c, "unknown-reference", "ADR-0001");
    assert_none(c, "unknown-reference", "ADR-0099");
    assert_none(c, "superseded-without-successor", "ADR-0001");
}

#[test]
fn governed_path_gone() {
    let c = "checks/governed-path-gone";
    assert_findings(
        c,
        &[
            (
                "governed-path-gone",
                "problem",
                "ADR-0001",
                "docs/adr/0001-current-record-path-gone.md",
            ),
            (
                "governed-path-gone",
                "problem",
                "ADR-0005",
                "docs/adr/0005-implemented-record-path-gone.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn governed_path_gone_not_for_records_that_are_not_current_or_paths_not_in_the_repo() {
    let c = "checks/governed-path-gone";
    assert_none(c, "governed-path-gone", "ADR-0002");
    assert_none(c, "governed-path-gone", "ADR-0003");
    assert_none(c, "governed-path-gone", "ADR-0004");
}

#[test]
fn governed_path_moved() {
    let c = "checks/governed-path-moved";
    assert_findings(
        c,
        &[
            (
                "governed-path-moved",
                "warning",
                "ADR-0001",
                "docs/adr/0001-ledger-sync.md",
            ),
            (
                "governed-path-moved",
                "warning",
                "ADR-0002",
                "docs/adr/0002-a-typo.md",
            ),
            (
                "governed-path-moved",
                "warning",
                "ADR-0003",
                "docs/adr/0003-case-differs.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn governed_path_moved_is_not_also_gone_and_not_for_deprecated_records() {
    let c = "checks/governed-path-moved";
    for id in ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"] {
        assert_none(c, "governed-path-gone", id);
    }
    assert_none(c, "governed-path-moved", "ADR-0004");
}

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
            ("README.md".to_string(), sorted(&["ADR-0001", "ADR-0002"])),
            ("docs/current.md".to_string(), sorted(&["ADR-0002"])),
            ("docs/onboarding.md".to_string(), sorted(&["ADR-0001"])),
        ]
    );
}

#[test]
fn duplicate_id() {
    let c = "checks/duplicate-id";
    assert_findings(
        c,
        &[
            (
                "duplicate-id",
                "problem",
                "ADR-0002",
                "docs/adr/0002-use-b.md",
            ),
            (
                "duplicate-id",
                "problem",
                "ADR-0003",
                "docs/adr/three-again.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn duplicate_id_keeps_both_records() {
    let j = json("checks/duplicate-id");
    let twos = records(&j).iter().filter(|r| r["id"] == "ADR-0002").count();
    assert_eq!(twos, 2, "{:?}", ids(&j));
    assert_none("checks/duplicate-id", "duplicate-id", "ADR-0001");
}

#[test]
fn supersession_cycle() {
    let c = "checks/supersession-cycle";
    assert_findings(
        c,
        &[
            (
                "supersession-cycle",
                "problem",
                "ADR-0001",
                "docs/adr/0001-two-cycle-a.md",
            ),
            (
                "supersession-cycle",
                "problem",
                "ADR-0003",
                "docs/adr/0003-three-cycle-a.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn supersession_chain_is_not_a_cycle() {
    for id in ["ADR-0006", "ADR-0007", "ADR-0008"] {
        assert_none("checks/supersession-cycle", "supersession-cycle", id);
    }
}

#[test]
fn successor_not_reciprocal() {
    let c = "checks/successor-not-reciprocal";
    assert_findings(
        c,
        &[(
            "successor-not-reciprocal",
            "warning",
            "ADR-0001",
            "docs/adr/0002-the-silent-successor.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn successor_not_reciprocal_not_when_the_successor_says_supersedes() {
    assert_none(
        "checks/successor-not-reciprocal",
        "successor-not-reciprocal",
        "ADR-0003",
    );
}

#[test]
fn superseded_without_successor() {
    let c = "checks/superseded-without-successor";
    assert_findings(
        c,
        &[(
            "superseded-without-successor",
            "warning",
            "ADR-0001",
            "docs/adr/0001-superseded-by-nothing.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn superseded_without_successor_not_when_another_record_claims_it() {
    assert_none(
        "checks/superseded-without-successor",
        "superseded-without-successor",
        "ADR-0002",
    );
}

#[test]
fn supersedes_unknown() {
    let c = "checks/supersedes-unknown";
    assert_findings(
        c,
        &[(
            "supersedes-unknown",
            "warning",
            "ADR-0001",
            "docs/adr/0001-supersedes-a-missing-record.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn supersedes_unknown_is_not_also_an_unknown_reference() {
    let c = "checks/supersedes-unknown";
    assert_none(c, "unknown-reference", "ADR-0001");
    assert_none(c, "unknown-reference", "ADR-0042");
    assert_none(c, "supersedes-unknown", "ADR-0002");
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
fn status_missing() {
    let c = "checks/status-missing";
    assert_findings(
        c,
        &[
            (
                "status-missing",
                "warning",
                "ADR-0001",
                "docs/adr/0001-no-status.md",
            ),
            (
                "status-missing",
                "warning",
                "ADR-0002",
                "docs/adr/0002-status-only-in-a-fence.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn status_unrecognised() {
    let c = "checks/status-unrecognised";
    assert_findings(
        c,
        &[(
            "status-unrecognised",
            "warning",
            "ADR-0001",
            "docs/adr/0001-pondering.md",
        )],
    );
    assert_corpus(c);
    assert_none(c, "status-missing", "ADR-0001");
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

#[test]
fn overlapping_governance() {
    let c = "checks/overlapping-governance";
    assert_findings(
        c,
        &[
            (
                "overlapping-governance",
                "warning",
                "ADR-0002",
                "docs/adr/0002-another-auth-owner.md",
            ),
            (
                "overlapping-governance",
                "warning",
                "ADR-0008",
                "docs/adr/0008-api-accepted.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn overlapping_governance_not_for_nested_paths_amendments_or_proposals() {
    let c = "checks/overlapping-governance";
    for id in [
        "ADR-0001", "ADR-0003", "ADR-0004", "ADR-0005", "ADR-0006", "ADR-0007",
    ] {
        assert_none(c, "overlapping-governance", id);
    }
    // adr-tools: ADR-0004 amends ADR-0003 and both name services/catalog/db.py.
    assert_none("adr-tools", "overlapping-governance", "ADR-0004");
}

#[test]
fn style_fixtures_have_only_the_findings_they_were_written_for() {
    let want: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::from([
        ("frontmatter", vec![]),
        ("nygard", vec![("status-missing", "ADR-0004")]),
        ("adr-tools", vec![]),
        ("madr", vec![]),
        ("status-table", vec![]),
        ("rfcs", vec![]),
        ("discovery", vec![]),
        ("why", vec![]),
        (
            "statuses",
            vec![
                ("status-missing", "ADR-0022"),
                ("status-unrecognised", "ADR-0023"),
            ],
        ),
        (
            "fields",
            vec![
                ("governed-path-gone", "ADR-0025"),
                ("status-missing", "ADR-0027"),
            ],
        ),
    ]);
    for (corpus, pairs) in want {
        let mut pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(c, r)| (c.to_string(), r.to_string()))
            .collect();
        pairs.sort();
        assert_eq!(findings(&json(corpus)), pairs, "findings of {corpus}");
    }
}

#[test]
fn every_finding_has_the_contract_severity_and_a_path() {
    let severities: BTreeMap<&str, &str> = SEVERITY.iter().copied().collect();
    for corpus in CORPORA {
        let j = json(corpus);
        for f in finding_list(&j) {
            let code = f["code"].as_str().expect("code is a string");
            let want = severities
                .get(code)
                .unwrap_or_else(|| panic!("{corpus}: unknown finding code {code}"));
            assert_eq!(f["severity"], *want, "{corpus}: {f}");
            let path = f["path"]
                .as_str()
                .unwrap_or_else(|| panic!("{corpus}: no path: {f}"));
            assert!(
                !path.is_empty() && !path.starts_with('/'),
                "{corpus}: path must be relative: {f}"
            );
            assert!(
                fixture_has_file(corpus, path),
                "{corpus}: finding path {path} is not a file of the fixture"
            );
        }
    }
}

fn fixture_has_file(corpus: &str, rel: &str) -> bool {
    fixture_dir(corpus).join(rel).is_file()
}

#[test]
fn finding_messages_name_what_to_fix() {
    for corpus in CORPORA {
        let actual = json(corpus);
        let expected = expected(corpus);
        for f in finding_list(&actual) {
            let message = f["message"].as_str().unwrap_or("");
            assert!(!message.trim().is_empty(), "{corpus}: empty message: {f}");
        }
        for want in expected["findings"].as_array().unwrap() {
            let Some(needles) = want.get("message_contains") else {
                continue;
            };
            let got = finding_list(&actual).iter().find(|f| {
                f["code"] == want["code"]
                    && f["record"] == want["record"]
                    && f["path"] == want["path"]
            });
            let Some(got) = got else {
                panic!("{corpus}: no finding {want}");
            };
            let message = got["message"].as_str().unwrap_or("");
            for needle in strings(needles) {
                assert!(
                    message.contains(&needle),
                    "{corpus}: the message of {} about {} should name {needle}: {message:?}",
                    want["code"],
                    want["record"]
                );
            }
        }
    }
}

#[test]
fn a_record_query_returns_only_the_findings_about_it() {
    let fixture = copy_fixture("checks/superseded-still-current");
    let run = fixture.run_json(&["record", "ADR-0003"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        findings(&j),
        vec![
            ("status-missing".to_string(), "ADR-0003".to_string()),
            (
                "superseded-still-current".to_string(),
                "ADR-0003".to_string()
            ),
        ]
    );
}
