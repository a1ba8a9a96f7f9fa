//! What the hooks say (on stderr, and as comment lines in a message template), what
//! `install-hooks` and `uninstall-hooks` did, how to add context-graph to husky and lefthook, and
//! `review`'s Markdown for a pull request (docs/hooks.md, docs/commands.md; ADR-0008).

use super::{cell, code, escape, md};
use crate::model::Quiet;
use crate::model::{Governing, HookAction, HooksReport, Query, Report, StagedCheck};
use std::fmt::Write;

/// A hook's message names this many paths of a decision, then counts the rest.
pub const PATHS_SHOWN: usize = 8;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Each decision on a line of its own, after `prefix` and two spaces: id, title, the paths.
fn decision_lines(out: &mut String, prefix: &str, decisions: &[Governing]) {
    for d in decisions {
        let _ = writeln!(
            out,
            "{prefix}  {} {}: {}",
            escape(&d.id),
            escape(&d.title),
            path_list(&d.paths, PATHS_SHOWN)
        );
    }
}

/// `a, b, c and 3 more`, each escaped.
fn path_list(paths: &[String], shown: usize) -> String {
    let mut out = paths
        .iter()
        .take(shown)
        .map(|p| escape(p))
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > shown {
        let _ = write!(out, " and {} more", paths.len() - shown);
    }
    out
}

/// `ADR-0004`, `ADR-0004 and ADR-0007`, `ADR-0001, ADR-0004 and ADR-0007`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn ids(decisions: &[&Governing]) -> String {
    let ids: Vec<String> = decisions.iter().map(|d| escape(&d.id)).collect();
    and_list(&ids.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `hook pre-commit` alone: the current decisions governing the staged paths (stderr). Empty
/// when none does.
pub fn pre_commit(check: &StagedCheck) -> String {
    let rules = super::rules::rules_added(check, false);
    if check.skipped.is_some() || check.decisions.is_empty() {
        return rules;
    }
    let mut out = rules;
    out.push_str("context-graph: the staged changes touch paths that current decisions govern:\n");
    decision_lines(&mut out, "", &check.decisions);
    let first = escape(&check.decisions[0].id);
    let _ = writeln!(
        out,
        "context-graph: cite the ones this commit follows or changes in its message, e.g. \"… ({first})\""
    );
    out
}

/// `hook commit-msg`: the warning (or, in strict mode, the refusal) for a message citing none of
/// the decisions governing the staged paths (stderr). Empty when there is nothing to say.
pub fn commit_msg(check: &StagedCheck) -> String {
    let mut out = super::rules::rules_added(check, check.strict);
    out.push_str(&warning(check));
    // A decision the branch named before: one short line (docs/hooks.md).
    for (id, first) in &check.repeats {
        let _ = writeln!(
            out,
            "context-graph: {} again (first named in {})",
            escape(id),
            escape(first)
        );
    }
    // Decisions whose paths it touches are only files many decisions govern, or files a record
    // it adds governs, or whose lines it changes share next to nothing with the record, or
    // whose place a layout decides when it makes or empties no folder: one line each, said of
    // one decision or of several.
    for (reason, one, many) in [
        (
            Quiet::SharedFiles,
            "it edits files that {} governs with other decisions; cite it if it follows or changes it",
            "it edits files that {} all govern; cite the one it follows or changes",
        ),
        (
            Quiet::OwnRecord,
            "the record it adds governs files that {} also governs; cite it if it changes it",
            "the record it adds governs files that {} also govern; cite any it changes",
        ),
        (
            Quiet::Unechoed,
            "it touches files governed by {}, in lines that share next to nothing with the record; cite it if it follows or changes it",
            "it touches files governed by {}, in lines that share next to nothing with the records; cite any it follows or changes",
        ),
        (
            Quiet::BroadFolder,
            "it touches files that {} governs only as part of a folder of over 1,000 files; cite it if it follows or changes it",
            "it touches files that {} govern only as part of a folder of over 1,000 files; cite any it follows or changes",
        ),
        (
            Quiet::LayoutKept,
            "it changes files whose place {} decides, and makes or empties no folder; cite it if it follows or changes it",
            "it changes files whose place {} decide, and makes or empties no folder; cite any it follows or changes",
        ),
        (
            Quiet::LayoutRepeated,
            "it makes folders shaped as ones beside them, where {} decides where files live; cite it if it follows or changes it",
            "it makes folders shaped as ones beside them, where {} decide where files live; cite any it follows or changes",
        ),
        (
            Quiet::AddedAlike,
            "it only adds files beside others of their kind where {} governs; cite it if it follows or changes it",
            "it only adds files beside others of their kind where {} govern; cite any it follows or changes",
        ),
        (
            Quiet::OtherSettings,
            "it changes settings that {} never names, in files it governs; cite it if it follows or changes it",
            "it changes settings that {} never name, in files they govern; cite any it follows or changes",
        ),
        (
            Quiet::Renamed,
            "it only swaps a word or two a line, none that {} writes, in files it governs; cite it if it follows or changes it",
            "it only swaps a word or two a line, none that {} write, in files they govern; cite any it follows or changes",
        ),
    ] {
        let ids: Vec<String> = check
            .quiet
            .iter()
            .filter(|(_, q)| *q == reason)
            .map(|(id, _)| escape(id))
            .collect();
        let says = match ids.len() {
            0 => continue,
            1 => one,
            _ => many,
        };
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let _ = writeln!(out, "context-graph: {}", says.replace("{}", &and_list(&ids)));
    }
    // A change that reads far more like another record: one line each, naming that record.
    for (id, _) in check
        .quiet
        .iter()
        .filter(|(_, q)| *q == Quiet::EchoedElsewhere)
    {
        let like = check.like.iter().find(|(d, _)| d == id).map(|(_, f)| f);
        let _ = match like {
            Some(like) => writeln!(
                out,
                "context-graph: it touches files governed by {}, in lines that read far more like {}; cite the one it follows or changes",
                escape(id),
                escape(like)
            ),
            None => writeln!(
                out,
                "context-graph: it touches files governed by {}, in lines that read far more like other records; cite any it follows or changes",
                escape(id)
            ),
        };
    }
    out
}

/// The table's "Cited" cell: `yes` when every commit touching the decision's paths cites it
/// (or is a repeat on its branch), `partly: N uncited` when the range cites it but N of them
/// do not (a commit that only edits the record cites it, ev-node's review showed `yes` above
/// three warnings), `**no**` when nothing in the range cites it.
fn cited_cell(d: &crate::model::ReviewDecision) -> String {
    if !d.cited {
        return "**no**".to_string();
    }
    let uncited = warned_commits(d).count();
    if uncited == 0 {
        "yes".to_string()
    } else {
        format!("partly: {uncited} uncited")
    }
}

/// The commits of a decision that do not cite it and are no repeat of their branch: those
/// warned about in full.
fn warned_commits(
    d: &crate::model::ReviewDecision,
) -> impl Iterator<Item = &crate::model::Commit> + '_ {
    d.commits
        .iter()
        .filter(|c| c.cites_record != Some(true))
        .filter(|c| !d.repeats.iter().any(|r| r.sha == c.sha))
}

