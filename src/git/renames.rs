//! Renames of record files: the `.md` files one commit deleted, paired with those it added
//! (ADR-0005).

use crate::text::ids;
use gix::ObjectId;

/// Pairs the `.md` files one commit deleted with those it added: by identical blob first, then
/// by identical file name in another folder, then by the same leading number in the file name
/// (`0003-a.md` → `0003-b.md`). Each file is paired at most once. `(from, to)`, by `to`.
pub(super) fn pair_renames(
    mut deleted: Vec<(String, ObjectId)>,
    mut added: Vec<(String, ObjectId)>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if deleted.is_empty() || added.is_empty() {
        return out;
    }
    deleted.sort();
    added.sort();
    let mut used_added = vec![false; added.len()];
    let mut used_deleted = vec![false; deleted.len()];
    type Same = fn(&(String, ObjectId), &(String, ObjectId)) -> bool;
    let rules: [Same; 3] = [
        |d, a| d.1 == a.1,
        |d, a| file_name(&d.0) == file_name(&a.0),
        |d, a| match (leading_number(&d.0), leading_number(&a.0)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    ];
    for rule in rules {
        for (di, d) in deleted.iter().enumerate() {
            if used_deleted[di] {
                continue;
            }
            if let Some(ai) = (0..added.len()).find(|&ai| !used_added[ai] && rule(d, &added[ai])) {
                used_deleted[di] = true;
                used_added[ai] = true;
                out.push((d.0.clone(), added[ai].0.clone()));
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The leading number of a file name, as a number (`0003-a.md` → 3).
fn leading_number(path: &str) -> Option<u64> {
    let name = file_name(path);
    let stem = crate::text::file_stem(name);
    ids::number_in_file_name(stem)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    #[test]
    fn renames_pair_by_blob_then_name_then_number() {
        let deleted = vec![
            ("docs/adr/0001-a.md".to_string(), oid(1)),
            ("docs/adr/0002-b.md".to_string(), oid(2)),
            ("docs/adr/0003-c.md".to_string(), oid(3)),
        ];
        let added = vec![
            ("docs/decisions/0002-b.md".to_string(), oid(9)),
            ("docs/adr/0003-renamed.md".to_string(), oid(8)),
            ("docs/adr/0001-x.md".to_string(), oid(1)),
        ];
        let got = pair_renames(deleted, added);
        let pairs: Vec<(&str, &str)> = got.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("docs/adr/0001-a.md", "docs/adr/0001-x.md"),
                ("docs/adr/0003-c.md", "docs/adr/0003-renamed.md"),
                ("docs/adr/0002-b.md", "docs/decisions/0002-b.md"),
            ]
        );
    }

    #[test]
    fn unrelated_md_files_are_not_renames() {
        let got = pair_renames(
            vec![("notes/a.md".into(), oid(1))],
            vec![("notes/b.md".into(), oid(2))],
        );
        assert!(got.is_empty());
    }
}
