//! The redb index at `<git dir>/context-graph/index.redb` (docs/indexing.md, ADR-0006).
//!
//! It is a cache of what git and the files already say. Parsed records and guides are kept by
//! path with a stamp of the file (`files`), with the last scan's memo (`memo`); the history is
//! kept as commits, the per-path commit lists and the ids each message mentions (`refresh`
//! writes them, `read` reads what an answer needs). A query brings it up to date incrementally,
//! then hands the scan its cached parses and drift a sparse history holding just the commits
//! the answer needs: the same pure code computes the answer either way, so it equals a fresh
//! scan byte for byte. `open` opens the file, `pending` keeps a few new commits beside it,
//! `graph` holds the commit graph, `status` reports, `inflight` notes the hooks' refreshes still
//! running, `markers` keeps the source files' markers by blob id, `imports` the
//! imports the records' rules read, by blob id.

mod checked;
pub mod codec;
mod durable;
mod files;
mod graph;
mod history_memo;
// The imports the records' rules read, by blob id (ADR-0021).
mod imports;
// The commit hook's table of governed entries (ADR-0018).
pub mod governing;
pub mod inflight;
mod integrity;
mod markers;
mod memo;
mod memo_of;
pub mod migrations;
mod open;
mod pending;
mod read;
mod refresh;
// `why`'s related records' history (ADR-0017).
mod related;
pub mod schema;
mod status;
// `coverage`'s window of commits (ADR-0017).
mod window;

pub use checked::is_damage;
pub use files::Cached;
pub use history_memo::HistoryMemoWrite;
pub use markers::{StagedJob, StagedWrite, StoredMarkerCache};
pub use memo::MemoHit;
pub use open::{catch_damage, panic_is_handled};
pub use pending::PendingWrite;
pub use window::WindowCommit;

use crate::git::{Repo, WalkedCommit};
use schema::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a second process waits for the index before answering from a scan.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3);

/// Why the index could not be used; the caller answers from a scan and says so once.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("the index {0} is busy (another context-graph is using it)")]
    Busy(PathBuf),
    #[error("the index {path} has schema version {found}, newer than this context-graph ({ours}); upgrade context-graph, or use --no-index")]
    Newer {
        path: PathBuf,
        found: u32,
        ours: u32,
    },
    #[error("cannot use the index {path}: {reason}")]
    Unusable { path: PathBuf, reason: String },
    #[error(
        "the index {0} was replaced while this answer read it (an `index --rebuild` beside it?)"
    )]
    Replaced(PathBuf),
    #[error("git history: {0}")]
    History(#[from] crate::git::HistoryError),
}

impl IndexError {
    fn unusable(path: &Path, reason: impl ToString) -> IndexError {
        IndexError::Unusable {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        }
    }
}

/// Where the index of `repo` lives: in the worktree's own git dir.
pub fn path_for(repo: &Repo) -> PathBuf {
    repo.git_dir.join("context-graph").join("index.redb")
}

/// How to open the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Create or migrate as needed: every query and `index`.
    Update,
    /// Drop it first: `index --rebuild`.
    Rebuild,
    /// Only look: `index --status` neither creates, migrates nor rebuilds.
    Status,
}

/// An open index (holding the file's lock until dropped).
pub struct Index {
    db: Option<open::Handle>,
    wait: Duration,
    mode: Mode,
    pub path: PathBuf,
    /// The schema version of the file (below ours only when opened to look).
    pub schema_version: u32,
    pub repo: Repo,
    /// What happened on the way in (rebuilt after corruption, migrated), for stderr.
    pub diagnostics: Vec<String>,
    /// The pending commits found valid by the last refresh (newest first): part of the history
    /// as much as the stored ones.
    pending: Vec<WalkedCommit>,
    /// The pending file to write, encoded, when the last refresh made a new one.
    pending_write: Option<Vec<u8>>,
    /// The history memo the last [`Index::history_for`] made (issue 17).
    history_memo_write: Option<HistoryMemoWrite>,
    /// Set by [`Index::gate_writes`]: opening to write first waits for its sender to go.
    write_gate: Option<std::sync::mpsc::Receiver<()>>,
    /// Where a new file is being built, put at `path` whole by [`Index::finish`] (ADR-0011).
    building: Option<PathBuf>,
    /// The lock a first build holds until its file is in place ([`open`]'s `first_build`).
    build_lock: Option<std::fs::File>,
    /// The generation of the file this index first opened ([`schema::KEY_GENERATION`]): a
    /// reopen that finds another file is refused rather than mixed with what was read.
    generation: Option<Option<Vec<u8>>>,
}

impl Index {
    /// Reopens the file to read only, if it was closed after a write; reads a `meta` value.
    pub(super) fn meta(&self, key: &str) -> Result<Option<Vec<u8>>, IndexError> {
        let txn = self.read_txn()?;
        migrations::meta_value(&txn, key).map_err(|e| self.err(e))
    }

    /// Several `meta` values, read in one transaction.
    pub(super) fn metas<const N: usize>(
        &self,
        keys: [&str; N],
    ) -> Result<[Option<Vec<u8>>; N], IndexError> {
        let txn = self.read_txn()?;
        let meta = txn.open_table(META).map_err(|e| self.err(e))?;
        let mut out = [const { None }; N];
        for (slot, key) in out.iter_mut().zip(keys) {
            *slot = meta
                .get(key)
                .map_err(|e| self.err(e))?
                .map(|v| v.value().to_vec());
        }
        Ok(out)
    }

    /// This index's file is unusable for `e` (a redb error, a stored value that does not decode).
    pub(crate) fn err(&self, e: impl ToString) -> IndexError {
        IndexError::unusable(&self.path, e)
    }

    /// The indexed HEAD, if the history part was ever built.
    pub fn indexed_head(&self) -> Result<Option<[u8; 20]>, IndexError> {
        Ok(self
            .meta(KEY_HEAD)?
            .and_then(|b| <[u8; 20]>::try_from(b.as_slice()).ok()))
    }
}
