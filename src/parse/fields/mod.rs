//! Status, date and the words a title is made of: from frontmatter, a `Status:`/`Date:` line,
//! a table, a section, or the file's name, in the reference's order refined by docs/reading.md
//! (ADR-0001).

use crate::model::Status;
use crate::text::date::{first_iso_date, parse_date};
use crate::text::frontmatter::Frontmatter;
use crate::text::{file_stem, parent_folder};
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

/// The value of a `Status: X` line, when the line is one.
fn status_line_value(line: &str) -> Option<String> {
    status_line_re()
        .captures(line)
        .and_then(|c| c.get(1))
        .map(|m| clean_value(m.as_str()))
        .filter(|v| !v.is_empty())
}

/// Whether a document declares its own status in its header (a `Status:` line before its first
/// `##` section, whatever the word: "Draft", "Landed"): a spec, plan or design note of its own
/// time, not a guide.
pub(super) fn declares_own_status(lines: &[(usize, &str)]) -> bool {
    let regions = regions(lines);
    lines
        .iter()
        .zip(&regions)
        .any(|((_, l), region)| *region == Region::Header && status_line_value(l).is_some())
}

/// A status text whose first word is one of the status table's.
fn is_known_status(text: &str) -> bool {
    normalise_status(text) != Status::Unrecognised
}

// ------------------------------------------------------------------ where a line stands

/// An ATX heading (`## Name`, up to three spaces of indent): its level and its name, without
/// closing `#`s, emphasis or a trailing `:`.
fn heading(line: &str) -> Option<(usize, String)> {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 {
        return None;
    }
    let level = t.chars().take_while(|&c| c == '#').count();
    let rest = &t[level..];
    if level == 0 || level > 6 || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let name = rest.trim().trim_end_matches('#').trim();
    let name = clean_value(name);
    Some((level, name.trim_end_matches(':').trim().to_string()))
}

/// Where a line stands for the status rules of docs/reading.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    /// Before the record's first `##` section: its title and metadata.
    Header,
    /// Under a heading named Status.
    StatusSection,
    /// Anywhere else, or a heading line itself.
    Body,
}

/// The region of each of `lines`.
fn regions(lines: &[(usize, &str)]) -> Vec<Region> {
    let (mut in_header, mut in_status) = (true, false);
    lines
        .iter()
        .map(|(_, l)| {
            if let Some((level, name)) = heading(l) {
                in_status = name.eq_ignore_ascii_case("status");
                in_header &= level < 2;
                Region::Body
            } else if in_status {
                Region::StatusSection
            } else if in_header {
                Region::Header
            } else {
                Region::Body
            }
        })
        .collect()
}

// ------------------------------------------------------------------ tables

/// A table row: its cells, cleaned, and its first cell as written (to tell a bold key).
struct Row {
    cells: Vec<String>,
    first_raw: String,
}

impl Row {
    fn is_separator(&self) -> bool {
        self.cells
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
    }

    /// A first cell written as a key: `**RFC #**`, `__Owner__`, `Owner:`.
    fn starts_with_a_key(&self) -> bool {
        let r = self.first_raw.trim();
        let bold = (r.starts_with("**") && r.ends_with("**"))
            || (r.starts_with("__") && r.ends_with("__"));
        (bold && r.len() > 4) || r.ends_with(':')
    }
}

fn split_cells(line: &str) -> Row {
    let t = line.trim();
    let inner = t.strip_prefix('|').unwrap_or(t);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let raw: Vec<&str> = inner.split('|').collect();
    Row {
        cells: raw.iter().map(|c| clean_value(c)).collect(),
        first_raw: raw.first().copied().unwrap_or("").to_string(),
    }
}

