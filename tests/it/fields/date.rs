//! A record's date: frontmatter keys, a date line, or the first ISO date near the top; never a
//! fenced block.

use crate::fixture::*;
use serde_json::Value;

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
