//! The schema steps: step N takes an index from version N-1 to N. Each runs in its own write
//! transaction, which also records the new version, so a crash between steps leaves a whole
//! version behind. The steps themselves live in `migrations/`, each with the tables and types
//! of its own schema defined in it: a step means the same whatever later schemas do.

use super::schema::{KEY_VERSION, META};
use redb::{Database, ReadableDatabase};

#[path = "../../migrations/v1_initial.rs"]
pub(crate) mod v1_initial;
#[path = "../../migrations/v2_mentions.rs"]
pub(crate) mod v2_mentions;
#[path = "../../migrations/v3_flat_graph.rs"]
mod v3_flat_graph;
#[path = "../../migrations/v4_inline_meta.rs"]
pub(crate) mod v4_inline_meta;
#[path = "../../migrations/v5_stamps.rs"]
mod v5_stamps;
#[path = "../../migrations/v6_markers.rs"]
mod v6_markers;
#[path = "../../migrations/v7_checked.rs"]
mod v7_checked;
#[path = "../../migrations/v8_imports.rs"]
mod v8_imports;
#[path = "../../migrations/v9_change_sizes.rs"]
mod v9_change_sizes;

type Step = fn(&redb::WriteTransaction) -> Result<(), redb::Error>;

/// (version reached, step), in order.
pub const STEPS: &[(u32, Step)] = &[
    (1, v1_initial::apply),
    (2, v2_mentions::apply),
    (3, v3_flat_graph::apply),
    (4, v4_inline_meta::apply),
    (5, v5_stamps::apply),
    (6, v6_markers::apply),
    (7, v7_checked::apply),
    (8, v8_imports::apply),
    (9, v9_change_sizes::apply),
];

/// The first version whose `meta` values are checked ([`super::schema::Checked`]): an older
/// file's `meta` is read and written as schema 1 defined it.
const CHECKED_FROM: u32 = 7;

/// The version recorded in the file; 0 for a new, empty file.
pub fn version(db: &impl ReadableDatabase) -> Result<u32, redb::Error> {
    let txn = db.begin_read()?;
    let le = |b: &[u8]| {
        let mut le = [0u8; 4];
        le[..b.len().min(4)].copy_from_slice(&b[..b.len().min(4)]);
        u32::from_le_bytes(le)
    };
    let version = match txn.open_table(META) {
        Ok(meta) => meta.get(KEY_VERSION)?.map(|v| le(v.value())),
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(0),
        // A file from before schema 7: its `meta` values carry no checksum.
        Err(redb::TableError::TableTypeMismatch { .. }) => {
            let meta = txn.open_table(v1_initial::META)?;
            let found = meta.get(KEY_VERSION)?.map(|v| le(v.value()));
            found
        }
        Err(e) => return Err(e.into()),
    };
    Ok(version.unwrap_or(0))
}

/// The `meta` value at `key`, in a file of any schema (before schema 7 unchecked).
pub fn meta_value(txn: &redb::ReadTransaction, key: &str) -> Result<Option<Vec<u8>>, redb::Error> {
    match txn.open_table(META) {
        Ok(meta) => Ok(meta.get(key)?.map(|v| v.value().to_vec())),
        Err(redb::TableError::TableDoesNotExist(_)) => Ok(None),
        Err(redb::TableError::TableTypeMismatch { .. }) => {
            let meta = txn.open_table(v1_initial::META)?;
            let found = meta.get(key)?.map(|v| v.value().to_vec());
            Ok(found)
        }
        Err(e) => Err(e.into()),
    }
}

/// Applies every step above `from`, up to `to`, each in its own transaction.
pub fn migrate(db: &Database, from: u32, to: u32) -> Result<(), redb::Error> {
    for (version, step) in STEPS.iter().filter(|(v, _)| *v > from && *v <= to) {
        let mut txn = db.begin_write()?;
        // Not made durable on its own (ADR-0006): a crash leaves the last durable version,
        // migrated again next time; closing the file makes it durable.
        txn.set_durability(redb::Durability::None)?;
        step(&txn)?;
        let at = version.to_le_bytes();
        if *version >= CHECKED_FROM {
            txn.open_table(META)?.insert(KEY_VERSION, at.as_slice())?;
        } else {
            txn.open_table(v1_initial::META)?
                .insert(KEY_VERSION, at.as_slice())?;
        }
        txn.commit()?;
    }
    Ok(())
}

/// Opens (and so creates, when missing) every table of the current schema.
pub fn create_tables(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    use super::schema::*;
    txn.open_table(META)?;
    txn.open_table(RECORDS)?;
    txn.open_table(GUIDES)?;
    txn.open_table(COMMITS)?;
    txn.open_table(COMMIT_CHANGES)?;
    txn.open_table(CHANGE_SIZES)?;
    txn.open_table(COMMIT_IDS)?;
    txn.open_table(PATHS)?;
    txn.open_table(RENAMES)?;
    txn.open_table(MENTIONS)?;
    txn.open_table(EDGES)?;
    txn.open_table(GRAPH)?;
    txn.open_table(MARKERS)?;
    txn.open_table(IMPORTS)?;
    Ok(())
}
