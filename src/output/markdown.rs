//! The Markdown reports: readable in a terminal and pasteable into a pull request.

use super::{cell, code, escape, md, md_text};
use crate::model::{
    Commit, Decision, Drift, Finding, FindingCode, Query, Record, Report, RuleResult, Severity,
    Status, WhyRule,
};
use std::fmt::Write;

mod drift;
mod findings;
mod related;
mod rules;

use drift::*;
use findings::*;
pub use related::related_line;
use related::related_part;
use rules::{record_rules, why_rules};

/// How to render: colour only on a TTY with `NO_COLOR` unset (the caller decides).
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    pub colour: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The Markdown table shows this many drift rows; `--json` has them all.
pub const DRIFT_ROWS: usize = 15;
/// `record` lists this many drift commits.
pub const RECORD_DRIFT_COMMITS: usize = 10;
/// The drift table's "By" column and the "Changed since" line name this many authors, most
/// commits first, then say how many more there are; `--json` has them all.
pub const AUTHORS_SHOWN: usize = 3;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn code_list(items: &[String]) -> String {
    if items.is_empty() {
        "—".to_string()
    } else {
        items.iter().map(|i| code(i)).collect::<Vec<_>>().join(", ")
    }
}

fn id_list(items: &[String]) -> String {
    if items.is_empty() {
        "—".to_string()
    } else {
        items.iter().map(|i| md(i)).collect::<Vec<_>>().join(", ")
    }
}

/// The full check.
pub fn check(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let problems = count(&report.findings, Severity::Problem);
    let warnings = count(&report.findings, Severity::Warning);
    let _ = writeln!(
        out,
        "# context-graph: {}, {}, {}\n",
        plural(report.records.len(), "record", "records"),
        plural(problems, "problem", "problems"),
        plural(warnings, "warning", "warnings")
    );
    if problems + warnings == 0 {
        out.push_str("No problems or warnings.\n\n");
    }
    findings_sections(&mut out, &report.findings, style);
    out.push_str("## Records\n\n| ID | Title | Status | Date | Governs |\n|---|---|---|---|---|\n");
    for r in &report.records {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&md(&r.id)),
            cell(&md(&r.title)),
            r.status.as_str(),
            r.date.as_deref().unwrap_or("—"),
            code_list(&r.governs)
        );
    }
    out.push('\n');
    drift_table(&mut out, &report.records);
    notes_section(&mut out, &report.notes);
    out
}

/// One commit as a list item, `indent` before its dash.
pub(super) fn commit_line(out: &mut String, indent: &str, c: &Commit) {
    let cites = match c.cites_record {
        Some(true) => " (cites it)",
        _ => "",
    };
    let _ = writeln!(
        out,
        "{indent}- {} {} {}: {}{}",
        code(&c.sha),
        md(&c.date),
        md(&c.author),
        md(&c.subject),
        cites
    );
}

/// A record id as one shell word: as it is when it is plain, else in single quotes.
pub(super) fn shell_word(id: &str) -> String {
    let plain = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':'));
    if plain {
        id.to_string()
    } else {
        format!("'{}'", id.replace('\'', "'\\''"))
    }
}

/// Under one decision of `why`: each of its problems, then one line counting its warnings with
/// the command that lists them, so the answer stays on top and a record's many warnings don't
/// bury it (`record ID` shows them all, `--json` has them in full). A finding's path is named
/// only when it is not the record's own file (a guide, a source marker).
fn decision_findings(
    out: &mut String,
    findings: &[Finding],
    r: &Record,
    indent: &str,
    style: Style,
) {
    let about = || findings.iter().filter(|f| f.record == r.id);
    for f in about().filter(|f| f.severity == Severity::Problem) {
        let place = if f.path.is_empty() || f.path == r.path {
            String::new()
        } else {
            format!(" ({})", code(&f.path))
        };
        let _ = writeln!(
            out,
            "{indent}- **Problem** `{}`: {}{place}",
            style.paint("31", f.code.as_str()),
            md_text(&f.message)
        );
    }
    let warnings = about().filter(|f| f.severity == Severity::Warning).count();
    if warnings > 0 {
        let _ = writeln!(
            out,
            "{indent}- {}: {}",
            style.paint("33", &plural(warnings, "warning", "warnings")),
            code(&format!("context-graph record {}", shell_word(&r.id)))
        );
    }
}

