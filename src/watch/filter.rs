//! Which file events can change what the index holds (ADR-0010): a path under the root that
//! git does not ignore (an ignore file always counts), and in the git dirs only what moves HEAD
//! or a branch (`HEAD`, `refs/`, `packed-refs`, `shallow`) or what git ignores (`info/exclude`).
//! The index's own folder never counts, so its writes do not wake the watch, nor do git's
//! objects, its staging index or its lock files.

use crate::fs::ignored::Ignores;
use std::path::{Path, PathBuf};

/// Sorts event paths into those that matter, named for a person, and the rest.
pub(super) struct Filter {
    root: PathBuf,
    /// The worktree's own git dir, then the common one (for a linked worktree, the own one is
    /// inside the common one, so it is asked first).
    git_dirs: Vec<PathBuf>,
    /// `<git dir>/context-graph/`: the index's own writes.
    index_dir: Option<PathBuf>,
    /// What git ignores under the root, read again after an ignore file changes.
    ignores: Ignores,
    /// The files this process writes its output to (`watch 2> watch.log` in the root): their
    /// changes are its own lines, not the project's.
    own: Vec<FileId>,
}

/// A file's identity (device and inode), whatever its name.
pub type FileId = (u64, u64);

/// The identity of a regular file, where the platform has one.
pub(super) fn file_id(meta: &std::fs::Metadata) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| (meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

impl Filter {
    /// `git_dir` and `common_dir` are canonical, `None` outside git.
    pub(super) fn new(root: &Path, git_dir: Option<&Path>, common_dir: Option<&Path>) -> Filter {
        let mut git_dirs: Vec<PathBuf> = git_dir.into_iter().map(Path::to_path_buf).collect();
        if let Some(common) = common_dir.filter(|c| Some(*c) != git_dir) {
            git_dirs.push(common.to_path_buf());
        }
        Filter {
            root: root.to_path_buf(),
            index_dir: git_dir.map(|g| g.join("context-graph")),
            git_dirs,
            ignores: Ignores::new(root),
            own: Vec::new(),
        }
    }

    /// Changes to these files do not count.
    pub(super) fn skip_files(&mut self, own: Vec<FileId>) {
        self.own = own;
    }

    /// The path as a person would name it (root-relative, `/`-separated; a git dir's file
    /// outside the root in full) when a change to it can change the index, else `None`.
    pub(super) fn matters(&mut self, path: &Path) -> Option<String> {
        if self
            .index_dir
            .as_deref()
            .is_some_and(|d| path.starts_with(d))
        {
            return None;
        }
        for (n, dir) in self.git_dirs.iter().enumerate() {
            if let Ok(rel) = path.strip_prefix(dir) {
                let rel = slashed(rel);
                let common = n > 0;
                if !git_file_matters(&rel, common) {
                    return None;
                }
                if rel == "info/exclude" {
                    self.ignores = Ignores::new(&self.root);
                }
                return Some(self.name(path));
            }
        }
        let rel = slashed(path.strip_prefix(&self.root).ok()?);
        if rel.split('/').any(|part| part == ".git") {
            return None; // a nested repository's, or a linked worktree's `.git` file
        }
        let name = rel.rsplit('/').next().unwrap_or_default();
        if name == ".gitignore" || name == ".ignore" {
            // The rules change: read them again from now on.
            self.ignores = Ignores::new(&self.root);
            return Some(rel);
        }
        if rel.is_empty() {
            return Some(".".into());
        }
        let meta = std::fs::symlink_metadata(path).ok();
        if self
            .ignores
            .ignored(&rel, meta.as_ref().is_some_and(|m| m.is_dir()))
        {
            return None;
        }
        if !self.own.is_empty()
            && meta
                .as_ref()
                .and_then(file_id)
                .is_some_and(|id| self.own.contains(&id))
        {
            return None;
        }
        Some(rel)
    }

    fn name(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) => slashed(rel),
            Err(_) => path.display().to_string(),
        }
    }
}

/// Whether a file in a git dir (`rel` inside it) can move HEAD, a branch or what git ignores.
/// In the common dir of a linked worktree, `HEAD` is the main worktree's, and `worktrees/` the
/// other worktrees'.
fn git_file_matters(rel: &str, common: bool) -> bool {
    if rel.ends_with(".lock") {
        return false; // git renames the lock file over the real one: that event counts
    }
    match rel {
        "HEAD" => !common,
        "packed-refs" | "shallow" | "info/exclude" => true,
        _ => rel.starts_with("refs/"),
    }
}

