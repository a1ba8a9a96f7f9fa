//! The data every command returns, and nothing else: the JSON contract's types, the finding
//! codes, what the index reports, and what the hooks and `review` find (CONTRACT.md §3-§5;
//! ADR-0003, ADR-0008).

mod finding;
mod hooks;
mod index;
mod report;
mod scope;

pub use finding::{Finding, FindingCode, Severity};
pub use hooks::*;
pub use index::{IndexStatus, IndexSummary};
pub use report::*;
pub use scope::{Hunk, ScopeEdit};
