//! Relations: "Supersedes", "Superseded by", "Amends" and their kin, from frontmatter and
//! from prose, and the id a link's text names (ADR-0001).
//!
//! In prose a relation word counts only where the record itself is the subject (docs/reading.md,
//! "Relations in prose"): the clause begins with the word ("Supersedes ADR-3", "- **Superseded
//! by** ADR-9", "> [!NOTE] Amends ADR-4", "Superseded: 2019-12-19 by ADR-14"), or its subject is
//! the record or its authors ("This RFC has been superseded by …", "We drop the schema,
//! superseding ADR-5"). Negated, hypothetical or conditional wording, another subject, and
//! whatever sits under a heading for the options or alternatives considered do not count. "In
//! part supersedes" is an amendment.

use super::Ref;
use crate::text::frontmatter::Frontmatter;
use crate::text::ids::{self, Prefix};
use crate::text::markdown::{forge_file_in, link_re, link_target, text_links};
use regex::Regex;
use std::sync::OnceLock;

mod clause;

use clause::{blocks, clause_start, judge, logical_lines, words, Row, PARTIAL};

pub(super) fn fm_refs(fm: &Frontmatter, keys: &[&str], folder: &str, prefix: Prefix) -> Vec<Ref> {
    let mut out = Vec::new();
    for key in keys {
        if let Some(v) = fm.fields.get(*key) {
            for item in v.items() {
                // A Markdown link as the value (`supersedes: "[ADR-0002](0002-x.md)"`, zebra).
                let links = text_links(item);
                if !links.is_empty() {
                    out.extend(links.into_iter().filter_map(|(text, target)| {
                        Some(Ref::Link {
                            text_id: link_text_id(text, prefix),
                            target: link_target(folder, target)?,
                        })
                    }));
                    continue;
                }
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

/// Which list a relation word fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    SupersededBy,
    Supersedes,
    Amends,
    /// "Amended by ADR-31": the inverse edge, filed on the record named.
    AmendedBy,
}

/// How the word is inflected: "superseded by" (`By`), "supersedes" (`Third`), "superseding"
/// (`Participle`), "supersede" (`Base`), "has superseded" (`Perfect`), "an amendment of"
/// (`Noun`). Base and perfect count only after a subject; a participle at a clause's start
/// only when the ids end the clause ("Superseding [ADR-0002](…).").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    By,
    Third,
    Participle,
    Base,
    Perfect,
    Noun,
}

/// A relation word: "superseded by" (with the adr-tools spelling "superceded", emphasis, and a
/// date between the word and "by": "Superseded: 2019-12-19 by") in group 1, any other in
/// group 2.
fn relation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)(?:((?:superseded|superceded|replaced)[*_]*(?:[ \t]*[:,]?[ \t]*(?:on[ \t]+)?[0-9]{4}-[0-9]{2}-[0-9]{2},?)?\s+[*_]*by)|(amended[*_]*\s+[*_]*by)|(amendment\s+(?:of|to))|(superseded|superceded|replaced|supersedes|supercedes|replaces|superseding|superceding|replacing|supersede|supercede|replace|amends|extends|refines|narrows|overrides|modifies|amending|extending|refining|narrowing|overriding|modifying|amend|extend|refine|narrow|override|modify))(?-u:\b)",
        )
        .expect("regex")
    })
}

fn classify(word: &str) -> (Kind, Form) {
    let w = word.to_ascii_lowercase();
    let kind = if ["supersed", "superced", "replac"]
        .iter()
        .any(|s| w.starts_with(s))
    {
        Kind::Supersedes
    } else {
        Kind::Amends
    };
    let form = if w.ends_with("ing") {
        Form::Participle
    } else if w.ends_with("ed") {
        Form::Perfect
    } else if w.ends_with('s') {
        Form::Third
    } else {
        Form::Base
    };
    (kind, form)
}

fn list_separator_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:\s|[,;:*_(|]|&|(?-u:\b)and(?-u:\b)|(?-u:\b)or(?-u:\b))*").expect("regex")
    })
}

fn bare_number_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Where an id is expected in prose, a bare number counts only when it is plainly one:
    // backticked (`0022`) or zero-padded (0022). `#22` is an issue or pull request, never an
    // id (docs/reading.md).
    RE.get_or_init(|| Regex::new(r"^(?:`([0-9]+)`|(0[0-9]+)(?-u:\b))").expect("regex"))
}

/// "specific clauses of", "parts of", "section 3 of" between the word and the ids: the
/// relation touches part of the record, which makes a supersession an amendment.
fn part_of_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^[\s*_]*(?:(?:specific|certain|some|the|two|three|several|[0-9]+|parts?|sections?|clauses?|paragraphs?|portions?|aspects?)[\s*_]+){1,3}of(?-u:\b)",
        )
        .expect("regex")
    })
}

