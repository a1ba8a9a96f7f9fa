//! One test per field rule of the reference's Fields table and per parsing form of issue 2,
//! each read through the binary from the fixtures (`fixtures/<style>/`), plus one test per
//! fixture comparing the whole answer with its `expected.json`.

use crate::fixture::*;
use serde_json::{json, Value};

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

// ------------------------------------------------------------------ whole corpora

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

// ------------------------------------------------------------------ id

#[test]
fn id_from_frontmatter_id_quoted_bare_number() {
    let j = json("frontmatter");
    assert_eq!(
        record_at(&j, "docs/adr/grpc-for-internal-apis.md")["id"],
        "ADR-0012"
    );
}

#[test]
fn id_from_frontmatter_id_integer() {
    let j = json("checks/duplicate-id");
    assert_eq!(record_at(&j, "docs/adr/three-again.md")["id"], "ADR-0003");
}

#[test]
fn id_from_frontmatter_adr_key() {
    let j = json("frontmatter");
    assert_eq!(
        record_at(&j, "docs/adr/event-sourcing.md")["id"],
        "ADR-0015"
    );
}

#[test]
fn id_from_frontmatter_rfc_key() {
    let j = json("rfcs");
    assert_eq!(
        record_at(&j, "rfcs/structured-logging.md")["id"],
        "RFC-0030"
    );
}

#[test]
fn id_from_leading_number_of_file_name() {
    let j = json("nygard");
    assert_eq!(
        record_at(
            &j,
            "docs/architecture/decisions/0003-use-the-outbox-pattern.md"
        )["id"],
        "ADR-0003"
    );
}

#[test]
fn id_from_adr_dash_number_file_name() {
    let j = json("fields");
    assert_eq!(
        record_at(&j, "docs/adr/adr-7-title-with-an-adr-prefix.md")["id"],
        "ADR-0007"
    );
}

#[test]
fn id_keeps_numbers_longer_than_four_digits() {
    let j = json("rfcs");
    assert_eq!(
        record_at(&j, "rfcs/text/12345-big-number.md")["id"],
        "RFC-12345"
    );
}

#[test]
fn id_prefix_comes_from_the_folder() {
    let d = json("discovery");
    assert_eq!(
        record_at(&d, "docs/decisions/0003-decisions-folder.md")["id"],
        "ADR-0003"
    );
    assert_eq!(
        record_at(&d, "architecture/decisions/0005-architecture-decisions.md")["id"],
        "ADR-0005"
    );
    assert_eq!(
        record_at(&d, "docs/rfc/0007-rfc-folder.md")["id"],
        "RFC-0007"
    );
    assert_eq!(
        record_at(&d, "docs/designs/0008-designs-folder.md")["id"],
        "DR-0008"
    );
    let r = json("rfcs");
    assert_eq!(
        record_at(&r, "rfcs/0012-async-runtime.md")["id"],
        "RFC-0012"
    );
    assert_eq!(
        record_at(&r, "docs/design/0001-cache-layout.md")["id"],
        "DR-0001"
    );
}

#[test]
fn id_of_a_file_without_number_is_its_stem() {
    let j = json("fields");
    assert_eq!(
        record_at(&j, "docs/adr/no-number-at-all.md")["id"],
        "no-number-at-all"
    );
}

// ------------------------------------------------------------------ title

#[test]
fn title_from_frontmatter_wins_over_heading() {
    assert_eq!(rec("frontmatter", "ADR-0001")["title"], "Use PostgreSQL");
    assert_eq!(
        rec("frontmatter", "ADR-0009")["title"],
        "Frontmatter title wins"
    );
}

#[test]
fn title_from_quoted_frontmatter_scalars() {
    assert_eq!(
        rec("frontmatter", "ADR-0002")["title"],
        "Use Redis as a cache"
    );
    assert_eq!(
        rec("frontmatter", "ADR-0003")["title"],
        "Use RabbitMQ for events"
    );
}

#[test]
fn title_from_heading_with_adr_space_number_colon_removed() {
    assert_eq!(
        rec("fields", "ADR-0007")["title"],
        "Title with an ADR prefix"
    );
}

#[test]
fn title_from_heading_with_adr_dash_number_colon_removed() {
    assert_eq!(rec("fields", "ADR-0008")["title"], "Dashed prefix");
}

