//! `coverage [--since DATE | --last N]` (docs/mentions.md, ADR-0017): of the non-merge commits
//! in a window of HEAD's history, the share that change code a current decision governs; the
//! folders whose ungoverned files changed most, with the records that mention them; and the
//! decisions whose governed code changed most without being cited.
//!
//! The window's commits come from the index brought up to date (each commit's changed files
//! as stored, no tree diff), or from a walk with `--no-index`; both feed [`count`], so the
//! answers are byte-identical. "Governed" is `hooks::governs_path` (the entries, through
//! `governs::Scope`, or a marker git's index declares), the rule the hooks, `review` and drift
//! share; "cited" is drift's: the commit's message mentions the id.

use super::error::{Error, Result};
use super::{Ask, Progress, Session};
use crate::git::{self, HistoryError, Repo};
use crate::governs::Scope;
use crate::hooks;
use crate::index::{self, Index, WindowCommit};
use crate::model::{
    Coverage, CoverageWindow, MentionedBy, Query, Record, Report, UncitedDecision,
    UngovernedFolder, MAX_LISTED,
};
use crate::text::date::{format_day, parse_date, utc_date, SECONDS_PER_DAY};
use crate::text::marker::Markers;
use std::collections::{BTreeSet, HashMap};

/// Which commits `coverage` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// The 12 months before HEAD's commit date: from the same day a year earlier, 00:00 UTC.
    Default,
    /// From this day (days since 1970-01-01, UTC) on.
    Since(i64),
    /// The newest N commits counted (canonical order: committer date, then sha).
    Last(usize),
}

/// How deep a folder of the ungoverned list goes: `src/auth/login/x.rs` counts for
/// `src/auth/`, `src/main.rs` for `src/`, and a file at the top level for itself.
pub const FOLDER_DEPTH: usize = 2;

/// An answered `coverage`.
#[derive(Debug, Clone)]
pub struct Covered {
    /// The usual document: `records` narrowed to the records the answer names, the findings
    /// about them, and `query` the coverage.
    pub report: Report,
    pub diagnostics: Vec<String>,
}

/// `coverage`.
pub fn coverage(session: &mut Session, window: Window, progress: Progress) -> Result<Covered> {
    let repo = session
        .repository()
        .cloned()
        .ok_or_else(|| Error::not_in_git(session.root()))?;
    let answer = session.answer(&Ask::Check, None)?;
    let mut diagnostics = answer.diagnostics;
    let mut report = answer.report;
    let head_time = match repo.head {
        Some(head) => Some(commit_time(&repo, head)?),
        None => None,
    };
    let since_day = match window {
        Window::Default => head_time.map(|t| year_before(t.div_euclid(SECONDS_PER_DAY))),
        Window::Since(day) => Some(day),
        Window::Last(_) => None,
    };
    let commits = match repo.head {
        Some(head) => {
            let since = since_day.map(|d| d * SECONDS_PER_DAY);
            history(session, &repo, head, since, progress, &mut diagnostics)?
        }
        None => {
            report.notes.push(
                "coverage: the repository has no commits yet, so there is nothing to count".into(),
            );
            (Vec::new(), Markers::default())
        }
    };
    if repo.shallow {
        report
            .notes
            .push("coverage: this is a shallow clone: only the commits present are counted".into());
    }
    let (commits, markers) = commits;
    let coverage = count(
        &report.records,
        &markers,
        commits,
        &repo.prefix,
        window,
        since_day,
        head_time,
    );
    let named: BTreeSet<&str> = coverage
        .uncited
        .iter()
        .map(|d| d.id.as_str())
        .chain(
            coverage
                .ungoverned
                .iter()
                .flat_map(|f| f.mentioned_by.iter().map(String::as_str)),
        )
        .collect();
    report.records.retain(|r| named.contains(r.id.as_str()));
    report
        .findings
        .retain(|f| named.contains(f.record.as_str()));
    report.query = Some(Query::Coverage { coverage });
    Ok(Covered {
        report,
        diagnostics,
    })
}

/// The window's non-merge commits (from `since`, seconds; all without) and what git's index
/// declares by markers: from the index brought up to date, else (`--no-index`, or the index
/// unusable) from a walk of the whole history.
fn history(
    session: &Session,
    repo: &Repo,
    head: [u8; 20],
    since: Option<i64>,
    progress: Progress,
    diagnostics: &mut Vec<String>,
) -> Result<(Vec<WindowCommit>, Markers)> {
    if !session.options().no_index {
        let path = index::path_for(repo);
        let wait = session.options().index_wait;
        let found = index::catch_damage(Some(&path), || -> Result<_, index::IndexError> {
            let mut idx = Index::open(repo.clone(), path.clone(), wait, index::Mode::Update)?;
            idx.refresh_history(progress, false)?;
            let markers = idx.staged_markers()?;
            let commits = idx.window_commits(since)?;
            let mut notes = Vec::new();
            if let Some(p) = idx.take_pending_write() {
                notes.extend(p.write().err());
            }
            idx.finish()?;
            notes.append(&mut idx.diagnostics);
            Ok((commits, markers, notes))
        });
        match found {
            Some(Ok((commits, markers, mut notes))) => {
                diagnostics.append(&mut notes);
                return Ok((commits, markers));
            }
            Some(Err(e)) => diagnostics.push(format!("{e}; answered from a scan")),
            None => diagnostics.push(format!(
                "the index {} failed while read (damaged); answered from a scan, and it is rebuilt next time",
                path.display()
            )),
        }
    }
    let walked = git::walk_new(repo, head, &|_| false, progress)?;
    let markers = crate::scan::staged_markers(repo, &crate::scan::NoCache).markers;
    let commits = walked
        .into_iter()
        .filter_map(WindowCommit::of)
        .filter(|c| since.is_none_or(|s| c.time >= s))
        .collect();
    Ok((commits, markers))
}

