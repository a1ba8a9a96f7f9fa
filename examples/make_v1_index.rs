//! Turns a version-2 index (`<git dir>/context-graph/index.redb`) into a real version-1 file,
//! in place: version 1 is exactly version 2 without the `mentions` table (see `migrations/`).
//! Made for the fixture in `fixtures/index/v1/` (its README says how it was made).
//!
//! ```text
//! cargo run --example make_v1_index -- path/to/index.redb
//! ```

use context_graph::index::schema::{KEY_VERSION, MENTIONS, META};
use redb::{Database, ReadableDatabase};
use std::process::ExitCode;

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
        Some(2) => {}
        other => {
            return Err(redb::Error::Corrupted(format!(
                "{path} is not a version-2 index (schema version {other:?})"
            )))
        }
    }
    let txn = db.begin_write()?;
    let existed = txn.delete_table(MENTIONS)?;
    assert!(existed, "a version-2 index has a mentions table");
    {
        let mut meta = txn.open_table(META)?;
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
        eprintln!("usage: make_v1_index PATH/TO/index.redb (a version-2 index, changed in place)");
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
