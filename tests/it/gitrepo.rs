//! A hermetic git fixture builder for the integration tests (`mod gitrepo;`).
//!
//! Runs the real `git` with the user's configuration shut out (no system or global config,
//! `HOME` in the temporary folder) and with pinned authors and dates, so every repository built
//! here is the same on every machine. Every helper asserts its git command succeeded and prints
//! git's stderr when it did not.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A repository in a temporary folder, removed when dropped.
pub struct GitRepo {
    /// Holds `home/` (the `HOME` git sees) and `repo/` (the work tree).
    dir: tempfile::TempDir,
    root: PathBuf,
}

/// The environment every git command and every run of the binary gets: nothing from the user.
pub fn hermetic(cmd: &mut Command, home: &Path) {
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LANG", "C")
        .env("LC_ALL", "C")
        .env("TZ", "UTC");
}

impl GitRepo {
    /// `git init -b main` in a fresh temporary folder, unsigned commits.
    pub fn new() -> GitRepo {
        let repo = GitRepo::empty_folder();
        repo.git(&["init", "-q", "-b", "main", "."]);
        repo.configure();
        repo
    }

    /// A temporary work folder that is not a git repository.
    pub fn empty_folder() -> GitRepo {
        let dir = tempfile::TempDir::new().expect("create a temporary folder");
        let root = dir.path().join("repo");
        std::fs::create_dir_all(dir.path().join("home")).expect("create home");
        std::fs::create_dir_all(&root).expect("create the work tree");
        let root = root.canonicalize().expect("canonical work tree");
        GitRepo { dir, root }
    }

    fn configure(&self) {
        self.git(&["config", "commit.gpgsign", "false"]);
        self.git(&["config", "tag.gpgsign", "false"]);
        self.git(&["config", "core.autocrlf", "false"]);
        self.git(&["config", "merge.ff", "false"]);
        self.git(&["config", "user.name", "Fixture"]);
        self.git(&["config", "user.email", "fixture@example.com"]);
    }

