//! A record's status: every form it is read from (frontmatter, a status line, a bold label, a
//! bullet, a status heading, a table), what is not read, and the word each status normalises to.

use super::s;
use crate::fixture::*;

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
    status_in_review_is_proposed: "ADR-0025" => "proposed", "In Review";
    status_under_discussion_is_proposed: "ADR-0026" => "proposed", "Under discussion";
    status_extended_by_is_accepted: "ADR-0027" => "accepted", "Extended by [ADR-0006](0006-status-accepted.md)";
}

#[test]
fn status_replaced_in_frontmatter_is_superseded_and_adopted_is_accepted() {
    assert_status("frontmatter", "ADR-0007", "superseded", "replaced");
    assert_status("frontmatter", "ADR-0008", "accepted", "adopted");
    assert_status("frontmatter", "ADR-0015", "proposed", "draft");
    assert_status("rfcs", "RFC-0030", "proposed", "Open");
}
