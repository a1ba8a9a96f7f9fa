//! `index --status`: what the index holds and whether a query now would change it; never
//! writes (docs/indexing.md).

use super::migrations;
use super::schema::*;
use super::{Index, IndexError};
use crate::git;
use crate::model::IndexStatus;
use redb::{ReadableTable, ReadableTableMetadata};
use std::path::Path;

impl Index {
    /// `index --status`: reports, never updates.
    pub fn status(&mut self, root: &Path, docs: &[String]) -> Result<IndexStatus, IndexError> {
        self.readable()?;
        // A file with no schema yet (a first build killed before its first step): nothing is
        // indexed, as when there is no file; the next query or `index` builds it.
        if self.schema_version == 0 {
            return Ok(IndexStatus {
                path: self.path.display().to_string(),
                schema_version: SCHEMA_VERSION,
                head: self.repo.head.map(|h| git::sha_hex(&h)),
                indexed_head: None,
                fresh: false,
                records: 0,
                commits: 0,
                paths: 0,
            });
        }
        let stored_head = self.indexed_head()?;
        // Pending commits count as indexed: the history answers for them.
        let shallow = self.repo.shallow_boundary();
        let pending = if self.meta(KEY_SHALLOW)?.as_deref() == Some(shallow.as_slice()) {
            self.read_pending(stored_head, &shallow)
        } else {
            None
        };
        let indexed = pending
            .as_ref()
            .map(|p| Some(p.head))
            .unwrap_or(stored_head);
        let txn = self.read_txn()?;
        // Counted whatever the values' type: status looks at older files too.
        let records = txn
            .open_untyped_table(RECORDS)
            .map_err(|e| self.err(e))?
            .len()
            .map_err(|e| self.err(e))?;
        let commits = txn
            .open_untyped_table(COMMITS)
            .map_err(|e| self.err(e))?
            .len()
            .map_err(|e| self.err(e))?
            + pending.map_or(0, |p| p.commits.len() as u64);
        // Before schema 4, `paths` held no values; before schema 7 they were unchecked.
        let distinct = if self.schema_version < 4 {
            distinct_paths(&txn, migrations::v1_initial::PATHS_V1)
        } else if self.schema_version < 7 {
            distinct_paths(&txn, migrations::v4_inline_meta::PATHS)
        } else {
            distinct_paths(&txn, PATHS)
        }
        .map_err(|e| self.err(e))?;
        let scope = Scope::new(root, docs);
        // An older file is not fresh whatever it holds: its memo is not read.
        let files_fresh = self.schema_version == SCHEMA_VERSION && self.files_fresh(&scope)?;
        let head = self.repo.head.map(|h| git::sha_hex(&h));
        let indexed_head = indexed.map(|h| git::sha_hex(&h));
        Ok(IndexStatus {
            path: self.path.display().to_string(),
            schema_version: self.schema_version,
            fresh: self.schema_version == SCHEMA_VERSION
                && files_fresh
                && head == indexed_head
                // With no commits there is no history to build: a query adds none.
                && (self.repo.head.is_none() || self.meta(KEY_REACH)?.is_some())
                // A file not as this tool left it is checked by the next query (ADR-0011).
                && super::integrity::sealed(&self.path),
            head,
            indexed_head,
            records,
            commits,
            paths: distinct,
        })
    }

    /// Whether the stored scan memo holds for `scope` (a query would not scan).
    pub fn memo_holds(&mut self, scope: &Scope) -> Result<bool, IndexError> {
        self.readable()?;
        self.files_fresh(scope)
    }

    /// Whether a query now would find the records and guides as the index has them: the scan
    /// memo holds, the very check a query makes before it would scan (and write). A file
    /// written a moment ago holds by its content (see `fs::fingerprint::Stamp`).
    fn files_fresh(&self, scope: &Scope) -> Result<bool, IndexError> {
        let mut cached = self.inputs(scope)?;
        cached.keep_names = false; // `--status` writes nothing
        let fresh = cached.same_scope && cached.memo_report(Some(&self.repo)).is_some();
        cached.release(false);
        Ok(fresh)
    }
}

/// How many paths a `paths` table lists commits for.
fn distinct_paths<V: redb::Value + 'static>(
    txn: &redb::ReadTransaction,
    table: redb::TableDefinition<(&str, u32), V>,
) -> Result<u64, redb::Error> {
    let mut distinct = 0u64;
    let mut last: Option<String> = None;
    for entry in txn.open_table(table)?.iter()? {
        let (k, _) = entry?;
        let (p, _) = k.value();
        if last.as_deref() != Some(p) {
            distinct += 1;
            last = Some(p.to_string());
        }
    }
    Ok(distinct)
}
