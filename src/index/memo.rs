//! The scan memo (ADR-0006): the last scan's report, before any query narrowed it and before
//! any history was added, stored with everything that scan depended on ([`Deps`]). While that
//! still holds, the report is the one a scan would make, and no graph is built.

use super::codec;
use super::files::Cached;
use super::schema::{MemoReportRef, RecordHeadRef, ScanMemo};
use super::schema::{KEY_SCAN_MEMO, META};
use super::{Index, IndexError};
use crate::model::Report;
use crate::scan::Deps;

use super::memo_of::MEMO_MADE_BY;

impl Cached {
    /// The stored scan's report, when everything it depended on still holds, the tracked
    /// paths included (`tracked`: the repository they are read from; `None` outside git): the
    /// same checksum of git's index, else the same digest of its paths. Those paths stand for
    /// the folders a memo no longer stats (ADR-0016): a new tracked guide anywhere changes
    /// them, as does the new file a code mention could name.
    pub fn memo_report(&self, tracked: Option<&crate::git::Repo>) -> Option<MemoHit<'_>> {
        let checked_ns = crate::util::now_ns();
        let (memo, report) = self.memo.as_ref()?;
        // Read in place: its few thousand strings are only compared and stat'ed (issue 41).
        let mut memo: ScanMemo<&str> = codec::decode_borrowed(memo).ok()?;
        if memo.made_by != MEMO_MADE_BY || memo.scope != self.scope {
            return None;
        }
        // The stamps first: after a commit, git's index is being read on another thread
        // (`Index::staged_job`), and the paths' check below waits for that reading, which
        // these few hundred stats now overlap (issue 17).
        // The named paths' folders before the paths: a folder as it was vouches for the paths
        // in it; the others' paths are stat'ed after their folder was.
        // A folder vouches for the paths in it that were not there only while git's index
        // is the one the scan read (a sparse checkout's paths, issue 41): its last 20 bytes.
        // Read once: the last 20 bytes of git's index (issue 41).
        let checksum = tracked.and_then(crate::git::index_checksum);
        let same_index = memo.names_checksum.is_some() && checksum == memo.names_checksum;
        // Rules read what the tracked files hold: any change to git's index may change them.
        if memo.rules && (!same_index || memo.names_checksum.is_none()) {
            return None;
        }
        let parents = memo
            .parents
            .check(self.dir(), memo.deps.observed.kinds.len(), same_index);
        if !memo
            .deps
            .still_holds_knowing(self.dir(), &parents.known, same_index)
        {
            return None;
        }
        let names = same_names(&memo, tracked, checksum, &self.names_file, self.keep_names)?;
        let report: MemoReportRef = codec::decode_borrowed(report).ok()?;
        if report.heads.len() != report.records.len() {
            return None;
        }
        // Stamps found holding by reading their content are kept as found now, so the next
        // check only stats them.
        let settled = memo.deps.settled_at(checked_ns);
        let restamped = memo.parents.settled_at(&parents, checked_ns);
        let settle = (settled.is_some() || restamped.is_some()).then(|| {
            if let Some(deps) = settled {
                memo.deps = deps;
                if let Some(checksum) = names {
                    memo.names_checksum = Some(checksum);
                }
            }
            if let Some(parents) = restamped {
                memo.parents = parents;
            }
            codec::encode(&memo)
        });
        Some(MemoHit {
            root: memo.scope.root,
            deps: Box::new(memo.deps),
            report,
            settle,
        })
    }
}

