// Schema 3: the commit graph in `meta` is stored flat (all parents in one list, with each
// commit's offset into it) instead of one list per commit: a refresh after one commit decodes
// and encodes it whole, and one list is much cheaper to read than one per commit.

use crate::index::codec;
use crate::index::schema::{KEY_GRAPH, META};
use crate::index::Graph;
use redb::ReadableTable;

/// The schema-2 shape of the graph.
#[derive(serde::Deserialize)]
struct NestedGraph {
    parents: Vec<Vec<u32>>,
    alive: Vec<bool>,
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
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
        for (slot, alive) in graph.alive.iter_mut().zip(old.alive) {
            *slot = alive;
        }
        meta.insert(KEY_GRAPH, codec::encode(&graph).as_slice())?;
    }
    Ok(())
}
