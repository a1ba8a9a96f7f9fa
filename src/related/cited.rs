//! `cited` evidence (docs/related.md): commits that changed PATH itself (not a sibling, not a
//! folder) whose message cites the record's id, each a focused commit: of at most
//! [`FOCUSED_FILES`] files (a grand refactoring citing five records in its description says
//! nothing of one of its three hundred files).

use super::introduced::FOCUSED_FILES;
use super::{Candidate, Weighed};
use crate::git::PathHistory;
use crate::model::Evidence;

/// The weight of citing commits from two on: [`ONE`], and what each one after the first adds,
/// up to [`MAX_EXTRA`] (two weigh 4).
pub const ONE: u32 = 3;
pub const EXTRA: u32 = 1;
pub const MAX_EXTRA: u32 = 2;
/// The weight of a single citing commit: it tells beside other evidence, not alone. Readers
/// judged 9 of the 13 related records shown for one citing commit alone wrong (a commit citing
/// one record in its description that also touched this file, `Move main menu items to A/B
/// test` for a DI factory).
pub const LONE: u32 = 1;

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
                weight: match commits {
                    1 => LONE,
                    n => ONE + (EXTRA * (n - 1)).min(MAX_EXTRA),
                },
            });
        }
    }
    out
}
