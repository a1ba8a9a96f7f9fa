//! `why PATH`'s related records (docs/related.md, ADR-0017): what the pick found of them,
//! finished with the history: the index's tables, or a walk of the whole history for a fresh
//! scan; the same answer either way.

use super::super::error::Result;
use crate::git::{self, PathHistory, Repo};
use crate::model::{Query, Report};
use crate::related::Partial;

/// The related records' history from a walk of everything HEAD reaches (a fresh scan's);
/// `None` before the first commit.
pub(super) fn walked(repo: &Repo, partial: &Partial) -> Result<Option<PathHistory>> {
    let Some(head) = repo.head else {
        return Ok(None);
    };
    let commits = git::walk_new(repo, head, &|_| false, None)?;
    Ok(Some(PathHistory::of_walk(
        &commits,
        &repo.prefix,
        partial.path(),
        &partial.record_files(),
    )))
}

/// Puts the related records, ranked, into `why`'s answer.
pub(super) fn fill(report: &mut Report, partial: Partial, history: Option<&PathHistory>) {
    let abbrev = crate::drift::abbrev_len(history.map_or(0, |h| h.total_commits));
    if let Some(Query::Why { related, .. }) = &mut report.query {
        *related = partial.finish(history, abbrev);
    }
}
