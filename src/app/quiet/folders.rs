//! The folders around a commit, as `hooks::layout` asks about them (`skip_layout_edits`,
//! `skip_added_alike`, docs/hooks.md): from the commit's and its parent's trees (`review`), or
//! from the index a commit is made from (the commit hook).

use super::sizes::Sizes;
use super::Judge;
use crate::git::{RangeCommit, TreeReader};
use crate::hooks::layout::{self, entries_in, FolderView, Folders};

/// A commit's trees: its first parent's (`before`) and its own.
struct Trees<'t> {
    trees: &'t TreeReader,
    before: [u8; 20],
    after: [u8; 20],
}

impl FolderView for Trees<'_> {
    fn held_before(&self, folder: &str) -> bool {
        self.trees.entry_at(self.before, folder).is_some()
    }

    fn holds_after(&self, folder: &str) -> bool {
        self.trees.entry_at(self.after, folder).is_some()
    }

    fn entries(&self, after: bool, folder: &str) -> Vec<(String, bool)> {
        let commit = if after { self.after } else { self.before };
        self.trees.entries_at(commit, folder)
    }
}

/// The index a commit is made from, and the files the commit adds (no blob in the base) and
/// removes: before it, the index held the removed files and not the added ones.
pub(super) struct StagedFolders<'s, 'a> {
    pub sizes: &'s Sizes<'a>,
    pub added: &'s [&'s str],
    pub removed: &'s [&'s str],
}

impl FolderView for StagedFolders<'_, '_> {
    fn held_before(&self, folder: &str) -> bool {
        self.removed.iter().any(|p| super::is_in(p, folder))
            || self.sizes.any_in(folder, &|p| !self.added.contains(&p))
    }

    fn holds_after(&self, folder: &str) -> bool {
        self.sizes.any_in(folder, &|_| true)
    }

    fn entries(&self, after: bool, folder: &str) -> Vec<(String, bool)> {
        let now = self.sizes.in_folder(folder);
        if after {
            entries_in(folder, now)
        } else {
            let kept = now.filter(|p| !self.added.contains(p));
            entries_in(folder, kept.chain(self.removed.iter().copied()))
        }
    }
}

impl Judge<'_> {
    /// `c`'s first parent's tree and its own (`None` for a root commit).
    fn trees_of(&self, c: &RangeCommit) -> Option<Trees<'_>> {
        Some(Trees {
            trees: &self.trees,
            before: *c.parents.first()?,
            after: c.id,
        })
    }

    /// What the commit `c` does to the folders (`layout::folders`): a folder is there
    /// when its first parent's tree, or its own, has it.
    pub(super) fn folders(&self, c: &RangeCommit) -> Folders {
        let Some(view) = self.trees_of(c) else {
            return Folders::Changed;
        };
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        for p in &c.changes {
            if self.trees.entry_at(view.before, p).is_none() {
                added.push(p.as_str());
            } else if self.trees.entry_at(view.after, p).is_none() {
                removed.push(p.as_str());
            }
        }
        layout::folders(&added, &removed, &view)
    }

    /// Whether each of `paths` is a file `c` adds beside files of its kind
    /// (`layout::added_alike`), from its first parent's tree and its own.
    pub(super) fn added_alike(&self, c: &RangeCommit, paths: &[&str]) -> bool {
        let Some(view) = self.trees_of(c) else {
            return false;
        };
        let added = |p: &str| self.trees.entry_at(view.before, p).is_none();
        layout::added_alike(paths, &added, &view)
    }
}
