//! Record parsing: one file's text → every field the reference decides, in its order.
//!
//! This module only reads text. Whether a named path exists, and which record a link points
//! at, is decided by `graph.rs` with the file system and the other records in view
//! (ADR-0001).

use crate::frontmatter::{self, Frontmatter};
use crate::ids::{self, Prefix};
use crate::model::Status;
use crate::paths;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A reference to another record: an id, or a link to a file that may be one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ref {
    Id(String),
    /// A link: the target made root-relative, and the id its text names (`[3. Title]`).
    Link {
        target: String,
        text_id: Option<String>,
    },
}

/// One record file as read, before the graph resolves its links and paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParsedRecord {
    pub path: String,
    pub prefix: Prefix,
    pub id: String,
    pub title: String,
    pub status: Status,
    pub status_text: String,
    pub date: Option<String>,
    pub supersedes: Vec<Ref>,
    pub superseded_by: Vec<Ref>,
    pub amends: Vec<Ref>,
    /// Every id mentioned (its own included; the graph drops it) and every link.
    pub mentions: Vec<String>,
    pub links: Vec<Ref>,
    /// Paths named in backticks, root-relative and lexically normalised.
    pub code_paths: Vec<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("{0}: not UTF-8, skipped")]
    NotUtf8(String),
}

/// Reads one record. `rel_path` is root-relative with `/` separators; `prefix` comes from its
/// folder. Never panics, whatever the bytes.
pub fn parse(rel_path: &str, bytes: &[u8], prefix: Prefix) -> Result<ParsedRecord, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ParseError::NotUtf8(rel_path.to_string()))?;
    Ok(parse_text(rel_path, text, prefix))
}

/// The same, from text.
pub fn parse_text(rel_path: &str, text: &str, prefix: Prefix) -> ParsedRecord {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = lf(text);
    let (fm, body_start) = frontmatter::split(&text);
    let fm = fm.unwrap_or_default();
    let all_lines: Vec<&str> = text.split('\n').collect();
    let lines = visible_lines(&all_lines, body_start);
    let folder = rel_path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let stem = file_stem(rel_path);

    let mut notes = Vec::new();
    if let Some(why) = &fm.invalid {
        let why = why.lines().next().unwrap_or("");
        notes.push(format!(
            "{rel_path}: frontmatter is not valid YAML ({why}); read its key: value lines instead"
        ));
    }

    let heading = first_heading(&lines);
    let id = read_id(&fm, stem, heading, prefix);
    let title = read_title(&fm, heading, stem);
    let (status, status_text) = read_status(&fm, &lines);
    let date = read_date(&fm, &lines, &all_lines, body_start);

    let mut supersedes = fm_refs(&fm, &["supersedes", "replaces"], prefix);
    let mut superseded_by = fm_refs(&fm, &["supersededby", "replacedby"], prefix);
    let mut amends = fm_refs(&fm, &["amends"], prefix);
    let mut mentions: Vec<String> = ids::mentioned_ids(&fm.raw);
    for r in supersedes.iter().chain(&superseded_by).chain(&amends) {
        if let Ref::Id(id) = r {
            mentions.push(id.clone());
        }
    }
    let mut links = Vec::new();
    let mut code_paths = Vec::new();
    // The status line may itself say "Superseded by ADR-9".
    // Regexes run once over the visible text, not once per line.
    let visible: String = lines.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
    for text in [visible.as_str(), status_text.as_str()] {
        relations(
            text,
            folder,
            prefix,
            [&mut superseded_by, &mut supersedes, &mut amends],
        );
    }
    mentions.extend(ids::mentions(&visible).into_iter().map(|m| m.id));
    for (text, target) in text_links(&visible) {
        if let Some(target) = link_target(folder, target) {
            links.push(Ref::Link {
                text_id: link_text_id(text, prefix),
                target,
            });
        }
    }
    for (_, line) in &lines {
        for span in code_spans(line) {
            if let Some(p) = paths::clean_code_path(span) {
                code_paths.push(p);
            }
        }
    }
    for list in [&mut supersedes, &mut superseded_by, &mut amends] {
        dedup(list);
    }
    mentions.sort();
    mentions.dedup();
    dedup(&mut links);
    code_paths.sort();
    code_paths.dedup();

    ParsedRecord {
        path: rel_path.to_string(),
        prefix,
        id,
        title,
        status,
        status_text,
        date,
        supersedes,
        superseded_by,
        amends,
        mentions,
        links,
        code_paths,
        notes,
    }
}

