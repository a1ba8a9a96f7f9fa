//! Code mentions (docs/mentions.md, ADR-0017): the terms in a record's prose that name code,
//! resolved against the names of the tracked files and folders. Two pure halves: [`terms`]
//! (`text::terms`) reads a record's visible lines (parsing calls it, so the terms are cached
//! with the parse),
//! and [`Names::resolve`] matches them, style-insensitively, against the tracked paths (the
//! scan calls it, as it calls `governs`). A mention never governs: nothing here is read by the
//! checks, drift or the hooks.
//!
//! One file per kind of evidence, each a look-up on the tracked paths' [`Names`]: `lookup`
//! (identifiers, code and words, and the dispatch by kind), `phrases`, `products`, `folders`
//! (what the prose calls a directory, a component, a controller, a listed value), `commands`,
//! `links`, `go` (Go's `package.Name`) and `definitions` (a type by the file defining it);
//! `vocabulary` (the records' own words), `paths` (what a path is by its name) and `resolve`
//! (the terms of a record to its mentions, filtered and scored).

mod commands;
mod definitions;
mod folders;
mod go;
mod links;
mod lookup;
mod names;
mod paths;
mod phrases;
mod products;
mod resolve;
#[cfg(test)]
mod tests;
mod titled;
mod vocabulary;

pub use crate::model::CodeMention;
pub use crate::text::terms::{key, terms, Kind, Term};
pub use definitions::Defined;
pub use links::{link_parts, links_a_release};
pub use names::{digest, Names};
pub use vocabulary::{Vocabulary, VOCABULARY_RECORDS};

/// A term that matches more paths than this is ambiguous, and dropped.
pub const MAX_MATCHES: usize = 2;

/// Whether a tracked file a record's words may name is the code it is about: not
/// documentation or a picture, not tests, samples, fixtures or vendored code.
pub fn is_code_path(path: &str) -> bool {
    !paths::is_doc(path) && !paths::beside_the_code(path)
}

/// `scope --accept` takes the mentions at or above this confidence: a backticked word or a
/// compound identifier naming exactly one path.
pub const ACCEPT_CONFIDENCE: f64 = 0.8;

/// The most a name matched by its words joined is sure of: below [`ACCEPT_CONFIDENCE`].
const JOINED_CONFIDENCE: f64 = 0.7;
