//! Governed paths: gone or moved, and two current records governing the same path.

use super::Corpus;
use crate::model::{Finding, FindingCode, Record};
use std::collections::BTreeMap;

pub(super) fn governed_paths(r: &Record, out: &mut Vec<Finding>) {
    if !r.status.is_current() {
        return;
    }
    for m in &r.missing_paths {
        match r.moved.get(m) {
            Some(candidates) => out.push(Finding::new(
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
            )),
            None => out.push(Finding::new(
                FindingCode::GovernedPathGone,
                &r.id,
                &r.path,
                format!(
                    "{} names `{m}`, which is gone with no close-named sibling: deprecate the record if the decision died, or find where the code went",
                    r.id
                ),
            )),
        }
    }
}

fn related(a: &Record, b: &Record) -> bool {
    let names = |x: &Record, y: &Record| {
        x.supersedes.contains(&y.id) || x.amends.contains(&y.id) || x.superseded_by.contains(&y.id)
    };
    names(a, b) || names(b, a)
}

pub(super) fn overlapping_governance(c: &Corpus, out: &mut Vec<Finding>) {
    let mut by_entry: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in c.records.iter().filter(|r| r.status.is_current()) {
        for g in &r.governs {
            by_entry.entry(g.as_str()).or_default().push(r);
        }
    }
    let mut pairs: BTreeMap<(&str, &str), (&Record, Vec<&str>)> = BTreeMap::new();
    for (entry, group) in &by_entry {
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
