//! The ignore rules a walk honours, read here and not by the `ignore` crate's walk: that one
//! opens each `.gitignore` and `.ignore` it meets with a blocking open, so a FIFO named
//! `.ignore` anywhere in the tree hung every hook and every commit (ADR-0011). Each file is
//! read by [`super::read::read_rules`] (a regular file only, never waited on, a link not
//! followed, as git follows none); one passed over is a note. What they decide is what that
//! walk decided: any `.ignore` (the nearest first) before any `.gitignore`, then the
//! repository's `info/exclude`, then the global excludes file; none above the repository's
//! top (outside git, above the root), so a `~/.ignore` changes no answer.

use super::ignored::{outer_rules, read_rules_of};
use crate::util::locked;
use ignore::gitignore::Gitignore;
use ignore::Match;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// One folder's ignore files, read.
#[derive(Default)]
struct DirRules {
    ignore: Option<Gitignore>,
    git: Option<Gitignore>,
}

/// The rules under a root, each folder's read once, when a walk first asks about it.
pub struct WalkRules {
    root: PathBuf,
    /// The length of the folder where ignore files stop applying (the work tree's top, or
    /// the root outside git): every folder asked about is under it, so a length tells.
    limit_len: usize,
    /// That folder.
    limit: PathBuf,
    /// `info/exclude` and the global excludes file, read when a path is first asked about: a
    /// walk that asks about none (a glob's folder holding no candidate) reads neither
    /// (ADR-0016, amendment of 2026-12-06).
    outer: OnceLock<Vec<Gitignore>>,
    /// Folder (absolute, as bytes: cheaper to hash than a path) → the ignore files that apply
    /// in it, its own first, folders without any left out: a walk asks once per folder.
    chains: Mutex<HashMap<Box<[u8]>, Chain>>,
    notes: Mutex<Vec<String>>,
}

/// The ignore files that apply in a folder, the nearest first.
type Chain = Arc<Vec<Arc<DirRules>>>;

impl WalkRules {
    pub fn new(root: &Path) -> Arc<WalkRules> {
        let top = super::root::work_tree_top(root);
        let limit = top.clone().unwrap_or_else(|| root.to_path_buf());
        Arc::new(WalkRules {
            root: root.to_path_buf(),
            limit_len: limit.as_os_str().len(),
            limit,
            outer: OnceLock::new(),
            chains: Mutex::new(HashMap::new()),
            notes: Mutex::new(Vec::new()),
        })
    }

    /// Whether the rules ignore `path` (a folder when `is_dir`), a path under the root whose
    /// folders above were not ignored.
    pub fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        let Some(dir) = path.parent() else {
            return false;
        };
        let chain = self.chain(dir);
        let decide = |gi: &Gitignore| match gi.matched(path, is_dir) {
            Match::Ignore(_) => Some(true),
            Match::Whitelist(_) => Some(false),
            Match::None => None,
        };
        chain
            .iter()
            .find_map(|r| r.ignore.as_ref().and_then(decide))
            .or_else(|| chain.iter().find_map(|r| r.git.as_ref().and_then(decide)))
            .or_else(|| {
                self.outer
                    .get_or_init(|| outer_rules(&self.limit))
                    .iter()
                    .find_map(decide)
            })
            .unwrap_or(false)
    }

    /// The ignore files that were passed over, one note each, in the order met.
    pub fn notes(&self) -> Vec<String> {
        locked(&self.notes).clone()
    }

    /// The ignore files that apply in `dir`, read the first time a folder is asked about.
    fn chain(&self, dir: &Path) -> Chain {
        if dir.as_os_str().len() < self.limit_len {
            return Chain::default();
        }
        let key = dir.as_os_str().as_encoded_bytes();
        if let Some(known) = locked(&self.chains).get(key) {
            return known.clone();
        }
        let above = dir.parent().map(|p| self.chain(p)).unwrap_or_default();
        let own = DirRules {
            ignore: self.read(dir, ".ignore"),
            git: self.read(dir, ".gitignore"),
        };
        let chain = if own.ignore.is_none() && own.git.is_none() {
            above
        } else {
            let mut all = vec![Arc::new(own)];
            all.extend(above.iter().cloned());
            Arc::new(all)
        };
        locked(&self.chains).insert(key.into(), chain.clone());
        chain
    }

    fn read(&self, dir: &Path, name: &str) -> Option<Gitignore> {
        let file = dir.join(name);
        match read_rules_of(dir, &file, false) {
            Ok(rules) => rules,
            Err(why) => {
                let shown = file.strip_prefix(&self.root).unwrap_or(&file);
                locked(&self.notes).push(format!(
                    "{}: {why}, its rules not read",
                    shown.to_string_lossy().replace('\\', "/")
                ));
                None
            }
        }
    }
}