fn slashed(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A work tree at `<tmp>/repo` with `.git/` inside, ignoring `target/` and `*.log`.
    fn tree() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path().canonicalize().expect("canonical").join("repo");
        for dir in [".git/refs/heads", "src", "target/debug", "docs/adr"] {
            std::fs::create_dir_all(root.join(dir)).expect("create folders");
        }
        std::fs::write(root.join(".gitignore"), "/target/\n*.log\n").expect("write");
        (tmp, root)
    }

    #[test]
    fn work_tree_files_count_unless_git_ignores_them() {
        let (_tmp, root) = tree();
        let git = root.join(".git");
        let mut f = Filter::new(&root, Some(&git), Some(&git));
        let m = |f: &mut Filter, rel: &str| f.matters(&root.join(rel));
        assert_eq!(m(&mut f, "src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(
            m(&mut f, "docs/adr/0001-x.md").as_deref(),
            Some("docs/adr/0001-x.md")
        );
        assert_eq!(m(&mut f, "target/debug/a.o"), None);
        assert_eq!(m(&mut f, "target"), None, "an ignored folder itself");
        assert_eq!(m(&mut f, "src/run.log"), None);
        assert_eq!(m(&mut f, ".gitignore").as_deref(), Some(".gitignore"));
        assert_eq!(m(&mut f, "sub/.git/HEAD"), None, "a nested repository");
    }

    #[cfg(unix)]
    #[test]
    fn the_files_it_writes_its_lines_to_do_not_count() {
        let (_tmp, root) = tree();
        let git = root.join(".git");
        let log = root.join("watch.out");
        std::fs::write(&log, "").expect("write");
        let mut f = Filter::new(&root, Some(&git), Some(&git));
        assert!(f.matters(&log).is_some());
        let id = file_id(&std::fs::metadata(&log).expect("stat")).expect("a regular file");
        f.skip_files(vec![id]);
        assert_eq!(f.matters(&log), None);
        assert!(f.matters(&root.join("src/a.rs")).is_some());
    }

    #[test]
    fn a_changed_ignore_file_is_read_again() {
        let (_tmp, root) = tree();
        let git = root.join(".git");
        let mut f = Filter::new(&root, Some(&git), Some(&git));
        assert_eq!(f.matters(&root.join("src/run.log")), None);
        std::fs::write(root.join(".gitignore"), "/target/\n").expect("write");
        assert!(f.matters(&root.join(".gitignore")).is_some());
        assert_eq!(
            f.matters(&root.join("src/run.log")).as_deref(),
            Some("src/run.log")
        );
    }

    #[test]
    fn in_the_git_dir_only_what_moves_head_or_a_branch_counts() {
        let (_tmp, root) = tree();
        let git = root.join(".git");
        let mut f = Filter::new(&root, Some(&git), Some(&git));
        for counts in [
            "HEAD",
            "refs/heads/main",
            "refs/heads/topic/x",
            "packed-refs",
            "shallow",
            "info/exclude",
        ] {
            assert_eq!(
                f.matters(&git.join(counts)),
                Some(format!(".git/{counts}")),
                "{counts}"
            );
        }
        for skipped in [
            "context-graph/index.redb",
            "context-graph/index.pending",
            "objects/ab/cdef",
            "index",
            "index.lock",
            "refs/heads/main.lock",
            "HEAD.lock",
            "logs/HEAD",
            "ORIG_HEAD",
            "COMMIT_EDITMSG",
        ] {
            assert_eq!(f.matters(&git.join(skipped)), None, "{skipped}");
        }
    }

    #[test]
    fn a_linked_worktree_counts_its_own_head_and_the_shared_refs() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let base = tmp.path().canonicalize().expect("canonical");
        let common = base.join("main/.git");
        let own = common.join("worktrees/linked");
        let root = base.join("linked");
        std::fs::create_dir_all(&root).expect("create the worktree");
        let mut f = Filter::new(&root, Some(&own), Some(&common));
        assert!(f.matters(&own.join("HEAD")).is_some());
        assert!(f.matters(&common.join("refs/heads/main")).is_some());
        assert!(f.matters(&common.join("packed-refs")).is_some());
        assert_eq!(f.matters(&common.join("HEAD")), None, "the main worktree's");
        assert_eq!(f.matters(&common.join("worktrees/other/HEAD")), None);
        assert_eq!(f.matters(&own.join("context-graph/index.redb")), None);
        assert_eq!(f.matters(&root.join(".git")), None, "the `.git` file");
        assert_eq!(
            f.matters(&own.join("HEAD")),
            Some(own.join("HEAD").display().to_string())
        );
    }
}
