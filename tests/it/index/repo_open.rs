//! How a warm answer opens the repository (ADR-0016, amendment of 2026-12-06): the git dir, the
//! common dir, HEAD and git's index file read directly, without gix's discovery and
//! configuration read; anything unusual opened by gix as before. Through the binary: HEAD as
//! git says it in every shape it can take (a loose branch, a packed one, one packed and then
//! loose again, a detached HEAD, a branch that is a symbolic reference, a linked worktree's own
//! HEAD, `GIT_DIR` set), each answer equal to `--no-index`'s; and a warm answer, traced, looks
//! up none of the files only gix's open reads.

use super::{assert_same, PAST_RACY_WINDOW};
use crate::git::GitRepo;
use std::path::Path;
use std::process::Stdio;

const ADR: &str = "docs/adr/0001-use-tokens.md";
const FILE: &str = "src/auth/token.rs";

/// A record governing `src/auth/`, a file there, two commits, the second citing the record.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        ADR,
        &super::tokens_adr("Authentication lives in `src/auth/`."),
    )
    .write(FILE, "fn token() {}\n");
    repo.commit_at("2026-01-02T10:00:00Z", "Ana", "Start");
    repo.write(FILE, "fn token() { 1 }\n");
    repo.commit_at("2026-01-03T10:00:00Z", "Ana", "Tokens per ADR-0001");
    repo
}

/// The commit `index --status --json` run in `dir` with `env` says HEAD is.
fn status_head(repo: &GitRepo, dir: &Path, env: &[(&str, &str)]) -> String {
    let run = repo
        .env()
        .run_with(dir, ["index", "--status", "--json"], env);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.json()["head"].as_str().expect("head").to_string()
}

/// The short ids of the commits citing ADR-0001 that `why FILE --git --json` in `dir` lists.
fn citing(repo: &GitRepo, dir: &Path) -> Vec<String> {
    let run = repo
        .env()
        .run_with(dir, ["why", FILE, "--git", "--json"], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.json()["records"][0]["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| c["sha"].as_str().expect("sha").to_string())
        .collect()
}

/// Asserts HEAD as the binary reads it is the commit git names, warm and fresh answers alike,
/// and `why --git` equal to `--no-index`'s.
fn assert_head(repo: &GitRepo, step: &str) {
    let git_head = repo.head();
    assert_eq!(status_head(repo, repo.path(), &[]), git_head, "{step}");
    repo.run(&["index"]);
    assert_eq!(status_head(repo, repo.path(), &[]), git_head, "{step}");
    assert_same(repo, step, &["why", FILE, "--git", "--json"]);
}

#[test]
fn head_is_read_as_git_reads_it_in_every_shape() {
    let repo = repo();
    assert_head(&repo, "a loose branch");
    repo.git(&["pack-refs", "--all"]);
    assert!(
        !repo.path().join(".git/refs/heads/main").exists(),
        "the branch is packed"
    );
    assert_head(&repo, "a packed branch");
    repo.write(FILE, "fn token() { 2 }\n");
    let third = repo.commit_at("2026-01-04T10:00:00Z", "Ana", "More per ADR-0001");
    assert_head(&repo, "packed, then loose again (the loose one wins)");
    assert!(
        citing(&repo, repo.path()).contains(&third[..7].to_string()),
        "the newest citing commit is in the answer"
    );
    repo.git(&["checkout", "-q", "--detach", "HEAD~1"]);
    assert_head(&repo, "a detached HEAD");
    assert!(!citing(&repo, repo.path()).contains(&third[..7].to_string()));
    repo.git(&["checkout", "-q", "main"]);
    repo.git(&["symbolic-ref", "refs/heads/alias", "refs/heads/main"]);
    repo.git(&["symbolic-ref", "HEAD", "refs/heads/alias"]);
    assert_head(&repo, "a branch that is a symbolic reference");
    repo.git(&["symbolic-ref", "HEAD", "refs/heads/main"]);
    let git_dir = repo.path().join(".git").display().to_string();
    assert_eq!(
        status_head(&repo, repo.path(), &[("GIT_DIR", &git_dir)]),
        repo.head(),
        "GIT_DIR set"
    );
}

/// A linked worktree has a HEAD of its own (in `.git/worktrees/NAME`) and shares the branches
/// (in the common dir): its answers are for its own commits, not the main work tree's.
#[test]
fn a_linked_worktree_answers_for_its_own_head() {
    let repo = repo();
    repo.run(&["index"]);
    let wt = repo.linked_worktree("wt", "topic");
    std::fs::write(wt.join(FILE), "fn token() { 3 }\n").expect("write in the worktree");
    let run = |args: &[&str]| {
        let out = repo
            .env()
            .command("git")
            .arg("-C")
            .arg(&wt)
            .args(args)
            .output()
            .expect("git in the worktree");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    run(&["commit", "-qam", "Topic work per ADR-0001"]);
    let topic = run(&["rev-parse", "HEAD"]);
    assert_ne!(topic, repo.head());
    assert_eq!(status_head(&repo, &wt, &[]), topic, "the worktree's HEAD");
    assert!(citing(&repo, &wt).contains(&topic[..7].to_string()));
    assert!(!citing(&repo, repo.path()).contains(&topic[..7].to_string()));
    let warm = repo
        .env()
        .run_with(&wt, ["why", FILE, "--git", "--json"], &[]);
    let fresh = repo
        .env()
        .run_with(&wt, ["why", FILE, "--git", "--json", "--no-index"], &[]);
    assert_eq!(warm.stdout(), fresh.stdout(), "warm and fresh alike");
    assert_eq!(status_head(&repo, repo.path(), &[]), repo.head());
}

/// A warm answer does not open the repository through gix: it looks up none of the files only
/// gix's discovery and open read (`commondir`, the object store's `info/alternates`,
/// `refs/replace/`, `packed-refs` while the branch is loose) and lists no folder of `.git`'s
/// objects. Before, every answer did (5–11% of a warm answer on the corpora, issue 41).
#[test]
fn a_warm_answer_reads_head_without_opening_the_repository_through_gix() {
    let repo = repo();
    let why = ["why", FILE, "--json"];
    repo.run(&["index"]);
    std::thread::sleep(PAST_RACY_WINDOW);
    assert_same(&repo, "warm", &why);
    let probe = repo.command("strace").arg("-V").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        crate::skip::skipped("strace is not on PATH (apt-get install strace)");
        return;
    }
    let log = repo.env().path().join("open.log");
    let out = repo
        .command("strace")
        .args(["-f", "-qq", "-o"])
        .arg(&log)
        .arg(crate::env::BIN)
        .args(why)
        .stdin(Stdio::null())
        .output()
        .expect("run strace");
    let traced = std::fs::read_to_string(&log).unwrap_or_default();
    if !out.status.success() && traced.is_empty() {
        crate::skip::skipped(&format!(
            "strace cannot trace here: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
        return;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gix_only = [
        "commondir",
        "objects/info/alternates",
        "refs/replace",
        "packed-refs",
    ];
    let found = repo.gix_lookups(&traced, &gix_only);
    assert!(
        found.is_empty(),
        "the warm answer opened the repository through gix:\n{}",
        found.join("\n")
    );
    assert!(
        !repo.gix_lookups(&traced, &["HEAD"]).is_empty(),
        "HEAD is read"
    );
}
