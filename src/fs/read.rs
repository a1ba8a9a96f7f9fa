//! Reading a file under the root, safely: only a regular file (a FIFO would block forever),
//! through a link only when it stays under the root, at most [`MAX_FILE_BYTES`] (ADR-0001).

use std::fs;
use std::io::Read;
use std::path::Path;

/// A record or guide larger than this is not read.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a root-relative file: only a regular file (through a link only when it stays under
/// the root), at most [`MAX_FILE_BYTES`]. The error is the note to show.
///
/// `link` says whether the walk saw a symbolic link there. The file is opened non-blocking and checked on the open handle, so a FIFO (even one swapped
/// in after the walk) is never waited on; one `open`, one `fstat` and the reads per file.
pub fn read_file(root: &Path, rel: &str, link: bool) -> Result<Vec<u8>, String> {
    let full = root.join(rel);
    // A link is read only when its target stays under the root: decided from the path before
    // anything is opened, so nothing outside the root is ever opened (ADR-0011).
    if link && super::confine::link_out_of(root, rel).is_some() {
        return Err(format!("{rel}: a link that leaves the root, skipped"));
    }
    let file = open_nonblocking(&full).map_err(|e| format!("{rel}: cannot read: {e}, skipped"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("{rel}: cannot read: {e}, skipped"))?;
    if !meta.is_file() {
        return Err(format!("{rel}: not a regular file, skipped"));
    }
    let too_big = || {
        format!(
            "{rel}: larger than {} MiB, skipped",
            MAX_FILE_BYTES / 1024 / 1024
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{rel}: cannot read: {e}, skipped"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

#[cfg(unix)]
pub(super) fn open_nonblocking(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const O_NONBLOCK: i32 = 0x0004;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
pub(super) fn open_nonblocking(path: &Path) -> std::io::Result<fs::File> {
    fs::File::open(path)
}

/// The bytes of the regular file at `path` (following links), at most [`MAX_FILE_BYTES`]:
/// never waiting on a FIFO. For a content digest; a record's reading is [`read_file`]'s.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(std::io::Error::other(
            "not a regular file of a readable size",
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of the root-relative file `rel`, as [`read_regular`] reads them, but never through
/// a link out of the root: that is refused unopened (ADR-0011).
pub fn read_in_root(root: &Path, rel: &str) -> std::io::Result<Vec<u8>> {
    if let Some((link, target)) = super::confine::link_out_of(root, rel) {
        return Err(std::io::Error::other(super::confine::refusal(
            &link, &target,
        )));
    }
    read_regular(&root.join(rel))
}

/// The bytes of a file the tool keeps for itself (a cache or note beside the index, a hook's
/// note): only a regular file, opened non-blocking, so a FIFO or a device put there is never
/// waited on nor read (ADR-0011). Any size: such files are the tool's own.
pub fn read_side_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let mut file = file;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of a file read for its rules (an ignore file, a git configuration naming the
/// excludes file): `Ok(None)` when there is none. Only a regular file of at most
/// [`MAX_FILE_BYTES`], opened non-blocking and checked on the handle, so a FIFO named
/// `.gitignore` or `.ignore` is never waited on (ADR-0011); with `follow` false a link there is
/// not followed (git reads no `.gitignore` through a link). The error is why it was not read.
pub fn read_rules(path: &Path, follow: bool) -> Result<Option<Vec<u8>>, &'static str> {
    let file = match open_read(path, follow) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if is_not_a_folder(&e) => return Ok(None),
        Err(e) if is_link_refused(&e) => return Err("a link, not followed"),
        Err(_) => return Err("cannot be read"),
    };
    let meta = file.metadata().map_err(|_| "cannot be read")?;
    if !meta.is_file() {
        return Err("not a regular file");
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err("larger than 4 MiB");
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| "cannot be read")?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err("larger than 4 MiB");
    }
    Ok(Some(bytes))
}

/// A log or note the tool appends to (`hooks.log`, a `refreshing.PID` note), created when
/// absent: only a regular file, opened non-blocking and without following a link, so a FIFO
/// put there never makes a hook, or git waiting on it, wait (ADR-0008, ADR-0011).
pub fn open_log(path: &Path) -> std::io::Result<fs::File> {
    let file = open_append(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(file)
}

#[cfg(unix)]
fn open_read(path: &Path, follow: bool) -> std::io::Result<fs::File> {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    Ok(fs::File::from(rustix::fs::open(
        path,
        flags,
        Mode::empty(),
    )?))
}

#[cfg(not(unix))]
fn open_read(path: &Path, follow: bool) -> std::io::Result<fs::File> {
    if !follow && fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::other("a link"));
    }
    fs::File::open(path)
}

#[cfg(unix)]
fn open_append(path: &Path) -> std::io::Result<fs::File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::WRONLY
        | OFlags::APPEND
        | OFlags::CREATE
        | OFlags::NONBLOCK
        | OFlags::NOFOLLOW
        | OFlags::CLOEXEC;
    let mode = Mode::from_raw_mode(0o666);
    Ok(fs::File::from(rustix::fs::open(path, flags, mode)?))
}

#[cfg(not(unix))]
fn open_append(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new().create(true).append(true).open(path)
}

/// ENOTDIR: a part of the path is a file, so nothing is there.
fn is_not_a_folder(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// ELOOP on Linux and the BSDs, EMLINK on FreeBSD: a link where none is followed.
fn is_link_refused(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        let raw = e.raw_os_error();
        raw == Some(rustix::io::Errno::LOOP.raw_os_error())
            || raw == Some(rustix::io::Errno::MLINK.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}
