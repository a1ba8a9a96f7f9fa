//! A new record's text in the folder's own form (ADR-0013): filled from a template (`--template`,
//! the folder's own), else shaped like the folder's newest record (its frontmatter keys in
//! their case and order, its title heading, its `Status:`/`Date:` lines or `## Status` section,
//! its section headings, its line endings), else a plain Nygard record as adr-tools writes one.

use super::form::{cased, field_line, fm_entries, fm_lines, link_line};
pub use super::form::{reshape, yaml_scalar, CorpusKeys, Link};
use crate::parse::{status_in, StatusAt};
use crate::text::frontmatter::normalise_key;
use crate::text::ids::format_id;
use crate::text::ids::Prefix;

/// adr-tools' own template (`/usr/share/adr-tools/template.md`), the plain Nygard record.
pub const NYGARD: &str = "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nThe issue motivating this decision, and any context that influences or constrains the decision.\n\n## Decision\n\nThe change that we're proposing or have agreed to implement.\n\n## Consequences\n\nWhat becomes easier or more difficult to do and any risks introduced by the change that will need to be mitigated.\n";

/// What a new record says.
#[derive(Debug, Clone)]
pub struct NewRecord {
    pub id: String,
    pub prefix: Prefix,
    pub number: Option<u64>,
    pub title: String,
    pub status: String,
    pub date: String,
    pub supersedes: Vec<Link>,
    pub amends: Vec<Link>,
    pub governs: Vec<String>,
    /// The repository is log4brains' (`.log4brains.yml`): links go under `## Links`.
    pub log4brains: bool,
}

/// Where a new record's form comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A template's text: placeholders filled.
    Template(&'a str),
    /// The folder's newest record: its form, none of its words.
    Exemplar(&'a str),
}

/// The new record's text, LF or CRLF as its source, ending with a newline.
pub fn render(new: &NewRecord, source: Source, keys: &CorpusKeys) -> String {
    let (lines, eol) = match source {
        Source::Template(t) => (fill_template(new, t), super::line_ending(t)),
        Source::Exemplar(e) => (from_exemplar(new, e, keys), super::line_ending(e)),
    };
    let mut text = lines.join("\n");
    text.push('\n');
    let text = place(new, &text, keys);
    if eol == "\r\n" {
        text.replace('\n', "\r\n")
    } else {
        text
    }
}

/// The title heading's form: `# 7. Title` → `# 12. New`; a prefix naming another number, or
/// none, is dropped.
fn heading_like(heading: &str, new: &NewRecord) -> String {
    let h = heading.trim_start_matches('#').trim();
    let prefix = &h[..number_prefix(h)];
    let prefix = match (new.number, prefix.find(|c: char| c.is_ascii_digit())) {
        (Some(n), Some(_)) => reshape(prefix, n),
        _ if prefix.chars().any(|c| c.is_ascii_digit()) => String::new(),
        _ => prefix.to_string(),
    };
    format!("# {prefix}{}", new.title)
}

/// The length of a heading's number prefix, as the parser drops it from a title: `ADR 7: `,
/// `ADR-0007 - `, `7. ` (the kind, a number, then `:`, `.`, `-`, `–` or `—`); 0 when none.
fn number_prefix(h: &str) -> usize {
    let b = h.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let mut at = 0;
    if letters > 0 {
        if !matches!(
            h[..letters].to_ascii_uppercase().as_str(),
            "ADR" | "RFC" | "DR" | "DD"
        ) {
            return 0;
        }
        at = letters;
        if matches!(b.get(at), Some(b'-' | b'_' | b' ')) {
            at += 1;
        }
    }
    let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return 0;
    }
    at += digits;
    let rest = &h[at..];
    let trimmed = rest.trim_start();
    let mut end = at + (rest.len() - trimmed.len());
    let punct = trimmed
        .chars()
        .next()
        .filter(|c| matches!(c, ':' | '.' | '-' | '–' | '—'));
    match punct {
        Some(c) => end += c.len_utf8(),
        // A bare number needs its `.` or `:` (`2024 plans` is a title).
        None if letters == 0 => return 0,
        None => {}
    }
    let rest = &h[end..];
    end + (rest.len() - rest.trim_start().len())
}

