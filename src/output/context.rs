//! `context PATH…` in Markdown, fit to paste into a prompt (docs/agents.md; ADR-0014). The
//! pack's budget is counted on this text: `app` measures what it keeps by rendering it here.

use crate::model::{tokens, Commit, ContextDecision, ContextPack, Report};
use std::borrow::Cow;
use std::fmt::Write;

/// The pack of a `context` report; any other report renders as nothing.
pub fn markdown(report: &Report) -> String {
    match &report.query {
        Some(crate::model::Query::Context { context }) => pack(context),
        _ => String::new(),
    }
}

/// The pack as Markdown.
pub fn pack(pack: &ContextPack) -> String {
    let mut out = head(pack);
    for d in &pack.decisions {
        decision(&mut out, d);
    }
    out.push_str(&tail(pack));
    trim_end(&mut out);
    out
}

/// What [`pack`] renders before the decisions: the title, or that none governs.
fn head(pack: &ContextPack) -> String {
    let mut out = String::new();
    let paths: Vec<String> = pack.paths.iter().map(|p| shown(p)).collect();
    let _ = writeln!(out, "# Decisions governing {}\n", paths.join(", "));
    for r in &pack.record_files {
        let _ = writeln!(
            out,
            "{} is the record of {}: {} ({}).\n",
            shown(&r.path),
            super::md(&r.id),
            super::md(&r.title),
            r.status.as_str()
        );
    }
    if pack.decisions.is_empty() {
        let _ = writeln!(out, "No current decision governs {}.\n", paths.join(" or "));
    }
    // The rules first: what an edit must hold to (docs/rules.md).
    if !pack.rules.is_empty() {
        let _ = writeln!(out, "## Rules the code must hold to\n");
        for p in &pack.rules {
            for r in &p.rules {
                let lines: Vec<String> = r.violations.iter().map(|v| v.line.to_string()).collect();
                let broken = if lines.is_empty() {
                    String::new()
                } else {
                    format!(" (broken today at line {})", lines.join(", "))
                };
                let _ = writeln!(
                    out,
                    "- {} {}: {}{broken}",
                    shown(&p.path),
                    super::md(&r.id),
                    super::code(&r.rule)
                );
            }
        }
        out.push('\n');
    }
    out
}

/// What [`pack`] renders after the decisions: the decisions no longer current, the records that
/// only mention the paths.
fn tail(pack: &ContextPack) -> String {
    let mut out = String::new();
    if !pack.history.is_empty() {
        let _ = writeln!(out, "## No longer current\n");
        for h in &pack.history {
            let _ = writeln!(out, "- {}", super::md(&h.line));
        }
        out.push('\n');
    }
    if !pack.related.is_empty() {
        let _ = writeln!(out, "## Related (not governing)\n");
        let prose = pack.paths.iter().all(|p| crate::text::path::is_prose(p));
        for r in &pack.related {
            let _ = writeln!(out, "{}", super::markdown::related_line(r, prose));
        }
        out.push('\n');
    }
    if !pack.mentioned_by.is_empty() {
        let _ = writeln!(out, "## Mentioned, not governing\n");
        for m in &pack.mentioned_by {
            let _ = writeln!(
                out,
                "- {} ({}) mentions {} (line {}: {}); not a declared scope",
                super::md(&m.id),
                m.status.as_str(),
                shown(&m.path),
                m.line,
                shown(&m.term)
            );
        }
        out.push('\n');
    }
    out
}

/// The pack ends on one line break, not on a blank line.
fn trim_end(out: &mut String) {
    while out.ends_with("\n\n") {
        out.pop();
    }
}

/// The size of [`pack`]'s Markdown, kept by part (the title, each decision, the rest) so that
/// while the budget is filled, a change to one decision renders only that decision again.
/// [`Measure::tokens`] is always `tokens(&pack(p))` for the pack last [`Measure::redo`]ne.
pub struct Measure {
    /// Each part's characters and the line breaks it ends with: the title, the decisions in
    /// order, the rest.
    parts: Vec<(usize, usize)>,
}

