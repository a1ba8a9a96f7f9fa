// @adr 0009
// Schema 6: the source files' markers (ADR-0009). `markers` keeps, for each tracked file whose
// state matched git's index when it was scanned, the blob id git's index named for it and the
// markers read from it; a later scan serves the file from here while git's index still names
// that blob and the file's state still matches. Nothing else changes. Its types are schema 6's,
// defined here.

use redb::TableDefinition;

/// Root-relative path → the encoded [`StoredMarkersV6`].
pub const MARKERS: TableDefinition<&str, &[u8]> = TableDefinition::new("markers");

/// What schema 6 keeps of a file: the blob id, and each marker as (line, id).
#[allow(dead_code)] // the layout this step defines; `index::schema` reads and writes it
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StoredMarkersV6 {
    pub blob: [u8; 20],
    pub markers: Vec<(u32, String)>,
}

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(MARKERS)?;
    Ok(())
}
