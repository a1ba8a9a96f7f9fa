//! The commit hook's table of governed entries (ADR-0018): what the warning needs of the
//! records (each current decision's id, title, file and governed entries), written beside the
//! index by the refreshes that read every record, with the stamps of the record folders and
//! files it was read from. While those hold (and the scope and the build are the same), a scan
//! now would read the same records, so commit-msg answers from this small file rather than
//! opening the index and checking its whole scan memo. A table that is missing, stale or
//! unreadable is no table: the hook answers as before.

use super::codec;
use super::schema::Scope;
use crate::fs::fingerprint::RootDir;
use crate::git::Repo;
use crate::model::{Record, Status};
use crate::scan::Deps;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the table of `repo`'s worktree lives: beside its index.
pub fn path_for(repo: &Repo) -> PathBuf {
    repo.git_dir.join("context-graph").join("index.governing")
}

#[derive(Debug, Serialize, Deserialize)]
struct Table {
    /// The build that wrote it, as for the scan memo.
    made_by: String,
    scope: Scope,
    /// The record folders and files the rows were read from ([`Deps::records_only`]).
    deps: Deps,
    rows: Vec<Row>,
}

/// A current decision, as the warning names it.
#[derive(Debug, Serialize, Deserialize)]
struct Row {
    id: String,
    title: String,
    status: Status,
    path: String,
    governs: Vec<String>,
}

/// Writes the table of `records` (a full scan's, or the scan memo's, under `scope`) read from
/// what `deps` stamps, in place of the last; nothing when the stamps are incomplete (then the
/// last is removed, so it is never read beside records it was not made from). A table that
/// cannot be written is no table.
pub fn write(path: &Path, scope: &Scope, deps: &Deps, records: &[Record]) {
    if !path.parent().is_some_and(Path::is_dir) {
        return;
    }
    if !deps.complete() {
        let _ = std::fs::remove_file(path);
        return;
    }
    let table = Table {
        made_by: super::memo::MEMO_MADE_BY.to_string(),
        scope: scope.clone(),
        deps: deps.records_only(),
        rows: records
            .iter()
            .filter(|r| r.status.is_current())
            .map(|r| Row {
                id: r.id.clone(),
                title: r.title.clone(),
                status: r.status,
                path: r.path.clone(),
                governs: r.governs.clone(),
            })
            .collect(),
    };
    let bytes = codec::encode(&table);
    let tmp = path.with_extension(format!("governing.{}", std::process::id()));
    let _ = crate::util::replace_file(path, &tmp, &bytes);
}

/// The current decisions as a scan of `root` with `docs` would read them now, from the table at
/// `path`, when it holds: the same build and scope (`.context-graph.toml` included), the same
/// record folders and record files. Each record holds only what the warning reads (id, title,
/// status, file, governed entries). `None` when there is no table or it does not hold.
pub fn read(path: &Path, root: &Path, docs: &[String]) -> Option<Vec<Record>> {
    let bytes = crate::fs::read::read_side_file(path).ok()?;
    let table: Table = codec::decode(&bytes).ok()?;
    if table.made_by != super::memo::MEMO_MADE_BY || table.scope != Scope::new(root, docs) {
        return None;
    }
    if !table.deps.records_hold(&RootDir::open(root)) {
        return None;
    }
    Some(table.rows.into_iter().map(record).collect())
}

fn record(row: Row) -> Record {
    Record {
        id: row.id,
        title: row.title,
        status: row.status,
        status_text: String::new(),
        date: None,
        path: row.path,
        supersedes: Vec::new(),
        superseded_by: Vec::new(),
        amends: Vec::new(),
        cites: Vec::new(),
        cited_by: Vec::new(),
        governs: row.governs,
        missing_paths: Vec::new(),
        commits: Vec::new(),
        drift: None,
        successors: Vec::new(),
        successors_only_claimed_by_successor: Vec::new(),
        moved: Default::default(),
        relates_to: Vec::new(),
        code_mentions: Vec::new(),
        cites_replaced: Vec::new(),
    }
}
