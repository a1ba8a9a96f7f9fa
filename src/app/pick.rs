//! Narrowing the full report to a question: `why PATH` (which decisions govern it) and
//! `record ID` (docs/reading.md), decided from the records' ids, statuses and governed entries
//! alone, so a scan's records and the scan memo's stored heads are picked by the same code.

use super::error::{Error, Result};
use super::Ask;
use crate::governs::Scope;
use crate::index;
use crate::model::{Decision, Declaration, MentionedBy, Pickable, Query, RecordOf, Report};
use crate::text::ids;
use crate::text::marker::{FileMarkers, Markers};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// What a question keeps of the full report, decided from the records' ids, statuses and
/// governed entries alone (and, for `why`, the markers in PATH): a scan's records or the scan
/// memo's stored heads.
pub(super) struct Pick {
    kind: PickKind,
    /// Every record's id: a marker naming another is dangling.
    known: HashSet<String>,
}

enum PickKind {
    All,
    Why(
        Vec<Decision>,
        Vec<MentionedBy>,
        crate::related::Partial,
        Option<RecordOf>,
    ),
    Record(String),
}

impl Pick {
    /// What `ask` keeps of `records`, found under `root`, with `markers` the markers of the
    /// source files the question is about (for `why PATH`, those in PATH). `related`: `why`'s
    /// related records are looked for, with the records' words (`related::vocabulary`) for
    /// the `text` evidence.
    pub(super) fn of<R: Pickable>(
        records: &[R],
        ask: &Ask,
        why_path: Option<&str>,
        root: &Path,
        markers: &Markers,
        related: Option<&[u8]>,
    ) -> Result<Pick> {
        let tracked = crate::scan::tracked_paths(root);
        let mut files_under = |folder: &str| {
            // A file of the work tree has no files under it: git's index is not read to list
            // them (issue 41).
            let file = !folder.is_empty()
                && std::fs::symlink_metadata(root.join(folder)).is_ok_and(|m| m.is_file());
            match file {
                true => Vec::new(),
                false => crate::fs::walk::files_under(root, folder, Some(&tracked)),
            }
        };
        let kind = match ask {
            Ask::Check => PickKind::All,
            Ask::Why(_) => {
                let path = why_path.unwrap_or("");
                let decisions = decisions_with_markers(records, path, &mut files_under, markers);
                let mentioned = mentioned_by(records, path, &decisions);
                // PATH's own text, for the comments that link a record (docs/related.md).
                let related = match related {
                    Some(vocabulary) => {
                        let text = (!path.trim_end_matches('/').is_empty())
                            .then(|| crate::fs::read::read_in_root(root, path).ok())
                            .flatten();
                        let vocabulary =
                            crate::related::Vocabulary::read(vocabulary, records.len());
                        crate::related::Partial::new(
                            records,
                            path,
                            &decisions,
                            text.as_deref(),
                            vocabulary.as_ref(),
                        )
                    }
                    None => crate::related::Partial::default(),
                };
                PickKind::Why(decisions, mentioned, related, record_of(records, path))
            }
            Ask::Record(input) => PickKind::Record(find_id(records, input)?),
        };
        Ok(Pick {
            kind,
            known: records.iter().map(|r| r.id().to_string()).collect(),
        })
    }

    pub(super) fn keeps(&self, id: &str) -> bool {
        match &self.kind {
            PickKind::All => true,
            PickKind::Why(decisions, ..) => decisions.iter().any(|d| d.id == id),
            PickKind::Record(found) => found == id,
        }
    }

    /// The answer from a report holding (at least) the records this keeps, and every record's
    /// id (for the markers' findings, [`marker_findings`]).
    pub(super) fn answer(self, report: Report, why_path: Option<&str>) -> (Report, Known) {
        let mut known = Known {
            ids: self.known,
            related: None,
        };
        let report = match self.kind {
            PickKind::All => report,
            PickKind::Why(decisions, mentioned, related, record) => {
                known.related = Some(related);
                let mut report = why_decided(report, why_path.unwrap_or(""), decisions);
                if let Some(Query::Why {
                    mentioned_by,
                    record_of,
                    ..
                }) = &mut report.query
                {
                    *mentioned_by = mentioned;
                    *record_of = record;
                }
                report
            }
            PickKind::Record(id) => record_found(report, id),
        };
        (report, known)
    }
}

