//! The report: one type per JSON object of the reference. Field order here is the key order of
//! `--json`; keys are added, never renamed or removed (docs/reading.md, ADR-0003).
//!
//! Each answer owns its types (`record.rs`, `why.rs`, `context.rs`, `coverage.rs`, `hooks.rs`);
//! the report only gathers them, so no answer imports it back (ADR-0007).

use super::context::ContextPack;
use super::coverage::Coverage;
use super::finding::Finding;
use super::hooks::ReviewQuery;
use super::record::Record;
use super::why::{Decision, MentionedBy, Related};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The whole answer of one command: the reference's JSON document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Report {
    pub root: String,
    pub records: Vec<Record>,
    pub docs: Vec<DocCitations>,
    pub findings: Vec<Finding>,
    pub notes: Vec<String>,
    pub query: Option<Query>,
    /// What each record's rules found (docs/rules.md): what `why` and `record` show of them;
    /// `check` shows them as findings.
    #[serde(skip)]
    #[schemars(skip)]
    pub rules: Vec<super::rules::RecordRules>,
}

/// A guide or README outside the record folders, and the records it cites.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct DocCitations {
    pub path: String,
    pub cites: Vec<String>,
}

/// What a query asked: `null` for the full check.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
#[serde(untagged)]
pub enum Query {
    Why {
        why: String,
        decisions: Vec<Decision>,
        /// Records that mention the path without governing it (docs/mentions.md).
        mentioned_by: Vec<MentionedBy>,
        /// Records related to the path by evidence, ranked, at most three; never governing
        /// (docs/related.md).
        related: Vec<Related>,
        /// The rules that apply to the path, and their violations in it (docs/rules.md).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        rules: Vec<super::rules::WhyRule>,
        /// When the path is a record's own file, that record (docs/related.md).
        #[serde(skip_serializing_if = "Option::is_none")]
        record_of: Option<super::why::RecordOf>,
    },
    Record {
        record: String,
        /// Its rules and what each finds; a proposed record's are what they would flag
        /// (docs/rules.md).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        rules: Vec<super::rules::RuleResult>,
    },
    /// `review [RANGE]` (ADR-0008).
    Review(ReviewQuery),
    /// `context PATH…` (ADR-0014).
    Context { context: ContextPack },
    /// `coverage` (ADR-0017).
    Coverage { coverage: Coverage },
}
