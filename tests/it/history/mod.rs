//! `--git` and the history under it, a file per side:
//! - `drift`: the commits citing each record and the drift since each decision, through the
//!   binary, on repositories built here with pinned dates and authors;
//! - `walk`: the history walk itself against real git, no CLI involved
//!   (`git log --full-history --no-merges --no-renames --name-only`);
//! - `incremental`: the index's side, through the library: `open` without walking, walks from
//!   known commits (the index's incremental update), `from_walk`, and the timing
//!   `bench/history.sh --api` runs.
//!
//! Here: the repositories and the loaded history several of them use.

mod drift;
mod incremental;
// Paths git shows renamed (issue 36).
mod renamed;
mod walk;

use crate::fixture::adr;
use crate::git::{FastImport, GitRepo};
use std::path::Path;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::git::{self as history, HistoryData, Outcome};

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

fn loaded(root: &Path) -> HistoryData {
    match history::load_at(root).expect("history loads") {
        Outcome::Ready(data) => data,
        other => panic!("expected a history, got {other:?}"),
    }
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
