//! Narrowing the full report to a question: `why PATH` (which decisions govern it) and
//! `record ID` (CONTRACT.md §3), decided from the records' ids, statuses and governed entries
//! alone, so a scan's records and the scan memo's stored heads are picked by the same code.

use super::error::{Error, Result};
use super::Ask;
use crate::governs::Scope;
use crate::index;
use crate::model::{Decision, Pickable, Query, Report};
use crate::text::ids;
use std::path::Path;

/// What a question keeps of the full report, decided from the records' ids, statuses and
/// governed entries alone: a scan's records or the scan memo's stored heads.
pub(super) enum Pick {
    All,
    Why(Vec<Decision>),
    Record(String),
}

impl Pick {
    /// What `ask` keeps of `records`, found under `root`.
    pub(super) fn of<R: Pickable>(
        records: &[R],
        ask: &Ask,
        why_path: Option<&str>,
        root: &Path,
    ) -> Result<Pick> {
        let mut files_under = |folder: &str| crate::fs::walk::files_under(root, folder);
        Ok(match ask {
            Ask::Check => Pick::All,
            Ask::Why(_) => Pick::Why(decisions_for(
                records,
                why_path.unwrap_or(""),
                &mut files_under,
            )),
            Ask::Record(input) => Pick::Record(find_id(records, input)?),
        })
    }

    pub(super) fn keeps(&self, id: &str) -> bool {
        match self {
            Pick::All => true,
            Pick::Why(decisions) => decisions.iter().any(|d| d.id == id),
            Pick::Record(found) => found == id,
        }
    }

    /// The answer from a report holding (at least) the records this keeps.
    pub(super) fn answer(self, report: Report, why_path: Option<&str>) -> Report {
        match self {
            Pick::All => report,
            Pick::Why(decisions) => why_decided(report, why_path.unwrap_or(""), decisions),
            Pick::Record(id) => record_found(report, id),
        }
    }
}

pub(super) fn narrow(
    report: Report,
    ask: &Ask,
    why_path: Option<&str>,
    root: &Path,
) -> Result<Report> {
    let pick = Pick::of(&report.records, ask, why_path, root)?;
    Ok(pick.answer(report, why_path))
}

/// [`narrow`] on the scan memo's report: the records are picked by their stored heads and only
/// those are decoded (the answer is the same).
pub(super) fn narrow_memo(
    memo: index::MemoHit<'_>,
    ask: &Ask,
    why_path: Option<&str>,
    root: &Path,
) -> Result<std::result::Result<Report, index::codec::DecodeError>> {
    let pick = Pick::of(memo.heads(), ask, why_path, root)?;
    Ok(memo
        .report(|id| pick.keeps(id))
        .map(|report| pick.answer(report, why_path)))
}

/// The decisions governing `path`: current ones first, then by id. `files_under(folder)` lists
/// the files under a folder, for a glob that governs something inside `path`.
pub fn decisions_for<R: Pickable>(
    records: &[R],
    path: &str,
    files_under: &mut dyn FnMut(&str) -> Vec<String>,
) -> Vec<Decision> {
    let mut listed: Option<Vec<String>> = None;
    let mut files =
        |folder: &str| -> Vec<String> { listed.get_or_insert_with(|| files_under(folder)).clone() };
    let mut out: Vec<Decision> = records
        .iter()
        .filter_map(|r| {
            let matches: Vec<String> = Scope::new(r.governs().collect::<Vec<_>>().iter().copied())
                .meets(path, &mut files)
                .into_iter()
                .map(str::to_string)
                .collect();
            (!matches.is_empty()).then(|| Decision {
                id: r.id().to_string(),
                status: r.status(),
                current: r.status().is_current(),
                matches,
                declared_by: None,
            })
        })
        .collect();
    out.sort_by(|a, b| (!a.current, &a.id).cmp(&(!b.current, &b.id)));
    out
}

/// Narrows a full report to the records `ids` and the findings about them.
fn keep_only(report: &mut Report, ids: &[String]) {
    report.records.retain(|r| ids.contains(&r.id));
    report.findings.retain(|f| ids.contains(&f.record));
}

/// `why PATH` (already root-relative) with its `decisions` already found by [`decisions_for`]
/// (from the same records): the report keeps their records and the findings about them.
pub fn why_decided(mut report: Report, path: &str, decisions: Vec<Decision>) -> Report {
    let ids: Vec<String> = decisions.iter().map(|d| d.id.clone()).collect();
    keep_only(&mut report, &ids);
    report.query = Some(Query::Why {
        why: path.to_string(),
        decisions,
    });
    report
}

/// The record an ID argument names: `ADR-0004`, `ADR-4`, `adr-4`, `ADR 4`, an exact
/// non-numbered id, or a bare number when exactly one record has it.
pub fn find_id<R: Pickable>(records: &[R], input: &str) -> Result<String> {
    let trimmed = input.trim();
    if let Some(id) = ids::normalise_query_id(trimmed) {
        if records.iter().any(|r| r.id() == id) {
            return Ok(id);
        }
        return Err(Error::UnknownRecord(input.to_string()));
    }
    if let Some(r) = records
        .iter()
        .find(|r| r.id().eq_ignore_ascii_case(trimmed))
    {
        return Ok(r.id().to_string());
    }
    let digits = trimmed.trim_start_matches('#');
    if let Ok(n) = digits.parse::<u64>() {
        let mut matching: Vec<&str> = records
            .iter()
            .filter(|r| ids::number_of(r.id()) == Some(n))
            .map(|r| r.id())
            .collect();
        matching.dedup();
        return match matching.as_slice() {
            [one] => Ok(one.to_string()),
            [] => Err(Error::UnknownRecord(input.to_string())),
            many => Err(Error::AmbiguousRecord {
                input: input.to_string(),
                number: n,
                count: many.len(),
                ids: many.join(", "),
            }),
        };
    }
    Err(Error::UnknownRecord(input.to_string()))
}

/// `record ID` with the id already found (by [`find_id`], from the same records).
pub fn record_found(mut report: Report, id: String) -> Report {
    keep_only(&mut report, std::slice::from_ref(&id));
    report.query = Some(Query::Record { record: id });
    report
}
