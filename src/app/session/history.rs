//! The history a report is told (ADR-0005, ADR-0011): whether a current record names a path
//! that is not there, whether the repository ever had it or keeps its code elsewhere, and the
//! commits, drift and notes `--git` adds.

use super::Session;
use crate::drift;
use crate::git::{self, Outcome, Repo};
use crate::model::Report;
use crate::text::marker::Markers;
use std::path::Path;

impl Session {
    /// Whether the repository's records are about code kept elsewhere (docs/reading.md, "Gone
    /// means it was there"): its record folders against the files git tracks, read when asked.
    pub(super) fn kept_elsewhere<'a>(&'a self, repo: Option<&'a Repo>) -> impl Fn() -> bool + 'a {
        move || {
            let Some(Ok(tracked)) = repo.map(git::tracked) else {
                return false;
            };
            let folders = crate::fs::discover::record_folders(&self.root, &self.opts.docs)
                .unwrap_or_default();
            crate::checks::code_kept_elsewhere(
                &folders,
                tracked.files.iter().map(|f| f.path.as_str()),
            )
        }
    }
}

/// Whether a current record of the report names a path that is not there (whose finding the
/// history decides: gone, or never had).
pub(super) fn names_missing_paths(report: &Report) -> bool {
    report
        .records
        .iter()
        .any(|r| r.status.is_current() && !r.missing_paths.is_empty())
}

/// Whether a current record of the report links code of this repository that is not there
/// (whose place the history may tell: `with_renames`).
pub(super) fn links_missing(report: &Report) -> bool {
    report
        .records
        .iter()
        .any(|r| r.status.is_current() && !r.missing_links.is_empty())
}

/// The paths current records name that are not there, each once.
pub(super) fn missing_paths(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .records
        .iter()
        .filter(|r| r.status.is_current())
        .flat_map(|r| r.missing_paths.iter().cloned())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The findings about missing paths, told by the history whether the repository ever had each,
/// and `kept_elsewhere` whether its records are about code kept elsewhere (asked only about a
/// path it never had).
pub(super) fn with_history(
    report: &mut Report,
    ever_had: &mut dyn FnMut(&str) -> bool,
    kept_elsewhere: &dyn Fn() -> bool,
) {
    crate::checks::with_history(&report.records, &mut report.findings, ever_had, &mut || {
        kept_elsewhere()
    });
}

pub(super) fn add_history(root: &Path, report: &mut Report, outcome: Outcome, markers: &Markers) {
    match outcome {
        Outcome::NotARepo => report.notes.push(match super::Error::object_format(root) {
            Some(unsupported) => format!("--git: {unsupported}: answered without history"),
            None => format!(
                "--git: {} is not in a git work tree, so there is no history to read",
                root.display()
            ),
        }),
        Outcome::NoCommits => report.notes.push(
            "--git: the repository has no commits yet, so there is no history to read".into(),
        ),
        Outcome::Ready(data) => {
            if data.shallow {
                report.notes.push(
                    "--git: this is a shallow clone: commits and drift count only the commits present"
                        .into(),
                );
            }
            drift::fill_declared(&mut report.records, &data, markers, &mut report.notes);
        }
    }
}

/// The findings about gone paths, told by the history where git renamed each (docs/reading.md,
/// "Renamed since"): `last_touch` gives the newest commit that touched a path (for a gone one,
/// the commit that deleted it), and a rename is followed through later ones to a path that is
/// there now. Asked only of the paths a current record names that are missing and that the
/// repository had: a tree diff of one commit each, never a walk.
pub(super) fn with_renames(
    root: &Path,
    repo: &Repo,
    report: &mut Report,
    last_touch: &mut dyn FnMut(&str) -> Option<[u8; 20]>,
) {
    let mut follow = |path: &str| -> Option<String> {
        let mut at = path.to_string();
        // A file renamed again and again: a few hops, each a commit that deleted the last name.
        for _ in 0..8 {
            let commit = last_touch(&at)?;
            let to = git::renamed_in(repo, commit, &at)?;
            let here = root.join(&to);
            if here.is_file() || here.is_dir() {
                return Some(to);
            }
            at = to;
        }
        None
    };
    let mut known: std::collections::HashMap<String, Option<String>> = Default::default();
    crate::checks::with_renames(&mut report.records, &mut report.findings, &mut |m| {
        known
            .entry(m.to_string())
            .or_insert_with(|| follow(m))
            .clone()
    });
}
