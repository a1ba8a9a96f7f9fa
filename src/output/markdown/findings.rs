//! The findings and notes of a Markdown report: problems first, then warnings, many of one
//! kind grouped on one line with their shared fix (ADR-0012).

use super::*;

pub(super) fn finding_line(out: &mut String, f: &Finding, style: Style) {
    let label = match f.severity {
        Severity::Problem => style.paint("31", f.code.as_str()),
        Severity::Warning => style.paint("33", f.code.as_str()),
    };
    let _ = writeln!(
        out,
        "- **{}** `{}` ({}): {}",
        md(&f.record),
        label,
        md(&f.path),
        md_text(&f.message)
    );
}

pub(super) fn findings_sections(out: &mut String, findings: &[Finding], style: Style) {
    for (severity, heading) in [
        (Severity::Problem, "Problems"),
        (Severity::Warning, "Warnings"),
    ] {
        let group: Vec<&Finding> = findings.iter().filter(|f| f.severity == severity).collect();
        if group.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "## {heading}
"
        );
        // One line per code (ADR-0012): a code found once reads in full; a code found more
        // often is counted, with its ids and one fix line. `--json` has every finding.
        let mut codes: Vec<FindingCode> = group.iter().map(|f| f.code).collect();
        codes.sort_by_key(|c| c.as_str());
        codes.dedup();
        for code in codes {
            let of_code: Vec<&Finding> = group.iter().copied().filter(|f| f.code == code).collect();
            match of_code.as_slice() {
                [one] => finding_line(out, one, style),
                // A rule's findings are each at a line of their own file: each is listed.
                each if at_a_line(code) => {
                    for f in each {
                        finding_line(out, f, style);
                    }
                }
                many => grouped_line(out, code, many, style),
            }
        }
        out.push('\n');
    }
}

/// The codes whose findings are each at a line of the code (docs/rules.md).
fn at_a_line(code: FindingCode) -> bool {
    matches!(
        code,
        FindingCode::RuleViolated | FindingCode::RuleInvalid | FindingCode::StaleException
    )
}

/// The width a grouped line keeps under, in characters.
pub const GROUP_WIDTH: usize = 100;

/// What the findings of a code are, counted ("43 records have no status"), and the fix they
/// share, as the reference's table of checks says it.
pub(super) fn what_many(code: FindingCode, n: usize) -> (String, &'static str) {
    let (what, fix) = match code {
        FindingCode::SupersededStillCurrent => (
            "superseded records are still current",
            "set each one's Status to `Superseded by <id>`",
        ),
        FindingCode::SupersededByUnknown => (
            "records are superseded by ids that don't exist",
            "correct the id, or write the missing record",
        ),
        FindingCode::GovernedPathGone => (
            "paths named by current records are gone",
            crate::model::CODE_FIX,
        ),
        FindingCode::GovernedPathMoved => (
            "paths named by current records have moved",
            "update the path in the record",
        ),
        FindingCode::DocCitesSuperseded => (
            "guides cite superseded records",
            "update the guide, it may still teach the old decision",
        ),
        FindingCode::DuplicateId => (
            "records share an id",
            "renumber one, and fix the references to it",
        ),
        FindingCode::SupersessionCycle => (
            "supersession cycles",
            "break it, one record must be the current one",
        ),
        FindingCode::SuccessorNotReciprocal => (
            "successors don't say they supersede",
            "add \"Supersedes <id>\" to the successor",
        ),
        FindingCode::SupersededWithoutSuccessor => {
            ("superseded records name no successor", "name it")
        }
        FindingCode::SupersedesUnknown => (
            "records supersede ids that don't exist",
            "correct the id",
        ),
        FindingCode::UnknownReference => (
            "references to ids that don't exist",
            "correct it, or remove it",
        ),
        FindingCode::StatusMissing => ("records have no status", "add a Status line"),
        FindingCode::StatusUnrecognised => (
            "records have a status word it doesn't know",
            "correct the Status line (proposed, accepted, implemented, rejected, deprecated, superseded)",
        ),
        FindingCode::CitesSuperseded => (
            "citations of superseded records by current ones",
            "check the citing decision still holds against the newer one",
        ),
        FindingCode::OverlappingGovernance => (
            "paths governed by two current records",
            "a person reads both and decides: supersede, amend, or narrow one's scope",
        ),
        FindingCode::DanglingMarker => (
            "source markers name records that don't exist",
            "correct the marker, or remove it",
        ),
        FindingCode::GovernedPathUnknown => (
            "paths named that this repository never had",
            crate::model::CODE_FIX,
        ),
        FindingCode::StaleMarker => (
            "source markers name records no longer current",
            "point the marker at the decision in force, or remove it",
        ),
        FindingCode::LinkToMissingRecord => (
            "links to record files that don't exist",
            "correct the link",
        ),
        FindingCode::RuleViolated => (
            "places the code breaks a current record's rule",
            "change the code, or add an `except PATH: reason` line to the record's block",
        ),
        FindingCode::RuleInvalid => (
            "rule lines that don't parse",
            "correct the line (docs/rules.md lists every rule)",
        ),
        FindingCode::StaleException => (
            "exceptions that allow nothing today",
            "remove them: the baseline only shrinks",
        ),
        FindingCode::RulesDropped => (
            "successors drop the rules of the records they supersede",
            "carry the rules over, or say they are dropped with a block of comments",
        ),
    };
    (format!("{n} {what}"), fix)
}