#[test]
fn title_from_heading_with_number_dot_removed() {
    assert_eq!(rec("fields", "ADR-0009")["title"], "Numbered heading");
    assert_eq!(
        rec("nygard", "ADR-0001")["title"],
        "Record architecture decisions"
    );
    assert_eq!(rec("adr-tools", "ADR-0002")["title"], "Use MySQL");
}

#[test]
fn title_from_plain_heading() {
    assert_eq!(
        rec("madr", "ADR-0001")["title"],
        "Use Markdown Architectural Decision Records"
    );
}

#[test]
fn title_falls_back_to_the_file_stem() {
    assert_eq!(rec("fields", "ADR-0010")["title"], "0010-no-heading");
}

#[test]
fn crlf_files_leave_no_carriage_return_in_any_field() {
    for (corpus, id) in [
        ("nygard", "ADR-0002"),
        ("madr", "ADR-0004"),
        ("status-table", "ADR-0003"),
        ("fields", "ADR-0029"),
        ("fields", "ADR-0030"),
    ] {
        let r = rec(corpus, id);
        let text = serde_json::to_string(&r).unwrap();
        assert!(!text.contains("\\r"), "{corpus} {id} keeps a \\r: {text}");
    }
    assert_eq!(
        rec("nygard", "ADR-0002")["title"],
        "Use an event queue between orders and payments"
    );
    assert_eq!(rec("fields", "ADR-0029")["title"], "Windows line endings");
    assert_eq!(rec("fields", "ADR-0030")["title"], "Frontmatter with CRLF");
}

// ------------------------------------------------------------------ status forms

fn assert_status(corpus: &str, id: &str, status: &str, text: &str) {
    let r = rec(corpus, id);
    assert_eq!(
        (s(&r["status"]), s(&r["status_text"])),
        (status, text),
        "{corpus} {id}"
    );
}

#[test]
fn status_from_frontmatter_wins_over_status_line() {
    assert_status("frontmatter", "ADR-0009", "accepted", "accepted");
}

#[test]
fn status_from_quoted_frontmatter_scalar() {
    assert_status("frontmatter", "ADR-0002", "superseded", "Superseded");
}

#[test]
fn status_from_status_line() {
    assert_status("fields", "ADR-0004", "accepted", "Accepted");
    assert_status("rfcs", "RFC-0012", "superseded", "Replaced");
}

#[test]
fn status_from_bold_label_with_colon_inside() {
    assert_status("madr", "ADR-0003", "accepted", "Accepted");
}

#[test]
fn status_from_bold_label_with_colon_outside() {
    assert_status("madr", "ADR-0004", "accepted", "Accepted");
}

#[test]
fn status_from_dash_bullet() {
    assert_status("madr", "ADR-0002", "proposed", "proposed");
}

#[test]
fn status_from_star_bullet() {
    assert_status("madr", "ADR-0001", "accepted", "accepted");
}

#[test]
fn status_from_line_right_under_status_heading() {
    assert_status("nygard", "ADR-0001", "accepted", "Accepted");
    assert_status("nygard", "ADR-0005", "rejected", "Rejected");
}

#[test]
fn status_from_first_line_under_status_heading_after_a_blank_line() {
    assert_status("nygard", "ADR-0003", "accepted", "Accepted");
    assert_status("adr-tools", "ADR-0003", "accepted", "Accepted");
}

#[test]
fn status_from_status_heading_with_superseded_by_link() {
    assert_status(
        "adr-tools",
        "ADR-0002",
        "superseded",
        "Superseded by [3. Use PostgreSQL](0003-use-postgresql.md)",
    );
}

#[test]
fn status_from_table_header_row_and_the_row_below() {
    assert_status("status-table", "ADR-0001", "accepted", "Accepted");
    assert_status("status-table", "ADR-0003", "proposed", "Proposed");
}

#[test]
fn status_from_table_key_value_row() {
    assert_status("status-table", "ADR-0002", "deprecated", "Deprecated");
}

#[test]
fn status_line_is_read_before_status_section() {
    assert_status("fields", "ADR-0028", "accepted", "Accepted");
}

