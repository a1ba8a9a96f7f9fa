//! Discovery: the record folders and the record files in them. A link is listed as a link
//! and never followed here (so a link loop is one skipped file, never a hang); reading is
//! `fs::read`'s (ADR-0001).

use super::config::{self, Config};
use super::root::query_path;
use super::FsError;
use crate::text::ids::Prefix;
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

/// How the record folders are read: which folders, and in each its id prefix, the status of a
/// record that states none, and the files that are not records (docs/reading.md, docs/configuration.md).
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Root-relative record folders, in order.
    pub folders: Vec<String>,
    /// `.context-graph.toml`, or the defaults when there is none.
    pub config: Config,
    /// Whether the root has a `.context-graph.toml`.
    pub configured: bool,
    /// The folder adr-tools' `.adr-dir` names.
    adr_dir: Option<String>,
}

impl Reading {
    /// The id prefix of a record file (root-relative): its configured folder's, else ADR in
    /// the folder `.adr-dir` names, else the one its folder's path (or its name) gives.
    pub fn prefix_for(&self, rel: &str) -> Prefix {
        if let Some(p) = self.config.folder_of(rel).and_then(|f| f.prefix) {
            return p;
        }
        let under = |d: &String| rel.starts_with(&format!("{d}/"));
        if self.adr_dir.as_ref().is_some_and(under) {
            return Prefix::Adr;
        }
        Prefix::for_record(rel)
    }

    /// The status of a record here that states none: as configured, else as the status folder
    /// it is filed in says (`rfcs/supported/…`: implemented).
    pub fn default_status(&self, rel: &str) -> Option<&str> {
        if let Some(s) = self
            .config
            .folder_of(rel)
            .and_then(|f| f.default_status.as_deref())
        {
            return Some(s);
        }
        // Else the status folder it is filed in, right below its record folder.
        let folder = self
            .folders
            .iter()
            .filter(|d| d.is_empty() || rel.starts_with(&format!("{d}/")))
            .max_by_key(|d| d.len())?;
        status_folder(rel, folder)
    }

    /// Whether adr-tools writes its records in `folder` (root-relative): the one `.adr-dir`
    /// names, else its default `doc/adr` (ADR-0013: `new` follows the folder's tool).
    pub fn adr_tools_folder(&self, folder: &str) -> bool {
        match &self.adr_dir {
            Some(d) => d == folder,
            None => folder == "doc/adr",
        }
    }

    /// Whether the configuration excludes a file.
    pub fn excluded(&self, rel: &str) -> bool {
        self.config.excluded(rel)
    }
}

/// How `root` is read with `docs`: `.context-graph.toml` loaded (an invalid one is an error),
/// and the record folders: each `--docs` (which must exist), else the configured folders
/// (which must exist), else every default folder that exists and every folder an ADR tool's
/// configuration names (`fs::tools`).
pub fn reading(root: &Path, docs: &[String]) -> Result<Reading, FsError> {
    let loaded = config::load(root)?;
    let configured = loaded.is_some();
    let config = loaded.unwrap_or_default();
    let folders = if docs.is_empty() && !config.folders.is_empty() {
        let mut out = Vec::new();
        for f in &config.folders {
            let full = root.join(&f.path);
            let fail = |reason: String| FsError::ConfigFolder {
                path: f.path.clone(),
                file: config::FILE,
                reason,
            };
            let meta = fs::metadata(&full).map_err(|e| fail(e.to_string()))?;
            if !meta.is_dir() {
                return Err(fail("not a folder".into()));
            }
            if !out.contains(&f.path) {
                out.push(f.path.clone());
            }
        }
        out
    } else {
        record_folders_listed(root, docs)?
    };
    Ok(Reading {
        folders,
        config,
        configured,
        adr_dir: super::tools::adr_dir(root),
    })
}

/// The record folders, root-relative, as [`reading`] decides them.
pub fn record_folders(root: &Path, docs: &[String]) -> Result<Vec<String>, FsError> {
    reading(root, docs).map(|r| r.folders)
}

