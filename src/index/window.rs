//! The commits of a window of the history, each with the files it changed: what `coverage`
//! counts (docs/mentions.md, ADR-0017). Read from the `commits` and `commit_changes` tables
//! (one entry each per commit, in number order), never from a tree diff.

use super::codec;
use super::schema::*;
use super::{Index, IndexError};
use serde::Deserialize;

/// A non-merge commit HEAD reaches, with the files its first-parent diff changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowCommit {
    pub id: [u8; 20],
    /// Committer time, seconds since the epoch (UTC).
    pub time: i64,
    /// The formatted ids its whole message mentions (what drift reads as citing).
    pub mentions: Vec<String>,
    /// Relative to the work tree's top (not the root), as the walk found them.
    pub changes: Vec<String>,
}

impl WindowCommit {
    /// A walked commit as the window holds it; `None` for a merge.
    pub fn of(c: crate::git::WalkedCommit) -> Option<WindowCommit> {
        (!c.meta.is_merge).then_some(WindowCommit {
            id: c.id,
            time: c.meta.time,
            mentions: c.meta.mentions,
            changes: c.changes,
        })
    }
}

/// [`StoredCommit`] read in place: only the mentions are copied.
#[derive(Deserialize)]
struct StoredCommitRef<'a> {
    id: [u8; 20],
    #[allow(dead_code)]
    parents: Vec<u32>,
    time: i64,
    #[allow(dead_code)]
    #[serde(borrow)]
    author: &'a str,
    #[allow(dead_code)]
    #[serde(borrow)]
    subject: &'a str,
    #[serde(borrow)]
    mentions: Vec<&'a str>,
    is_merge: bool,
}

impl Index {
    /// Every non-merge commit HEAD reaches (stored or pending) committed at or after `since`
    /// (seconds since the epoch; `None`: all of them), in no particular order. Stored numbers
    /// below the first time block that reaches `since` are not read.
    pub fn window_commits(&mut self, since: Option<i64>) -> Result<Vec<WindowCommit>, IndexError> {
        let reach = self.reach()?;
        let floor = match (since, self.meta(KEY_TIME_BLOCKS)?) {
            (Some(since), Some(b)) => {
                let blocks: Vec<i64> = codec::decode(&b).map_err(|e| self.err(e))?;
                super::read::first_number_since(&blocks, since)
            }
            _ => 0,
        };
        let after = |time: i64| since.is_none_or(|s| time >= s);
        let txn = self.read_txn()?;
        let commits = txn.open_table(COMMITS).map_err(|e| self.err(e))?;
        let changes = txn.open_table(COMMIT_CHANGES).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        // Both tables hold one entry per stored commit, by number: read side by side.
        let mut changed = changes.range(floor..).map_err(|e| self.err(e))?;
        for entry in commits.range(floor..).map_err(|e| self.err(e))? {
            let (k, v) = entry.map_err(|e| self.err(e))?;
            let n = k.value();
            if !reach.contains(n) {
                continue;
            }
            let c: StoredCommitRef = codec::decode_borrowed(v.value()).map_err(|e| self.err(e))?;
            if c.is_merge || !after(c.time) {
                continue;
            }
            let paths = loop {
                match changed.next() {
                    Some(found) => {
                        let (k, v) = found.map_err(|e| self.err(e))?;
                        match k.value().cmp(&n) {
                            std::cmp::Ordering::Less => continue,
                            std::cmp::Ordering::Equal => {
                                let s: StoredChangesRef =
                                    codec::decode_borrowed(v.value()).map_err(|e| self.err(e))?;
                                break s.changes.iter().map(|p| p.to_string()).collect();
                            }
                            std::cmp::Ordering::Greater => {
                                return Err(self.err(format!("commit {n} has no changes stored")))
                            }
                        }
                    }
                    None => return Err(self.err(format!("commit {n} has no changes stored"))),
                }
            };
            out.push(WindowCommit {
                id: c.id,
                time: c.time,
                mentions: c.mentions.iter().map(|m| m.to_string()).collect(),
                changes: paths,
            });
        }
        for c in &self.pending {
            if !c.meta.is_merge && after(c.meta.time) {
                out.push(WindowCommit {
                    id: c.id,
                    time: c.meta.time,
                    mentions: c.meta.mentions.clone(),
                    changes: c.changes.clone(),
                });
            }
        }
        Ok(out)
    }
}