impl Measure {
    /// Measures every part of `pack`.
    pub fn new(pack: &ContextPack) -> Measure {
        let mut parts = vec![measured(&head(pack))];
        for d in &pack.decisions {
            let mut out = String::new();
            decision(&mut out, d);
            parts.push(measured(&out));
        }
        parts.push(measured(&tail(pack)));
        Measure { parts }
    }

    /// Measures decision `d` of `pack` again (the only part that changed).
    pub fn redo(&mut self, pack: &ContextPack, d: usize) {
        let mut out = String::new();
        decision(&mut out, &pack.decisions[d]);
        self.parts[d + 1] = measured(&out);
    }

    /// The pack's tokens, as [`tokens`] counts its Markdown.
    pub fn tokens(&self) -> usize {
        let chars: usize = self.parts.iter().map(|p| p.0).sum();
        // `trim_end` leaves one of the line breaks the last part that is not empty ends with.
        let breaks = self.parts.iter().rev().find(|p| p.0 > 0).map_or(0, |p| p.1);
        (chars - breaks.saturating_sub(1)).div_ceil(4)
    }

    /// The fewest characters `lines` lines of `commits` render as, in a decision's list of
    /// uncited commits, counted up to where they pass `most` (more lines only add to them).
    pub fn commit_lines(commits: &[&Commit], most: usize) -> Vec<usize> {
        let mut sums = vec![0];
        let mut sum = 0;
        for c in commits {
            if sum > most {
                break;
            }
            sum += commit_line(c).chars().count();
            sums.push(sum);
        }
        sums
    }
}

/// A part's characters, and how many line breaks it ends with (all of them when the part is
/// nothing but line breaks, which `trim_end` would then reach into the part before: never so
/// for the parts `pack` renders, each of which holds text when not empty).
fn measured(part: &str) -> (usize, usize) {
    let breaks = part.len() - part.trim_end_matches('\n').len();
    (part.chars().count(), breaks)
}

/// One line of a decision's uncited commits: `- SHA DATE AUTHOR: SUBJECT`.
fn commit_line(c: &Commit) -> String {
    let (author, subject) = (super::md(&c.author), super::md(&c.subject));
    let mut line =
        String::with_capacity(c.sha.len() + c.date.len() + author.len() + subject.len() + 7);
    for part in [
        "- ", &c.sha, " ", &c.date, " ", &author, ": ", &subject, "\n",
    ] {
        line.push_str(part);
    }
    line
}

