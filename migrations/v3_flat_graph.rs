// Schema 3: a commit's changed paths and renames move out of `commits` into `commit_changes`,
// so reading commit metadata reads no path lists. The commit graph moves out of `meta` into a
// `graph` table of chunks of 4,096 commits, each flat (all parents in one list, with each
// commit's offset into it): a refresh after one commit rewrites one chunk instead of the whole
// graph, and a fast-forward reads none of it. And an
// `edges` table, filled from the records already cached. And `shallow` in `meta` holds the
// shallow boundary itself (empty when not shallow) instead of a flag: a flag of "not shallow"
// becomes empty; a flag of "shallow" stays, and, matching no boundary, makes the next refresh
// walk the history again.

use super::v2_mentions::StoredCommitV1;
use crate::index::codec;
use crate::index::schema::{
    CachedRecord, StoredChanges, StoredCommit, COMMITS, COMMIT_CHANGES, EDGES, GRAPH, KEY_GRAPH,
    KEY_SHALLOW, META, RECORDS,
};
use crate::index::{edges_of, store_graph, Graph};
use redb::ReadableTable;

/// The schema-2 shape of the graph.
#[derive(serde::Deserialize)]
struct NestedGraph {
    parents: Vec<Vec<u32>>,
    alive: Vec<bool>,
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    split_commits(txn)?;
    let mut meta = txn.open_table(META)?;
    let old = match meta.get(KEY_GRAPH)? {
        Some(bytes) => Some(
            codec::decode::<NestedGraph>(bytes.value())
                .map_err(|e| redb::Error::Corrupted(e.to_string()))?,
        ),
        None => None,
    };
    if let Some(old) = old {
        let mut graph = Graph::default();
        for parents in &old.parents {
            graph.push(parents);
        }
        for (n, alive) in old.alive.iter().enumerate() {
            if !alive {
                graph.kill(n as u32);
            }
        }
        meta.remove(KEY_GRAPH)?;
        let mut table = txn.open_table(GRAPH)?;
        store_graph(&mut table, &graph, 0)?;
    }
    let not_shallow = meta.get(KEY_SHALLOW)?.is_some_and(|v| v.value() == [0]);
    if not_shallow {
        meta.insert(KEY_SHALLOW, [].as_slice())?;
    }
    let records = txn.open_table(RECORDS)?;
    let mut edges = txn.open_table(EDGES)?;
    for entry in records.iter()? {
        let (path, bytes) = entry?;
        let cached: CachedRecord =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
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
        let old: StoredCommitV1 =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
        let meta = StoredCommit {
            id: old.id,
            parents: old.parents,
            time: old.time,
            author: old.author,
            subject: old.subject,
            mentions: old.mentions,
            is_merge: old.is_merge,
        };
        let touched = StoredChanges {
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
