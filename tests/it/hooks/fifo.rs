//! No file the tool opens can make it, or git, wait (ADR-0008, ADR-0011): a FIFO named
//! `.ignore` or `.gitignore` in the tree (which nobody ever writes to) holds up no query, no
//! first index build and no commit, and is named in a note; a FIFO in place of `hooks.log`
//! holds up no commit and no checkout. Each run is killed after [`LIMIT`]: a hang fails.

#![cfg(unix)]

use super::{decisions, install};
use crate::fixture::mkfifo;
use crate::git::GitRepo;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a git operation may take here: a hang is killed after it.
const LIMIT: Duration = Duration::from_secs(20);

/// Lets go whoever waits on the FIFO `path` (a reader or a writer): opened for both, without
/// waiting, then closed. A test that failed leaves no process stuck behind it.
fn release(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(0o4000)
        .open(path);
}

/// Git with `args`, hooks running, killed after [`LIMIT`]: its exit status and stderr, or
/// `None` when it hung. Its output goes to a file, not a pipe a hook's background process
/// could hold open.
fn git_within(repo: &GitRepo, args: &[&str]) -> Option<(ExitStatus, String)> {
    let err_file = repo.env().path().join("git.stderr");
    let err = std::fs::File::create(&err_file).expect("a file for stderr");
    let mut child = repo
        .command("git")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(err)
        .spawn()
        .expect("run git");
    let deadline = Instant::now() + LIMIT;
    loop {
        if let Some(status) = child.try_wait().expect("wait for git") {
            let text = std::fs::read_to_string(&err_file).unwrap_or_default();
            return Some((status, text));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Asserts git `args` finished, and succeeded, within [`LIMIT`]; `fifo` is let go either way.
fn git_finishes(repo: &GitRepo, args: &[&str], fifo: &Path) {
    let done = git_within(repo, args);
    release(fifo);
    let Some((status, err)) = done else {
        panic!("git {args:?} hung on the FIFO {}", fifo.display());
    };
    assert!(status.success(), "git {args:?}: {status}\n{err}");
}

#[test]
fn a_fifo_ignore_file_holds_up_no_query_no_index_and_no_commit() {
    for name in [".ignore", ".gitignore"] {
        let repo = decisions();
        let rel = format!("src/auth/{name}");
        let fifo = repo.path().join(&rel);
        mkfifo(&fifo);
        // One above the repository too, where nothing is read.
        let above = repo.path().parent().expect("a folder above").join(name);
        mkfifo(&above);
        let note = format!("{rel}: not a regular file, its rules not read");
        // Said among the notes (the report's, or stderr's).
        let says =
            |run: &crate::env::Run| run.stdout().contains(&note) || run.stderr.contains(&note);

        let run = repo.run(&["check", "--no-index"]);
        release(&fifo);
        run.assert_finished();
        assert!(says(&run), "{name}: {}", run.describe());

        // The first index build, and the answer from it.
        let run = repo.run(&["why", "src/auth/login.py"]);
        release(&fifo);
        run.assert_code(0);
        assert!(run.stdout().contains("ADR-0001"), "{}", run.describe());
        assert!(says(&run), "{name}: {}", run.describe());

        // A real commit through every hook, and a new branch.
        install(&repo);
        repo.write("src/auth/login.py", "def login(): return 1\n");
        repo.git(&["add", "src/auth/login.py"]);
        let before = repo.head();
        git_finishes(&repo, &["commit", "-q", "-m", "Login (ADR-0001)"], &fifo);
        assert_ne!(repo.head(), before, "{name}: committed");
        git_finishes(&repo, &["checkout", "-q", "-b", "topic"], &fifo);
        let run = repo.run(&["why", "src/auth/login.py"]);
        release(&fifo);
        run.assert_code(0);
        assert!(
            std::fs::symlink_metadata(&fifo).is_ok_and(|m| m.file_type().is_fifo()),
            "{name}: left as it was"
        );
        let _ = std::fs::remove_file(&above);
    }
}

#[test]
fn a_fifo_hooks_log_holds_up_no_commit_and_no_checkout() {
    let repo = decisions();
    install(&repo);
    assert_eq!(repo.run(&["index"]).code, Some(0), "the index built");
    let log = repo.index_file().with_file_name("hooks.log");
    mkfifo(&log);
    repo.write("src/auth/login.py", "def login(): return 2\n");
    repo.git(&["add", "src/auth/login.py"]);
    let before = repo.head();
    git_finishes(&repo, &["commit", "-q", "-m", "Login (ADR-0001)"], &log);
    assert_ne!(repo.head(), before, "committed");
    git_finishes(&repo, &["checkout", "-q", "-b", "topic"], &log);
    repo.write("src/pay/charge.py", "def charge(): return 2\n");
    repo.git(&["add", "src/pay/charge.py"]);
    git_finishes(&repo, &["commit", "-q", "-m", "Charge (ADR-0002)"], &log);
    // A write's background refresh logs there too.
    let run = repo.run(&["new", "Later", "--date", "2025-03-01"]);
    release(&log);
    run.assert_code(0);
    assert!(
        std::fs::symlink_metadata(&log).is_ok_and(|m| m.file_type().is_fifo()),
        "left as it was"
    );
}

#[test]
fn a_fifo_in_place_of_a_hook_holds_up_no_install() {
    let repo = decisions();
    let hook = repo.path().join(".git/hooks/post-commit");
    std::fs::create_dir_all(hook.parent().expect("the hooks folder")).expect("mkdir");
    mkfifo(&hook);
    let run = repo.run(&["install-hooks"]);
    release(&hook);
    run.assert_usage_error();
    assert!(
        run.stderr.contains("post-commit") && run.stderr.contains("not a regular file"),
        "{}",
        run.describe()
    );
    assert!(
        std::fs::symlink_metadata(&hook).is_ok_and(|m| m.file_type().is_fifo()),
        "left as it was"
    );
}
