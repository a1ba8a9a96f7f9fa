// @adr 0009
//! Inbound markers: a source file saying which decision it lives under (docs/markers.md,
//! ADR-0009). Pure text: the bytes of a file's header window in, the ids it declares out.
//!
//! The grammar, after adrkit's ADR-0021:
//!
//! - a marker sits on a dedicated comment line: after optional spaces or tabs, one of `//`,
//!   `/*`, `*`, `#`, `--`, `;`, `%`, `<!--`, `"""`, `'''` begins the physical line (more of the
//!   same characters, or a `!`, may follow it: `///`, `//!`, `/**`, `##`, `;;`, `---`);
//! - the comment's first content is the marker word, `@adr`, `@rfc` or `@dr` (any case), then
//!   spaces or tabs, then an id: `0012`, `12`, `ADR-0012`, `adr_12`, `RFC12` (`DD` means `DR`);
//! - a bare number takes the word's kind (`@rfc 7` is `RFC-0007`); an id written with its
//!   prefix keeps it (`@adr RFC-7` is `RFC-0007`); either is formatted as docs/reading.md says;
//! - a comma continues the list (`@adr 0012, 0013`); anything else ends it, so `@adr 0012 13`
//!   declares ADR-0012 alone, and a first token that is no id (`@adr payments:0012`) declares
//!   nothing;
//! - only the first [`WINDOW`] bytes are read; when the file is longer, the window's last line
//!   is severed and dropped (half of `@adr 00123` is `@adr 0012`);
//! - a window holding a NUL byte is a binary file's: no markers;
//! - in a Markdown file (`.md`, `.markdown`), lines inside fenced code blocks are examples,
//!   not markers.
//!
//! A file declares each id once, on the first line that names it.

use super::ids::{format_id, Prefix};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many bytes of a file are read for markers: its header window.
pub const WINDOW: usize = 8192;

/// One declaration: the formatted id a marker names, and its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Marker {
    pub line: u32,
    pub id: String,
}

/// A source file and what it declares (at least one marker).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FileMarkers {
    /// Root-relative, `/`-separated.
    pub path: String,
    /// In line order.
    pub markers: Vec<Marker>,
}

/// The markers of the source files scanned: only files that declare something, in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Markers {
    pub files: Vec<FileMarkers>,
}

