//! What the git module's unit tests share: git run in a folder with pinned names and dates and
//! no user or system configuration.

use std::path::Path;
use std::process::Command;

/// Whether git can be run here (a test that needs it passes without it).
pub fn has_git() -> bool {
    Command::new("git").arg("--version").output().is_ok()
}

/// A new, empty repository in a temporary folder; `None` when git cannot be run here (a
/// test that needs it then passes).
pub fn new_repo() -> Option<tempfile::TempDir> {
    if !has_git() {
        return None;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    git(dir.path(), &["init", "-q"], None);
    Some(dir)
}

/// Runs git with `args` in `dir`, `input` on its standard input, and asserts it succeeded.
pub fn git(dir: &Path, args: &[&str], input: Option<&str>) {
    use std::io::Write;
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Ana")
        .env("GIT_AUTHOR_EMAIL", "ana@example.com")
        .env("GIT_COMMITTER_NAME", "Ana")
        .env("GIT_COMMITTER_EMAIL", "ana@example.com")
        .env("GIT_AUTHOR_DATE", "2025-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2025-01-01T00:00:00Z")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("git");
    if let Some(text) = input {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success(), "git {args:?}");
}
