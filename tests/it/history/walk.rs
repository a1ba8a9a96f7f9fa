//! The history walk itself, against real git, no CLI involved
//! (`git log --full-history --no-merges --no-renames --name-only`): the files each commit
//! changed, authors, times and mentions, a root below the work tree, a shallow clone, file
//! modes, and the outcomes that are not errors.

use super::{decision_history, loaded, long_history_stream, varied_history};
use crate::git::GitRepo;
use std::collections::{BTreeMap, BTreeSet};

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::git::{self as history, HistoryData, Outcome};
use context_graph::text::date::utc_date;

/// sha → files changed, from `git log --full-history --no-merges --no-renames --name-only`.
fn git_changes(repo: &GitRepo, prefix: &str) -> BTreeMap<String, BTreeSet<String>> {
    let out = repo.git(&[
        "log",
        "--full-history",
        "--no-merges",
        "--no-renames",
        "--name-only",
        "--format=%x01%H",
        "HEAD",
    ]);
    let mut changes = BTreeMap::new();
    for block in out.split('\x01').filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let sha = lines.next().unwrap().trim().to_string();
        let files: BTreeSet<String> = lines
            .filter(|l| !l.is_empty())
            .filter_map(|l| l.strip_prefix(prefix).map(str::to_string))
            .collect();
        changes.insert(sha, files);
    }
    changes
}

fn our_changes(data: &HistoryData) -> BTreeMap<String, BTreeSet<String>> {
    let mut changes: BTreeMap<String, BTreeSet<String>> = data
        .commits
        .iter()
        .filter(|c| !c.is_merge)
        .map(|c| (c.sha.to_string(), BTreeSet::new()))
        .collect();
    for (path, list) in &data.by_path {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(&sorted, list, "{path}: indices ascending, each once");
        for &i in list {
            let c = &data.commits[i as usize];
            assert!(!c.is_merge, "{path}: a merge in by_path");
            changes
                .get_mut(&c.sha.to_string())
                .unwrap()
                .insert(path.clone());
        }
    }
    changes
}

