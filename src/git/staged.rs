//! The staged changes of a commit in the making: HEAD's tree against the index git commits from,
//! read in process (CONTRACT.md §5, ADR-0008). Inside a commit hook that index is the one git
//! names in `GIT_INDEX_FILE` (`git commit -a` and `git commit PATH…` stage into a temporary one);
//! elsewhere it is the worktree's own (a linked worktree has its own).

use super::repo::Repo;
use super::HistoryError;
use crate::util::one_line;
use std::cmp::Ordering;
use std::path::Path;

/// The paths whose staged content differs from the tree of the commit `base` (HEAD's parent for
/// an amend, else HEAD; `None`, an unborn HEAD or a root commit's parent, is the empty tree):
/// added, modified (content or mode) and deleted files, relative to the root (paths outside it
/// dropped), sorted, each once. `index` is the index file to read (`None`: the one git uses
/// here, which honours `GIT_INDEX_FILE` in this process). A missing index stages nothing.
pub fn staged_paths(
    repo: &Repo,
    index: Option<&Path>,
    base: Option<[u8; 20]>,
) -> Result<Vec<String>, HistoryError> {
    let local = repo.gix();
    let path = index
        .map(Path::to_path_buf)
        .unwrap_or_else(|| local.index_path());
    let err = |what: &str, e: &dyn std::fmt::Display| {
        HistoryError::Staged(format!(
            "{what} {}: {}",
            path.display(),
            one_line(&e.to_string())
        ))
    };
    if !path.exists() {
        return Ok(Vec::new());
    }
    // The index's trailing checksum is git's to keep right: not hashing the whole file again
    // saves a pass over it.
    let staged = gix::index::File::at(&path, local.object_hash(), true, Default::default())
        .map_err(|e| err("cannot read the index", &e))?;
    let head_tree = match base {
        Some(head) => {
            let id = gix::ObjectId::from_bytes_or_panic(&head);
            let tree = local
                .find_commit(id)
                .and_then(|c| c.tree_id().map(|t| t.detach()))
                .map_err(|e| err("cannot read the tree to compare with", &e))?;
            Some(
                local
                    .index_from_tree(&tree)
                    .map_err(|e| err("cannot read the tree to compare with", &e))?,
            )
        }
        None => None,
    };

    let ours: Vec<(&[u8], &gix::index::Entry)> = staged
        .entries()
        .iter()
        .filter(|e| {
            !e.flags.intersects(
                gix::index::entry::Flags::INTENT_TO_ADD | gix::index::entry::Flags::REMOVE,
            )
        })
        .map(|e| (e.path(&staged).as_ref(), e))
        .collect();
    let theirs: Vec<(&[u8], &gix::index::Entry)> = head_tree
        .as_ref()
        .map(|t| {
            t.entries()
                .iter()
                .map(|e| (e.path(t).as_ref(), e))
                .collect()
        })
        .unwrap_or_default();

    let mut changed: Vec<&[u8]> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < theirs.len() {
        let order = match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) => a.0.cmp(b.0),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                changed.push(ours[i].0);
                i += 1;
            }
            Ordering::Greater => {
                changed.push(theirs[j].0);
                j += 1;
            }
            Ordering::Equal => {
                let (a, b) = (ours[i].1, theirs[j].1);
                // A conflicted path (stages 1-3) is a change; so is new content or a new mode.
                if a.stage() != gix::index::entry::Stage::Unconflicted
                    || a.id != b.id
                    || a.mode != b.mode
                {
                    changed.push(ours[i].0);
                }
                i += 1;
                j += 1;
            }
        }
    }
    // A sparse index keeps a folder outside the sparse cone as one entry: what is under it is
    // not staged by this commit (git cannot change it without expanding the folder first).
    let sparse: Vec<&[u8]> = ours
        .iter()
        .filter(|(_, e)| e.mode == gix::index::entry::Mode::DIR)
        .map(|(p, _)| *p)
        .collect();
    let prefix = repo.prefix.as_bytes();
    let mut out: Vec<String> = changed
        .into_iter()
        .filter(|p| !sparse.iter().any(|dir| p.starts_with(dir)))
        .filter_map(|p| p.strip_prefix(prefix))
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
