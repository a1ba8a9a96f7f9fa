//! `graph`'s picture of the decisions: records (and, with `--governs`, the paths they govern)
//! as nodes, their relations as edges (docs/pictures.md; ADR-0015). Data only: `output::graph`
//! draws it as Mermaid, DOT or JSON, `output::html` as an SVG.

use super::record::Status;
use schemars::JsonSchema;
use serde::Serialize;

/// `graph --format json`: `{"nodes": [...], "edges": [...]}`.
#[derive(Debug, Clone, Default, Serialize, JsonSchema, PartialEq, Eq)]
pub struct Graph {
    /// Records first (in the report's order), then governed paths (sorted).
    pub nodes: Vec<Node>,
    /// Sorted by `from`, then `to`, then `kind`.
    pub edges: Vec<Edge>,
}

/// A record, or (with `--governs`) a path a current record governs.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
pub struct Node {
    /// The record's id, or the governed path as the record writes it.
    pub id: String,
    /// The record's title; the path again for a path.
    pub title: String,
    /// The record's status; `null` for a path.
    pub status: Option<Status>,
    /// The record's file relative to the root; the governed path for a path.
    pub path: String,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Record,
    Path,
}

/// `from` supersedes, amends or cites `to`, or governs the path `to`.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    Supersedes,
    Amends,
    Cites,
    Governs,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Supersedes => "supersedes",
            EdgeKind::Amends => "amends",
            EdgeKind::Cites => "cites",
            EdgeKind::Governs => "governs",
        }
    }
}
