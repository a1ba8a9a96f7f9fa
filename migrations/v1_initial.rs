// Schema 1: the initial layout: meta, records, guides, commits, commit ids, per-path history
// and renames. Applied to an empty file.

use crate::index::schema::{COMMITS, COMMIT_IDS, GUIDES, META, PATHS, RECORDS, RENAMES};

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(META)?;
    txn.open_table(RECORDS)?;
    txn.open_table(GUIDES)?;
    txn.open_table(COMMITS)?;
    txn.open_table(COMMIT_IDS)?;
    txn.open_table(PATHS)?;
    txn.open_table(RENAMES)?;
    Ok(())
}
