//! The data every command returns, and nothing else: the JSON contract's types, the finding
//! codes, what the index reports, and what the hooks and `review` find (docs/reading.md, docs/indexing.md, docs/hooks.md;
//! ADR-0003, ADR-0008).

mod context;
mod coverage;
mod finding;
mod hooks;
mod index;
mod picture;
mod record;
mod report;
mod rules;
mod scope;
mod why;
mod write;

pub use context::*;
pub use coverage::{Coverage, CoverageWindow, UncitedDecision, UngovernedFolder, MAX_LISTED};
pub use finding::{Finding, FindingCode, MissingRecordLink, Severity, CODE_FIX, DOCUMENT_FIX};
pub use hooks::*;
pub use index::{IndexStatus, IndexSummary, WatchCause, WatchRefresh};
pub use picture::{Edge, EdgeKind, Graph, Node, NodeKind};
pub use record::*;
pub use report::*;
pub use rules::{PathRules, RecordRules, RuleResult, RuleViolation, WhyRule, WhyViolation};
pub use scope::{Hunk as ScopeHunk, ScopeEdit, ScopeReport};
pub use why::{Decision, Declaration, Evidence, MentionedBy, RecordOf, Related};
pub use write::{FileDiff, Hunk, WriteReport, Written};
