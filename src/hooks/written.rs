//! Files the commit writes a decision for (docs/hooks.md, ADR-0008 as amended 2026-12-06): a
//! commit that adds a record, together with files that record governs, carries its own
//! decision for those files. Another decision that also governs them is not what the change
//! is about (adrkit's commit adding its record 30 tightens `scripts/check-deps.ts`, which its
//! record 18 also governs), so a file that only such decisions touch does not warn about the others
//! (`record_edit_covers`). A commit that edits an older record is not the same: an amendment
//! made beside a change (adrkit's ratifying its record 24 with a change to the marker scan
//! that its record 22 governs) leaves the other decisions as much at stake as before.

use crate::governs::Scope;
use crate::model::Record;
use crate::text::marker::Markers;

/// The changed paths of a commit (`changes`) that a record the commit adds governs, each with
/// that record's id, sorted. Only records of `records` whose file is among `changes` are asked
/// whether the commit `added` them.
pub fn written_paths(
    records: &[Record],
    changes: &[String],
    added: &mut dyn FnMut(&str) -> bool,
    markers: &Markers,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in records.iter().filter(|r| changes.contains(&r.path)) {
        if !added(&r.path) {
            continue;
        }
        let scope = Scope::new(&r.governs);
        for p in changes.iter().filter(|p| **p != r.path) {
            if super::governs_path(r, &scope, p, markers) {
                out.push((r.id.clone(), p.clone()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `path` is among `written` for a decision other than `id`.
pub fn written_by_other(written: &[(String, String)], id: &str, path: &str) -> bool {
    written.iter().any(|(w, p)| w != id && p == path)
}
