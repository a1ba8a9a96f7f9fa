//! What `scope ID --add PATH…` / `--accept` did to a record (docs/mentions.md, ADR-0017).

use schemars::JsonSchema;
use serde::Serialize;

/// The edit of one record's scope: the paths added, those it already governed, the form they
/// were written in, and the changed lines as hunks (for `--dry-run`'s diff).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ScopeEdit {
    pub id: String,
    /// The record file, root-relative.
    pub path: String,
    /// `"frontmatter governs"`, `"frontmatter affects"` or `"governs line"`.
    pub form: String,
    pub added: Vec<String>,
    /// Asked for, but already governed by the record: not written again.
    pub already: Vec<String>,
    /// Whether the file was written (`false` with `--dry-run`, or when nothing was added).
    pub written: bool,
    pub hunks: Vec<Hunk>,
}

/// A run of changed lines: `old` (1-based, in the file as it was) replaced by `new`; an
/// insertion has no old lines and starts after line `at - 1`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Hunk {
    pub at: usize,
    pub old: Vec<String>,
    pub new: Vec<String>,
}

/// `scope --json`'s document: `{"scope": {…}}`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ScopeReport {
    pub scope: ScopeEdit,
}
