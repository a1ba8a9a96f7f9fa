//! The index's side of the history, through the library: `open` (HEAD, branches, where the root
//! is, linked worktrees) without walking, walks from known commits that add only the new ones as a
//! full walk sees them (the index's incremental update), `from_walk`, canonical order, progress,
//! the shallow boundary, and the timing `bench/history.sh --api` runs.

use super::{loaded, long_history_stream, varied_history};
use crate::git::GitRepo;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::git::{self as history, WalkedCommit};

fn id(hex: &str) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex");
    }
    out
}

fn opened(root: &Path) -> history::Repo {
    history::open(root)
        .expect("open works")
        .expect("a work tree")
}

/// Every commit reachable from `tip`, walked from nothing, by id.
fn walk_all(repo: &history::Repo, tip: [u8; 20]) -> BTreeMap<[u8; 20], WalkedCommit> {
    history::walk_new(repo, tip, &|_| false, None)
        .expect("walk")
        .into_iter()
        .map(|c| (c.id, c))
        .collect()
}

#[test]
fn open_reads_head_branches_and_where_the_root_is_without_walking() {
    let repo = varied_history();
    let opened_top = opened(repo.path());
    assert_eq!(opened_top.head, Some(id(&repo.head())));
    assert_eq!(opened_top.prefix, "");
    assert_eq!(opened_top.workdir, repo.path());
    assert_eq!(
        opened_top.git_dir.canonicalize().unwrap(),
        repo.path().join(".git")
    );
    assert!(!opened_top.shallow);
    let mut branches = vec![id(&repo.rev("main")), id(&repo.rev("side"))];
    branches.sort_unstable();
    assert_eq!(opened_top.local_branches().unwrap(), branches);
    assert_eq!(history::sha_hex(&id(&repo.head())), repo.head());

    let sub = opened(&repo.path().join("src/x"));
    assert_eq!(sub.prefix, "src/x/");
    assert_eq!(sub.head, opened_top.head);

    // Detached HEAD.
    repo.checkout(&repo.rev("HEAD~2"));
    assert_eq!(opened(repo.path()).head, Some(id(&repo.rev("HEAD"))));

    assert!(history::open(GitRepo::empty_folder().path())
        .unwrap()
        .is_none());
    assert!(history::open(&repo.path().join(".git")).unwrap().is_none());
    let empty = GitRepo::new();
    let unborn = opened(empty.path());
    assert_eq!(unborn.head, None);
    assert!(unborn.local_branches().unwrap().is_empty());
}

#[test]
fn a_linked_worktree_has_its_own_git_dir_and_head() {
    let repo = varied_history();
    let wt = repo.linked_worktree("wt", "topic");
    std::fs::write(wt.join("t.txt"), "t\n").unwrap();
    let mut cmd = repo.command("git");
    cmd.current_dir(&wt).args(["add", "t.txt"]);
    assert!(cmd.status().unwrap().success());
    let mut cmd = repo.command("git");
    cmd.current_dir(&wt).args(["commit", "-q", "-m", "Topic"]);
    assert!(cmd.status().unwrap().success());

    let linked = opened(&wt);
    assert_eq!(linked.workdir, wt);
    assert!(
        linked.git_dir.ends_with(".git/worktrees/wt"),
        "{}",
        linked.git_dir.display()
    );
    assert_eq!(linked.head, Some(id(&repo.rev("topic"))));
    assert_ne!(linked.head, opened(repo.path()).head);
    assert!(linked
        .local_branches()
        .unwrap()
        .contains(&id(&repo.rev("topic"))));
    let data = loaded(&wt);
    assert_eq!(&*data.commits[0].subject, "Topic");
    assert_eq!(data.by_path["t.txt"], [0]);
}

#[test]
fn load_is_open_then_walk_then_from_walk() {
    let repo = varied_history();
    for root in [repo.path().to_path_buf(), repo.path().join("src")] {
        let r = opened(&root);
        let walked = history::walk_new(&r, r.head.unwrap(), &|_| false, None).unwrap();
        assert_eq!(walked.len(), 8);
        let data = history::from_walk(&r, walked);
        assert_eq!(data.total_commits, 8);
        assert_eq!(data.head, repo.head());
        assert_eq!(loaded(&root), data);
    }
}

