//! Citations that name the cited record as what the decision replaces (docs/reading.md): "a task
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
    let flags = classify(&masked, &cites);
    let mut replaced: Vec<Ref> = Vec::new();
    let mut otherwise: Vec<Ref> = Vec::new();
    for ((_, refs), is_replaced) in cites.into_iter().zip(flags) {
        if is_replaced {
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
    let mut linked: Vec<Range<usize>> = out.iter().map(|(r, _)| r.clone()).collect();
    linked.sort_by_key(|r| r.start);
    for m in ids::mentions(shown) {
        // Links don't overlap: only the last one starting at or before the id can hold it.
        let at = linked.partition_point(|r| r.start <= m.start);
        if at.checked_sub(1).is_none_or(|i| m.start >= linked[i].end) {
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

/// What the masked text holds where, in order: what a walk over a sentence reacts to. At one
/// offset a verb or a "described in" comes before the boundary that follows it, and a
/// citation last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// A replacing verb ("replace", "drop", "instead of", "moves away from"); `false` when
    /// negated ("does not replace") or a noun ("a drop in latency").
    Active(bool),
    /// "is/will be replaced, dropped, retired…", not negated.
    Passive,
    /// "described in", "defined in"…: a list of the records describing something follows.
    Describing,
    /// The end of a sentence or clause: a full stop, `;`, `:`, a table cell, a blank line, a
    /// list item, a heading or a quote.
    Boundary,
    /// A word that turns the sentence to what the decision keeps or uses ("with", "by", "as
    /// described in", "keep", "follow"…), or a comma that does not join one citation to the
    /// next ("ADR-2, ADR-3").
    Stop,
    /// "not", "never", "no longer", "n't"…
    Negation,
    /// Any other word (it ends a "described in" list).
    Word,
    /// The citation of this index.
    Cite(usize),
}

/// For each citation, whether its sentence names it as what the decision replaces: after a
/// replacing verb with no stop between ("to replace the one described in ADR 3"), or in a
/// "described in" list before a passive replacing verb with no stop or negation between ("the
/// loop described in ADR 3 will be dropped"). One pass each way over the text's events, so a
/// sentence naming thousands of records costs no more a citation (ADR-0011).
fn classify(masked: &str, cites: &[(Range<usize>, Vec<Ref>)]) -> Vec<bool> {
    let events = events(masked, cites);
    let mut flags = vec![false; cites.len()];
    let mut described = vec![false; cites.len()];
    let (mut replacing, mut describing) = (false, false);
    for (_, e) in &events {
        match *e {
            Event::Boundary | Event::Stop => {
                replacing = false;
                describing = false;
            }
            Event::Word | Event::Negation | Event::Passive => describing = false,
            Event::Active(ok) => {
                replacing = ok;
                describing = false;
            }
            Event::Describing => describing = true,
            Event::Cite(i) => {
                flags[i] = replacing;
                described[i] = describing;
            }
        }
    }
    let mut passive = false;
    for (_, e) in events.iter().rev() {
        match *e {
            Event::Boundary | Event::Stop | Event::Negation => passive = false,
            Event::Passive => passive = true,
            Event::Cite(i) => flags[i] |= passive && described[i],
            Event::Word | Event::Active(_) | Event::Describing => {}
        }
    }
    flags
}

fn events(masked: &str, cites: &[(Range<usize>, Vec<Ref>)]) -> Vec<(usize, Event)> {
    static END: OnceLock<Regex> = OnceLock::new();
    static STOP: OnceLock<Regex> = OnceLock::new();
    static WORD: OnceLock<Regex> = OnceLock::new();
    static ACTIVE: OnceLock<Regex> = OnceLock::new();
    static PASSIVE: OnceLock<Regex> = OnceLock::new();
    static DESCRIBING: OnceLock<Regex> = OnceLock::new();
    let end = END.get_or_init(|| {
        Regex::new(r"[.!?](?:\s|$)|[;:|]|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+[.)])\s|\n[ \t]*[#>]")
            .expect("regex")
    });
    let stop = STOP.get_or_init(|| {
        Regex::new(r"(?i)\b(?:with|by|using|via|through|following|per|according|because|since|but|while|whereas|although|though|for|so|unless|except|in\s+favou?r\s+of|as\s+(?:[a-z]+\s+)?(?:described|decided|defined|proposed|set|laid|explained|specified|required|recommended|agreed|in|per)|(?:keep|use|follow|rel[yi]|adopt|appl[yi]|build|extend|reuse|retain|preserve|continu|compl[yi]|conform|align|implement|base)[a-z]*)\b")
            .expect("regex")
    });
    let word = WORD.get_or_init(|| Regex::new(r"[A-Za-z']+").expect("regex"));
    let active = ACTIVE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:replac(?:e|es|ed|ing)|drop(?:s|ped|ping)?|deprecat(?:e|es|ed|ing)|retir(?:e|es|ed|ing)|abandon(?:s|ed|ing)?|phas(?:e|es|ed|ing)\s+out|(?:mov(?:e|es|ed|ing)|step(?:s|ped|ping)?)\s+away\s+from|depart(?:s|ed|ing)?\s+from|instead\s+of|in\s+place\s+of)\b")
            .expect("regex")
    });
    let passive = PASSIVE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:be|being|been|is|are|was|were|gets?|got)\s+(?:[a-z']+\s+)?(?:replaced|dropped|deprecated|retired|abandoned|phased\s+out)\b")
            .expect("regex")
    });
    let describing = DESCRIBING.get_or_init(|| {
        Regex::new(&format!(r"(?i)\b{DESCRIBED}\s+(?:in|within|through)\b")).expect("regex")
    });
    let mut out: Vec<(usize, Event)> = Vec::new();
    out.extend(end.find_iter(masked).map(|m| (m.start(), Event::Boundary)));
    out.extend(stop.find_iter(masked).map(|m| (m.start(), Event::Stop)));
    out.extend(
        negation()
            .find_iter(masked)
            .map(|m| (m.start(), Event::Negation)),
    );
    for m in word.find_iter(masked) {
        let w = m.as_str();
        if !w.eq_ignore_ascii_case("and") && !w.eq_ignore_ascii_case("or") {
            out.push((m.start(), Event::Word));
        }
    }
    for (i, _) in masked.match_indices(',') {
        let joins = masked[..i].trim_end().ends_with('@') && {
            let rest = masked[i + 1..].trim_start();
            let rest = ["and ", "or "]
                .iter()
                .find_map(|w| rest.strip_prefix(w))
                .unwrap_or(rest);
            rest.trim_start().starts_with('@')
        };
        if !joins {
            out.push((i, Event::Stop));
        }
    }
    for m in active.find_iter(masked) {
        let mut from = m.start().saturating_sub(40);
        while !masked.is_char_boundary(from) {
            from -= 1;
        }
        let lead = &masked[from..m.start()];
        let lead = lead
            .rsplit(['.', ';', ':', '!', '?'])
            .next()
            .unwrap_or(lead);
        let noun = lead.trim_end().to_ascii_lowercase();
        let noun = noun.ends_with(" a") || noun.ends_with(" the") || noun == "a" || noun == "the";
        // After the words of its own phrase ("instead of" is words too).
        out.push((m.end(), Event::Active(!noun && !negated(lead))));
    }
    for m in passive.find_iter(masked) {
        if !negation().is_match(m.as_str()) {
            out.push((m.start(), Event::Passive));
        }
    }
    out.extend(
        describing
            .find_iter(masked)
            .map(|m| (m.end(), Event::Describing)),
    );
    out.extend(
        cites
            .iter()
            .enumerate()
            .map(|(i, (r, _))| (r.start, Event::Cite(i))),
    );
    out.sort();
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
    let clause = lead.rsplit(',').next().unwrap_or(lead);
    negation().is_match(clause) || just.is_match(lead)
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
                Ref::Link { .. } | Ref::Web { .. } => None,
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
