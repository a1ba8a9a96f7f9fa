//! How many files a governed entry matches (`skip_broad_folders`, docs/hooks.md), and whether
//! a folder holds any (`skip_layout_edits`).

use crate::git::Repo;
use std::collections::HashMap;

/// How many files git's index tracks that a governed entry matches, read from the index when
/// first asked, each entry counted once (`hooks::broad`).
pub struct Sizes<'a> {
    repo: &'a Repo,
    tracked: std::cell::OnceCell<Option<std::sync::Arc<crate::git::Tracked>>>,
    counted: std::cell::RefCell<HashMap<String, usize>>,
}

impl<'a> Sizes<'a> {
    pub fn new(repo: &'a Repo) -> Sizes<'a> {
        Sizes {
            repo,
            tracked: std::cell::OnceCell::new(),
            counted: std::cell::RefCell::new(HashMap::new()),
        }
    }

    /// Whether git's index tracks a file in the folder `folder` (root-relative, no trailing
    /// `/`) that `counts` (`hooks::layout::folders_kept`).
    pub fn any_in(&self, folder: &str, counts: &dyn Fn(&str) -> bool) -> bool {
        let tracked = self
            .tracked
            .get_or_init(|| crate::git::tracked(self.repo).ok());
        let prefix = format!("{folder}/");
        tracked.as_deref().is_some_and(|t| {
            let from = t
                .files
                .partition_point(|f| f.path.as_str() < prefix.as_str());
            t.files[from..]
                .iter()
                .take_while(|f| f.path.starts_with(&prefix))
                .any(|f| counts(&f.path))
        })
    }

    /// The tracked files `entry` matches (none when git's index cannot be read).
    pub fn files(&self, entry: &crate::governs::Pattern) -> usize {
        if let Some(n) = self.counted.borrow().get(entry.as_str()) {
            return *n;
        }
        let tracked = self
            .tracked
            .get_or_init(|| crate::git::tracked(self.repo).ok());
        let n = tracked.as_deref().map_or(0, |t| {
            let prefix = entry.range_prefix();
            let from = t.files.partition_point(|f| f.path.as_str() < prefix);
            t.files[from..]
                .iter()
                .take_while(|f| f.path.starts_with(prefix))
                .filter(|f| entry.matches(&f.path))
                .count()
        });
        self.counted
            .borrow_mut()
            .insert(entry.as_str().to_string(), n);
        n
    }
}
