//! Files the commit writes a decision for (docs/hooks.md, ADR-0008 as amended 2026-12-06): a
//! commit that adds a record, together with files that record governs, carries its own
//! decision for those files. Another decision that also governs them is not what the change
//! is about (adrkit's commit adding its record 30 tightens `scripts/check-deps.ts`, which its
//! record 18 also governs), so a file that only such decisions touch does not warn about the others
//! (`record_edit_covers`). A commit that edits an older record is not the same: an amendment
//! made beside a change (adrkit's ratifying its record 24 with a change to the marker scan
//! that its record 22 governs) leaves the other decisions as much at stake as before.
//!
//! What a commit writes into records also cites (`record_edit_cites`): a record it adds, or
//! the lines it adds to one, naming a decision whose code the commit changes names that
//! decision, as its message would ([`written_cites`]).

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

/// The lines `new` holds that `old` does not (a line kept or moved is neither), in `new`'s
/// order, as one text: what a commit writes into a file (all of a file it adds).
pub fn lines_written(old: Option<&[u8]>, new: Option<&[u8]>) -> String {
    let lines = |b: Option<&[u8]>| -> Vec<String> {
        String::from_utf8_lossy(b.unwrap_or_default())
            .lines()
            .map(str::to_string)
            .collect()
    };
    let mut before: std::collections::HashMap<String, usize> = Default::default();
    for l in lines(old) {
        *before.entry(l).or_default() += 1;
    }
    let mut out = String::new();
    for l in lines(new) {
        match before.get_mut(&l) {
            Some(n) if *n > 0 => *n -= 1,
            _ => {
                out.push_str(&l);
                out.push('\n');
            }
        }
    }
    out
}

/// Whether `path` is a record file of one of the record `folders`: named like a record, in
/// the folder or below it.
pub fn is_record_file(path: &str, folders: &[String]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    folders.iter().any(|f| {
        path.strip_prefix(f.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
    }) && crate::fs::discover::is_record_name(name)
}

/// Whether what a commit writes into records other than `own` (`written`: each record file's
/// path with [`lines_written`] of it) cites the decision `id`: an author who writes, in the
/// same change, a record naming the decision has named it (docs/hooks.md, `record_edit_cites`;
/// adrkit's commits adding its records 21 to 26, each citing record 16 whose code they change).
pub fn written_cites(written: &[(String, String)], own: &str, id: &str) -> bool {
    written
        .iter()
        .any(|(path, text)| path != own && super::cites(text, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_lines_a_commit_writes_cite() {
        let old = b"# 5. Cache\n\nSee ADR-0002.\n".as_slice();
        let new = b"# 5. Cache\n\nSee ADR-0002.\nIt narrows ADR-0003.\n".as_slice();
        let wrote = vec![(
            "docs/adr/0005-cache.md".to_string(),
            lines_written(Some(old), Some(new)),
        )];
        assert!(written_cites(&wrote, "docs/adr/0003-x.md", "ADR-0003"));
        // Cited before the edit, not by it.
        assert!(!written_cites(&wrote, "docs/adr/0002-x.md", "ADR-0002"));
        // A record it adds is written whole.
        let added = vec![("docs/adr/0006-y.md".into(), lines_written(None, Some(old)))];
        assert!(written_cites(&added, "docs/adr/0002-x.md", "ADR-0002"));
        // The decision's own record is the other rule's.
        assert!(!written_cites(&wrote, "docs/adr/0005-cache.md", "ADR-0003"));
    }

    #[test]
    fn record_files_are_those_named_like_records_in_record_folders() {
        let folders = vec!["docs/adr".to_string()];
        assert!(is_record_file("docs/adr/0005-cache.md", &folders));
        assert!(is_record_file("docs/adr/accepted/0005-cache.md", &folders));
        assert!(!is_record_file("docs/adr/README.md", &folders));
        assert!(!is_record_file("docs/adrs/0005-cache.md", &folders));
        assert!(!is_record_file("src/0005-cache.md", &folders));
    }
}
