//! Each fixture corpus's whole answer against its `expected.json`.

use crate::fixture::*;

#[test]
fn corpus_frontmatter_matches_expected() {
    assert_corpus("frontmatter");
}

#[test]
fn corpus_nygard_matches_expected() {
    assert_corpus("nygard");
}

#[test]
fn corpus_adr_tools_matches_expected() {
    assert_corpus("adr-tools");
}

#[test]
fn corpus_madr_matches_expected() {
    assert_corpus("madr");
}

#[test]
fn corpus_status_table_matches_expected() {
    assert_corpus("status-table");
}

#[test]
fn corpus_rfcs_matches_expected() {
    assert_corpus("rfcs");
}

#[test]
fn corpus_statuses_matches_expected() {
    assert_corpus("statuses");
}

#[test]
fn corpus_fields_matches_expected() {
    assert_corpus("fields");
}

#[test]
fn corpus_discovery_matches_expected() {
    assert_corpus("discovery");
}

#[test]
fn corpus_why_matches_expected() {
    assert_corpus("why");
}
