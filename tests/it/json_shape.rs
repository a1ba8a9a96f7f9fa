//! The `--json` document: every key at every level, exactly as the reference plus docs/reading.md,
//! in the reference's order. A renamed, missing or extra key fails here.
//!
//! serde_json here is built without `preserve_order`, so parsed objects lose their key order:
//! key sets are compared on the parsed value, and the order is checked on the raw text.

use crate::fixture::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const TOP: &[&str] = &["root", "records", "docs", "findings", "notes", "query"];
const RECORD: &[&str] = &[
    "id",
    "title",
    "status",
    "status_text",
    "date",
    "path",
    "supersedes",
    "superseded_by",
    "amends",
    "cites",
    "cited_by",
    "governs",
    "missing_paths",
    "commits",
    "drift",
    "successors",
    "successors_only_claimed_by_successor",
    "moved",
    "relates_to",
    "code_mentions",
    "cites_replaced",
    "declared_in",
    "missing_links",
    "site_links",
];
const FINDING: &[&str] = &["severity", "code", "record", "path", "message"];
const DOC: &[&str] = &["path", "cites"];
const DECISION: &[&str] = &["id", "status", "current", "matches"];
const LIST_FIELDS: &[&str] = &[
    "supersedes",
    "superseded_by",
    "amends",
    "cites",
    "cited_by",
    "governs",
    "missing_paths",
    "successors",
    "successors_only_claimed_by_successor",
    "relates_to",
    "cites_replaced",
    "missing_links",
    "site_links",
];
const STATUSES: &[&str] = &[
    "proposed",
    "accepted",
    "implemented",
    "rejected",
    "deprecated",
    "superseded",
    "unknown",
    "unrecognised",
];

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn assert_keys(v: &Value, want: &[&str], what: &str) {
    let got = keys(v);
    let want = set(want);
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what}: missing keys {missing:?}, unexpected keys {extra:?} in {v:#}"
    );
}

fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

// ------------------------------------------------------------------ a tiny raw-text scanner

/// The keys of the JSON object starting at `text[start]` (a `{`), in the order written.
fn object_keys_in_order(text: &str, start: usize) -> Vec<String> {
    let bytes = text.as_bytes();
    assert_eq!(bytes[start], b'{', "not an object at {start}");
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut i = start;
    let mut expect_key = false;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i);
                if depth == 1 && expect_key {
                    keys.push(serde_json::from_str::<String>(&text[i..=end]).unwrap());
                    expect_key = false;
                }
                i = end;
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 {
                    expect_key = true;
                }
            }
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return keys;
                }
            }
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
        i += 1;
    }
    panic!("unterminated object");
}

/// The index of the closing quote of the string starting at `bytes[start]`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    panic!("unterminated string");
}

/// The index of the first `{` inside the array that is the value of top-level `key`.
fn first_object_in(text: &str, key: &str) -> usize {
    let at = text
        .find(&format!("\n  \"{key}\": ["))
        .unwrap_or_else(|| panic!("no top-level array {key} in:\n{text}"));
    at + text[at..].find('{').expect("an object in the array")
}

fn raw(corpus: &str, args: &[&str]) -> String {
    let f = copy_fixture(corpus);
    let run = f.run_json(args);
    assert!(!run.timed_out, "{}", run.describe());
    run.stdout()
}

// ------------------------------------------------------------------ key sets

#[test]
fn top_level_keys_of_check_why_and_record() {
    for args in [
        &[][..],
        &["why", "src/auth"][..],
        &["record", "ADR-0003"][..],
    ] {
        let f = copy_fixture("why");
        let j = f.run_json(args).json();
        assert_keys(&j, TOP, &format!("top level of {args:?}"));
    }
}

#[test]
fn every_record_has_exactly_the_reference_keys() {
    for corpus in CORPORA {
        for r in records(&json(corpus)) {
            assert_keys(r, RECORD, &format!("{corpus} record {}", r["id"]));
        }
    }
}

#[test]
fn every_finding_has_exactly_the_contract_keys() {
    let mut seen = 0;
    for corpus in CORPORA {
        for f in finding_list(&json(corpus)) {
            assert_keys(f, FINDING, &format!("{corpus} finding"));
            for k in FINDING {
                assert!(f[k].is_string(), "{corpus}: {k} is not a string in {f}");
            }
            assert!(
                f["severity"] == "problem" || f["severity"] == "warning",
                "{f}"
            );
            seen += 1;
        }
    }
    assert!(seen >= 20, "the fixtures hold findings to check ({seen})");
}

#[test]
fn every_doc_entry_has_path_and_cites() {
    let mut seen = 0;
    for corpus in CORPORA {
        for d in json(corpus)["docs"].as_array().expect("docs is an array") {
            assert_keys(d, DOC, &format!("{corpus} doc"));
            assert!(d["path"].is_string());
            assert!(
                !strings(&d["cites"]).is_empty(),
                "a listed guide cites a record: {d}"
            );
            seen += 1;
        }
    }
    assert!(seen >= 5, "the fixtures hold guides ({seen})");
}

#[test]
fn why_query_and_its_decisions_have_exactly_their_keys() {
    let f = copy_fixture("why");
    let j = f.run_json(&["why", "src/auth"]).json();
    assert_keys(
        &j["query"],
        &["why", "decisions", "mentioned_by", "related"],
        "why query",
    );
    let decisions = j["query"]["decisions"].as_array().expect("decisions");
    assert_eq!(decisions.len(), 4);
    for d in decisions {
        assert_keys(d, DECISION, "decision without markers");
        assert!(d["id"].is_string() && d["status"].is_string());
        assert!(d["current"].is_boolean());
        assert!(!strings(&d["matches"]).is_empty());
    }
}