/// The record folders without a configuration: each `--docs`, else the defaults and the tools'.
fn record_folders_listed(root: &Path, docs: &[String]) -> Result<Vec<String>, FsError> {
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

/// The names a record in a folder of its own may have ([`is_folder_record`]), in the order a
/// folder's record is looked for.
pub const OWN_FOLDER_PAGES: [&str; 6] = [
    "README.md",
    "readme.md",
    "Readme.md",
    "index.md",
    "Index.md",
    "spec.md",
];

/// Whether a file in a record folder is a record in a folder of its own: a `README.md` or an
/// `index.md` (any case), or a `spec.md`, directly in a folder below the record folder whose
/// name starts with the record's number (`rfcs/0001-authorization/README.md`,
/// `keps/sig-node/1234-x/README.md`, `rfcs/RFC-0007-x/README.md`, `geps/gep-713/index.md`,
/// `doc/specs/#1564 - Settings UI/spec.md`), as flux2, Kubernetes' enhancement proposals,
/// Gateway API (a documentation site's page per folder) and Windows Terminal keep them.
/// The folder names the record (its id and date, as a file name would); the reference leaves
/// every other `README.md` out.
pub fn is_folder_record(rel: &str, record_folder: &str) -> bool {
    let Some((dir, name)) = rel.rsplit_once('/') else {
        return false;
    };
    let below = record_folder.is_empty()
        || dir
            .strip_prefix(record_folder)
            .is_some_and(|r| r.starts_with('/'));
    let page = OWN_FOLDER_PAGES
        .iter()
        .any(|p| name.eq_ignore_ascii_case(p));
    if !page || !below {
        return false;
    }
    numbered_folder_name(dir.rsplit('/').next().unwrap_or(dir))
        || in_status_folder(dir, record_folder)
}

/// Folders beside the records that hold what the records show or start from, never a record.
const ASSET_FOLDERS: [&str; 14] = [
    "assets",
    "images",
    "img",
    "diagrams",
    "media",
    "static",
    "attachments",
    "figures",
    "resources",
    "templates",
    "template",
    "archive",
    "examples",
    "drafts",
];

/// Whether `rel` is a `README.md` (any case) right inside a folder right inside the record
/// folder, not a folder of pictures or templates ([`ASSET_FOLDERS`]) nor one
/// [`is_folder_record`] reads already: the record of a proposal kept in a folder of its own,
/// when that folder holds no other record file ([`list_records`] looks).
fn lone_readme_candidate(rel: &str, record_folder: &str) -> bool {
    let Some((dir, name)) = rel.rsplit_once('/') else {
        return false;
    };
    let (parent, own) = dir.rsplit_once('/').unwrap_or(("", dir));
    name.eq_ignore_ascii_case("README.md")
        && parent == record_folder
        && !ASSET_FOLDERS.contains(&own.to_ascii_lowercase().as_str())
        && !STATUS_FOLDERS
            .iter()
            .any(|(f, _)| own.eq_ignore_ascii_case(f))
}

/// The folders that say the status of what is in them, as oneTBB files its RFCs
/// (`rfcs/supported/numa_support/`, `rfcs/proposed/…`) and npm its own (`accepted/`,
/// `withdrawn/`), with the status each gives a record stating none.
const STATUS_FOLDERS: [(&str, &str); 17] = [
    ("proposed", "proposed"),
    ("draft", "proposed"),
    ("drafts", "proposed"),
    ("accepted", "accepted"),
    ("approved", "accepted"),
    ("active", "accepted"),
    ("experimental", "accepted"),
    ("implemented", "implemented"),
    ("supported", "implemented"),
    ("final", "implemented"),
    ("rejected", "rejected"),
    ("declined", "rejected"),
    ("withdrawn", "rejected"),
    ("deprecated", "deprecated"),
    ("archived", "deprecated"),
    ("superseded", "superseded"),
    ("obsolete", "deprecated"),
];

/// The status the folder right below the record folder gives `rel` (root-relative), when
/// that folder is named for one (`rfcs/supported/x/README.md`: implemented).
pub fn status_folder(rel: &str, record_folder: &str) -> Option<&'static str> {
    let below = match record_folder.is_empty() {
        true => rel,
        false => rel.strip_prefix(record_folder)?.strip_prefix('/')?,
    };
    let (first, rest) = below.split_once('/')?;
    if rest.is_empty() {
        return None;
    }
    folder_status(first)
}

/// The status a folder's name says ([`STATUS_FOLDERS`], any case).
fn folder_status(name: &str) -> Option<&'static str> {
    STATUS_FOLDERS
        .iter()
        .find(|(folder, _)| name.eq_ignore_ascii_case(folder))
        .map(|(_, status)| *status)
}

/// The status folder of a proposal's own page (`…/supported/task_arena_waiting/readme.md`:
/// `supported`), the folder's name exactly as written.
pub fn stage_of(rel: &str) -> Option<&str> {
    let (dir, page) = rel.rsplit_once('/')?;
    if !OWN_FOLDER_PAGES
        .iter()
        .any(|p| page.eq_ignore_ascii_case(p))
    {
        return None;
    }
    let (up, _) = dir.rsplit_once('/')?;
    let stage = up.rsplit('/').next().unwrap_or(up);
    folder_status(stage).map(|_| stage)
}