/// Each line as a table row, or `None`. A line starting with `|` is a row; a line without edge
/// pipes (`Status | Accepted`) is one when its block of `|` lines is a table, that is when the
/// block's second line is a separator row.
fn table_rows(lines: &[(usize, &str)]) -> Vec<Option<Row>> {
    let has_pipe: Vec<bool> = lines.iter().map(|(_, l)| l.contains('|')).collect();
    let mut rows: Vec<Option<Row>> = Vec::with_capacity(lines.len());
    let mut block_is_table = false;
    for (i, (_, l)) in lines.iter().enumerate() {
        if !has_pipe[i] {
            rows.push(None);
            continue;
        }
        if i == 0 || !has_pipe[i - 1] {
            block_is_table = has_pipe.get(i + 1).copied().unwrap_or(false)
                && split_cells(lines[i + 1].1).is_separator();
        }
        let leading = l.trim_start().starts_with('|');
        rows.push((leading || block_is_table).then(|| split_cells(l)));
    }
    rows
}

/// Every value a table gives the field `name`, with the index of the line it stands on:
/// - a key/value row `| Status | Accepted |` (edge pipes or not): its second cell. When a
///   separator follows it, the row may instead be the header of a real table
///   (`| Status | Date |` over `| Accepted | 2024-01-01 |`): the second cell is still the value
///   when `fits` it, or when the row under the separator starts with a key (`| **RFC #** | … |`);
///   else the cell under `name` is;
/// - a header row naming `name` in another column: the cell under it.
fn table_values(
    lines: &[(usize, &str)],
    name: &str,
    fits: fn(&str) -> bool,
) -> Vec<(usize, String)> {
    let rows = table_rows(lines);
    let row = |i: usize| rows.get(i).and_then(Option::as_ref);
    let is_name = |c: &str| c.trim_end_matches(':').trim().eq_ignore_ascii_case(name);
    let mut out = Vec::new();
    for i in 0..rows.len() {
        let Some(r) = row(i) else { continue };
        if r.is_separator() {
            continue;
        }
        let under_separator = row(i + 1).is_some_and(Row::is_separator);
        let below = row(i + 2).filter(|_| under_separator);
        if r.cells.len() >= 2 && is_name(&r.cells[0]) {
            let value = &r.cells[1];
            let header_value = below
                .and_then(|b| b.cells.first())
                .filter(|v| !v.is_empty());
            let key_value = !value.is_empty()
                && (!under_separator
                    || fits(value)
                    || below.is_some_and(Row::starts_with_a_key)
                    || header_value.is_none());
            if key_value {
                out.push((i, value.clone()));
            } else if let Some(v) = header_value {
                out.push((i + 2, v.clone()));
            }
            continue;
        }
        if let Some(col) = r.cells.iter().position(|c| is_name(c)) {
            if let Some(v) = below
                .and_then(|b| b.cells.get(col))
                .filter(|v| !v.is_empty())
            {
                out.push((i + 2, v.clone()));
            }
        }
    }
    out
}

// ------------------------------------------------------------------ status

/// The first non-empty line under a `## Status` heading (a `Status:` label on it dropped), with
/// its index in `lines`; an HTML comment there is the template's help, not the status
/// (bomctl's `<!-- A decision may be "proposed" … -->` above `Accepted`).
fn section_status(lines: &[(usize, &str)]) -> Option<(usize, String)> {
    let mut in_section = false;
    let mut in_comment = false;
    let mut first: Option<(usize, String)> = None;
    for (i, (_, l)) in lines.iter().enumerate() {
        if in_comment {
            in_comment = !l.contains("-->");
            continue;
        }
        if in_section && l.trim_start().starts_with("<!--") {
            in_comment = !l.contains("-->");
            continue;
        }
        if let Some((_, name)) = heading(l) {
            if first.is_some() {
                break;
            }
            in_section = name.eq_ignore_ascii_case("status");
            continue;
        }
        if !in_section || l.trim().is_empty() {
            continue;
        }
        let v = status_line_value(l).unwrap_or_else(|| clean_value(l));
        match &first {
            None if v.is_empty() => return None,
            None => first = Some((i, v)),
            // A section that keeps its history ("Accepted", then later "Superseded by 35"): a
            // later line saying the record was superseded or deprecated is where it stands now.
            Some(_)
                if matches!(
                    normalise_status(&v),
                    Status::Superseded | Status::Deprecated
                ) =>
            {
                return Some((i, v))
            }
            Some(_) => {}
        }
    }
    first
}

