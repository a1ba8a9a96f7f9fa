//! Links between records: supersedes, superseded by, amends, cites (and cited by), and successors.

use crate::fixture::*;

// ------------------------------------------------------------------ supersedes

#[test]
fn supersedes_from_text_with_short_id() {
    assert_eq!(list(&rec("fields", "ADR-0015"), "supersedes"), ["ADR-0001"]);
}

#[test]
fn supersedes_from_replaces_text() {
    assert!(list(&rec("fields", "ADR-0016"), "supersedes").contains(&"ADR-0002".to_string()));
    assert_eq!(list(&rec("rfcs", "DR-0002"), "supersedes"), ["RFC-0012"]);
}

#[test]
fn supersedes_from_a_link_to_a_record() {
    assert_eq!(
        list(&rec("adr-tools", "ADR-0003"), "supersedes"),
        ["ADR-0002"]
    );
    assert_eq!(
        list(&rec("fields", "ADR-0016"), "supersedes"),
        ["ADR-0002", "ADR-0003"]
    );
}

#[test]
fn supersedes_from_frontmatter_block_list_of_bare_numbers_and_ids() {
    assert_eq!(
        list(&rec("frontmatter", "ADR-0004"), "supersedes"),
        ["ADR-0001", "ADR-0002", "ADR-0003"]
    );
}

#[test]
fn supersedes_from_frontmatter_replaces() {
    assert_eq!(
        list(&rec("frontmatter", "ADR-0008"), "supersedes"),
        ["ADR-0007"]
    );
}

#[test]
fn supersedes_is_the_union_of_frontmatter_and_text() {
    assert_eq!(
        list(&rec("frontmatter", "ADR-0010"), "supersedes"),
        ["ADR-0011", "ADR-0013"]
    );
}

#[test]
fn supersedes_inside_fenced_blocks_is_not_read() {
    assert!(list(&rec("fields", "ADR-0027"), "supersedes").is_empty());
    assert!(list(&rec("nygard", "ADR-0004"), "supersedes").is_empty());
}

#[test]
fn supersedes_in_crlf_file() {
    assert_eq!(list(&rec("fields", "ADR-0029"), "supersedes"), ["ADR-0006"]);
}

// ------------------------------------------------------------------ superseded by

fn superseded_by(corpus: &str, id: &str) -> Vec<String> {
    list(&rec(corpus, id), "superseded_by")
}

#[test]
fn superseded_by_inside_the_status_line() {
    assert_eq!(superseded_by("fields", "ADR-0001"), ["ADR-0015"]);
    assert_eq!(superseded_by("statuses", "ADR-0020"), ["ADR-0006"]);
}

#[test]
fn superseded_by_inside_the_status_section() {
    assert_eq!(superseded_by("nygard", "ADR-0002"), ["ADR-0003"]);
}

#[test]
fn superseded_by_in_body_text() {
    assert_eq!(
        superseded_by("checks/superseded-still-current", "ADR-0005"),
        ["ADR-0006"]
    );
}

#[test]
fn replaced_by_text_is_superseded_by() {
    assert_eq!(superseded_by("fields", "ADR-0002"), ["ADR-0016"]);
    assert_eq!(superseded_by("statuses", "ADR-0021"), ["ADR-0006"]);
}

#[test]
fn superseded_by_a_numbered_link_to_a_record() {
    assert_eq!(superseded_by("adr-tools", "ADR-0002"), ["ADR-0003"]);
}

#[test]
fn superseded_by_a_link_whose_text_has_no_id() {
    assert_eq!(superseded_by("fields", "ADR-0003"), ["ADR-0016"]);
}

#[test]
fn superseded_by_frontmatter_snake_case() {
    assert_eq!(superseded_by("frontmatter", "ADR-0001"), ["ADR-0004"]);
}

#[test]
fn superseded_by_frontmatter_kebab_case_quoted_bare_number() {
    assert_eq!(superseded_by("frontmatter", "ADR-0002"), ["ADR-0004"]);
}

#[test]
fn superseded_by_frontmatter_camel_case_flow_list() {
    assert_eq!(superseded_by("frontmatter", "ADR-0003"), ["ADR-0004"]);
}

#[test]
fn superseded_by_frontmatter_replaced_by() {
    assert_eq!(superseded_by("frontmatter", "ADR-0007"), ["ADR-0008"]);
}

// ------------------------------------------------------------------ amends

macro_rules! amends_verb {
    ($($name:ident: $id:literal;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(list(&rec("fields", $id), "amends"), ["ADR-0004"]);
            assert!(list(&rec("fields", $id), "supersedes").is_empty());
        }
    )*};
}