/// The record shaped like `exemplar`.
fn from_exemplar(new: &NewRecord, exemplar: &str, keys: &CorpusKeys) -> Vec<String> {
    let text = crate::text::markdown::lf(exemplar).into_owned();
    let all: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = Vec::new();
    let mut body_start = 0;
    let status_like = status_in(&text).map(|(_, v)| v).unwrap_or_default();
    let status = cased(&new.status, &status_like);
    if let Some(lines) = fm_lines(&text) {
        body_start = lines.len() + 2;
        out.push("---".into());
        for (key, value, block) in fm_entries(&lines) {
            let norm = normalise_key(&key);
            let list_like = value.trim().starts_with('[') || (value.trim().is_empty() && block);
            let empty = if list_like { "[]" } else { "" };
            let line = match norm.as_str() {
                "id" | "adr" | "rfc" => match new.number {
                    Some(n) => format!("{key}: {}", reshape(value.trim(), n)),
                    None => continue,
                },
                "title" => format!("{key}: {}", yaml_scalar(&new.title)),
                // The newest record's place in a Jekyll site's menu is not the new one's.
                "navorder" => continue,
                "status" => format!("{key}: {status}"),
                "date" => format!("{key}: {}", quoted_like(value.trim(), &new.date)),
                "supersedes" | "replaces" => format!("{key}: {}", fm_list(&new.supersedes, keys)),
                "amends" => format!("{key}: {}", fm_list(&new.amends, keys)),
                "governs" if !new.governs.is_empty() => {
                    out.push(format!("{key}:"));
                    for g in &new.governs {
                        out.push(format!("  - {}", yaml_scalar(g)));
                    }
                    continue;
                }
                "affects" if !new.governs.is_empty() => {
                    out.push(format!("{key}:"));
                    for g in &new.governs {
                        out.push("  - type: path".into());
                        out.push(format!("    pattern: {}", yaml_scalar(g)));
                    }
                    continue;
                }
                _ if list_like || block => format!("{key}: []"),
                _ if is_empty_value(value.trim()) => format!("{key}: {}", value.trim()),
                _ if norm.contains("supersed") || norm.contains("amended") => {
                    format!("{key}: {empty}").trim_end().to_string()
                }
                // A key this tool does not know keeps the newest record's value, so the record
                // stays valid to the folder's schema: the author reviews it.
                _ => format!("{key}: {}", value.trim()),
            };
            out.push(line);
        }
        out.push("---".into());
    }
    let body: Vec<&str> = all[body_start.min(all.len())..].to_vec();
    let mut i = 0;
    // Up to the title heading: nothing of the exemplar's (a blank line after frontmatter).
    while i < body.len() && !body[i].starts_with("# ") {
        i += 1;
    }
    if i < body.len() {
        // A blank line after the frontmatter when the newest record has one.
        if out.last().is_some_and(|l| l == "---")
            && body_start < all.len()
            && all[body_start].trim().is_empty()
        {
            out.push(String::new());
        }
        out.push(heading_like(body[i], new));
        i += 1;
    } else if let Some(table) = super::table::header_table(&body, &new.status, &new.date) {
        // A status table heads the folder's records, no title heading: so the new one (issue 39).
        if !out.is_empty() {
            out.push(String::new());
        }
        out.extend(table);
        i = 0;
    } else {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push(format!("# {}", new.title));
    }
    // The header: its field lines, filled or emptied, as they were spaced.
    let mut fields: Vec<String> = Vec::new();
    let mut spaced = false;
    let mut seen_blank_between = false;
    while i < body.len() && !body[i].starts_with("## ") {
        let l = body[i];
        if l.trim().is_empty() {
            seen_blank_between = !fields.is_empty();
        } else if let Some((lead, key, sep, _)) = field_line(l) {
            spaced |= seen_blank_between;
            let lower = key.to_ascii_lowercase();
            let value = if lower == "status" {
                status.clone()
            } else if lower.contains("date") {
                new.date.clone()
            } else {
                String::new()
            };
            fields.push(format!("{lead}{key}{sep}{value}").trim_end().to_string());
        }
        i += 1;
    }
    if !fields.is_empty() {
        out.push(String::new());
        for (k, f) in fields.into_iter().enumerate() {
            if k > 0 && spaced {
                out.push(String::new());
            }
            out.push(f);
        }
    }
    // The sections: every `## ` heading, empty but for the status.
    for l in &body[i..] {
        if let Some(name) = l.strip_prefix("## ") {
            out.push(String::new());
            out.push(l.trim_end().to_string());
            if name
                .trim()
                .trim_end_matches(':')
                .eq_ignore_ascii_case("status")
            {
                out.push(String::new());
                out.push(status.clone());
            }
        }
    }
    out
}

