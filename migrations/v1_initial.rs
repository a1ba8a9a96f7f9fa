// Schema 1: the initial layout: meta, records, guides, commits, commit ids, per-path history
// and renames. Applied to an empty file. Every table is defined here as schema 1 had it, so
// this step means the same whatever later schemas do.

use redb::TableDefinition;

pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
pub const RECORDS: TableDefinition<&str, &[u8]> = TableDefinition::new("records");
pub const GUIDES: TableDefinition<&str, &[u8]> = TableDefinition::new("guides");
pub const COMMITS: TableDefinition<u32, &[u8]> = TableDefinition::new("commits");
pub const COMMIT_IDS: TableDefinition<&[u8; 20], u32> = TableDefinition::new("commit_ids");
/// The schema-1 to -3 shape of `paths`: (path, commit number), no value (schema 4 added one).
pub const PATHS_V1: TableDefinition<(&str, u32), ()> = TableDefinition::new("paths");
pub const RENAMES: TableDefinition<(&str, u32), &str> = TableDefinition::new("renames");

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(META)?;
    txn.open_table(RECORDS)?;
    txn.open_table(GUIDES)?;
    txn.open_table(COMMITS)?;
    txn.open_table(COMMIT_IDS)?;
    txn.open_table(PATHS_V1)?;
    txn.open_table(RENAMES)?;
    Ok(())
}
