// Schema 3: a commit's changed paths and renames move out of `commits` into `commit_changes`,
// so reading commit metadata reads no path lists. The commit graph moves out of `meta` into a
// `graph` table of chunks of 4,096 commits, each flat (all parents in one list, with each
// commit's offset into it): a refresh after one commit rewrites one chunk instead of the whole
// graph, and a fast-forward reads none of it. And an `edges` table, filled from the records
// already cached. And `shallow` in `meta` holds the shallow boundary itself (empty when not
// shallow) instead of a flag: a flag of "not shallow" becomes empty; a flag of "shallow" stays,
// and, matching no boundary, makes the next refresh walk the history again.
//
// Every type this step reads or writes is defined here as schemas 2 and 3 had it.

use super::v1_initial::{COMMITS, META, RECORDS};
use super::v2_mentions::StoredCommitV1;
use crate::index::codec;
use redb::{ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};

pub const COMMIT_CHANGES: TableDefinition<u32, &[u8]> = TableDefinition::new("commit_changes");
pub const GRAPH: TableDefinition<u32, &[u8]> = TableDefinition::new("graph");
pub const EDGES: TableDefinition<(&str, &str, &str), ()> = TableDefinition::new("edges");
/// The `meta` key of the schema-2 graph.
const KEY_GRAPH: &str = "graph";
const KEY_SHALLOW: &str = "shallow";
/// Commits per stored chunk of the schema-3 graph.
const GRAPH_CHUNK: usize = 4096;

/// The schema-2 shape of the graph.
#[derive(Deserialize)]
struct NestedGraph {
    parents: Vec<Vec<u32>>,
    alive: Vec<bool>,
}

/// One chunk of the schema-3 graph.
#[derive(Serialize)]
struct FlatChunk {
    offsets: Vec<u32>,
    parents: Vec<u32>,
    alive: Vec<bool>,
}

/// A commit as schema 3 stores it: its changes moved out.
#[derive(Serialize, Deserialize)]
pub struct StoredCommitV3 {
    pub id: [u8; 20],
    pub parents: Vec<u32>,
    pub time: i64,
    pub author: String,
    pub subject: String,
    pub mentions: Vec<String>,
    pub is_merge: bool,
}

/// What a commit changed, as schema 3 stores it.
#[derive(Serialize, Deserialize)]
pub struct StoredChangesV3 {
    pub changes: Vec<String>,
    pub renames: Vec<(String, String)>,
}

/// A cached record as schemas 1 to 4 store it (only what the edges are made of is used).
#[derive(Deserialize)]
struct CachedRecordV1 {
    _fingerprint: (u64, i64, i64, u64),
    _stored_ns: i64,
    parsed: ParsedRecordV1,
}

#[derive(Deserialize)]
enum PrefixV1 {
    Adr,
    Rfc,
    Dr,
}

#[derive(Deserialize)]
enum StatusV1 {
    Proposed,
    Accepted,
    Implemented,
    Rejected,
    Deprecated,
    Superseded,
    Unknown,
    Unrecognised,
}

#[derive(Deserialize)]
enum RefV1 {
    Id(String),
    Link {
        target: String,
        _text_id: Option<String>,
    },
}

#[derive(Deserialize)]
struct ParsedRecordV1 {
    _path: String,
    _prefix: PrefixV1,
    _id: String,
    _title: String,
    _status: StatusV1,
    _status_text: String,
    _date: Option<String>,
    supersedes: Vec<RefV1>,
    superseded_by: Vec<RefV1>,
    amends: Vec<RefV1>,
    mentions: Vec<String>,
    links: Vec<RefV1>,
    _code_paths: Vec<String>,
    _notes: Vec<String>,
}

/// The edges a record declares, as schema 3 keeps them: (relation, target id or path).
fn edges_of(p: &ParsedRecordV1) -> Vec<(&'static str, String)> {
    let target = |r: &RefV1| match r {
        RefV1::Id(id) => id.clone(),
        RefV1::Link { target, .. } => target.clone(),
    };
    let mut out: Vec<(&'static str, String)> = Vec::new();
    out.extend(p.supersedes.iter().map(|r| ("supersedes", target(r))));
    out.extend(p.superseded_by.iter().map(|r| ("superseded-by", target(r))));
    out.extend(p.amends.iter().map(|r| ("amends", target(r))));
    out.extend(p.mentions.iter().map(|id| ("mentions", id.clone())));
    out.extend(p.links.iter().map(|r| ("links", target(r))));
    out.sort();
    out.dedup();
    out
}

fn corrupted(e: impl ToString) -> redb::Error {
    redb::Error::Corrupted(e.to_string())
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    split_commits(txn)?;
    let mut meta = txn.open_table(META)?;
    let old = match meta.get(KEY_GRAPH)? {
        Some(bytes) => Some(codec::decode::<NestedGraph>(bytes.value()).map_err(corrupted)?),
        None => None,
    };
    if let Some(old) = old {
        let mut table = txn.open_table(GRAPH)?;
        for (chunk, parents) in old.parents.chunks(GRAPH_CHUNK).enumerate() {
            let mut flat = FlatChunk {
                offsets: vec![0],
                parents: Vec::new(),
                alive: Vec::new(),
            };
            for (i, list) in parents.iter().enumerate() {
                flat.parents.extend_from_slice(list);
                flat.offsets.push(flat.parents.len() as u32);
                flat.alive.push(
                    old.alive
                        .get(chunk * GRAPH_CHUNK + i)
                        .copied()
                        .unwrap_or(true),
                );
            }
            table.insert(chunk as u32, codec::encode(&flat).as_slice())?;
        }
        meta.remove(KEY_GRAPH)?;
    }
    let not_shallow = meta.get(KEY_SHALLOW)?.is_some_and(|v| v.value() == [0]);
    if not_shallow {
        meta.insert(KEY_SHALLOW, [].as_slice())?;
    }
    let records = txn.open_table(RECORDS)?;
    let mut edges = txn.open_table(EDGES)?;
    for entry in records.iter()? {
        let (path, bytes) = entry?;
        let cached: CachedRecordV1 = codec::decode(bytes.value()).map_err(corrupted)?;
        for (relation, target) in edges_of(&cached.parsed) {
            edges.insert((path.value(), relation, target.as_str()), ())?;
        }
    }
    Ok(())
}

fn split_commits(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    let mut commits = txn.open_table(COMMITS)?;
    let mut changes = txn.open_table(COMMIT_CHANGES)?;
    let mut split = Vec::new();
    for entry in commits.iter()? {
        let (number, bytes) = entry?;
        let old: StoredCommitV1 = codec::decode(bytes.value()).map_err(corrupted)?;
        let meta = StoredCommitV3 {
            id: old.id,
            parents: old.parents,
            time: old.time,
            author: old.author,
            subject: old.subject,
            mentions: old.mentions,
            is_merge: old.is_merge,
        };
        let touched = StoredChangesV3 {
            changes: old.changes,
            renames: old.renames,
        };
        split.push((
            number.value(),
            codec::encode(&meta),
            codec::encode(&touched),
        ));
    }
    for (n, meta, touched) in split {
        commits.insert(n, meta.as_slice())?;
        changes.insert(n, touched.as_slice())?;
    }
    Ok(())
}
