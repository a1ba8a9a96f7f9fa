//! Unit tests of `parse::fields`.

use super::*;
use crate::text::markdown::visible_lines;

fn status(text: &str) -> (Status, String) {
    let all: Vec<&str> = text.split('\n').collect();
    read_status(&Frontmatter::default(), &visible_lines(&all, 0))
}

#[test]
fn dated_names_carry_a_date() {
    assert_eq!(date_in_name("20240611-x").as_deref(), Some("2024-06-11"));
    assert_eq!(date_in_name("2024-06-11-x").as_deref(), Some("2024-06-11"));
    assert_eq!(
        date_in_name("2022-11-2-14714-x").as_deref(),
        Some("2022-11-02")
    );
    assert_eq!(number_after_date("2022-11-2-14714-x"), Some("14714"));
    // Day and month swapped, where the first cannot be a month (shopware's).
    assert_eq!(
        date_in_name("2022-21-11-replace-drop-shadow").as_deref(),
        Some("2022-11-21")
    );
    assert_eq!(
        date_in_name("2022-27-09-vue-2.7-update").as_deref(),
        Some("2022-09-27")
    );
    assert_eq!(
        date_in_name("2022-31-02-x"),
        None,
        "no 31 February either way"
    );
    assert_eq!(number_after_date("20210504-1234-x"), Some("1234"));
    assert_eq!(number_after_date("2021-05-04-retry-budget"), None);
    assert_eq!(number_after_date("2021-05-04-3d-graphics"), None);
    // hydra: the date ends at a `_` before the number.
    assert_eq!(
        number_after_date("2021-06-05_001-record-decisions"),
        Some("001")
    );
    assert_eq!(number_after_date("20210605_001-x"), Some("001"));
    assert_eq!(date_in_name("2021-06-05_notes"), None);
    // Not a real day, not a plausible year, no dash after it, or a sequence number.
    for stem in [
        "20241341-x",
        "2024-02-30-x",
        "00010101-x",
        "20240611",
        "20240611x",
        "2024-06-11",
        "0007-x",
        "12345-x",
    ] {
        assert_eq!(date_in_name(stem), None, "{stem}");
    }
}

#[test]
fn a_generic_file_in_a_folder_of_its_own_takes_the_folder_name() {
    assert_eq!(
        record_stem("docs/rfcs/2022-12-20-promql-in-rust/rfc.md"),
        "2022-12-20-promql-in-rust"
    );
    assert_eq!(record_stem("rfcs/0012-cache/RFC.md"), "0012-cache");
    assert_eq!(record_stem("docs/design/sparse/Design.md"), "sparse");
    assert_eq!(record_stem("adr/x/proposal.md"), "x");
    assert_eq!(record_stem("adr/x/decision.md"), "x");
    // The folder is the stem and a number: the stem is the kind, the folder which one.
    assert_eq!(record_stem("docs/en/swip/SWIP-10/SWIP.md"), "SWIP-10");
    assert_eq!(record_stem("keps/kep_42/KEP.md"), "kep_42");
    assert_eq!(record_stem("docs/en/swip/SWIPE-10/SWIP.md"), "SWIP");
    assert_eq!(record_stem("docs/en/swip/SWIP-draft/SWIP.md"), "SWIP");
    // Not generic, or in a folder of many records, or at the top.
    assert_eq!(record_stem("docs/rfcs/x/notes.md"), "notes");
    assert_eq!(record_stem("docs/rfcs/rfc.md"), "rfc");
    assert_eq!(record_stem("docs/adr/adr.md"), "adr");
    assert_eq!(record_stem("docs/design/design.md"), "design");
    assert_eq!(record_stem("rfc.md"), "rfc");
}

#[test]
fn pending_and_superceded_are_known() {
    assert_eq!(normalise_status("Pending"), Status::Proposed);
    assert_eq!(normalise_status("Pending implementation"), Status::Proposed);
    assert_eq!(
        normalise_status("Superceded by [7. X](0007-x.md)"),
        Status::Superseded
    );
}