/// Whether `dir` is a folder right inside a status folder right inside the record folder
/// (`rfcs/supported/numa_support`): a proposal's own folder, however it is named.
fn in_status_folder(dir: &str, record_folder: &str) -> bool {
    let below = match record_folder.is_empty() {
        true => dir,
        false => match dir
            .strip_prefix(record_folder)
            .and_then(|r| r.strip_prefix('/'))
        {
            Some(b) => b,
            None => return false,
        },
    };
    below
        .split_once('/')
        .is_some_and(|(stage, name)| !name.contains('/') && folder_status(stage).is_some())
}

/// A folder name that starts with a record's number: digits, or a kind word and digits
/// (`0001-x`, `2021-05-04-x`, `RFC-0007-x`, `adr_12_x`, `gep-713`, `#1564 - Settings UI`),
/// followed by a separator or nothing.
pub fn numbered_folder_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let mut rest = lower.strip_prefix('#').unwrap_or(&lower);
    for kind in ["adr", "rfc", "kep", "gep", "dr"] {
        if let Some(r) = rest.strip_prefix(kind) {
            rest = r.trim_start_matches(['-', '_', ' ']);
            break;
        }
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && matches!(
            rest.as_bytes().get(digits),
            None | Some(b'-' | b'_' | b'.' | b' ')
        )
}

/// Records in parts (docs/reading.md): the `.md` files inside a folder `X/` that sits beside a
/// record `X.md` (chapters, appendices, at any depth below it) are parts of that record, not
/// records of their own; so are the other `.md` files in a record's own folder
/// ([`is_folder_record`]).
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
            if records.contains(&format!("{parent}.md"))
                || records.contains(&format!("{parent}.rst"))
            {
                return false;
            }
            let own = OWN_FOLDER_PAGES
                .iter()
                .map(|r| format!("{parent}/{r}"))
                .find(|r| records.contains(r));
            // A proposal's own folder in a status folder keeps its other documents as records:
            // oneTBB files sub-proposals beside an umbrella's `README.md`.
            let numbered = numbered_folder_name(parent.rsplit('/').next().unwrap_or(parent));
            if own.is_some_and(|r| r != f.rel) && numbered {
                return false;
            }
            dir = parent;
        }
        true
    });
}

/// A file found by a walk: root-relative, and whether it is a symbolic link. `S`: its path's
/// string, owned, or borrowed from a stored memo (`&str`) by a warm answer's check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Found<S = String> {
    pub rel: S,
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
    let mut lone = Vec::new();
    let mut unnamed: Vec<String> = Vec::new();
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
            let rel = rel_of(root, entry.path());
            if !is_record_name(name) && !is_folder_record(&rel, folder) {
                if numbered_without_extension(name) {
                    unnamed.push(rel.clone());
                }
                if lone_readme_candidate(&rel, folder) {
                    lone.push(Found {
                        rel,
                        link: entry.path_is_symlink(),
                    });
                }
                continue;
            }
            files.push(Found {
                rel,
                link: entry.path_is_symlink(),
            });
        }
    }
    // A file numbered as the records beside it are, but with no extension
    // (get-an-identity's `0006-use-servicebus-for-http-webhook-notifications`): said, not read.
    // Numbered as they are: as many digits, then the same separator.
    let shape = |rel: &str| {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let digits = name.bytes().take_while(u8::is_ascii_digit).count();
        (
            dir.to_string(),
            digits,
            name.as_bytes().get(digits).copied(),
        )
    };
    for rel in unnamed {
        let beside = files.iter().any(|f| shape(&f.rel) == shape(&rel));
        if beside {
            notes.push(format!(
                "{rel}: numbered as a record but has no extension, not read (name it `.md`)"
            ));
        }
    }
    // A proposal kept as a folder of its own beside the others' files, with its pictures
    // (nginx-gateway-fabric's `docs/proposals/control-data-plane-split/README.md`): its
    // README is its record when nothing else in the folder is one, and only beside records
    // kept as files (a folder of topics each with its README, `docs/design/overview/`, is a
    // guide's).
    lone.retain(|r| {
        let dir = r.rel.rsplit_once('/').map_or("", |(d, _)| d);
        let folder = dir.rsplit_once('/').map_or("", |(d, _)| d);
        let in_folder = |f: &&Found| f.rel.rsplit_once('/').map_or("", |(d, _)| d) == folder;
        !files.iter().any(|f| f.rel.starts_with(&format!("{dir}/")))
            && files.iter().any(|f| in_folder(&f))
    });
    files.extend(lone);
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

mod likely;
mod names;
pub use likely::{folders_beside, is_design_document, likely_record_folders};
pub use names::is_record_name;
use names::numbered_without_extension;

#[cfg(test)]
mod tests;