/// `why PATH`: the answer first. Current decisions, each with its problems and a count of its
/// warnings under it; then the proposed ones, those of unknown status, and the history
/// (superseded, deprecated, rejected) with their successors, likewise (ADR-0012).
pub fn why(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let Some(Query::Why {
        why,
        decisions,
        mentioned_by,
        related,
        rules,
        record_of,
    }) = &report.query
    else {
        return check(report, style);
    };
    let shown = if why.is_empty() { "." } else { why.as_str() };
    let _ = writeln!(out, "# Why {}\n", code(shown));
    if let Some(r) = record_of {
        let _ = writeln!(
            out,
            "{} is the record of {}: {} ({}); `context-graph record {}` shows it whole.\n",
            code(shown),
            md(&r.id),
            md(&r.title),
            r.status.as_str(),
            md(&r.id)
        );
    }
    if decisions.is_empty() {
        let _ = writeln!(
            out,
            "No recorded decision governs {}. A decision counts here only when its record names the path (or a folder above it), or a marker in it declares the decision.\n",
            code(shown)
        );
    }
    // The rules first: what the file must hold to (docs/rules.md).
    why_rules(&mut out, rules);
    // The record a decision is: the one with its id that governs its matches (two records
    // may share an id), else the first with its id.
    let find = |d: &Decision| {
        let same = || report.records.iter().filter(|r| r.id == d.id);
        same()
            .find(|r| d.matches.iter().all(|m| r.governs.contains(m)))
            .or_else(|| same().next())
    };
    // The ids whose findings are already shown: two records sharing an id show them once.
    let mut placed: Vec<&str> = Vec::new();
    let current: Vec<_> = decisions.iter().filter(|d| d.current).collect();
    let others: Vec<_> = decisions.iter().filter(|d| !d.current).collect();
    for d in &current {
        let Some(r) = find(d) else { continue };
        let _ = writeln!(
            out,
            "## {}: {} ({})\n",
            md(&r.id),
            md(&r.title),
            r.status.as_str()
        );
        let _ = writeln!(out, "- Record: {}", code(&r.path));
        if let Some(date) = &r.date {
            let _ = writeln!(out, "- Decided: {date}");
        }
        if !d.matches.is_empty() || d.declared_by.is_none() {
            let _ = writeln!(out, "- Governs: {}", code_list(&d.matches));
        }
        for decl in d.declared_by.iter().flatten() {
            let _ = writeln!(
                out,
                "- Declared by {}",
                code(&format!("{}:{}", decl.path, decl.line))
            );
        }
        if let Some(drift) = &r.drift {
            let _ = writeln!(out, "- {}", changed_since_line(drift));
        }
        if !placed.contains(&r.id.as_str()) {
            placed.push(&r.id);
            decision_findings(&mut out, &report.findings, r, "", style);
        }
        out.push('\n');
    }
    // Then the decisions not in force, by where they stand: proposed, of unknown status, and
    // history (superseded, deprecated, rejected). A decision of unknown status is not history.
    type Section = (&'static str, fn(Status) -> bool);
    let sections: [Section; 3] = [
        ("Proposed", |s| s == Status::Proposed),
        ("Unknown status", |s| {
            matches!(s, Status::Unknown | Status::Unrecognised)
        }),
        ("History", |s| {
            matches!(
                s,
                Status::Superseded | Status::Deprecated | Status::Rejected
            )
        }),
    ];
    for (heading, belongs) in sections {
        let rows: Vec<(&&Decision, &Record)> = others
            .iter()
            .filter_map(|d| find(d).map(|r| (d, r)))
            .filter(|(_, r)| belongs(r.status))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "## {heading}\n");
        for (d, r) in rows {
            let status = match (r.status, r.successors.is_empty()) {
                (_, true) => r.status.as_str().to_string(),
                (Status::Superseded, false) => format!("superseded by {}", id_list(&r.successors)),
                (s, false) => format!("{}, superseded by {}", s.as_str(), id_list(&r.successors)),
            };
            let mut how = Vec::new();
            if !d.matches.is_empty() || d.declared_by.is_none() {
                how.push(format!("governs {}", code_list(&d.matches)));
            }
            if let Some(declared) = &d.declared_by {
                let places: Vec<String> = declared
                    .iter()
                    .map(|decl| code(&format!("{}:{}", decl.path, decl.line)))
                    .collect();
                how.push(format!("declared by {}", places.join(", ")));
            }
            let _ = writeln!(
                out,
                "- {}: {} ({}), {}",
                md(&r.id),
                md(&r.title),
                status,
                how.join(", ")
            );
            if !placed.contains(&r.id.as_str()) {
                placed.push(&r.id);
                decision_findings(&mut out, &report.findings, r, "  ", style);
            }
        }
        out.push('\n');
    }
    related_part(&mut out, related, crate::text::path::is_prose(why));
    if !mentioned_by.is_empty() {
        out.push_str(
            "## Mentioned, not governing

",
        );
        for m in mentioned_by {
            let _ = writeln!(
                out,
                "- Mentioned by {} (line {}: {}); not a declared scope{}",
                md(&m.id),
                m.line,
                code(&m.term),
                if m.path.trim_end_matches('/') == why.trim_end_matches('/') {
                    String::new()
                } else {
                    format!(" (names {})", code(&m.path))
                }
            );
        }
        out.push('\n');
    }
    // Findings about no decision shown above (none today: the report keeps only the findings
    // about the matched records) keep the full sections, so nothing is ever dropped.
    let rest: Vec<Finding> = report
        .findings
        .iter()
        .filter(|f| !placed.contains(&f.record.as_str()))
        .cloned()
        .collect();
    findings_sections(&mut out, &rest, style);
    notes_section(&mut out, &report.notes);
    out
}

