// Schema 5: cached parses are kept with a stamp of the file they were read from (its
// fingerprint, and the digest of its content when it had changed too recently for its times
// to be trusted), and under a scope that names the parser that read them; the scan memo keeps
// the scan's stamped dependencies. Every cached parse, the guide walk and the memo of schema 4
// are dropped (the next query reads the files again); the history is kept as it is.

use super::v1_initial::{GUIDES, META, RECORDS};
use super::v3_flat_graph::EDGES;

const DROPPED_KEYS: [&str; 4] = ["scope", "guide_walk", "scan_memo", "scan_memo_report"];

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(RECORDS)?.retain(|_, _| false)?;
    txn.open_table(GUIDES)?.retain(|_, _| false)?;
    txn.open_table(EDGES)?.retain(|_, _| false)?;
    let mut meta = txn.open_table(META)?;
    for key in DROPPED_KEYS {
        meta.remove(key)?;
    }
    Ok(())
}
