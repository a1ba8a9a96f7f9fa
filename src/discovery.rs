//! Discovery: the root, the record folders, the record files and the guides, read safely.
//!
//! Only regular files are opened (a FIFO would block forever), links are followed only to
//! regular files inside the root (so a link loop is one skipped file, never a hang), and a
//! file larger than [`MAX_FILE_BYTES`] is skipped with a note (ADR-0004).

use crate::error::{Error, Result};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The folders searched when no `--docs` is given, in the reference's order.
pub const DEFAULT_FOLDERS: [&str; 16] = [
    "docs/adr",
    "docs/adrs",
    "docs/decisions",
    "docs/architecture/decisions",
    "doc/adr",
    "doc/architecture/decisions",
    "adr",
    "adrs",
    "decisions",
    "architecture/decisions",
    "docs/rfcs",
    "docs/rfc",
    "rfcs",
    "rfc",
    "docs/design",
    "docs/designs",
];

/// A record or guide larger than this is not read.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The root: `--root` if given, else the top of the git work tree around the current
/// directory, else the current directory. Always canonical.
pub fn resolve_root(arg: Option<&Path>) -> Result<PathBuf> {
    let start = match arg {
        Some(p) => p.to_path_buf(),
        None => {
            let cwd = std::env::current_dir().map_err(|source| Error::Root {
                path: PathBuf::from("."),
                source,
            })?;
            work_tree_top(&cwd).unwrap_or(cwd)
        }
    };
    let canon = fs::canonicalize(&start).map_err(|source| Error::Root {
        path: start.clone(),
        source,
    })?;
    if !canon.is_dir() {
        return Err(Error::RootNotDir(start));
    }
    fs::read_dir(&canon).map_err(|source| Error::Root {
        path: start.clone(),
        source,
    })?;
    Ok(canon)
}

/// The nearest folder at or above `dir` holding `.git` (a folder, or a file for worktrees).
pub fn work_tree_top(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The record folders, root-relative: each `--docs` (which must exist), else every default
/// folder that exists.
pub fn record_folders(root: &Path, docs: &[String]) -> Result<Vec<String>> {
    if docs.is_empty() {
        return Ok(DEFAULT_FOLDERS
            .iter()
            .filter(|f| root.join(f).is_dir())
            .map(|f| f.to_string())
            .collect());
    }
    let mut out = Vec::new();
    for d in docs {
        let rel = crate::paths::query_path(root, d).map_err(|reason| Error::Docs {
            path: d.clone(),
            reason,
        })?;
        let full = root.join(&rel);
        let meta = fs::metadata(&full).map_err(|e| Error::Docs {
            path: d.clone(),
            reason: e.to_string(),
        })?;
        if !meta.is_dir() {
            return Err(Error::Docs {
                path: d.clone(),
                reason: "not a folder".into(),
            });
        }
        fs::read_dir(&full).map_err(|e| Error::Docs {
            path: d.clone(),
            reason: e.to_string(),
        })?;
        out.push(rel);
    }
    Ok(out)
}

/// Whether a file name is a record's: `.md`, but not `README.md`, `index.md`, a template or
/// a `0000-` file.
pub fn is_record_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".md")
        && name != "README.md"
        && name != "index.md"
        && !lower.contains("template")
        && !name.starts_with("0000-")
}

/// A file found by a walk: root-relative, and whether it is a symbolic link.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Found {
    pub rel: String,
    pub link: bool,
}

/// Every record file under the folders, root-relative and sorted, with notes for what was
/// passed over.
pub fn record_files(root: &Path, folders: &[String]) -> (Vec<Found>, Vec<String>) {
    let listing = list_records(root, folders);
    (listing.files, listing.notes)
}

/// The wall clock in ns since the epoch, as file times are compared with it.
pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// What listing the record folders found.
pub struct RecordListing {
    pub files: Vec<Found>,
    pub notes: Vec<String>,
    /// Root-relative folders listed (each record folder and the folders under it): a folder's
    /// times change when an entry is added, removed or renamed in it.
    pub dirs: Vec<String>,
}