    /// The work tree.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The `HOME` the fixture's git (and the binary under test) sees.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// A command for `program` with the hermetic environment, in the work tree.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        hermetic(&mut cmd, &self.home());
        cmd.current_dir(&self.root);
        cmd
    }

    /// Runs git with `args`, asserts it succeeded, returns its stdout.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_with(args, &[])
    }

    /// Runs git with `args` and extra environment variables.
    pub fn git_with(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let mut cmd = self.command("git");
        cmd.args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("run git");
        check(&out, args);
        String::from_utf8(out.stdout).expect("git prints UTF-8")
    }

    /// Runs git with `args`, feeding `input` on stdin; asserts it succeeded, returns its stdout.
    pub fn git_input(&self, args: &[&str], input: &[u8]) -> String {
        use std::io::Write;
        use std::process::Stdio;
        let mut child = self
            .command("git")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run git");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input)
            .expect("feed git");
        let out = child.wait_with_output().expect("wait for git");
        check(&out, args);
        String::from_utf8(out.stdout).expect("git prints UTF-8")
    }

    /// Feeds a `git fast-import` stream (for long histories built quickly), then checks out
    /// `main`.
    pub fn fast_import(&self, stream: &str) {
        self.git_input(&["fast-import", "--quiet"], stream.as_bytes());
        self.reset_hard("main");
    }

    /// `git commit-tree tree -p parent... -m message` as `author` at `date`: a commit built from
    /// plumbing (e.g. a tree written with `hash-object --literally`). Returns its sha; no ref moves.
    pub fn commit_tree(
        &self,
        tree: &str,
        parents: &[&str],
        date: &str,
        author: &str,
        message: &str,
    ) -> String {
        let mut args = vec!["commit-tree", tree];
        for p in parents {
            args.extend(["-p", p]);
        }
        args.extend(["-m", message]);
        let sig = signature(date, author);
        self.git_with(&args, &pairs(&sig)).trim().to_string()
    }

    /// Writes `contents` to `rel` (creating folders).
    pub fn write(&self, rel: &str, contents: &str) -> &Self {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create folders");
        }
        std::fs::write(&path, contents).expect("write a file");
        self
    }

    /// Deletes the file `rel`.
    pub fn remove(&self, rel: &str) -> &Self {
        std::fs::remove_file(self.root.join(rel)).expect("remove a file");
        self
    }

    /// `git mv from to`.
    pub fn mv(&self, from: &str, to: &str) -> &Self {
        if let Some(parent) = self.root.join(to).parent() {
            std::fs::create_dir_all(parent).expect("create folders");
        }
        self.git(&["mv", from, to]);
        self
    }

    /// Marks `rel` executable in the index and the work tree.
    pub fn chmod_x(&self, rel: &str) -> &Self {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = self.root.join(rel);
            let mut perms = std::fs::metadata(&path).expect("stat a file").permissions();
            perms.set_mode(perms.mode() | 0o111);
            std::fs::set_permissions(&path, perms).expect("chmod +x");
        }
        self.git(&["update-index", "--chmod=+x", rel]);
        self
    }

    /// Stages everything and commits with author and committer `author` at `date`
    /// (`2025-03-05T10:00:00Z`). Returns the new commit's full sha.
    pub fn commit_at(&self, date: &str, author: &str, message: &str) -> String {
        self.git(&["add", "-A"]);
        let sig = signature(date, author);
        self.git_with(
            &[
                "commit",
                "-q",
                "--allow-empty",
                "--no-verify",
                "-m",
                message,
            ],
            &pairs(&sig),
        );
        self.head()
    }

    /// `git checkout -b name`.
    pub fn branch(&self, name: &str) {
        self.git(&["checkout", "-q", "-b", name]);
    }

    /// `git checkout name`.
    pub fn checkout(&self, name: &str) {
        self.git(&["checkout", "-q", name]);
    }

    /// `git merge --no-ff branch` as `author` at `date`. Returns the merge commit's sha.
    pub fn merge_no_ff(&self, branch: &str, date: &str, author: &str, message: &str) -> String {
        let sig = signature(date, author);
        self.git_with(
            &[
                "merge",
                "-q",
                "--no-ff",
                "--no-verify",
                "-m",
                message,
                branch,
            ],
            &pairs(&sig),
        );
        self.head()
    }

    /// `git reset --hard rev`.
    pub fn reset_hard(&self, rev: &str) {
        self.git(&["reset", "-q", "--hard", rev]);
    }

    /// Full sha of HEAD.
    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// `git worktree add -b branch` into a new folder `name` next to the work tree; returns the
    /// linked worktree's path (canonical).
    pub fn linked_worktree(&self, name: &str, branch: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        let target = path.display().to_string();
        self.git(&["worktree", "add", "-q", "-b", branch, &target]);
        path.canonicalize().expect("canonical linked worktree")
    }

    /// `git rev-parse rev`, full sha.
    pub fn rev(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_string()
    }

    /// `git clone --depth N file://...` of this repository into a new temporary folder.
    pub fn shallow_clone(&self, depth: usize) -> GitRepo {
        let clone = GitRepo::empty_folder();
        std::fs::remove_dir(&clone.root).expect("make room for the clone");
        let url = format!("file://{}", self.root.display());
        let depth = depth.to_string();
        let target = clone.root.display().to_string();
        let mut cmd = Command::new("git");
        hermetic(&mut cmd, &clone.home());
        cmd.current_dir(clone.dir.path());
        let args = [
            "clone",
            "-q",
            "--depth",
            depth.as_str(),
            url.as_str(),
            target.as_str(),
        ];
        cmd.args(args);
        let out = cmd.output().expect("run git clone");
        check(&out, &args);
        clone.configure();
        clone
    }
}

impl Default for GitRepo {
    fn default() -> Self {
        GitRepo::new()
    }
}

/// Pinned author and committer for one commit.
fn signature(date: &str, author: &str) -> Vec<(&'static str, String)> {
    let email = format!("{}@example.com", author.to_lowercase().replace(' ', "."));
    vec![
        ("GIT_AUTHOR_NAME", author.to_string()),
        ("GIT_AUTHOR_EMAIL", email.clone()),
        ("GIT_AUTHOR_DATE", date.to_string()),
        ("GIT_COMMITTER_NAME", author.to_string()),
        ("GIT_COMMITTER_EMAIL", email),
        ("GIT_COMMITTER_DATE", date.to_string()),
    ]
}

fn pairs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'a str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

fn check(out: &Output, args: &[&str]) {
    assert!(
        out.status.success(),
        "git {} failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
