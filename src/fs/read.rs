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
    // A link is read only when its target stays under the root.
    if link && !fs::canonicalize(&full).is_ok_and(|c| c.starts_with(root)) {
        return Err(format!("{rel}: a link that leaves the root, skipped"));
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