/// The committer time of `commit` (seconds since the epoch).
fn commit_time(repo: &Repo, commit: [u8; 20]) -> Result<i64> {
    let id = gix::ObjectId::from_bytes_or_panic(&commit);
    let err = |e: &dyn std::fmt::Display| HistoryError::Commit {
        sha: id.to_string(),
        message: crate::util::one_line(&e.to_string()),
    };
    let gix = repo.gix()?;
    let found = gix.find_commit(id).map_err(|e| err(&e))?;
    let committer = found.committer().map_err(|e| err(&e))?;
    Ok(committer.seconds())
}

/// The same day a year before `day` (days since 1970-01-01); 28 February for a 29th.
fn year_before(day: i64) -> i64 {
    let text = format_day(day);
    let (year, rest) = text.split_at(text.len() - 6);
    let year: i64 = year.parse().unwrap_or(1970) - 1;
    parse_date(&format!("{year:04}{rest}"))
        .or_else(|| parse_date(&format!("{year:04}-02-28")))
        .unwrap_or(day - 365)
}

/// The folder a changed file counts for in the ungoverned list ([`FOLDER_DEPTH`]).
pub fn folder_of(path: &str) -> &str {
    let mut end = 0;
    for (depth, (i, _)) in path.match_indices('/').enumerate() {
        if depth == FOLDER_DEPTH {
            break;
        }
        end = i + 1;
    }
    if end == 0 {
        path
    } else {
        &path[..end]
    }
}

