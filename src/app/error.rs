//! The library's errors: each says in one line what failed and names the file or argument.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Fs(#[from] crate::fs::FsError),
    #[error("no decision records found under {root} (looked in {looked})")]
    NoRecords { root: String, looked: String },
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
}

impl Error {
    /// Usage and input errors exit 2 (the reference's exit codes).
    pub fn exit_code(&self) -> i32 {
        2
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
