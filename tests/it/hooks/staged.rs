//! `git::staged_paths` against `git diff --cached --name-only`: added, modified, deleted,
//! executable, nested and conflicted paths, a cache-tree that vouches for whole folders or for
//! none, an unborn HEAD, an amend's base, and a root below the top of the work tree.

use crate::git::GitRepo;
use context_graph::git::{self as history, staged_paths};
use std::path::Path;

fn sha(hex: &str) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

/// Ours against git's, comparing with the commit `base` (`None`: the empty tree).
fn same_as_git(repo: &GitRepo, base: Option<&str>, what: &str) -> Vec<String> {
    let opened = history::open(repo.path())
        .expect("open")
        .expect("a repository");
    let base_id = base.map(|b| sha(&repo.rev(b)));
    let ours = staged_paths(&opened, None, base_id).expect("staged paths");
    let git = match base {
        Some(b) => repo.git(&["diff", "--cached", "--name-only", "--no-renames", b]),
        None => repo.git(&["diff", "--cached", "--name-only", "--no-renames", "--root"]),
    };
    let mut git: Vec<String> = git.lines().map(str::to_string).collect();
    git.sort();
    assert_eq!(ours, git, "{what}");
    ours
}

#[test]
fn staged_paths_are_what_git_would_commit() {
    let repo = GitRepo::new();
    repo.write("a.txt", "a\n")
        .write("src/x/y.rs", "y\n")
        .write("src/z.rs", "z\n");
    repo.git(&["add", "-A"]);
    let opened = history::open(repo.path()).expect("open").expect("repo");
    assert_eq!(
        staged_paths(&opened, None, None).expect("unborn"),
        ["a.txt", "src/x/y.rs", "src/z.rs"]
    );
    repo.git(&["commit", "-q", "--no-verify", "-m", "one"]);
    assert!(same_as_git(&repo, Some("HEAD"), "nothing staged").is_empty());

    repo.write("src/x/y.rs", "y2\n")
        .write("src/new/n.rs", "n\n");
    repo.remove("src/z.rs");
    repo.git(&["add", "-A"]);
    repo.chmod_x("a.txt");
    repo.write("later.txt", "l\n");
    repo.git(&["add", "-N", "later.txt"]);
    let found = same_as_git(&repo, Some("HEAD"), "a mix");
    assert_eq!(found, ["a.txt", "src/new/n.rs", "src/x/y.rs", "src/z.rs"]);

    // Committed, then one more change: the cache-tree vouches for the untouched folders.
    repo.git(&["commit", "-q", "--no-verify", "-m", "two"]);
    repo.write("src/x/y.rs", "y3\n");
    repo.git(&["add", "src/x/y.rs"]);
    same_as_git(&repo, Some("HEAD"), "one file after a commit");
    // An amend compares with HEAD's parent.
    let amend = same_as_git(&repo, Some("HEAD~1"), "against the parent");
    assert!(amend.len() > 1, "{amend:?}");
    // An index without a cache-tree at all.
    std::fs::remove_file(repo.path().join(".git/index")).expect("drop the index");
    repo.git(&["reset", "-q"]);
    repo.git(&["add", "src/x/y.rs"]);
    same_as_git(&repo, Some("HEAD"), "no cache-tree");
    // The same once every object is packed, and with the new ones loose and the rest packed.
    repo.git(&["gc", "-q", "--prune=now"]);
    same_as_git(&repo, Some("HEAD"), "every object packed");
    same_as_git(
        &repo,
        Some("HEAD~1"),
        "every object packed, against the parent",
    );
    repo.git(&["commit", "-q", "--no-verify", "-m", "three"]);
    repo.write(
        "src/x/y.rs",
        "y4
",
    )
    .write(
        "src/new/m.rs",
        "m
",
    );
    repo.git(&["add", "-A"]);
    same_as_git(&repo, Some("HEAD"), "a loose commit and trees");
    let found = same_as_git(&repo, Some("HEAD~1"), "loose and packed");
    assert_eq!(found, ["later.txt", "src/new/m.rs", "src/x/y.rs"]);
}

