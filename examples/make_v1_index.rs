//! Turns a current (version-4) index (`<git dir>/context-graph/index.redb`) into a real
//! version-1 file, in place: version 1 is version 4 without the `mentions` table (added by
//! step 2), without the `edges` table, with each commit's changes inside its `commits` value
//! instead of `commit_changes`, with the commit graph stored one parent list per commit
//! (schema 3 keeps it in chunks in a `graph` table), and with no values in `paths` (schema 4
//! put each commit's metadata there); see `migrations/`.
//! Made for the fixture in `fixtures/index/v1/` (its README says how it was made).
//!
//! ```text
//! cargo run --example make_v1_index -- path/to/index.redb
//! ```

use context_graph::index::codec;
use context_graph::index::schema::{
    StoredChanges, StoredCommit, COMMITS, COMMIT_CHANGES, EDGES, GRAPH, KEY_GRAPH, KEY_SHALLOW,
    KEY_VERSION, MENTIONS, META, PATHS,
};
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use std::process::ExitCode;

/// `paths` as schemas 1 to 3 store it.
const PATHS_V1: TableDefinition<(&str, u32), ()> = TableDefinition::new("paths");

/// A commit as schemas 1 and 2 store it.
#[derive(serde::Serialize)]
struct StoredCommitV1 {
    id: [u8; 20],
    parents: Vec<u32>,
    time: i64,
    author: String,
    subject: String,
    mentions: Vec<String>,
    is_merge: bool,
    changes: Vec<String>,
    renames: Vec<(String, String)>,
}

/// A chunk of the graph as schema 3 stores it.
#[derive(serde::Deserialize)]
struct FlatGraph {
    offsets: Vec<u32>,
    parents: Vec<u32>,
    alive: Vec<bool>,
}

/// The graph as schemas 1 and 2 store it.
#[derive(serde::Serialize)]
struct NestedGraph {
    parents: Vec<Vec<u32>>,
    alive: Vec<bool>,
}

fn version(db: &Database) -> Result<Option<u32>, redb::Error> {
    let txn = db.begin_read()?;
    let meta = txn.open_table(META)?;
    let version = meta.get(KEY_VERSION)?.map(|v| {
        let b = v.value();
        let mut le = [0u8; 4];
        le[..b.len().min(4)].copy_from_slice(&b[..b.len().min(4)]);
        u32::from_le_bytes(le)
    });
    Ok(version)
}

fn convert(path: &str) -> Result<(), redb::Error> {
    let mut db = Database::create(path)?;
    match version(&db)? {
        Some(4) => {}
        other => {
            return Err(redb::Error::Corrupted(format!(
                "{path} is not a version-4 index (schema version {other:?})"
            )))
        }
    }
    let txn = db.begin_write()?;
    let existed = txn.delete_table(MENTIONS)?;
    assert!(existed, "a version-4 index has a mentions table");
    let mut path_keys: Vec<(String, u32)> = Vec::new();
    for entry in txn.open_table(PATHS)?.iter()? {
        let (k, _) = entry?;
        let (p, n) = k.value();
        path_keys.push((p.to_string(), n));
    }
    txn.delete_table(PATHS)?;
    {
        let mut paths = txn.open_table(PATHS_V1)?;
        for (p, n) in &path_keys {
            paths.insert((p.as_str(), *n), ())?;
        }
    }
    {
        let mut commits = txn.open_table(COMMITS)?;
        let changes = txn.open_table(COMMIT_CHANGES)?;
        let mut joined = Vec::new();
        for entry in commits.iter()? {
            let (n, bytes) = entry?;
            let c: StoredCommit =
                codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
            let touched: StoredChanges = match changes.get(n.value())? {
                Some(b) => {
                    codec::decode(b.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?
                }
                None => StoredChanges {
                    changes: Vec::new(),
                    renames: Vec::new(),
                },
            };
            joined.push((
                n.value(),
                codec::encode(&StoredCommitV1 {
                    id: c.id,
                    parents: c.parents,
                    time: c.time,
                    author: c.author,
                    subject: c.subject,
                    mentions: c.mentions,
                    is_merge: c.is_merge,
                    changes: touched.changes,
                    renames: touched.renames,
                }),
            ));
        }
        for (n, bytes) in joined {
            commits.insert(n, bytes.as_slice())?;
        }
    }
    txn.delete_table(COMMIT_CHANGES)?;
    txn.delete_table(EDGES)?;
    {
        let mut meta = txn.open_table(META)?;
        let mut nested = NestedGraph {
            parents: Vec::new(),
            alive: Vec::new(),
        };
        {
            let chunks = txn.open_table(GRAPH)?;
            for entry in chunks.iter()? {
                let (_, bytes) = entry?;
                let flat: FlatGraph = codec::decode(bytes.value())
                    .map_err(|e| redb::Error::Corrupted(e.to_string()))?;
                for n in 0..flat.alive.len() {
                    nested.parents.push(
                        flat.parents[flat.offsets[n] as usize..flat.offsets[n + 1] as usize]
                            .to_vec(),
                    );
                }
                nested.alive.extend(flat.alive);
            }
        }
        txn.delete_table(GRAPH)?;
        if !nested.alive.is_empty() {
            meta.insert(KEY_GRAPH, codec::encode(&nested).as_slice())?;
        }
        // Schemas 1 and 2 kept a flag: 0 for "not shallow".
        let not_shallow = meta.get(KEY_SHALLOW)?.is_some_and(|v| v.value().is_empty());
        if not_shallow {
            meta.insert(KEY_SHALLOW, [0u8].as_slice())?;
        }
        meta.insert(KEY_VERSION, 1u32.to_le_bytes().as_slice())?;
    }
    txn.commit()?;
    // Drop the freed pages, so nothing of the mentions stays in the file.
    db.compact()?;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("usage: make_v1_index PATH/TO/index.redb (a version-4 index, changed in place)");
        return ExitCode::from(2);
    };
    match convert(path) {
        Ok(()) => {
            println!("{path}: now a version-1 index (no mentions table, schema_version 1)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("make_v1_index: {e}");
            ExitCode::FAILURE
        }
    }
}
