//! What the commit hook and `review` read of single commits to judge whether a warning is one a
//! reader wants (docs/hooks.md, ADR-0008): an entry of a commit's tree by path, a blob's bytes,
//! and the base a branch started from.

use super::repo::{id20, LazyGix, Repo};
use gix::ObjectId;

/// Reads entries and blobs of commits' trees, with one handle on the repository for all
/// (`None` when gix could not open it: nothing is found), opened when first asked: a commit
/// hook's judge asks only for some commits (issue 41).
pub struct TreeReader {
    repo: LazyGix,
    prefix: String,
}

/// The branches a branch without an upstream is taken to leave, in order
/// ([`Repo::branch_base`]).
pub(super) const BRANCH_BASES: [&str; 3] = [
    "refs/remotes/origin/HEAD",
    "refs/heads/main",
    "refs/heads/master",
];

impl TreeReader {
    fn gix(&self) -> Option<&gix::Repository> {
        self.repo.get().ok()
    }

    /// The id of the entry at the root-relative `path` (a file or a folder) in `commit`'s
    /// tree; `None` when there is none or it cannot be read.
    pub fn entry_at(&self, commit: [u8; 20], path: &str) -> Option<[u8; 20]> {
        let tree = self
            .gix()?
            .find_commit(ObjectId::from_bytes_or_panic(&commit))
            .ok()?
            .tree()
            .ok()?;
        let full = format!("{}{}", self.prefix, path.trim_end_matches('/'));
        if full.is_empty() {
            return Some(id20(&tree.id));
        }
        let entry = tree.lookup_entry_by_path(full.as_str()).ok()??;
        Some(id20(entry.oid()))
    }

    /// What the folder at the root-relative `folder` (`""`: the root) holds directly in
    /// `commit`'s tree: each entry's name, and whether it is a folder (empty when there is no
    /// such folder or it cannot be read).
    pub fn entries_at(&self, commit: [u8; 20], folder: &str) -> Vec<(String, bool)> {
        let Some(tree) = self.entry_at(commit, folder) else {
            return Vec::new();
        };
        let Some(repo) = self.gix() else {
            return Vec::new();
        };
        let Ok(tree) = repo.find_tree(ObjectId::from_bytes_or_panic(&tree)) else {
            return Vec::new();
        };
        tree.iter()
            .filter_map(Result::ok)
            .map(|e| (e.filename().to_string(), e.mode().is_tree()))
            .collect()
    }

    /// The bytes of the blob `id`, when it is one of at most `max` bytes.
    pub fn blob(&self, id: [u8; 20], max: u64) -> Option<Vec<u8>> {
        let id = ObjectId::from_bytes_or_panic(&id);
        let header = self.gix()?.find_header(id).ok()?;
        if header.kind() != gix::object::Kind::Blob || header.size() > max {
            return None;
        }
        let mut blob = self.gix()?.find_blob(id).ok()?;
        Some(std::mem::take(&mut blob.data))
    }
}

impl Repo {
    /// A [`TreeReader`] of this repository.
    pub fn tree_reader(&self) -> TreeReader {
        TreeReader {
            repo: LazyGix::of(self),
            prefix: self.prefix.clone(),
        }
    }

    /// Where the current branch left the branch it works against: the merge base of HEAD with
    /// its upstream, else with the remote's default branch (`refs/remotes/origin/HEAD`), else
    /// with a local `main` or `master` that is not the current branch. `None` without one (on
    /// the default branch itself with no upstream, all of HEAD's history is that branch's).
    pub fn branch_base(&self) -> Option<[u8; 20]> {
        let head = self.head?;
        if self.leaves_no_branch() {
            return None;
        }
        let repo = self.gix().ok()?;
        let current = repo
            .head_name()
            .ok()
            .flatten()
            .map(|n| n.as_bstr().to_string());
        let mut candidates: Vec<String> = Vec::new();
        if let Ok(Some(upstream)) = self.upstream() {
            candidates.push(upstream);
        }
        candidates.extend(BRANCH_BASES.iter().map(|name| name.to_string()));
        for name in candidates {
            if current.as_deref() == Some(name.as_str()) {
                continue;
            }
            let Ok(mut reference) = repo.find_reference(name.as_str()) else {
                continue;
            };
            let Ok(tip) = reference.peel_to_id() else {
                continue;
            };
            let tip = id20(&tip);
            if let Ok(Some(base)) = self.merge_base(head, tip) {
                return Some(base);
            }
        }
        None
    }
}
