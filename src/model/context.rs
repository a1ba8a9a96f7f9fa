//! `context PATH…`: what an agent reads before it edits PATH (docs/agents.md; ADR-0014). The
//! current decisions governing the paths in their own words, within a budget; the others one
//! line each. Field order here is the key order of `query.context` in `--json`.

use super::record::{Commit, Status};
use schemars::JsonSchema;
use serde::Serialize;

/// The pack `context PATH…` answers with.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ContextPack {
    /// The paths asked about, as the command line gave them normalised (repo-relative).
    pub paths: Vec<String>,
    /// The budget, in tokens (characters/4).
    pub budget: usize,
    /// What the Markdown pack comes to, in tokens (characters/4).
    pub used: usize,
    /// The current decisions governing any of the paths, each once, in the order `why` lists
    /// them (path by path).
    pub decisions: Vec<ContextDecision>,
    /// The decisions that govern a path but are no longer (or not yet) current, one line each.
    pub history: Vec<HistoryLine>,
    /// Records that only mention the paths: filled by the code-mentions work (docs/mentions.md);
    /// always empty here.
    pub mentioned_by: Vec<super::why::MentionedBy>,
    /// Records related to the paths by evidence, not governing them, each once
    /// (docs/related.md).
    pub related: Vec<super::why::Related>,
    /// The rules that apply to each asked path, and its violations in it (docs/rules.md): the
    /// Markdown pack shows them before the decisions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<super::rules::PathRules>,
    /// The asked paths that are a record's own file, each with its record (`why`'s
    /// `record_of`): the pack says so before the decisions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub record_files: Vec<RecordFile>,
}

/// An asked path that is a record's own file, and that record.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct RecordFile {
    pub path: String,
    pub id: String,
    pub title: String,
    pub status: Status,
}

/// One current decision, in its own words.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ContextDecision {
    pub id: String,
    pub title: String,
    pub status: Status,
    pub date: Option<String>,
    /// The record file, relative to the root.
    pub path: String,
    /// Which of the asked paths it governs.
    pub governs: Vec<String>,
    /// Its governed entries that matched them.
    pub matches: Vec<String>,
    /// The files whose markers declared it, as `PATH:LINE`.
    pub declared_by: Vec<String>,
    /// The sections kept, decision and consequences first, then the context, then the rest.
    pub sections: Vec<ContextSection>,
    /// The sections left out whole to keep within the budget.
    pub omitted: Vec<Omitted>,
    /// With `--git`: the commits since the decision to its governed paths that did not cite
    /// it, newest first (as many as the budget holds; `uncited_left_out` says how many more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncited_commits: Option<Vec<Commit>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncited_left_out: Option<usize>,
}

/// A section of a record: its heading as written and its text.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ContextSection {
    pub heading: String,
    pub text: String,
    /// Cut short to keep within the budget (`tokens` is the whole section's).
    pub truncated: bool,
    pub tokens: usize,
}

/// A section left out, and how long it is.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Omitted {
    pub heading: String,
    pub tokens: usize,
}

/// A decision governing a path that is not current: superseded, deprecated, rejected or
/// proposed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct HistoryLine {
    pub id: String,
    pub title: String,
    pub status: Status,
    pub date: Option<String>,
    pub superseded_by: Vec<String>,
    /// The line itself: "ADR-0005 (Title, 2021-03-04) was superseded by ADR-0008 on …".
    pub line: String,
}

/// Tokens as the budget counts them: characters/4, rounded up.
pub fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}
