//! Markdown, read only as far as records need it: line endings, fenced code blocks (examples,
//! not fields), code spans, and links (inline and reference definitions). Pure text, no file
//! system (ADR-0001).

use super::path::normalise;
use regex::Regex;
use std::sync::OnceLock;
/// The text with LF line endings (CRLF and lone CR files are read alike); no copy when it has
/// no CR.
pub fn lf(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    }
}

/// The body's lines, numbered, without fenced code blocks (they are examples, not fields).
pub fn visible_lines<'a>(all: &[&'a str], start: usize) -> Vec<(usize, &'a str)> {
    split_fenced(all, start).0
}

/// The lines inside the body's fenced code blocks, numbered (not their fences).
pub fn fenced_lines<'a>(all: &[&'a str], start: usize) -> Vec<(usize, &'a str)> {
    split_fenced(all, start).1
}

/// The lines inside the body's fenced code blocks, numbered, each with its block's info
/// string (`mermaid` of a fence opened with ```` ```mermaid ````; empty for none) and the number
/// of its block, counted from 0.
pub fn fenced_blocks<'a>(all: &[&'a str], start: usize) -> Vec<(usize, usize, &'a str, &'a str)> {
    let mut out = Vec::new();
    let mut block = 0;
    scan_fences(all, start, |i, line, inside| {
        if let Some(info) = inside {
            out.push((block, i, info, line));
        } else if i == usize::MAX {
            block += 1;
        }
    });
    out
}

/// The body's lines outside fenced code blocks, and those inside them.
#[allow(clippy::type_complexity)]
fn split_fenced<'a>(
    all: &[&'a str],
    start: usize,
) -> (Vec<(usize, &'a str)>, Vec<(usize, &'a str)>) {
    let mut out = Vec::new();
    let mut inside = Vec::new();
    scan_fences(all, start, |i, line, info| match info {
        _ if i == usize::MAX => {}
        Some(_) => inside.push((i, line)),
        None => out.push((i, line)),
    });
    (out, inside)
}

/// Calls `each` with every line of the body from `start` (its number, the line, and the info
/// string of the fenced block it is inside, if any; fences themselves are not lines), and with
/// `usize::MAX` where a block closes.
fn scan_fences<'a>(
    all: &[&'a str],
    start: usize,
    mut each: impl FnMut(usize, &'a str, Option<&'a str>),
) {
    let mut fence: Option<(char, usize, &'a str)> = None;
    for (i, line) in all.iter().enumerate().skip(start) {
        let t = line.trim_start();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n, info)) => {
                if run(c) >= n && t.trim_start_matches(c).trim().is_empty() {
                    fence = None;
                    each(usize::MAX, "", None);
                } else {
                    each(i, line, Some(info));
                }
            }
            None => {
                let (b, tl) = (run('`'), run('~'));
                if b >= 3 {
                    fence = Some(('`', b, t.trim_start_matches('`').trim()));
                } else if tl >= 3 {
                    fence = Some(('~', tl, t.trim_start_matches('~').trim()));
                } else {
                    each(i, line, None);
                }
            }
        }
    }
}

pub fn link_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^"']*["'])?\s*\)"#)
            .expect("link regex compiles")
    })
}

/// Every inline link and reference definition in a text: (text, target). An image
/// (`![alt](src)`) is not a link, nor is a footnote definition (`[^note]: text`).
pub fn text_links(text: &str) -> Vec<(&str, &str)> {
    let spans = code_span_ranges(text);
    let in_code = |at: usize| spans.iter().any(|&(s, e)| s <= at && at < e);
    let mut out: Vec<(&str, &str)> = link_re()
        .captures_iter(text)
        .filter(|c| !text[..c.get(0).unwrap().start()].ends_with('!'))
        .filter(|c| spans.is_empty() || !in_code(c.get(0).unwrap().start()))
        .map(|c| (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str()))
        .collect();
    // A reference definition: `[label]: target`.
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = DEF.get_or_init(|| {
        Regex::new(r"(?m)^[ ]{0,3}\[([^\]\n]+)\]:[ \t]*<?([^\s>]+)>?").expect("regex")
    });
    out.extend(
        def.captures_iter(text)
            .filter(|c| !c.get(1).unwrap().as_str().starts_with('^'))
            .map(|c| (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str())),
    );
    out
}

/// The byte ranges of a text's inline code spans, a line at a time: a link written inside
/// one (`` `[ADR-2](0002-x.md)` ``) is shown as code, not a link.
fn code_span_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains('`') {
        return out;
    }
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let mut at = 0;
        while let Some(start) = line[at..].find('`') {
            let open = at + start;
            let ticks = line[open..].bytes().take_while(|&b| b == b'`').count();
            let closing = "`".repeat(ticks);
            match line[open + ticks..].find(&closing) {
                Some(end) => {
                    let close = open + ticks + end + ticks;
                    out.push((line_start + open, line_start + close));
                    at = close;
                }
                None => break,
            }
        }
        line_start += line.len();
    }
    out
}

/// A link's target made root-relative: `None` for URLs, anchors, and paths leaving the root.
pub fn link_target(folder: &str, target: &str) -> Option<String> {
    let t = without_fragment(target);
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
    normalise(&joined)
}

/// A file directly in `folder` written as a forge's web address of it
/// (`https://github.com/O/R/blob/main/docs/adr/0016-x.md`): its root-relative path. Read where
/// a record names its successor or predecessor, as a link copied from the browser does (GSA-TTS/FAC).
pub fn forge_file_in(folder: &str, target: &str) -> Option<String> {
    if folder.is_empty() {
        return None;
    }
    let t = without_fragment(target);
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))?;
    let (_, after) = rest.split_once("/blob/")?;
    let path = percent_decode(after);
    let at = path.find(&format!("/{folder}/"))?;
    let file = &path[at + 1..];
    let name = &file[folder.len() + 1..];
    (name.to_ascii_lowercase().ends_with(".md") && !name.contains('/')).then(|| file.to_string())
}

/// A link's target without its fragment and query. A `#` before a `.md` that ends the path
/// is part of a file's name, not a fragment: a record titled with one
/// (`0024-use-#-as-indicator.md`, linked as written or as `%23`).
fn without_fragment(target: &str) -> &str {
    let Some(hash) = target.find('#') else {
        return target.split('?').next().unwrap_or("");
    };
    let lower = target.to_ascii_lowercase();
    let named = lower[hash..]
        .match_indices(".md")
        .map(|(at, _)| hash + at + 3)
        .find(|&end| end == target.len() || matches!(target.as_bytes()[end], b'#' | b'?'));
    match named {
        Some(end) if hash > 0 && !lower[..hash].ends_with(".md") => &target[..end],
        _ => target.split(['#', '?']).next().unwrap_or(""),
    }
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
pub fn code_spans(line: &str) -> Vec<&str> {
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

    #[test]
    fn images_and_footnote_definitions_are_not_links() {
        let text = "See [the guide](docs/guide.md) and ![a diagram](img/flow.png).\n\n\
[ref]: docs/ref.md\n[^1]: Existing examples of it.\n";
        let targets: Vec<&str> = text_links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(targets, ["docs/guide.md", "docs/ref.md"]);
    }

    #[test]
    fn a_link_inside_a_code_span_is_code() {
        let text = "Write `supersedes: \"[ADR-2](0002-x.md)\"` as [record 3](0003-y.md) does.\n";
        let targets: Vec<&str> = text_links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(targets, ["0003-y.md"]);
    }
}
