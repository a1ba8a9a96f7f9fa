//! What `init`, `new`, `supersede`, `amend` and `status` did (docs/writing.md, ADR-0013):
//! `--json` prints `{"written": [{"path", "id", "action"}]}`.

use schemars::JsonSchema;
use serde::Serialize;

/// The files a write created or changed (or, with `--dry-run`, would).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Default, JsonSchema)]
pub struct WriteReport {
    pub written: Vec<Written>,
    /// Only with `--dry-run`: nothing was written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
    /// What changes, file by file (rendered as a diff for `--dry-run`; not in the JSON).
    #[serde(skip)]
    pub diffs: Vec<FileDiff>,
    /// What the author should know (`--governs` naming a path not there yet).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Written {
    /// Root-relative, `/`-separated.
    pub path: String,
    /// The record's id; `""` for a file that is not a record (`.adr-dir`).
    pub id: String,
    /// `"created"` or `"changed"`.
    pub action: String,
}

/// One file's change: every line of a new file, or the changed lines of an existing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub path: String,
    pub created: bool,
    pub hunks: Vec<Hunk>,
}

/// Lines `old` at line `line` (1-based) become `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub line: usize,
    pub old: Vec<String>,
    pub new: Vec<String>,
}
