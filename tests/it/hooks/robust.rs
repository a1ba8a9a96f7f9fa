//! Never in the way: the binary gone after install, someone else's failing hook still failing
//! the commit, merges and the commits of a rebase, cherry-pick or revert left alone (strict mode
//! included), and a failure of ours one line and exit 0.

use super::{bin, commit, decisions, git, install, ok, stderr};
use crate::git::GitRepo;
use std::os::unix::fs::PermissionsExt;

/// `PATH` without any folder holding a `context-graph`.
pub(super) fn path_without_us() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|dir| !dir.join("context-graph").exists())
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

#[test]
fn with_the_binary_gone_every_git_operation_still_succeeds() {
    let repo = decisions();
    // Installed by a copy of the binary, which is then removed.
    let copy = repo.env().path().join("bin/context-graph");
    std::fs::create_dir_all(copy.parent().expect("a folder")).expect("mkdir");
    std::fs::copy(bin(), &copy).expect("copy the binary");
    // Another test's process started while the copy was being written may hold it open for a
    // moment (ETXTBSY, "text file busy"): try again then.
    let mut tries = 0;
    let out = loop {
        match repo.command(&copy).arg("install-hooks").output() {
            Err(e) if e.raw_os_error() == Some(26) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other.expect("install with the copy"),
        }
    };
    ok(&out, "install-hooks");
    std::fs::remove_file(&copy).expect("remove the binary");
    repo.git(&["config", "context-graph.strict", "true"]);
    let path = path_without_us();
    let env = [("PATH", path.as_str())];
    let run = |args: &[&str]| -> String {
        let out = git(&repo, args, &env);
        let err = ok(&out, &args.join(" "));
        for line in err.lines().filter(|l| l.contains("context-graph")) {
            assert!(
                line.starts_with("context-graph: not found (neither the binary that installed this hook nor one on PATH); the ")
                    && line.ends_with(" hook goes on without it"),
                "{args:?}: {err}"
            );
        }
        err
    };
    repo.write("src/auth/login.py", "a = 1\n");
    run(&["add", "-A"]);
    let before = repo.head();
    let err = run(&["commit", "-q", "-m", "Uncited, strict, no binary"]);
    assert_ne!(repo.head(), before, "committed");
    assert!(
        err.contains("the commit-msg hook goes on without it"),
        "{err}"
    );
    assert!(
        err.contains("the post-commit hook goes on without it"),
        "{err}"
    );
    run(&["branch", "picks"]);
    run(&["checkout", "-q", "-b", "topic"]);
    repo.write("src/pay/charge.py", "b = 1\n");
    run(&["commit", "-q", "-a", "-m", "Topic"]);
    let picked = repo.head();
    run(&["checkout", "-q", "main"]);
    repo.write("README.md", "# Main\n");
    run(&["commit", "-q", "-a", "-m", "Main"]);
    run(&["merge", "-q", "--no-ff", "-m", "Merge", "topic"]);
    run(&["commit", "-q", "--amend", "-m", "Merge, amended"]);
    run(&["checkout", "-q", "-b", "later", "topic"]);
    run(&["rebase", "-q", "main"]);
    run(&["checkout", "-q", "picks"]);
    run(&["cherry-pick", picked.as_str()]);
    run(&["revert", "--no-edit", "HEAD"]);
}