/// The current records whose code mentions name the ungoverned `folder` (as [`folder_of`]
/// gives it): the folder itself, a folder above it, or a path that counts for it (a file in
/// it, or a folder in it no deeper than [`FOLDER_DEPTH`]), each by its first such mention, by id.
fn mentioning(current: &[(&Record, Scope)], folder: &str) -> Vec<MentionedBy> {
    let names = |m: &str| {
        let bare = m.trim_end_matches('/');
        folder_of(m) == folder
            || bare == folder.trim_end_matches('/')
            || (m.ends_with('/') && folder.starts_with(m))
    };
    let mut out: Vec<MentionedBy> = current
        .iter()
        .filter_map(|(r, _)| {
            let m = r.code_mentions.iter().find(|m| names(&m.path))?;
            Some(MentionedBy {
                id: r.id.clone(),
                status: r.status,
                term: m.term.clone(),
                line: m.line,
                path: m.path.clone(),
            })
        })
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

/// The coverage of `commits` (any order; paths relative to the work tree's top, `prefix` the
/// root's place in it) by the current records of `records`. Pure: the index and the walk give
/// the same commits, so the same answer.
pub fn count(
    records: &[Record],
    markers: &Markers,
    mut commits: Vec<WindowCommit>,
    prefix: &str,
    window: Window,
    since_day: Option<i64>,
    head_time: Option<i64>,
) -> Coverage {
    // The canonical order: newest first, ties by sha.
    commits.sort_unstable_by(|a, b| b.time.cmp(&a.time).then_with(|| a.id.cmp(&b.id)));
    let since = since_day.map(|d| d * SECONDS_PER_DAY);
    // The folders holding records: what changes there is the records, not code.
    let mut record_folders: Vec<String> = records
        .iter()
        .filter_map(|r| r.path.rsplit_once('/').map(|(f, _)| format!("{f}/")))
        .collect();
    record_folders.sort();
    record_folders.dedup();
    let current: Vec<(&Record, Scope)> = records
        .iter()
        .filter(|r| r.status.is_current())
        .map(|r| (r, Scope::new(&r.governs)))
        .collect();
    // Records sharing an id are one decision, counted from the earliest of their dates.
    let mut ids: Vec<&str> = current.iter().map(|(r, _)| r.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let decision = |id: &str| ids.binary_search(&id).unwrap_or(0) as u32;
    let mut from_day: Vec<Option<i64>> = vec![None; ids.len()];
    for (r, _) in &current {
        let day = r.date.as_deref().and_then(parse_date);
        let slot = &mut from_day[decision(&r.id) as usize];
        *slot = match (*slot, day) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    let from_day: Vec<Option<i64>> = from_day
        .into_iter()
        .map(|d| match (d, since_day) {
            (Some(d), Some(s)) => Some(d.max(s)),
            (d, s) => d.or(s),
        })
        .collect();

    // Root-relative path → the decisions governing it, worked out once per path.
    let mut governors: HashMap<String, Vec<u32>> = HashMap::new();
    let mut folders: HashMap<String, usize> = HashMap::new();
    let mut per_decision: Vec<(usize, usize)> = vec![(0, 0); ids.len()];
    let (mut counted, mut governed) = (0usize, 0usize);
    let mut oldest: Option<i64> = None;
    let mut touched: Vec<u32> = Vec::new();
    let mut ungoverned: Vec<&str> = Vec::new();
    for c in &commits {
        if since.is_some_and(|s| c.time < s) {
            break;
        }
        if matches!(window, Window::Last(n) if counted >= n) {
            break;
        }
        touched.clear();
        ungoverned.clear();
        let mut any_path = false;
        for path in &c.changes {
            let Some(rel) = crate::util::under_prefix_str(path, prefix) else {
                continue;
            };
            if record_folders.iter().any(|f| rel.starts_with(f.as_str())) {
                continue;
            }
            any_path = true;
            if !governors.contains_key(rel) {
                let found: Vec<u32> = current
                    .iter()
                    .filter(|(r, scope)| hooks::governs_path(r, scope, rel, markers))
                    .map(|(r, _)| decision(&r.id))
                    .collect();
                governors.insert(rel.to_string(), found);
            }
            let found = &governors[rel];
            if found.is_empty() {
                ungoverned.push(folder_of(rel));
            } else {
                touched.extend(found.iter().copied());
            }
        }
        if !any_path {
            continue;
        }
        counted += 1;
        oldest = Some(c.time);
        if !touched.is_empty() {
            governed += 1;
        }
        ungoverned.sort_unstable();
        ungoverned.dedup();
        for folder in &ungoverned {
            match folders.get_mut(*folder) {
                Some(n) => *n += 1,
                None => {
                    folders.insert(folder.to_string(), 1);
                }
            }
        }
        touched.sort_unstable();
        touched.dedup();
        for &d in &touched {
            let from = from_day[d as usize].map(|day| day * SECONDS_PER_DAY);
            if from.is_some_and(|f| c.time < f) {
                continue;
            }
            let counts = &mut per_decision[d as usize];
            counts.0 += 1;
            if !c.mentions.iter().any(|m| m == ids[d as usize]) {
                counts.1 += 1;
            }
        }
    }

    let mut hot: Vec<(String, usize)> = folders.into_iter().collect();
    hot.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    hot.truncate(MAX_LISTED);
    let ungoverned: Vec<UngovernedFolder> = hot
        .into_iter()
        .map(|(path, commits)| {
            let mentions = mentioning(&current, &path);
            UngovernedFolder {
                mentioned_by: mentions.iter().map(|m| m.id.clone()).collect(),
                path,
                commits,
                mentions,
            }
        })
        .collect();

    let mut uncited: Vec<UncitedDecision> = per_decision
        .iter()
        .enumerate()
        .filter(|(_, (_, not_citing))| *not_citing > 0)
        .map(|(d, &(commits, not_citing))| UncitedDecision {
            id: ids[d].to_string(),
            commits,
            not_citing,
            since: from_day[d].map(format_day),
        })
        .collect();
    uncited.sort_by(|a, b| {
        (b.not_citing, b.commits)
            .cmp(&(a.not_citing, a.commits))
            .then_with(|| a.id.cmp(&b.id))
    });
    uncited.truncate(MAX_LISTED);

    let share =
        (counted > 0).then(|| (governed as f64 / counted as f64 * 10_000.0).round() / 10_000.0);
    let (from, since) = match window {
        Window::Default => ("default", since_day.map(format_day)),
        Window::Since(day) => ("since", Some(format_day(day))),
        Window::Last(_) => ("last", oldest.map(utc_date)),
    };
    Coverage {
        window: CoverageWindow {
            from: from.to_string(),
            since,
            until: head_time.map(utc_date),
            last: match window {
                Window::Last(n) => Some(n),
                _ => None,
            },
        },
        commits: counted,
        governed_commits: governed,
        share,
        ungoverned,
        uncited,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_at_most_two_levels_and_a_top_level_file_is_itself() {
        assert_eq!(folder_of("src/auth/login/x.rs"), "src/auth/");
        assert_eq!(folder_of("src/auth/x.rs"), "src/auth/");
        assert_eq!(folder_of("src/main.rs"), "src/");
        assert_eq!(folder_of("Makefile"), "Makefile");
        assert_eq!(folder_of("src/auth/"), "src/auth/");
        assert_eq!(folder_of("src/auth/login/"), "src/auth/");
    }

    #[test]
    fn a_year_before_is_the_same_day_or_the_28th_of_february() {
        let day = |s: &str| parse_date(s).expect("a date");
        assert_eq!(format_day(year_before(day("2026-03-15"))), "2025-03-15");
        assert_eq!(format_day(year_before(day("2024-02-29"))), "2023-02-28");
        assert_eq!(format_day(year_before(day("2025-01-01"))), "2024-01-01");
    }
}
