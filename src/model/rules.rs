//! What the rules records carry found (ADR-0021, docs/rules.md): each record's rules with
//! their violations, as a scan finds them and the index keeps them; and the two views of
//! them a query shows (`why PATH`'s rules of a file, `record ID`'s rules of a record).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One place a rule is broken.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct RuleViolation {
    pub path: String,
    pub line: u32,
    /// What the import resolved to (a path or `pkg:NAME`), or the package a manifest declares;
    /// `null` for a line of text.
    pub target: Option<String>,
}

/// One rule of a record and what it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RuleResult {
    /// Its line in the record's file.
    pub line: u32,
    /// The rule as written.
    pub rule: String,
    /// `false` when what it needs was not read (imports, or files outside git).
    pub checked: bool,
    pub violations: Vec<RuleViolation>,
}

/// One record's rules, when it has any and is current or proposed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRules {
    pub id: String,
    pub path: String,
    /// A current record's rules are enforced; a proposed record's only shown.
    pub enforced: bool,
    pub rules: Vec<RuleResult>,
}

/// A rule that applies to the path `why` asks about, and its violations in that file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WhyRule {
    /// The record that carries it.
    pub id: String,
    /// The rule as written.
    pub rule: String,
    pub violations: Vec<WhyViolation>,
}

/// The rules that apply to one path `context` was asked about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PathRules {
    pub path: String,
    pub rules: Vec<WhyRule>,
}

/// A violation in the file `why` asks about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WhyViolation {
    pub line: u32,
    pub target: Option<String>,
}