#[test]
fn record_query_is_just_the_id() {
    let f = copy_fixture("why");
    let j = f.run_json(&["record", "adr-3"]).json();
    assert_eq!(j["query"], json!({"record": "ADR-0003"}));
}

#[test]
fn check_query_is_null() {
    for corpus in ["why", "fields", "checks/duplicate-id"] {
        assert_eq!(json(corpus)["query"], Value::Null, "{corpus}");
    }
}

// ------------------------------------------------------------------ values

#[test]
fn drift_is_null_and_commits_empty_without_git() {
    for corpus in CORPORA {
        for r in records(&json(corpus)) {
            assert_eq!(r["drift"], Value::Null, "{corpus} {}", r["id"]);
            assert_eq!(r["commits"], json!([]), "{corpus} {}", r["id"]);
        }
    }
}

#[test]
fn record_values_have_their_types() {
    for corpus in CORPORA {
        for r in records(&json(corpus)) {
            let what = format!("{corpus} {}", r["id"]);
            for k in ["id", "title", "status", "status_text", "path"] {
                assert!(r[k].is_string(), "{what}: {k} is not a string");
            }
            assert!(
                STATUSES.contains(&r["status"].as_str().unwrap()),
                "{what}: status {}",
                r["status"]
            );
            match &r["date"] {
                Value::Null => {}
                Value::String(d) => assert!(is_iso_date(d), "{what}: date {d}"),
                other => panic!("{what}: date {other}"),
            }
            let path = r["path"].as_str().unwrap();
            assert!(
                path.ends_with(".md") && !path.starts_with('/') && !path.contains('\\'),
                "{what}: path {path}"
            );
            for k in LIST_FIELDS {
                strings(&r[*k]);
            }
            // Code mentions are objects (docs/mentions.md), not strings.
            for m in r["code_mentions"]
                .as_array()
                .expect("code_mentions is an array")
            {
                assert!(
                    m["path"].is_string() && m["term"].is_string(),
                    "{what}: {m}"
                );
                assert!(
                    m["line"].is_u64() && m["confidence"].is_f64(),
                    "{what}: {m}"
                );
            }
            for (from, to) in r["moved"].as_object().expect("moved is an object") {
                assert!(!from.ends_with('/'), "{what}: moved key {from}");
                for t in strings(to) {
                    assert!(!t.ends_with('/'), "{what}: moved value {t}");
                }
            }
            if r["status"] == "unknown" {
                assert_eq!(r["status_text"], "", "{what}");
            }
        }
    }
}

#[test]
fn notes_are_strings() {
    for corpus in CORPORA {
        strings(&json(corpus)["notes"]);
    }
}

#[test]
fn root_is_the_absolute_root_given() {
    let f = copy_fixture("why");
    let j = f.run_json(&[]).json();
    let root = j["root"].as_str().expect("root is a string");
    assert!(root.starts_with('/'), "root {root}");
    assert_eq!(
        std::fs::canonicalize(root).unwrap(),
        std::fs::canonicalize(&f.root).unwrap()
    );
}

// ------------------------------------------------------------------ raw text

#[test]
fn output_is_pretty_printed_with_two_spaces_and_a_final_newline() {
    let text = raw("why", &[]);
    assert!(text.starts_with("{\n  \"root\": "), "{text}");
    assert!(
        text.ends_with("}\n") && !text.ends_with("}\n\n"),
        "{text:?}"
    );
    assert!(text.contains("\n    {\n      \"id\": "), "{text}");
}

#[test]
fn output_is_the_same_bytes_on_every_run() {
    let f = copy_fixture("fields");
    let first = f.run_json(&[]);
    let second = f.run_json(&[]);
    assert_eq!(first.stdout, second.stdout);
    let first = f.run_json(&["why", "src"]);
    let second = f.run_json(&["why", "src"]);
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn top_level_keys_are_in_the_reference_order() {
    for args in [
        &[][..],
        &["why", "src/auth"][..],
        &["record", "ADR-0003"][..],
    ] {
        let text = raw("why", args);
        assert_eq!(object_keys_in_order(&text, 0), TOP, "{args:?}");
    }
}

#[test]
fn record_keys_are_in_the_reference_order() {
    for corpus in ["why", "fields", "checks/governed-path-moved"] {
        let text = raw(corpus, &[]);
        let at = first_object_in(&text, "records");
        assert_eq!(object_keys_in_order(&text, at), RECORD, "{corpus}");
    }
}

#[test]
fn finding_keys_are_in_the_contract_order() {
    let text = raw("checks/superseded-still-current", &[]);
    let at = first_object_in(&text, "findings");
    assert_eq!(object_keys_in_order(&text, at), FINDING);
}

#[test]
fn doc_keys_and_decision_keys_are_in_order() {
    let text = raw("checks/doc-cites-superseded", &[]);
    let at = first_object_in(&text, "docs");
    assert_eq!(object_keys_in_order(&text, at), DOC);

    let text = raw("why", &["why", "src/auth"]);
    let q = text.find("\n  \"query\": {").expect("query object") + "\n  \"query\": ".len();
    assert_eq!(
        object_keys_in_order(&text, q),
        ["why", "decisions", "mentioned_by", "related"]
    );
    let d = q + text[q..].find("\"decisions\": [").unwrap();
    let d = d + text[d..].find('{').unwrap();
    assert_eq!(object_keys_in_order(&text, d), DECISION);
}

#[test]
fn the_raw_scanner_sees_nested_keys_only_at_their_level() {
    let text = r#"{"a": {"x": 1}, "b": ["{\"c\": 2}", {"y": 3}], "d": "e,\"f\": g"}"#;
    assert_eq!(object_keys_in_order(text, 0), ["a", "b", "d"]);
}
