//! `--git`: the commits citing each record and the drift since each decision, through the binary,
//! on repositories built here with pinned dates and authors; and the history walk itself against
//! real git (`git log --full-history --no-merges --no-renames --name-only`).

use crate::fixture::{adr, column, record, strings};
use crate::git::{FastImport, GitRepo};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::git::{self as history, HistoryData, Outcome, WalkedCommit};
use context_graph::text::date::{parse_date, utc_date};

/// Runs the binary on `root` (`--root` added) and parses its JSON; returns the document and the
/// exit code.
fn run_at(repo: &GitRepo, root: &Path, args: &[&str]) -> (Value, i32) {
    let root = root.to_str().expect("a UTF-8 temporary path");
    let mut all = args.to_vec();
    all.extend(["--root", root]);
    let out = repo.run(&all);
    (out.json(), out.code.unwrap_or(-1))
}

fn run(repo: &GitRepo, args: &[&str]) -> (Value, i32) {
    run_at(repo, repo.path(), args)
}

/// The full check with `--git --json`, asserting exit 0.
fn check_git(repo: &GitRepo) -> Value {
    let (doc, code) = run(repo, &["--git", "--json"]);
    assert_eq!(code, 0, "exit code of the full check: {doc:#}");
    doc
}

/// What real git says drift is: the non-merge commits reachable from HEAD that touched `paths`
/// (full history, no simplification) with a committer date on or after `since` at 00:00 UTC,
/// as 7-character shas, newest first.
fn git_drift(repo: &GitRepo, since: &str, paths: &[&str]) -> Vec<String> {
    let since = parse_date(since).expect("a date") * 86_400;
    let mut args = vec![
        "log",
        "--full-history",
        "--no-merges",
        "--format=%H %ct",
        "HEAD",
        "--",
    ];
    args.extend_from_slice(paths);
    repo.git(&args)
        .lines()
        .filter_map(|line| {
            let (sha, time) = line.split_once(' ')?;
            (time.parse::<i64>().ok()? >= since).then(|| sha[..7].to_string())
        })
        .collect()
}

/// One decision (ADR-0001, 2025-03-02, governing `src/auth/`), code before and after it, a branch
/// merged with `--no-ff`, citing and non-citing messages, a body-only mention.
fn decision_history() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-tokens.md",
        &adr(
            1,
            "Use tokens",
            "Accepted",
            Some("2025-03-02"),
            "We put it in `src/auth/`.",
        ),
    )
    .write("src/auth/login.rs", "fn login() {}\n")
    .write("README.md", "# Project\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Add auth and its decision");
    repo.write("src/auth/login.rs", "fn login() { check() }\n");
    repo.commit_at("2025-03-02T00:00:00Z", "Ben", "Tweak login at midnight");
    repo.write("README.md", "# Project\n\nMore.\n");
    repo.commit_at("2025-03-03T09:00:00Z", "Cy", "Docs only");
    repo.branch("feature");
    repo.write("src/auth/token.rs", "fn token() {}\n");
    repo.commit_at(
        "2025-03-04T09:00:00Z",
        "Ben",
        "Add token check for ADR-0001",
    );
    repo.checkout("main");
    repo.write("src/auth/login.rs", "fn login() { check(); log() }\n");
    repo.commit_at(
        "2025-03-05T09:00:00Z",
        "Ana",
        "Refactor login\n\nKeeps to adr 1 and to RFC-9.",
    );
    repo.merge_no_ff(
        "feature",
        "2025-03-06T09:00:00Z",
        "Cy",
        "Merge branch 'feature' (ADR-0001)",
    );
    repo
}

