//! The application: options, the questions a command asks, and answering them from the index
//! brought up to date or from a fresh scan (docs/commands.md, docs/indexing.md; ADR-0006, ADR-0007); the hooks'
//! questions and `review` (`hook`, `review`: docs/hooks.md, ADR-0008).

pub mod context;
// `coverage` (ADR-0017).
pub mod coverage;
pub mod error;
pub mod hook;
// What a mistyped id or status word may have meant (issue 39).
mod hook_rules;
mod near;
mod pick;
pub mod picture;
mod quiet;
pub mod review;
mod rules;
pub mod scope;
mod session;
mod state;
// Paths as a user types them (issue 36).
mod typed;
pub mod write;

pub use error::{Error, Result};
pub use pick::{decisions_for, decisions_with_markers, find_id};
pub use session::Session;
pub use state::{Stamper, State};

use crate::index;
use crate::model::{Report, Severity};
use std::path::PathBuf;
use std::time::Duration;

/// Progress of long work: (done, total).
pub type Progress<'a> = Option<&'a (dyn Fn(usize, usize) + Sync)>;

/// The options every command takes.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--root`; `None` means the work tree around the current directory.
    pub root: Option<PathBuf>,
    /// `--docs`: record folders used instead of the default list.
    pub docs: Vec<String>,
    /// `--git`: read commits and drift from the history.
    pub git: bool,
    /// `--no-index`: neither read nor write the index; scan.
    pub no_index: bool,
    /// How long to wait for an index another process holds, before answering from a scan.
    pub index_wait: Duration,
    /// Whether records' code mentions are resolved (docs/mentions.md); off only to measure
    /// what they cost (`CONTEXT_GRAPH_MENTIONS=off`, `bench/mentions.sh`).
    pub mentions: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            root: None,
            docs: Vec::new(),
            git: false,
            no_index: false,
            index_wait: index::DEFAULT_WAIT,
            mentions: true,
        }
    }
}

/// The question asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Check,
    Why(String),
    Record(String),
}

/// An answered question, and what to say about how it was answered (for stderr, never in
/// the report: the JSON is the same with or without the index).
#[derive(Debug, Clone)]
pub struct Answer {
    pub report: Report,
    pub diagnostics: Vec<String>,
    /// Whether the records and guides were scanned (the index's scan memo did not answer):
    /// only then can the memo now stored stamp a file changed too recently to hold later.
    pub scanned: bool,
}

/// Answers one question in a session of its own.
pub fn answer(opts: &Options, ask: &Ask, progress: Progress) -> Result<Answer> {
    Session::open(opts.clone())?.answer(ask, progress)
}

/// The exit code of an answered question: 1 when the full check found problems, else 0.
pub fn exit_code(ask: &Ask, report: &Report) -> i32 {
    let problems = report
        .findings
        .iter()
        .any(|f| f.severity == Severity::Problem);
    i32::from(*ask == Ask::Check && problems)
}
