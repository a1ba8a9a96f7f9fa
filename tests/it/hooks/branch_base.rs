//! Where a branch starts, for a decision named once per branch (docs/hooks.md), through real
//! `git commit`: known without gix when no branch was left (the default branch of a repository
//! without a remote, issue 41), and from the upstream or a packed `main` as before.
//! Each commit below is Ana's, edits code ADR-0001 governs and cites nothing.

use super::{commit, decisions, git, install, ok};
use crate::git::GitRepo;

/// Whether git's output holds the full warning about ADR-0001.
fn warned(err: &str) -> bool {
    err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001")
}

/// Whether it holds the one-line reminder instead.
fn again(err: &str) -> bool {
    err.contains("context-graph: ADR-0001 again (first named in")
}

/// Decisions, the hooks installed, on the branch `default`, and one warned commit there.
fn warned_on(default: &str) -> GitRepo {
    let repo = decisions();
    if default != "main" {
        repo.git(&["checkout", "-q", "-b", default]);
        repo.git(&["branch", "-q", "-D", "main"]);
    }
    install(&repo);
    let first = ok(
        &commit(&repo, "src/auth/login.py", "def login(): return 1\n", "One"),
        "git commit",
    );
    assert!(warned(&first), "{first}");
    repo
}

/// On the default branch of a repository without a remote, no branch was left: each commit
/// gets the full warning, as before gix was left out of it. A branch off it reminds.
#[test]
fn on_the_default_branch_without_a_remote_no_branch_was_left() {
    let repo = warned_on("main");
    let second = ok(
        &commit(&repo, "src/auth/token.py", "def token(): return 1\n", "Two"),
        "git commit",
    );
    assert!(warned(&second), "{second}");
    repo.branch("feature");
    warned_then_reminded(&repo);
}

/// Two commits on the current branch: the first warned in full, the second reminded (a branch
/// left from where it started; with none found, both would be warned in full).
fn warned_then_reminded(repo: &GitRepo) {
    for (file, message) in [
        ("src/auth/login.py", "Three"),
        ("src/auth/token.py", "Four"),
    ] {
        let out = ok(&commit(repo, file, "a = 1\n", message), "git commit");
        match message {
            "Three" => assert!(warned(&out), "{message}: {out}"),
            _ => assert!(again(&out), "{message}: {out}"),
        }
    }
}

/// A `main` that only `packed-refs` holds still starts a branch off it.
#[test]
fn a_branch_off_a_packed_main_starts_there() {
    let repo = warned_on("main");
    ok(&git(&repo, &["pack-refs", "--all"], &[]), "git pack-refs");
    assert!(
        !repo.path().join(".git/refs/heads/main").exists(),
        "main is packed"
    );
    repo.branch("feature");
    warned_then_reminded(&repo);
}

/// A branch tracking a local `trunk` (neither `main` nor `master`) starts where it left it.
#[test]
fn a_branch_tracking_another_starts_where_it_left_it() {
    let repo = warned_on("trunk");
    ok(
        &git(
            &repo,
            &["checkout", "-q", "--track", "-b", "feature", "trunk"],
            &[],
        ),
        "git checkout --track",
    );
    warned_then_reminded(&repo);
}

/// On the default branch without a remote, the commit-msg hook after a commit opens the
/// repository through gix for nothing: it looks up none of the files only gix's discovery and
/// open read (`commondir`, the object store's `info/alternates`, `refs/replace/`).
#[test]
fn the_hook_on_the_default_branch_leaves_gix_closed() {
    let repo = warned_on("main");
    let probe = repo.command("strace").arg("-V").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        crate::skip::skipped("strace is not on PATH (apt-get install strace)");
        return;
    }
    repo.write("src/auth/token.py", "def token(): return 2\n");
    ok(
        &git(&repo, &["add", "--", "src/auth/token.py"], &[]),
        "git add",
    );
    let message = repo.env().path().join("MSG");
    std::fs::write(&message, "Two\n").expect("write the message");
    let log = repo.env().path().join("hook.log");
    let out = repo
        .command("strace")
        .args(["-f", "-qq", "-o"])
        .arg(&log)
        .arg(repo.path().join(".git/hooks/commit-msg"))
        .arg(&message)
        .env("GIT_AUTHOR_NAME", "Ana")
        .env("GIT_AUTHOR_EMAIL", "ana@example.com")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run strace");
    let traced = std::fs::read_to_string(&log).unwrap_or_default();
    if !out.status.success() && traced.is_empty() {
        crate::skip::skipped("strace cannot trace here");
        return;
    }
    assert!(warned(&String::from_utf8_lossy(&out.stderr)), "{out:?}");
    let gix_only = ["commondir", "objects/info/alternates", "refs/replace"];
    let found = repo.gix_lookups(&traced, &gix_only);
    assert!(
        found.is_empty(),
        "the hook opened gix:\n{}",
        found.join("\n")
    );
}

/// The commit hook reads its branch oldest first and stops once each decision is found named:
/// a newer commit of the branch whose tree cannot be read (its object gone) is never read,
/// where reading the whole branch first failed and left every commit warned in full.
#[test]
fn the_branch_is_read_only_as_far_as_the_first_commit_that_named_the_decision() {
    let repo = warned_on("main");
    repo.branch("feature");
    warned_then_reminded(&repo);
    ok(
        &commit(&repo, "src/auth/login.py", "c = 1\n", "Five"),
        "git commit",
    );
    // "Four"'s own tree, loose as git wrote it, removed.
    let tree = repo.rev("HEAD~1^{tree}");
    let loose = repo
        .path()
        .join(".git/objects")
        .join(&tree[..2])
        .join(&tree[2..]);
    std::fs::remove_file(&loose).expect("the tree is a loose object");
    let out = ok(
        &commit(&repo, "src/auth/token.py", "d = 1\n", "Six"),
        "git commit",
    );
    assert!(again(&out) && !warned(&out), "{out}");
}