/// The fix the findings of a code share.
pub(super) fn shared_fix(code: FindingCode, many: &[&Finding]) -> String {
    let fix = what_many(code, many.len()).1;
    if code == FindingCode::StatusMissing {
        let folder = many
            .first()
            .and_then(|f| f.path.rsplit_once('/').map(|(d, _)| d.to_string()))
            .unwrap_or_default();
        // Said once, here: how a folder whose files state no status declares the one they hold.
        return format!(
            "{fix}\n  - Or declare the folder's status in `.context-graph.toml`:\n    \
             `[[folders]]` `path = \"{}\"` `default_status = \"accepted\"`",
            escape(&folder)
        );
    }
    // Missing documents, every one: a link to correct (`checks::paths::missing_fix`).
    let doc_fix = crate::model::DOCUMENT_FIX;
    if matches!(
        code,
        FindingCode::GovernedPathGone | FindingCode::GovernedPathUnknown
    ) && many.iter().all(|f| f.message.ends_with(doc_fix))
    {
        return doc_fix.to_string();
    }
    fix.to_string()
}

/// A code found more than once: `- `code`: N what: ID, ID, … (+M)`, then its fix. Warnings
/// keep to one line of about [`GROUP_WIDTH`] columns; a problem's ids are all listed, wrapped.
pub(super) fn grouped_line(out: &mut String, code: FindingCode, many: &[&Finding], style: Style) {
    let colour = match code.severity() {
        Severity::Problem => "31",
        Severity::Warning => "33",
    };
    let mut ids: Vec<String> = Vec::new();
    for f in many {
        let id = md(&f.record);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let head = format!("- `{}`: {}: ", code.as_str(), what_many(code, many.len()).0);
    let wrap = code.severity() == Severity::Problem;
    let mut text = head.clone();
    let mut line_start = 0;
    for (i, id) in ids.iter().enumerate() {
        let more = ids.len() - i - 1;
        let tail = if more > 0 && !wrap {
            format!(", … (+{more})").len()
        } else {
            0
        };
        let sep = if i == 0 { "" } else { ", " };
        let width = text.len() - line_start + sep.len() + id.len() + tail;
        if i > 0 && width > GROUP_WIDTH {
            if !wrap {
                let _ = write!(text, ", … (+{})", ids.len() - i);
                break;
            }
            text.push_str(",\n   ");
            line_start = text.len() - 3;
            text.push(' ');
        } else {
            text.push_str(sep);
        }
        text.push_str(id);
    }
    let text = text.replacen(code.as_str(), &style.paint(colour, code.as_str()), 1);
    let _ = writeln!(out, "{text}");
    let _ = writeln!(out, "  - Fix: {}", shared_fix(code, many));
}

pub(super) fn notes_section(out: &mut String, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    out.push_str("## Notes\n\n");
    for n in notes {
        let _ = writeln!(out, "- {}", md_text(n));
    }
    out.push('\n');
}

pub(super) fn count(findings: &[Finding], severity: Severity) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}