/// Reads the list of ids and links at the start of `rest`. `rest` may hold the next lines of a
/// wrapped paragraph: the list crosses a line break right after the relation word ("superseded
/// by\n[RFC 44](…)") or after a connector ("ADR-7 and\nADR-9"), not after a complete item.
fn read_list<'t>(rest: &'t str, folder: &str, prefix: Prefix, out: &mut Vec<Ref>) -> &'t str {
    let mut rest = rest;
    let mut first = true;
    loop {
        let skip = list_separator_re().find(rest).map(|s| s.end()).unwrap_or(0);
        let separator = &rest[..skip];
        if let Some(line_end) = separator.find('\n').filter(|_| !first) {
            let before = separator[..line_end].trim();
            if before.is_empty() || before.ends_with(['*', '_', '(', ':', ';']) {
                break;
            }
        }
        first = false;
        rest = &rest[skip..];
        let unticked = rest.strip_prefix('`').unwrap_or(rest);
        // Only what starts `rest` is read: a link begins with `[`, and an id is looked for in
        // a short window (a search over the whole rest, once per item, was quadratic).
        let link = rest
            .starts_with('[')
            .then(|| link_re().captures(rest))
            .flatten()
            .filter(|c| c.get(0).unwrap().start() == 0);
        if let Some(c) = link {
            if let Some(target) = link_target(folder, &c[2]) {
                out.push(Ref::Link {
                    text_id: link_text_id(&c[1], prefix),
                    target,
                });
            } else if let Some(target) = forge_file_in(folder, &c[2]) {
                out.push(Ref::Web {
                    text_id: link_text_id(&c[1], prefix),
                    target,
                });
            } else if let Some(id) = link_text_id(&c[1], prefix) {
                out.push(Ref::Id(id));
            }
            rest = &rest[c.get(0).unwrap().end()..];
        } else if let Some((url, len)) = bare_url(rest) {
            // A forge's address written bare (`Supersedes: https://github.com/o/r/blob/main/
            // docs/adr/0036-x.md`): the forge shows it as a link, and it is read as one.
            let Some(target) = forge_file_in(folder, url) else {
                break;
            };
            out.push(Ref::Web {
                text_id: None,
                target,
            });
            rest = &rest[len..];
        } else if let Some(mention) = first_mention(unticked) {
            out.push(Ref::Id(mention.id));
            rest = &unticked[mention.end..];
            rest = rest.strip_prefix('`').unwrap_or(rest);
        } else if let Some(c) = bare_number_re().captures(rest) {
            let digits = c.get(1).or(c.get(2)).unwrap().as_str();
            out.push(Ref::Id(ids::format_id(prefix, digits)));
            rest = &rest[c.get(0).unwrap().end()..];
        } else {
            break;
        }
    }
    rest
}

/// A web address starting `text`, bare or in angle brackets (`<https://…>`), as a forge
/// makes a link of it: up to a space, `>` or `)`, without the punctuation ending a sentence.
/// The address, and how many bytes of `text` it takes.
fn bare_url(text: &str) -> Option<(&str, usize)> {
    let angled = text.starts_with('<');
    let from = usize::from(angled);
    let rest = &text[from..];
    if !(rest.starts_with("https://") || rest.starts_with("http://")) {
        return None;
    }
    let len = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '>' | ')' | '<'))
        .unwrap_or(rest.len());
    let url = rest[..len].trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_']);
    let taken = from + url.len() + usize::from(angled && rest[len..].starts_with('>'));
    Some((url, taken))
}

/// The id mentioned at the very start of `text`, looked for in a window of its first bytes
/// (the whole text when the mention reaches the window's end).
fn first_mention(text: &str) -> Option<ids::Mention> {
    const WINDOW: usize = 256;
    let mut end = text.len().min(WINDOW);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let found = ids::mentions(&text[..end])
        .into_iter()
        .next()
        .filter(|m| m.start == 0);
    match found {
        Some(m) if m.end + 1 >= end && end < text.len() => ids::mentions(text)
            .into_iter()
            .next()
            .filter(|m| m.start == 0),
        found => found,
    }
}

/// The lists a relation fills: `[superseded_by, supersedes, amends, amended_by]`.
pub(super) type Lists<'a> = [&'a mut Vec<Ref>; 4];

/// The kind and form of the relation word a match of [`relation_re`] found.
fn kind_and_form(c: &regex::Captures) -> (Kind, Form) {
    if c.get(1).is_some() {
        (Kind::SupersededBy, Form::By)
    } else if c.get(2).is_some() {
        (Kind::AmendedBy, Form::By)
    } else if c.get(3).is_some() {
        (Kind::Amends, Form::Noun)
    } else {
        classify(c.get(0).expect("group 0 always matches").as_str())
    }
}

/// What a relation's object may begin with before its ids: "narrows the rule ADR-0021 set",
/// "amends the decision in ADR-4".
fn object_noun_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^[\s*_]*(?:the\s+)?(?:rules?|decisions?|polic(?:y|ies)|scope|requirements?|guidance|constraints?)(?:\s+(?:of|in|from|set\s+(?:by|in)))?\s+",
        )
        .expect("regex")
    })
}

