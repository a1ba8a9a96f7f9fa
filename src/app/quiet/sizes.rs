//! How many files a governed entry matches (`skip_broad_folders`, docs/hooks.md), and whether
//! a folder holds any and which (`skip_layout_edits`).

use crate::git::{Repo, StagedIndex};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

/// Where the tracked files are listed from.
enum From<'a> {
    /// Git's index, as `git::tracked` reads it (`review`).
    Repo(&'a Repo),
    /// The index a commit is made from, as the commit hook read it already.
    Staged(Arc<StagedIndex>),
}

/// How many files git's index tracks that a governed entry matches, listed from the index when
/// first asked, each entry counted once (`hooks::broad`).
pub struct Sizes<'a> {
    from: From<'a>,
    /// The tracked files, root-relative, in path order (empty when the index cannot be read).
    files: OnceCell<Vec<String>>,
    counted: RefCell<HashMap<String, usize>>,
}

impl<'a> Sizes<'a> {
    pub fn new(repo: &'a Repo) -> Sizes<'a> {
        Sizes::listed(From::Repo(repo))
    }

    /// Counted in `index`, the commit's, already read.
    pub fn staged(index: Arc<StagedIndex>) -> Sizes<'a> {
        Sizes::listed(From::Staged(index))
    }

    fn listed(from: From<'a>) -> Sizes<'a> {
        Sizes {
            from,
            files: OnceCell::new(),
            counted: RefCell::new(HashMap::new()),
        }
    }

    /// The tracked files, listed once.
    fn files(&self) -> &[String] {
        self.files.get_or_init(|| match &self.from {
            From::Repo(repo) => crate::git::tracked(repo)
                .map(|t| t.files.iter().map(|f| f.path.clone()).collect())
                .unwrap_or_default(),
            From::Staged(index) => index.file_paths(),
        })
    }

    /// The tracked files from the first at or after `prefix` while they start with it.
    fn starting<'s>(&'s self, prefix: &'s str) -> impl Iterator<Item = &'s String> {
        let files = self.files();
        let from = files.partition_point(|f| f.as_str() < prefix);
        files[from..]
            .iter()
            .take_while(move |f| f.starts_with(prefix))
    }

    /// Whether git's index tracks a file in the folder `folder` (root-relative, no trailing
    /// `/`) that `counts` (`hooks::layout::folders_kept`).
    pub fn any_in(&self, folder: &str, counts: &dyn Fn(&str) -> bool) -> bool {
        self.starting(&format!("{folder}/")).any(|f| counts(f))
    }

    /// The tracked files in the folder `folder` (root-relative, no trailing `/`; `""`: all).
    pub fn in_folder<'s>(&'s self, folder: &str) -> impl Iterator<Item = &'s str> + 's {
        let prefix = match folder {
            "" => String::new(),
            f => format!("{f}/"),
        };
        let files = self.files();
        let from = files.partition_point(|f| f.as_str() < prefix.as_str());
        files[from..]
            .iter()
            .take_while(move |f| f.starts_with(&prefix))
            .map(String::as_str)
    }

    /// The tracked files `entry` matches (none when git's index cannot be read).
    pub fn files_of(&self, entry: &crate::governs::Pattern) -> usize {
        if let Some(n) = self.counted.borrow().get(entry.as_str()) {
            return *n;
        }
        let n = self
            .starting(entry.range_prefix())
            .filter(|f| entry.matches(f))
            .count();
        self.counted
            .borrow_mut()
            .insert(entry.as_str().to_string(), n);
        n
    }
}
