//! `cited` evidence (docs/related.md): commits that changed PATH itself (not a sibling, not a
//! folder) whose message cites the record's id, each a focused commit: of at most
//! [`FOCUSED_FILES`] files (a grand refactoring citing five records in its description says
//! nothing of one of its three hundred files).

use super::introduced::FOCUSED_FILES;
use super::{Candidate, Weighed};
use crate::git::PathHistory;
use crate::model::Evidence;

/// The weight of one citing commit, and what each further one adds, up to [`MAX_EXTRA`].
pub const ONE: u32 = 3;
pub const EXTRA: u32 = 1;
pub const MAX_EXTRA: u32 = 2;

pub fn evidence(history: &PathHistory, candidates: &[Candidate]) -> Vec<Weighed> {
    let mut out = Vec::new();
    for (at, c) in candidates.iter().enumerate() {
        let commits = history
            .touching
            .iter()
            .filter(|t| t.files <= FOCUSED_FILES && t.meta.mentions.contains(&c.id))
            .count() as u32;
        if commits > 0 {
            out.push(Weighed {
                at,
                evidence: Evidence::Cited { commits },
                weight: ONE + (EXTRA * (commits - 1)).min(MAX_EXTRA),
            });
        }
    }
    out
}
