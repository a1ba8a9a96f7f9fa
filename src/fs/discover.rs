//! Discovery: the record folders and the record files in them. A link is listed as a link
//! and never followed here (so a link loop is one skipped file, never a hang); reading is
//! `fs::read`'s (ADR-0001).

use super::root::query_path;
use super::FsError;
use std::fs;
use std::path::Path;

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

/// The record folders, root-relative: each `--docs` (which must exist), else every default
/// folder that exists and every folder an ADR tool's configuration names (`fs::tools`).
pub fn record_folders(root: &Path, docs: &[String]) -> Result<Vec<String>, FsError> {
    if docs.is_empty() {
        let mut out: Vec<String> = DEFAULT_FOLDERS
            .iter()
            .filter(|f| root.join(f).is_dir())
            .map(|f| f.to_string())
            .collect();
        for f in super::tools::tool_folders(root) {
            if root.join(&f).is_dir() && !out.contains(&f) {
                out.push(f);
            }
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for d in docs {
        let rel = query_path(root, d).map_err(|reason| FsError::Docs {
            path: d.clone(),
            reason,
        })?;
        let full = root.join(&rel);
        let meta = fs::metadata(&full).map_err(|e| FsError::Docs {
            path: d.clone(),
            reason: e.to_string(),
        })?;
        if !meta.is_dir() {
            return Err(FsError::Docs {
                path: d.clone(),
                reason: "not a folder".into(),
            });
        }
        fs::read_dir(&full).map_err(|e| FsError::Docs {
            path: d.clone(),
            reason: e.to_string(),
        })?;
        out.push(rel);
    }
    Ok(out)
}

/// Whether a file name is a record's: `.md`, but not `README.md` or `index.md` (in any case),
/// a template or a `0000-` file.
pub fn is_record_name(name: &str) -> bool {
    // Compared without a lowercased copy: it runs on every name of a folder (ADR-0013).
    let b = name.as_bytes();
    b.len() >= 3
        && b[b.len() - 3..].eq_ignore_ascii_case(b".md")
        && !name.eq_ignore_ascii_case("readme.md")
        && !name.eq_ignore_ascii_case("index.md")
        && !b.windows(8).any(|w| w.eq_ignore_ascii_case(b"template"))
        && !name.starts_with("0000-")
}

/// Records in parts (CONTRACT.md §8): the `.md` files inside a folder `X/` that sits beside a
/// record `X.md` (chapters, appendices, at any depth below it) are parts of that record, not
/// records of their own.
fn drop_parts(files: &mut Vec<Found>, folders: &[String]) {
    let records: std::collections::HashSet<String> = files.iter().map(|f| f.rel.clone()).collect();
    files.retain(|f| {
        let folder = folders
            .iter()
            .filter(|d| f.rel.starts_with(&format!("{d}/")))
            .map(String::len)
            .max()
            .unwrap_or(0);
        let mut dir = f.rel.as_str();
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if parent.len() <= folder {
                break;
            }
            if records.contains(&format!("{parent}.md")) {
                return false;
            }
            dir = parent;
        }
        true
    });
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
        // A record folder that is a link (or under one) leaving the root is not read: its
        // records are another tree's. It is still listed, so a cache sees the link change.
        match fs::canonicalize(&base) {
            Ok(real) if real.starts_with(root) => {}
            Ok(_) => {
                notes.push(format!("{folder}: a link that leaves the root, not read"));
                dirs.push(folder.clone());
                continue;
            }
            Err(e) => {
                notes.push(format!("{folder}: cannot read it: {e}"));
                continue;
            }
        }
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
    drop_parts(&mut files, folders);
    dirs.sort();
    dirs.dedup();
    RecordListing { files, notes, dirs }
}

pub(super) fn rel_of(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}
