// Schema 4: `paths` and `mentions` carry each commit's metadata as their value. An answer
// reads the commits under a folder with one range scan over a few pages, instead of one
// `commits` lookup per commit scattered over the whole table (a folder touched by 1,000 of
// 20,000 commits read some 450 pages for them). Both tables are rebuilt from `commits` and
// `commit_changes`, which hold everything they are made of. Its types are schema 4's, defined
// here.

use super::v1_initial::{COMMITS, PATHS_V1};
use super::v2_mentions::MENTIONS_V2;
use super::v3_flat_graph::{StoredChangesV3, StoredCommitV3, COMMIT_CHANGES};
use crate::index::codec;
use redb::{ReadableTable, TableDefinition};
use serde::Serialize;

pub const PATHS: TableDefinition<(&str, u32), &[u8]> = TableDefinition::new("paths");
pub const MENTIONS: TableDefinition<(&str, u32), &[u8]> = TableDefinition::new("mentions");

/// A commit's metadata as schema 4's `paths` and `mentions` carry it.
#[derive(Serialize)]
struct StoredMetaV4<'a> {
    id: [u8; 20],
    time: i64,
    author: &'a str,
    subject: &'a str,
    mentions: &'a [String],
    is_merge: bool,
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.delete_table(PATHS_V1)?;
    txn.delete_table(MENTIONS_V2)?;
    let corrupt = |e: codec::DecodeError| redb::Error::Corrupted(e.to_string());
    let commits = txn.open_table(COMMITS)?;
    let changes = txn.open_table(COMMIT_CHANGES)?;
    let mut path_keys: Vec<(String, u32)> = Vec::new();
    let mut mention_keys: Vec<(String, u32)> = Vec::new();
    let mut metas: Vec<Vec<u8>> = Vec::new();
    let mut slot = std::collections::HashMap::new();
    for entry in commits.iter()? {
        let (n, bytes) = entry?;
        let n = n.value();
        let c: StoredCommitV3 = codec::decode(bytes.value()).map_err(corrupt)?;
        if let Some(b) = changes.get(n)? {
            let touched: StoredChangesV3 = codec::decode(b.value()).map_err(corrupt)?;
            path_keys.extend(touched.changes.into_iter().map(|p| (p, n)));
        }
        mention_keys.extend(c.mentions.iter().map(|id| (id.clone(), n)));
        slot.insert(n, metas.len());
        metas.push(codec::encode(&StoredMetaV4 {
            id: c.id,
            time: c.time,
            author: &c.author,
            subject: &c.subject,
            mentions: &c.mentions,
            is_merge: c.is_merge,
        }));
    }
    // In key order: redb's pages stay warm.
    path_keys.sort_unstable();
    mention_keys.sort_unstable();
    let mut paths = txn.open_table(PATHS)?;
    for (p, n) in &path_keys {
        paths.insert((p.as_str(), *n), metas[slot[n]].as_slice())?;
    }
    let mut mentions = txn.open_table(MENTIONS)?;
    for (id, n) in &mention_keys {
        mentions.insert((id.as_str(), *n), metas[slot[n]].as_slice())?;
    }
    Ok(())
}