/// Writes an executable hook of someone else's.
fn theirs(repo: &GitRepo, name: &str, text: &str) {
    let path = repo.path().join(".git/hooks").join(name);
    std::fs::write(&path, text).expect("write a hook");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn someone_elses_failing_hook_still_fails_the_commit() {
    let repo = decisions();
    theirs(
        &repo,
        "pre-commit",
        "#!/bin/sh\necho 'lint failed' >&2\nexit 1\n",
    );
    theirs(
        &repo,
        "commit-msg",
        "#!/bin/sh\ngrep -q 'JIRA-' \"$1\" || { echo 'no ticket' >&2; exit 3; }\n",
    );
    install(&repo);
    let before = repo.head();
    let out = commit(&repo, "src/free.py", "a = 1\n", "No lint");
    assert!(!out.status.success(), "their pre-commit fails it");
    assert!(stderr(&out).contains("lint failed"), "{}", stderr(&out));
    assert_eq!(repo.head(), before);
    theirs(
        &repo,
        "pre-commit",
        &std::fs::read_to_string(repo.path().join(".git/hooks/pre-commit"))
            .expect("read")
            .replace("exit 1", "exit 0"),
    );
    let out = git(
        &repo,
        &["commit", "-q", "-m", "Cited ADR-0001, no ticket"],
        &[],
    );
    assert!(!out.status.success(), "their commit-msg fails it");
    assert!(stderr(&out).contains("no ticket"), "{}", stderr(&out));
    assert_eq!(repo.head(), before);
    let out = git(&repo, &["commit", "-q", "-m", "JIRA-1"], &[]);
    ok(&out, "both hooks pass");
    assert_ne!(repo.head(), before);
}

#[test]
fn merges_and_the_commits_of_a_rebase_cherry_pick_or_revert_are_left_alone() {
    let repo = decisions();
    install(&repo);
    repo.git(&["config", "context-graph.strict", "true"]);
    // A topic of uncited governed commits, made past the hooks.
    repo.branch("topic");
    for (rel, n) in [("src/auth/login.py", 1), ("src/pay/charge.py", 2)] {
        repo.write(rel, &format!("v = {n}\n"));
        repo.git(&[
            "commit",
            "-q",
            "--no-verify",
            "-a",
            "-m",
            &format!("Uncited {n}"),
        ]);
    }
    let uncited = repo.head();
    repo.checkout("main");
    repo.write("src/auth/token.py", "t = 1\n");
    repo.git(&[
        "commit",
        "-q",
        "--no-verify",
        "-a",
        "-m",
        "Main moves (ADR-0001)",
    ]);
    let quiet = |out: std::process::Output, what: &str| {
        let err = ok(&out, what);
        assert!(!err.contains("context-graph"), "{what}: {err}");
    };
    quiet(
        git(
            &repo,
            &["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"],
            &[],
        ),
        "merge",
    );
    quiet(
        git(&repo, &["revert", "--no-edit", "HEAD~1"], &[]),
        "revert",
    );
    repo.checkout("topic");
    quiet(git(&repo, &["rebase", "-q", "main~2"], &[]), "rebase");
    repo.git(&["checkout", "-q", "-b", "picks", "main~2"]);
    quiet(
        git(&repo, &["cherry-pick", uncited.as_str()], &[]),
        "cherry-pick",
    );

    // A merge concluded by hand after a conflict: `git commit` with MERGE_HEAD.
    repo.git(&["checkout", "-q", "-b", "side", "main~2"]);
    repo.write("src/auth/token.py", "t = 2\n");
    repo.git(&["commit", "-q", "--no-verify", "-a", "-m", "Side"]);
    let conflict = git(&repo, &["merge", "-q", "--no-ff", "main"], &[]);
    assert!(!conflict.status.success(), "a conflict");
    repo.write("src/auth/token.py", "t = 3\n");
    repo.git(&["add", "src/auth/token.py"]);
    quiet(
        git(&repo, &["commit", "-q", "--no-edit"], &[]),
        "conclude the merge",
    );
    assert!(!repo.path().join(".git/MERGE_HEAD").exists());
}

#[test]
fn a_failure_of_ours_is_one_line_and_exit_0() {
    let env = crate::env::TestEnv::new();
    // Outside any repository.
    for hook in ["pre-commit", "post-commit", "commit-msg"] {
        let run = env.run(["hook", hook, "MSG"]);
        assert_eq!(run.code, Some(0), "{}", run.describe());
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.describe());
        assert!(
            run.stderr.starts_with(&format!(
                "context-graph: the {hook} hook went on without context-graph: "
            )),
            "{}",
            run.describe()
        );
    }
    // An unknown hook too (issue 39): `hook` exits 0 whatever it is given, saying why in one
    // line, so that a hook script of another version never stops git.
    let run = env.run(["hook", "pre-push"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.describe());
    assert!(
        run.stderr
            .starts_with("context-graph: the hook went on without context-graph: ")
            && run.stderr.contains("'pre-push'"),
        "{}",
        run.describe()
    );
}
