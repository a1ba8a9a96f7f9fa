//! `--git` through the binary: the commits citing each record and the drift since each decision,
//! on repositories built here with pinned dates and authors, against what real git says.

use super::decision_history;
use crate::fixture::{adr, column, record, strings};
use crate::git::GitRepo;
use serde_json::Value;
use std::path::Path;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::text::date::parse_date;

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
            &adr(
                1,
                "Use X",
                "Accepted",
                Some("2025-01-01"),
                "The code lives in `src/`.",
            ),
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
        &adr(
            1,
            "Use X",
            "Accepted",
            Some("2025-01-01"),
            "The code lives in `src/`.",
        ),
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
        &adr(
            1,
            "Use X",
            "Accepted",
            Some("2025-01-01"),
            "The code lives in `src/`.",
        ),
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
        &adr(
            1,
            "Use X",
            "Accepted",
            Some("2025-01-01"),
            "The code lives in `src/`.",
        ),
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
