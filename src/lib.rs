//! context-graph: reads a repository's decision records, builds the graph between them and the
//! code, checks it, and answers from git history which decisions govern a path.
//!
//! The library never prints: every command returns data ([`app::Answer`], [`model::Report`])
//! and the [`output`] modules render it. Modules are layered, each importing only lower
//! layers (ADR-0007): `util`, `text`, `model` · `governs`, `output`, `rules` · `fs`, `parse`, `git`,
//! `mentions`, `imports` · `graph`, `checks`, `hooks`, `write` · `scan`, `drift` · `index` ·
//! `app` · `watch`.

pub mod app;
pub mod checks;
pub mod drift;
pub mod fs;
pub mod git;
pub mod governs;
pub mod graph;
pub mod hooks;
pub mod imports;
pub mod index;
pub mod mentions;
pub mod model;
pub mod output;
pub mod parse;
pub mod related;
pub mod rules;
pub mod scan;
pub mod text;
pub mod util;
pub mod watch;
pub mod write;

pub use app::{answer, exit_code, Answer, Ask, Error, Options, Result, Session};