/// Whether the tracked paths are still those `memo` was made with (`now`: the checksum of
/// git's index now, `None` outside git or without one): `None` when not;
/// `Some(None)` when git's index has the same checksum; `Some(Some(checksum))` when the
/// paths are the same under a new checksum (a staged edit, a commit). That finding is kept in
/// the small file `names` (the checksum and the paths' digest, never synced), so the next
/// check under the same checksum reads 28 bytes rather than git's whole index.
fn same_names(
    memo: &ScanMemo<&str>,
    tracked: Option<&crate::git::Repo>,
    now: Option<[u8; 20]>,
    names: &std::path::Path,
    keep: bool,
) -> Option<Option<[u8; 20]>> {
    let Some(checksum) = now else {
        return (crate::scan::names_digest(tracked) == memo.names).then_some(None);
    };
    if Some(checksum) == memo.names_checksum {
        return Some(None);
    }
    let mut kept = checksum.to_vec();
    kept.extend_from_slice(&memo.names.to_le_bytes());
    if crate::fs::read::read_side_file(names).is_ok_and(|b| b == kept) {
        return Some(Some(checksum));
    }
    if crate::scan::names_digest(tracked) != memo.names {
        return None;
    }
    // Kept only when git's index still has the checksum read before the stamps: the paths
    // just read are then that index's.
    if keep && tracked.and_then(crate::git::index_checksum) == Some(checksum) {
        let tmp = names.with_extension(format!("names.{}", std::process::id()));
        let _ = crate::util::replace_file(names, &tmp, &kept);
    }
    Some(Some(checksum))
}

/// The stored report of a memo that holds, its records still encoded.
pub struct MemoHit<'a> {
    root: String,
    /// What the memo's report depended on, as found holding (boxed: it is large).
    deps: Box<Deps<&'a str>>,
    report: MemoReportRef<'a>,
    /// The memo as found holding now, to store in place of the old one, when storing it
    /// would spare the next check some reading ([`Index::settle_memo`]).
    settle: Option<Vec<u8>>,
}

impl MemoHit<'_> {
    /// The memo to store in place of the old one, if any (see [`Index::settle_memo`]).
    pub fn take_settled(&mut self) -> Option<Vec<u8>> {
        self.settle.take()
    }

    /// What the memo's report depended on, as found holding (its stamps as of this check when
    /// they were settled by it).
    pub fn deps(&self) -> Deps {
        // Read again owned: only the commit hook's table keeps it (ADR-0018).
        codec::decode(&codec::encode(&*self.deps)).expect("a memo's deps encode and decode")
    }

    /// What the records are picked by, in report order.
    pub fn heads(&self) -> &[RecordHeadRef<'_>] {
        &self.report.heads
    }

    /// The records' words for `why`'s `text` evidence, in [`MemoHit::heads`] order.
    pub fn vocabulary(&self) -> &[u8] {
        self.report.vocabulary
    }

    /// The report with the records whose id `keep` takes (decoded now) and every finding:
    /// the query narrows the findings as it would a scan's report.
    pub fn report(self, keep: impl Fn(&str) -> bool) -> Result<Report, codec::DecodeError> {
        let records = self
            .report
            .heads
            .iter()
            .zip(&self.report.records)
            .filter(|(head, _)| keep(head.id))
            .map(|(_, bytes)| codec::decode(bytes))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Report {
            root: self.root,
            records,
            docs: self.report.docs,
            findings: self.report.findings,
            notes: self.report.notes,
            query: None,
            rules: self.report.rules,
        })
    }
}

impl Index {
    /// Stores `memo` (from [`MemoHit::take_settled`]) in place of the scan memo it was found
    /// from: the same report, its stamps as of the check that found it holding. Its stamps
    /// being settled, the next check stats and reads nothing (a memo stored within 2 s of a
    /// change was otherwise read by its digests on every check, ADR-0016); its checksum of
    /// git's index being the current one, the next check does not read git's index.
    pub fn settle_memo(&mut self, memo: &[u8]) -> Result<(), IndexError> {
        let txn = self.write_txn()?;
        let path = self.path.clone();
        super::open::guarded(&path, || {
            {
                let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
                meta.insert(KEY_SCAN_MEMO, memo).map_err(|e| self.err(e))?;
            }
            txn.commit().map_err(|e| self.err(e))
        })
    }
}