/// How many commits of a review touch a decision's paths, cite none of them and are no repeat
/// of their branch (each commit once).
fn uncited_commits(q: &crate::model::ReviewQuery) -> usize {
    let mut shas: Vec<&str> = q
        .decisions
        .iter()
        .flat_map(|d| warned_commits(d).map(|c| c.sha.as_str()))
        .collect();
    shas.sort_unstable();
    shas.dedup();
    // A commit citing one decision it touches cites, as the hook judges it.
    let citing: Vec<&str> = q
        .decisions
        .iter()
        .flat_map(|d| d.commits.iter())
        .filter(|c| c.cites_record == Some(true))
        .map(|c| c.sha.as_str())
        .collect();
    shas.retain(|s| !citing.contains(s));
    shas.len()
}

/// [`commit_msg`]'s full warning, for the decisions [`StagedCheck::warned`] names.
fn warning(check: &StagedCheck) -> String {
    let uncited = check.warned();
    if uncited.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let what = format!(
        "its staged changes touch paths governed by {}, {}",
        ids(&uncited),
        if uncited.len() == 1 {
            "which its message does not cite"
        } else {
            "and its message cites none of them"
        }
    );
    if check.refused() {
        let _ = writeln!(
            out,
            "context-graph: commit refused (context-graph.strict is true): {what}:"
        );
    } else {
        let _ = writeln!(out, "context-graph: warning: {what}:");
    }
    for d in &uncited {
        let _ = writeln!(
            out,
            "  {} \"{}\" ({}) governs {}",
            escape(&d.id),
            escape(&d.title),
            escape(&d.record),
            path_list(&d.paths, PATHS_SHOWN)
        );
    }
    let first = escape(&uncited[0].id);
    if check.refused() {
        let _ = writeln!(
            out,
            "context-graph: to cite a decision, write its id in the message (e.g. \"… ({first})\") and commit again"
        );
    } else {
        let _ = writeln!(
            out,
            "context-graph: to cite a decision, write its id in the message (e.g. \"… ({first})\"); `git commit --amend` adds it to this one"
        );
    }
    out
}