#[test]
fn the_walk_sees_what_git_log_sees() {
    let repo = varied_history();
    let data = loaded(repo.path());
    assert_eq!(data.head, repo.head());
    assert!(!data.shallow);

    let git_order: Vec<String> = repo
        .git(&["log", "--format=%H", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    let ours: Vec<String> = data.commits.iter().map(|c| c.sha.to_string()).collect();
    assert_eq!(ours, git_order, "every commit, newest first");
    assert!(data.commits.windows(2).all(|w| w[0].time >= w[1].time));
    let merges: Vec<&str> = data
        .commits
        .iter()
        .filter(|c| c.is_merge)
        .map(|c| &*c.subject)
        .collect();
    assert_eq!(merges, ["Merge side"]);

    assert_eq!(our_changes(&data), git_changes(&repo, ""));

    let renames: Vec<(&str, &str)> = data
        .renames
        .iter()
        .map(|r| (r.from.as_str(), r.to.as_str()))
        .collect();
    assert_eq!(
        renames,
        [
            ("docs/adr/0002-b.md", "docs/adr/0002-bee.md"),
            ("docs/adr/0001-a.md", "docs/decisions/0001-a.md"),
        ]
    );
    let moved = &data.commits[data.renames[0].commit as usize];
    assert_eq!(&*moved.subject, "Move records");
}

/// Long enough for several threads and both ends of the history (the diff scheduler).
#[test]
fn the_walk_of_a_long_history_sees_what_git_log_sees() {
    let repo = GitRepo::new();
    repo.fast_import(&long_history_stream(600));
    repo.git(&["repack", "-adq"]);
    let data = loaded(repo.path());
    assert!(data.commits.len() >= 600);
    assert_eq!(our_changes(&data), git_changes(&repo, ""));
    let ours: Vec<String> = data.commits.iter().map(|c| c.sha.to_string()).collect();
    let git_order: Vec<String> = repo
        .git(&["log", "--format=%H", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(ours, git_order);
    assert_eq!(data.renames.len(), 3, "{:?}", data.renames);
}

/// Long enough that every diff thread (four at most) unmaps the packs and maps them again more
/// than once on the way, keeping what it decoded (issue 41: the pages of the pack a walk read
/// no longer count in the build's peak memory, ADR-0006): the same files as git sees, read
/// through mappings made again, and from the cache kept across them.
#[test]
fn the_walk_of_a_history_longer_than_a_mapping_lasts_sees_what_git_log_sees() {
    let repo = GitRepo::new();
    repo.fast_import(&long_history_stream(9_000));
    repo.git(&["repack", "-adq"]);
    let data = loaded(repo.path());
    assert!(data.commits.len() >= 9_000);
    assert_eq!(our_changes(&data), git_changes(&repo, ""));
}

#[test]
fn the_walk_reads_authors_times_and_mentions() {
    let repo = decision_history();
    let data = loaded(repo.path());
    let c = data
        .commits
        .iter()
        .find(|c| &*c.subject == "Refactor login")
        .unwrap();
    assert_eq!(&*c.author, "Ana");
    assert_eq!(utc_date(c.time), "2025-03-05");
    assert_eq!(c.time % 86_400, 9 * 3600);
    assert_eq!(c.mentions, ["ADR-0001", "RFC-0009"]);
    assert!(!c.is_merge);
}

#[test]
fn the_walk_keeps_paths_relative_to_a_root_below_the_work_tree() {
    let repo = varied_history();
    let data = loaded(&repo.path().join("src"));
    let mut expected = git_changes(&repo, "src/");
    let ours = our_changes(&data);
    assert_eq!(ours, std::mem::take(&mut expected));
    assert!(data.by_path.contains_key("x/y.rs"));
    assert!(data.by_path.keys().all(|p| !p.starts_with("src/")));
    assert!(data.renames.is_empty(), "no record moved inside src/");
}

#[test]
fn the_walk_of_a_shallow_clone_stops_at_its_boundary() {
    let origin = varied_history();
    let clone = origin.shallow_clone(3);
    let data = loaded(clone.path());
    assert!(data.shallow);
    assert_eq!(data.commits.len(), 3);
    assert_eq!(our_changes(&data), git_changes(&clone, ""));
}

/// Old trees carry non-canonical modes (`100664`): the same blob under `100644` in the next
/// commit is no change, as git sees it.
#[test]
fn a_non_canonical_mode_with_the_same_blob_is_no_change() {
    let repo = GitRepo::new();
    let blob = repo.git_input(&["hash-object", "-w", "--stdin"], b"hi\n");
    let blob = blob.trim();
    let mut raw = b"100664 f.txt\0".to_vec();
    raw.extend(
        (0..blob.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&blob[i..i + 2], 16).unwrap()),
    );
    let old_tree = repo.git_input(
        &["hash-object", "-w", "-t", "tree", "--literally", "--stdin"],
        &raw,
    );
    let new_tree = repo.git_input(
        &["mktree"],
        format!("100644 blob {blob}\tf.txt\n").as_bytes(),
    );
    let one = repo.commit_tree(
        old_tree.trim(),
        &[],
        "2025-01-01T08:00:00Z",
        "Ana",
        "Old mode",
    );
    let two = repo.commit_tree(
        new_tree.trim(),
        &[&one],
        "2025-01-02T08:00:00Z",
        "Ana",
        "Canonical",
    );
    repo.git(&["update-ref", "refs/heads/main", &two]);

    let data = loaded(repo.path());
    assert_eq!(our_changes(&data), git_changes(&repo, ""));
    assert_eq!(
        data.by_path["f.txt"],
        [1],
        "only the root commit touched f.txt"
    );
}

#[test]
fn no_repository_and_no_commits_are_outcomes_not_errors() {
    let dir = GitRepo::empty_folder();
    assert_eq!(history::load_at(dir.path()).unwrap(), Outcome::NotARepo);
    let empty = GitRepo::new();
    assert_eq!(history::load_at(empty.path()).unwrap(), Outcome::NoCommits);
}

#[test]
fn a_bare_repository_is_not_a_work_tree() {
    let repo = decision_history();
    let bare = GitRepo::empty_folder();
    let target = bare.path().join("bare.git");
    repo.git(&["clone", "-q", "--bare", ".", target.to_str().unwrap()]);
    assert_eq!(history::load_at(&target).unwrap(), Outcome::NotARepo);
}
