//! The scan memo (ADR-0006): the last scan's report, before any query narrowed it and before
//! any history was added, stored with everything that scan depended on ([`Deps`]). While that
//! still holds, the report is the one a scan would make, and no graph is built.

use super::codec;
use super::files::Cached;
use super::schema::{MemoReport, MemoReportRef, RecordHead, RecordHeadRef, ScanMemo, Scope};
use crate::model::Report;
use crate::scan::{Deps, Scan};

/// Which build wrote a scan memo: one written by another build (whose report may have other
/// fields) is not used.
const MEMO_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/memo-11");

impl Cached {
    /// The stored scan's report, when everything it depended on still holds, the tracked
    /// paths its code mentions were resolved against included (`tracked`: the repository they
    /// are read from; `None` when there are none): the same checksum of git's index, else the
    /// same digest of its paths.
    pub fn memo_report(&self, tracked: Option<&crate::git::Repo>) -> Option<MemoHit<'_>> {
        let (memo, report) = self.memo.as_ref()?;
        let memo: ScanMemo = codec::decode(memo).ok()?;
        if memo.made_by != MEMO_MADE_BY
            || !same_names(&memo, tracked)
            || memo.scope != self.scope
            || !memo.deps.still_holds(self.dir())
        {
            return None;
        }
        let report: MemoReportRef = codec::decode_borrowed(report).ok()?;
        (report.heads.len() == report.records.len()).then_some(MemoHit {
            root: memo.scope.root,
            report,
        })
    }
}

/// Whether the tracked paths are still those `memo`'s mentions were resolved against.
fn same_names(memo: &ScanMemo, tracked: Option<&crate::git::Repo>) -> bool {
    if let (Some(repo), Some(then)) = (tracked, memo.names_checksum) {
        if crate::git::index_checksum(repo) == Some(then) {
            return true;
        }
    }
    crate::scan::names_digest(tracked) == memo.names
}

/// The memo of `scan` for `scope`: `None` when it did not stamp everything it depended on, or
/// its report holds history (it never does straight from a scan).
pub(super) fn memo_of(scope: &Scope, scan: &Scan) -> Option<(Vec<u8>, Vec<u8>)> {
    let deps: &Deps = scan.deps.as_ref().filter(|d| d.complete())?;
    let report = &scan.report;
    if report.query.is_some()
        || report
            .records
            .iter()
            .any(|r| !r.commits.is_empty() || r.drift.is_some())
    {
        return None;
    }
    let memo = ScanMemo {
        made_by: MEMO_MADE_BY.to_string(),
        scope: scope.clone(),
        deps: deps.clone(),
        names: scan.names,
        names_checksum: scan.names_checksum,
    };
    let memo_report = MemoReport {
        heads: report
            .records
            .iter()
            .map(|r| RecordHead {
                id: r.id.clone(),
                status: r.status,
                governs: r.governs.clone(),
                code_mentions: r.code_mentions.clone(),
            })
            .collect(),
        records: report.records.iter().map(codec::encode).collect(),
        docs: report.docs.clone(),
        findings: report.findings.clone(),
        notes: report.notes.clone(),
    };
    Some((codec::encode(&memo), codec::encode(&memo_report)))
}

/// The stored report of a memo that holds, its records still encoded.
pub struct MemoHit<'a> {
    root: String,
    report: MemoReportRef<'a>,
}

impl MemoHit<'_> {
    /// What the records are picked by, in report order.
    pub fn heads(&self) -> &[RecordHeadRef<'_>] {
        &self.report.heads
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
        })
    }
}