/// Files the ids after the relation word that ends at `end` of `line`. A partial relation
/// ("in part supersedes", "supersedes parts of") is an amendment; so is a "superseded by" of
/// a part of this record ("partially superseded by", "Parts of this ADR were superseded by"),
/// by the record named; one of a part of the next ("superseded by parts of") is dropped.
/// With `must_end`, the ids must end the clause, else nothing is filed ("Superseding ADR-2
/// would be well-formed" is a gerund, not a statement).
fn file(line: &str, end: usize, kind: Kind, verdict: Verdict, ctx: &Ctx, lists: &mut Lists) {
    let mut rest = &line[end..];
    let mut partial = verdict.partial;
    // The part is the next record's ("superseded by parts of ADR-9"), not this one's.
    let mut part_of_next = false;
    if let Some(m) = part_of_re().find(rest) {
        partial = true;
        part_of_next = true;
        rest = &rest[m.end()..];
    } else if let Some(m) = object_noun_re().find(rest) {
        rest = &rest[m.end()..];
    }
    let mut found = Vec::new();
    let left = read_list(rest, ctx.folder, ctx.prefix, &mut found);
    // "replaces ADR-0036's summary-log row": a part of the record, as "parts of" says
    // (epr-re-ex-service's ADR-0037, which amends ADR-0036).
    if left.starts_with("'s ") || left.starts_with("’s ") {
        partial = true;
        part_of_next = true;
    }
    let slot = match (kind, partial) {
        // "Parts of this ADR were superseded by ADR-020" (celestia-app's record 6): the
        // next record amends this one.
        (Kind::SupersededBy, true) if !part_of_next => 3,
        (Kind::SupersededBy, true) => return,
        (Kind::SupersededBy, false) => 0,
        (Kind::Supersedes, false) => 1,
        (Kind::Supersedes, true) | (Kind::Amends, _) => 2,
        (Kind::AmendedBy, _) => 3,
    };
    let ends = left
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '.' | ')' | '*' | '_'))
        .is_empty();
    if verdict.must_end && !ends {
        return;
    }
    lists[slot].extend(found);
}

/// What [`judge`] decided of a relation word: it counts, partly or wholly, and perhaps only
/// when its ids end the clause.
#[derive(Debug, Clone, Copy, Default)]
struct Verdict {
    partial: bool,
    must_end: bool,
}

/// What reading a record's relations needs besides its text.
pub(super) struct Ctx<'a> {
    pub folder: &'a str,
    pub prefix: Prefix,
    /// The record's own id: "ADR-0025 is superseded by …" in ADR-0025 is its own relation.
    pub own_id: &'a str,
}

/// The relations a `Status:` value states ("Superseded by ADR-9", "Accepted; amends ADR-4"):
/// the value is the record's own word about itself, so a relation word anywhere in it counts,
/// unless it is negated or partial.
pub(super) fn status_relations(status: &str, ctx: &Ctx, mut lists: Lists) {
    for c in relation_re().captures_iter(status) {
        let m = c.get(0).expect("group 0 always matches");
        let (mut kind, form) = kind_and_form(&c);
        // A status of "Superseded [0019](0019-….md)" or "Superseded: ADR-19" names its
        // successor without a "by" (modernisation-platform's records).
        let named_next = form == Form::Perfect
            && kind == Kind::Supersedes
            && status[m.end()..]
                .trim_start_matches(|c: char| {
                    c.is_whitespace() || matches!(c, ':' | '-' | '–' | '—')
                })
                .starts_with(|c: char| c == '[' || c.is_ascii_alphanumeric());
        if named_next {
            kind = Kind::SupersededBy;
        } else if matches!(form, Form::Base | Form::Perfect | Form::Noun) {
            continue;
        }
        let before = words(&status[..m.start()]);
        if before.iter().any(|w| blocks(w)) {
            continue;
        }
        let partial = before.iter().any(|w| PARTIAL.contains(&w.as_str()));
        let verdict = Verdict {
            partial,
            must_end: false,
        };
        file(status, m.end(), kind, verdict, ctx, &mut lists);
    }
}

/// The relations the prose of a record states about the record itself. `lines` are its
/// visible lines (fences dropped, code-span examples blanked).
pub(super) fn prose_relations(lines: &[(usize, &str)], ctx: &Ctx, mut lists: Lists) {
    for line in logical_lines(lines) {
        let row = Row::of(&line);
        for c in relation_re().captures_iter(&line) {
            let m = c.get(0).expect("group 0 always matches");
            let (kind, form) = kind_and_form(&c);
            let Some(start) = clause_start(&line, &row, m.start()) else {
                continue;
            };
            if let Some(verdict) = judge(&line[start..m.start()], form, ctx.own_id) {
                file(&line, m.end(), kind, verdict, ctx, &mut lists);
            }
        }
    }
}

/// The id a link's text names: `[ADR-3: Title]`, `[3. Title]`, `[0003]`.
pub(super) fn link_text_id(text: &str, prefix: Prefix) -> Option<String> {
    let t = text.trim().trim_matches('`');
    if let Some(m) = ids::mentions(t).into_iter().next().filter(|m| m.start == 0) {
        return Some(m.id);
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = t[digits.len()..].chars().next();
    (!digits.is_empty() && matches!(after, None | Some('.') | Some(':') | Some(' ')))
        .then(|| ids::format_id(prefix, &digits))
}

#[cfg(test)]
mod tests;