#[test]
fn status_inside_fenced_blocks_is_not_read() {
    // ``` and ~~~ fences hold examples, not the record's status.
    assert_status("fields", "ADR-0027", "unknown", "");
    assert_status("nygard", "ADR-0004", "unknown", "");
    assert_status("checks/status-missing", "ADR-0002", "unknown", "");
    // A real status after a fenced example is the one read.
    assert_status("madr", "ADR-0005", "rejected", "rejected");
    assert_status("status-table", "ADR-0004", "rejected", "Rejected");
}

#[test]
fn status_from_broken_frontmatter_falls_back_to_text() {
    let j = json("frontmatter");
    let r = record_at(&j, "docs/adr/0005-broken-frontmatter.md");
    assert_eq!(r["id"], "ADR-0005");
    assert_eq!(r["status"], "accepted");
    assert_eq!(r["title"], "Broken frontmatter still counts");
}

#[test]
fn invalid_yaml_keeps_the_record_and_notes_it() {
    let j = json("frontmatter");
    let notes = strings(&j["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("docs/adr/0005-broken-frontmatter.md")),
        "no note names the file with invalid YAML: {notes:?}"
    );
    assert!(records(&j)
        .iter()
        .any(|r| r["path"] == "docs/adr/0005-broken-frontmatter.md"));
}

// ------------------------------------------------------------------ status normalisation

macro_rules! status_word {
    ($($name:ident: $id:literal => $status:literal, $text:literal;)*) => {$(
        #[test]
        fn $name() {
            assert_status("statuses", $id, $status, $text);
        }
    )*};
}

status_word! {
    status_proposed_is_proposed: "ADR-0001" => "proposed", "Proposed";
    status_draft_is_proposed: "ADR-0002" => "proposed", "Draft";
    status_open_is_proposed: "ADR-0003" => "proposed", "open";
    status_review_is_proposed: "ADR-0004" => "proposed", "Review";
    status_rfc_is_proposed: "ADR-0005" => "proposed", "RFC";
    status_accepted_is_accepted: "ADR-0006" => "accepted", "Accepted";
    status_approved_is_accepted: "ADR-0007" => "accepted", "Approved";
    status_agreed_is_accepted: "ADR-0008" => "accepted", "Agreed";
    status_adopted_is_accepted: "ADR-0009" => "accepted", "Adopted";
    status_active_is_accepted: "ADR-0010" => "accepted", "Active";
    status_implemented_is_implemented: "ADR-0011" => "implemented", "Implemented";
    status_done_is_implemented: "ADR-0012" => "implemented", "Done";
    status_shipped_is_implemented: "ADR-0013" => "implemented", "Shipped";
    status_rejected_is_rejected: "ADR-0014" => "rejected", "Rejected";
    status_declined_is_rejected: "ADR-0015" => "rejected", "Declined";
    status_withdrawn_is_rejected: "ADR-0016" => "rejected", "Withdrawn";
    status_deprecated_is_deprecated: "ADR-0017" => "deprecated", "Deprecated";
    status_retired_is_deprecated: "ADR-0018" => "deprecated", "Retired";
    status_obsolete_is_deprecated: "ADR-0019" => "deprecated", "Obsolete";
    status_superseded_by_is_superseded: "ADR-0020" => "superseded", "Superseded by ADR-0006";
    status_replaced_by_is_superseded: "ADR-0021" => "superseded", "Replaced by ADR-0006";
    status_none_is_unknown_with_empty_text: "ADR-0022" => "unknown", "";
    status_unknown_word_is_unrecognised: "ADR-0023" => "unrecognised", "Pondering";
    status_words_are_case_insensitive: "ADR-0024" => "accepted", "ACCEPTED";
}

#[test]
fn status_replaced_in_frontmatter_is_superseded_and_adopted_is_accepted() {
    assert_status("frontmatter", "ADR-0007", "superseded", "replaced");
    assert_status("frontmatter", "ADR-0008", "accepted", "adopted");
    assert_status("frontmatter", "ADR-0015", "proposed", "draft");
    assert_status("rfcs", "RFC-0030", "proposed", "Open");
}

// ------------------------------------------------------------------ date

fn date(corpus: &str, id: &str) -> Value {
    rec(corpus, id)["date"].clone()
}

#[test]
fn date_from_frontmatter_date() {
    assert_eq!(date("frontmatter", "ADR-0001"), "2024-01-10");
    assert_eq!(date("frontmatter", "ADR-0008"), "2024-03-02");
}

#[test]
fn date_from_frontmatter_created() {
    assert_eq!(date("frontmatter", "ADR-0002"), "2024-01-12");
}

#[test]
fn date_from_frontmatter_decided() {
    assert_eq!(date("frontmatter", "ADR-0003"), "2024-01-15");
}

#[test]
fn date_from_frontmatter_accepted() {
    assert_eq!(date("frontmatter", "ADR-0004"), "2024-02-01");
}

#[test]
fn date_from_date_line() {
    assert_eq!(date("adr-tools", "ADR-0001"), "2024-01-05");
    assert_eq!(date("frontmatter", "ADR-0009"), "2024-04-04");
}

#[test]
fn date_from_bullet_date_line() {
    assert_eq!(date("madr", "ADR-0001"), "2024-02-01");
    assert_eq!(date("madr", "ADR-0002"), "2024-02-03");
}

#[test]
fn date_line_wins_over_an_earlier_iso_date() {
    assert_eq!(date("fields", "ADR-0012"), "2024-01-05");
}

#[test]
fn date_falls_back_to_first_iso_date_in_first_15_lines() {
    assert_eq!(date("fields", "ADR-0011"), "2024-05-06");
    assert_eq!(date("nygard", "ADR-0002"), "2023-11-20");
    assert_eq!(date("madr", "ADR-0004"), "2024-02-07");
    assert_eq!(date("status-table", "ADR-0001"), "2024-03-01");
    assert_eq!(date("status-table", "ADR-0002"), "2024-03-05");
}

#[test]
fn date_after_line_15_is_not_read() {
    assert_eq!(date("fields", "ADR-0013"), Value::Null);
}

#[test]
fn non_iso_dates_are_ignored() {
    assert_eq!(date("fields", "ADR-0014"), Value::Null);
}

#[test]
fn no_date_anywhere_is_null() {
    assert_eq!(date("nygard", "ADR-0001"), Value::Null);
    assert_eq!(date("fields", "ADR-0004"), "2023-02-01");
}

#[test]
fn dates_inside_fenced_blocks_are_not_read() {
    assert_eq!(date("fields", "ADR-0027"), Value::Null);
    assert_eq!(date("nygard", "ADR-0004"), Value::Null);
    assert_eq!(date("status-table", "ADR-0004"), Value::Null);
    assert_eq!(date("madr", "ADR-0005"), "2024-02-20");
}

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

// ------------------------------------------------------------------ governs

fn governs(corpus: &str, id: &str) -> Vec<String> {
    list(&rec(corpus, id), "governs")
}

#[test]
fn governs_a_backticked_file() {
    assert!(governs("fields", "ADR-0025").contains(&"src/auth/login.py".to_string()));
    assert_eq!(governs("frontmatter", "ADR-0004"), ["src/auth/login.py"]);
}

#[test]
fn governs_a_linked_path_relative_to_the_record_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/auth/session.py".to_string()));
}

