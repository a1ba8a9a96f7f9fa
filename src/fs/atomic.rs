//! Safe writes (ADR-0013, ADR-0011): the one place that writes a file beside and renames it.
//! Every command that writes a record (`new`, `supersede`, `amend`, `status`, `scope --add`,
//! `init`) writes here, so a kill, a full disk or a power cut leaves either the old bytes or
//! the new ones, never a record cut short or emptied.
//!
//! - [`replace`]: the bytes go to a temporary file in the same folder (a hidden name that is no
//!   record's), are synced, take the original's mode (and owner, where allowed), and the file is
//!   renamed over the original; then the folder is synced. A failure removes the temporary file
//!   and leaves the original byte for byte.
//! - [`stage`] and [`Staged::commit`]: the two halves of `replace`, so a write of several files
//!   writes them all beside before it renames any.
//! - [`create_new`]: the same temporary file, then linked into place (`link` fails if the name
//!   exists, so creation stays exclusive), the temporary name removed and the folder synced: the
//!   new file appears whole or not at all.
//!
//! The failpoint `record` (`util::faults`) fails the write as a full disk does, or kills the
//! process half way through writing the temporary file.

use crate::util::faults::{self, Fault};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The failpoint of every write here.
const SITE: &str = "record";

/// Replaces `path` with `bytes` (creating it when absent), keeping the original's mode: written
/// beside, synced, renamed over. A symbolic link is followed, so the file it names is replaced
/// and the link stays a link. On failure the original is untouched.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes)?.commit()
}

/// A replacement written and synced beside its file, not yet renamed over it: a write of
/// several files stages them all before it renames any, so a full disk changes none of them.
/// Dropped uncommitted, its temporary file is removed.
#[derive(Debug)]
pub struct Staged {
    tmp: PathBuf,
    target: PathBuf,
    done: bool,
}

/// The first half of [`replace`]: `bytes` written and synced beside `path`, with its mode.
pub fn stage(path: &Path, bytes: &[u8]) -> io::Result<Staged> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let original = match std::fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let (tmp, file) = temporary(&target)?;
    let staged = Staged {
        tmp,
        target,
        done: false,
    };
    if let Some(m) = &original {
        keep_owner_and_mode(&file, m)?;
    }
    fill(file, bytes)?;
    Ok(staged)
}

impl Staged {
    /// Renames the staged file over its target and syncs the folder.
    pub fn commit(mut self) -> io::Result<()> {
        std::fs::rename(&self.tmp, &self.target)?;
        self.done = true;
        sync_folder(&self.target);
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Creates `path` holding `bytes`, failing with `AlreadyExists` when something has that name:
/// written beside, synced, linked into place. The file appears whole or not at all.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (tmp, file) = temporary(path)?;
    let done = fill(file, bytes).and_then(|_| link_new(&tmp, path));
    let _ = std::fs::remove_file(&tmp);
    done?;
    sync_folder(path);
    Ok(())
}

/// A new temporary file beside `path`: `.NAME.PID-N.tmp`, hidden and no record's name; NAME is
/// cut to its first 100 characters, so a name near the file system's limit still has one.
fn temporary(path: &Path) -> io::Result<(PathBuf, File)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().chars().take(100).collect())
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    loop {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Writes `bytes` into the temporary file and syncs it; the failpoint `record` may fail it as a
/// full disk, or kill the process with half of it written.
fn fill(mut file: File, bytes: &[u8]) -> io::Result<()> {
    match faults::fault(SITE) {
        Some(Fault::Full) => return Err(faults::full(SITE)),
        Some(Fault::Abort) => {
            let _ = file.write_all(&bytes[..bytes.len() / 2]);
            let _ = file.sync_data();
            std::process::abort();
        }
        Some(Fault::Stall) => faults::stall(SITE),
        None => {}
    }
    file.write_all(bytes)?;
    // The bytes and the length: what a power cut must not lose before the rename.
    file.sync_data()
}

/// The original's mode on the temporary file, and its owner when this process may give it
/// (root writing a user's record); a owner that can't be kept is not an error.
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, original: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let mine = file.metadata()?;
    if mine.uid() != original.uid() || mine.gid() != original.gid() {
        let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
    }
    file.set_permissions(std::fs::Permissions::from_mode(original.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, original: &std::fs::Metadata) -> io::Result<()> {
    file.set_permissions(original.permissions())
}

/// Puts `tmp` at `path` unless something is there: a hard link, or where the file system has
/// none, a rename that does not replace (Linux).
fn link_new(tmp: &Path, path: &Path) -> io::Result<()> {
    match std::fs::hard_link(tmp, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
        Err(e) => rename_new(tmp, path).map_err(|_| e),
    }
}

#[cfg(target_os = "linux")]
fn rename_new(tmp: &Path, path: &Path) -> io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, tmp, CWD, path, RenameFlags::NOREPLACE).map_err(io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn rename_new(_tmp: &Path, _path: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Syncs the folder holding `path`, so the rename or link itself survives a power cut. Not an
/// error when it can't be done: the file's bytes are already synced.
fn sync_folder(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn create_new_refuses_an_existing_name_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("0001-a.md");
        create_new(&p, b"# 1. A\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"# 1. A\n");
        let e = create_new(&p, b"other").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"# 1. A\n");
        assert_eq!(names(dir.path()), ["0001-a.md"]);
        // A name of 250 bytes, near the limit of 255: its temporary name is cut, not refused.
        let long = format!("0002-{}.md", "é".repeat(121));
        create_new(&dir.path().join(&long), b"x\n").unwrap();
        replace(&dir.path().join(&long), b"y\n").unwrap();
        assert_eq!(std::fs::read(dir.path().join(&long)).unwrap(), b"y\n");
        assert_eq!(names(dir.path()).len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn replace_keeps_the_mode_and_a_link_stays_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("0001-a.md");
        std::fs::write(&p, b"old\r\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        replace(&p, b"new\r\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new\r\n");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink("0001-a.md", &link).unwrap();
        replace(&link, b"via link\n").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&p).unwrap(), b"via link\n");
        assert_eq!(names(dir.path()), ["0001-a.md", "link.md"]);
    }
}
