//! What `index` and `index --status` report (CONTRACT.md §4).

use serde::Serialize;

/// `index --status --json`.
#[derive(Debug, Clone, Serialize)]
pub struct IndexStatus {
    pub path: String,
    pub schema_version: u32,
    pub head: Option<String>,
    pub indexed_head: Option<String>,
    pub fresh: bool,
    pub records: u64,
    pub commits: u64,
    pub paths: u64,
}

/// What `index` did.
#[derive(Debug, Clone, Serialize)]
pub struct IndexSummary {
    pub path: String,
    pub records: usize,
    pub commits_added: usize,
    pub head: Option<String>,
    pub diagnostics: Vec<String>,
}
