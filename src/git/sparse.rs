//! Paths git tracks that the work tree need not hold: the skip-worktree entries of a sparse
//! checkout, and a sparse index's folders (ADR-0011). Such a path is there, though no file is.

use super::Repo;
use std::collections::HashSet;
use std::path::Path;

/// The tracked paths a sparse checkout leaves out of the work tree, root-relative.
#[derive(Debug, Default)]
pub struct NotCheckedOut {
    files: HashSet<String>,
    folders: HashSet<String>,
}

impl NotCheckedOut {
    /// Read from git's index for the root `root` (nothing when it is not in a repository or
    /// git's index does not read).
    pub fn of(root: &Path) -> NotCheckedOut {
        match super::open(root) {
            Ok(Some(repo)) => Self::of_repo(&repo),
            _ => NotCheckedOut::default(),
        }
    }

    fn of_repo(repo: &Repo) -> NotCheckedOut {
        let mut out = NotCheckedOut::default();
        // Built with SHA-1 only (ADR-0011): no handle on the repository is needed to read it.
        let Ok(index) = gix::index::File::at(
            repo.index_file(),
            gix::hash::Kind::Sha1,
            true,
            Default::default(),
        ) else {
            return out;
        };
        let prefix = repo.prefix.as_bytes();
        for entry in index.entries() {
            use gix::index::entry::{Flags, Mode};
            let sparse_dir = entry.mode == Mode::DIR;
            if !sparse_dir && !entry.flags.contains(Flags::SKIP_WORKTREE) {
                continue;
            }
            let Some(rel) = crate::util::under_prefix(entry.path(&index), prefix) else {
                continue;
            };
            let Ok(rel) = std::str::from_utf8(rel) else {
                continue;
            };
            let rel = rel.trim_end_matches('/');
            let mut folder = rel;
            while let Some((parent, _)) = folder.rsplit_once('/') {
                if !out.folders.insert(parent.to_string()) {
                    break;
                }
                folder = parent;
            }
            if sparse_dir {
                out.folders.insert(rel.to_string());
            } else {
                out.files.insert(rel.to_string());
            }
        }
        out
    }

    /// Whether git tracks `rel` without the work tree holding it: `Some(true)` for a folder,
    /// `Some(false)` for a file, `None` when it does not.
    pub fn kind(&self, rel: &str) -> Option<bool> {
        if self.files.contains(rel) {
            return Some(false);
        }
        self.folders.contains(rel).then_some(true)
    }
}
