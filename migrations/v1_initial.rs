// Schema 1: the initial layout: meta, records, guides, commits, commit ids, per-path history
// and renames. Applied to an empty file.

use crate::index::schema::{COMMITS, COMMIT_IDS, GUIDES, META, RECORDS, RENAMES};
use redb::TableDefinition;

/// The schema-1 to -3 shape of `paths`: (path, commit number), no value (schema 4 added one).
pub const PATHS_V1: TableDefinition<(&str, u32), ()> = TableDefinition::new("paths");

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