fn decision(out: &mut String, d: &ContextDecision) {
    let _ = writeln!(out, "## {}: {}\n", super::md(&d.id), super::md(&d.title));
    let mut about = vec![d.status.as_str().to_string()];
    about.extend(d.date.clone());
    about.push(words(&d.path).into_owned());
    let mut governs = format!(
        "governs {}",
        d.governs
            .iter()
            .map(|p| shown(p))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !d.matches.is_empty() {
        let _ = write!(
            governs,
            " (as {})",
            d.matches
                .iter()
                .map(|m| format!("`{}`", words(m)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !d.declared_by.is_empty() {
        let _ = write!(governs, ", declared by {}", d.declared_by.join(", "));
    }
    about.push(governs);
    let _ = writeln!(out, "{}\n", about.join(" · "));
    for s in &d.sections {
        if !s.heading.is_empty() {
            let _ = writeln!(out, "### {}\n", words(&s.heading));
        }
        let _ = writeln!(out, "{}", words(&s.text));
        if s.truncated {
            out.push_str("[…]\n");
        }
        out.push('\n');
    }
    let mut cut: Vec<String> = d
        .sections
        .iter()
        .filter(|s| s.truncated)
        .map(|s| {
            format!(
                "{} (cut after {} of {} tokens)",
                heading(&s.heading),
                tokens(&s.text),
                s.tokens
            )
        })
        .collect();
    cut.extend(
        d.omitted
            .iter()
            .map(|o| format!("{} ({} tokens)", heading(&o.heading), o.tokens)),
    );
    if let Some(left) = d.uncited_left_out.filter(|n| *n > 0) {
        cut.push(format!("{left} more uncited commits"));
    }
    if !cut.is_empty() {
        let _ = writeln!(
            out,
            "Cut to fit the budget: {}. The whole record: `context-graph record {}`.\n",
            cut.join(", "),
            words(&d.id)
        );
    }
    if let Some(commits) = d.uncited_commits.as_ref().filter(|c| !c.is_empty()) {
        let _ = writeln!(out, "Commits since the decision that did not cite it:\n");
        for c in commits {
            out.push_str(&commit_line(c));
        }
        out.push('\n');
    }
}

fn heading(h: &str) -> String {
    if h.is_empty() {
        "the text before the first section".into()
    } else {
        words(h).into_owned()
    }
}

fn shown(path: &str) -> String {
    format!("`{}`", words(if path.is_empty() { "." } else { path }))
}

/// A record's own words: control characters other than line breaks and tabs escaped.
fn words(text: &str) -> Cow<'_, str> {
    // Nothing to escape, and no `\t` written out that the tabs' return below would turn into
    // a tab: the text as it is.
    if super::plain(text, true) && !text.contains("\\t") {
        return Cow::Borrowed(text);
    }
    Cow::Owned(escaped(text))
}

/// [`words`] line by line.
fn escaped(text: &str) -> String {
    text.split('\n')
        .map(|l| super::escape(l).replace("\\t", "\t"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ContextSection, HistoryLine, Omitted, Status};

    #[test]
    fn words_left_as_they_are_only_when_escaping_would_change_nothing() {
        for text in [
            "plain words\nover two lines",
            "a\ttab, kept",
            "a written \\t, which the tabs' return turns into a tab",
            "an escape \u{1b}[31m, a right-to-left mark \u{202e} and a CR\r",
            "non-ASCII — “quoted” … é",
            "",
            "\n\n",
        ] {
            assert_eq!(words(text), escaped(text), "{text:?}");
        }
        assert_eq!(words("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(super::super::escape("a\u{85}b"), "a\\u{85}b");
        assert_eq!(super::super::escape("a\tb"), "a\\tb");
    }

    fn decision(id: &str, sections: usize) -> ContextDecision {
        ContextDecision {
            id: id.into(),
            title: format!("Title of {id}"),
            status: Status::Accepted,
            date: Some("2024-01-01".into()),
            path: format!("docs/adr/{id}.md"),
            governs: vec!["src/".into()],
            matches: vec!["src/".into()],
            declared_by: Vec::new(),
            sections: (0..sections)
                .map(|i| ContextSection {
                    heading: format!("Part {i}"),
                    text: "words ".repeat(i * 7 + 1).trim_end().to_string(),
                    truncated: i % 2 == 1,
                    tokens: 100,
                })
                .collect(),
            omitted: vec![Omitted {
                heading: "Context".into(),
                tokens: 40,
            }],
            uncited_commits: None,
            uncited_left_out: Some(3),
        }
    }

    #[test]
    fn the_measure_counts_what_the_pack_renders_as_one_decision_changes() {
        let history = HistoryLine {
            id: "ADR-0009".into(),
            title: "Old".into(),
            status: Status::Superseded,
            date: None,
            superseded_by: Vec::new(),
            line: "ADR-0009 (Old) was superseded.".into(),
        };
        for (decisions, history) in [
            (0, vec![]),
            (0, vec![history.clone()]),
            (2, vec![]),
            (3, vec![history]),
        ] {
            let mut pack = ContextPack {
                paths: vec!["src/a.rs".into()],
                budget: 2000,
                used: 0,
                decisions: (0..decisions)
                    .map(|d| decision(&format!("ADR-000{d}"), d + 1))
                    .collect(),
                history,
                mentioned_by: Vec::new(),
                related: Vec::new(),
                rules: Vec::new(),
                record_files: Vec::new(),
            };
            let mut measure = Measure::new(&pack);
            assert_eq!(measure.tokens(), tokens(&super::pack(&pack)));
            for d in 0..decisions {
                pack.decisions[d].sections[0]
                    .text
                    .push_str(" and more words");
                pack.decisions[d].uncited_left_out = Some(0);
                measure.redo(&pack, d);
                assert_eq!(measure.tokens(), tokens(&super::pack(&pack)), "{d}");
                pack.decisions[d].sections.clear();
                pack.decisions[d].omitted.clear();
                measure.redo(&pack, d);
                assert_eq!(measure.tokens(), tokens(&super::pack(&pack)), "{d}");
            }
        }
    }
}