amends_verb! {
    amends_text: "ADR-0017";
    extends_is_amends: "ADR-0018";
    refines_is_amends: "ADR-0019";
    narrows_is_amends: "ADR-0020";
    overrides_is_amends: "ADR-0021";
    modifies_is_amends: "ADR-0022";
}

#[test]
fn amends_from_frontmatter() {
    assert_eq!(
        list(&rec("frontmatter", "ADR-0009"), "amends"),
        ["ADR-0004"]
    );
}

#[test]
fn amends_from_a_link_to_a_record() {
    assert_eq!(list(&rec("adr-tools", "ADR-0004"), "amends"), ["ADR-0003"]);
}

#[test]
fn amended_by_is_not_amends() {
    assert!(list(&rec("adr-tools", "ADR-0003"), "amends").is_empty());
}

#[test]
fn amends_inside_fenced_blocks_is_not_read() {
    assert!(list(&rec("fields", "ADR-0027"), "amends").is_empty());
}

// ------------------------------------------------------------------ cites

#[test]
fn cites_every_mention_spelling_and_links_to_records() {
    // `ADR 0004`, `adr_5`, `DD-4` (→ DR-0004), and links to two record files.
    assert_eq!(
        list(&rec("fields", "ADR-0023"), "cites"),
        ["ADR-0004", "ADR-0005", "DR-0004"]
    );
}

#[test]
fn cites_dd_mention_as_dr() {
    assert!(list(&rec("rfcs", "DR-0001"), "cites").contains(&"DR-0002".to_string()));
}

#[test]
fn cites_across_prefixes() {
    assert_eq!(
        list(&rec("rfcs", "DR-0001"), "cites"),
        ["DR-0002", "RFC-0013"]
    );
}

#[test]
fn cites_a_link_to_a_record_file() {
    assert_eq!(list(&rec("fields", "ADR-0024"), "cites"), ["ADR-0005"]);
}

#[test]
fn own_id_is_not_a_citation() {
    assert!(list(&rec("fields", "ADR-0007"), "cites").is_empty());
    assert!(list(&rec("fields", "ADR-0008"), "cites").is_empty());
    assert!(!list(&rec("fields", "ADR-0023"), "cites").contains(&"ADR-0023".to_string()));
    assert_eq!(
        list(&rec("checks/unknown-reference", "ADR-0002"), "cites"),
        ["ADR-0001"]
    );
}

#[test]
fn cited_by_is_the_inverse_of_cites() {
    assert_eq!(
        list(&rec("fields", "ADR-0005"), "cited_by"),
        ["ADR-0023", "ADR-0024"]
    );
    assert_eq!(list(&rec("fields", "DR-0004"), "cited_by"), ["ADR-0023"]);
    assert_eq!(list(&rec("rfcs", "RFC-0013"), "cited_by"), ["DR-0001"]);
}

#[test]
fn cites_inside_fenced_blocks_are_not_read() {
    assert!(list(&rec("fields", "ADR-0027"), "cites").is_empty());
    assert!(list(&rec("nygard", "ADR-0004"), "cites").is_empty());
    assert!(list(&rec("checks/unknown-reference", "ADR-0003"), "cites").is_empty());
}

#[test]
fn web_links_are_neither_citations_nor_paths() {
    let r = rec("adr-tools", "ADR-0001");
    assert!(list(&r, "cites").is_empty(), "{r:#}");
    assert!(list(&r, "governs").is_empty(), "{r:#}");
    assert!(list(&r, "missing_paths").is_empty(), "{r:#}");
}

// ------------------------------------------------------------------ successors

#[test]
fn successors_join_both_sides_and_list_the_one_sided_claims() {
    let r = rec("checks/superseded-still-current", "ADR-0001");
    assert_eq!(list(&r, "successors"), ["ADR-0002"]);
    assert_eq!(
        list(&r, "successors_only_claimed_by_successor"),
        ["ADR-0002"]
    );
    let r = rec("rfcs", "RFC-0012");
    assert_eq!(list(&r, "successors"), ["DR-0002"]);
    assert_eq!(
        list(&r, "successors_only_claimed_by_successor"),
        ["DR-0002"]
    );
    let r = rec("checks/successor-not-reciprocal", "ADR-0001");
    assert_eq!(list(&r, "successors"), ["ADR-0002"]);
    assert!(list(&r, "successors_only_claimed_by_successor").is_empty());
    let r = rec("checks/successor-not-reciprocal", "ADR-0003");
    assert_eq!(list(&r, "successors"), ["ADR-0004"]);
    assert!(list(&r, "successors_only_claimed_by_successor").is_empty());
}
