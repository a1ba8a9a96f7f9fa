//! Pending commits (ADR-0006): a fast-forward of a few commits is kept in a small file beside
//! redb instead of a redb write session; queries answer from both.

use super::codec;
use super::schema::Pending;
use super::Index;
use std::path::PathBuf;

/// The number a pending commit goes by in an answer: from the top down, never a stored one.
pub(super) fn pending_number(i: usize) -> u32 {
    u32::MAX - i as u32
}

/// How many commits the pending file holds at most: past that, a refresh writes them into redb.
pub(super) const PENDING_MAX: usize = 32;

/// Which build wrote a pending file (one from another build is not read).
pub(super) const PENDING_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/pending-2");

/// A pending file to write: owned, so it can be written on another thread while the answer is
/// computed (a rename waits on the file system's journal, which a `git commit` just filled).
pub struct PendingWrite {
    path: PathBuf,
    bytes: Vec<u8>,
    /// The repository, to see whether HEAD is still the one the file leads to.
    repo: crate::git::Repo,
    tip: Option<[u8; 20]>,
}

impl PendingWrite {
    /// Writes it to a new file put in the old one's place ([`crate::util::replace_file`]: a
    /// reader sees one or the other whole, or none, and then walks the commits again). Not
    /// synced: like every index write, a lost one is redone. The error is a note for stderr.
    pub fn write(self) -> Result<(), String> {
        // HEAD moved on while this was computed (a hook's refresh still running when the next
        // commit or merge came): its file would replace a newer one with a stale one
        // (ADR-0011).
        // Under a lock shared by every writer of the file, so that the check of HEAD and the
        // write are one step: git moves HEAD before it runs the next hook.
        let _lock = lock(&self.path.with_extension("pending-lock"));
        // HEAD alone is read again (not the branches: issue 17).
        if let (Ok(now), Some(_)) = (self.repo.head_now(), self.tip) {
            if now != self.tip {
                return Ok(());
            }
        }
        let tmp = self
            .path
            .with_extension(format!("pending.{}", std::process::id()));
        crate::util::replace_file(&self.path, &tmp, &self.bytes).map_err(|e| {
            format!(
                "cannot keep the new commits in {}: {e}; the next query walks them again",
                self.path.display()
            )
        })
    }
}

impl Index {
    /// The pending commits file beside the index.
    pub(super) fn pending_path(&self) -> PathBuf {
        self.path.with_extension("pending")
    }

    /// The pending commits, when they rest on `indexed` and the same shallow boundary.
    pub(super) fn read_pending(
        &self,
        indexed: Option<[u8; 20]>,
        shallow: &[u8],
    ) -> Option<Pending> {
        let bytes = crate::fs::read::read_side_file(&self.pending_path()).ok()?;
        let p: Pending = codec::decode(&bytes).ok()?;
        (p.made_by == PENDING_MADE_BY && Some(p.base) == indexed && p.shallow == shallow)
            .then_some(p)
    }

    /// The pending commits the last refresh found, to be written beside the index: the answer
    /// does not wait for the write (see [`PendingWrite`]).
    pub fn take_pending_write(&mut self) -> Option<PendingWrite> {
        self.pending_write.take().map(|bytes| PendingWrite {
            path: self.pending_path(),
            tip: codec::decode::<Pending>(&bytes).ok().map(|p| p.head),
            bytes,
            repo: self.repo.clone(),
        })
    }
}

/// An exclusive lock on the file at `path` (made when missing), held until dropped; `None`
/// where it cannot be had (the write goes on without it).
fn lock(path: &std::path::Path) -> Option<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    // Non-blocking: a FIFO put there fails to open at once instead of waiting (ADR-0011).
    #[cfg(target_os = "linux")]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, 0o4000);
    let file = options.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    #[cfg(unix)]
    rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive).ok()?;
    Some(file)
}
