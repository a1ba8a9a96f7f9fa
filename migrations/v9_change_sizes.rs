// @adr 0006
// Schema 9: `change_sizes`, for each focused commit that may add a record, how many bytes each
// file it changed grew or shrank by (ADR-0017: the commit that added a record says little of a
// file it changed by a line among thousands). Every stored commit needs its sizes, and they are
// read from git, which a step does not open: the history part is dropped (commits, their
// changes and ids, paths, renames, mentions, the graph, and the meta keys that say what was
// walked), and the next query walks it again. Records, guides, markers, walks and imports stay.
// The table types are schema 9's, defined here.

use super::super::checked::Checked;
use redb::TableDefinition;

/// Commit number → the encoded sizes (`Vec<u32>`).
pub const CHANGE_SIZES: TableDefinition<u32, Checked> = TableDefinition::new("change_sizes");

const META: TableDefinition<&str, Checked> = TableDefinition::new("meta");
const BY_NUMBER: [TableDefinition<u32, Checked>; 3] = [
    TableDefinition::new("commits"),
    TableDefinition::new("commit_changes"),
    TableDefinition::new("graph"),
];
const BY_PATH: [TableDefinition<(&str, u32), Checked>; 2] = [
    TableDefinition::new("paths"),
    TableDefinition::new("mentions"),
];
const COMMIT_IDS: TableDefinition<&[u8; 20], u32> = TableDefinition::new("commit_ids");
const RENAMES: TableDefinition<(&str, u32), &str> = TableDefinition::new("renames");
/// What says which commits are stored: without them the next refresh walks every commit.
const WALKED_KEYS: [&str; 4] = ["head", "reach", "shallow", "time_blocks"];

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    for table in BY_NUMBER {
        txn.delete_table(table)?;
        txn.open_table(table)?;
    }
    for table in BY_PATH {
        txn.delete_table(table)?;
        txn.open_table(table)?;
    }
    txn.delete_table(COMMIT_IDS)?;
    txn.open_table(COMMIT_IDS)?;
    txn.delete_table(RENAMES)?;
    txn.open_table(RENAMES)?;
    txn.open_table(CHANGE_SIZES)?;
    let mut meta = txn.open_table(META)?;
    for key in WALKED_KEYS {
        meta.remove(key)?;
    }
    Ok(())
}