/// Every record's id, as a question was picked from them; for `why PATH`, what its related
/// records need besides the history (docs/related.md).
pub(super) struct Known {
    ids: HashSet<String>,
    pub(super) related: Option<crate::related::Partial>,
}

/// Adds to an answer the findings about the markers the question is about: every marker for
/// the full check, those in PATH for `why PATH`, those naming the record for `record ID`
/// (docs/markers.md, ADR-0009). The report holds the records its question kept.
pub(super) fn marker_findings(
    report: &mut Report,
    ask: &Ask,
    why_path: Option<&str>,
    markers: &Markers,
    known: &Known,
) {
    let about = match (ask, &report.query) {
        (Ask::Why(_), _) => markers.narrowed(why_path.unwrap_or("")),
        (Ask::Record(_), Some(Query::Record { record, .. })) => naming(markers, record),
        _ => markers.clone(),
    };
    if about.is_empty() {
        return;
    }
    let found =
        crate::checks::marker_findings(&about, &report.records, &|id| known.ids.contains(id));
    report.findings.extend(found);
    crate::checks::sort(&mut report.findings);
}

/// Only the markers naming `id`.
fn naming(markers: &Markers, id: &str) -> Markers {
    Markers::new(
        markers
            .files
            .iter()
            .map(|f| FileMarkers {
                path: f.path.clone(),
                markers: f.markers.iter().filter(|m| m.id == id).cloned().collect(),
            })
            .collect(),
    )
}

/// Narrows `report` to `ask`; `markers` are those in PATH for `why PATH` (the decisions they
/// declare are picked too), and may be empty otherwise; `related` says whether `why`'s related
/// records are looked for (docs/related.md; not by the commit hook).
pub(super) fn narrow(
    scan: crate::scan::Scan,
    ask: &Ask,
    why_path: Option<&str>,
    root: &Path,
    markers: &Markers,
    related: bool,
) -> Result<(Report, Known)> {
    // The records' words, only when `why` compares them with PATH's text.
    let vocabulary: &[u8] = match (related, ask) {
        (true, Ask::Why(_)) => scan.vocabulary(),
        _ => &[],
    };
    let pick = Pick::of(
        &scan.report.records,
        ask,
        why_path,
        root,
        markers,
        related.then_some(vocabulary),
    )?;
    Ok(pick.answer(scan.report, why_path))
}

/// [`narrow`] on the scan memo's report: the records are picked by their stored heads and only
/// those are decoded (the answer is the same).
pub(super) fn narrow_memo(
    memo: index::MemoHit<'_>,
    ask: &Ask,
    why_path: Option<&str>,
    root: &Path,
    markers: &Markers,
    related: bool,
) -> Result<std::result::Result<(Report, Known), index::codec::DecodeError>> {
    let related = related.then(|| memo.vocabulary());
    let pick = Pick::of(memo.heads(), ask, why_path, root, markers, related)?;
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
    decisions_with_markers(records, path, files_under, &Markers::default())
}

/// [`decisions_for`], where a record is also listed when a marker in `path` (the file, or a
/// file under the folder) declares it, with `declared_by` naming each such file and line, apart
/// from the entries it `matches` (docs/reading.md, docs/markers.md). `markers` may hold files outside `path`:
/// only those in it count.
pub fn decisions_with_markers<R: Pickable>(
    records: &[R],
    path: &str,
    files_under: &mut dyn FnMut(&str) -> Vec<String>,
    markers: &Markers,
) -> Vec<Decision> {
    let mut declared: BTreeMap<&str, Vec<Declaration>> = BTreeMap::new();
    for f in markers.within(path) {
        for m in &f.markers {
            declared
                .entry(m.id.as_str())
                .or_default()
                .push(Declaration {
                    path: f.path.clone(),
                    line: m.line as usize,
                });
        }
    }
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
            let declared_by = declared.get(r.id()).map(|d| {
                let mut d = d.clone();
                d.sort();
                d
            });
            (!matches.is_empty() || declared_by.is_some()).then(|| Decision {
                id: r.id().to_string(),
                status: r.status(),
                current: r.status().is_current(),
                matches,
                declared_by,
            })
        })
        .collect();
    out.sort_by(|a, b| (!a.current, &a.id).cmp(&(!b.current, &b.id)));
    out
}

