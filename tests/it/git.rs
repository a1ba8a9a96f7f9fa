//! Git repositories for the tests, built with the real `git` in a [`TestEnv`]: the user's
//! configuration shut out, authors and dates pinned, so every repository built here is the same
//! on every machine. Every helper asserts its git command succeeded and prints git's stderr when
//! it did not. The binary runs in the work tree through the same environment.

use crate::env::{Run, Running, TestEnv, REPO_TIMEOUT};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A repository (`repo/`) in a [`TestEnv`]'s folder, removed when dropped.
pub struct GitRepo {
    env: TestEnv,
    root: PathBuf,
}

impl GitRepo {
    /// The `code_mentions` of the record `id` in the full check's JSON, in the order it lists
    /// them.
    pub fn code_mentions(&self, id: &str) -> Vec<Value> {
        let run = self.run(&["--json"]);
        run.assert_finished();
        let j: Value = run.json();
        let r = j["records"]
            .as_array()
            .expect("records")
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {j:#}"))
            .clone();
        r["code_mentions"]
            .as_array()
            .expect("code_mentions")
            .clone()
    }

    /// The ids `why PATH --json` gives as governing it, and as mentioning it (`mentioned_by`).
    pub fn why_ids(&self, path: &str) -> (Vec<String>, Vec<String>) {
        let run = self.run(&["why", path, "--json"]);
        run.assert_finished();
        let q: Value = run.json();
        let ids = |key: &str| -> Vec<String> {
            q["query"][key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|d| d["id"].as_str().unwrap_or("").to_string())
                        .collect()
                })
                .unwrap_or_default()
        };
        (ids("decisions"), ids("mentioned_by"))
    }

    /// The messages of the full check's governed-path findings (gone, moved, unknown).
    pub fn governed_path_findings(&self) -> Vec<String> {
        self.governed_path_findings_of(&["check", "--json"])
    }

    /// [`GitRepo::governed_path_findings`] of the check `args` runs (`--no-index`, say).
    pub fn governed_path_findings_of(&self, args: &[&str]) -> Vec<String> {
        let j = self.run(args).json();
        j["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| {
                f["code"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("governed-path")
            })
            .map(|f| f["message"].as_str().unwrap_or("").to_string())
            .collect()
    }

    /// The lines of an `strace` log of a run in this repository that look up one of `files`
    /// in its `.git` (those only gix's discovery and open read: the run opened gix).
    pub fn gix_lookups<'a>(&self, traced: &'a str, files: &[&str]) -> Vec<&'a str> {
        let git = format!("{}/.git/", self.path().display());
        traced
            .lines()
            .filter(|l| files.iter().any(|f| l.contains(&format!("\"{git}{f}"))))
            .collect()
    }

    /// `git init -b main` in a fresh [`TestEnv`], unsigned commits.
    pub fn new() -> GitRepo {
        let repo = GitRepo::empty_folder();
        repo.git(&["init", "-q", "-b", "main", "."]);
        repo.configure();
        repo
    }

    /// A work folder in a fresh [`TestEnv`] that is not a git repository.
    pub fn empty_folder() -> GitRepo {
        let env = TestEnv::new().with_timeout(REPO_TIMEOUT);
        let root = env.path().join("repo");
        std::fs::create_dir_all(&root).expect("create the work tree");
        GitRepo { env, root }
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

    /// The environment git and the binary run in: write a user's configuration into its
    /// `home()` or `config_home()` to give them one.
    pub fn env(&self) -> &TestEnv {
        &self.env
    }

    /// A command for `program` with the hermetic environment, in the work tree.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = self.env.command(program);
        cmd.current_dir(&self.root);
        cmd
    }

    // ----- git -----

    /// Runs git with `args`, asserts it succeeded, returns its stdout.
    pub fn git(&self, args: &[&str]) -> String {
        self.git_with(args, &[])
    }

    /// Runs git with `args` and extra environment variables.
    pub fn git_with(&self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = self
            .command("git")
            .args(args)
            .envs(env.iter().copied())
            .output()
            .expect("run git");
        assert_success(&out, args);
        String::from_utf8(out.stdout).expect("git prints UTF-8")
    }

    /// Runs git with `args` as `author` (author and committer) at `date`
    /// (`2025-03-05T10:00:00Z`), e.g. for an amend or a rebase.
    pub fn git_at(&self, date: &str, author: &str, args: &[&str]) -> String {
        let sig = signature(date, author);
        let env: Vec<(&str, &str)> = sig.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.git_with(args, &env)
    }

    /// Runs git with `args`, feeding `input` on stdin; asserts it succeeded, returns its stdout.
    pub fn git_input(&self, args: &[&str], input: &[u8]) -> String {
        use std::io::Write;
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
        assert_success(&out, args);
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
        self.git_at(date, author, &args).trim().to_string()
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
        self.git_at(
            date,
            author,
            &[
                "commit",
                "-q",
                "--allow-empty",
                "--no-verify",
                "-m",
                message,
            ],
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
        self.git_at(
            date,
            author,
            &[
                "merge",
                "-q",
                "--no-ff",
                "--no-verify",
                "-m",
                message,
                branch,
            ],
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
        let path = self.env.path().join(name);
        let target = path.display().to_string();
        self.git(&["worktree", "add", "-q", "-b", branch, &target]);
        path.canonicalize().expect("canonical linked worktree")
    }

    /// `git rev-parse rev`, full sha.
    pub fn rev(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_string()
    }

    /// `git clone --depth N file://...` of this repository into a new [`TestEnv`].
    pub fn shallow_clone(&self, depth: usize) -> GitRepo {
        let clone = GitRepo::empty_folder();
        std::fs::remove_dir(&clone.root).expect("make room for the clone");
        let url = format!("file://{}", self.root.display());
        let depth = depth.to_string();
        let target = clone.root.display().to_string();
        let args = [
            "clone",
            "-q",
            "--depth",
            depth.as_str(),
            url.as_str(),
            target.as_str(),
        ];
        let out = clone
            .env
            .command("git")
            .args(args)
            .output()
            .expect("run git clone");
        assert_success(&out, &args);
        clone.configure();
        clone
    }

    // ----- the binary, in the work tree -----

    /// Runs the binary with `args` in the work tree (so the root is its top); fails the test if
    /// it hangs.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, &[])
    }

    /// The same, with extra environment variables.
    pub fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let run = self.env.run_with(&self.root, args, env);
        run.assert_finished();
        run
    }

    /// Starts the binary with `args` and `env` in the work tree.
    pub fn spawn(&self, args: &[&str], env: &[(&str, &str)]) -> Running {
        self.env.spawn(&self.root, args, env)
    }

    /// Where the index of this work tree lives: `.git/context-graph/index.redb`.
    pub fn index_file(&self) -> PathBuf {
        self.root
            .join(".git")
            .join("context-graph")
            .join("index.redb")
    }

    /// `index --status --json`, which must succeed.
    pub fn index_status(&self) -> Value {
        let out = self.run(&["index", "--status", "--json"]);
        assert_eq!(
            out.code,
            Some(0),
            "index --status --json failed:\n{}",
            out.stderr
        );
        out.json()
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

fn assert_success(out: &Output, args: &[&str]) {
    assert!(
        out.status.success(),
        "git {} failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes a `git fast-import` stream: the syntax the history generators share (each test module
/// that needs a long history has its own generator, because each shapes its history for what it
/// tests).
#[derive(Default)]
pub struct FastImport {
    out: String,
    marks: usize,
}

impl FastImport {
    pub fn new() -> FastImport {
        FastImport::default()
    }

    /// A file change: `path` now holds `body`.
    pub fn file(path: &str, body: &str) -> String {
        format!("M 100644 inline {path}\ndata {}\n{body}\n", body.len())
    }

    /// A commit on `reference` (`refs/heads/main`) by `who` (`Name <email>`), authored and
    /// committed at `time` (seconds since the epoch, UTC), after `from` (`:3`, a ref, or `None`
    /// for a root commit), merging the mark `merge`, with `changes` (from [`FastImport::file`],
    /// or raw `D path` / `R from to` lines). Returns its mark.
    #[allow(clippy::too_many_arguments)]
    pub fn commit(
        &mut self,
        reference: &str,
        who: &str,
        time: usize,
        message: &str,
        from: Option<&str>,
        merge: Option<usize>,
        changes: &[String],
    ) -> usize {
        self.marks += 1;
        let out = &mut self.out;
        out.push_str(&format!("commit {reference}\nmark :{}\n", self.marks));
        out.push_str(&format!(
            "author {who} {time} +0000\ncommitter {who} {time} +0000\n"
        ));
        out.push_str(&format!("data {}\n{message}", message.len()));
        if !message.ends_with('\n') {
            out.push('\n');
        }
        if let Some(from) = from {
            out.push_str(&format!("from {from}\n"));
        }
        if let Some(m) = merge {
            out.push_str(&format!("merge :{m}\n"));
        }
        for c in changes {
            out.push_str(c);
        }
        out.push('\n');
        self.marks
    }

    /// The stream, for [`GitRepo::fast_import`].
    pub fn finish(self) -> String {
        self.out
    }
}
