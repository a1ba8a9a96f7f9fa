//! Text for the HTML page (docs/pictures.md; ADR-0015): escaped for HTML, a record's id as an
//! anchor, Markdown read as its text, ids in numeric order, a label cut to fit its box.

use std::cmp::Ordering;
use std::fmt::Write;

/// Text for HTML (element content and quoted attribute values alike): control characters
/// escaped as `output::escape` writes them, then `&`, `<`, `>`, `"` and `'`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in super::escape(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `id` attribute of a record's row: letters, digits, `-` and `_` kept, anything else
/// written as `_` and its code, so no id can break out of the attribute or collide with
/// another's.
pub fn anchor(id: &str) -> String {
    let mut out = String::from("rec-");
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            let _ = write!(out, "_{:x}_", c as u32);
        }
    }
    out
}

/// Ids in the order a reader counts them: runs of digits by their value, the rest as text
/// ignoring case, so `RFC-1858` comes before `RFC-10298` and `ADR-9` before `ADR-10`.
pub fn id_order(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (runs(a), runs(b));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => {
                let by = match (digits(p), digits(q)) {
                    (true, true) => {
                        let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                        p.len().cmp(&q.len()).then_with(|| p.cmp(q))
                    }
                    _ => p.to_lowercase().cmp(&q.to_lowercase()),
                };
                if by != Ordering::Equal {
                    return by;
                }
            }
        }
    }
}

fn digits(run: &str) -> bool {
    run.starts_with(|c: char| c.is_ascii_digit())
}

/// `text` cut into runs of ASCII digits and runs of anything else.
fn runs(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let numeric = first.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != numeric)
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        rest = tail;
        Some(run)
    })
}

/// Markdown inline text as a reader sees it rendered: a link as its text, code spans, strong
/// and emphasis marks and backslash escapes dropped (`` `redb` `` reads `redb`).
pub fn plain(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let chars: Vec<char> = markdown.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '`' => {}
            '*' => {}
            '_' if (i + 1 < chars.len() && chars[i + 1] == '_')
                || (i > 0 && chars[i - 1] == '_') => {}
            '_' if !word(chars.get(i.wrapping_sub(1))) || !word(chars.get(i + 1)) => {}
            '!' if chars.get(i + 1) == Some(&'[') => {}
            '[' => {
                // `[text](target)` or `[text][label]`: the text.
                if let Some(close) = chars[i + 1..].iter().position(|&c| c == ']') {
                    let end = i + 1 + close;
                    let after = chars.get(end + 1);
                    let closer = match after {
                        Some('(') => Some(')'),
                        Some('[') => Some(']'),
                        _ => None,
                    };
                    if let Some(closer) = closer {
                        if let Some(len) = chars[end + 2..].iter().position(|&c| c == closer) {
                            out.push_str(&plain(&chars[i + 1..end].iter().collect::<String>()));
                            i = end + 2 + len + 1;
                            continue;
                        }
                    }
                }
                out.push(c);
            }
            c => out.push(c),
        }
        i += 1;
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn word(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric())
}

/// A title cut to fit a box: at most `max` characters, an ellipsis when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_sort_by_the_numbers_in_them() {
        let mut ids = vec![
            "RFC-10298",
            "RFC-1858",
            "ADR-10",
            "ADR-9",
            "adr-0002",
            "RFC-0541",
        ];
        ids.sort_by(|a, b| id_order(a, b));
        assert_eq!(
            ids,
            [
                "adr-0002",
                "ADR-9",
                "ADR-10",
                "RFC-0541",
                "RFC-1858",
                "RFC-10298"
            ]
        );
    }

    #[test]
    fn markdown_reads_as_its_text() {
        for (md, text) in [
            ("Use `redb` for the **index**", "Use redb for the index"),
            (
                "Superseded by [ADR-0008](./0008-hooks.md)",
                "Superseded by ADR-0008",
            ),
            (
                "snake_case_name and _emphasis_",
                "snake_case_name and emphasis",
            ),
            ("a \\* b [not a link", "a * b [not a link"),
            ("![logo](x.png) [ref][1]", "logo ref"),
        ] {
            assert_eq!(plain(md), text, "{md}");
        }
    }
}
