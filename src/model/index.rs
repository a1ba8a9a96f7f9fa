//! What `index` and `index --status` report (docs/indexing.md).

use schemars::JsonSchema;
use serde::Serialize;

/// `index --status --json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
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
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct IndexSummary {
    pub path: String,
    pub records: usize,
    pub commits_added: usize,
    pub head: Option<String>,
    pub diagnostics: Vec<String>,
}

/// One line of `watch --json`: one refresh of the index (ADR-0010). Keys in alphabetical
/// order, as the line has always printed them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WatchRefresh {
    pub cause: WatchCause,
    /// The paths whose change caused it (`changed` only).
    pub changed: Vec<String>,
    pub commits_added: usize,
    pub head: Option<String>,
    /// How long the refresh took, in milliseconds.
    pub ms: u64,
    pub records: usize,
}

/// What started a refresh of `watch`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum WatchCause {
    Start,
    Retry,
    Lost,
    Changed,
}
