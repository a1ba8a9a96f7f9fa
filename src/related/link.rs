//! `link` evidence (docs/related.md): a comment in PATH names the record's id (`// See
//! ADR-0024`, `# ADR 12`) or links its file (`see docs/adr/0024-strings.md`). A marker
//! (`// @adr 24`) is not a link: it declares the decision, which then governs PATH
//! (docs/markers.md). Only PATH itself is read, and only its first [`MAX_BYTES`].

use super::{Candidate, Weighed};
use crate::model::Evidence;
use crate::text::{ids, marker};

/// The most of PATH that is read.
pub const MAX_BYTES: usize = 1024 * 1024;
pub const WEIGHT: u32 = 5;

/// What opens a comment, in the languages whose comments a marker may be in.
const INTRODUCERS: [&str; 10] = [
    "<!--", "\"\"\"", "'''", "//", "/*", "--", "*", "#", ";", "%",
];

/// Each candidate's first link in `text`, the bytes of `path`.
pub fn evidence(text: &[u8], path: &str, candidates: &[Candidate]) -> Vec<Weighed> {
    let text = &text[..text.len().min(MAX_BYTES)];
    let prose = crate::text::path::is_prose(path);
    // Each record file's name with its candidate, sorted by name: a comment's words are looked
    // up in it (searching every line for seventy names was most of a warm answer on JabRef),
    // by a binary search (a map of the names cost more to build than its lookups saved on
    // emberjs/rfcs' 262 records, issue 41).
    let mut files: Vec<(&str, usize)> = candidates
        .iter()
        .enumerate()
        .filter_map(|(at, c)| {
            let name = c
                .path
                .rfind('/')
                .map_or(c.path.as_str(), |i| &c.path[i + 1..]);
            name.contains('.').then_some((name, at))
        })
        .collect();
    files.sort_unstable();
    let mut found: Vec<Option<(u32, String)>> = vec![None; candidates.len()];
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        if !marker::line_ids(line).is_empty() {
            continue;
        }
        let line = String::from_utf8_lossy(line);
        // Where the comment starts: anywhere on a line of prose.
        let Some(from) = (if prose { Some(0) } else { comment_start(&line) }) else {
            continue;
        };
        let comment = &line[from..];
        let number = n as u32 + 1;
        for m in ids::mentions(comment) {
            for (at, c) in candidates.iter().enumerate() {
                if c.id == m.id && found[at].is_none() {
                    found[at] = Some((number, comment[m.start..m.end].to_string()));
                }
            }
        }
        if !comment.contains('.') {
            continue;
        }
        for word in comment.split(|c: char| c.is_whitespace() || "/()[]<>\"'`,;|\\".contains(c)) {
            let word = word.trim_end_matches(['.', ':', '!', '?']);
            let from = files.partition_point(|(name, _)| *name < word);
            for &(_, at) in files[from..].iter().take_while(|(name, _)| *name == word) {
                if found[at].is_none() {
                    found[at] = Some((number, word.to_string()));
                }
            }
        }
    }
    found
        .into_iter()
        .enumerate()
        .filter_map(|(at, f)| {
            f.map(|(line, term)| Weighed {
                at,
                evidence: Evidence::Link { term, line },
                weight: WEIGHT,
            })
        })
        .collect()
}

/// Where a comment starts on a line of code: the first comment introducer.
fn comment_start(line: &str) -> Option<usize> {
    // One pass over the bytes, an introducer tried only where one may begin.
    let bytes = line.as_bytes();
    (0..bytes.len()).find(|&at| {
        matches!(
            bytes[at],
            b'/' | b'*' | b'#' | b'-' | b';' | b'%' | b'<' | b'"' | b'\''
        ) && INTRODUCERS
            .iter()
            .any(|i| bytes[at..].starts_with(i.as_bytes()))
    })
}
