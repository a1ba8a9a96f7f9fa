// @adr 0011
// Schema 7: every byte-string value is kept with a checksum of its own, verified on each read
// (ADR-0011): redb verifies its pages' checksums only when the whole file is checked, so a byte
// changed under a matching seal was read as it was. Each table of byte strings (and `walks`,
// which schema 6 files may hold) is rewritten, its values now `Checked`; the keys and the other
// tables stay as they are. The scan memo is dropped (the next query makes a new one, which
// stamps the ignore files above the paths the records name). The value type is schema 7's: a
// change to its checksum is a new type name, and a new step.

use super::super::checked::Checked;
use super::v1_initial::{COMMITS, GUIDES, META, RECORDS};
use super::v3_flat_graph::{COMMIT_CHANGES, GRAPH};
use super::v4_inline_meta::{MENTIONS, PATHS};
use super::v6_markers::MARKERS;
use redb::{ReadableTable, TableDefinition, TableHandle};

/// The scan memo of schema 6, dropped: it did not stamp the ignore files above the paths the
/// records name (the next query scans and keeps a new one).
const DROPPED_KEYS: [&str; 2] = ["scan_memo", "scan_memo_report"];

/// The walks kept for the next scan, as schema 6 files may hold them (unchecked).
const WALKS: TableDefinition<&str, &[u8]> = TableDefinition::new("walks");

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    for old in [META, RECORDS, GUIDES, MARKERS, WALKS] {
        let entries = {
            let table = txn.open_table(old)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                let (k, v) = entry?;
                if !DROPPED_KEYS.contains(&k.value()) {
                    out.push((k.value().to_string(), v.value().to_vec()));
                }
            }
            out
        };
        txn.delete_table(old)?;
        let new: TableDefinition<&str, Checked> = TableDefinition::new(old.name());
        let mut table = txn.open_table(new)?;
        for (k, v) in &entries {
            table.insert(k.as_str(), v.as_slice())?;
        }
    }
    for old in [COMMITS, COMMIT_CHANGES, GRAPH] {
        let entries = {
            let table = txn.open_table(old)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                let (k, v) = entry?;
                out.push((k.value(), v.value().to_vec()));
            }
            out
        };
        txn.delete_table(old)?;
        let new: TableDefinition<u32, Checked> = TableDefinition::new(old.name());
        let mut table = txn.open_table(new)?;
        for (k, v) in &entries {
            table.insert(*k, v.as_slice())?;
        }
    }
    for old in [PATHS, MENTIONS] {
        let entries = {
            let table = txn.open_table(old)?;
            let mut out = Vec::new();
            for entry in table.iter()? {
                let (k, v) = entry?;
                let (key, n) = k.value();
                out.push((key.to_string(), n, v.value().to_vec()));
            }
            out
        };
        txn.delete_table(old)?;
        let new: TableDefinition<(&str, u32), Checked> = TableDefinition::new(old.name());
        let mut table = txn.open_table(new)?;
        for (k, n, v) in &entries {
            table.insert((k.as_str(), *n), v.as_slice())?;
        }
    }
    Ok(())
}