#[test]
fn a_conflict_and_a_root_below_the_top() {
    let repo = GitRepo::new();
    repo.write("sub/a.txt", "a\n").write("b.txt", "b\n");
    repo.commit_at("2025-01-01T00:00:00Z", "Ana", "one");
    repo.branch("side");
    repo.write("sub/a.txt", "side\n");
    repo.commit_at("2025-01-02T00:00:00Z", "Ana", "side");
    repo.checkout("main");
    repo.write("sub/a.txt", "main\n").write("b.txt", "b2\n");
    repo.commit_at("2025-01-03T00:00:00Z", "Ana", "main");
    let merge = repo
        .command("git")
        .args(["merge", "-q", "side"])
        .output()
        .expect("merge");
    assert!(!merge.status.success(), "a conflict");
    let opened = history::open(repo.path()).expect("open").expect("repo");
    let head = Some(sha(&repo.head()));
    assert_eq!(
        staged_paths(&opened, None, head).expect("staged"),
        ["sub/a.txt"]
    );
    // Opened at `sub/`: paths relative to it, others dropped.
    let sub = history::open(&repo.path().join("sub"))
        .expect("open")
        .expect("repo");
    repo.git(&["merge", "--abort"]);
    repo.write("b.txt", "b3\n").write("sub/a.txt", "a3\n");
    repo.git(&["add", "-A"]);
    assert_eq!(staged_paths(&sub, None, head).expect("staged"), ["a.txt"]);
    // A missing index file stages nothing.
    let missing = Path::new("/nonexistent/index");
    assert!(staged_paths(&sub, Some(missing), head)
        .expect("none")
        .is_empty());
}

/// The version git's index file is written in.
fn index_version(repo: &GitRepo) -> u32 {
    let bytes = std::fs::read(repo.path().join(".git/index")).expect("the index");
    u32::from_be_bytes(bytes[4..8].try_into().expect("a header"))
}

/// Every form git writes its index in gives the same staged paths: versions 2 and 3 (3 once an
/// entry is added with `-N`), version 4 and a split index.
#[test]
fn every_form_of_the_index_gives_the_same_paths() {
    let repo = GitRepo::new();
    repo.write("a.txt", "a\n")
        .write("src/x/y.rs", "y\n")
        .write("src/z.rs", "z\n")
        .write("docs/d.md", "d\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "--no-verify", "-m", "one"]);
    repo.write("src/x/y.rs", "y2\n").write("new.txt", "n\n");
    repo.remove("docs/d.md");
    repo.git(&["add", "-A"]);
    assert_eq!(index_version(&repo), 2);
    let want = same_as_git(&repo, Some("HEAD"), "version 2");
    assert_eq!(want, ["docs/d.md", "new.txt", "src/x/y.rs"]);
    for (args, version) in [
        // Git writes version 3 only for an entry that needs its extended flags.
        (&["update-index", "--index-version", "3"][..], 2),
        (&["update-index", "--index-version", "4"], 4),
        (&["update-index", "--index-version", "2"], 2),
        (&["update-index", "--split-index"], 2),
        (&["update-index", "--no-split-index"], 2),
    ] {
        repo.git(args);
        assert_eq!(index_version(&repo), version, "{args:?}");
        assert_eq!(same_as_git(&repo, Some("HEAD"), &args.join(" ")), want);
    }
    repo.write("later.txt", "l\n");
    repo.git(&["add", "-N", "later.txt"]);
    assert_eq!(index_version(&repo), 3, "an entry with extended flags");
    assert_eq!(same_as_git(&repo, Some("HEAD"), "an intent to add"), want);
    repo.git(&["update-index", "--index-version", "4"]);
    assert_eq!(same_as_git(&repo, Some("HEAD"), "version 4, -N"), want);
}
