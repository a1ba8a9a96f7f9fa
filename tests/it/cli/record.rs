//! `record ID` (and `--record`): every id form, the record in full, and the Markdown answer.

use super::{assert_flag_agrees, markdown};
use crate::fixture::*;
use serde_json::json;

#[test]
fn record_accepts_every_id_form() {
    let f = copy_fixture("why");
    for form in ["ADR-0003", "ADR-3", "adr-3", "ADR 3", "adr-0003", "3"] {
        let run = f.run_json(&["record", form]);
        run.assert_code(0);
        let j = run.json();
        assert_eq!(j["query"], json!({"record": "ADR-0003"}), "record {form:?}");
        assert_eq!(ids(&j), ["ADR-0003"], "record {form:?}");
    }
    let j = f.run_json(&["record", "DR-5"]).json();
    assert_eq!(j["query"], json!({"record": "DR-0005"}));
}

#[test]
fn record_flag_and_subcommand_agree() {
    assert_flag_agrees(&["record", "ADR-3"], &["--record", "ADR-3"]);
}

#[test]
fn record_query_holds_the_record_in_full() {
    let f = copy_fixture("why");
    let j = f.run_json(&["record", "ADR-0001"]).json();
    assert_eq!(j["query"], json!({"record": "ADR-0001"}));
    let r = record(&j, "ADR-0001");
    assert_eq!(r["status"], "superseded");
    assert_eq!(list(r, "superseded_by"), ["ADR-0003"]);
    assert_eq!(list(r, "successors"), ["ADR-0003"]);
    assert_eq!(list(r, "governs"), ["src/auth/"]);
    assert_eq!(records(&j).len(), 1);
}

#[test]
fn record_markdown_shows_the_record_and_its_edges() {
    let f = copy_fixture("why");
    let (code, text) = markdown(&f, &["record", "ADR-0003"]);
    assert_eq!(code, Some(0));
    for needle in ["ADR-0003", "Auth module", "ADR-0001", "src/auth/"] {
        assert!(text.contains(needle), "missing {needle}:\n{text}");
    }
}
