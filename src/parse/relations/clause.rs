//! Where a relation word stands (ADR-0001): the logical lines of prose (a list item or a
//! quote's wrapped lines joined), the clause holding the word (a table row's first cell only),
//! and whether the words before it leave the record itself as the subject.

use super::{Form, Verdict};
use crate::text::ids;
use regex::Regex;
use std::sync::OnceLock;

/// An ATX heading: its level and text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let level = t.bytes().take_while(|&b| b == b'#').count();
    let rest = &t[level..];
    ((1..=6).contains(&level) && (rest.is_empty() || rest.starts_with([' ', '\t'])))
        .then(|| (level, rest.trim().trim_end_matches('#').trim()))
}

/// A heading for the options or alternatives considered: "Considered Options", "Options
/// considered", "Option C: Supersede ADR-7", "Rejected alternatives", "Pros and Cons of the
/// Options".
fn options_heading(text: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:options?|alternatives?|pros\s+and\s+cons)(?-u:\b)")
            .expect("regex")
    })
    .is_match(text)
}

/// A line's text after its blockquote markers.
fn unquoted(line: &str) -> &str {
    let mut t = line.trim_start();
    while let Some(rest) = t.strip_prefix('>') {
        t = rest.trim_start();
    }
    t
}

fn list_marker_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^(?:[-*+]|[0-9]{1,3}[.)])(?:\s|$)").expect("regex"))
}

/// `Key: value`, as in a record's header ("Status: Accepted", "Date: 2024-01-05").
fn field_line_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:[-*+]\s+)?[*_]*[A-Za-z][A-Za-z ()#/-]{0,30}[*_]*:[*_]*(?:\s+\S|$)")
            .expect("regex")
    })
}

