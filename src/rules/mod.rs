//! Rules in records (ADR-0021, docs/rules.md): what a record's ```` ```context-graph ````
//! block says the code must hold to, read from the record's text ([`read_block`]) and kept
//! with its parse. The block's lines as written, each a [`Rule`] or an [`Except`]; a line
//! that does not parse is an [`Invalid`] with its line in the record's file and why.
//!
//! Checking them is `checks::rules`'s (a function of the tracked files' blobs, the manifests
//! and an edge list of imports, [`Edge`], whoever makes it): this room only reads.

mod parse;

pub use parse::{block_end, parse_line, read_block, Parsed};

use serde::{Deserialize, Serialize};

/// What one record's `context-graph` blocks say, in the order written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleBlock {
    pub rules: Vec<Rule>,
    pub excepts: Vec<Except>,
    pub invalid: Vec<Invalid>,
}

impl RuleBlock {
    /// A block with nothing but comments and blank lines: the rules dropped on purpose.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.excepts.is_empty() && self.invalid.is_empty()
    }
}

/// One rule: its line in the record's file, the line as written (trimmed), and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    pub line: u32,
    pub text: String,
    pub kind: RuleKind,
}

/// A target of an import rule: files matching a pattern, or an external package (`pkg:NAME`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Target {
    Files(String),
    Package(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleKind {
    /// `forbid import A -> B, …`: no file matching one of `from` imports a target.
    ForbidImport { from: Vec<String>, to: Vec<Target> },
    /// `only import A -> B, …`: a file matching `from` imports tracked files only under
    /// `from` itself or a target.
    OnlyImport { from: Vec<String>, to: Vec<Target> },
    /// `independent P, Q, …`: no file under one imports a file under another; a pattern
    /// ending in `/*` is one group per folder it matches.
    Independent { groups: Vec<String> },
    /// `forbid dependency NAME [in GLOB]`.
    ForbidDependency {
        name: String,
        within: Option<String>,
    },
    /// `forbid text /REGEX/ in GLOB` (the regex as written, compiled when checked; it is
    /// known to compile).
    ForbidText { regex: String, within: String },
}

/// `except A -> B: reason` (an edge) or `except PATH: reason` (any violation in PATH).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Except {
    pub line: u32,
    pub text: String,
    /// The pattern of the files it allows violations in.
    pub path: String,
    /// With `-> B`: only violations whose target matches it.
    pub target: Option<Target>,
    pub reason: String,
}

/// A rule line that does not parse, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invalid {
    pub line: u32,
    pub text: String,
    pub why: String,
}

/// One import, as an import rule sees it: the importing file (root-relative), the line, and
/// what it resolved to. Made by whoever reads imports; the rules only evaluate them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Edge {
    pub from: String,
    pub line: u32,
    pub target: EdgeTarget,
}

/// What an import resolved to: a tracked file, or an external package by the name the
/// language imports it by.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EdgeTarget {
    File(String),
    Package(String),
}

impl EdgeTarget {
    /// As a violation names it: the file's path, or `pkg:NAME`.
    pub fn shown(&self) -> String {
        match self {
            EdgeTarget::File(p) => p.clone(),
            EdgeTarget::Package(n) => format!("pkg:{n}"),
        }
    }
}