/// What a guide (a `.md` file outside the record folders) cites: the ids it mentions and the
/// root-relative targets of its links, outside fenced code blocks.
pub fn scan_guide(rel_path: &str, text: &str) -> (Vec<String>, Vec<String>) {
    let text = lf(text);
    let all: Vec<&str> = text.split('\n').collect();
    let folder = rel_path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let visible: String = visible_lines(&all, 0)
        .iter()
        .map(|(_, l)| *l)
        .collect::<Vec<_>>()
        .join("\n");
    let mut mentions: Vec<String> = ids::mentions(&visible).into_iter().map(|m| m.id).collect();
    let mut links: Vec<String> = text_links(&visible)
        .into_iter()
        .filter_map(|(_, target)| link_target(folder, target))
        .collect();
    mentions.sort();
    mentions.dedup();
    links.sort();
    links.dedup();
    (mentions, links)
}

/// The text with LF line endings (CRLF and lone CR files are read alike); no copy when it has
/// no CR.
fn lf(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    }
}

fn dedup<T: Ord>(v: &mut Vec<T>) {
    v.sort();
    v.dedup();
}

fn file_stem(rel_path: &str) -> &str {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name)
}

/// The body's lines, numbered, without fenced code blocks (they are examples, not fields).
fn visible_lines<'a>(all: &[&'a str], start: usize) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in all.iter().enumerate().skip(start) {
        let t = line.trim_start();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n)) => {
                if run(c) >= n && t.trim_start_matches(c).trim().is_empty() {
                    fence = None;
                }
            }
            None => {
                let (b, tl) = (run('`'), run('~'));
                if b >= 3 {
                    fence = Some(('`', b));
                } else if tl >= 3 {
                    fence = Some(('~', tl));
                } else {
                    out.push((i, *line));
                }
            }
        }
    }
    out
}

fn first_heading<'a>(lines: &[(usize, &'a str)]) -> Option<&'a str> {
    lines.iter().find_map(|(_, l)| {
        l.strip_prefix("# ")
            .map(str::trim)
            .filter(|h| !h.is_empty())
    })
}

fn heading_prefix_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^(?:(?:ADR|RFC|DR|DD)[-_ ]?([0-9]+)\s*[:.\-–—]?\s*|([0-9]+)\s*[.:]\s*)(.*)$",
        )
        .expect("heading regex compiles")
    })
}

fn read_id(fm: &Frontmatter, stem: &str, heading: Option<&str>, prefix: Prefix) -> String {
    if let Some(v) = fm.get(&["id", "adr", "rfc"]) {
        if let Some(id) = ids::parse_id(&v.text(), prefix) {
            return id;
        }
    }
    if let Some(n) = ids::number_in_file_name(stem) {
        return ids::format_id(prefix, &n);
    }
    if let Some(c) = heading.and_then(|h| heading_prefix_re().captures(h)) {
        if let Some(n) = c.get(1).or_else(|| c.get(2)) {
            return ids::format_id(prefix, n.as_str());
        }
    }
    stem.to_string()
}

fn read_title(fm: &Frontmatter, heading: Option<&str>, stem: &str) -> String {
    if let Some(v) = fm.get(&["title"]) {
        return v.text().trim().to_string();
    }
    if let Some(h) = heading {
        if let Some(rest) = heading_prefix_re()
            .captures(h)
            .and_then(|c| c.get(3))
            .map(|m| m.as_str().trim())
            .filter(|r| !r.is_empty())
        {
            return rest.to_string();
        }
        return h.to_string();
    }
    stem.to_string()
}

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

fn read_status(fm: &Frontmatter, lines: &[(usize, &str)]) -> (Status, String) {
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
        Some("superseded" | "replaced") => Status::Superseded,
        _ => Status::Unrecognised,
    }
}

fn iso_date_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:^|[^0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})(?:$|[^0-9])")
            .expect("date regex compiles")
    })
}

