//! Citations that name the cited record as what the decision replaces (CONTRACT.md §8): "a task
//! manager would be needed to replace the RabbitMQ one described in [ADR 3](…)", "instead of
//! the queue of ADR-3", "the design described in ADR-3 will be dropped", "moves away from
//! ADR-3". Still citations (the graph keeps them), but not reliance: a record that names a
//! superseded decision as what it replaces has not been left behind by it. A negated verb ("does
//! not replace ADR-3") keeps the reliance, and so does any doubt: a citation after "with", "by",
//! "as described in", a comma opening another clause, or a verb of keeping (keep, use, follow).

use super::relations::link_text_id;
use super::Ref;
use crate::text::ids::{self, Prefix};
use crate::text::markdown::{link_re, link_target};
use regex::Regex;
use std::ops::Range;
use std::sync::OnceLock;

/// What a record's prose cites, split: the refs named only as what the decision replaces, and
/// (only when there are such refs) every ref its prose names otherwise, which the graph resolves
/// to tell a record cited both ways.
pub fn replaced_citations(shown: &str, folder: &str, prefix: Prefix) -> (Vec<Ref>, Vec<Ref>) {
    if !any_trigger().is_match(shown) {
        return (Vec::new(), Vec::new());
    }
    let cites = citations(shown, folder, prefix);
    if cites.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let masked = masked(shown, &cites);
    let sentences = sentences(&masked);
    let mut replaced: Vec<Ref> = Vec::new();
    let mut otherwise: Vec<Ref> = Vec::new();
    for (range, refs) in cites {
        let sentence = sentences
            .iter()
            .find(|s| s.start <= range.start && range.end <= s.end)
            .cloned()
            .unwrap_or(range.clone());
        if is_replaced(&masked, &sentence, &range) {
            replaced.extend(refs);
        } else {
            otherwise.extend(refs);
        }
    }
    replaced.sort();
    replaced.dedup();
    otherwise.sort();
    otherwise.dedup();
    replaced.retain(|r| otherwise.binary_search(r).is_err());
    if replaced.is_empty() {
        otherwise.clear();
    }
    (replaced, otherwise)
}

/// Every citation in the text and the byte range it spans: each link (the link to a record
/// file, and the id its text names), each reference definition, and each id written out.
fn citations(shown: &str, folder: &str, prefix: Prefix) -> Vec<(Range<usize>, Vec<Ref>)> {
    static DEF: OnceLock<Regex> = OnceLock::new();
    let def = DEF.get_or_init(|| {
        Regex::new(r"(?m)^[ ]{0,3}\[([^\]\n]+)\]:[ \t]*<?([^\s>]+)>?").expect("regex")
    });
    let mut out: Vec<(Range<usize>, Vec<Ref>)> = Vec::new();
    for c in link_re()
        .captures_iter(shown)
        .chain(def.captures_iter(shown))
    {
        let whole = c.get(0).expect("match").range();
        let (text, target) = (&c[1], &c[2]);
        let mut refs: Vec<Ref> = ids::mentions(text)
            .into_iter()
            .map(|m| Ref::Id(m.id))
            .collect();
        if let Some(target) = link_target(folder, target) {
            refs.push(Ref::Link {
                text_id: link_text_id(text, prefix),
                target,
            });
        }
        out.push((whole, refs));
    }
    let linked: Vec<Range<usize>> = out.iter().map(|(r, _)| r.clone()).collect();
    for m in ids::mentions(shown) {
        if !linked.iter().any(|r| r.start <= m.start && m.start < r.end) {
            out.push((m.start..m.end, vec![Ref::Id(m.id)]));
        }
    }
    out.retain(|(_, refs)| !refs.is_empty());
    out
}

/// The text with each citation written as `@`s, and "described by" read as "described in" (the
/// record describing, not an agent replacing): offsets stay put.
fn masked(shown: &str, cites: &[(Range<usize>, Vec<Ref>)]) -> String {
    static BY: OnceLock<Regex> = OnceLock::new();
    let by = BY.get_or_init(|| Regex::new(&format!(r"(?i)\b{DESCRIBED}\s+(by)\b")).expect("regex"));
    let mut bytes = shown.as_bytes().to_vec();
    for (r, _) in cites {
        for b in &mut bytes[r.clone()] {
            if *b != b'\n' {
                *b = b'@';
            }
        }
    }
    for c in by.captures_iter(shown) {
        let r = c.get(1).expect("group").range();
        bytes[r.start] = b'i';
        bytes[r.start + 1] = b'n';
    }
    // Whole characters became ASCII.
    String::from_utf8(bytes).expect("masked whole characters")
}

