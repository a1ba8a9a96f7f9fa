// @adr 0021
//! Each source file's imports, kept by blob id (ADR-0021, schema 8): what the records' rules
//! read, by (blob id, language and reader version), so a check after a one-file change parses
//! that file alone. Read with the stored parses (`Cached` serves it to the scan as its
//! `ImportCache`); [`Index::store_inputs`] keeps what the scan parsed anew and
//! drops what it no longer used. A cache: an entry that does not decode is parsed again.

use super::codec;
use super::schema::IMPORTS;
use super::{Index, IndexError};
use crate::imports::Import;
use crate::scan::imports::{ImportKey, ImportsRead};
use redb::ReadableTable;
use std::collections::{HashMap, HashSet};

/// The stored imports, undecoded, by key.
pub(super) type RawImports = HashMap<ImportKey, Vec<u8>>;

/// Every stored entry; none in a file without the table.
pub(super) fn read(txn: &redb::ReadTransaction) -> Result<RawImports, redb::Error> {
    let table = match txn.open_table(IMPORTS) {
        Ok(t) => t,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(RawImports::default()),
        Err(e) => return Err(e.into()),
    };
    let mut out = RawImports::default();
    for entry in table.iter()? {
        let (k, v) = entry?;
        let (blob, tag) = k.value();
        out.insert((*blob, tag.to_string()), v.value().to_vec());
    }
    Ok(out)
}

/// The imports stored under `key` in `stored`; `None` when absent or not decodable.
pub(super) fn get(stored: &RawImports, key: &ImportKey) -> Option<Vec<Import>> {
    codec::decode(stored.get(key)?).ok()
}

/// What to write of a scan's `read` over the `stored` entries: the new ones, and the stored
/// keys no longer used.
pub(super) struct ImportWrites<'a> {
    new: Vec<(&'a ImportKey, Vec<u8>)>,
    gone: Vec<&'a ImportKey>,
}

impl<'a> ImportWrites<'a> {
    pub(super) fn of(read: Option<&'a ImportsRead>, stored: Option<&'a RawImports>) -> Self {
        let Some(read) = read else {
            return ImportWrites {
                new: Vec::new(),
                gone: Vec::new(),
            };
        };
        let new = read
            .parsed
            .iter()
            .map(|(k, imports)| (k, codec::encode(imports)))
            .collect();
        let used: HashSet<&ImportKey> = read.used.iter().collect();
        let gone = stored
            .map(|s| s.keys().filter(|k| !used.contains(k)).collect())
            .unwrap_or_default();
        ImportWrites { new, gone }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.new.is_empty() && self.gone.is_empty()
    }
}

impl Index {
    /// Writes `writes` in `txn`.
    pub(super) fn write_imports(
        &self,
        txn: &redb::WriteTransaction,
        writes: &ImportWrites,
    ) -> Result<(), IndexError> {
        if writes.is_empty() {
            return Ok(());
        }
        let mut table = txn.open_table(IMPORTS).map_err(|e| self.err(e))?;
        for (blob, tag) in &writes.gone {
            table
                .remove((blob, tag.as_str()))
                .map_err(|e| self.err(e))?;
        }
        for ((blob, tag), v) in &writes.new {
            table
                .insert((blob, tag.as_str()), v.as_slice())
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }
}
