//! Making a new index file durable before anything vouches for it (ADR-0006, ADR-0011): a
//! first build takes the build lock (so a second process waits for it, or answers from a scan,
//! rather than building the same file beside it), and the file, then its folder, are synced
//! before the seal is written, so a power loss cannot leave a seal vouching for pages that never
//! reached the disk.

use crate::util::faults;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The lock file beside the index that a first build holds until its file is in place.
fn lock_path(index: &Path) -> PathBuf {
    index.with_extension("build-lock")
}

/// What taking the first build's lock found.
pub(super) enum FirstBuild {
    /// The lock, held until dropped: no index file yet, this process builds it.
    Build(File),
    /// Another process put the index in place while this one waited for the lock.
    Built,
    /// Another process is building it still, after `wait`.
    Busy,
}

/// Takes the lock of a first build of the index at `index`, waiting up to `wait` for another
/// process holding it.
pub(super) fn lock_first_build(index: &Path, wait: Duration) -> std::io::Result<FirstBuild> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(lock_path(index))?;
    let deadline = Instant::now() + wait;
    loop {
        match file.try_lock() {
            Ok(()) => {
                return Ok(if index.exists() {
                    FirstBuild::Built
                } else {
                    FirstBuild::Build(file)
                })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                if Instant::now() >= deadline {
                    return Ok(FirstBuild::Busy);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// Syncs the file at `path` (its data and length) to the disk, through the failpoint `sync`:
/// redb syncs what it wrote as it closes, so this is cheap, and says so in one place.
pub(super) fn sync_file(path: &Path) -> std::io::Result<()> {
    faults::check("sync")?;
    File::open(path)?.sync_data()
}

/// Syncs the folder holding `path`, so a file renamed into it stays there after a power loss;
/// through the failpoint `sync`. A no-op where a folder cannot be opened to sync (Windows).
pub(super) fn sync_folder(path: &Path) -> std::io::Result<()> {
    faults::check("sync")?;
    if cfg!(unix) {
        if let Some(dir) = path.parent() {
            File::open(dir)?.sync_all()?;
        }
    }
    Ok(())
}
