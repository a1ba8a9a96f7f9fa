//! Telling the index file whole (ADR-0011): the seal beside it, and the storage it is written
//! through.
//!
//! **The seal** (`index.seal`) holds the file's fingerprint (size, times, inode) as this tool
//! left it after its last write. A file that no longer matches it was changed by something
//! else (a byte flipped, a page zeroed, a truncation, a copy put in its place) or by a write cut
//! short: before it is trusted, every page's checksum is verified (redb's integrity check), and
//! a file that fails is rebuilt. A matching file costs one stat and one small read per query.
//!
//! **The storage** is redb's file backend with the failpoints of [`crate::util::faults`] in
//! front of every write, length change and sync (debug builds only; a release build calls the
//! file directly).

use crate::fs::fingerprint::fingerprint;
use crate::util::faults;
use redb::backends::FileBackend;
use redb::{BackendError, StorageBackend};
use std::ops::Bound;
use std::path::{Path, PathBuf};

/// Which build's seal this is (another build's is not trusted: the file is checked once).
const SEAL_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/seal-1");

/// The seal beside the index at `index`.
pub(super) fn seal_path(index: &Path) -> PathBuf {
    index.with_extension("seal")
}

/// The seal's text for the file at `index` as it is now; `None` when it is not there.
fn seal_text(index: &Path) -> Option<String> {
    let fp = fingerprint(index)?;
    Some(format!(
        "{SEAL_MADE_BY}\n{} {} {} {}\n",
        fp.len, fp.mtime_ns, fp.ctime_ns, fp.ino
    ))
}

/// Whether the file at `index` is as this tool last left it.
pub(super) fn sealed(index: &Path) -> bool {
    let Ok(bytes) = crate::fs::read::read_side_file(&seal_path(index)) else {
        return false;
    };
    seal_text(index).is_some_and(|t| t.as_bytes() == bytes.as_slice())
}

/// Seals the file at `index` as it is now (after a write of ours, closed).
pub(super) fn seal(index: &Path) -> std::io::Result<()> {
    let path = seal_path(index);
    let Some(text) = seal_text(index) else {
        return Ok(());
    };
    let tmp = path.with_extension(format!("seal.{}", std::process::id()));
    crate::util::replace_file(&path, &tmp, text.as_bytes())
}

/// Removes the seal: the file is to be checked before it is trusted again.
pub(super) fn unseal(index: &Path) {
    let _ = std::fs::remove_file(seal_path(index));
}

/// redb's file backend, each write first asking the failpoint `redb`.
#[derive(Debug)]
pub(super) struct Storage(FileBackend);

impl Storage {
    /// The file at `path`, opened to read and write, made when missing.
    pub(super) fn create(path: &Path) -> Result<Storage, redb::DatabaseError> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| redb::DatabaseError::Storage(redb::StorageError::Io(e)))?;
        Ok(Storage(FileBackend::new(file)?))
    }
}

impl StorageBackend for Storage {
    fn len(&self) -> Result<u64, std::io::Error> {
        self.0.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), std::io::Error> {
        self.0.read(offset, out)
    }
    fn set_len(&self, len: u64) -> Result<(), std::io::Error> {
        faults::check("redb")?;
        self.0.set_len(len)
    }
    fn sync_data(&self) -> Result<(), std::io::Error> {
        faults::check("redb")?;
        self.0.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> Result<(), std::io::Error> {
        faults::check("redb")?;
        self.0.write(offset, data)
    }
    fn close(&self) -> Result<(), std::io::Error> {
        self.0.close()
    }
    fn try_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.0.try_lock_range(start, end)
    }
    fn try_lock_shared_range(
        &self,
        start: Bound<u64>,
        end: Bound<u64>,
    ) -> Result<bool, BackendError> {
        self.0.try_lock_shared_range(start, end)
    }
    fn lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.0.lock_range(start, end)
    }
    fn lock_shared_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.0.lock_shared_range(start, end)
    }
    fn unlock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.0.unlock_range(start, end)
    }
    fn query_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.0.query_lock_range(start, end)
    }
}