#[test]
fn drift_counts_non_merge_commits_since_the_decision() {
    let repo = decision_history();
    let doc = check_git(&repo);
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], serde_json::json!(["src/auth/"]));
    let drift = &r["drift"];
    assert_eq!(drift["since"], "2025-03-02", "{drift:#}");
    assert_eq!(drift["since_from"], "record");
    // The midnight commit on the day counts, the day before doesn't, the README commit and the
    // merge don't; the branch commit does.
    assert_eq!(drift["count"], 3, "{drift:#}");
    assert_eq!(drift["not_citing_record"], 1);
    assert_eq!(
        column(&drift["commits"], "subject"),
        [
            "Refactor login",
            "Add token check for ADR-0001",
            "Tweak login at midnight"
        ]
    );
    assert_eq!(
        column(&drift["commits"], "date"),
        ["2025-03-05", "2025-03-04", "2025-03-02"]
    );
    let cites: Vec<&Value> = drift["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["cites_record"])
        .collect();
    assert_eq!(
        cites,
        [&Value::Bool(true), &Value::Bool(true), &Value::Bool(false)]
    );
    assert_eq!(
        drift["authors"],
        serde_json::json!([{"name": "Ben", "commits": 2}, {"name": "Ana", "commits": 1}])
    );
    assert_eq!(drift["last_change"], "2025-03-05");
    assert_eq!(drift["record_last_edited"], "2025-03-01");
    assert_eq!(
        column(&drift["commits"], "sha"),
        git_drift(&repo, "2025-03-02", &["src/auth/"]),
        "drift equals git log --full-history --no-merges"
    );
    for c in drift["commits"].as_array().unwrap() {
        assert_eq!(c["sha"].as_str().unwrap().len(), 7);
    }
}

#[test]
fn commits_cite_a_record_by_subject_or_body_merges_included() {
    let repo = decision_history();
    let doc = check_git(&repo);
    let commits = &record(&doc, "ADR-0001")["commits"];
    assert_eq!(
        column(commits, "subject"),
        [
            "Merge branch 'feature' (ADR-0001)",
            "Refactor login",
            "Add token check for ADR-0001"
        ],
        "{commits:#}"
    );
    assert_eq!(column(commits, "author"), ["Cy", "Ana", "Ben"]);
    for c in commits.as_array().unwrap() {
        assert!(
            c.get("cites_record").is_none(),
            "no cites_record in commits: {c}"
        );
    }
}

#[test]
fn more_than_twenty_citing_commits_keep_the_newest_twenty() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-x.md",
        &adr(
            1,
            "Use X",
            "Accepted",
            Some("2025-01-01"),
            "We put it in `src/`.",
        ),
    )
    .write("src/x.rs", "0\n");
    repo.commit_at("2025-01-01T08:00:00Z", "Ana", "Start");
    for day in 1..=25 {
        repo.write("src/x.rs", &format!("{day}\n"));
        repo.commit_at(
            &format!("2025-02-{day:02}T08:00:00Z"),
            "Ana",
            &format!("Step {day} of ADR-1"),
        );
    }
    let doc = check_git(&repo);
    let r = record(&doc, "ADR-0001");
    let subjects = column(&r["commits"], "subject");
    assert_eq!(subjects.len(), 20);
    assert_eq!(subjects[0], "Step 25 of ADR-1");
    assert_eq!(subjects[19], "Step 6 of ADR-1");
    // drift keeps them all: the report truncates, the JSON doesn't.
    assert_eq!(r["drift"]["count"], 26);
    assert_eq!(r["drift"]["commits"].as_array().unwrap().len(), 26);
}

#[test]
fn a_record_without_a_date_counts_from_its_first_commit_through_a_rename() {
    let repo = GitRepo::new();
    repo.write("src/core/lib.rs", "0\n");
    repo.commit_at("2025-04-01T08:00:00Z", "Ana", "Code before the record");
    repo.write(
        "docs/adr/0002-use-core.md",
        &adr(2, "Use core", "Accepted", None, "It lives in `src/core/`."),
    );
    repo.commit_at("2025-04-10T08:00:00Z", "Ben", "Write the core decision");
    repo.write("src/core/lib.rs", "1\n");
    repo.commit_at("2025-04-12T08:00:00Z", "Cy", "Change core");
    repo.mv(
        "docs/adr/0002-use-core.md",
        "docs/adr/0002-core-lives-in-core.md",
    );
    repo.write(
        "docs/adr/0002-core-lives-in-core.md",
        &adr(
            2,
            "Core lives in core",
            "Accepted",
            None,
            "It lives in `src/core/`.",
        ),
    );
    repo.commit_at("2025-05-01T08:00:00Z", "Ben", "Rename the core decision");
    repo.write("src/core/lib.rs", "2\n");
    repo.commit_at("2025-05-03T08:00:00Z", "Ana", "Change core again");

    let doc = check_git(&repo);
    let r = record(&doc, "ADR-0002");
    assert!(r["date"].is_null(), "{r:#}");
    let drift = &r["drift"];
    assert_eq!(drift["since_from"], "first-commit", "{drift:#}");
    assert_eq!(drift["since"], "2025-04-10");
    assert_eq!(
        column(&drift["commits"], "subject"),
        ["Change core again", "Change core"]
    );
    assert_eq!(drift["record_last_edited"], "2025-05-01");
    assert_eq!(
        column(&drift["commits"], "sha"),
        git_drift(&repo, "2025-04-10", &["src/core/"])
    );
}

