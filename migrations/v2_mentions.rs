// Schema 2: a `mentions` table, (id, commit number), so the commits citing a record are one
// range scan instead of a pass over every commit. Filled from the mentions each stored commit
// already carries.

use crate::index::codec;
use crate::index::schema::{StoredCommit, COMMITS, MENTIONS};
use redb::ReadableTable;

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    let commits = txn.open_table(COMMITS)?;
    let mut mentions = txn.open_table(MENTIONS)?;
    for entry in commits.iter()? {
        let (number, bytes) = entry?;
        let commit: StoredCommit =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
        for id in &commit.mentions {
            mentions.insert((id.as_str(), number.value()), ())?;
        }
    }
    Ok(())
}
