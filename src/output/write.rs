//! What a write says (ADR-0013): one line per file written or changed, and for `--dry-run`
//! the diff of what would be.

use super::escape;
use crate::model::WriteReport;

/// The report in Markdown: each file, then (for `--dry-run`) the diff. (The notes are the
/// binary's to print on stderr.)
pub fn markdown(report: &WriteReport) -> String {
    let mut out = String::new();
    let verb = |action: &str| match (report.dry_run, action) {
        (true, "created") => "would create",
        (true, _) => "would change",
        (false, "created") => "created",
        (false, _) => "changed",
    };
    for w in &report.written {
        let id = if w.id.is_empty() {
            String::new()
        } else {
            format!(" ({})", escape(&w.id))
        };
        out.push_str(&format!("{} {}{id}\n", verb(&w.action), escape(&w.path)));
    }
    if report.dry_run {
        out.push_str(&diff(report));
    }
    out
}

/// The changes as a unified diff (without context lines), fenced for a pull request.
pub fn diff(report: &WriteReport) -> String {
    let mut out = String::from("\n```diff\n");
    for f in &report.diffs {
        let path = escape(&f.path);
        if f.created {
            out.push_str(&format!("--- /dev/null\n+++ b/{path}\n"));
        } else {
            out.push_str(&format!("--- a/{path}\n+++ b/{path}\n"));
        }
        for h in &f.hunks {
            let start_new = if h.new.is_empty() { h.line - 1 } else { h.line };
            let start_old = if h.old.is_empty() { h.line - 1 } else { h.line };
            out.push_str(&format!(
                "@@ -{start_old},{} +{start_new},{} @@\n",
                h.old.len(),
                h.new.len()
            ));
            for l in &h.old {
                out.push_str(&format!("-{}\n", escape(l)));
            }
            for l in &h.new {
                out.push_str(&format!("+{}\n", escape(l)));
            }
        }
    }
    out.push_str("```\n");
    out
}
