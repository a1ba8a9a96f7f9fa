//! Status and date: from frontmatter, a `Status:`/`Date:` line, a table, or a section, in the
//! reference's order (ADR-0001).

use crate::model::Status;
use crate::text::date::first_iso_date;
use crate::text::frontmatter::Frontmatter;
use regex::Regex;
use std::sync::OnceLock;

/// `Status: X`, `**Status:** X`, `**Status**: X`, `- Status: X`, `* Status: X`.
fn field_line_re(name: &str) -> Regex {
    Regex::new(&format!(
        r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?{name}(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*?)\s*$"
    ))
    .expect("field regex compiles")
}

fn status_line_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| field_line_re("status"))
}

fn date_line_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| field_line_re("date"))
}

/// Strips emphasis, backticks and list markers from a field's value.
fn clean_value(v: &str) -> String {
    let v = v.trim();
    let v = v
        .strip_prefix("- ")
        .or_else(|| v.strip_prefix("* "))
        .or_else(|| v.strip_prefix("+ "))
        .unwrap_or(v);
    v.trim_matches(|c: char| c == '*' || c == '_' || c == '`' || c.is_whitespace())
        .to_string()
}

fn line_field(lines: &[(usize, &str)], re: &Regex) -> Option<String> {
    lines.iter().find_map(|(_, l)| {
        re.captures(l)
            .and_then(|c| c.get(1))
            .map(|m| clean_value(m.as_str()))
            .filter(|v| !v.is_empty())
    })
}

fn table_cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(clean_value).collect())
}

fn is_separator_row(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
}

/// A status table: a header row naming `name` with the value below it, or a `| name | X |` row.
fn table_field(lines: &[(usize, &str)], name: &str) -> Option<String> {
    let rows: Vec<Option<Vec<String>>> = lines.iter().map(|(_, l)| table_cells(l)).collect();
    for (i, row) in rows.iter().enumerate() {
        let Some(cells) = row else { continue };
        if cells.len() >= 2 && cells[0].eq_ignore_ascii_case(name) && !is_separator_row(cells) {
            let value = &cells[1];
            // A header row `| Status | Date |` is followed by a separator, not a value.
            let next_is_sep = rows
                .get(i + 1)
                .and_then(|r| r.as_ref())
                .is_some_and(|r| is_separator_row(r));
            if !value.is_empty() && !next_is_sep {
                return Some(value.clone());
            }
        }
        if let Some(col) = cells.iter().position(|c| c.eq_ignore_ascii_case(name)) {
            let sep = rows.get(i + 1).and_then(|r| r.as_ref());
            let values = rows.get(i + 2).and_then(|r| r.as_ref());
            if let (Some(sep), Some(values)) = (sep, values) {
                if is_separator_row(sep) {
                    if let Some(v) = values.get(col).filter(|v| !v.is_empty()) {
                        return Some(v.clone());
                    }
                }
            }
        }
    }
    None
}

/// The first non-empty line under a `## Status` heading.
fn section_field(lines: &[(usize, &str)], name: &str) -> Option<String> {
    let mut in_section = false;
    for (_, l) in lines {
        let t = l.trim();
        if t.starts_with('#') {
            let heading = t
                .trim_start_matches('#')
                .trim()
                .trim_end_matches(':')
                .trim();
            in_section = heading.eq_ignore_ascii_case(name);
            continue;
        }
        if in_section && !t.is_empty() {
            let v = clean_value(t);
            return (!v.is_empty()).then_some(v);
        }
    }
    None
}

pub(super) fn read_status(fm: &Frontmatter, lines: &[(usize, &str)]) -> (Status, String) {
    let text = fm
        .get(&["status"])
        .map(|v| clean_value(&v.text()))
        .or_else(|| line_field(lines, status_line_re()))
        .or_else(|| table_field(lines, "status"))
        .or_else(|| section_field(lines, "status"));
    match text {
        None => (Status::Unknown, String::new()),
        Some(t) => (normalise_status(&t), t),
    }
}

/// The reference's status table; the first word decides.
pub fn normalise_status(text: &str) -> Status {
    let word = text
        .split(|c: char| !c.is_alphabetic())
        .find(|w| !w.is_empty())
        .map(str::to_lowercase);
    match word.as_deref() {
        Some("proposed" | "draft" | "open" | "review" | "rfc") => Status::Proposed,
        Some("accepted" | "approved" | "agreed" | "adopted" | "active") => Status::Accepted,
        Some("implemented" | "done" | "shipped") => Status::Implemented,
        Some("rejected" | "declined" | "withdrawn") => Status::Rejected,
        Some("deprecated" | "retired" | "obsolete") => Status::Deprecated,
        // "Superceded" is adr-tools' own spelling ("Superceded by [16. …]").
        Some("superseded" | "superceded" | "replaced") => Status::Superseded,
        _ => Status::Unrecognised,
    }
}

pub(super) fn read_date(
    fm: &Frontmatter,
    lines: &[(usize, &str)],
    all: &[&str],
    body_start: usize,
) -> Option<String> {
    if let Some(d) = fm
        .get(&["date", "created", "decided", "accepted"])
        .and_then(|v| first_iso_date(&v.text()))
    {
        return Some(d);
    }
    if let Some(d) = lines.iter().find_map(|(_, l)| {
        date_line_re()
            .captures(l)
            .and_then(|c| c.get(1))
            .and_then(|m| first_iso_date(m.as_str()))
    }) {
        return Some(d);
    }
    if let Some(d) = table_field(lines, "date").and_then(|v| first_iso_date(&v)) {
        return Some(d);
    }
    // The first ISO date in the file's first 15 lines (frontmatter included, code blocks not).
    let fm_lines = all.iter().take(body_start.min(15)).copied();
    let body_lines = lines.iter().filter(|(i, _)| *i < 15).map(|(_, l)| *l);
    fm_lines.chain(body_lines).find_map(first_iso_date)
}