/// A template with its placeholders filled: adr-tools' `NUMBER`, `TITLE`, `DATE`, `STATUS`
/// (each its first time), a title heading of placeholders, frontmatter `status`/`date`/`id`/
/// `title`, `Status:`/`Date:` lines, and a placeholder first line under `## Status`.
fn fill_template(new: &NewRecord, template: &str) -> Vec<String> {
    // What is the template's own (MADR's comments, Jekyll's page settings) goes first.
    let text = super::madr::tidy_template(&crate::text::markdown::lf(template));
    let number = new.number.map(|n| n.to_string()).unwrap_or_default();
    // adr-tools writes its statuses capitalised ("Accepted"), as its own records do.
    let status_word = cased(&new.status, "Accepted");
    let mut text = text;
    for (token, value) in [
        ("NUMBER", number.as_str()),
        ("TITLE", new.title.as_str()),
        ("DATE", new.date.as_str()),
        ("STATUS", status_word.as_str()),
    ] {
        if let Some(at) = find_token(&text, token) {
            text.replace_range(at..at + token.len(), value);
        }
    }
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let fm_len = fm_lines(&text).map(|l| l.len() + 2).unwrap_or(0);
    for line in lines.iter_mut().take(fm_len).skip(1) {
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        if key.starts_with(' ') {
            continue;
        }
        let value = match normalise_key(key).as_str() {
            "status" => new.status.clone(),
            "date" => new.date.clone(),
            "title" => yaml_scalar(&new.title),
            "id" | "adr" | "rfc" => match new.number {
                Some(n) if rest.chars().any(|c| c.is_ascii_digit()) => reshape(rest.trim(), n),
                _ => new.id.clone(),
            },
            _ => continue,
        };
        *line = format!("{key}: {value}");
    }
    let mut in_status = false;
    let mut headed = false;
    for line in lines.iter_mut().skip(fm_len) {
        if let Some(h) = line.strip_prefix("# ").map(str::to_string) {
            if !headed {
                headed = true;
                if is_placeholder(&h) {
                    *line = format!("# {}", new.title);
                } else {
                    *line = fill_numbers(line, new);
                }
            }
            continue;
        }
        if line.starts_with('#') {
            in_status = line
                .trim_start_matches('#')
                .trim()
                .eq_ignore_ascii_case("status");
            continue;
        }
        if let Some((lead, key, sep, value)) = field_line(line) {
            let lower = key.to_ascii_lowercase();
            if lower == "status" {
                let word = if value.is_empty() || is_placeholder(&value) {
                    new.status.clone()
                } else {
                    cased(&new.status, &value)
                };
                *line = format!("{lead}{key}{sep}{word}");
            } else if lower.contains("date") {
                *line = format!("{lead}{key}{sep}{}", new.date);
            }
            continue;
        }
        // A status table is filled whole, below (`table::fill`).
        if in_status && !line.trim().is_empty() {
            if is_placeholder(line) && !line.trim_start().starts_with('|') {
                *line = status_word.clone();
            }
            in_status = false;
        }
    }
    super::table::fill(&mut lines, &new.status, &new.date);
    lines
}