/// Whether the root-relative `path` is `within` (`""` is the root): the path itself, or
/// under it when it is a folder.
pub fn is_within(path: &str, within: &str) -> bool {
    within.is_empty()
        || path
            .strip_prefix(within)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl Markers {
    /// From files in any order (files without markers are left out).
    pub fn new(mut files: Vec<FileMarkers>) -> Markers {
        files.retain(|f| !f.markers.is_empty());
        files.sort();
        files.dedup_by(|a, b| a.path == b.path);
        Markers { files }
    }

    /// The files at or under `within` (`""` is the root).
    pub fn within<'a>(&'a self, within: &'a str) -> impl Iterator<Item = &'a FileMarkers> + 'a {
        self.files
            .iter()
            .filter(move |f| is_within(&f.path, within))
    }

    /// Only the files at or under `within`.
    pub fn narrowed(&self, within: &str) -> Markers {
        Markers {
            files: self.within(within).cloned().collect(),
        }
    }

    /// Each id declared, with the files declaring it and the line, in path order.
    pub fn declared(&self) -> BTreeMap<&str, Vec<(&str, u32)>> {
        let mut out: BTreeMap<&str, Vec<(&str, u32)>> = BTreeMap::new();
        for f in &self.files {
            for m in &f.markers {
                out.entry(m.id.as_str())
                    .or_default()
                    .push((f.path.as_str(), m.line));
            }
        }
        out
    }

    /// Whether the file `path` declares `id`.
    pub fn declares(&self, path: &str, id: &str) -> bool {
        self.files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .is_ok_and(|at| self.files[at].markers.iter().any(|m| m.id == id))
    }

    /// Whether no file declares anything.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Whether the markers of `path` are read as Markdown's (fenced blocks are examples; only an
/// HTML comment, or MDX's `{/* … */}`, is a marker line: a heading or a list item is not).
pub fn is_markdown(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    ["md", "markdown", "mdx"]
        .iter()
        .any(|m| ext.eq_ignore_ascii_case(m))
}

/// The ids a Markdown or MDX line declares: an HTML comment (`<!-- @adr 12 -->`) or an MDX
/// comment (`{/* @adr 12 */}`); a heading (`# @adr 12`) or a list item (`* @adr 12`) is
/// Markdown's own text, not a comment.
fn markdown_line_ids(line: &str) -> Vec<String> {
    let t = line.trim_start_matches([' ', '\t']);
    if let Some(mdx) = t.strip_prefix("{/*") {
        return line_ids(format!("/*{mdx}").as_bytes());
    }
    if t.starts_with("<!--") {
        return line_ids(t.as_bytes());
    }
    Vec::new()
}

/// The markers in a file's header window: `window` is its first bytes (at most [`WINDOW`];
/// more are ignored), `longer` says the file goes on past them, `markdown` that fenced blocks
/// are examples ([`is_markdown`]). Never panics, whatever the bytes.
pub fn scan(window: &[u8], longer: bool, markdown: bool) -> Vec<Marker> {
    let (mut window, mut longer) = (window, longer);
    if window.len() > WINDOW {
        window = &window[..WINDOW];
        longer = true;
    }
    // A binary file's, or one with no marker word at all: nothing to read line by line.
    if window.contains(&0) || !window.contains(&b'@') {
        return Vec::new();
    }
    if longer {
        // The last line was cut by the window: drop it (and keep its newline's line).
        window = match window.iter().rposition(|&b| b == b'\n') {
            Some(i) => &window[..=i],
            None => &[],
        };
    }
    let window = window.strip_prefix(b"\xef\xbb\xbf").unwrap_or(window);
    let mut out: Vec<Marker> = Vec::new();
    let mut push = |line: usize, ids: Vec<String>| {
        for id in ids {
            if !out.iter().any(|m| m.id == id) {
                out.push(Marker {
                    line: u32::try_from(line + 1).unwrap_or(u32::MAX),
                    id,
                });
            }
        }
    };
    if markdown {
        let text = String::from_utf8_lossy(window);
        let lines: Vec<&str> = text.split('\n').collect();
        for (i, line) in super::markdown::visible_lines(&lines, 0) {
            push(i, markdown_line_ids(line));
        }
    } else {
        // Only a line holding an `@` can be a marker line: go from one `@` to the next rather
        // than through every line (most windows hold a few, in an address or a decorator).
        let mut line = 0; // the number of the line `start` begins
        let mut start = 0; // where the line holding the next `@` is looked for from
        let mut from = 0;
        while let Some(at) = window[from..].iter().position(|&b| b == b'@') {
            let at = from + at;
            let begins = window[start..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(start, |i| start + i + 1);
            line += window[start..begins]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            let ends = window[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(window.len(), |i| at + i);
            push(line, line_ids(&window[begins..ends]));
            start = begins;
            from = ends;
        }
    }
    out
}

/// The comment introducers, longest first (so `<!--` is not read as nothing, `/*` not as `*`).
const INTRODUCERS: [&[u8]; 10] = [
    b"<!--", b"\"\"\"", b"'''", b"//", b"/*", b"--", b"*", b"#", b";", b"%",
];

/// The ids one physical line declares: none unless it is a dedicated marker comment.
pub fn line_ids(line: &[u8]) -> Vec<String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let blank = |b: u8| b == b' ' || b == b'\t';
    let start = line.iter().position(|&b| !blank(b)).unwrap_or(line.len());
    let rest = &line[start..];
    let Some(intro) = INTRODUCERS.iter().find(|i| rest.starts_with(i)) else {
        return Vec::new();
    };
    // More of the introducer's own characters, or a `!`: `///`, `//!`, `/**`, `##`, `---`.
    let mut i = intro.len();
    while i < rest.len() && (intro.contains(&rest[i]) || rest[i] == b'!') {
        i += 1;
    }
    while i < rest.len() && blank(rest[i]) {
        i += 1;
    }
    let rest = &rest[i..];
    let Some(word) = rest.strip_prefix(b"@") else {
        return Vec::new();
    };
    let letters = word.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let kind = match word[..letters].to_ascii_lowercase().as_slice() {
        b"adr" => Prefix::Adr,
        b"rfc" => Prefix::Rfc,
        b"dr" => Prefix::Dr,
        _ => return Vec::new(),
    };
    let mut rest = &word[letters..];
    let spaces = rest.iter().take_while(|&&b| blank(b)).count();
    if spaces == 0 {
        return Vec::new(); // `@adr:12`, `@adrs`, `@adr` alone
    }
    rest = &rest[spaces..];
    let mut ids = Vec::new();
    while let Some((id, used)) = read_id(rest, kind) {
        ids.push(id);
        rest = &rest[used..];
        // A comma continues the list, with or without spaces around it; anything else ends it.
        let before = rest.iter().take_while(|&&b| blank(b)).count();
        if rest.get(before) != Some(&b',') {
            break;
        }
        rest = &rest[before + 1..];
        rest = &rest[rest.iter().take_while(|&&b| blank(b)).count()..];
    }
    ids
}

/// An id at the start of `text`, and how many bytes it took: digits (which take `kind`), or a
/// prefix (`ADR`, `RFC`, `DR`, `DD`, any case), an optional `-` or `_`, then digits. The id
/// must end at a word boundary.
fn read_id(text: &[u8], kind: Prefix) -> Option<(String, usize)> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let letters = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let (prefix, mut at) = if letters == 0 {
        (kind, 0)
    } else {
        let written = std::str::from_utf8(&text[..letters]).ok()?;
        let prefix = Prefix::from_mention(written)?;
        let sep = usize::from(matches!(text.get(letters), Some(b'-' | b'_')));
        (prefix, letters + sep)
    };
    let digits = text[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let number = std::str::from_utf8(&text[at..at + digits]).ok()?;
    at += digits;
    if text.get(at).is_some_and(|&b| word(b)) {
        return None; // `0012abc`, `12_3`
    }
    Some((format_id(prefix, number), at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids of one line.
    fn ids(line: &str) -> Vec<String> {
        line_ids(line.as_bytes())
    }

    /// The (line, id) pairs of a whole file that fits the window.
    fn found(text: &str, markdown: bool) -> Vec<(u32, String)> {
        scan(text.as_bytes(), false, markdown)
            .into_iter()
            .map(|m| (m.line, m.id))
            .collect()
    }

    #[test]
    fn every_introducer_begins_a_marker_line() {
        for intro in [
            "//", "/*", "*", "#", "--", ";", "%", "<!--", "\"\"\"", "'''", "///", "//!", "/**",
            "##", ";;", "---", "%%",
        ] {
            assert_eq!(ids(&format!("{intro} @adr 0012")), ["ADR-0012"], "{intro}");
            assert_eq!(ids(&format!("  \t{intro}@adr 12")), ["ADR-0012"], "{intro}");
        }
        assert_eq!(ids("<!-- @adr 12 -->"), ["ADR-0012"]);
        assert_eq!(ids("/* @adr 12 */"), ["ADR-0012"]);
        assert_eq!(ids("\"\"\"@rfc 7\"\"\""), ["RFC-0007"]);
    }

    #[test]
    fn the_word_gives_a_bare_number_its_kind() {
        assert_eq!(ids("// @adr 12"), ["ADR-0012"]);
        assert_eq!(ids("// @rfc 7"), ["RFC-0007"]);
        assert_eq!(ids("// @dr 3"), ["DR-0003"]);
        assert_eq!(ids("// @ADR 0012"), ["ADR-0012"], "any case");
        assert_eq!(ids("// @adr ADR-0012"), ["ADR-0012"]);
        assert_eq!(ids("// @adr adr_12"), ["ADR-0012"]);
        assert_eq!(ids("// @rfc RFC12"), ["RFC-0012"]);
        assert_eq!(ids("// @adr RFC-7"), ["RFC-0007"], "a written prefix wins");
        assert_eq!(ids("// @dr DD-4"), ["DR-0004"]);
        assert_eq!(ids("// @adr 12345"), ["ADR-12345"]);
    }

    #[test]
    fn a_comma_continues_the_list_and_a_space_ends_it() {
        assert_eq!(ids("// @adr 0012, 0013"), ["ADR-0012", "ADR-0013"]);
        assert_eq!(
            ids("// @adr 12,13 ,14"),
            ["ADR-0012", "ADR-0013", "ADR-0014"]
        );
        assert_eq!(ids("// @adr 12, RFC-3"), ["ADR-0012", "RFC-0003"]);
        assert_eq!(ids("// @adr 0012 1234567"), ["ADR-0012"]);
        assert_eq!(ids("// @adr 12 and 13"), ["ADR-0012"]);
        assert_eq!(ids("// @adr 12, x"), ["ADR-0012"]);
    }

    #[test]
    fn what_is_not_a_marker() {
        for line in [
            "} // @adr 0012",            // a trailing comment
            "let s = \"// @adr 0012\";", // a string literal
            "x = '@adr 12'",             // no introducer
            "// see @adr 12",            // not the comment's first content
            "// @adrs 12",               // another word
            "// @adr",                   // no id
            "// @adr:12",                // no space
            "// @adr payments:0012",     // a log-qualified id
            "// @adr 0012abc",           // no word boundary
            "// @adr XYZ-12",            // not a kind of id
            "- @adr 12",                 // one dash is no introducer
            "/ @adr 12",                 // nor one slash
            "@adr 12",                   // no comment at all
        ] {
            assert!(ids(line).is_empty(), "{line:?} is not a marker");
        }
    }

    #[test]
    fn lines_count_from_one_and_each_id_once() {
        let text = "#!/bin/sh\r\n# @adr 3\r\n\n# @adr 4, 3\n";
        assert_eq!(
            found(text, false),
            [(2, "ADR-0003".to_string()), (4, "ADR-0004".to_string())]
        );
        assert_eq!(
            found("\u{feff}// @adr 1\n", false),
            [(1, "ADR-0001".into())]
        );
    }

    #[test]
    fn only_the_window_counts_and_its_severed_line_is_dropped() {
        // A marker wholly inside the window, then one past it.
        let mut text = String::from("// @adr 1\n");
        while text.len() < WINDOW {
            text.push_str("filler line\n");
        }
        text.push_str("// @adr 2\n");
        assert_eq!(found(&text, false), [(1, "ADR-0001".into())]);
        // A marker line the window cuts in two: `@adr 00123` would read as `@adr 0012`.
        let mut cut = String::new();
        while cut.len() < WINDOW - 20 {
            cut.push_str("filler line\n");
        }
        // The window ends right after `// @adr 0012` (12 bytes), inside `00123`.
        let pad = WINDOW - 12 - cut.len();
        cut.push_str(&" ".repeat(pad));
        cut.push_str("// @adr 00123\n");
        assert!(cut.len() > WINDOW);
        assert!(
            found(&cut, false).is_empty(),
            "the severed line must be dropped"
        );
        // The same window, the file ending where the window ends: nothing severed.
        let whole = &cut.as_bytes()[..WINDOW];
        assert!(
            !scan(whole, false, false).is_empty(),
            "a whole last line counts"
        );
        assert!(
            scan(whole, true, false).is_empty(),
            "a severed one does not"
        );
    }

    #[test]
    fn a_binary_window_has_no_markers() {
        assert!(scan(b"// @adr 12\n\0\x01\x02", false, false).is_empty());
        assert_eq!(scan(b"// @adr 12\n\x01\x02", false, false).len(), 1);
    }

    #[test]
    fn fenced_blocks_in_markdown_are_examples() {
        let text =
            "<!-- @adr 1 -->\n\n```js\n// @adr 2\n```\n\n~~~\n# @adr 3\n~~~\n<!-- @adr 4 -->\n";
        assert_eq!(
            found(text, true),
            [(1, "ADR-0001".into()), (10, "ADR-0004".into())]
        );
        let all: Vec<String> = found(text, false).into_iter().map(|(_, id)| id).collect();
        assert_eq!(all, ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]);
        assert!(is_markdown("docs/a.MD") && is_markdown("x.markdown") && is_markdown("p.mdx"));
        assert_eq!(markdown_line_ids("{/* @adr 12 */}"), ["ADR-0012"]);
        assert_eq!(markdown_line_ids("<!-- @adr 3 -->"), ["ADR-0003"]);
        assert!(markdown_line_ids("# @adr 12").is_empty());
        assert!(markdown_line_ids("* @adr 12").is_empty());
        assert!(!is_markdown("src/a.rs") && !is_markdown("md"));
    }

    #[test]
    fn within_is_the_path_or_under_it() {
        assert!(is_within("src/a.rs", ""));
        assert!(is_within("src/a.rs", "src"));
        assert!(is_within("src/a.rs", "src/a.rs"));
        assert!(!is_within("src/ab.rs", "src/a"));
        assert!(!is_within("srcx/a.rs", "src"));
    }

    /// Reading a window line by line gives what the `@`-driven reading gives.
    fn by_lines(window: &[u8]) -> Vec<Marker> {
        let mut out: Vec<Marker> = Vec::new();
        for (i, line) in window.split(|&b| b == b'\n').enumerate() {
            for id in line_ids(line) {
                if !out.iter().any(|m| m.id == id) {
                    out.push(Marker {
                        line: i as u32 + 1,
                        id,
                    });
                }
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn markers_are_found_where_reading_every_line_finds_them(
            lines in proptest::collection::vec(
                r"[ \t]{0,2}(//|#|--|\*|x)?[ ]?(@adr|@rfc|@x|a@b)?[ ]?[0-9]{0,3}(, ?[0-9]{1,2})?[ @]{0,2}",
                0..12,
            )
        ) {
            let text = lines.join("\n");
            proptest::prop_assert_eq!(scan(text.as_bytes(), false, false), by_lines(text.as_bytes()));
        }
    }

    #[test]
    fn any_bytes_are_read_without_panicking() {
        let bytes: Vec<u8> = (0u16..600).map(|i| (i * 7 % 251) as u8 + 1).collect();
        let _ = scan(&bytes, true, true);
        let _ = scan(&bytes, false, false);
        let _ = scan(b"// @adr \xff\xfe, 12", false, true);
    }
}
