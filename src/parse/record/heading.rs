//! What a record's first heading and file name say of it: its title, the id a heading or a
//! name gives it (`# RFC 1234 - DATE - Title`, `0007-x.md`), read for [`super::parse_text`]
//! (ADR-0001).

use super::*;

/// The first `# ` heading, as text: links reduced to their text, emphasis dropped. Without
/// one, the heading the document opens with ([`opening_heading`]) unless it names a section
/// (`## 1 Introduction`): volcano's and velero's designs open with `## Title`.
pub(super) fn first_heading(lines: &[(usize, &str)]) -> Option<String> {
    lines
        .iter()
        .find_map(|(_, l)| {
            l.strip_prefix("# ")
                .map(heading_text)
                .filter(|h| !h.is_empty())
        })
        .or_else(|| {
            opening_heading(lines).filter(|h| {
                let unnumbered = h
                    .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                    .trim();
                let opening_section = [
                    "introduction",
                    "background",
                    "overview",
                    "motivation",
                    "abstract",
                    "table of contents",
                    "contents",
                ]
                .iter()
                .any(|s| unnumbered.eq_ignore_ascii_case(s));
                !opening_section && !is_section_heading(unnumbered)
            })
        })
}

/// The heading a document opens with, when its first line is one: a deeper ATX heading
/// (`## Dominant Resource Fairness`) or a setext one (a line over `===` or `---`).
pub(super) fn opening_heading(lines: &[(usize, &str)]) -> Option<String> {
    let mut visible = lines.iter().filter(|(_, l)| !l.trim().is_empty());
    let (at, first) = visible.next()?;
    let hashes = first.bytes().take_while(|&b| b == b'#').count();
    if (2..=6).contains(&hashes) && first[hashes..].starts_with([' ', '\t']) {
        let text = heading_text(first[hashes..].trim().trim_end_matches('#').trim_end());
        return (!text.is_empty()).then_some(text);
    }
    let (next_at, next) = visible.next()?;
    let underline = next.trim();
    let setext = *next_at == at + 1
        && underline.len() >= 3
        && (underline.bytes().all(|b| b == b'=') || underline.bytes().all(|b| b == b'-'));
    let text = plain_text(first.trim());
    (setext && !text.is_empty() && !first.starts_with(['#', '>', '-', '*', '|'])).then_some(text)
}

/// A heading's text: links reduced to their text, emphasis dropped, and without the
/// attributes Pandoc, kramdown and Markdown Extra write after it (`# 1) Use PSR-16 {#adr_0001}`,
/// as Wikibase's records do): they name the heading's anchor, not the decision.
fn heading_text(h: &str) -> String {
    let text = plain_text(h);
    let trimmed = text.trim_end();
    match trimmed.rfind(" {") {
        Some(at)
            if trimmed.ends_with('}')
                && trimmed[at + 2..].trim_start().starts_with(['#', '.'])
                && !trimmed[at + 2..trimmed.len() - 1].contains(['{', '}']) =>
        {
            trimmed[..at].trim_end().to_string()
        }
        _ => text,
    }
}

pub(super) fn kind_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:ADR|RFC|DR|DD)(?:[-_ ]?#?|\s+#)").expect("heading kind regex compiles")
    })
}

pub(super) fn heading_date_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[^0-9]|$)")
            .expect("heading date regex compiles")
    })
}

/// What a first heading says before its title: the number it gives the record (`# RFC 1234 -
/// 2021-05-04 - Retry budget`, `# ADR 7: Use X`, `# RFC #12 - X`, `# 7. Use X`), whether it
/// named the kind (`RFC`, `ADR`), and the title without those prefixes nor a `DATE -` one. A
/// date after the kind (`# RFC 2023-05-02 - X`) is a date, not a number (docs/reading.md).
pub(super) struct HeadingParts<'a> {
    pub(super) number: Option<&'a str>,
    pub(super) kind: bool,
    pub(super) title: &'a str,
}