/// prepare-commit-msg: the comment lines added to the message template (each starting with
/// `comment`), ending with an empty comment line. Empty when no decision governs.
pub fn hint(check: &StagedCheck) -> String {
    if check.skipped.is_some() || check.decisions.is_empty() {
        return String::new();
    }
    let c = &check.comment;
    let first = escape(&check.decisions[0].id);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{c} context-graph: the staged changes touch paths that these current decisions govern."
    );
    let _ = writeln!(
        out,
        "{c} Cite the ones this commit follows or changes by their id, e.g. \"… ({first})\":"
    );
    decision_lines(&mut out, &format!("{c} "), &check.decisions);
    let _ = writeln!(out, "{c}");
    out
}

fn action(a: HookAction, hook: &str) -> String {
    match a {
        HookAction::Created => "created".into(),
        HookAction::Added => {
            "added at the top of the existing hook, whose own lines still run after ours".into()
        }
        HookAction::Chained => format!(
            "the existing hook moved to `{hook}.before-context-graph`, which ours runs after its part"
        ),
        HookAction::Updated => "updated".into(),
        HookAction::Unchanged => "already installed, unchanged".into(),
        HookAction::SkippedNotExecutable => {
            "left alone: the file is not executable, so git skips it (make it executable, then install again)".into()
        }
        HookAction::Removed => "our part removed, the rest of the hook kept".into(),
        HookAction::Deleted => "deleted: nothing else was in it".into(),
        HookAction::Restored => format!("our part removed, `{hook}.before-context-graph` put back"),
        HookAction::NotInstalled => "nothing of ours in it".into(),
    }
}

/// What `install-hooks` or `uninstall-hooks` did, file by file (Markdown).
pub fn hooks_report(report: &HooksReport, installing: bool) -> String {
    let mut out = String::new();
    let verb = if installing {
        "install-hooks"
    } else {
        "uninstall-hooks"
    };
    let _ = writeln!(out, "# context-graph {verb}\n");
    let _ = write!(out, "Hooks folder: {}", code(&report.hooks_dir));
    if let Some(path) = &report.hooks_path {
        let _ = write!(out, " (core.hooksPath = {})", code(path));
    }
    out.push_str("\n\n");
    if let Some(m) = &report.managed_by {
        let _ = writeln!(
            out,
            "Nothing written: {} manages this repository's hooks ({}), and would overwrite what \
             context-graph wrote into its hooks (or be overwritten by it). Add context-graph to {}'s \
             own configuration instead:\n",
            m.name,
            md(&m.evidence),
            m.name
        );
        out.push_str(&manager_snippet(&m.name));
        return out;
    }
    for f in &report.files {
        let _ = writeln!(out, "- {}: {}", code(&f.path), action(f.action, &f.hook));
    }
    out
}

/// How to call context-graph from a hooks manager's configuration: husky's hook files, or
/// `lefthook.yml`. The lines are kept as files in `hooks/managers/` (docs/hooks.md shows them as
/// they are): they fail open without the binary, and let strict mode's exit 1 through.
pub fn manager_snippet(name: &str) -> String {
    if name == "husky" {
        return format!("```sh\n{}```\n", include_str!("../../hooks/managers/husky"));
    }
    format!(
        "```yaml\n{}```\n",
        include_str!("../../hooks/managers/lefthook.yml")
    )
}

/// The most `review`'s Markdown holds: one pull request comment (GitHub's limit, 65,536
/// characters; counted here in bytes, never fewer).
pub const REVIEW_LIMIT: usize = 65_536;

/// `review` lists this many commits, and this many paths, of a decision, then counts the rest.
pub const REVIEW_SHOWN: usize = 20;