#[test]
fn governs_dir_star_as_the_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/billing/".to_string()));
}

#[test]
fn governs_dir_double_star_as_the_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/api/".to_string()));
    assert_eq!(
        governs("checks/overlapping-governance", "ADR-0002"),
        ["src/auth/"]
    );
}

#[test]
fn governs_folders_with_a_trailing_slash() {
    assert_eq!(governs("fields", "ADR-0026"), ["src/billing/"]);
    assert_eq!(
        governs("nygard", "ADR-0003"),
        ["app/orders/outbox.py", "app/payments/"]
    );
}

#[test]
fn governs_exactly_the_named_existing_paths() {
    assert_eq!(
        governs("fields", "ADR-0025"),
        [
            "src/api/",
            "src/auth/login.py",
            "src/auth/session.py",
            "src/billing/"
        ]
    );
}

#[test]
fn a_path_escaping_the_root_never_counts() {
    // The copied fixture has `../outside/secret.py` next to it: it exists, and must not count.
    let fixture = copy_fixture("fields");
    assert!(fixture.root.join("../outside/secret.py").is_file());
    let run = fixture.run_json(&[]);
    let j = run.json();
    let r = record(&j, "ADR-0025");
    for key in ["governs", "missing_paths"] {
        for p in list(r, key) {
            assert!(
                !p.contains("secret") && !p.contains("..") && !p.starts_with('/'),
                "{key} holds a path outside the root: {p}"
            );
        }
    }
    let moved = serde_json::to_string(&r["moved"]).unwrap();
    assert!(!moved.contains("secret"), "moved: {moved}");
}