#[test]
fn a_record_without_a_date_never_committed_has_no_drift_and_a_note() {
    let repo = GitRepo::new();
    repo.write("src/core/lib.rs", "0\n");
    repo.commit_at("2025-04-01T08:00:00Z", "Ana", "Code");
    repo.write(
        "docs/adr/0005-use-core.md",
        &adr(5, "Use core", "Accepted", None, "It lives in `src/core/`."),
    );
    let doc = check_git(&repo);
    assert!(record(&doc, "ADR-0005")["drift"].is_null());
    let notes = strings(&doc["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("ADR-0005") && n.contains("not committed")),
        "{notes:?}"
    );
}

#[test]
fn a_deprecated_record_has_no_drift_but_lists_its_commits() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0003-old-way.md",
        &adr(
            3,
            "Old way",
            "Deprecated",
            Some("2025-01-01"),
            "It was in `src/`.",
        ),
    )
    .write("src/a.rs", "0\n");
    repo.commit_at("2025-01-02T08:00:00Z", "Ana", "Retire ADR-0003");
    repo.write("src/a.rs", "1\n");
    repo.commit_at("2025-01-03T08:00:00Z", "Ana", "Change a");
    let doc = check_git(&repo);
    let r = record(&doc, "ADR-0003");
    assert_eq!(r["status"], "deprecated");
    assert!(r["drift"].is_null(), "{r:#}");
    assert_eq!(column(&r["commits"], "subject"), ["Retire ADR-0003"]);
}

#[test]
fn a_shallow_clone_is_said_in_the_notes() {
    let origin = GitRepo::new();
    origin
        .write(
            "docs/adr/0001-use-x.md",
            &adr(1, "Use X", "Accepted", Some("2025-01-01"), "See `src/`."),
        )
        .write("src/x.rs", "0\n");
    origin.commit_at("2025-01-02T08:00:00Z", "Ana", "Start");
    for day in 3..=6 {
        origin.write("src/x.rs", &format!("{day}\n"));
        origin.commit_at(&format!("2025-01-{day:02}T08:00:00Z"), "Ben", "Change x");
    }
    let clone = origin.shallow_clone(2);
    let doc = check_git(&clone);
    let notes = strings(&doc["notes"]);
    assert_eq!(
        notes.iter().filter(|n| n.contains("shallow")).count(),
        1,
        "one note says shallow: {notes:?}"
    );
    // Only the commits present count: the boundary commit (diffed against nothing, as git does)
    // and its child.
    let drift = &record(&doc, "ADR-0001")["drift"];
    assert_eq!(drift["count"], 2, "{drift:#}");
    assert_eq!(
        column(&drift["commits"], "sha"),
        git_drift(&clone, "2025-01-01", &["src/"])
    );
}

#[test]
fn a_root_that_is_not_a_git_repository_gives_a_note() {
    let dir = GitRepo::empty_folder();
    dir.write(
        "docs/adr/0001-use-x.md",
        &adr(1, "Use X", "Accepted", Some("2025-01-01"), "See `src/`."),
    )
    .write("src/x.rs", "0\n");
    let doc = check_git(&dir);
    assert!(record(&doc, "ADR-0001")["drift"].is_null());
    assert_eq!(record(&doc, "ADR-0001")["commits"], serde_json::json!([]));
    let notes = strings(&doc["notes"]);
    assert!(notes.iter().any(|n| n.contains("git")), "{notes:?}");
}

#[test]
fn an_empty_repository_gives_a_note() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-x.md",
        &adr(1, "Use X", "Accepted", Some("2025-01-01"), "See `src/`."),
    )
    .write("src/x.rs", "0\n");
    let doc = check_git(&repo);
    assert!(record(&doc, "ADR-0001")["drift"].is_null());
    let notes = strings(&doc["notes"]);
    assert!(notes.iter().any(|n| n.contains("no commits")), "{notes:?}");
}

