//! The rules' changes as the commit hooks and `review` say them (docs/rules.md, ADR-0021).

use super::{code, escape};
use crate::model::{AddedViolation, ReviewQuery, StagedCheck};
use std::fmt::Write;

/// The rules' violations the staged change adds (docs/rules.md), whatever the message cites:
/// a warning, or with `refusing` strict mode's refusal. Empty when it adds none.
pub(super) fn rules_added(check: &StagedCheck, refusing: bool) -> String {
    let mut out = String::new();
    let Some(first) = check.rules_added.first() else {
        return out;
    };
    let _ = writeln!(
        out,
        "context-graph: {}the staged change breaks current decisions' rules where its base did not:",
        if refusing {
            "commit refused (context-graph.strict is true): "
        } else {
            "warning: "
        },
    );
    for v in &check.rules_added {
        let target = v
            .target
            .as_deref()
            .map(|t| format!(" ({})", escape(t)))
            .unwrap_or_default();
        // A file that broke the rule before: its count grew, so each place is listed.
        let before = match v.was {
            0 => String::new(),
            n => format!(" ({n} in this file before)"),
        };
        let _ = writeln!(
            out,
            "  {}:{}{target} breaks {}'s rule `{}`{before}",
            escape(&v.path),
            v.line,
            escape(&v.record),
            escape(&v.rule)
        );
    }
    let _ = writeln!(
        out,
        "context-graph: change the code, or add `except {}: REASON` to {}'s rules",
        escape(&first.path),
        escape(&first.record)
    );
    out
}

/// `review`'s rules section: the violations the range adds and removes. Empty when neither.
pub(super) fn review_rules(q: &ReviewQuery) -> String {
    let mut out = String::new();
    for (title, list) in [
        ("Rule violations the range adds", &q.rules_added),
        ("Rule violations the range removes", &q.rules_removed),
    ] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {title}\n");
        for v in list {
            place(&mut out, v);
        }
        out.push('\n');
    }
    out
}

fn place(out: &mut String, v: &AddedViolation) {
    let target = v
        .target
        .as_deref()
        .map(|t| format!(" ({})", code(t)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "- {}{target}: {} {}",
        code(&format!("{}:{}", v.path, v.line)),
        escape(&v.record),
        code(&v.rule)
    );
}