#[test]
fn links_to_records_are_citations_not_governed_paths() {
    assert!(governs("fields", "ADR-0024").is_empty());
    assert!(governs("fields", "ADR-0023").is_empty());
    assert!(list(&rec("fields", "ADR-0024"), "missing_paths").is_empty());
    assert!(governs("fields", "ADR-0003").is_empty());
    assert!(governs("fields", "ADR-0016").is_empty());
}

#[test]
fn commands_and_urls_in_backticks_or_links_are_not_paths() {
    let r = rec("fields", "ADR-0025");
    for key in ["governs", "missing_paths"] {
        for p in list(&r, key) {
            assert!(
                !p.contains("cargo") && !p.contains("example.com") && !p.contains("https"),
                "{key}: {p}"
            );
        }
    }
}

#[test]
fn governs_in_a_crlf_file() {
    assert_eq!(governs("fields", "ADR-0029"), ["src/billing/invoice.py"]);
    assert_eq!(governs("madr", "ADR-0004"), ["api/handlers/"]);
}

#[test]
fn paths_inside_fenced_blocks_are_not_read() {
    assert!(governs("fields", "ADR-0027").is_empty());
    assert!(governs("nygard", "ADR-0004").is_empty());
    assert!(list(&rec("fields", "ADR-0027"), "missing_paths").is_empty());
}

// ------------------------------------------------------------------ missing paths

#[test]
fn missing_path_under_an_existing_top_level_folder() {
    assert_eq!(
        list(&rec("fields", "ADR-0025"), "missing_paths"),
        ["src/auth/federation/provider.py"]
    );
    assert_eq!(
        list(
            &rec("checks/governed-path-gone", "ADR-0001"),
            "missing_paths"
        ),
        ["src/payments/refund.py"]
    );
}

#[test]
fn a_path_whose_first_part_is_not_a_top_level_folder_is_not_missing() {
    let r = rec("checks/governed-path-gone", "ADR-0003");
    assert!(list(&r, "missing_paths").is_empty(), "{r:#}");
    assert!(list(&r, "governs").is_empty(), "{r:#}");
}

#[test]
fn missing_paths_are_listed_for_records_that_are_not_current() {
    assert_eq!(
        list(
            &rec("checks/governed-path-gone", "ADR-0002"),
            "missing_paths"
        ),
        ["src/payments/refund.py"]
    );
}

// ------------------------------------------------------------------ moved

fn moved(corpus: &str, id: &str) -> Value {
    rec(corpus, id)["moved"].clone()
}

#[test]
fn moved_to_a_sibling_whose_name_it_contains() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0001"),
        json!({"services/ledger-sync": ["services/ledger"]})
    );
    assert_eq!(
        list(
            &rec("checks/governed-path-moved", "ADR-0001"),
            "missing_paths"
        ),
        ["services/ledger-sync"]
    );
}

#[test]
fn moved_to_a_sibling_within_a_small_edit_distance() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0002"),
        json!({"src/autth": ["src/auth"]})
    );
}

#[test]
fn moved_compares_names_case_insensitively_without_trailing_slash() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0003"),
        json!({"services/Billing-Old": ["services/billing"]})
    );
}

#[test]
fn moved_is_empty_without_a_close_sibling() {
    assert_eq!(moved("checks/governed-path-gone", "ADR-0001"), json!({}));
    assert_eq!(moved("fields", "ADR-0025"), json!({}));
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

#[test]
fn crlf_frontmatter_is_read() {
    let r = rec("fields", "ADR-0030");
    assert_eq!(r["status"], "accepted");
    assert_eq!(r["date"], "2024-06-02");
    assert_eq!(s(&r["path"]), "docs/adr/0030-crlf-frontmatter.md");
}
