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
struct Table<'a> {
    /// The build that wrote it, as for the scan memo.
    made_by: &'a str,
    scope: Scope,
    /// The record folders and files the rows were read from ([`Deps::records_only`]).
    deps: Deps,
    /// Read in place: only the rows a commit touches become records.
    #[serde(borrow)]
    rows: Vec<Row<'a>>,
}

/// A current decision, as the warning names it.
#[derive(Debug, Serialize, Deserialize)]
struct Row<'a> {
    id: &'a str,
    title: &'a str,
    status: Status,
    path: &'a str,
    #[serde(borrow)]
    governs: Vec<&'a str>,
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
        made_by: super::memo::MEMO_MADE_BY,
        scope: scope.clone(),
        deps: deps.records_only(),
        rows: records
            .iter()
            .filter(|r| r.status.is_current())
            .map(|r| Row {
                id: &r.id,
                title: &r.title,
                status: r.status,
                path: &r.path,
                governs: r.governs.iter().map(String::as_str).collect(),
            })
            .collect(),
    };
    let bytes = codec::encode(&table);
    // The same table again (the memo held, as after most commits): left as it is.
    if crate::fs::read::read_side_file(path).is_ok_and(|old| old == bytes) {
        return;
    }
    let tmp = path.with_extension(format!("governing.{}", std::process::id()));
    let _ = crate::util::replace_file(path, &tmp, &bytes);
}

/// The table's first fields alone, decoded to check that it holds before any row is read
/// (the encoding is the fields in order, so the table's bytes decode as this too).
#[derive(Deserialize)]
struct Head<'a> {
    made_by: &'a str,
    scope: Scope,
    deps: Deps,
}

/// The table at `path`, when it holds for a scan of `root` with `docs` now: the same build and
/// scope (`.context-graph.toml` included), the same record folders and record files. Its bytes,
/// for [`records`]; `None` when there is no table or it does not hold. Touches nothing but the
/// table and the record folders and files, so the commit hook runs it beside its reading of
/// git's index (ADR-0018).
pub fn load(path: &Path, root: &Path, docs: &[String]) -> Option<Vec<u8>> {
    let bytes = crate::fs::read::read_side_file(path).ok()?;
    let head: Head = codec::decode_borrowed(&bytes).ok()?;
    if head.made_by != super::memo::MEMO_MADE_BY || head.scope != Scope::new(root, docs) {
        return None;
    }
    if !head.deps.records_hold(&RootDir::open(root)) {
        return None;
    }
    Some(bytes)
}

/// The current decisions of a table [`load`] found holding (its `bytes`), as a scan now would
/// read them. Only those `wanted` takes (by id and governed entries) are made into records,
/// each holding only what the warning reads (id, title, status, file, governed entries).
pub fn records(bytes: &[u8], wanted: impl Fn(&str, &[&str]) -> bool) -> Option<Vec<Record>> {
    let table: Table = codec::decode_borrowed(bytes).ok()?;
    Some(
        table
            .rows
            .into_iter()
            .filter(|row| wanted(row.id, &row.governs))
            .map(record)
            .collect(),
    )
}

fn record(row: Row) -> Record {
    Record {
        governs: row.governs.iter().map(|g| g.to_string()).collect(),
        ..Record::bare(row.id, row.title, row.status, row.path)
    }
}