/// The first valid ISO `YYYY-MM-DD` date in `text`.
pub fn first_iso_date(text: &str) -> Option<String> {
    iso_date_re().captures_iter(text).find_map(|c| {
        let y: u32 = c[1].parse().ok()?;
        let m: u32 = c[2].parse().ok()?;
        let d: u32 = c[3].parse().ok()?;
        let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
        let days = match m {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (d >= 1 && d <= days).then(|| format!("{}-{}-{}", &c[1], &c[2], &c[3]))
    })
}

fn read_date(
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

fn fm_refs(fm: &Frontmatter, keys: &[&str], prefix: Prefix) -> Vec<Ref> {
    let mut out = Vec::new();
    for key in keys {
        if let Some(v) = fm.fields.get(*key) {
            for item in v.items() {
                for piece in item.split(',') {
                    if let Some(id) = ids::parse_id(piece, prefix) {
                        out.push(Ref::Id(id));
                    }
                }
            }
        }
    }
    out
}

/// "Superseded by" / "Replaced by" (group 1), "Supersedes" / "Replaces" (group 2), and the
/// amending verbs (group 3), in one pass.
fn relation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)(?:((?:superseded|replaced)\s+by)|(supersedes|replaces)|(amends|extends|refines|narrows|overrides|modifies))(?-u:\b)",
        )
        .expect("regex")
    })
}

fn list_separator_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:\s|[,;:*_(]|&|(?-u:\b)and(?-u:\b)|(?-u:\b)or(?-u:\b))*").expect("regex")
    })
}

fn link_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^"']*["'])?\s*\)"#)
            .expect("link regex compiles")
    })
}

fn bare_number_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Where an id is expected in prose, a bare number counts only when it is plainly one:
    // backticked (`0022`), zero-padded (0022) or numbered (#22).
    RE.get_or_init(|| {
        Regex::new(r"^(?:`#?([0-9]+)`|#([0-9]+)(?-u:\b)|(0[0-9]+)(?-u:\b))").expect("regex")
    })
}

/// After each relation keyword in `text`, reads the list of ids and links that follows it on
/// the same line into its list: `[superseded_by, supersedes, amends]`.
fn relations(text: &str, folder: &str, prefix: Prefix, lists: [&mut Vec<Ref>; 3]) {
    for c in relation_re().captures_iter(text) {
        let Some(kind) = (1..=3).find(|&i| c.get(i).is_some()) else {
            continue;
        };
        let out = &mut *lists[kind - 1];
        let m = c.get(0).expect("group 0 always matches");
        let after = &text[m.end()..];
        let mut rest = &after[..after.find('\n').unwrap_or(after.len())];
        loop {
            let skip = list_separator_re().find(rest).map(|s| s.end()).unwrap_or(0);
            rest = &rest[skip..];
            let unticked = rest.strip_prefix('`').unwrap_or(rest);
            if let Some(c) = link_re()
                .captures(rest)
                .filter(|c| c.get(0).unwrap().start() == 0)
            {
                if let Some(target) = link_target(folder, &c[2]) {
                    out.push(Ref::Link {
                        text_id: link_text_id(&c[1], prefix),
                        target,
                    });
                } else if let Some(id) = link_text_id(&c[1], prefix) {
                    out.push(Ref::Id(id));
                }
                rest = &rest[c.get(0).unwrap().end()..];
            } else if let Some(mention) = ids::mentions(unticked)
                .into_iter()
                .next()
                .filter(|m| m.start == 0)
            {
                out.push(Ref::Id(mention.id));
                rest = &unticked[mention.end..];
                rest = rest.strip_prefix('`').unwrap_or(rest);
            } else if let Some(c) = bare_number_re().captures(rest) {
                let digits = c.get(1).or(c.get(2)).or(c.get(3)).unwrap().as_str();
                out.push(Ref::Id(ids::format_id(prefix, digits)));
                rest = &rest[c.get(0).unwrap().end()..];
            } else {
                break;
            }
        }
    }
}

/// The id a link's text names: `[ADR-3: Title]`, `[3. Title]`, `[0003]`.
fn link_text_id(text: &str, prefix: Prefix) -> Option<String> {
    let t = text.trim().trim_matches('`');
    if let Some(m) = ids::mentions(t).into_iter().next().filter(|m| m.start == 0) {
        return Some(m.id);
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = t[digits.len()..].chars().next();
    (!digits.is_empty() && matches!(after, None | Some('.') | Some(':') | Some(' ')))
        .then(|| ids::format_id(prefix, &digits))
}

/// Every inline link and reference definition in a text: (text, target).
fn text_links(text: &str) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = link_re()
        .captures_iter(text)
        .map(|c| (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str()))
        .collect();
    // A reference definition: `[label]: target`.
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = DEF.get_or_init(|| {
        Regex::new(r"(?m)^[ ]{0,3}\[([^\]\n]+)\]:[ \t]*<?([^\s>]+)>?").expect("regex")
    });
    out.extend(
        def.captures_iter(text)
            .map(|c| (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str())),
    );
    out
}