/// Where a record's status is written: what `write` edits to change it (ADR-0013).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusAt {
    /// The frontmatter's `status` key.
    Frontmatter,
    /// A `Status: X` line (`**Status:**`, `- Status:`), at this index of the body's lines.
    Line(usize),
    /// A status table's cell, at this line.
    Table(usize),
    /// The first line of a `## Status` section (or its later superseded line), at this line.
    Section(usize),
}

/// The status, in this order (docs/reading.md "Status lines"): frontmatter `status`; a `Status:`
/// line in the header (before the first `##` section) or in the status section; a status table
/// there; the first line of the status section; then, anywhere else, a `Status:` line or table
/// whose value starts with a known status word (a glossary's "**Status**: the lifecycle state…"
/// is not one).
pub(super) fn read_status(fm: &Frontmatter, lines: &[(usize, &str)]) -> (Status, String) {
    match status_source(fm, lines) {
        None => (Status::Unknown, String::new()),
        Some((_, t)) => (normalise_status(&t), t),
    }
}

/// Where the status [`read_status`] reads is written, and its text; a line is given as the
/// index in the file's lines (`lines`' own numbers).
pub fn status_source(fm: &Frontmatter, lines: &[(usize, &str)]) -> Option<(StatusAt, String)> {
    let regions = regions(lines);
    let counts = |i: usize| regions[i] != Region::Body;
    let status_lines: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, (_, l))| status_line_value(l).map(|v| (i, v)))
        .collect();
    let tables = table_values(lines, "status", is_known_status);
    let counted = |found: &[(usize, String)]| {
        found
            .iter()
            .find(|(i, _)| counts(*i))
            .map(|(i, v)| (lines[*i].0, v.clone()))
    };
    let stray = |found: &[(usize, String)]| {
        found
            .iter()
            .find(|(i, v)| !counts(*i) && is_known_status(v))
            .map(|(i, v)| (lines[*i].0, v.clone()))
    };
    // Ember's RFCs keep their status as a `stage` (accepted, released, recommended…).
    if let Some(v) = fm.get(&["status"]).or_else(|| fm.get(&["stage"])) {
        return Some((StatusAt::Frontmatter, clean_value(&v.text())));
    }
    let line = |f: Option<(usize, String)>| f.map(|(i, v)| (StatusAt::Line(i), v));
    let table = |f: Option<(usize, String)>| f.map(|(i, v)| (StatusAt::Table(i), v));
    line(counted(&status_lines))
        .or_else(|| table(counted(&tables)))
        .or_else(|| section_status(lines).map(|(i, v)| (StatusAt::Section(lines[i].0), v)))
        .or_else(|| line(stray(&status_lines)))
        .or_else(|| table(stray(&tables)))
}

/// The reference's status table (kept with [`Status`]): the first word decides.
pub fn normalise_status(text: &str) -> Status {
    Status::from_text(text)
}

// ------------------------------------------------------------------ date

/// The date: frontmatter `date`, `created`, `decided` or `accepted`; a `Date:` line; a date
/// table; the first ISO date in the first 15 lines; else the date the file's name starts with
/// (`name_date`, docs/reading.md "Ids from dated file names").
pub(super) fn read_date(
    fm: &Frontmatter,
    lines: &[(usize, &str)],
    all: &[&str],
    body_start: usize,
    name_date: Option<String>,
) -> Option<String> {
    if let Some(d) = fm
        .get(&["date", "created", "creationdate", "decided", "accepted"])
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
    let is_date = |v: &str| first_iso_date(v).is_some();
    if let Some(d) = table_values(lines, "date", is_date)
        .into_iter()
        .find_map(|(_, v)| first_iso_date(&v))
    {
        return Some(d);
    }
    // The first ISO date in the file's first 15 lines (frontmatter included, code blocks not).
    let fm_lines = all.iter().take(body_start.min(15)).copied();
    let body_lines = lines.iter().filter(|(i, _)| *i < 15).map(|(_, l)| *l);
    fm_lines
        .chain(body_lines)
        .find_map(first_iso_date)
        .or(name_date)
}

