//! Never in the way (ADR-0008), as a new user meets the hooks: a `.git/context-graph` that
//! cannot be written, the README's husky and lefthook lines without the binary, a subject that
//! starts with `#` under `-m`, fixup and squash commits.

use super::{decisions, git, install, ok, stderr};
use crate::git::GitRepo;

/// Asserts nothing but git spoke: no shell error, no line of ours.
fn quiet(out: &std::process::Output, what: &str) {
    let err = ok(out, what);
    for bad in ["context-graph", "cannot", "sh: ", "No such", "Permission"] {
        assert!(!err.contains(bad), "{what}: {err}");
    }
}

/// Runs commit, checkout, merge and rebase, cited commits in strict mode, through the hooks
/// with `.git/context-graph` as `spoil` leaves it; an uncited commit is still refused.
fn every_operation_succeeds_quietly(repo: &GitRepo) {
    repo.git(&["config", "context-graph.strict", "true"]);
    let run = |args: &[&str]| git(repo, args, &[]);
    repo.write("src/auth/login.py", "a = 1\n");
    quiet(&run(&["add", "-A"]), "add");
    let before = repo.head();
    quiet(
        &run(&["commit", "-q", "-m", "Shorter tokens (ADR-0001)"]),
        "a cited commit",
    );
    assert_ne!(repo.head(), before);
    quiet(
        &run(&["commit", "-q", "--amend", "-m", "Short tokens (ADR-0001)"]),
        "an amend",
    );
    quiet(&run(&["checkout", "-q", "-b", "topic"]), "checkout -b");
    repo.write("src/pay/charge.py", "b = 1\n");
    quiet(
        &run(&["commit", "-q", "-a", "-m", "Gateway (ADR-0002)"]),
        "a commit on the topic",
    );
    quiet(&run(&["checkout", "-q", "main"]), "checkout main");
    repo.write("README.md", "# Main\n");
    quiet(
        &run(&["commit", "-q", "-a", "-m", "Main"]),
        "an ungoverned commit",
    );
    quiet(
        &run(&["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"]),
        "merge",
    );
    quiet(
        &run(&["checkout", "-q", "-b", "later", "topic"]),
        "checkout",
    );
    quiet(&run(&["rebase", "-q", "main"]), "rebase");
    // Strict mode's refusal still passes through.
    repo.write("src/auth/token.py", "t = 9\n");
    let before = repo.head();
    let out = run(&["commit", "-q", "-a", "-m", "Uncited"]);
    assert!(!out.status.success(), "strict refuses: {}", stderr(&out));
    assert!(stderr(&out).contains("ADR-0001"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("cannot"), "{}", stderr(&out));
    assert_eq!(repo.head(), before);
}

#[test]
fn a_regular_file_in_place_of_the_index_folder_blocks_nothing() {
    let repo = decisions();
    install(&repo);
    let dir = repo.path().join(".git/context-graph");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::write(&dir, "not a folder\n").expect("a file in its place");
    every_operation_succeeds_quietly(&repo);
    assert!(dir.is_file(), "left as it was");
}

#[test]
fn an_index_folder_nothing_can_be_written_in_blocks_nothing() {
    let repo = decisions();
    install(&repo);
    let dir = repo.path().join(".git/context-graph");
    std::fs::create_dir_all(&dir).expect("mkdir");
    // Folders where the hooks write their notes and log: no one, root included, can write them.
    for name in ["message-source", "checked", "hooks.log"] {
        std::fs::create_dir_all(dir.join(name).join("x")).expect("a folder in its place");
    }
    // And, for anyone but root, a folder made read-only (as one root made would be).
    let root = rustix::process::geteuid().is_root();
    if !root {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    }
    every_operation_succeeds_quietly(&repo);
    if !root {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}
