//! Governed paths: gone or moved, and two current records governing the same path.

use super::Corpus;
use crate::model::{Finding, FindingCode, Record};
use std::collections::BTreeMap;

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
/// (`ever_had` false, CONTRACT.md §8 "Gone means it was there"), unknown.
pub fn missing_path(r: &Record, m: &str, ever_had: bool) -> Finding {
    let moved = r.moved.get(m);
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
                "{} names `{m}`, which this repository has never had{close}: deprecate the record if the decision died, or find where the code went",
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
                    "{} names `{m}`, which is gone with no close-named sibling: deprecate the record if the decision died, or find where the code went",
                    r.id
                ),
            ),
        }
    }
}

/// Whether one of two records says it supersedes or amends the other, or names it as related in
/// its frontmatter (`relatesTo`): then someone has read both already, and governing the same
/// path is by design.
fn related(a: &Record, b: &Record) -> bool {
    let names = |x: &Record, y: &Record| {
        x.supersedes.contains(&y.id)
            || x.amends.contains(&y.id)
            || x.superseded_by.contains(&y.id)
            || x.relates_to.contains(&y.id)
    };
    names(a, b) || names(b, a)
}

/// The most current records that may govern one path for `overlapping-governance` to pair them.
pub const OVERLAP_MAX: usize = 3;

pub(super) fn overlapping_governance(c: &Corpus, out: &mut Vec<Finding>) {
    let mut by_entry: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in c.records.iter().filter(|r| r.status.is_current()) {
        // A negation (`!pkg/gen/`, declared scope) governs nothing: it cannot overlap.
        for g in r.governs.iter().filter(|g| !g.starts_with('!')) {
            by_entry.entry(g.as_str()).or_default().push(r);
        }
    }
    let mut pairs: BTreeMap<(&str, &str), (&Record, Vec<&str>)> = BTreeMap::new();
    // A path more than a few current records name (a manifest, a shared configuration file:
    // `package.json` in twenty RFCs) is common ground, not two decisions in conflict.
    for (entry, group) in by_entry.iter().filter(|(_, g)| g.len() <= OVERLAP_MAX) {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                if a.id == b.id || related(a, b) {
                    continue;
                }
                let (first, later) = if a.id <= b.id { (a, b) } else { (b, a) };
                pairs
                    .entry((first.id.as_str(), later.id.as_str()))
                    .or_insert_with(|| (later, Vec::new()))
                    .1
                    .push(entry);
            }
        }
    }
    for ((first, later_id), (later, shared)) in pairs {
        out.push(Finding::new(
                FindingCode::OverlappingGovernance,
                later_id,
            &later.path,
            format!(
                "{first} and {later_id} both govern {}, and neither supersedes nor amends the other: a person reads both and decides: supersede, amend, or narrow one's scope",
                shared
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}
