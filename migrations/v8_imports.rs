// @adr 0021
// Schema 8: each source file's imports, kept by blob id (ADR-0021). `imports` keeps, for each
// (blob id, language and reader version) a rule's check read, the imports tree-sitter found in
// it; a later check after a one-file change parses only that file. Nothing else changes. Its
// types are schema 8's, defined here.

use super::super::checked::Checked;
use redb::TableDefinition;

/// (blob id, `Lang/PARSER_VERSION`) → the encoded imports (`Vec<Import>`).
pub const IMPORTS: TableDefinition<(&[u8; 20], &str), Checked> = TableDefinition::new("imports");

pub fn apply(txn: &redb::WriteTransaction) -> Result<(), redb::Error> {
    txn.open_table(IMPORTS)?;
    Ok(())
}
