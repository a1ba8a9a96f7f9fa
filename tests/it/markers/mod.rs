//! Inbound markers (docs/markers.md, ADR-0009) through the binary, a file per subject:
//! - `grammar`: each rule of a marker line, with a case that declares and one that does not;
//! - `boundary`: the read boundary (links out of the root, FIFOs, binary and large files);
//! - `files`: which files are read (tracked, untracked and not ignored, outside git);
//! - `why`: `declared_by`, apart from `matches`, in JSON and Markdown;
//! - `findings`: `dangling-marker` and `stale-marker`, and exit codes left alone;
//! - `drift`: declared files count as governed ones;
//! - `index`: the answers with the index equal `--no-index` as marked files come and go, the
//!   cache by blob id, the schema step and `fresh`;
//! - `api`: the library functions the hooks and `review` call.
//!
//! Here: the repository they share and reading the answers. Marker lines are written with
//! `\n` inside one-line strings, never at the start of a line of this source: the project's
//! own check reads these files for markers too.

mod api;
mod boundary;
mod drift;
mod files;
mod findings;
mod grammar;
mod index;
mod why;

use crate::env::{no_index, Run};
use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::Value;

/// A committed repository with records of every kind a marker may name:
/// - ADR-0001 "Core", accepted, dated 2025-01-01, governing `src/core/`;
/// - ADR-0002 "Old retry", superseded by ADR-0003;
/// - ADR-0003 "Retry", accepted, dated 2025-02-01, governing nothing by name;
/// - ADR-0004 "Queue", deprecated; ADR-0005 "Polling", rejected; ADR-0006 "Cache", proposed;
/// - ADR-0012 "Twelve", accepted; RFC-0007 "Streams" and DR-0003 "Layout", accepted;
/// - `src/core/engine.rs`, unmarked.
fn records_repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-core.md",
        &adr(
            1,
            "Core",
            "Accepted",
            Some("2025-01-01"),
            "The core is `src/core/`.",
        ),
    )
    .write(
        "docs/adr/0002-old-retry.md",
        &adr(
            2,
            "Old retry",
            "Superseded by ADR-0003",
            Some("2024-01-01"),
            "Retry forever.",
        ),
    )
    .write(
        "docs/adr/0003-retry.md",
        &adr(
            3,
            "Retry",
            "Accepted",
            Some("2025-02-01"),
            "Supersedes ADR-0002.",
        ),
    )
    .write(
        "docs/adr/0004-queue.md",
        &adr(4, "Queue", "Deprecated", Some("2024-02-01"), "A queue."),
    )
    .write(
        "docs/adr/0005-polling.md",
        &adr(5, "Polling", "Rejected", Some("2024-03-01"), "Poll."),
    )
    .write(
        "docs/adr/0006-cache.md",
        &adr(6, "Cache", "Proposed", Some("2024-04-01"), "Cache."),
    )
    .write(
        "docs/adr/0012-twelve.md",
        &adr(12, "Twelve", "Accepted", Some("2024-05-01"), "Twelve."),
    )
    .write(
        "docs/rfcs/0007-streams.md",
        "# 7. Streams\n\nStatus: Accepted\n\nStreams.\n",
    )
    .write(
        "docs/design/0003-layout.md",
        "# 3. Layout\n\nStatus: Accepted\n\nLayout.\n",
    )
    .write("src/core/engine.rs", "fn engine() {}\n");
    repo.commit_at("2025-01-01T10:00:00Z", "Ana", "Records");
    repo
}

/// `ARGS --json` in the work tree, which must answer with exit 0.
fn json(repo: &GitRepo, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = repo.run(&all);
    assert_eq!(out.code, Some(0), "{}", out.describe());
    out.json()
}

/// `why PATH`'s decisions, each as (id, matches, declared_by as `path:line`).
fn decisions(doc: &Value) -> Vec<(String, Vec<String>, Vec<String>)> {
    doc["query"]["decisions"]
        .as_array()
        .unwrap_or_else(|| panic!("no decisions in {doc:#}"))
        .iter()
        .map(|d| {
            let strings = |v: &Value| -> Vec<String> {
                v.as_array()
                    .map(|a| {
                        a.iter()
                            .map(|s| s.as_str().unwrap_or("").to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let declared = d["declared_by"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|x| format!("{}:{}", x["path"].as_str().unwrap_or(""), x["line"]))
                        .collect()
                })
                .unwrap_or_default();
            (
                d["id"].as_str().unwrap_or("").to_string(),
                strings(&d["matches"]),
                declared,
            )
        })
        .collect()
}

/// What `why PATH` says markers declare: each id with its `path:line`s, in the answer's order.
fn declared(repo: &GitRepo, path: &str) -> Vec<(String, Vec<String>)> {
    decisions(&json(repo, &["why", path]))
        .into_iter()
        .filter(|(_, _, d)| !d.is_empty())
        .map(|(id, _, d)| (id, d))
        .collect()
}

/// The ids markers in `path` declare, as `why PATH` lists them.
fn declared_ids(repo: &GitRepo, path: &str) -> Vec<String> {
    declared(repo, path).into_iter().map(|(id, _)| id).collect()
}

/// The findings of `code` in a JSON answer, as (record, path, message).
fn findings_of(doc: &Value, code: &str) -> Vec<(String, String, String)> {
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == code)
        .map(|f| {
            assert_eq!(f["severity"], "warning", "{f:#}");
            let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
            (s("record"), s("path"), s("message"))
        })
        .collect()
}

/// Asserts `query` answers the same with the index as with `--no-index` (stdout byte for byte,
/// exit code), and that the indexed run used the index (nothing on stderr). Returns the
/// `--no-index` run.
fn assert_same(repo: &GitRepo, step: &str, query: &[&str]) -> Run {
    let indexed = repo.run(query);
    let scanned = repo.run(&no_index(query));
    let what = format!("step `{step}`, query `{}`", query.join(" "));
    assert!(
        indexed.stderr_but_absent_paths().is_empty(),
        "{what}: the indexed run said something on stderr:\n{}",
        indexed.stderr
    );
    assert_eq!(
        indexed.stderr, scanned.stderr,
        "{what}: a path asked about is said alike both ways"
    );
    assert!(
        matches!(scanned.code, Some(0 | 1)),
        "{what}: --no-index failed: {}",
        scanned.describe()
    );
    assert!(
        indexed.stdout == scanned.stdout && indexed.code == scanned.code,
        "{what}: the index answered differently from --no-index\n--- indexed ---\n{}\n--- --no-index ---\n{}",
        indexed.describe(),
        scanned.describe()
    );
    scanned
}
