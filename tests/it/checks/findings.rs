//! What holds of every finding: the style fixtures have only the findings they were written for,
//! each has the severity docs/reading.md's table of checks gives it and a path, each message
//! names what to fix, and a record query returns only the findings about it.

use crate::fixture::*;
use std::collections::BTreeMap;

/// The severity docs/reading.md gives each code.
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
