//! `why PATH` (and `--why`): the decisions governing a path, current ones first, the findings
//! about them, and the Markdown answer.

use super::{assert_flag_agrees, markdown};
use crate::fixture::*;
use serde_json::{json, Value};

fn decision_ids(j: &Value) -> Vec<String> {
    j["query"]["decisions"]
        .as_array()
        .unwrap_or_else(|| panic!("no query.decisions in {:#}", j["query"]))
        .iter()
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn why_lists_current_decisions_first_then_by_id() {
    let f = copy_fixture("why");
    let run = f.run_json(&["why", "src/auth/login.py"]);
    run.assert_code(0);
    assert_eq!(
        run.json()["query"],
        json!({"why": "src/auth/login.py", "decisions": [
            {"id": "ADR-0002", "status": "accepted", "current": true, "matches": ["src/auth/login.py"]},
            {"id": "ADR-0003", "status": "accepted", "current": true, "matches": ["src/auth/"]},
            {"id": "ADR-0001", "status": "superseded", "current": false, "matches": ["src/auth/"]},
        ], "mentioned_by": [], "related": []})
    );
}

#[test]
fn why_a_folder_matches_entries_inside_it() {
    let f = copy_fixture("why");
    let j = f.run_json(&["why", "src/auth"]).json();
    assert_eq!(
        j["query"],
        json!({"why": "src/auth", "decisions": [
            {"id": "ADR-0002", "status": "accepted", "current": true, "matches": ["src/auth/login.py"]},
            {"id": "ADR-0003", "status": "accepted", "current": true, "matches": ["src/auth/"]},
            {"id": "ADR-0001", "status": "superseded", "current": false, "matches": ["src/auth/"]},
            {"id": "ADR-0004", "status": "proposed", "current": false, "matches": ["src/auth/session.py"]},
        ], "mentioned_by": [], "related": []})
    );
    let j = f.run_json(&["why", "src"]).json();
    assert_eq!(
        decision_ids(&j),
        ["ADR-0002", "ADR-0003", "ADR-0005", "ADR-0001", "ADR-0004"]
    );
}

#[test]
fn why_normalises_the_path() {
    let f = copy_fixture("why");
    let absolute = f.root.join("src/auth");
    for path in ["./src/auth/", "src/auth/", absolute.to_str().unwrap()] {
        let run = f.run_json(&["why", path]);
        run.assert_code(0);
        let j = run.json();
        assert_eq!(j["query"]["why"], "src/auth", "why {path}");
        assert_eq!(
            decision_ids(&j),
            ["ADR-0002", "ADR-0003", "ADR-0001", "ADR-0004"],
            "why {path}"
        );
    }
}

#[test]
fn why_a_path_nothing_governs() {
    let f = copy_fixture("why");
    let run = f.run_json(&["why", "docs/nothing/here.txt"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(j["query"]["decisions"], json!([]));
    assert_eq!(j["records"], json!([]));
    let (code, text) = markdown(&f, &["why", "docs/nothing/here.txt"]);
    assert_eq!(code, Some(0));
    assert!(
        text.to_lowercase().contains("no recorded decision"),
        "{text}"
    );
}

#[test]
fn why_records_hold_the_matched_records_in_full() {
    let f = copy_fixture("why");
    let j = f.run_json(&["why", "src/auth/login.py"]).json();
    let mut want = decision_ids(&j);
    want.sort();
    let mut got = ids(&j);
    got.sort();
    assert_eq!(got, want);
    let r = record(&j, "ADR-0003");
    assert_eq!(r["title"], "Auth module");
    assert_eq!(list(r, "supersedes"), ["ADR-0001"]);
    assert_eq!(list(r, "governs"), ["src/auth/"]);
}

#[test]
fn why_findings_are_those_about_the_matched_records() {
    let f = copy_fixture("checks/overlapping-governance");
    let run = f.run_json(&["why", "src/api/routes.py"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(decision_ids(&j), ["ADR-0007", "ADR-0008"]);
    assert_eq!(
        findings(&j),
        [("overlapping-governance".to_string(), "ADR-0008".to_string())]
    );
}

#[test]
fn why_flag_and_subcommand_agree() {
    assert_flag_agrees(&["why", "src/auth"], &["--why", "src/auth"]);
}

#[test]
fn why_markdown_shows_current_decisions_then_history_with_successor() {
    let f = copy_fixture("why");
    let (code, text) = markdown(&f, &["why", "src/auth/login.py"]);
    assert_eq!(code, Some(0));
    for needle in [
        "ADR-0002",
        "ADR-0003",
        "ADR-0001",
        "Login form",
        "Auth module",
    ] {
        assert!(text.contains(needle), "missing {needle}:\n{text}");
    }
    let pos = |s: &str| text.find(s).unwrap();
    assert!(
        pos("ADR-0002") < pos("ADR-0001") && pos("ADR-0003") < pos("ADR-0001"),
        "current decisions come before the superseded one:\n{text}"
    );
    let history = &text[pos("ADR-0001")..];
    assert!(
        history.contains("ADR-0003"),
        "the superseded decision names its successor:\n{text}"
    );
}
