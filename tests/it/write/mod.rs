//! Writing records (docs/writing.md, ADR-0013), a file per subject:
//! - `formats`: `new` in each folder form (adr-tools, MADR 2/3/4, log4brains, dated RFCs,
//!   adrkit frontmatter, CRLF files, templates);
//! - `relations`: `supersede`, `amend` and `status` in each record's own form;
//! - `safety`: what is refused, `--dry-run`, concurrent writers, a read-only folder, the index;
//! - `symlinks`: nothing read or written through a link out of the root;
//! - `adr_tools`: adr-tools reading what we write, and our `supersede` against `adr new -s`;
//! - `madr`, `log4brains`: each format's own folder written and read back by its own reader
//!   (a YAML parser for MADR's frontmatter, `@log4brains/core`; issue 39);
//! - `defaults`: the status `new` takes (the folder's tool's, its `default_status`), and titles
//!   that are never taken for a template;
//! - `tables`: status-table folders (DependencyTrack's), their template, row and scope line;
//! - `atomic`: a kill or a full disk mid-write leaves every record whole, and writers at once
//!   take distinct numbers (issue 38).
//!
//! Here: a root of records written by the test, runs of the binary on it, and the full check's
//! findings afterwards.

mod adr_tools;
mod atomic;
mod defaults;
mod formats;
mod log4brains;
mod madr;
mod relations;
mod safety;
mod symlinks;
mod tables;

use crate::env::Run;
use crate::fixture::*;

/// A root (not a git work tree) holding `files`.
fn root_with(files: &[(&str, &str)]) -> Fixture {
    let f = empty_root();
    for (rel, text) in files {
        f.write(rel, text.as_bytes());
    }
    f
}

/// `context-graph ARGS --root ROOT` (Markdown), which must succeed.
fn ok(f: &Fixture, args: &[&str]) -> String {
    let run = f.run_md(args);
    run.assert_code(0);
    run.stdout()
}

/// The same with `--json`.
fn ok_json(f: &Fixture, args: &[&str]) -> serde_json::Value {
    let run = f.run_json(args);
    run.assert_code(0);
    run.json()
}

/// A run that must be refused: exit 2, one line naming why, containing `says`.
fn refused(f: &Fixture, args: &[&str], says: &str) -> Run {
    let run = f.run_md(args);
    run.assert_usage_error();
    assert!(
        run.stderr.contains(says),
        "expected {says:?}: {}",
        run.describe()
    );
    run
}

fn read(f: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(f.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// Every file under the root, with its bytes: what "nothing written" compares.
fn snapshot(f: &Fixture) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![f.root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("list").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&f.root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(&p).expect("read")));
            }
        }
    }
    out.sort();
    out
}

/// The full check's findings `(code, record)`.
fn check_findings(f: &Fixture) -> Vec<(String, String)> {
    let run = f.run_json(&["check"]);
    assert!(
        run.code == Some(0) || run.code == Some(1),
        "{}",
        run.describe()
    );
    findings(&run.json())
}

/// The parsed record at `path` in the full check.
fn record_of(f: &Fixture, path: &str) -> serde_json::Value {
    let run = f.run_json(&["check"]);
    record_at(&run.json(), path).clone()
}

/// `path`'s lines that differ from `before`'s, as (old, new) pairs of the same line numbers;
/// every other line byte-identical (line endings included).
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    let a: Vec<&str> = before.split_inclusive('\n').collect();
    let b: Vec<&str> = after.split_inclusive('\n').collect();
    assert_eq!(
        a.len(),
        b.len(),
        "the line count changed:\n{before}\n---\n{after}"
    );
    a.iter()
        .zip(&b)
        .filter(|(x, y)| x != y)
        .map(|(x, y)| (x.to_string(), y.to_string()))
        .collect()
}

const ADR_TOOLS_1: &str = "# 1. Record architecture decisions\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records.\n\n## Consequences\n\nSee Michael Nygard's article.\n";
const ADR_TOOLS_2: &str = "# 2. Use Postgres\n\nDate: 2024-02-03\n\n## Status\n\nAccepted\n\n## Context\n\nWe need a database.\n\n## Decision\n\nPostgres.\n\n## Consequences\n\nOperations learn Postgres.\n";

/// An adr-tools folder: `doc/adr` with two records.
fn adr_tools_root() -> Fixture {
    root_with(&[
        ("doc/adr/0001-record-architecture-decisions.md", ADR_TOOLS_1),
        ("doc/adr/0002-use-postgres.md", ADR_TOOLS_2),
    ])
}

/// An adrkit record (its frontmatter as adrkit writes it).
fn formats_adrkit() -> &'static str {
    formats::ADRKIT
}