#[test]
fn status_lines_count_in_the_header_and_the_status_section() {
    assert_eq!(status("# T\n\nStatus: Frozen\n\n## Context\n").1, "Frozen");
    assert_eq!(status("# T\n\n## Status\n\nStatus: Frozen\n").1, "Frozen");
    // Elsewhere, only with a status word.
    assert_eq!(
        status("# T\n\n## Context\n\nStatus: the state\n").0,
        Status::Unknown
    );
    assert_eq!(
        status("# T\n\n## Notes\n\nStatus: accepted\n").0,
        Status::Accepted
    );
    // A status section beats a body line, even one with a status word.
    assert_eq!(
        status("# T\n\n## Status\n\nProposed\n\n## Notes\n\n- Status: approved\n").0,
        Status::Proposed
    );
    // The header line beats the status section, as before.
    assert_eq!(
        status("# T\n\nStatus: Accepted\n\n## Status\n\nProposed\n").0,
        Status::Accepted
    );
    // `#hashtag` is not a heading; indented code is not read as one either.
    assert_eq!(
        status("# T\n#status\n\nStatus: Draft\n").0,
        Status::Proposed
    );
}

#[test]
fn metadata_tables() {
    for (table, want) in [
        (
            "Status | Accepted\n:--- | :---\n**RFC #** | [1](https://x)",
            "Accepted",
        ),
        (
            "| Status | Accepted |\n| :--- | :--- |\n| **RFC #** | 1 |",
            "Accepted",
        ),
        (
            "| Status | Accepted |\n:--- | :---|\n| **RFC #** | 1 |",
            "Accepted",
        ),
        (
            "| Status | Frozen |\n| :--- | :--- |\n| **RFC #** | 1 |",
            "Frozen",
        ),
        (
            "| Status | Frozen |\n| :--- | :--- |\n| Owner: | Ana |",
            "Frozen",
        ),
        ("| **Status** | Accepted |", "Accepted"),
        (
            "| Status | Date |\n|---|---|\n| Proposed | 2024-01-01 |",
            "Proposed",
        ),
        (
            "| Date | Status |\n|---|---|\n| 2024-01-01 | Rejected |",
            "Rejected",
        ),
        (
            "| Status | Date |\n|---|---|\n| Frozen | 2024-01-01 |",
            "Frozen",
        ),
    ] {
        assert_eq!(status(&format!("# T\n\n{table}\n")).1, want, "{table}");
    }
    // A pipe in prose is not a table.
    assert_eq!(status("# T\n\nStatus | Accepted\n").0, Status::Unknown);
    assert_eq!(
        status("# T\n\n## Status\n\nAccepted\n\n## Terms\n\nStatus | the state\n:--|:--\n").0,
        Status::Accepted
    );
}

#[test]
fn section_headings() {
    for h in [
        "Summary",
        "summary",
        "SUMMARY:",
        "Context",
        "Motivation!",
        "Abstract",
        "Status",
        "Decision:",
        "Superseded!",
        "Deprecated",
    ] {
        assert!(is_section_heading(h), "{h}");
    }
    for h in ["Summary of the cache", "Use X", "Superseded by RFC 44", ""] {
        assert!(!is_section_heading(h), "{h}");
    }
}

#[test]
fn plain_text_of_a_heading() {
    for (h, want) in [
        ("[ADR 5](x.md): Use **Y**", "ADR 5: Use Y"),
        ("Use __Y__ and *Z* and _W_", "Use Y and Z and W"),
        ("[ADR 6][adr-6]: Drop [it][]", "ADR 6: Drop it"),
        ("See ![the diagram](d.png)", "See the diagram"),
        ("Keep snake_case_names", "Keep snake_case_names"),
        ("Multiply 2 * 3 * 4", "Multiply 2 * 3 * 4"),
        ("**unclosed", "**unclosed"),
        ("Café **crème**", "Café crème"),
        ("  spaced   out  ", "spaced out"),
    ] {
        assert_eq!(plain_text(h), want, "{h}");
    }
}

#[test]
fn a_long_heading_is_read_in_linear_time() {
    let h = "*a* _b_ **c** ".repeat(20_000);
    let t = std::time::Instant::now();
    assert!(plain_text(&h).starts_with("a b c a b c"));
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn a_comment_in_the_status_section_is_not_the_status() {
    let (st, text) = status("# 3. Use SPDX\n\n## Status\n<!--\nA decision may be \"proposed\" or \"accepted\".\n-->\nAccepted\n\n## Context\n");
    assert_eq!((st, text.as_str()), (Status::Accepted, "Accepted"));
    let (st, _) = status("# 4. X\n\n## Status\n\n<!-- the template's help -->\nProposed\n");
    assert_eq!(st, Status::Proposed);
}
