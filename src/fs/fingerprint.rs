//! Fingerprints: what identifies a file's or folder's state without reading it (size, times,
//! inode), taken relative to the root opened once; and stamps, a fingerprint with the digest
//! of the content for an entry changed too recently for its times to be trusted (racily
//! clean, as git says). A cache compares them to tell that something is unchanged (ADR-0006).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What identifies a file's state without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub len: u64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: u64,
}

/// A file changed this close to when it was stored may have changed again within the
/// clock's resolution: parse it again rather than trust it.
pub const RACY_NS: i64 = 2_000_000_000;

/// The root folder, opened once, so a root-relative path is looked up from it rather than from
/// `/` each time: the memo's few hundred fingerprints took half as long (measured on the bench
/// repository, 604 paths: 0.6–1.1 ms against 1.1–1.9 ms).
pub struct RootDir {
    root: PathBuf,
    #[cfg(unix)]
    fd: Option<rustix::fd::OwnedFd>,
}

impl RootDir {
    pub fn open(root: &Path) -> RootDir {
        RootDir {
            root: root.to_path_buf(),
            #[cfg(unix)]
            fd: {
                use rustix::fs::{Mode, OFlags};
                // Only to look things up from: no read access needed where `O_PATH` exists.
                #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
                let access = OFlags::PATH;
                #[cfg(not(any(
                    target_os = "linux",
                    target_os = "android",
                    target_os = "freebsd"
                )))]
                let access = OFlags::RDONLY;
                let flags = access | OFlags::DIRECTORY | OFlags::CLOEXEC;
                rustix::fs::open(root, flags, Mode::empty()).ok()
            },
        }
    }

    /// The root it was opened at.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root's open folder, to look paths up from (`None` when it could not be opened).
    #[cfg(unix)]
    pub(super) fn fd(&self) -> Option<&rustix::fd::OwnedFd> {
        self.fd.as_ref()
    }

    /// The fingerprint of `rel` (root-relative, `""` for the root; or absolute), following
    /// links.
    pub fn fingerprint(&self, rel: &str) -> Option<Fingerprint> {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            let rel = if rel.is_empty() { "." } else { rel };
            let st = rustix::fs::statat(fd, rel, rustix::fs::AtFlags::empty()).ok()?;
            return Some(Fingerprint {
                len: st.st_size as u64,
                mtime_ns: st.st_mtime as i64 * 1_000_000_000 + st.st_mtime_nsec as i64,
                ctime_ns: st.st_ctime as i64 * 1_000_000_000 + st.st_ctime_nsec as i64,
                ino: st.st_ino as u64,
            });
        }
        fingerprint(&self.root.join(rel))
    }

    /// What the root-relative `rel` is, its last part not followed if a link (`lstat`):
    /// looked up from the open root as [`RootDir::fingerprint`] is. `None` when it is not there.
    pub fn entry(&self, rel: &str) -> Option<Entry> {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            use rustix::fs::FileType;
            let rel = if rel.is_empty() { "." } else { rel };
            let st = rustix::fs::statat(fd, rel, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).ok()?;
            return Some(match FileType::from_raw_mode(st.st_mode) {
                FileType::Symlink => Entry::Link,
                FileType::Directory => Entry::Folder,
                _ => Entry::Other,
            });
        }
        let meta = std::fs::symlink_metadata(self.root.join(rel)).ok()?;
        Some(if meta.file_type().is_symlink() {
            Entry::Link
        } else if meta.is_dir() {
            Entry::Folder
        } else {
            Entry::Other
        })
    }

    /// The fingerprint of the root-relative `rel` itself (`lstat`, a link not followed) and
    /// what it is, looked up from the open root. `None` when it is not there.
    pub fn entry_fingerprint(&self, rel: &str) -> Option<(Fingerprint, Entry)> {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            use rustix::fs::FileType;
            let rel = if rel.is_empty() { "." } else { rel };
            let st = rustix::fs::statat(fd, rel, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).ok()?;
            let fp = Fingerprint {
                len: st.st_size as u64,
                mtime_ns: st.st_mtime as i64 * 1_000_000_000 + st.st_mtime_nsec as i64,
                ctime_ns: st.st_ctime as i64 * 1_000_000_000 + st.st_ctime_nsec as i64,
                ino: st.st_ino as u64,
            };
            let entry = match FileType::from_raw_mode(st.st_mode) {
                FileType::Symlink => Entry::Link,
                FileType::Directory => Entry::Folder,
                _ => Entry::Other,
            };
            return Some((fp, entry));
        }
        let full = self.root.join(rel);
        let meta = std::fs::symlink_metadata(&full).ok()?;
        let entry = if meta.file_type().is_symlink() {
            Entry::Link
        } else if meta.is_dir() {
            Entry::Folder
        } else {
            Entry::Other
        };
        // Without an open root (or off unix) the fingerprint follows a link; a link is
        // never taken as a folder here anyway.
        Some((fingerprint(&full)?, entry))
    }

    /// The stamp of `rel` now (`rel` may also be absolute), for work begun at `started_ns`:
    /// its fingerprint, then its content's digest when it changed within [`RACY_NS`] of then
    /// but before [`DIGEST_MARGIN_NS`] of it (a later change is one the work may have missed
    /// in part, so no digest vouches for it). `None` when it is not there.
    pub fn stamp(&self, rel: &str, content: Content, started_ns: i64) -> Option<Stamp> {
        let fp = self.fingerprint(rel)?;
        let changed = fp.mtime_ns.max(fp.ctime_ns);
        let digest = if settled(&fp, started_ns) || changed + DIGEST_MARGIN_NS >= started_ns {
            None
        } else {
            self.digest(rel, content)
        };
        Some(Stamp { fp, digest })
    }

    /// The digest of `rel`'s content now: a regular file's bytes, a folder's entry names.
    pub fn digest(&self, rel: &str, content: Content) -> Option<Digest> {
        let path = self.root.join(rel);
        match content {
            Content::File => {
                let bytes = super::read::read_regular(&path).ok()?;
                Some(Digest::of_bytes(&bytes))
            }
            Content::Folder => {
                let mut names: Vec<Vec<u8>> = std::fs::read_dir(&path)
                    .ok()?
                    .flatten()
                    .map(|e| {
                        let mut name = e.file_name().into_encoded_bytes();
                        name.push(0);
                        name
                    })
                    .collect();
                names.sort_unstable();
                Some(Digest::of_bytes(&names.concat()))
            }
        }
    }
}

