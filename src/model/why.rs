//! The answer of `why PATH`: the decisions governing the path, how each was declared, and the
//! records that only mention it (ADR-0003, ADR-0017).

use super::record::Status;
use schemars::JsonSchema;
use serde::Serialize;

/// A record mentioning the path `why` asked about (or a folder above it, or a file in it)
/// without governing it (docs/mentions.md).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct MentionedBy {
    pub id: String,
    pub status: Status,
    pub term: String,
    pub line: u32,
    pub path: String,
}

/// One decision governing the path a `why` asked about.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Decision {
    pub id: String,
    pub status: Status,
    pub current: bool,
    pub matches: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_by: Option<Vec<Declaration>>,
}

/// A source file that declared its decision with a marker.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
pub struct Declaration {
    pub path: String,
    pub line: usize,
}