/// Relations and governed paths put where the record's form keeps them, and a status added
/// when the form had none.
fn place(new: &NewRecord, text: &str, keys: &CorpusKeys) -> String {
    let mut lines: Vec<String> = text
        .trim_end_matches('\n')
        .split('\n')
        .map(str::to_string)
        .collect();
    let mut fm_len = fm_lines(text).map(|l| l.len() + 2).unwrap_or(0);
    // The title heading, after the frontmatter (whose `# ` lines are YAML comments).
    let mut heading = lines
        .iter()
        .skip(fm_len)
        .position(|l| l.starts_with("# "))
        .map_or(fm_len.saturating_sub(1), |i| i + fm_len);
    let mut status_at = status_in(text).map(|(at, _)| at);
    if status_at.is_none() {
        if fm_len > 0 {
            lines.insert(fm_len - 1, format!("status: {}", new.status));
            status_at = Some(StatusAt::Frontmatter);
            fm_len += 1;
            heading += 1;
        } else {
            lines.insert(heading + 1, String::new());
            lines.insert(heading + 2, format!("Status: {}", new.status));
            status_at = Some(StatusAt::Line(heading + 2));
        }
    }
    // A status in frontmatter (MADR 3 and 4) has its date beside it.
    if matches!(status_at, Some(StatusAt::Frontmatter))
        && !lines[..fm_len].iter().any(|l| {
            l.split_once(':')
                .is_some_and(|(k, _)| !k.starts_with(' ') && normalise_key(k) == "date")
        })
    {
        if let Some(s) = (1..fm_len).find(|&i| {
            lines[i]
                .split_once(':')
                .is_some_and(|(k, _)| normalise_key(k) == "status")
        }) {
            lines.insert(s + 1, format!("date: {}", new.date));
            fm_len += 1;
            heading += 1;
        }
    }
    let mut prose: Vec<String> = Vec::new();
    let mut related: Vec<String> = Vec::new();
    let mut fm_add: Vec<String> = Vec::new();
    let has_fm_key = |norm: &[&str], lines: &[String]| {
        lines[..fm_len].iter().any(|l| {
            l.split_once(':').is_some_and(|(k, _)| {
                !k.starts_with(' ') && norm.contains(&normalise_key(k).as_str())
            })
        })
    };
    for (links, key, word) in [
        (&new.supersedes, &keys.supersedes, "Supersedes"),
        (&new.amends, &keys.amends, "Amends"),
    ] {
        if links.is_empty() {
            continue;
        }
        let norm = normalise_key(word);
        match key {
            Some(k) if fm_len > 0 => {
                if !has_fm_key(&[norm.as_str()], &lines) {
                    fm_add.push(format!("{k}: {}", fm_list(links, keys)));
                }
            }
            _ => related.extend(links.iter().map(|l| link_line(word, l))),
        }
    }
    // Links to other records: under `## Links` (log4brains'), under MADR's `## More
    // Information` when the status is in frontmatter, else beside the status.
    if !related.is_empty() && !super::log4brains::list_links(&mut lines, &related, new.log4brains) {
        if matches!(status_at, Some(StatusAt::Frontmatter)) {
            let (at, block) = super::madr::more_information(&lines, &related);
            lines.splice(at..at, block);
        } else {
            prose.append(&mut related);
        }
    }
    if !new.governs.is_empty() && !has_fm_key(&["governs", "affects"], &lines) {
        if fm_len > 0 {
            fm_add.push("governs:".into());
            fm_add.extend(
                new.governs
                    .iter()
                    .map(|g| format!("  - {}", yaml_scalar(g))),
            );
        } else {
            let paths: Vec<String> = new.governs.iter().map(|g| format!("`{g}`")).collect();
            prose.push(format!("Governs: {}", paths.join(", ")));
        }
    }
    if !prose.is_empty() {
        let (at, block) = match status_at {
            Some(StatusAt::Section(i)) => {
                let mut b = vec![String::new()];
                b.extend(prose);
                (i + 1, b)
            }
            Some(StatusAt::Line(i)) => {
                let lead: String = lines[i]
                    .chars()
                    .take_while(|c| c.is_whitespace() || matches!(c, '-' | '*' | '+'))
                    .collect();
                let lead = if lead.trim().is_empty() {
                    String::new()
                } else {
                    lead
                };
                // A `**Status:**` line's emphasis is no list marker.
                let lead = if lines[i].trim_start().starts_with("**") {
                    String::new()
                } else {
                    lead
                };
                let spaced = lines.get(i + 1).is_some_and(|l| l.trim().is_empty())
                    && lines.get(i + 2).is_some_and(|l| field_line(l).is_some());
                let mut b = Vec::new();
                for p in prose {
                    if spaced {
                        b.push(String::new());
                    }
                    b.push(format!("{lead}{p}"));
                }
                (i + 1, b)
            }
            // A status table: a paragraph of its own under it.
            Some(StatusAt::Table(i)) => {
                let mut b = vec![String::new()];
                b.extend(prose);
                (super::table::extent(&lines, i).1, b)
            }
            _ => {
                let mut b = vec![String::new()];
                b.extend(prose);
                (heading + 1, b)
            }
        };
        for (k, l) in block.into_iter().enumerate() {
            lines.insert(at + k, l);
        }
    }
    if !fm_add.is_empty() {
        for (k, l) in fm_add.into_iter().enumerate() {
            lines.insert(fm_len - 1 + k, l);
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The first `token` standing as a word of its own (adr-tools' `NUMBER`, `TITLE`, …).
fn find_token(text: &str, token: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(token).map(|i| i + from) {
        let end = i + token.len();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        if (i == 0 || !word(b[i - 1])) && (end == b.len() || !word(b[end])) {
            return Some(i);
        }
        from = end;
    }
    None
}

/// A template's placeholder: `{…}`, `[…]`, `<…>`, or words naming what goes there.
fn is_placeholder(text: &str) -> bool {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    (t.starts_with('{') || t.starts_with('[') || t.starts_with('<'))
        || lower.contains("title")
        || lower.contains(" | ")
}

/// A heading's `NNNN`/`XXXX` placeholders made the record's number.
fn fill_numbers(line: &str, new: &NewRecord) -> String {
    let Some(n) = new.number else {
        return line.to_string();
    };
    let mut out = line.to_string();
    for token in ["NNNN", "XXXX", "nnnn", "xxxx"] {
        out = out.replace(token, &format!("{n:04}"));
    }
    out
}

/// A frontmatter list of the links' ids, in the corpus's id form.
fn fm_list(links: &[Link], keys: &CorpusKeys) -> String {
    let items: Vec<String> = links
        .iter()
        .map(|l| keys.value_of(&l.id, l.number))
        .collect();
    format!("[{}]", items.join(", "))
}

fn is_empty_value(v: &str) -> bool {
    matches!(v, "" | "null" | "~" | "\"\"" | "''" | "[]")
}

/// `value` quoted as `like` is (`"2024-01-01"`), or plain.
fn quoted_like(like: &str, value: &str) -> String {
    match like.chars().next() {
        Some(q @ ('"' | '\'')) => format!("{q}{value}{q}"),
        _ => value.to_string(),
    }
}

/// A formatted id for a number in a prefix (for links to records named by number).
pub fn id_for(prefix: Prefix, number: u64) -> String {
    format_id(prefix, &number.to_string())
}

#[cfg(test)]
mod tests {
    use super::number_prefix;

    #[test]
    fn heading_number_prefixes() {
        for (h, p) in [
            ("7. Use X", "7. "),
            ("ADR 7: Use X", "ADR 7: "),
            ("ADR-0007 - Use X", "ADR-0007 - "),
            ("RFC 1234 – Retry", "RFC 1234 – "),
            ("2024 plans", ""),
            ("Use X", ""),
        ] {
            assert_eq!(&h[..number_prefix(h)], p, "{h}");
        }
    }
}
