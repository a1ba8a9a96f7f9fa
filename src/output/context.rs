//! `context PATH…` in Markdown, fit to paste into a prompt (CONTRACT.md §13; ADR-0014). The
//! pack's budget is counted on this text: `app` measures what it keeps by rendering it here.

use crate::model::{tokens, ContextDecision, ContextPack, Report};
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
    let mut out = String::new();
    let paths: Vec<String> = pack.paths.iter().map(|p| shown(p)).collect();
    let _ = writeln!(out, "# Decisions governing {}\n", paths.join(", "));
    if pack.decisions.is_empty() {
        let _ = writeln!(out, "No current decision governs {}.\n", paths.join(" or "));
    }
    for d in &pack.decisions {
        decision(&mut out, d);
    }
    if !pack.history.is_empty() {
        let _ = writeln!(out, "## No longer current\n");
        for h in &pack.history {
            let _ = writeln!(out, "- {}", words(&h.line));
        }
        out.push('\n');
    }
    if !pack.mentioned_by.is_empty() {
        let _ = writeln!(out, "## Mentioned, not governing\n");
        for m in &pack.mentioned_by {
            let _ = writeln!(
                out,
                "- {} ({}) mentions {} (line {}: {}); not a declared scope",
                words(&m.id),
                m.status.as_str(),
                shown(&m.path),
                m.line,
                shown(&m.term)
            );
        }
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn decision(out: &mut String, d: &ContextDecision) {
    let _ = writeln!(out, "## {}: {}\n", words(&d.id), words(&d.title));
    let mut about = vec![d.status.as_str().to_string()];
    about.extend(d.date.clone());
    about.push(words(&d.path));
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
            let _ = writeln!(
                out,
                "- {} {} {}: {}",
                c.sha,
                c.date,
                words(&c.author),
                words(&c.subject)
            );
        }
        out.push('\n');
    }
}

fn heading(h: &str) -> String {
    if h.is_empty() {
        "the text before the first section".into()
    } else {
        words(h)
    }
}

fn shown(path: &str) -> String {
    format!("`{}`", words(if path.is_empty() { "." } else { path }))
}

/// A record's own words: control characters other than line breaks and tabs escaped.
fn words(text: &str) -> String {
    text.split('\n')
        .map(|l| super::escape(l).replace("\\t", "\t"))
        .collect::<Vec<_>>()
        .join("\n")
}
