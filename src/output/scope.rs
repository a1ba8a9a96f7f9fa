//! `scope ID --add` / `--accept` (ADR-0017): what was written, and the diff.

use super::{code, escape, md};
use crate::model::ScopeEdit;
use std::fmt::Write;

/// The edit as Markdown: what was added (or would be, with `--dry-run`), then the diff.
pub fn markdown(edit: &ScopeEdit) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Scope of {}\n", md(&edit.id));
    let _ = writeln!(out, "- Record: {}", code(&edit.path));
    let _ = writeln!(out, "- Written as: {}", edit.form);
    let list = |paths: &[String]| -> String {
        if paths.is_empty() {
            return "—".to_string();
        }
        let quoted: Vec<String> = paths.iter().map(|p| code(p)).collect();
        quoted.join(", ")
    };
    let verb = if edit.written { "Added" } else { "To add" };
    let _ = writeln!(out, "- {verb}: {}", list(&edit.added));
    if !edit.already.is_empty() {
        let _ = writeln!(out, "- Already governed: {}", list(&edit.already));
    }
    if !edit.hunks.is_empty() {
        out.push_str("\n```diff\n");
        out.push_str(&diff(edit));
        out.push_str("```\n");
    }
    out
}

/// The edit as a unified diff.
pub fn diff(edit: &ScopeEdit) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "--- a/{}", edit.path);
    let _ = writeln!(out, "+++ b/{}", edit.path);
    for h in &edit.hunks {
        let old_start = if h.old.is_empty() { h.at - 1 } else { h.at };
        let _ = writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            old_start,
            h.old.len(),
            h.at,
            h.new.len()
        );
        for l in &h.old {
            let _ = writeln!(out, "-{}", escape(l));
        }
        for l in &h.new {
            let _ = writeln!(out, "+{}", escape(l));
        }
    }
    out
}
