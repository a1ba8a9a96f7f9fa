//! The application's errors: each says in one line what failed and names the file or argument.
//! Every lower layer has its own error type; this wraps them for the binary.

use crate::scan::ScanError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Fs(#[from] crate::fs::FsError),
    #[error(transparent)]
    Scan(#[from] ScanError),
    #[error("no record has the id {0}")]
    UnknownRecord(String),
    #[error("{input}: {count} records have the number {number}; name one by its id ({ids})")]
    AmbiguousRecord {
        input: String,
        number: u64,
        count: usize,
        ids: String,
    },
    #[error("the path {path} {reason}")]
    BadPath { path: String, reason: String },
    #[error("git history: {0}")]
    History(#[from] crate::git::HistoryError),
    #[error("{0}")]
    Index(#[from] crate::index::IndexError),
    #[error("{0} is not in a git work tree: there is no index outside git")]
    NoGit(String),
    #[error(transparent)]
    Hooks(#[from] crate::hooks::HooksError),
    /// The hooks and `review` outside a git work tree (ADR-0008).
    #[error("{0} is not in a git work tree: there are no hooks or commits to look at")]
    NotInGit(String),
    /// `review` without a range, on a branch with no upstream (ADR-0008).
    #[error("{0}: name the range to review, e.g. `context-graph review origin/main..HEAD`")]
    NoRange(String),
    /// A write refused or failed (ADR-0013): what and why, naming the file or argument.
    #[error("{0}")]
    Write(String),
}

impl Error {
    /// Usage and input errors exit 2 (the reference's exit codes).
    pub fn exit_code(&self) -> i32 {
        2
    }

    /// No records were found (which `index` reports as none, not as an error).
    pub fn is_no_records(&self) -> bool {
        matches!(self, Error::Scan(ScanError::NoRecords { .. }))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