// ------------------------------------------------------------------ the file's name

/// File names that say what a file is, not which record: the record is named by its folder.
const GENERIC_NAMES: &[&str] = &[
    "rfc", "adr", "design", "proposal", "decision", "readme", "index", "spec",
];

/// Folder names that hold many records: a generic file directly in one is not in a folder of
/// its own.
const COLLECTION_FOLDERS: &[&str] = &[
    "adr",
    "adrs",
    "decision",
    "decisions",
    "rfc",
    "rfcs",
    "design",
    "designs",
    "proposal",
    "proposals",
    "architecture",
    "doc",
    "docs",
];

/// The name that stands for the record: its file stem, or, for a file with a generic name
/// (`rfc.md`, `adr.md`, `design.md`, `proposal.md`, `decision.md`, any case, and the
/// `README.md` discovery reads as a record only in a folder of its own) in a folder of its
/// own, that folder's name (`docs/rfcs/2022-12-20-promql-in-rust/rfc.md` →
/// `2022-12-20-promql-in-rust`), or for a file named as the kind its folder's name numbers
/// (`SWIP-10/SWIP.md` → `SWIP-10`).
pub fn record_stem(rel_path: &str) -> &str {
    let stem = file_stem(rel_path);
    let folder = parent_folder(rel_path);
    let name = folder.rsplit('/').next().unwrap_or(folder);
    // The folder's name is the stem and a number (`SWIP-10/SWIP.md`, apache/skywalking): the
    // stem is the kind of record, the folder says which.
    let kind_of_its_folder = name.len() > stem.len()
        && name.is_char_boundary(stem.len())
        && name[..stem.len()].eq_ignore_ascii_case(stem)
        && name[stem.len()..]
            .trim_start_matches(['-', '_', ' '])
            .starts_with(|c: char| c.is_ascii_digit());
    if !kind_of_its_folder && !GENERIC_NAMES.iter().any(|g| stem.eq_ignore_ascii_case(g)) {
        return stem;
    }
    let own = !name.is_empty()
        && !name.starts_with('.')
        && !COLLECTION_FOLDERS
            .iter()
            .any(|c| name.eq_ignore_ascii_case(c));
    if own {
        name
    } else {
        stem
    }
}

/// The date a name starts with, `YYYYMMDD-`, `YYYY-MM-DD-` or `YYYY_MM_DD_` (a real day, years
/// 1900 to 2999; month and day may be unpadded, `2022-11-2-`), as `YYYY-MM-DD`: such a name
/// carries a date, not a sequence number.
pub(super) fn date_in_name(stem: &str) -> Option<String> {
    split_dated_name(stem).map(|(date, _)| date)
}

/// A dated name's date and what follows it (after its `-`).
fn split_dated_name(stem: &str) -> Option<(String, &str)> {
    let b = stem.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    // The date ends at a `-`, or at a `_` before a number (`2021-06-05_001-x`, hydra's).
    let ends = |at: usize| match b.get(at) {
        Some(b'-') => true,
        Some(b'_') => b.get(at + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    };
    let (date, rest) = if digits(0..8) && ends(8) {
        (
            format!("{}-{}-{}", &stem[0..4], &stem[4..6], &stem[6..8]),
            &stem[9..],
        )
    } else if digits(0..4) && matches!(b.get(4), Some(b'-' | b'_')) {
        // `YYYY-M[M]-D[D]-`: each part one or two digits; or the same with `_` between them
        // (`2020_03_03_name`, Sylius's), ended by `_` or `-`.
        let under = b[4] == b'_';
        let part = |from: usize, last: bool| {
            let n = b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
            let sep = match (last, under) {
                (true, false) => ends(from + n),
                (true, true) => matches!(b.get(from + n), Some(b'_' | b'-')),
                (false, _) => b.get(from + n) == Some(&b[4]),
            };
            ((1..=2).contains(&n) && sep).then_some(n)
        };
        let m = part(5, false)?;
        let d = part(6 + m, true)?;
        let end = 6 + m + d;
        (
            format!(
                "{}-{:0>2}-{:0>2}",
                &stem[0..4],
                &stem[5..5 + m],
                &stem[6 + m..end]
            ),
            &stem[end + 1..],
        )
    } else {
        return None;
    };
    let year: u32 = date[0..4].parse().ok()?;
    if !(1900..=2999).contains(&year) {
        return None;
    }
    if parse_date(&date).is_some() {
        return Some((date, rest));
    }
    // Day and month swapped where no month could be the first (shopware's
    // `2022-21-11-replace-drop-shadow-with-box-shadow.md`): the date read the other way.
    let swapped = format!("{}-{}-{}", &date[0..4], &date[8..10], &date[5..7]);
    (date[5..7] > *"12" && parse_date(&swapped).is_some()).then_some((swapped, rest))
}

/// The number a dated name carries after its date (`2021-05-04-1234-retry-budget` → `1234`,
/// `20210504-1234-x`): people call such a record by that number (docs/reading.md, "Dated names
/// with a number").
pub(super) fn number_after_date(stem: &str) -> Option<&str> {
    let (_, rest) = split_dated_name(stem)?;
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0 && matches!(rest.as_bytes().get(n), None | Some(b'-' | b'_'))).then(|| &rest[..n])
}