pub(super) fn heading_parts(h: &str) -> HeadingParts<'_> {
    let seps: &[char] = &[' ', '\t', ':', '.', '-', '\u{2013}', '\u{2014}'];
    let mut rest = h.trim();
    let mut number = None;
    let mut kind = false;
    let digits_at = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    if let Some(m) = kind_re().find(rest) {
        let after = rest[m.end()..].trim_start();
        let n = digits_at(after);
        if heading_date_re().is_match(after) {
            kind = true;
            rest = after;
        } else if n > 0 && !after[n..].starts_with(|c: char| c.is_alphanumeric()) {
            kind = true;
            number = Some(&after[..n]);
            rest = after[n..].trim_start_matches(seps);
        }
    } else {
        let n = digits_at(rest);
        // `7.`, `7:`, `7)`, or a dash between spaces (odh-dashboard's `0009 - MaaS …`).
        let dashed = |after: &str| {
            let t = after.trim_start_matches([' ', '\t']);
            t.len() < after.len()
                && t.strip_prefix(['-', '\u{2013}', '\u{2014}'])
                    .is_some_and(|r| r.starts_with([' ', '\t']))
        };
        if n > 0
            && !heading_date_re().is_match(rest)
            && (rest[n..].starts_with(['.', ':', ')']) || dashed(&rest[n..]))
        {
            number = Some(&rest[..n]);
            rest = rest[n..].trim_start_matches(|c: char| c == ')' || seps.contains(&c));
        }
    }
    if heading_date_re().is_match(rest) {
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(rest.len());
        let after = rest[end..].trim_start_matches(seps);
        if after.len() < rest[end..].len() || after.is_empty() {
            rest = after;
        }
    }
    HeadingParts {
        number,
        kind,
        title: rest.trim(),
    }
}

/// The id a record file's name gives it, as [`parse_text`] reads it when nothing inside says
/// otherwise: the number after a dated name's date, else a dated name's stem, else the name's
/// leading number. `None` for a name that gives none.
pub fn name_id(stem: &str, prefix: Prefix) -> Option<String> {
    if date_in_name(stem).is_some() {
        return Some(match number_after_date(stem) {
            Some(n) => ids::format_id(prefix, n),
            None => stem.to_string(),
        });
    }
    ids::number_in_file_name(stem).map(|n| ids::format_id(prefix, &n))
}

pub(super) fn read_id(
    fm: &Frontmatter,
    stem: &str,
    heading: Option<&str>,
    prefix: Prefix,
) -> String {
    if let Some(v) = fm.get(&["id", "adr", "rfc"]) {
        if let Some(id) = ids::parse_id(&v.text(), prefix) {
            return id;
        }
    }
    let parts = heading.map(heading_parts);
    // A dated name (`20240611-x`, `2024-06-11-x`) carries a date, not a number: the number
    // after it (`2021-05-04-1234-x`), else its heading's `RFC 1234`, else the stem is the id
    // (docs/reading.md).
    if date_in_name(stem).is_some() {
        if let Some(n) = number_after_date(stem) {
            return ids::format_id(prefix, n);
        }
        if let Some(n) = parts.as_ref().filter(|p| p.kind).and_then(|p| p.number) {
            return ids::format_id(prefix, n);
        }
        return stem.to_string();
    }
    if let Some(n) = ids::number_in_file_name(stem) {
        return ids::format_id(prefix, &n);
    }
    if let Some(n) = parts.and_then(|p| p.number) {
        return ids::format_id(prefix, n);
    }
    stem.to_string()
}

/// Frontmatter `title`; else the first `# ` heading without its "ADR 7:" and "DATE -"
/// prefixes, unless the heading names a section ("Summary", "Superseded!") and frontmatter
/// names the record (`feature`, `Feature Name`, `name`); else that frontmatter name; else the
/// stem.
pub(super) fn read_title(fm: &Frontmatter, heading: Option<&str>, stem: &str) -> String {
    if let Some(v) = fm.get(&["title"]) {
        return v.text().trim().to_string();
    }
    let named = fm
        .get(&["feature", "featurename", "name"])
        .map(|v| v.text().trim().to_string())
        .filter(|n| !n.is_empty());
    if let Some(n) = named.filter(|_| heading.is_none_or(is_section_heading)) {
        return n;
    }
    if let Some(h) = heading {
        let title = heading_parts(h).title;
        return if title.is_empty() { h } else { title }.to_string();
    }
    stem.to_string()
}
