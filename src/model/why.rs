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

/// The record whose own file is the path `why` asked about: the decision itself, not one
/// governing it (docs/related.md).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct RecordOf {
    pub id: String,
    pub title: String,
    pub status: Status,
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

/// A record related to the path `why` asked about without governing it, ranked by the
/// evidence that put it there (docs/related.md, ADR-0017). It never governs: no finding, no
/// drift, no hook warning.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Related {
    pub id: String,
    pub status: Status,
    /// The sum of its evidence's weights (docs/related.md).
    pub score: u32,
    pub evidence: Vec<Evidence>,
    /// The record's title, for the Markdown line.
    pub title: String,
}

/// One piece of evidence relating a record to a path, by kind (docs/related.md).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Evidence {
    /// A code mention of the record names the path: `term` on `line` of the record.
    Name { term: String, line: u32 },
    /// A source comment in the path names the record's id or links its file: `term` as
    /// written, on `line` of the path.
    Link { term: String, line: u32 },
    /// `commits` commits that changed the path cite the record in their message.
    Cited { commits: u32 },
    /// The focused commit that added the record changed the path too.
    Introduced { commit: String },
    /// Distinctive words of the record's title are in the path's own name. `file_name`: read
    /// from the record's file name, its heading being another record's (docs/related.md).
    Words {
        words: Vec<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        file_name: bool,
    },
    /// The record's words that PATH's own text echoes most (docs/related.md): no other record's
    /// as much. `words` are the ones weighing most, as PATH writes them.
    Text { words: Vec<String> },
}
