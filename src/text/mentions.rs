//! Which ids a text mentions, read as a careful reader reads them (docs/reading.md, "Ids that are
//! not records"; ADR-0001): an id inside a code span is an example unless the span is the id
//! alone, and an id in the text of a link to an external URL (inline, or reference-style with a
//! URL definition) names that page — a pull request, an IETF RFC — not a local record.

use super::ids;
use super::markdown::link_re;
use regex::Regex;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::OnceLock;

/// The ids a text mentions, split by how they are written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProseIds {
    /// Ids written in prose (or as a code span holding the id alone) and never linked to an
    /// external URL in the text, in order, duplicates kept.
    pub ids: Vec<String>,
    /// Ids the text links to an external URL that is not an IETF page (`[RFC 98](https://…/pull/98)`),
    /// wherever else it mentions them: a citation only when a local record has that id, which
    /// the graph decides. Sorted, distinct. (An id linked to an IETF page is in neither list.)
    pub linked: Vec<String>,
}

/// The byte ranges of the contents of the single-line code spans of `line` (backtick runs
/// matched by length, as `markdown::code_spans` reads them).
fn code_span_ranges(line: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = line[at..].find('`') {
        let start = at + found;
        let ticks = line[start..].bytes().take_while(|&b| b == b'`').count();
        let body = start + ticks;
        let closing = "`".repeat(ticks);
        match line[body..].find(&closing) {
            Some(end) => {
                out.push(body..body + end);
                at = body + end + ticks;
            }
            None => break,
        }
    }
    out
}

/// A code span that is written as an id: the id alone (`ADR-0007`) or a bare number (`0022`,
/// `#22`, which a relation list reads).
fn span_is_an_id(body: &str) -> bool {
    let t = body.trim();
    let digits = t.strip_prefix('#').unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    matches!(ids::mentions(t).as_slice(), [m] if m.start == 0 && m.end == t.len())
}

/// `text` with the bytes of each range replaced by spaces: offsets and line breaks stay put.
fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in ranges {
        for b in &mut bytes[r.clone()] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Every range starts and ends on a char boundary, and all its bytes became ASCII.
    String::from_utf8(bytes).expect("blanked whole characters")
}

/// `text` with the contents of each code span that is an example blanked; a span holding an
/// id alone or a bare number is kept.
pub fn blank_code_examples(text: &str) -> Cow<'_, str> {
    if !text.contains('`') {
        return Cow::Borrowed(text);
    }
    let mut ranges = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        for r in code_span_ranges(line) {
            if !span_is_an_id(&line[r.clone()]) {
                ranges.push(offset + r.start..offset + r.end);
            }
        }
        offset += line.len() + 1;
    }
    if ranges.is_empty() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(blank(text, &ranges))
    }
}

/// A link target that leaves the repository: a URL with a scheme (`https:`, `mailto:`) or a
/// protocol-relative `//host/…`.
fn is_external(target: &str) -> bool {
    if target.starts_with("//") {
        return true;
    }
    let scheme_len = target
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
        .count();
    scheme_len >= 2
        && target.as_bytes()[0].is_ascii_alphabetic()
        && target[scheme_len..].starts_with(':')
}

/// A page of the IETF's RFC series (ietf.org, rfc-editor.org and their subdomains).
fn is_ietf(target: &str) -> bool {
    let rest = target.split_once("//").map_or(target, |(_, r)| r);
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let host = host.split(':').next().unwrap_or("");
    ["ietf.org", "rfc-editor.org"]
        .iter()
        .any(|d| host == *d || host.ends_with(&format!(".{d}")))
}

fn definition_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?m)^[ ]{0,3}(?:>[ ]?)*\[([^\]\n]+)\]:[ \t]*<?([^\s>]+)>?").expect("regex")
    })
}

fn url_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)[a-z][a-z0-9+.-]*://[^\s<>()\[\]`]+").expect("regex")
    })
}

fn reference_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\[([^\]\n]+)\](?:\[([^\]\n]*)\])?").expect("regex"))
}

