//! `coverage` as Markdown (ADR-0017): the share, the hottest ungoverned folders with the command
//! that makes a mentioning record govern each, the decisions changed most without a citation.

use super::markdown::shell_word;
use super::{cell, code, escape, md};
use crate::model::{Query, Report};
use std::fmt::Write;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The coverage document as Markdown.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let Some(Query::Coverage { coverage: c }) = &report.query else {
        return out;
    };
    out.push_str("# Coverage\n\n");
    let w = &c.window;
    let span = match (&w.since, &w.until) {
        (Some(since), Some(until)) => format!(" ({since} to {until})"),
        _ => String::new(),
    };
    let which = match (w.from.as_str(), w.last) {
        ("last", Some(n)) => format!("The last {}", plural(n, "commit", "commits")),
        ("since", _) => "Since the date given".to_string(),
        _ => "The 12 months before HEAD's commit".to_string(),
    };
    let _ = writeln!(
        out,
        "{which}{span}: {} counted (non-merge, changing a file outside the record folders).\n",
        plural(c.commits, "commit", "commits")
    );
    match c.share {
        Some(share) => {
            let _ = writeln!(
                out,
                "**{} of {} ({:.1}%)** change code a current decision governs.\n",
                c.governed_commits,
                c.commits,
                share * 100.0
            );
        }
        None => out.push_str("No commit to count.\n\n"),
    }
    if !c.ungoverned.is_empty() {
        out.push_str("## Hottest ungoverned folders\n\n");
        out.push_str("| Folder | Commits | Mentioned by |\n|---|---|---|\n");
        for f in &c.ungoverned {
            let by = if f.mentioned_by.is_empty() {
                "—".to_string()
            } else {
                cell(
                    &f.mentioned_by
                        .iter()
                        .map(|id| md(id))
                        .collect::<Vec<_>>()
                        .join(", "),
                )
            };
            let _ = writeln!(out, "| {} | {} | {by} |", code(&f.path), f.commits);
        }
        let fixes: Vec<String> = c
            .ungoverned
            .iter()
            .flat_map(|f| {
                f.mentions.iter().map(|m| {
                    format!(
                        "context-graph scope {} --add {}",
                        shell_word(&m.id),
                        shell_word(&m.path)
                    )
                })
            })
            .collect();
        if fixes.is_empty() {
            out.push_str(
                "\nNo current record mentions these folders: name one in a decision's scope \
                 (`context-graph scope ID --add PATH`), or write one (`context-graph new`).\n\n",
            );
        } else {
            out.push_str("\nTo make the record that mentions a folder govern it:\n\n```sh\n");
            let mut seen = std::collections::BTreeSet::new();
            for fix in fixes {
                if seen.insert(fix.clone()) {
                    let _ = writeln!(out, "{}", escape(&fix));
                }
            }
            out.push_str("```\n\n");
        }
    }
    if !c.uncited.is_empty() {
        out.push_str("## Decisions changed most without being cited\n\n");
        out.push_str(
            "| Decision | Title | Since | Commits | Not citing it |\n|---|---|---|---|---|\n",
        );
        for d in &c.uncited {
            let title = report
                .records
                .iter()
                .find(|r| r.id == d.id)
                .map(|r| md(&r.title))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                cell(&md(&d.id)),
                cell(&title),
                d.since.as_deref().unwrap_or("—"),
                d.commits,
                d.not_citing
            );
        }
        out.push('\n');
    }
    if !report.notes.is_empty() {
        out.push_str("## Notes\n\n");
        for n in &report.notes {
            let _ = writeln!(out, "- {}", super::md_text(n));
        }
        out.push('\n');
    }
    out
}
