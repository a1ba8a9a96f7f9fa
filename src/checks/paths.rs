//! Governed paths: gone or moved, and two current records governing the same path.

use super::Corpus;
use crate::model::{Finding, FindingCode, Record, CODE_FIX, DOCUMENT_FIX};
use std::collections::{BTreeMap, HashMap, HashSet};

pub(super) fn governed_paths(r: &Record, out: &mut Vec<Finding>) {
    if !r.status.is_current() {
        return;
    }
    for m in &r.missing_paths {
        out.push(missing_path(r, m, true));
    }
}

/// The finding about `m`, a path the current record `r` names that is not there: gone, or moved
/// when a close-named sibling exists; when the history shows the repository never had it
/// (`ever_had` false, docs/reading.md "Gone means it was there"), unknown.
pub fn missing_path(r: &Record, m: &str, ever_had: bool) -> Finding {
    let moved = r.moved.get(m);
    let fix = missing_fix(m);
    if !ever_had {
        let close = moved
            .map(|c| {
                format!(
                    " (close names here: {})",
                    c.iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .unwrap_or_default();
        return Finding::new(
            FindingCode::GovernedPathUnknown,
            &r.id,
            &r.path,
            format!(
                "{} names `{m}`, which this repository has never had{close}: {fix}",
                r.id
            ),
        );
    }
    {
        match moved {
            Some(candidates) => Finding::new(
                FindingCode::GovernedPathMoved,
                &r.id,
                &r.path,
                format!(
                    "{} names `{m}`, which is gone; it may have moved to {}: update the path in the record",
                    r.id,
                    candidates
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            None => Finding::new(
                FindingCode::GovernedPathGone,
                &r.id,
                &r.path,
                format!(
                    "{} names `{m}`, which is gone with no close-named sibling: {fix}",
                    r.id
                ),
            ),
        }
    }
}

/// What to do about a missing path: for code, whether the decision died or the code went
/// elsewhere; a document the record points at (embvm-core links a guide renamed since, hyades
/// a design note never added) is a link to correct.
fn missing_fix(m: &str) -> &'static str {
    if is_document(m) {
        DOCUMENT_FIX
    } else {
        CODE_FIX
    }
}

/// A page rather than code: a documentation page ([`crate::text::path::is_page`]), or plain
/// text, HTML or PDF.
fn is_document(path: &str) -> bool {
    use crate::text::path::{extension, is_page};
    is_page(path)
        || extension(path).is_some_and(|e| matches!(e.as_str(), "txt" | "html" | "htm" | "pdf"))
}

/// The finding about `m`, a path the current record `r` names that git shows renamed to `to`
/// (a file that is there): moved, naming where it went (docs/reading.md, "Renamed since").
pub fn renamed_path(r: &Record, m: &str, to: &str) -> Finding {
    Finding::new(
        FindingCode::GovernedPathMoved,
        &r.id,
        &r.path,
        format!(
            "{} names `{m}`, which git shows renamed to `{to}`: update the path in the record",
            r.id
        ),
    )
}

/// Rewrites the findings about the paths current records name that are gone where the history
/// shows git renamed them (`renamed` gives the path each has now, if it has one): moved,
/// naming the new path, which becomes the record's `moved` entry for it. A renamed path does
/// not govern at its new name: the record still names the old one until it is updated.
pub fn with_renames(
    records: &mut [Record],
    findings: &mut Vec<Finding>,
    renamed: &mut dyn FnMut(&str) -> Option<String>,
) {
    let mut changed = false;
    for r in records.iter_mut().filter(|r| r.status.is_current()) {
        for m in r.missing_paths.clone() {
            let before = [missing_path(r, &m, true)];
            let Some(at) = findings.iter().position(|f| before.contains(f)) else {
                continue;
            };
            let Some(to) = renamed(&m) else {
                continue;
            };
            findings[at] = renamed_path(r, &m, &to);
            r.moved.insert(m, vec![to]);
            changed = true;
        }
        // A link into the forge's view of code that git shows renamed since: the same finding,
        // naming the link (a link to a file only deleted, or another repository's, says
        // nothing).
        for m in r.missing_links.clone() {
            let Some(to) = renamed(&m) else {
                continue;
            };
            findings.push(Finding::new(
                FindingCode::GovernedPathMoved,
                &r.id,
                &r.path,
                format!(
                    "{} links `{m}`, which git shows renamed to `{to}`: update the link in the record",
                    r.id
                ),
            ));
            r.moved.insert(m, vec![to]);
            changed = true;
        }
    }
    if changed {
        super::sort(findings);
    }
}

/// The records each record names as superseded, amending, superseding or related
/// (`relatesTo`), both ways: two records so linked have been read together already, and
/// governing the same path is by design.
fn links<'a>(c: &Corpus<'a>) -> HashMap<&'a str, HashSet<&'a str>> {
    let mut out: HashMap<&str, HashSet<&str>> = HashMap::new();
    for x in c.records.iter() {
        // Only links between records: a record may name thousands of unknown ids.
        let named = x
            .supersedes
            .iter()
            .chain(&x.amends)
            .chain(&x.superseded_by)
            .chain(&x.relates_to)
            .filter(|y| c.by_id.contains_key(y.as_str()));
        for y in named {
            out.entry(x.id.as_str()).or_default().insert(y.as_str());
            out.entry(y.as_str()).or_default().insert(x.id.as_str());
        }
    }
    out
}

/// The most current records that may name one file before it is common ground (a manifest, a
/// shared configuration file: `package.json` in twenty RFCs), not decisions in conflict. A
/// folder many records govern is still contested code, reported as one finding.
pub const OVERLAP_MAX: usize = 3;

/// Records that all declare their scope in adrkit's `affects:`: adrkit itself warns of an
/// `affects` overlap while a record is proposed (its rule `affects-overlap`), so an overlap
/// between current (accepted) ones was read and accepted with them, as their authors work
/// (docs/scope.md, ADR-0020). A record declaring `governs:` among them is still reported.
fn reviewed_by_adrkit(group: &[&Record]) -> bool {
    group
        .iter()
        .all(|r| r.declared_in.as_deref() == Some("affects"))
}

/// Current records governing the same entry where at least one of them is linked to none of
/// another: one finding for each set of such records, naming every entry they share. Linear
/// in the entries and their records (ADR-0011): 200 records governing one folder are one
/// finding naming them all, not 19,900 pairs.
pub(super) fn overlapping_governance(c: &Corpus, out: &mut Vec<Finding>) {
    let mut by_entry: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in c.records.iter().filter(|r| r.status.is_current()) {
        // A negation (`!pkg/gen/`, declared scope) governs nothing: it cannot overlap.
        for g in r.governs.iter().filter(|g| !g.starts_with('!')) {
            by_entry.entry(g.as_str()).or_default().push(r);
        }
    }
    let links = links(c);
    let none = HashSet::new();
    let mut sets: BTreeMap<Vec<&str>, (&Record, Vec<&str>)> = BTreeMap::new();
    for (entry, group) in by_entry
        .iter()
        .filter(|(e, g)| e.ends_with('/') || g.len() <= OVERLAP_MAX)
    {
        if group.len() < 2 || reviewed_by_adrkit(group) {
            continue;
        }
        let mut count: HashMap<&str, usize> = HashMap::new();
        for r in group {
            *count.entry(r.id.as_str()).or_default() += 1;
        }
        // A record overlaps when fewer than all the others share its id or are linked to it.
        let mut flagged: Vec<&Record> = group
            .iter()
            .copied()
            .filter(|r| {
                let id = r.id.as_str();
                let linked: usize = links
                    .get(id)
                    .unwrap_or(&none)
                    .iter()
                    .filter(|o| **o != id)
                    .map(|o| count.get(o).copied().unwrap_or(0))
                    .sum();
                count[id] - 1 + linked < group.len() - 1
            })
            .collect();
        flagged.sort_by(|a, b| a.id.cmp(&b.id));
        flagged.dedup_by(|a, b| a.id == b.id);
        if flagged.len() < 2 {
            continue;
        }
        let later = *flagged.last().expect("two at least");
        let ids: Vec<&str> = flagged.iter().map(|r| r.id.as_str()).collect();
        sets.entry(ids)
            .or_insert_with(|| (later, Vec::new()))
            .1
            .push(entry);
    }
    for (ids, (later, shared)) in sets {
        let shared = shared
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let message = match ids.as_slice() {
            [first, second] => format!(
                "{first} and {second} both govern {shared}, and neither supersedes nor amends the other: a person reads both and decides: supersede, amend, or narrow one's scope"
            ),
            [head @ .., last] => format!(
                "{} and {last} all govern {shared}, and not each supersedes or amends the others: a person reads them and decides: supersede, amend, or narrow their scopes",
                head.join(", ")
            ),
            [] => continue,
        };
        out.push(Finding::new(
            FindingCode::OverlappingGovernance,
            &later.id,
            &later.path,
            message,
        ));
    }
}