/// [`record_files`], with the folders it listed.
pub fn list_records(root: &Path, folders: &[String]) -> RecordListing {
    let mut files = Vec::new();
    let mut notes = Vec::new();
    let mut dirs = Vec::new();
    for folder in folders {
        let base = root.join(folder);
        for entry in walkdir::WalkDir::new(&base)
            .follow_links(false)
            .sort_by_file_name()
        {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    notes.push(format!("{folder}: cannot read part of it: {e}"));
                    continue;
                }
            };
            let Some(name) = entry.file_name().to_str() else {
                notes.push(format!(
                    "{}: file name is not UTF-8, skipped",
                    rel_of(root, entry.path())
                ));
                continue;
            };
            if entry.file_type().is_dir() {
                dirs.push(rel_of(root, entry.path()));
                continue;
            }
            if !is_record_name(name) {
                continue;
            }
            files.push(Found {
                rel: rel_of(root, entry.path()),
                link: entry.path_is_symlink(),
            });
        }
    }
    files.sort();
    files.dedup_by(|a, b| a.rel == b.rel);
    dirs.sort();
    dirs.dedup();
    RecordListing { files, notes, dirs }
}

fn rel_of(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Reads a root-relative file: only a regular file (through a link only when it stays under
/// the root), at most [`MAX_FILE_BYTES`]. The error is the note to show.
///
/// `link` says whether the walk saw a symbolic link there. The file is opened non-blocking and checked on the open handle, so a FIFO (even one swapped
/// in after the walk) is never waited on; one `open`, one `fstat` and the reads per file.
pub fn read_file(root: &Path, rel: &str, link: bool) -> std::result::Result<Vec<u8>, String> {
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
fn open_nonblocking(path: &Path) -> std::io::Result<fs::File> {
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
fn open_nonblocking(path: &Path) -> std::io::Result<fs::File> {
    fs::File::open(path)
}

/// The guides a walk found, and the folders it walked (so a cache can tell, from their
/// modification times alone, that a new walk would find the same).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuideWalk {
    pub files: Vec<Found>,
    /// Root-relative folders walked (`""` is the root).
    pub dirs: Vec<String>,
}

/// The ignore files a guide walk honours besides those inside the walked folders: the root's
/// ancestors' `.gitignore`/`.ignore` and the repository's `info/exclude`.
pub fn outer_ignore_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in root.ancestors().skip(1) {
        out.push(dir.join(".gitignore"));
        out.push(dir.join(".ignore"));
    }
    if let Some(top) = work_tree_top(root) {
        out.push(top.join(".git").join("info").join("exclude"));
    }
    out
}

/// Guides: `.md` files outside the record folders (hidden folders and what `.gitignore`
/// ignores left out), root-relative and sorted.
pub fn guide_walk(root: &Path, folders: &[String]) -> GuideWalk {
    let mut out = GuideWalk::default();
    let record_dirs: Vec<PathBuf> = folders.iter().map(|f| root.join(f)).collect();
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .filter_entry(move |e| {
            if !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let name = e.file_name().to_str().unwrap_or("");
            !matches!(name, "target" | "node_modules") && !record_dirs.iter().any(|d| d == e.path())
        })
        .build();
    for entry in walker.flatten() {
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let rel = rel_of(root, entry.path());
        if file_type.is_dir() {
            out.dirs.push(rel);
            continue;
        }
        if !(file_type.is_file() || file_type.is_symlink()) {
            continue;
        }
        if !rel.to_ascii_lowercase().ends_with(".md") {
            continue;
        }
        let in_records = folders.iter().any(|f| rel.starts_with(&format!("{f}/")));
        if !in_records {
            out.files.push(Found {
                rel,
                link: file_type.is_symlink(),
            });
        }
    }
    out.files.sort();
    out.dirs.sort();
    out
}