// ------------------------------------------------------------------ titles

/// Section names a record's body is made of: a first heading that is one of these (or a status
/// word alone, "Superseded!") names a section, not the record.
const SECTION_NAMES: &[&str] = &[
    "summary",
    "context",
    "motivation",
    "abstract",
    "status",
    "decision",
];

/// Whether a heading names a standard section (any case, a trailing `!` or `:` ignored) or is a
/// status word alone.
pub(super) fn is_section_heading(heading: &str) -> bool {
    let h = heading.trim().trim_end_matches(['!', ':']).trim_end();
    SECTION_NAMES.iter().any(|s| h.eq_ignore_ascii_case(s))
        || (!h.is_empty() && !h.contains(char::is_whitespace) && is_known_status(h))
}

/// A heading's text as read: links and images reduced to their text (`[ADR 5](x.md)` →
/// `ADR 5`), emphasis dropped (`**Y**` → `Y`), spaces collapsed.
pub(super) fn plain_text(text: &str) -> String {
    static LINK: OnceLock<Regex> = OnceLock::new();
    let link = LINK.get_or_init(|| {
        // Inline `[t](url)`, reference `[t][ref]` and collapsed `[t][]` links and images.
        Regex::new(r"!?\[([^\]\n]*)\](?:\([^)\n]*\)|\[[^\]\n]*\])").expect("link regex compiles")
    });
    let text = link.replace_all(text, "$1");
    let mut text = text.into_owned();
    for delimiter in ["**", "__", "*", "_"] {
        text = drop_emphasis(&text, delimiter);
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` without the pairs of `delimiter`s that open and close emphasis, in one pass: each
/// opener pairs with the next closer. An opener follows the start, a space or punctuation and
/// comes before a non-space; a closer follows a non-space and comes before the end, a space or
/// punctuation (so `snake_case` and `2 * 3 * 4` are left alone).
fn drop_emphasis(text: &str, delimiter: &str) -> String {
    let d = delimiter.len();
    let is_word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let opens = |i: usize| {
        !is_word(text[..i].chars().next_back())
            && text[i + d..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace())
    };
    let closes = |j: usize| {
        text[..j]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace())
            && !is_word(text[j + d..].chars().next())
    };
    let mut dropped: Vec<usize> = Vec::new();
    let mut opener: Option<usize> = None;
    for (i, _) in text.match_indices(delimiter) {
        match opener {
            Some(o) if i > o + d && closes(i) => {
                dropped.extend([o, i]);
                opener = None;
            }
            Some(_) => {}
            None if opens(i) => opener = Some(i),
            None => {}
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for i in dropped {
        out.push_str(&text[from..i]);
        from = i + d;
    }
    out.push_str(&text[from..]);
    out
}

#[cfg(test)]
mod tests;
