//! Where git shows a path went: the file a commit that deleted it added in its place, with
//! at least half its content (git's default rename threshold), read through gix, never by
//! running git (issue 36, ADR-0005's amendment of 2026-12-05).

use super::Repo;
use gix::ObjectId;
use std::collections::HashMap;

/// Git's default rename threshold: the new file keeps at least half of the old one.
pub const SIMILAR_PERCENT: u64 = 50;

/// At most this many files a commit added are weighed as where one file went: a commit that
/// adds more (a vendored tree, a generated bundle) is a move of many, not a rename of one.
const MOST_ADDED: usize = 2000;

/// Files larger than this are not compared line by line (git's own limit is of the same
/// order): only an identical blob names them.
const LARGEST_COMPARED: usize = 1 << 20;

/// The file, root-relative, that `commit` (by its id) renamed the root-relative `path` to:
/// `path` is in its first parent's tree and not in its own, and of the files it added, the one
/// most like the old content, at [`SIMILAR_PERCENT`] or more (an identical blob first).
/// `None` for anything else: not that commit's deletion, no parent, no file alike, an object
/// that cannot be read.
pub fn renamed_in(repo: &Repo, commit: [u8; 20], path: &str) -> Option<String> {
    let g = repo.gix().ok()?;
    let full = format!("{}{path}", repo.prefix);
    let commit = g.find_commit(ObjectId::from_bytes_or_panic(&commit)).ok()?;
    let parent = commit.parent_ids().next()?.detach();
    let new_tree = commit.tree_id().ok()?.detach();
    let old_tree = g.find_commit(parent).ok()?.tree_id().ok()?.detach();
    if entry_at(&g, new_tree, &full).is_some() || tree_at(&g, new_tree, &full).is_some() {
        return None;
    }
    // A folder: the same tree, whole, where the commit put it (`terraform/management` renamed
    // `terraform/meta`, FAC's "Rename management to meta").
    if let Some(old_folder) = tree_at(&g, old_tree, &full) {
        let to = moved_tree(&g, Some(old_tree), new_tree, "", old_folder)
            .or_else(|| moved_mostly(&g, old_tree, new_tree, old_folder))?;
        return to.strip_prefix(repo.prefix.as_str()).map(str::to_string);
    }
    let old_blob = entry_at(&g, old_tree, &full)?;
    let mut added = Vec::new();
    added_files(&g, Some(old_tree), new_tree, "", &mut added)?;
    let old = g.find_blob(old_blob).ok()?.detach().data;
    let mut best: Option<(u64, String)> = None;
    for (to, blob) in added {
        let score = if blob == old_blob {
            100
        } else {
            let Ok(new) = g.find_blob(blob) else {
                continue;
            };
            similarity(&old, &new.data)
        };
        if score >= SIMILAR_PERCENT && best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, to));
        }
    }
    let (_, to) = best?;
    to.strip_prefix(repo.prefix.as_str()).map(str::to_string)
}

/// The blob at `path` (work-tree-relative) in a tree, if a file is there.
fn entry_at(g: &gix::Repository, tree: ObjectId, path: &str) -> Option<ObjectId> {
    let entry = g.find_tree(tree).ok()?.lookup_entry_by_path(path).ok()??;
    entry.mode().is_blob().then(|| entry.id().detach())
}

/// The tree at `path` (work-tree-relative) in a tree, if a folder is there.
fn tree_at(g: &gix::Repository, tree: ObjectId, path: &str) -> Option<ObjectId> {
    let entry = g.find_tree(tree).ok()?.lookup_entry_by_path(path).ok()??;
    entry.mode().is_tree().then(|| entry.id().detach())
}

/// Where in `new` the tree `wanted` is that `old` (the same folder a commit before, if it
/// had it) did not have there: the folder a commit moved whole. Subtrees with the same id
/// are skipped whole; `None` when there is none, or a tree cannot be read.
fn moved_tree(
    g: &gix::Repository,
    old: Option<ObjectId>,
    new: ObjectId,
    at: &str,
    wanted: ObjectId,
) -> Option<String> {
    let old_entries = entries_of(g, old)?;
    let tree = g.find_tree(new).ok()?;
    let decoded = tree.decode().ok()?;
    for e in decoded.entries.iter().filter(|e| e.mode.is_tree()) {
        let before = old_entries
            .get(e.filename.as_ref() as &[u8])
            .filter(|(tree, _)| *tree)
            .map(|(_, id)| id);
        if before == Some(&e.oid.to_owned()) {
            continue;
        }
        let path = format!("{at}{}", String::from_utf8_lossy(e.filename));
        if e.oid == wanted && before.is_none() {
            return Some(path);
        }
        if let Some(found) = moved_tree(
            g,
            before.copied(),
            e.oid.to_owned(),
            &format!("{path}/"),
            wanted,
        ) {
            return Some(found);
        }
    }
    None
}

