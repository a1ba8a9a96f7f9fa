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
    /// As [`Error::UnknownRecord`], with what the input may have meant (`did you mean
    /// ADR-0004 (…)?`, or the ids there are).
    #[error("no record has the id {input} ({hint})")]
    UnknownRecordHint { input: String, hint: String },
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
    /// A repository whose objects are named by another hash than SHA-1 (`git init
    /// --object-format=sha256`): nothing of git can be read there (ADR-0011).
    #[error("the repository at {root} uses {format} object ids, which context-graph does not support yet")]
    ObjectFormat { root: String, format: String },
}

impl Error {
    /// `root` is in no git work tree this build can read: [`Error::ObjectFormat`] in a
    /// repository of another hash, else [`Error::NoGit`] (the index needs git).
    pub fn no_git(root: &std::path::Path) -> Error {
        Error::object_format(root).unwrap_or_else(|| Error::NoGit(root.display().to_string()))
    }

    /// As [`Error::no_git`], for the hooks, `review` and `coverage`: [`Error::NotInGit`].
    pub fn not_in_git(root: &std::path::Path) -> Error {
        Error::object_format(root).unwrap_or_else(|| Error::NotInGit(root.display().to_string()))
    }

    /// [`Error::ObjectFormat`] when the repository around `root` names its objects by a hash
    /// this build cannot read.
    pub fn object_format(root: &std::path::Path) -> Option<Error> {
        crate::git::unreadable_format(root).map(|format| Error::ObjectFormat {
            root: root.display().to_string(),
            format: hash_name(&format),
        })
    }

    /// Usage and input errors exit 2 (the reference's exit codes).
    pub fn exit_code(&self) -> i32 {
        2
    }

    /// No record has the id asked for.
    pub fn is_unknown_record(&self) -> bool {
        matches!(
            self,
            Error::UnknownRecord(_) | Error::UnknownRecordHint { .. }
        )
    }

    /// No records were found (which `index` reports as none, not as an error).
    pub fn is_no_records(&self) -> bool {
        matches!(self, Error::Scan(ScanError::NoRecords { .. }))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A hash as people write it: `sha256` as SHA-256.
pub fn hash_name(format: &str) -> String {
    match format.strip_prefix("sha") {
        Some(bits) if !bits.is_empty() && bits.bytes().all(|b| b.is_ascii_digit()) => {
            format!("SHA-{bits}")
        }
        _ => format.to_string(),
    }
}