/// Whether `next` continues the sentence that `prev` (both unquoted, non-empty) leaves open:
/// a wrapped paragraph line, not a new item, field, heading or sentence.
fn continues(prev: &str, next: &str) -> bool {
    let p = prev.trim_end();
    if prev.ends_with("  ") || p.ends_with('\\') || p.starts_with('|') || next.starts_with('|') {
        return false;
    }
    let p_end = p.trim_end_matches(['*', '_', '`']);
    if p_end.ends_with(['.', '!', '?', ':', ';']) || field_line_re().is_match(p) {
        return false;
    }
    if list_marker_re().is_match(next) || next.starts_with("[!") || next.starts_with('#') {
        return false;
    }
    // A new sentence begins with a capitalised word ("Supersedes", "This"); an acronym
    // ("ADR-5", "RFC 44") or a lower-case word carries on the sentence.
    let mut chars = next.trim_start_matches(['*', '_']).chars();
    let capitalised = matches!(
        (chars.next(), chars.next()),
        (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase()
    );
    !capitalised
}

/// The visible lines as logical lines: a wrapped paragraph joined into one (a sentence may be
/// broken anywhere; its lines stay apart, unquoted and trimmed), each heading on its own, and no line under a heading for options
/// or alternatives (down to the next heading of its level or above).
pub(super) fn logical_lines(lines: &[(usize, &str)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    let mut prev: Option<&str> = None;
    let mut excluded: Option<usize> = None;
    for (_, line) in lines {
        if let Some((level, text)) = heading(line) {
            out.extend(current.take());
            prev = None;
            if excluded.is_some_and(|l| level <= l) {
                excluded = None;
            }
            if excluded.is_none() && level >= 2 && options_heading(text) {
                excluded = Some(level);
            }
            if excluded.is_none() {
                out.push(line.to_string());
            }
            continue;
        }
        if excluded.is_some() {
            continue;
        }
        let body = unquoted(line);
        if body.trim().is_empty() {
            out.extend(current.take());
            prev = None;
            continue;
        }
        match (current.as_mut(), prev) {
            (Some(c), Some(p)) if continues(p, body) => {
                c.push('\n');
                c.push_str(body.trim());
            }
            _ => {
                out.extend(current.take());
                current = Some(line.to_string());
            }
        }
        prev = Some(body);
    }
    out.extend(current);
    out
}

/// A clause longer than this before its relation word is no statement about the record (its
/// subject would be far behind); not reading further keeps a paragraph's reading linear in its
/// size, whatever it repeats (ADR-0011).
const MAX_CLAUSE: usize = 1024;

/// Where a table row's first cell starts, and where its second begins (found once per line).
pub(super) struct Row {
    first: usize,
    second: Option<usize>,
}

impl Row {
    pub(super) fn of(line: &str) -> Option<Row> {
        if !unquoted(line).starts_with('|') {
            return None;
        }
        let first = line.find('|').map_or(0, |i| i + 1);
        let second = line[first..].find('|').map(|i| first + i);
        Some(Row { first, second })
    }
}

/// Where the clause holding byte `at` of `line` begins: after the last sentence end (`.`, `!`,
/// `?`), `;` or `:` followed by a space, or at the line's start. In a table row (`row`) only the
/// first cell is read (a key such as "| Supersedes | ADR-3 |"); a relation word in another cell
/// is about that row's subject, and `None`. `None` too for a clause longer than [`MAX_CLAUSE`].
pub(super) fn clause_start(line: &str, row: &Option<Row>, at: usize) -> Option<usize> {
    let before = &line[..at];
    let mut start = 0;
    if let Some(row) = row {
        if row.second.is_some_and(|second| second < at) {
            return None;
        }
        if row.first <= at {
            start = row.first;
        }
    }
    let b = before.as_bytes();
    let floor = start.max(b.len().saturating_sub(MAX_CLAUSE + 1));
    for i in (floor..b.len()).rev() {
        if matches!(b[i], b'.' | b'!' | b'?' | b';' | b':')
            && b.get(i + 1).is_some_and(|c| c.is_ascii_whitespace())
        {
            return Some(i + 1);
        }
    }
    (floor == start).then_some(start)
}

/// The markers a clause may begin with: blockquote `>`, a callout (`[!NOTE]`), heading `#`s,
/// a list marker or number, a task box, emphasis (not strike-through: a struck relation is
/// withdrawn).
fn skip_markers(s: &str) -> &str {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"^(?:\s+|>|\[![A-Za-z]+\][+-]?|#{1,6}(?:\s|$)|(?:[-+*]|[0-9]{1,3}[.)])\s|\[[ xX]\]\s|[*_]+)",
        )
        .expect("regex")
    });
    let mut s = s;
    while let Some(m) = re.find(s) {
        s = &s[m.end()..];
    }
    s
}

/// The words of a text, lower-case, without emphasis and trailing commas.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| matches!(c, '*' | '_' | '`' | ',' | '(' | ')'))
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Words that may stand between the subject and the relation word.
const FILLER: &[&str] = &[
    "is",
    "are",
    "was",
    "were",
    "has",
    "have",
    "had",
    "been",
    "being",
    "be",
    "will",
    "shall",
    "does",
    "do",
    "did",
    "hereby",
    "herewith",
    "now",
    "also",
    "thus",
    "therefore",
    "hence",
    "henceforth",
    "formally",
    "officially",
    "explicitly",
    "effectively",
    "fully",
    "completely",
    "entirely",
    "accordingly",
    "already",
    "thereby",
    "consequently",
    "then",
    "later",
    "since",
    "decided",
    "decide",
    "agreed",
    "agree",
    "chose",
    "choose",
    "to",
];

/// Words that make a relation partial: "in part supersedes", "partially supersedes", "Parts
/// of this ADR were superseded by" (celestia-app's record 6).
pub(super) const PARTIAL: &[&str] = &["partially", "partly", "in", "part", "parts", "portions"];

/// Adverbs a relation word may follow at a clause's start with no subject ("Also supersedes
/// ADR-4", "Partially supersedes ADR-3").
const ADVERBS: &[&str] = &[
    "also",
    "now",
    "hereby",
    "formally",
    "officially",
    "explicitly",
    "effectively",
    "thus",
    "therefore",
    "hence",
    "partially",
    "partly",
    "in",
    "part",
];