/// A link's target made root-relative: `None` for URLs, anchors, and paths leaving the root.
fn link_target(folder: &str, target: &str) -> Option<String> {
    let t = target.split(['#', '?']).next().unwrap_or("");
    if t.is_empty() || t.contains("://") || t.starts_with("mailto:") {
        return None;
    }
    if t.split('/').next().is_some_and(|first| {
        first.contains(':')
            && first
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
    }) {
        return None; // another scheme (tel:, data:, …)
    }
    let t = percent_decode(t);
    let joined = if let Some(abs) = t.strip_prefix('/') {
        abs.to_string()
    } else if folder.is_empty() {
        t
    } else {
        format!("{folder}/{t}")
    };
    paths::normalise(&joined)
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// The contents of single-backtick code spans in a line.
fn code_spans(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let after = &rest[start..];
        let ticks = after.chars().take_while(|&c| c == '`').count();
        let body = &after[ticks..];
        let closing = "`".repeat(ticks);
        match body.find(&closing) {
            Some(end) => {
                out.push(body[..end].trim());
                rest = &body[end + ticks..];
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> ParsedRecord {
        parse_text("docs/adr/0007-use-x.md", text, Prefix::Adr)
    }

    #[test]
    fn reads_a_nygard_record() {
        let r = p("# 7. Use X\n\nDate: 2024-01-05\n\n## Status\n\nSuperseded by [9. Use Y](0009-use-y.md)\n\n## Context\n\nSee ADR-3 and `src/x/`.\n");
        assert_eq!(r.id, "ADR-0007");
        assert_eq!(r.title, "Use X");
        assert_eq!(r.status, Status::Superseded);
        assert_eq!(r.date.as_deref(), Some("2024-01-05"));
        assert_eq!(
            r.superseded_by,
            vec![Ref::Link {
                target: "docs/adr/0009-use-y.md".into(),
                text_id: Some("ADR-0009".into())
            }]
        );
        assert!(r.mentions.contains(&"ADR-0003".to_string()));
        assert_eq!(r.code_paths, vec!["src/x/".to_string()]);
    }

    #[test]
    fn status_forms() {
        for text in [
            "Status: Accepted",
            "**Status:** Accepted",
            "**Status**: Accepted",
            "- Status: accepted",
            "* Status: Accepted",
            "| Status | Accepted |",
            "| Status | Date |\n|---|---|\n| Accepted | 2024-01-01 |",
            "## Status\n\nAccepted\n",
        ] {
            let r = p(&format!("# T\n\n{text}\n"));
            assert_eq!(r.status, Status::Accepted, "{text}");
            assert!(r.status_text.eq_ignore_ascii_case("accepted"), "{text}");
        }
    }

    #[test]
    fn fenced_status_is_an_example() {
        let r = p("# T\n\n```\nStatus: Accepted\nDate: 2020-01-01\n```\n");
        assert_eq!(r.status, Status::Unknown);
        assert_eq!(r.date, None);
    }

    #[test]
    fn relation_lists() {
        let r = p(
            "# T\n\nSupersedes ADR-3 and ADR-4, then ADR-5.\nAmends `0002`.\nReplaced by RFC 12\n",
        );
        assert_eq!(
            r.supersedes,
            vec![Ref::Id("ADR-0003".into()), Ref::Id("ADR-0004".into())]
        );
        assert_eq!(r.amends, vec![Ref::Id("ADR-0002".into())]);
        assert_eq!(r.superseded_by, vec![Ref::Id("RFC-0012".into())]);
    }

    #[test]
    fn titles_lose_their_prefix() {
        assert_eq!(p("# ADR 7: Use X\n").title, "Use X");
        assert_eq!(p("# ADR-0007: Use X\n").title, "Use X");
        assert_eq!(p("# 7. Use X\n").title, "Use X");
        assert_eq!(p("# 2024 plans\n").title, "2024 plans");
        assert_eq!(p("no heading\n").title, "0007-use-x");
    }

    #[test]
    fn dates_must_be_iso() {
        assert_eq!(first_iso_date("on 2024-02-30"), None);
        assert_eq!(
            first_iso_date("x 2024-02-29 y").as_deref(),
            Some("2024-02-29")
        );
        assert_eq!(p("# T\n\nDate: 2 March 2024\n").date, None);
    }
}
