//! The scan memo made from a scan (ADR-0006): what the index keeps of the last scan's report
//! and of everything that scan depended on, for [`super::memo`] to find holding later.

use super::codec;
use super::schema::{MemoReport, RecordHead, ScanMemo, Scope};
use crate::scan::{Deps, Scan};

/// Which build wrote a scan memo: one written by another build (whose report may have other
/// fields) is not used.
pub(super) const MEMO_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/memo-73");

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
    let mut deps = deps.for_memo();
    let root = crate::fs::fingerprint::RootDir::open(std::path::Path::new(&scope.root));
    deps.stamp_named_ignores(&root);
    let parents = crate::scan::Parents::of(&deps.observed, &root, deps.started_ns);
    let memo = ScanMemo {
        made_by: MEMO_MADE_BY.to_string(),
        scope: scope.clone(),
        deps,
        names: scan.names,
        names_checksum: scan.names_checksum,
        parents,
        rules: scan.has_rules,
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
                title: r.title.clone(),
                path: r.path.clone(),
            })
            .collect(),
        records: report.records.iter().map(codec::encode).collect(),
        docs: report.docs.clone(),
        findings: report.findings.clone(),
        notes: report.notes.clone(),
        rules: report.rules.clone(),
        vocabulary: scan.vocabulary().to_vec(),
    };
    Some((codec::encode(&memo), codec::encode(&memo_report)))
}
