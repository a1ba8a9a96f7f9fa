//! The data every command returns, and nothing else: the JSON contract's types, the finding
//! codes, and what the index reports (CONTRACT.md §3, §4; ADR-0003).

mod finding;
mod index;
mod report;

pub use finding::{Finding, FindingCode, Severity};
pub use index::{IndexStatus, IndexSummary};
pub use report::*;
