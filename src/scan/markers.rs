// @adr 0009
//! The marker scan (CONTRACT.md §7, ADR-0009): which source files are read (those git tracks,
//! plus the untracked ones it does not ignore; outside git, every file `.gitignore` and
//! `.ignore` do not exclude), each file's header window read inside the read boundary
//! (`fs::sources`), and the markers in it (`text::marker`).
//!
//! A tracked file whose state still matches what git's index recorded holds the blob the
//! index names: a cache ([`MarkerCache`], the index's) keeps each such file's markers with
//! that blob id and serves them without reading the file, so a refresh reads only the files
//! that changed. An answer is the same with the cache or without it.

use crate::fs::sources::{self, Excludes, FileStat, Head, Sources};
use crate::git::{self, IndexStat, Repo, TrackedFile};
use crate::text::marker::{self, is_within, FileMarkers, Marker, Markers};
use std::collections::HashSet;
use std::path::Path;

/// Markers kept by the blob id of the file they were read from.
pub trait MarkerCache: Sync {
    /// Whether it keeps what a scan finds (then the scan tells which tracked files hold the
    /// blob git's index names, which costs a stat each).
    fn keeps(&self) -> bool {
        true
    }
    /// The markers of `path` when it holds `blob`, if known.
    fn get(&self, _path: &str, _blob: &[u8; 20]) -> Option<Vec<Marker>> {
        None
    }
}

/// No cache: every file is read.
pub struct NoCache;
impl MarkerCache for NoCache {
    fn keeps(&self) -> bool {
        false
    }
}

/// A tracked file that holds the blob git's index names, and its markers: what a cache keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanFile {
    pub path: String,
    pub blob: [u8; 20],
    pub markers: Vec<Marker>,
}

/// What a marker scan found.
#[derive(Debug, Clone, Default)]
pub struct MarkerScan {
    pub markers: Markers,
    /// Every tracked file scanned that holds the blob git's index names (read now or served by
    /// the cache), in path order.
    pub clean: Vec<CleanFile>,
    /// Why git's index could not be read, when it could not (then no file counts as tracked).
    pub note: Option<String>,
    /// Whether `clean` lists every tracked file under the folder scanned that holds its blob
    /// (so a cache may drop what it does not list): not for a single file, nor when git's
    /// index could not be read, nor for a cache that keeps nothing.
    pub complete: bool,
}

