//! `introduced` evidence (docs/related.md): the commit that added the record's file changed
//! PATH too, and was focused: it changed at most [`FOCUSED_FILES`] files (a sweeping commit,
//! an import or a reformatting, says nothing about any one of its files), added no other
//! record (a first commit or an import of the records is about none of them in particular),
//! and PATH was a part of it: at least [`PATH_SHARE_PER_MILLE`] thousandths of the bytes its
//! files grew or shrank by (a line added to `package.json` beside a new module says nothing
//! of `package.json`).

use super::{Candidate, Weighed};
use crate::git::PathHistory;
pub use crate::git::FOCUSED_FILES;
use crate::model::Evidence;

pub const WEIGHT: u32 = 2;
/// The weight when the record names code of its own ([`Candidate::names_code`]): it has said
/// where it applies, and a file its first commit also changed, unnamed, tells only beside
/// other evidence. On a new reader's verdicts of ten repositories no rule had seen, 6 of the
/// 10 wrong related records this evidence alone put there were such (cisagov/manage.get.gov's
/// state-machine record for `settings.py` and `models/user.py`), and none of the 4 right ones.
pub const WEIGHT_NAMING: u32 = 1;
/// PATH's least part of the bytes the commit changed, in thousandths: on the readers' verdicts
/// of eight sets of blind pairs, at 2 (0.2%) ten of the 18 wrong related records that had
/// this evidence alone lose it (a commit adding a record beside a line in `package.json`,
/// `__init__.py` or `tsconfig.json`), and none of the 18 right ones does; at 5, three more
/// wrong ones and one right one.
pub const PATH_SHARE_PER_MILLE: u64 = 2;

/// Whether PATH's bytes were a part of the commit's, when its sizes were kept.
fn a_part(path_bytes: Option<(u64, u64)>) -> bool {
    path_bytes.is_none_or(|(mine, all)| mine * 1000 >= all * PATH_SHARE_PER_MILLE)
}

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
        if added.with_path
            && added.files <= FOCUSED_FILES
            && records_added == 1
            && a_part(added.path_bytes)
        {
            out.push(Weighed {
                at,
                evidence: Evidence::Introduced {
                    commit: added.sha.abbrev(abbrev),
                },
                weight: if c.names_code { WEIGHT_NAMING } else { WEIGHT },
            });
        }
    }
    out
}