/// `record ID`: one record, its edges, commits and drift.
pub fn record(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let Some(Query::Record { record: id, rules }) = &report.query else {
        return check(report, style);
    };
    for r in report.records.iter().filter(|r| &r.id == id) {
        let _ = writeln!(out, "# {}: {}\n", md(&r.id), md(&r.title));
        let status = if r.status_text.is_empty() {
            r.status.as_str().to_string()
        } else {
            format!("{} (\"{}\")", r.status.as_str(), md(&r.status_text))
        };
        let _ = writeln!(out, "- Status: {status}");
        let _ = writeln!(out, "- Date: {}", r.date.as_deref().unwrap_or("—"));
        let _ = writeln!(out, "- File: {}", code(&r.path));
        let _ = writeln!(out, "- Supersedes: {}", id_list(&r.supersedes));
        let _ = writeln!(out, "- Superseded by: {}", id_list(&r.successors));
        let _ = writeln!(out, "- Amends: {}", id_list(&r.amends));
        let _ = writeln!(out, "- Cites: {}", id_list(&r.cites));
        let _ = writeln!(out, "- Cited by: {}", id_list(&r.cited_by));
        let _ = writeln!(out, "- Governs: {}", code_list(&r.governs));
        if !r.missing_paths.is_empty() {
            let _ = writeln!(out, "- Missing paths: {}", code_list(&r.missing_paths));
        }
        for (gone, to) in &r.moved {
            let _ = writeln!(out, "- Moved? {} → {}", code(gone), code_list(to));
        }
        out.push('\n');
        record_rules(&mut out, rules, r.status);
        if !r.code_mentions.is_empty() {
            out.push_str("## Mentions not in its scope\n\n");
            for m in &r.code_mentions {
                let _ = writeln!(
                    out,
                    "- {}: line {}, {} (confidence {})",
                    code(&m.path),
                    m.line,
                    code(&m.term),
                    m.confidence
                );
            }
            out.push('\n');
        }
        if let Some(d) = &r.drift {
            let _ = writeln!(out, "## {}\n", changed_since_line(d));
            for c in d.commits.iter().take(RECORD_DRIFT_COMMITS) {
                commit_line(&mut out, "", c);
            }
            if d.commits.len() > RECORD_DRIFT_COMMITS {
                let _ = writeln!(
                    out,
                    "- … {} more in `--json`",
                    d.commits.len() - RECORD_DRIFT_COMMITS
                );
            }
            out.push('\n');
        }
        if !r.commits.is_empty() {
            out.push_str("## Commits citing it\n\n");
            for c in &r.commits {
                commit_line(&mut out, "", c);
            }
            out.push('\n');
        }
    }
    findings_sections(&mut out, &report.findings, style);
    notes_section(&mut out, &report.notes);
    out
}

/// `index --status`.
pub fn index_status(s: &crate::model::IndexStatus) -> String {
    format!(
        "# Index\n\n- Path: `{}`\n- Schema version: {}\n- HEAD: {}\n- Indexed HEAD: {}\n- Fresh: {}\n- Records: {}\n- Commits: {}\n- Paths: {}\n",
        escape(&s.path),
        s.schema_version,
        s.head.as_deref().unwrap_or("—"),
        s.indexed_head.as_deref().unwrap_or("—"),
        if s.fresh { "yes" } else { "no" },
        s.records,
        s.commits,
        s.paths
    )
}

