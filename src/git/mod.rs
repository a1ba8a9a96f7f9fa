//! Git history, read in process with gix (never the `git` binary): the repository around a
//! root ([`open`]), the files its index tracks ([`tracked`]), the walk of new commits
//! ([`walk_new`]) and their diffs, and the plain data drift is computed from ([`from_walk`], [`HistoryData`]); [`load`] is the three in a row over
//! the whole history. The index keeps [`WalkedCommit`]s and builds a sparse [`HistoryData`]
//! from them (ADR-0005).

mod cmdline;
mod commits;
mod data;
mod diff;
mod differ;
mod find_id;
// The repository found without gix on the warm path (ADR-0016).
mod index_raw;
mod light;
mod loose;
// Where git shows a path went (issue 36).
mod moved;
// A few packed objects read without gix (a commit hook's; issue 41).
mod packed;
mod packs;
mod path_history;
mod path_list;
mod range;
mod renames;
mod repo;
mod ring;
mod sparse;
mod staged;
mod state;
// The diffs of a long walk, beside it (issue 41).
mod stream;
#[cfg(test)]
mod testing;
mod tracked;
mod walk;

pub use commits::TreeReader;
pub use data::{
    canonical_order, sha_hex, CommitMeta, HistoryData, Outcome, Rename, Sha, WalkedCommit,
};
pub use moved::renamed_in;
pub use path_history::{
    may_be_record, names_of, path_bytes, sizes_told, Added, PathHistory, Touching, FOCUSED_FILES,
};
pub use path_list::PathList;
pub use range::{walk_branch, walk_range, Branch, RangeCommit};
pub use repo::{open, unreadable_format, Repo};
pub use sparse::NotCheckedOut;
pub use staged::{staged_changes, staged_paths, staged_with_index, StagedIndex, StagedPath};
pub use state::{HooksDir, InProgress};
pub use tracked::{
    blob_id, home_name, index_checksum, tracked, tracked_decoded, tracked_within, BlobReader,
    IndexStat, Tracked, TrackedFile,
};
pub use walk::walk_new;

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Why the history could not be read. Messages are one line and name what failed.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot read the root {path}: {message}")]
    Root { path: PathBuf, message: String },
    #[error("cannot open the git repository around {path}: {message}")]
    Open { path: PathBuf, message: String },
    #[error("cannot resolve HEAD: {0}")]
    Head(String),
    #[error("cannot read commit {sha}: {message}")]
    Commit { sha: String, message: String },
    #[error("cannot diff commit {sha}: {message}")]
    Diff { sha: String, message: String },
    #[error("cannot read git's index: {0}")]
    GitIndex(String),
    #[error("a history thread failed: {0}")]
    Thread(String),
    /// The staged changes could not be read (ADR-0008).
    #[error("{0}")]
    Staged(String),
    /// A revision or range that does not resolve (ADR-0008).
    #[error("{0}")]
    Range(String),
}

/// Walks HEAD's whole history of `repo` (opened at a root that may be a subfolder of the work
/// tree; every path in the result is relative to it, and paths outside it are dropped):
/// [`walk_new`] from HEAD with nothing known, then [`from_walk`].
pub fn load(repo: &Repo) -> Result<Outcome, HistoryError> {
    let Some(head) = repo.head else {
        return Ok(Outcome::NoCommits);
    };
    let commits = walk_new(repo, head, &|_| false, None)?;
    Ok(Outcome::Ready(from_walk(repo, commits)))
}

/// [`open`] then [`load`]: the whole history of the repository around `root`, or why there is
/// none.
pub fn load_at(root: &std::path::Path) -> Result<Outcome, HistoryError> {
    match open(root)? {
        Some(repo) => load(&repo),
        None => Ok(Outcome::NotARepo),
    }
}

/// The history data of the root `repo` was opened at, from walked commits: only paths under the
/// root are kept (relative to it), commits are put in canonical order, and `total_commits` is
/// how many were given. For a sparse set (the index's), set `total_commits` afterwards to the
/// number of commits HEAD reaches.
pub fn from_walk(repo: &Repo, mut commits: Vec<WalkedCommit>) -> HistoryData {
    commits.sort_by(|a, b| canonical_order(&a.meta, &b.meta));
    commits.dedup_by(|a, b| a.id == b.id);
    let prefix = repo.prefix.as_str();
    let mut by_path: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut renames = Vec::new();
    let mut metas = Vec::with_capacity(commits.len());
    for (i, commit) in commits.into_iter().enumerate() {
        let i = i as u32;
        for path in &commit.changes {
            let Some(rel) = crate::util::under_prefix_str(path, prefix) else {
                continue;
            };
            match by_path.get_mut(rel) {
                Some(list) => list.push(i),
                None => {
                    by_path.insert(rel.to_string(), vec![i]);
                }
            }
        }
        for (from, to) in &commit.renames {
            if let (Some(from), Some(to)) = (
                crate::util::under_prefix_str(from, prefix),
                crate::util::under_prefix_str(to, prefix),
            ) {
                renames.push(Rename {
                    commit: i,
                    from: from.to_string(),
                    to: to.to_string(),
                });
            }
        }
        metas.push(commit.meta);
    }
    HistoryData {
        head: repo.head.as_ref().map(sha_hex).unwrap_or_default(),
        shallow: repo.shallow,
        total_commits: metas.len(),
        commits: metas,
        by_path,
        renames,
    }
}
