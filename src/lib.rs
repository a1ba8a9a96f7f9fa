//! context-graph: reads a repository's decision records, builds the graph between them and the
//! code, checks it, and answers from git history which decisions govern a path.
//!
//! The library never prints: every command returns a [`model::Report`] and the [`report`]
//! modules render it (ADR-0004).

pub mod checks;
pub mod discovery;
pub mod drift;
pub mod error;
pub mod frontmatter;
pub mod graph;
pub mod history;
pub mod ids;
pub mod model;
pub mod paths;
pub mod query;
pub mod record;
pub mod report;
pub mod scan;

pub use error::{Error, Result};
use model::{Report, Severity};
use std::path::PathBuf;

/// The options every command takes.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--root`; `None` means the work tree around the current directory.
    pub root: Option<PathBuf>,
    /// `--docs`: record folders used instead of the default list.
    pub docs: Vec<String>,
    /// `--git`: read commits and drift from the history.
    pub git: bool,
}

/// The question asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Check,
    Why(String),
    Record(String),
}

/// Answers one question: a fresh scan, the history when asked, then the query.
pub fn answer(opts: &Options, ask: &Ask) -> Result<Report> {
    let root = discovery::resolve_root(opts.root.as_deref())?;
    // A query path is checked before any work: one outside the root is refused.
    let why_path = match ask {
        Ask::Why(p) => Some(
            paths::query_path(&root, p).map_err(|reason| Error::BadPath {
                path: p.clone(),
                reason,
            })?,
        ),
        _ => None,
    };
    let mut report = scan::scan(&root, &opts.docs)?.report;
    if opts.git {
        add_history(&root, &mut report)?;
    }
    Ok(match ask {
        Ask::Check => report,
        Ask::Why(_) => query::why(report, why_path.as_deref().unwrap_or("")),
        Ask::Record(id) => query::record(report, id)?,
    })
}

fn add_history(root: &std::path::Path, report: &mut Report) -> Result<()> {
    match history::load(root)? {
        history::Outcome::NotARepo => report.notes.push(format!(
            "--git: {} is not in a git work tree, so there is no history to read",
            root.display()
        )),
        history::Outcome::NoCommits => report.notes.push(
            "--git: the repository has no commits yet, so there is no history to read".into(),
        ),
        history::Outcome::Ready(data) => {
            if data.shallow {
                report.notes.push(
                    "--git: this is a shallow clone: commits and drift count only the commits present"
                        .into(),
                );
            }
            drift::fill(&mut report.records, &data, &mut report.notes);
        }
    }
    Ok(())
}

/// The exit code of an answered question: 1 when the full check found problems, else 0.
pub fn exit_code(ask: &Ask, report: &Report) -> i32 {
    let problems = report
        .findings
        .iter()
        .any(|f| f.severity == Severity::Problem);
    i32::from(*ask == Ask::Check && problems)
}