#[test]
fn without_git_drift_is_null() {
    let repo = decision_history();
    let (doc, code) = run(&repo, &["--json"]);
    assert_eq!(code, 0);
    assert!(record(&doc, "ADR-0001")["drift"].is_null());
    assert_eq!(record(&doc, "ADR-0001")["commits"], serde_json::json!([]));
}

#[test]
fn record_and_why_queries_carry_drift() {
    let repo = decision_history();
    let (doc, code) = run(&repo, &["record", "ADR-1", "--git", "--json"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["query"], serde_json::json!({"record": "ADR-0001"}));
    assert_eq!(record(&doc, "ADR-0001")["drift"]["count"], 3);

    let (doc, code) = run(&repo, &["why", "src/auth/login.rs", "--git", "--json"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(record(&doc, "ADR-0001")["drift"]["count"], 3);
}

#[test]
fn a_root_below_the_work_tree_sees_paths_relative_to_it() {
    let repo = GitRepo::new();
    repo.write(
        "service/docs/adr/0001-use-x.md",
        &adr(1, "Use X", "Accepted", Some("2025-01-01"), "See `src/`."),
    )
    .write("service/src/x.rs", "0\n")
    .write("src/elsewhere.rs", "0\n");
    repo.commit_at("2025-01-02T08:00:00Z", "Ana", "Start");
    repo.write("src/elsewhere.rs", "1\n");
    repo.commit_at("2025-01-03T08:00:00Z", "Ben", "Outside the root");
    repo.write("service/src/x.rs", "1\n");
    repo.commit_at("2025-01-04T08:00:00Z", "Cy", "Inside the root");
    let (doc, code) = run_at(&repo, &repo.path().join("service"), &["--git", "--json"]);
    assert_eq!(code, 0, "{doc:#}");
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["path"], "docs/adr/0001-use-x.md");
    assert_eq!(
        column(&r["drift"]["commits"], "subject"),
        ["Inside the root", "Start"]
    );
    assert_eq!(r["drift"]["record_last_edited"], "2025-01-02");
}

// ---- the walk itself, against real git (no CLI involved) ----

fn loaded(root: &Path) -> HistoryData {
    match history::load_at(root).expect("history loads") {
        Outcome::Ready(data) => data,
        other => panic!("expected a history, got {other:?}"),
    }
}

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
        .map(|c| (c.sha.clone(), BTreeSet::new()))
        .collect();
    for (path, list) in &data.by_path {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(&sorted, list, "{path}: indices ascending, each once");
        for &i in list {
            let c = &data.commits[i as usize];
            assert!(!c.is_merge, "{path}: a merge in by_path");
            changes.get_mut(&c.sha).unwrap().insert(path.clone());
        }
    }
    changes
}

/// A history with a merged branch, a deletion, a mode change, a file replaced by a folder, a
/// rename of a record and one of a plain file.
fn varied_history() -> GitRepo {
    let repo = GitRepo::new();
    repo.write("a.txt", "a\n")
        .write("run.sh", "echo\n")
        .write("src/x/y.rs", "y\n")
        .write("src/z", "z\n")
        .write("docs/adr/0001-a.md", "# 1. A\n")
        .write("docs/adr/0002-b.md", "# 2. B\n");
    repo.commit_at("2025-01-01T08:00:00Z", "Ana", "Root commit");
    repo.write("a.txt", "a2\n");
    repo.commit_at("2025-01-02T08:00:00Z", "Ben", "Modify a");
    repo.branch("side");
    repo.write("src/f.rs", "f\n").remove("a.txt");
    repo.commit_at("2025-01-03T08:00:00Z", "Cy", "Side: add f, delete a");
    repo.checkout("main");
    repo.write("src/x/y.rs", "y2\n");
    repo.chmod_x("run.sh");
    repo.commit_at("2025-01-04T08:00:00Z", "Ana", "Modify y, run.sh executable");
    repo.merge_no_ff("side", "2025-01-05T08:00:00Z", "Ben", "Merge side");
    repo.mv("docs/adr/0001-a.md", "docs/decisions/0001-a.md");
    repo.mv("docs/adr/0002-b.md", "docs/adr/0002-bee.md");
    repo.write("docs/adr/0002-bee.md", "# 2. Bee\n");
    repo.commit_at("2025-01-06T08:00:00Z", "Cy", "Move records");
    repo.remove("src/z").write("src/z/inner.rs", "i\n");
    repo.commit_at("2025-01-07T08:00:00Z", "Ana", "A file becomes a folder");
    repo.mv("run.sh", "bin/run.sh");
    repo.commit_at("2025-01-08T08:00:00Z", "Ben", "Move run.sh");
    repo
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
    let ours: Vec<String> = data.commits.iter().map(|c| c.sha.clone()).collect();
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

/// A `git fast-import` stream: `n` commits on `main` touching files in 20 folders, with a side
/// branch merged every 50 commits, deletions, and renamed records.
///
/// Not `index_faults::history_stream`: this one is about what the walk sees (deletions, record
/// renames, merges whose branches touch the same folders); that one is about what the index
/// stores (records governing the files, citing messages, a history extended in steps). Both
/// write their stream with `FastImport`.
fn long_history_stream(n: usize) -> String {
    let mut out = FastImport::new();
    let mut seed: u64 = 42;
    let mut rand = |m: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % m
    };
    let commit = |out: &mut FastImport,
                  reference: &str,
                  from: Option<usize>,
                  merge: Option<usize>,
                  t: usize,
                  changes: &[String]| {
        let from = from.map(|f| format!(":{f}"));
        let time = 1_700_000_000 + t * 3600;
        let msg = format!("Commit {t}\n");
        out.commit(
            reference,
            "A <a@x>",
            time,
            &msg,
            from.as_deref(),
            merge,
            changes,
        )
    };
    let file = FastImport::file;
    let mut main = commit(
        &mut out,
        "refs/heads/main",
        None,
        None,
        0,
        &[
            file("docs/adr/0001-a.md", "# 1. A\n"),
            file("src/d0/f0.rs", "0\n"),
        ],
    );
    let mut record = "docs/adr/0001-a.md".to_string();
    let mut t = 1;
    while t < n {
        if t % 50 == 25 {
            let mut side = main;
            for _ in 0..3 {
                let path = format!("src/d{}/side.rs", rand(20));
                side = commit(
                    &mut out,
                    "refs/heads/side",
                    Some(side),
                    None,
                    t,
                    &[file(&path, &t.to_string())],
                );
                t += 1;
            }
            main = commit(
                &mut out,
                "refs/heads/main",
                Some(main),
                None,
                t,
                &[file("README.md", &t.to_string())],
            );
            t += 1;
            main = commit(&mut out, "refs/heads/main", Some(main), Some(side), t, &[]);
            t += 1;
            continue;
        }
        let mut changes = Vec::new();
        for _ in 0..=rand(3) {
            let path = format!("src/d{}/f{}.rs", rand(20), rand(5));
            changes.push(file(&path, &format!("{t} {}", rand(1000))));
        }
        if t % 97 == 0 {
            changes.push(format!("D src/d{}/f{}.rs\n", rand(20), rand(5)));
        }
        if t % 150 == 0 {
            let renamed = format!("docs/adr/0001-a-{t}.md");
            changes.push(format!("R {record} {renamed}\n"));
            record = renamed;
        }
        main = commit(&mut out, "refs/heads/main", Some(main), None, t, &changes);
        t += 1;
    }
    out.finish()
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
    let ours: Vec<String> = data.commits.iter().map(|c| c.sha.clone()).collect();
    let git_order: Vec<String> = repo
        .git(&["log", "--format=%H", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(ours, git_order);
    assert_eq!(data.renames.len(), 3, "{:?}", data.renames);
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

// ---- the index's side: open, incremental walks, from_walk ----

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
    assert_eq!(opened_top.local_branches, branches);
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
    assert!(unborn.local_branches.is_empty());
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
    assert!(linked.local_branches.contains(&id(&repo.rev("topic"))));
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
    let tied: Vec<&str> = data.commits[..7].iter().map(|c| c.sha.as_str()).collect();
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
    assert_eq!(calls.first(), Some(&(0, diffs)));
    assert_eq!(calls.last(), Some(&(diffs, diffs)));
    assert!(calls.len() >= 4, "now and then: {calls:?}");
    assert!(calls
        .iter()
        .all(|&(done, total)| done <= total && total == diffs));
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
