//! Whether git ignores a path: the `.gitignore` files from the path's folder up to the work
//! tree's top (the deeper one deciding), then the repository's `info/exclude`, then the global
//! excludes file, as git reads them. A path under an ignored folder is ignored. Build output a
//! record names in passing (`dist/bundle.js`) is not governed code (CONTRACT.md §8).

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The ignore rules under a root, read once per folder as they are needed.
pub struct Ignores {
    root: PathBuf,
    /// The work tree's top (where `.gitignore` files stop applying), when the root is in one.
    top: Option<PathBuf>,
    /// Folder (absolute) → its `.gitignore`, when it has one.
    per_dir: Mutex<HashMap<PathBuf, Option<Gitignore>>>,
    /// `info/exclude` and the global excludes file, read on first use.
    outer: Mutex<Option<Vec<Gitignore>>>,
}

impl Ignores {
    pub fn new(root: &Path) -> Ignores {
        Ignores {
            root: root.to_path_buf(),
            top: super::root::work_tree_top(root),
            per_dir: Mutex::new(HashMap::new()),
            outer: Mutex::new(None),
        }
    }

    /// Whether git ignores the root-relative `rel` (a folder when `is_dir`), or a folder above it.
    pub fn ignored(&self, rel: &str, is_dir: bool) -> bool {
        // Outside a work tree git ignores nothing.
        if self.top.is_none() {
            return false;
        }
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        (1..=parts.len()).any(|n| {
            let path = self.root.join(parts[..n].join("/"));
            self.decide(&path, n < parts.len() || is_dir)
        })
    }

    /// Git's answer for one absolute path: the deepest `.gitignore` that matches it decides,
    /// then `info/exclude`, then the global excludes file.
    fn decide(&self, path: &Path, is_dir: bool) -> bool {
        let top = self.top.as_deref().unwrap_or(&self.root);
        let mut dir = path.parent();
        while let Some(d) = dir {
            if !d.starts_with(top) {
                break;
            }
            if let Some(gi) = self.gitignore_in(d) {
                match gi.matched(path, is_dir) {
                    Match::Ignore(_) => return true,
                    Match::Whitelist(_) => return false,
                    Match::None => {}
                }
            }
            dir = d.parent();
        }
        let mut outer = crate::util::locked(&self.outer);
        let outer = outer.get_or_insert_with(|| self.outer_rules(top));
        for gi in outer.iter() {
            match gi.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }

    fn gitignore_in(&self, dir: &Path) -> Option<Gitignore> {
        let mut cache = crate::util::locked(&self.per_dir);
        cache
            .entry(dir.to_path_buf())
            .or_insert_with(|| {
                let file = dir.join(".gitignore");
                file.is_file().then(|| {
                    let mut b = GitignoreBuilder::new(dir);
                    let _ = b.add(&file);
                    b.build().unwrap_or_else(|_| Gitignore::empty())
                })
            })
            .clone()
    }

    /// `info/exclude` (the common one, for a linked worktree) and the global excludes file.
    fn outer_rules(&self, top: &Path) -> Vec<Gitignore> {
        let mut out = Vec::new();
        let exclude = super::walk::common_git_dir(top)
            .join("info")
            .join("exclude");
        let global = ignore::gitignore::gitconfig_excludes_path();
        for file in std::iter::once(exclude).chain(global) {
            if file.is_file() {
                let mut b = GitignoreBuilder::new(top);
                let _ = b.add(&file);
                if let Ok(gi) = b.build() {
                    out.push(gi);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_ignores_what_its_files_say() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        std::fs::create_dir_all(root.join("web/dist")).unwrap();
        std::fs::write(root.join(".gitignore"), "/build/\n*.log\n").unwrap();
        std::fs::write(root.join("web/.gitignore"), "dist/\n!keep.log\n").unwrap();
        std::fs::write(root.join(".git/info/exclude"), "scratch/\n").unwrap();
        let ig = Ignores::new(root);
        assert!(ig.ignored("build/out.js", false));
        assert!(ig.ignored("build", true));
        assert!(
            ig.ignored("web/dist/bundle.js", false),
            "under an ignored folder"
        );
        assert!(ig.ignored("a/b.log", false));
        assert!(
            !ig.ignored("web/keep.log", false),
            "the deeper file whitelists it"
        );
        assert!(ig.ignored("scratch/x.md", false), "info/exclude");
        assert!(!ig.ignored("src/main.rs", false));
        assert!(!ig.ignored("web/src/app.ts", false));
        // Outside a work tree, nothing is ignored.
        let plain = tempfile::tempdir().unwrap();
        std::fs::write(plain.path().join(".gitignore"), "*\n").unwrap();
        assert!(!Ignores::new(plain.path()).ignored("src/main.rs", false));
    }
}