/// What [`RootDir::entry`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Link,
    Folder,
    /// A file, or anything else that is neither a link nor a folder.
    Other,
}

/// A stamp may hold a digest only for an entry last changed at least this long before the
/// work it stands for began: a change made after that began can show a time up to a clock
/// tick earlier (file times come from the kernel's coarse clock).
pub const DIGEST_MARGIN_NS: i64 = 50_000_000;

/// The digest of a file's bytes, or of a folder's entry names: to compare, never to trust
/// across builds (a digest from another build only makes an entry read again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Digest(pub u64);

impl Digest {
    pub fn of_bytes(bytes: &[u8]) -> Digest {
        use std::hash::BuildHasher;
        Digest(foldhash::quality::FixedState::with_seed(0x636f_6e74_6578_7467).hash_one(bytes))
    }
}

/// What a file or folder was when something was read from it: its fingerprint, and, when it
/// had changed within [`RACY_NS`] of that moment, the digest of its content (a file's bytes,
/// a folder's entry names), so that it can still be told unchanged later by reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    pub fp: Fingerprint,
    pub digest: Option<Digest>,
}

/// Whether a stamp is of a file's bytes or a folder's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    File,
    Folder,
}

impl Stamp {
    /// The stamp of a file whose `bytes` were read after `fp` was taken, for work begun at
    /// `started_ns`: the digest is the bytes' (the content that was read).
    pub fn of_read(fp: Fingerprint, bytes: &[u8], started_ns: i64) -> Stamp {
        Stamp {
            fp,
            digest: (!settled(&fp, started_ns)).then(|| Digest::of_bytes(bytes)),
        }
    }

    /// Whether this stamp, taken for work begun at `stored_ns`, still holds for `rel` whose
    /// fingerprint is now `now`: the same fingerprint, and either settled (not changed within
    /// [`RACY_NS`] of then) or with the same content now.
    pub fn holds(
        &self,
        dir: &RootDir,
        rel: &str,
        content: Content,
        now: &Fingerprint,
        stored_ns: i64,
    ) -> bool {
        *now == self.fp
            && (settled(now, stored_ns)
                || self
                    .digest
                    .is_some_and(|d| dir.digest(rel, content) == Some(d)))
    }
}

/// Not changed within the clock's resolution of `stored_ns`.
pub fn settled(fp: &Fingerprint, stored_ns: i64) -> bool {
    stored_ns - fp.mtime_ns.max(fp.ctime_ns) > RACY_NS
}

/// What identifies a file's state without reading it (following links).
pub fn fingerprint(path: &Path) -> Option<Fingerprint> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some(Fingerprint {
            len: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
            ino: meta.ino(),
        })
    }
    #[cfg(not(unix))]
    {
        let mtime = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos() as i64;
        Some(Fingerprint {
            len: meta.len(),
            mtime_ns: mtime,
            ctime_ns: mtime,
            ino: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_relative_fingerprint_is_the_absolute_one() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path();
        std::fs::create_dir_all(root.join("docs/adr")).expect("folders");
        std::fs::write(root.join("docs/adr/0001-a.md"), "# 1. A\n").expect("a file");
        #[cfg(unix)]
        std::os::unix::fs::symlink("adr/0001-a.md", root.join("docs/link.md")).expect("a link");
        let dir = RootDir::open(root);
        for rel in [
            "",
            "docs",
            "docs/adr",
            "docs/adr/0001-a.md",
            "docs/link.md",
            "gone",
            "docs/gone/x",
        ] {
            let absolute = fingerprint(&root.join(rel));
            assert_eq!(dir.fingerprint(rel), absolute, "{rel:?}");
        }
        assert!(dir.fingerprint("docs/adr/0001-a.md").is_some());
        assert_eq!(dir.entry("docs"), Some(Entry::Folder));
        assert_eq!(dir.entry("docs/adr/0001-a.md"), Some(Entry::Other));
        assert_eq!(dir.entry("docs/gone/x"), None);
        #[cfg(unix)]
        assert_eq!(dir.entry("docs/link.md"), Some(Entry::Link));
        assert_eq!(
            dir.fingerprint("docs/link.md").map(|f| f.ino),
            dir.fingerprint("docs/adr/0001-a.md").map(|f| f.ino),
            "a link is followed"
        );
    }
}