/// Walking part of the history, then the rest with that part known, gives each commit exactly
/// as one walk of everything does: the index's incremental update.
fn check_incremental(repo: &GitRepo, bases: &[&str]) {
    let r = opened(repo.path());
    let head = r.head.unwrap();
    let full = walk_all(&r, head);
    let mut known: HashSet<[u8; 20]> = HashSet::new();
    for base in bases {
        let before = known.clone();
        let part = history::walk_new(&r, id(&repo.rev(base)), &|c| before.contains(c), None)
            .expect("walk part");
        for c in part {
            assert!(known.insert(c.id), "{base}: a commit walked twice");
            assert_eq!(Some(&c), full.get(&c.id), "{base}: as the full walk has it");
        }
    }
    let known_now = known.clone();
    let rest = history::walk_new(&r, head, &|c| known_now.contains(c), None).expect("walk rest");
    for c in &rest {
        assert!(!known.contains(&c.id), "a known commit walked again");
        assert_eq!(Some(c), full.get(&c.id), "as the full walk has it");
        known.insert(c.id);
    }
    assert_eq!(known.len(), full.len(), "every commit, once");
    // The tip known: nothing to do.
    let everything = known.clone();
    assert!(
        history::walk_new(&r, head, &|c| everything.contains(c), None)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_walk_from_known_commits_adds_only_the_new_ones_as_a_full_walk_sees_them() {
    let repo = varied_history();
    check_incremental(&repo, &["HEAD~1"]);
    check_incremental(&repo, &["side"]);
    check_incremental(&repo, &["side", "HEAD~3"]);
    check_incremental(&repo, &["HEAD^{/Root commit}"]);

    let long = GitRepo::new();
    long.fast_import(&long_history_stream(400));
    long.git(&["repack", "-adq"]);
    check_incremental(&long, &["HEAD~150"]);
    check_incremental(&long, &["side", "HEAD~1"]);
}

#[test]
fn walked_commits_carry_parents_changes_and_renames_from_the_work_tree_top() {
    let repo = varied_history();
    let r = opened(&repo.path().join("docs"));
    let full = walk_all(&r, r.head.unwrap());
    let by_subject = |s: &str| full.values().find(|c| &*c.meta.subject == s).unwrap();
    let moved = by_subject("Move records");
    assert_eq!(moved.parents, [id(&repo.rev("HEAD~3"))]);
    assert_eq!(
        moved.renames,
        [
            (
                "docs/adr/0002-b.md".to_string(),
                "docs/adr/0002-bee.md".to_string()
            ),
            (
                "docs/adr/0001-a.md".to_string(),
                "docs/decisions/0001-a.md".to_string()
            ),
        ]
    );
    assert!(moved
        .changes
        .contains(&"docs/decisions/0001-a.md".to_string()));
    let merge = by_subject("Merge side");
    assert_eq!(merge.parents.len(), 2);
    assert!(merge.meta.is_merge && merge.changes.is_empty());
    let root = by_subject("Root commit");
    assert!(root.parents.is_empty());
    assert_eq!(root.changes.len(), 6, "{:?}", root.changes);
    assert!(root.changes.windows(2).all(|w| w[0] < w[1]), "sorted");
    // from_walk keeps what is under the root, relative to it.
    let data = history::from_walk(&r, full.into_values().collect());
    assert!(data.by_path.contains_key("adr/0002-bee.md"));
    assert!(data.by_path.keys().all(|p| !p.starts_with("docs/")));
    assert_eq!(data.renames.len(), 2);
    assert_eq!(data.renames[0].from, "adr/0002-b.md");
}

#[test]
fn commits_are_in_canonical_order_newest_first_then_by_sha() {
    let repo = GitRepo::new();
    repo.write("a.txt", "0\n");
    repo.commit_at("2025-01-01T08:00:00Z", "Ana", "Root");
    // Six commits in the same second, on two branches merged in the same second too.
    for i in 0..3 {
        repo.write("a.txt", &format!("{i}\n"));
        repo.commit_at("2025-01-02T08:00:00Z", "Ana", &format!("Main {i}"));
    }
    repo.branch("other");
    repo.reset_hard("HEAD~3");
    for i in 0..3 {
        repo.write("b.txt", &format!("{i}\n"));
        repo.commit_at("2025-01-02T08:00:00Z", "Ben", &format!("Other {i}"));
    }
    repo.checkout("main");
    repo.merge_no_ff("other", "2025-01-02T08:00:00Z", "Cy", "Merge");
    let data = loaded(repo.path());
    assert_eq!(data.commits.len(), 8);
    assert_eq!(data.total_commits, 8);
    assert_eq!(&*data.commits[7].subject, "Root");
    let tied: Vec<String> = data.commits[..7]
        .iter()
        .map(|c| c.sha.to_string())
        .collect();
    let mut sorted = tied.clone();
    sorted.sort_unstable();
    assert_eq!(tied, sorted, "ties by sha ascending");
    for list in data.by_path.values() {
        assert!(list.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn progress_reports_the_diffs_from_none_to_all() {
    let repo = GitRepo::new();
    repo.fast_import(&long_history_stream(700));
    let r = opened(repo.path());
    let calls = std::sync::Mutex::new(Vec::new());
    let walked = history::walk_new(
        &r,
        r.head.unwrap(),
        &|_| false,
        Some(&|done, total| calls.lock().unwrap().push((done, total))),
    )
    .unwrap();
    let diffs = walked.iter().filter(|c| !c.meta.is_merge).count();
    let calls = calls.into_inner().unwrap();
    // The diffs run beside the walk (ADR-0005): the total is the diffs found so far, all of
    // them by the end.
    assert_eq!(calls.first().map(|c| c.0), Some(0));
    assert_eq!(calls.last(), Some(&(diffs, diffs)));
    assert!(calls.len() >= 4, "now and then: {calls:?}");
    assert!(calls
        .iter()
        .all(|&(done, total)| done <= total && total <= diffs));
}

#[test]
fn a_shallow_boundary_has_no_parents_in_the_walk() {
    let origin = varied_history();
    let clone = origin.shallow_clone(2);
    let r = opened(clone.path());
    assert!(r.shallow);
    let full = walk_all(&r, r.head.unwrap());
    assert_eq!(full.len(), 2);
    let boundary = full.values().find(|c| c.parents.is_empty()).unwrap();
    assert_eq!(&*boundary.meta.subject, "A file becomes a folder");
    // Diffed against the empty tree, as git does at the boundary: every file of its tree.
    let tree: Vec<String> = clone
        .git(&[
            "ls-tree",
            "-r",
            "--name-only",
            &history::sha_hex(&boundary.id),
        ])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(boundary.changes, tree);
    check_incremental(&clone, &["HEAD~1"]);
}

/// Timings of `open` and a full `walk_new` on the repository in `CG_HISTORY_TIMING_REPO`
/// (`bench/history.sh --api` runs it in release mode on its generated history).
#[test]
#[ignore]
fn timing_of_open_and_walk() {
    let Some(root) = std::env::var_os("CG_HISTORY_TIMING_REPO") else {
        eprintln!("set CG_HISTORY_TIMING_REPO to a work tree");
        return;
    };
    let root = std::path::PathBuf::from(root);
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    // First, as a fresh process does on every query: open, then a refresh after one new commit
    // (HEAD new, its parents known).
    let t = std::time::Instant::now();
    let r = opened(&root);
    let open_cold = t.elapsed();
    let head = r.head.expect("a commit");
    let t = std::time::Instant::now();
    let new = history::walk_new(&r, head, &|c| *c != head, None).unwrap();
    let walk_one_cold = t.elapsed();
    assert_eq!(new.len(), 1);
    println!(
        "open() in a fresh process: {:.2} ms; then walk_new() of 1 new commit: {:.2} ms",
        ms(open_cold),
        ms(walk_one_cold)
    );
    let runs = 50;
    let (mut best_open, mut best_one) = (std::time::Duration::MAX, std::time::Duration::MAX);
    for _ in 0..runs {
        let t = std::time::Instant::now();
        let r = opened(&root);
        best_open = best_open.min(t.elapsed());
        let t = std::time::Instant::now();
        history::walk_new(&r, head, &|c| *c != head, None).unwrap();
        best_one = best_one.min(t.elapsed());
    }
    println!(
        "open() warm: best {:.2} ms; walk_new() of 1 new commit warm: best {:.2} ms ({runs} runs)",
        ms(best_open),
        ms(best_one)
    );
    let t = std::time::Instant::now();
    let walked = history::walk_new(&r, head, &|_| false, None).unwrap();
    let walk = t.elapsed();
    let n = walked.len();
    let t = std::time::Instant::now();
    let data = history::from_walk(&r, walked);
    println!(
        "walk_new() of everything: {n} commits in {:.0} ms; from_walk(): {:.1} ms ({} paths)",
        ms(walk),
        ms(t.elapsed()),
        data.by_path.len()
    );
}
