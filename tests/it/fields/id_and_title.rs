//! A record's id (frontmatter, the file name, the folder's prefix) and title (frontmatter, the
//! heading, the file stem), and CRLF files read as if LF.

use super::s;
use crate::fixture::*;

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

#[test]
fn crlf_frontmatter_is_read() {
    let r = rec("fields", "ADR-0030");
    assert_eq!(r["status"], "accepted");
    assert_eq!(r["date"], "2024-06-02");
    assert_eq!(s(&r["path"]), "docs/adr/0030-crlf-frontmatter.md");
}