/// Sentences and clauses: split at a full stop, `;`, `:`, a table cell, a blank line, a list
/// item, a heading or a quote.
fn sentences(masked: &str) -> Vec<Range<usize>> {
    static END: OnceLock<Regex> = OnceLock::new();
    let end = END.get_or_init(|| {
        Regex::new(r"[.!?](?:\s|$)|[;:|]|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+[.)])\s|\n[ \t]*[#>]")
            .expect("regex")
    });
    let mut out = Vec::new();
    let mut start = 0;
    for m in end.find_iter(masked) {
        out.push(start..m.start());
        start = m.end();
    }
    out.push(start..masked.len());
    out
}

const DESCRIBED: &str = r"(?:described|defined|introduced|specified|documented|proposed|decided|presented|outlined|explained|written|chosen|adopted|set\s+out)";

fn any_trigger() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)replac|drop|deprecat|retir|abandon|phas|away\s+from|depart|instead\s+of|in\s+place\s+of")
            .expect("regex")
    })
}

/// Whether the citation at `cite` is named as what its sentence's decision replaces.
fn is_replaced(masked: &str, sentence: &Range<usize>, cite: &Range<usize>) -> bool {
    static ACTIVE: OnceLock<Regex> = OnceLock::new();
    static PASSIVE: OnceLock<Regex> = OnceLock::new();
    static DESCRIBING: OnceLock<Regex> = OnceLock::new();
    let active = ACTIVE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:replac(?:e|es|ed|ing)|drop(?:s|ped|ping)?|deprecat(?:e|es|ed|ing)|retir(?:e|es|ed|ing)|abandon(?:s|ed|ing)?|phas(?:e|es|ed|ing)\s+out|(?:mov(?:e|es|ed|ing)|step(?:s|ped|ping)?)\s+away\s+from|depart(?:s|ed|ing)?\s+from|instead\s+of|in\s+place\s+of)\b")
            .expect("regex")
    });
    let passive = PASSIVE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:be|being|been|is|are|was|were|gets?|got)\s+(?:[a-z']+\s+)?(?:replaced|dropped|deprecated|retired|abandoned|phased\s+out)\b")
            .expect("regex")
    });
    let describing = DESCRIBING.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)\b{DESCRIBED}\s+(?:in|within|through)(?:[\s,()@]|\band\b|\bor\b)*$"
        ))
        .expect("regex")
    });
    // Active: the nearest replacing verb before the citation, not negated, nothing between
    // that turns the sentence to what the decision keeps or uses.
    let before = &masked[sentence.start..cite.start];
    if let Some(verb) = active.find_iter(before).last() {
        let lead = &before[..verb.start()];
        let noun = lead.trim_end().to_ascii_lowercase();
        let noun = noun.ends_with(" a") || noun.ends_with(" the") || noun == "a" || noun == "the";
        return !noun && !negated(lead) && !stops(masked, sentence.start + verb.end(), cite.start);
    }
    // Passive: "the X described in ADR-3 (…) will be replaced".
    if !describing.is_match(before) {
        return false;
    }
    let after = &masked[cite.end..sentence.end];
    passive.find(after).is_some_and(|verb| {
        !negation().is_match(&after[..verb.end()])
            && !stops(masked, cite.end, cite.end + verb.start())
    })
}

fn negation() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:not|never|no\s+longer|without|nor|cannot)\b|n't\b").expect("regex")
    })
}

/// A negation among the few words before a verb, in its clause ("does not replace", "rather
/// than replacing", "instead of dropping").
fn negated(lead: &str) -> bool {
    static JUST: OnceLock<Regex> = OnceLock::new();
    let just = JUST
        .get_or_init(|| Regex::new(r"(?i)\b(?:rather\s+than|instead\s+of)\s*$").expect("regex"));
    let mut from = lead.len().saturating_sub(40);
    while !lead.is_char_boundary(from) {
        from -= 1;
    }
    let near = &lead[from..];
    let clause = near.rsplit(',').next().unwrap_or(near);
    negation().is_match(clause) || just.is_match(near)
}