/// The records whose code mentions name `path`, a folder above it, or (`path` a folder) a
/// file in it, and which are not among its `decisions` (docs/mentions.md): each once, by its
/// first such mention; current records first, then by id. None for the root.
pub fn mentioned_by<R: Pickable>(
    records: &[R],
    path: &str,
    decisions: &[Decision],
) -> Vec<MentionedBy> {
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        return Vec::new();
    }
    let names = |m: &str| {
        let bare = m.trim_end_matches('/');
        bare == path
            || (m.ends_with('/') && path.starts_with(m))
            || bare
                .strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    let mut out: Vec<MentionedBy> = records
        .iter()
        .filter(|r| !decisions.iter().any(|d| d.id == r.id()))
        .filter_map(|r| {
            let m = r.code_mentions().find(|m| names(m.path))?;
            Some(MentionedBy {
                id: r.id().to_string(),
                status: r.status(),
                term: m.term.to_string(),
                line: m.line,
                path: m.path.to_string(),
            })
        })
        .collect();
    out.sort_by(|a, b| (!a.status.is_current(), &a.id).cmp(&(!b.status.is_current(), &b.id)));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

/// The record whose own file `path` is, if any: `why` on a record's file names the decision it
/// is (docs/related.md).
fn record_of<R: Pickable>(records: &[R], path: &str) -> Option<RecordOf> {
    let r = records.iter().find(|r| r.path() == path)?;
    Some(RecordOf {
        id: r.id().to_string(),
        title: r.title().to_string(),
        status: r.status(),
    })
}

/// Narrows a full report to the records `ids`, the findings about them and the guides citing
/// them.
fn keep_only(report: &mut Report, ids: &[String]) {
    report.records.retain(|r| ids.contains(&r.id));
    report.findings.retain(|f| ids.contains(&f.record));
    // The guides citing a kept record, naming those only: a guide citing another record is
    // not part of this answer (docs/reading.md).
    for guide in &mut report.docs {
        guide.cites.retain(|id| ids.contains(id));
    }
    report.docs.retain(|guide| !guide.cites.is_empty());
}

/// `why PATH` (already root-relative) with its `decisions` already found by [`decisions_for`]
/// (from the same records): the report keeps their records and the findings about them.
pub fn why_decided(mut report: Report, path: &str, decisions: Vec<Decision>) -> Report {
    let ids: Vec<String> = decisions.iter().map(|d| d.id.clone()).collect();
    keep_only(&mut report, &ids);
    report.query = Some(Query::Why {
        why: path.to_string(),
        decisions,
        mentioned_by: Vec::new(),
        related: Vec::new(),
        rules: super::rules::for_path(&report.rules, path),
        record_of: None,
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
        return Err(super::near::unknown_record(records, input));
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
            [] => Err(super::near::unknown_record(records, input)),
            many => Err(Error::AmbiguousRecord {
                input: input.to_string(),
                number: n,
                count: many.len(),
                ids: many.join(", "),
            }),
        };
    }
    Err(super::near::unknown_record(records, input))
}

/// `record ID` with the id already found (by [`find_id`], from the same records).
pub fn record_found(mut report: Report, id: String) -> Report {
    keep_only(&mut report, std::slice::from_ref(&id));
    let rules = super::rules::of_record(&report.rules, &id);
    report.query = Some(Query::Record { record: id, rules });
    report
}
