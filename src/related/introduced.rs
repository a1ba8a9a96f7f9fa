//! `introduced` evidence (docs/related.md): the commit that added the record's file changed
//! PATH too, and was focused: it changed at most [`FOCUSED_FILES`] files (a sweeping commit,
//! an import or a reformatting, says nothing about any one of its files) and added no other
//! record (a first commit or an import of the records is about none of them in particular).

use super::{Candidate, Weighed};
use crate::git::PathHistory;
use crate::model::Evidence;

/// A commit of more files than this is not focused.
pub const FOCUSED_FILES: usize = 36;
pub const WEIGHT: u32 = 2;

pub fn evidence(history: &PathHistory, candidates: &[Candidate], abbrev: usize) -> Vec<Weighed> {
    let mut out = Vec::new();
    for (at, c) in candidates.iter().enumerate() {
        let Some(added) = history.added.get(&c.path) else {
            continue;
        };
        let records_added = history
            .added
            .values()
            .filter(|a| a.sha == added.sha)
            .count();
        if added.with_path && added.files <= FOCUSED_FILES && records_added == 1 {
            out.push(Weighed {
                at,
                evidence: Evidence::Introduced {
                    commit: added.sha.abbrev(abbrev),
                },
                weight: WEIGHT,
            });
        }
    }
    out
}