/// The markers of the source files at or under `within` (root-relative; `""` is the root).
/// `repo` is the git work tree around the root (`None` outside git).
pub fn scan_markers(
    root: &Path,
    repo: Option<&Repo>,
    within: &str,
    cache: &dyn MarkerCache,
) -> MarkerScan {
    let src = Sources::open(root);
    let mut excludes = Excludes::new(root, repo.map(|r| r.workdir.as_path()));
    let nested = in_nested_repository(root, within);
    let is_dir = within.is_empty()
        || std::fs::symlink_metadata(root.join(within)).is_ok_and(|m| m.file_type().is_dir());
    if !is_dir && !excludes.excluded(within, false) && !nested {
        // One file that counts whether git tracks it or not: read it, and nothing else.
        return MarkerScan {
            markers: Markers::new(read_all(&src, &[within.to_string()])),
            ..MarkerScan::default()
        };
    }
    let complete = is_dir;
    let (tracked, note) = match repo.map(git::tracked) {
        Some(Ok(files)) => (files, None),
        Some(Err(e)) => (
            Vec::new(),
            Some(format!(
                "{e}: only the files git does not ignore were read for markers"
            )),
        ),
        None => (Vec::new(), None),
    };
    let tracked: Vec<TrackedFile> = tracked
        .into_iter()
        .filter(|t| is_within(&t.path, within))
        .collect();
    let untracked = if !is_dir || nested {
        Vec::new()
    } else {
        let known: HashSet<&str> = tracked.iter().map(|t| t.path.as_str()).collect();
        sources::untracked(root, within, &mut excludes, &|p| known.contains(p))
    };
    // A tracked file is clean when its state is the one git's index recorded for it.
    let clean: Vec<bool> = if cache.keeps() {
        crate::util::parallel_map_from(1024, &tracked, |t| {
            t.trusted
                && !t.link
                && src
                    .lstat(&t.path)
                    .is_some_and(|st| same_state(&st, &t.stat))
        })
    } else {
        vec![false; tracked.len()]
    };
    let mut files: Vec<FileMarkers> = Vec::new();
    let mut kept: Vec<CleanFile> = Vec::new();
    let mut to_read: Vec<String> = Vec::new();
    let mut read_clean: Vec<usize> = Vec::new();
    for (t, &clean) in tracked.iter().zip(&clean) {
        if clean {
            if let Some(markers) = cache.get(&t.path, &t.blob) {
                files.push(FileMarkers {
                    path: t.path.clone(),
                    markers: markers.clone(),
                });
                kept.push(CleanFile {
                    path: t.path.clone(),
                    blob: t.blob,
                    markers,
                });
                continue;
            }
            read_clean.push(to_read.len());
        }
        to_read.push(t.path.clone());
    }
    let tracked_reads = to_read.len();
    to_read.extend(untracked);
    let read = read_all(&src, &to_read);
    // `read_all` keeps only files with markers: look the clean ones up by path.
    let by_path: std::collections::HashMap<&str, &Vec<Marker>> =
        read.iter().map(|f| (f.path.as_str(), &f.markers)).collect();
    let blobs: std::collections::HashMap<&str, [u8; 20]> =
        tracked.iter().map(|t| (t.path.as_str(), t.blob)).collect();
    for &i in &read_clean {
        debug_assert!(i < tracked_reads);
        let path = &to_read[i];
        kept.push(CleanFile {
            path: path.clone(),
            blob: blobs[path.as_str()],
            markers: by_path
                .get(path.as_str())
                .map(|m| (*m).clone())
                .unwrap_or_default(),
        });
    }
    files.extend(read);
    kept.sort_by(|a, b| a.path.cmp(&b.path));
    MarkerScan {
        markers: Markers::new(files),
        clean: kept,
        complete: complete && note.is_none() && cache.keeps(),
        note,
    }
}

/// The markers of the given root-relative files, read from the work tree as they are now,
/// inside the read boundary (whether git tracks or ignores them): for the hooks and `review`,
/// which name the files a commit touches.
pub fn markers_for(root: &Path, paths: &[&str]) -> Markers {
    let src = Sources::open(root);
    let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    Markers::new(read_all(&src, &paths))
}

/// Reads each file's header and its markers, on every core; only files with markers come back.
fn read_all(src: &Sources, paths: &[String]) -> Vec<FileMarkers> {
    crate::util::parallel_map(paths, |p| match src.head(p) {
        Head::Read { bytes, longer } => Some(FileMarkers {
            path: p.clone(),
            markers: marker::scan(&bytes, longer, marker::is_markdown(p)),
        }),
        Head::Skipped(_) => None,
    })
    .into_iter()
    .flatten()
    .filter(|f| !f.markers.is_empty())
    .collect()
}

/// Whether a file's state now is the one git's index recorded (git keeps 32 bits of each):
/// a regular file with the same size, times, inode and owner.
fn same_state(now: &FileStat, then: &IndexStat) -> bool {
    now.regular
        && now.size as u32 == then.size
        && (now.mtime.0 as u32, now.mtime.1) == then.mtime
        && (now.ctime.0 as u32, now.ctime.1) == then.ctime
        && now.ino as u32 == then.ino
        && now.uid == then.uid
        && now.gid == then.gid
}

/// Whether `rel` lies in a repository nested under the root (a folder between them holds
/// `.git`): its files are that repository's.
fn in_nested_repository(root: &Path, rel: &str) -> bool {
    let mut dir = rel;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if root.join(parent).join(".git").exists() {
            return true;
        }
        dir = parent;
    }
    !rel.is_empty() && root.join(rel).join(".git").exists()
}