/// A reference label as Markdown matches it: case-insensitive, inner whitespace collapsed.
fn label(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The ids `text` mentions, split into those written in prose and those named only by a link
/// to an external URL; example ids in code spans are in neither.
pub fn prose_ids(text: &str) -> ProseIds {
    let text = blank_code_examples(text);
    let mut hidden: Vec<Range<usize>> = Vec::new();
    let mut linked: Vec<String> = Vec::new();
    let mut ietf: HashSet<String> = HashSet::new();
    let mut hide = |range: Range<usize>, target: &str, hidden: &mut Vec<Range<usize>>| {
        let found = ids::mentions(&text[range.clone()])
            .into_iter()
            .map(|m| m.id);
        if is_ietf(target) {
            ietf.extend(found);
        } else {
            linked.extend(found);
        }
        hidden.push(range);
    };
    for c in link_re().captures_iter(&text) {
        if is_external(&c[2]) {
            hide(c.get(1).unwrap().range(), &c[2], &mut hidden);
        }
    }
    // A URL written out (a link's target, an autolink, a bare address) names what it names.
    for m in url_re().find_iter(&text) {
        hide(m.range(), m.as_str(), &mut hidden);
    }
    // Reference definitions whose target is a URL: their labels, and the links that use them.
    let mut url_labels: HashMap<String, String> = HashMap::new();
    for c in definition_re().captures_iter(&text) {
        if is_external(&c[2]) {
            url_labels.insert(label(&c[1]), c[2].to_string());
            hide(c.get(1).unwrap().range(), &c[2], &mut hidden);
        }
    }
    if !url_labels.is_empty() {
        for c in reference_re().captures_iter(&text) {
            let whole = c.get(0).unwrap();
            if matches!(text[whole.end()..].chars().next(), Some('(' | ':')) {
                continue; // an inline link or a definition, read above
            }
            let name = c
                .get(2)
                .map(|m| m.as_str())
                .filter(|l| !l.trim().is_empty())
                .unwrap_or(&c[1]);
            if let Some(target) = url_labels.get(&label(name)) {
                hide(c.get(1).unwrap().range(), target, &mut hidden);
                if let Some(l) = c.get(2) {
                    hide(l.range(), target, &mut hidden);
                }
            }
        }
    }
    let shown: Cow<str> = if hidden.is_empty() {
        Cow::Borrowed(&text)
    } else {
        Cow::Owned(blank(&text, &hidden))
    };
    linked.sort();
    linked.dedup();
    // Once a text has said what an id names (by linking it to a page), its other mentions of
    // that id name the same page: "[RFC 0017][] is another proposal … RFC 0017 is about …".
    let ids = ids::mentions(&shown)
        .into_iter()
        .map(|m| m.id)
        .filter(|id| !ietf.contains(id) && linked.binary_search(id).is_err())
        .collect();
    ProseIds { ids, linked }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids_of(text: &str) -> (Vec<String>, Vec<String>) {
        let p = prose_ids(text);
        (p.ids, p.linked)
    }

    #[test]
    fn code_spans_are_examples_unless_they_hold_the_id_alone() {
        let (ids, linked) =
            ids_of("See `ADR-0007` and ADR-2; mark it `@adr 00123`, run `record ADR-4`.");
        assert_eq!(ids, ["ADR-0007", "ADR-0002"]);
        assert!(linked.is_empty());
        assert_eq!(
            blank_code_examples("Amends `0002` and `#3`, not `x 4`."),
            "Amends `0002` and `#3`, not `   `."
        );
        assert_eq!(ids_of("`` ADR-9 ``").0, ["ADR-0009"]);
    }

    #[test]
    fn links_to_external_urls_name_pages_not_records() {
        let (ids, linked) = ids_of(
            "From [RFC 98](https://github.com/o/r/pull/98), [RFC2119](https://www.ietf.org/rfc/rfc2119.txt), \
             [ADR-3](0003-x.md), <https://x.org/ADR-5> and [JMAP](https://tools.ietf.org/html/rfc8620).",
        );
        assert_eq!(ids, ["ADR-0003"]);
        assert_eq!(linked, ["ADR-0005", "RFC-0098"]);
    }

    #[test]
    fn reference_style_links_follow_their_definitions() {
        let text = "An [RFC 98][] idea, [the old one][rfc 17], and [RFC 12].\n\
                    Also [RFC 44][local].\n\n\
                    [rfc 98]: https://github.com/o/r/pull/98\n\
                    [RFC  17]: <https://github.com/o/r/pull/17>\n\
                    [local]: ./0044-x.md\n\
                    [rfc 1918]: https://datatracker.ietf.org/doc/html/rfc1918\n";
        let (ids, linked) = ids_of(text);
        assert_eq!(ids, ["RFC-0012", "RFC-0044"]);
        assert_eq!(linked, ["RFC-0017", "RFC-0098"]);
    }

    #[test]
    fn an_id_the_text_links_to_a_page_names_that_page_everywhere() {
        let (ids, linked) = ids_of(
            "[RFC 0017][] came first. RFC 0017 is older than RFC-3; RFC2119 and \
             [RFC 2119](https://www.rfc-editor.org/rfc/rfc2119) are one.\n\n\
             [rfc 0017]: https://github.com/o/r/pull/17\n",
        );
        assert_eq!(ids, ["RFC-0003"]);
        assert_eq!(linked, ["RFC-0017"]);
    }

    #[test]
    fn externality() {
        assert!(is_external("https://x"));
        assert!(is_external("mailto:a@b"));
        assert!(is_external("//cdn.x/y"));
        assert!(!is_external("0003-x.md"));
        assert!(!is_external("./a:b.md"));
        assert!(!is_external("c:"));
        assert!(is_ietf("https://tools.ietf.org/html/rfc8620"));
        assert!(is_ietf("https://www.rfc-editor.org/rfc/rfc9535"));
        assert!(!is_ietf("https://notietf.org/x"));
    }
}
