// Schema 2: a `mentions` table, (id, commit number), so the commits citing a record are one
// range scan instead of a pass over every commit. Filled from the mentions each stored commit
// already carries. Its types are schema 2's, defined here.

use super::v1_initial::COMMITS;
use crate::index::codec;
use redb::{ReadableTable, TableDefinition};

/// The schema-2 and -3 shape of `mentions`: (id, commit number), no value (schema 4 added one).
pub const MENTIONS_V2: TableDefinition<(&str, u32), ()> = TableDefinition::new("mentions");

/// The schema-1 and -2 shape of a stored commit (schema 3 moved `changes` and `renames` out).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StoredCommitV1 {
    pub id: [u8; 20],
    pub parents: Vec<u32>,
    pub time: i64,
    pub author: String,
    pub subject: String,
    pub mentions: Vec<String>,
    pub is_merge: bool,
    pub changes: Vec<String>,
    pub renames: Vec<(String, String)>,
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    let commits = txn.open_table(COMMITS)?;
    let mut mentions = txn.open_table(MENTIONS_V2)?;
    for entry in commits.iter()? {
        let (number, bytes) = entry?;
        let commit: StoredCommitV1 =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
        for id in &commit.mentions {
            mentions.insert((id.as_str(), number.value()), ())?;
        }
    }
    Ok(())
}