/// Where a folder went that was not moved whole (git-en-boite's `packages/command-bus`, renamed
/// `packages/message-dispatch` with its `package.json` edited on the way): the folder under
/// which the commit added more than half of its files, each at its path inside the folder and
/// keeping at least half its content ([`SIMILAR_PERCENT`]). A folder split in two halves
/// (content-publisher's `app/interactors/documents`) went nowhere in particular.
fn moved_mostly(
    g: &gix::Repository,
    old_tree: ObjectId,
    new_tree: ObjectId,
    old_folder: ObjectId,
) -> Option<String> {
    let mut files = Vec::new();
    added_files(g, None, old_folder, "", &mut files)?;
    let mut added = Vec::new();
    added_files(g, Some(old_tree), new_tree, "", &mut added)?;
    let mut by_folder: HashMap<&str, usize> = HashMap::new();
    for (rel, blob) in &files {
        let suffix = format!("/{rel}");
        for (path, new) in added.iter().filter(|(p, _)| p.ends_with(&suffix)) {
            if new == blob || alike(g, *blob, *new) {
                *by_folder
                    .entry(&path[..path.len() - suffix.len()])
                    .or_default() += 1;
            }
        }
    }
    let (folder, n) = by_folder
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    (2 * n > files.len()).then(|| folder.to_string())
}

/// Whether the blob `new` keeps at least [`SIMILAR_PERCENT`] of the blob `old`.
fn alike(g: &gix::Repository, old: ObjectId, new: ObjectId) -> bool {
    let (Ok(old), Ok(new)) = (g.find_blob(old), g.find_blob(new)) else {
        return false;
    };
    similarity(&old.data, &new.data) >= SIMILAR_PERCENT
}

/// The entries of the tree `old` by name, each whether it is a tree and its id; none without
/// one. `None` when it cannot be read.
fn entries_of(
    g: &gix::Repository,
    old: Option<ObjectId>,
) -> Option<HashMap<Vec<u8>, (bool, ObjectId)>> {
    let Some(id) = old else {
        return Some(HashMap::new());
    };
    let tree = g.find_tree(id).ok()?;
    let decoded = tree.decode().ok()?;
    Some(
        decoded
            .entries
            .iter()
            .map(|e| (e.filename.to_vec(), (e.mode.is_tree(), e.oid.to_owned())))
            .collect(),
    )
}

/// The files in `new` that `old` (the same folder a commit before, if it had it) has not at
/// their path: `(path, blob)`, work-tree-relative. Subtrees with the same id are skipped
/// whole. `None` past [`MOST_ADDED`] or when a tree cannot be read.
fn added_files(
    g: &gix::Repository,
    old: Option<ObjectId>,
    new: ObjectId,
    at: &str,
    out: &mut Vec<(String, ObjectId)>,
) -> Option<()> {
    let old_entries = entries_of(g, old)?;
    let tree = g.find_tree(new).ok()?;
    let decoded = tree.decode().ok()?;
    for e in &decoded.entries {
        let name = String::from_utf8_lossy(e.filename);
        let path = format!("{at}{name}");
        let before = old_entries.get(e.filename.as_ref() as &[u8]);
        if before.is_some_and(|(_, id)| *id == e.oid) {
            continue;
        }
        if e.mode.is_tree() {
            let old_sub = before.filter(|(tree, _)| *tree).map(|(_, id)| *id);
            added_files(g, old_sub, e.oid.to_owned(), &format!("{path}/"), out)?;
        } else if e.mode.is_blob() && before.is_none_or(|(tree, _)| *tree) {
            out.push((path, e.oid.to_owned()));
            if out.len() > MOST_ADDED {
                return None;
            }
        }
    }
    Some(())
}

/// How much of `old` `new` keeps, in percent of the larger: the bytes of the lines they share
/// (each line counted as often as both have it), as git's score counts the bytes copied.
pub fn similarity(old: &[u8], new: &[u8]) -> u64 {
    let larger = old.len().max(new.len());
    if larger == 0 {
        return 100;
    }
    if larger > LARGEST_COMPARED {
        return 0;
    }
    let mut lines: HashMap<&[u8], usize> = HashMap::new();
    for l in old.split_inclusive(|b| *b == b'\n') {
        *lines.entry(l).or_default() += 1;
    }
    let mut shared = 0usize;
    for l in new.split_inclusive(|b| *b == b'\n') {
        if let Some(n) = lines.get_mut(l).filter(|n| **n > 0) {
            *n -= 1;
            shared += l.len();
        }
    }
    (shared * 100 / larger) as u64
}

#[cfg(test)]
mod tests {
    use super::similarity;

    #[test]
    fn similarity_counts_the_bytes_of_shared_lines_against_the_larger() {
        assert_eq!(similarity(b"a\nb\nc\nd\n", b"a\nb\nc\nd\n"), 100);
        assert_eq!(similarity(b"a\nb\nc\nd\n", b"a\nb\nx\ny\n"), 50);
        assert_eq!(similarity(b"a\nb\n", b"a\nb\nc\nd\ne\nf\n"), 33);
        assert_eq!(
            similarity(b"a\na\n", b"a\nb\n"),
            50,
            "each line as often as both have it"
        );
        assert_eq!(similarity(b"", b""), 100);
    }
}