/// `index`.
pub fn index_summary(s: &crate::model::IndexSummary) -> String {
    format!(
        "Index `{}` is up to date: {}, {} added, HEAD {}.\n",
        escape(&s.path),
        plural(s.records, "record", "records"),
        plural(s.commits_added, "commit", "commits"),
        s.head.as_deref().unwrap_or("(no commits)")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AuthorCount, FindingCode, Status};

    fn accepted(id: &str, title: &str, governs: &[&str]) -> Record {
        let path = format!("docs/adr/{}.md", id.to_lowercase());
        Record {
            date: Some("2025-01-10".into()),
            governs: governs.iter().map(|g| g.to_string()).collect(),
            ..Record::bare(id, title, Status::Accepted, &path)
        }
    }

    /// `why src/a` over one decision with one problem (its message carrying an ESC) and two
    /// warnings.
    fn why_report() -> Report {
        let r = accepted("ADR-0004", "Tokens", &["src/a/"]);
        let path = r.path.clone();
        Report {
            root: "/r".into(),
            records: vec![r],
            docs: vec![],
            findings: vec![
                Finding::new(
                    FindingCode::GovernedPathGone,
                    "ADR-0004",
                    &path,
                    "names `src/\u{1b}[31mb`, which is gone".into(),
                ),
                Finding::new(FindingCode::UnknownReference, "ADR-0004", &path, "x".into()),
                Finding::new(FindingCode::UnknownReference, "ADR-0004", &path, "y".into()),
            ],
            notes: vec![],
            query: Some(Query::Why {
                why: "src/a".into(),
                decisions: vec![Decision {
                    id: "ADR-0004".into(),
                    status: Status::Accepted,
                    current: true,
                    matches: vec!["src/a/".into()],
                    declared_by: None,
                }],
                mentioned_by: Vec::new(),
                related: Vec::new(),
                rules: Vec::new(),
                record_of: None,
            }),
            rules: Vec::new(),
        }
    }

    #[test]
    fn why_puts_problems_and_a_warning_count_under_the_decision() {
        let text = why(&why_report(), Style::default());
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(
            text.contains(
                "- Governs: `src/a/`\n\
                 - **Problem** `governed-path-gone`: names `src/\\u{1b}[31mb`, which is gone\n\
                 - 2 warnings: `context-graph record ADR-0004`\n"
            ),
            "{text}"
        );
        assert!(!text.contains("## Warnings") && !text.contains("unknown-reference"));
    }

    #[test]
    fn why_paints_only_when_the_style_says_so() {
        let text = why(&why_report(), Style { colour: true });
        assert!(
            text.contains("`\u{1b}[31mgoverned-path-gone\u{1b}[0m`"),
            "{text}"
        );
        assert!(
            text.contains("- \u{1b}[33m2 warnings\u{1b}[0m: `context-graph"),
            "{text}"
        );
        // Only the painting: the message's own ESC is still escaped.
        assert_eq!(text.matches('\u{1b}').count(), 4, "{text}");
    }

    #[test]
    fn an_id_that_is_not_one_shell_word_is_quoted() {
        assert_eq!(shell_word("ADR-0004"), "ADR-0004");
        assert_eq!(shell_word("2024-05-01-use-redis"), "2024-05-01-use-redis");
        assert_eq!(shell_word("my decision"), "'my decision'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }

    #[test]
    fn a_busy_folder_names_three_authors_and_counts_the_rest() {
        let drift = |n: usize| Drift {
            since: "2025-01-10".into(),
            since_from: "record".into(),
            count: n * 2,
            not_citing_record: n,
            authors: (0..n)
                .map(|i| AuthorCount {
                    name: format!("Dev|{i:03}"),
                    commits: 2,
                })
                .collect(),
            last_change: Some("2025-06-01".into()),
            record_last_edited: None,
            commits: vec![],
        };
        assert_eq!(
            authors(&drift(130)),
            "Dev\\|000 2, Dev\\|001 2, Dev\\|002 2 and 127 more"
        );
        assert_eq!(authors(&drift(3)), "Dev\\|000 2, Dev\\|001 2, Dev\\|002 2");
        assert_eq!(authors(&drift(0)), "—");
        assert!(changed_since_line(&drift(130)).ends_with("and 127 more)."));
    }
}