/// Negation, modality and condition: "does not supersede", "would supersede", "whether it
/// supersedes", "if accepted", "revisit when".
pub(super) fn blocks(word: &str) -> bool {
    const BLOCK: &[&str] = &[
        "not",
        "no",
        "never",
        "nor",
        "neither",
        "cannot",
        "would",
        "could",
        "should",
        "might",
        "may",
        "whether",
        "if",
        "unless",
        "when",
        "whenever",
        "once",
        "until",
        "without",
        "instead",
        "rather",
        "against",
        "avoid",
        "avoids",
        "avoiding",
        "consider",
        "considered",
        "considering",
        "future",
        "perhaps",
        "maybe",
    ];
    BLOCK.contains(&word) || word.ends_with("n't") || word.ends_with("n’t")
}

/// Words that may stand before "an amendment of": "It is filed as an amendment of ADR-22".
const NOUN_FILLER: &[&str] = &["filed", "written", "submitted", "as", "an"];

/// Whether the text before a relation word in its clause leaves the record as the subject:
/// `Some(verdict)` when it does.
pub(super) fn judge(prefix: &str, form: Form, own_id: &str) -> Option<Verdict> {
    let p = skip_markers(prefix);
    let w = words(p);
    let partial = |ws: &[String]| ws.iter().any(|w| PARTIAL.contains(&w.as_str()));
    let counts = |partial: bool| Verdict {
        partial,
        must_end: false,
    };
    // At a clause's start only a statement counts: "Supersedes ADR-3", "Superseded by ADR-9";
    // not an imperative ("Supersede ADR-7 with new records"). A participle counts there when
    // its ids end the clause ("Superseding [ADR-0002](…)."), not as a gerund ("Superseding
    // ADR-2 would be well-formed").
    let stated = matches!(form, Form::By | Form::Third);
    if w.is_empty() {
        return match form {
            Form::Participle => Some(Verdict {
                partial: false,
                must_end: true,
            }),
            _ => stated.then(|| counts(false)),
        };
    }
    // The subject: "this" and up to three nouns, "we", "I", "it", or the record's own id.
    let subject_len = if w[0] == "this" {
        1 + w[1..]
            .iter()
            .take(3)
            .take_while(|x| {
                x.chars().all(|c| c.is_alphanumeric() || c == '-')
                    && !FILLER.contains(&x.as_str())
                    && !PARTIAL.contains(&x.as_str())
                    && !blocks(x)
            })
            .count()
    } else if w[0] == "we" || w[0] == "i" || w[0] == "it" {
        1
    } else {
        match ids::mentions(p).first() {
            Some(m) if m.start == 0 && m.id == own_id => words(&p[..m.end]).len(),
            _ => 0,
        }
    };
    let rest = &w[subject_len..];
    if form == Form::Noun {
        let fits = |x: &String| FILLER.contains(&x.as_str()) || NOUN_FILLER.contains(&x.as_str());
        return rest.iter().all(fits).then(|| counts(false));
    }
    if subject_len == 0 {
        let adverbs_only = rest.iter().all(|x| ADVERBS.contains(&x.as_str()));
        return (stated && adverbs_only).then(|| counts(partial(rest)));
    }
    if rest
        .iter()
        .all(|x| FILLER.contains(&x.as_str()) || PARTIAL.contains(&x.as_str()))
    {
        // "This RFC has superseded X": the perfect needs its auxiliary.
        let perfect_ok = form != Form::Perfect
            || rest
                .iter()
                .any(|x| matches!(x.as_str(), "has" | "have" | "had"));
        return perfect_ok.then(|| counts(partial(rest)));
    }
    // "We drop the schema, superseding ADR-5": a participle after a comma or a dash, in a
    // sentence whose subject is the record or its authors, with nothing negated or conditional.
    let t = p.trim_end().trim_end_matches(['*', '_']);
    let after_break = t.ends_with([',', '—', '–']) || t.ends_with(" -");
    (form == Form::Participle && after_break && !w.iter().any(|x| blocks(x))).then(|| counts(false))
}
