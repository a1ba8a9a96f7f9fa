//! How many files a governed entry matches (`skip_broad_folders`, docs/hooks.md), and whether
//! a folder holds any and which (`skip_layout_edits`).

use crate::git::{PathList, Repo, StagedIndex};
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
    /// The tracked files, root-relative, in path order (none when the index cannot be read).
    files: OnceCell<PathList>,
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
    fn files(&self) -> &PathList {
        self.files.get_or_init(|| match &self.from {
            From::Repo(repo) => {
                let mut listed = PathList::default();
                if let Ok(t) = crate::git::tracked(repo) {
                    t.files.iter().for_each(|f| listed.push(&f.path));
                }
                listed
            }
            From::Staged(index) => index.file_list(),
        })
    }

    /// Whether git's index tracks a file in the folder `folder` (root-relative, no trailing
    /// `/`) that `counts` (`hooks::layout::folders_kept`).
    pub fn any_in(&self, folder: &str, counts: &dyn Fn(&str) -> bool) -> bool {
        self.files().starting(format!("{folder}/")).any(counts)
    }

    /// The tracked files in the folder `folder` (root-relative, no trailing `/`; `""`: all).
    pub fn in_folder<'s>(&'s self, folder: &str) -> impl Iterator<Item = &'s str> + 's {
        let prefix = match folder {
            "" => String::new(),
            f => format!("{f}/"),
        };
        self.files().starting(prefix)
    }

    /// The tracked files `entry` matches (none when git's index cannot be read).
    pub fn files_of(&self, entry: &crate::governs::Pattern) -> usize {
        if let Some(n) = self.counted.borrow().get(entry.as_str()) {
            return *n;
        }
        let n = self
            .files()
            .starting(entry.range_prefix())
            .filter(|f| entry.matches(f))
            .count();
        self.counted
            .borrow_mut()
            .insert(entry.as_str().to_string(), n);
        n
    }
}