/// A title, subject, author or path in `review` is cut to this many characters.
const REVIEW_TEXT: usize = 300;

/// `text` cut to [`REVIEW_TEXT`] characters, `…` marking the cut.
fn clip(text: &str) -> String {
    match text.char_indices().nth(REVIEW_TEXT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `review`: the decisions the range touches, uncited ones first, for a pull request. It always
/// fits one pull request comment ([`REVIEW_LIMIT`]): each decision lists [`REVIEW_SHOWN`]
/// paths and commits, then counts the rest; decisions that do not fit are counted at the end.
/// Titles, subjects, authors and paths cannot render as HTML. `--json` has everything.
pub fn review(report: &Report) -> String {
    let mut out = String::new();
    let Some(Query::Review(q)) = &report.query else {
        return out;
    };
    let _ = writeln!(out, "# context-graph review: {}\n", code(&clip(&q.review)));
    let short = |s: &str| s.get(..7).unwrap_or(s).to_string();
    if let Some(pr) = &q.pull_request {
        let _ = writeln!(
            out,
            "Reviewed the pull request's head `{}`: {} is GitHub's merge of it into the base \
             (`{}`), set aside.\n",
            short(&q.head),
            code(&clip(&pr.reference)),
            short(&pr.merge)
        );
    }
    let _ = write!(
        out,
        "{} (`{}..{}`)",
        plural(q.commits, "commit", "commits"),
        short(&q.base),
        short(&q.head)
    );
    if q.decisions.is_empty() {
        let verb = if q.commits == 1 { "touches" } else { "touch" };
        let _ = writeln!(out, ": none {verb} a path that a current decision governs.");
        if !q.quiet.is_empty() {
            out.push('\n');
        }
        out.push_str(&quiet_section(q));
        if !q.rules_added.is_empty() || !q.rules_removed.is_empty() {
            out.push('\n');
            out.push_str(&super::rules::review_rules(q));
        }
        return out;
    }
    let _ = writeln!(
        out,
        " {} paths governed by {}; {}.\n",
        if q.commits == 1 { "touches" } else { "touch" },
        plural(q.decisions.len(), "current decision", "current decisions"),
        match (q.uncited.len(), uncited_commits(q)) {
            (0, 0) => "every one is cited".to_string(),
            // Cited somewhere in the range (a pull request's one commit may cite it for all),
            // but a reader of many merged branches would miss the commits that did not.
            (0, n) => format!(
                "every one is cited in the range, though {} that {} them {} none",
                plural(n, "commit", "commits"),
                if n == 1 { "touches" } else { "touch" },
                if n == 1 { "cites" } else { "cite" }
            ),
            (n, _) => format!("{} not cited", plural(n, "is", "are")),
        }
    );
    let ordered: Vec<_> = q
        .decisions
        .iter()
        .filter(|d| !d.cited)
        .chain(q.decisions.iter().filter(|d| d.cited))
        .collect();
    // What always ends the comment: how to cite, the notes (each clipped, as many as fit).
    let mut tail = String::new();
    if !q.uncited.is_empty() {
        let first = md(&clip(&q.uncited[0]));
        let _ = writeln!(
            tail,
            "To cite a decision, mention its id in a commit message of the range (e.g. \"… ({first})\"), \
             or in the message of the commit that merges it. `context-graph why PATH` shows what a \
             decision says about a path."
        );
    }
    if !report.notes.is_empty() {
        tail.push_str("\n## Notes\n\n");
        for (i, n) in report.notes.iter().enumerate() {
            let line = format!("- {}\n", md(&clip(n)));
            if tail.len() + line.len() > REVIEW_LIMIT / 8 {
                let _ = writeln!(tail, "- and {} more", report.notes.len() - i);
                break;
            }
            tail.push_str(&line);
        }
    }
    // Room for the line counting what did not fit.
    let room = REVIEW_LIMIT - tail.len() - 200;
    let mut rows = String::from(
        "| Decision | Title | Cited | Paths touched | Commits |\n|---|---|---|---|---|\n",
    );
    let mut sections = String::new();
    let mut shown = 0;
    for d in &ordered {
        let row = format!(
            "| {} | {} | {} | {} | {} |\n",
            cell(&md(&clip(&d.id))),
            cell(&md(&clip(&d.title))),
            cited_cell(d),
            d.paths.len(),
            d.commits.len()
        );
        let section = review_section(d);
        if out.len() + rows.len() + row.len() + 1 + sections.len() + section.len() > room {
            break;
        }
        rows.push_str(&row);
        sections.push_str(&section);
        shown += 1;
    }
    out.push_str(&rows);
    out.push('\n');
    out.push_str(&sections);
    if shown < ordered.len() {
        let _ = writeln!(
            out,
            "And {} more: this comment holds what fits in one. `context-graph review --json` \
             lists every one.\n",
            plural(ordered.len() - shown, "decision", "decisions")
        );
    }
    out.push_str(&quiet_section(q));
    out.push_str(&super::rules::review_rules(q));
    out.push_str(&tail);
    out
}

/// `review`'s quiet commits: a summary line counting them by reason, then each (capped), so a
/// reader can check nothing relevant was dropped (docs/hooks.md). Empty when there are none.
fn quiet_section(q: &crate::model::ReviewQuery) -> String {
    let mut out = String::new();
    if q.quiet.is_empty() {
        return out;
    }
    let mut reasons: Vec<(crate::model::Quiet, usize)> = Vec::new();
    for c in &q.quiet {
        match reasons.iter_mut().find(|(r, _)| *r == c.reason) {
            Some((_, n)) => *n += 1,
            None => reasons.push((c.reason, 1)),
        }
    }
    reasons.sort();
    let counts: Vec<String> = reasons
        .iter()
        .map(|(r, n)| format!("{n} {}", r.says()))
        .collect();
    let _ = writeln!(
        out,
        "{} not counted as a reader would not want them warned about: {}.\n",
        plural(
            q.quiet.len(),
            "commit touching a decision was",
            "commits touching a decision were"
        ),
        counts.join("; ")
    );
    out.push_str("## Quiet commits\n\n");
    for c in q.quiet.iter().take(REVIEW_SHOWN) {
        let _ = writeln!(
            out,
            "- `{}` {}: {} ({}: {}{})",
            md(&c.sha),
            md(&clip(&c.author)),
            md(&clip(&c.subject)),
            md(&clip(&c.decision)),
            c.reason.says(),
            c.like
                .as_deref()
                .map(|f| format!(", {}", code(f)))
                .unwrap_or_default()
        );
    }
    if q.quiet.len() > REVIEW_SHOWN {
        let _ = writeln!(out, "- and {} more", q.quiet.len() - REVIEW_SHOWN);
    }
    out.push('\n');
    out
}

/// A decision's section in `review`: its record, the paths and commits, each list capped.
fn review_section(d: &crate::model::ReviewDecision) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## {}: {}{}\n",
        md(&clip(&d.id)),
        md(&clip(&d.title)),
        if d.cited { "" } else { " (not cited)" }
    );
    // The records of this id that govern what the range touched, not the first of the id.
    let records: Vec<String> = d.records.iter().map(|p| code(&clip(p))).collect();
    match records.len() {
        0 => {}
        1 => {
            let _ = writeln!(out, "- Record: {}", records[0]);
        }
        _ => {
            let _ = writeln!(out, "- Records: {}", records.join(", "));
        }
    }
    let more = |n: usize| {
        if n > REVIEW_SHOWN {
            format!(" and {} more", n - REVIEW_SHOWN)
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "- Paths touched: {}{}",
        d.paths
            .iter()
            .take(REVIEW_SHOWN)
            .map(|p| code(&clip(p)))
            .collect::<Vec<_>>()
            .join(", "),
        more(d.paths.len())
    );
    out.push_str("- Commits:\n");
    for c in d.commits.iter().take(REVIEW_SHOWN) {
        let repeat = d.repeats.iter().find(|r| r.sha == c.sha);
        let cites = match repeat {
            _ if c.cites_record == Some(true) => " (cites it)".to_string(),
            Some(r) => format!(" (again on its branch, first named in `{}`)", md(&r.first)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  - `{}` {} {}: {}{}",
            md(&c.sha),
            md(&c.date),
            md(&clip(&c.author)),
            md(&clip(&c.subject)),
            cites
        );
    }
    if d.commits.len() > REVIEW_SHOWN {
        let _ = writeln!(out, "  - and {} more", d.commits.len() - REVIEW_SHOWN);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