/// Whether the masked text between `from` and `to` leaves the replacing verb's object: a word
/// that names what is used or kept ("with", "by", "using", "as described in", "keep",
/// "follow"…), or a comma that does not join one citation to the next ("ADR-2, ADR-3").
fn stops(masked: &str, from: usize, to: usize) -> bool {
    static WORD: OnceLock<Regex> = OnceLock::new();
    let word = WORD.get_or_init(|| {
        Regex::new(r"(?i)\b(?:with|by|using|via|through|following|per|according|because|since|but|while|whereas|although|though|for|so|unless|except|in\s+favou?r\s+of|as\s+(?:[a-z]+\s+)?(?:described|decided|defined|proposed|set|laid|explained|specified|required|recommended|agreed|in|per)|(?:keep|use|follow|rel[yi]|adopt|appl[yi]|build|extend|reuse|retain|preserve|continu|compl[yi]|conform|align|implement|base)[a-z]*)\b")
            .expect("regex")
    });
    let between = &masked[from..to];
    if word.is_match(between) {
        return true;
    }
    between.match_indices(',').any(|(i, _)| {
        if !masked[..from + i].trim_end().ends_with('@') {
            return true;
        }
        let rest = masked[from + i + 1..].trim_start();
        let rest = ["and ", "or "]
            .iter()
            .find_map(|w| rest.strip_prefix(w))
            .unwrap_or(rest)
            .trim_start();
        !rest.starts_with('@')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replaced(text: &str) -> Vec<String> {
        replaced_citations(text, "docs/adr", Prefix::Adr)
            .0
            .into_iter()
            .filter_map(|r| match r {
                Ref::Id(id) => Some(id),
                Ref::Link { .. } => None,
            })
            .collect()
    }

    #[test]
    fn what_the_decision_replaces() {
        let t = "A task manager would be needed to replace the queue one\n\
                 described in [ADR 2](0002-a.md) [ADR 3](0003-b.md), eventually allowing to drop it.";
        assert_eq!(replaced(t), vec!["ADR-0002", "ADR-0003"]);
        assert_eq!(
            replaced("We use a log instead of the queue described in ADR-3."),
            vec!["ADR-0003"]
        );
        assert_eq!(
            replaced("The cache described by ADR-4 and ADR-5 will be replaced by a log."),
            vec!["ADR-0004", "ADR-0005"]
        );
        assert_eq!(
            replaced("This record moves away from ADR-6."),
            vec!["ADR-0006"]
        );
        assert_eq!(
            replaced("We drop the approach of ADR-7, ADR-8 and ADR-9."),
            vec!["ADR-0007", "ADR-0008", "ADR-0009"]
        );
    }

    #[test]
    fn reliance_stays() {
        for t in [
            "It keeps the password rules of ADR-3.",
            "Reviews follow the process of ADR-1.",
            "This record does not replace ADR-3.",
            "We won't drop the queue of ADR-3.",
            "Rather than replacing the queue of ADR-3, we extend it.",
            "We replace the cache with the log of ADR-3.",
            "We replace the cache as described in ADR-3.",
            "We replace the cache, and ADR-3 still holds.",
            "The cache described in ADR-3 will not be replaced.",
            "Following ADR-3, the cache will be replaced.",
            "We replace the cache. ADR-3 holds.",
            "A drop in latency was measured in ADR-3.",
        ] {
            assert_eq!(replaced(t), Vec::<String>::new(), "{t}");
        }
    }

    #[test]
    fn a_record_also_relied_on_is_not_replaced() {
        let t = "We replace the queue of ADR-3. Retries follow ADR-3.";
        assert_eq!(replaced(t), Vec::<String>::new());
        let (r, other) = replaced_citations(
            "We replace the queue of ADR-3. Retries follow ADR-4.",
            "docs/adr",
            Prefix::Adr,
        );
        assert_eq!(r, vec![Ref::Id("ADR-0003".into())]);
        assert_eq!(other, vec![Ref::Id("ADR-0004".into())]);
    }
}
