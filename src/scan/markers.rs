// @adr 0009
//! The marker scan (docs/markers.md, ADR-0009): which source files are read (those git tracks,
//! plus the untracked ones it does not ignore; outside git, every file `.gitignore` and
//! `.ignore` do not exclude), each file's header window read inside the read boundary
//! (`fs::sources`), and the markers in it (`text::marker`).
//!
//! A tracked file whose state still matches what git's index recorded holds the blob the
//! index names: a cache ([`MarkerCache`], the index's) keeps each such file's markers with
//! that blob id and serves them without reading the file, so a refresh reads only the files
//! that changed. An answer is the same with the cache or without it.

use crate::fs::fingerprint::RootDir;
use crate::fs::sources::{self, Excludes, FileStat, Head, Sources};
use crate::fs::walk::{GuideWalk, WalkStamp};
use crate::fs::Found;
use crate::git::{self, IndexStat, Repo, TrackedFile};
use crate::text::marker::{self, is_within, FileMarkers, Marker, Markers};
use serde::{Deserialize, Serialize};
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
    /// The last walk of the whole root for untracked files, kept (see [`SourceWalk`]).
    fn walk(&self) -> Option<&SourceWalk> {
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

/// A walk of the whole root for the untracked files, stamped: every folder it walked and every
/// ignore file that applied (`fs::walk::WalkStamp`), and the checksum of git's index, which
/// says what is tracked. While all of it holds, a walk now would find the same untracked files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceWalk {
    pub git_index: [u8; 20],
    pub walk: WalkStamp,
}

impl SourceWalk {
    /// Whether a walk of the root `dir` is opened at, with git's index now at `git_index`,
    /// would find the same untracked files.
    pub fn still_holds(&self, dir: &RootDir, git_index: Option<&[u8; 20]>) -> bool {
        git_index == Some(&self.git_index) && self.walk.still_holds(dir)
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
    /// the cache), in path order; only for a cache that keeps.
    pub clean: Vec<CleanFile>,
    /// Why git's index could not be read, when it could not (then no file counts as tracked).
    pub note: Option<String>,
    /// Whether `clean` lists every tracked file under the folder scanned that holds its blob
    /// (so a cache may drop what it does not list): not for a single file, nor when git's
    /// index could not be read, nor for a cache that keeps nothing.
    pub complete: bool,
    /// The walk for untracked files this scan made of the whole root, stamped, when the cache
    /// keeps and held none that still holds.
    pub walk: Option<SourceWalk>,
}

/// The markers of the source files at or under `within` (root-relative; `""` is the root).
/// `repo` is the git work tree around the root (`None` outside git).
pub fn scan_markers(
    root: &Path,
    repo: Option<&Repo>,
    within: &str,
    cache: &dyn MarkerCache,
) -> MarkerScan {
    let started_ns = crate::util::now_ns();
    if through_link(root, within) {
        // Not a path of this tree's own: no file under it is read, as a walk of the whole
        // root would not enter it (a link is never walked into).
        return MarkerScan::default();
    }
    let src = Sources::open(root);
    let mut excludes = Excludes::new(root, repo.map(|r| r.workdir.as_path()));
    let nested = in_nested_repository(root, within);
    let is_dir = within.is_empty()
        || std::fs::symlink_metadata(root.join(within)).is_ok_and(|m| m.file_type().is_dir());
    if !is_dir && !nested {
        // One file that counts whether git tracks it or not, unless ignored: read it, and
        // nothing else. Whether it is ignored matters only when it declares something (the
        // ignore files of a big tree cost more to compile than the file to read).
        let path = [within.to_string()];
        let found = files_with_markers(&path, read_all(&src, &path));
        if found.is_empty() || !excludes.excluded(within, false) {
            return MarkerScan {
                markers: Markers::new(found),
                ..MarkerScan::default()
            };
        }
    }
    let keeps = cache.keeps();
    // A folder's files are read from git's index without decoding the rest of it.
    let read = |r: &Repo| match within.is_empty() {
        true => git::tracked(r),
        false => git::tracked_within(r, within)
            .map(std::sync::Arc::new)
            .map_or_else(|| git::tracked(r), Ok),
    };
    let (all, note) = match repo.map(read) {
        Some(Ok(found)) => (found, None),
        Some(Err(e)) => (
            Default::default(),
            Some(format!(
                "{e}: only the files git does not ignore were read for markers"
            )),
        ),
        None => (Default::default(), None),
    };
    let all: std::sync::Arc<git::Tracked> = all;
    let git_index = all.checksum;
    let tracked: Vec<&TrackedFile> = all
        .files
        .iter()
        .filter(|t| is_within(&t.path, within))
        .collect();
    let whole = within.is_empty() && keeps;
    let held = cache
        .walk()
        .filter(|w| whole && w.still_holds(src.dir(), git_index.as_ref()));
    let mut walk = None;
    let untracked: Vec<String> = if !is_dir || nested {
        Vec::new()
    } else if let Some(held) = held {
        held.walk.files.iter().map(|f| f.rel.clone()).collect()
    } else {
        let known: HashSet<&str> = tracked.iter().map(|t| t.path.as_str()).collect();
        let (files, dirs) =
            sources::untracked_walk(root, within, &mut excludes, &|p| known.contains(p));
        if let (true, Some(git_index)) = (whole, git_index) {
            let found = GuideWalk {
                files: files
                    .iter()
                    .map(|rel| Found {
                        rel: rel.clone(),
                        link: false,
                    })
                    .collect(),
                dirs,
                notes: Vec::new(),
            };
            walk = Some(SourceWalk {
                git_index,
                walk: WalkStamp::of(src.dir(), &found, started_ns),
            });
        }
        files
    };
    // A tracked file is clean when its state is the one git's index recorded for it: then the
    // cache may serve it.
    let clean: Vec<bool> = if keeps {
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
    let mut served: Vec<Option<Vec<Marker>>> = Vec::with_capacity(tracked.len());
    let mut to_read: Vec<String> = Vec::new();
    for (t, &clean) in tracked.iter().zip(&clean) {
        let hit = if clean {
            cache.get(&t.path, &t.blob)
        } else {
            None
        };
        if hit.is_none() {
            to_read.push(t.path.clone());
        }
        served.push(hit);
    }
    let tracked_reads = to_read.len();
    to_read.extend(untracked);
    let mut read = read_all(&src, &to_read).into_iter();
    // Each tracked file's markers, served or read (`None`: not read), in `tracked` order.
    let markers: Vec<Option<Vec<Marker>>> = served
        .into_iter()
        .map(|hit| hit.map(Some).unwrap_or_else(|| read.next().flatten()))
        .collect();
    let untracked_read: Vec<Option<Vec<Marker>>> = read.collect();
    let mut kept = Vec::new();
    if keeps {
        for ((t, &clean), m) in tracked.iter().zip(&clean).zip(&markers) {
            if let (true, Some(m)) = (clean, m) {
                kept.push(CleanFile {
                    path: t.path.clone(),
                    blob: t.blob,
                    markers: m.clone(),
                });
            }
        }
        kept.sort_by(|a, b| a.path.cmp(&b.path));
    }
    let mut files: Vec<FileMarkers> = tracked
        .iter()
        .zip(markers)
        .filter_map(|(t, m)| {
            m.filter(|m| !m.is_empty()).map(|markers| FileMarkers {
                path: t.path.clone(),
                markers,
            })
        })
        .collect();
    files.extend(files_with_markers(
        &to_read[tracked_reads..],
        untracked_read,
    ));
    MarkerScan {
        markers: Markers::new(files),
        clean: kept,
        complete: is_dir && note.is_none() && keeps,
        note,
        walk,
    }
}

/// What git's index says each tracked file declares, kept (the index's): the last answer by
/// the checksum of git's index, and each file's markers by the blob id it had.
pub trait StagedCache: Sync {
    /// The markers of every tracked file when git's index had `checksum`, if kept.
    fn held(&self, _checksum: &[u8; 20]) -> Option<Markers> {
        None
    }
    /// The markers of the blob `blob` at `path`, if kept; `at` is the file's place among
    /// [`StagedFiles::files`] (where the cache may look first: between two commits the
    /// tracked files are mostly the same).
    fn blob(&self, _at: usize, _path: &str, _blob: &[u8; 20]) -> Option<Vec<Marker>> {
        None
    }
}

impl StagedCache for NoCache {}

/// What the files git tracks declare in git's index.
#[derive(Debug, Clone, Default)]
pub struct StagedScan {
    pub markers: Markers,
    /// The checksum of git's index read (`None`: there is none, or git wrote none).
    pub checksum: Option<[u8; 20]>,
    /// Every tracked file's blob and markers, when they were found now rather than served
    /// whole by the cache (what a cache keeps).
    pub blobs: Option<StagedFiles>,
}

/// The tracked files (links left out, which declare nothing) and each one's markers.
#[derive(Debug, Clone, Default)]
pub struct StagedFiles {
    tracked: std::sync::Arc<git::Tracked>,
    /// Each file's markers, in [`StagedFiles::files`] order.
    pub markers: Vec<Vec<Marker>>,
}

impl StagedFiles {
    /// `tracked`'s files (links left out) with `markers`, one list per file.
    pub fn new(tracked: std::sync::Arc<git::Tracked>, markers: Vec<Vec<Marker>>) -> StagedFiles {
        StagedFiles { tracked, markers }
    }

    /// The files, in git's index order (sorted by path).
    pub fn files(&self) -> impl Iterator<Item = &TrackedFile> {
        self.tracked.files.iter().filter(|t| !t.link)
    }
}

/// The markers of the files git's index tracks under the root, as git's index has them: each
/// file's staged blob, read from git's object database (never the work tree), with the
/// header window and grammar of any file. Drift counts the files these declare: a file's
/// history is git's, so what it declares there is what counts (ADR-0009). Links and blobs
/// over [`sources::MAX_SOURCE_BYTES`] declare nothing.
pub fn staged_markers(repo: &Repo, cache: &dyn StagedCache) -> StagedScan {
    // The cache is asked first by the index's trailing checksum alone: nothing else of git's
    // index is read when it holds.
    if let Some(checksum) = git::index_checksum(repo) {
        if let Some(markers) = cache.held(&checksum) {
            return StagedScan {
                markers,
                checksum: Some(checksum),
                blobs: None,
            };
        }
    }
    let Ok(tracked) = git::tracked(repo) else {
        return StagedScan::default();
    };
    let checksum = tracked.checksum;
    if let Some(markers) = checksum.as_ref().and_then(|c| cache.held(c)) {
        return StagedScan {
            markers,
            checksum,
            blobs: None,
        };
    }
    let files: Vec<&TrackedFile> = tracked.files.iter().filter(|t| !t.link).collect();
    // What the cache keeps (after a commit, nearly every file), then the rest read in chunks,
    // each with a handle of its own on the object database.
    let mut found: Vec<Option<Vec<Marker>>> = files
        .iter()
        .enumerate()
        .map(|(at, t)| cache.blob(at, &t.path, &t.blob))
        .collect();
    let misses: Vec<usize> = (0..files.len()).filter(|&i| found[i].is_none()).collect();
    let chunks: Vec<&[usize]> = misses.chunks(256).collect();
    let read: Vec<Vec<Marker>> = crate::util::parallel_map_from(2, &chunks, |chunk| {
        let reader = git::BlobReader::new(repo);
        chunk
            .iter()
            .map(|&i| {
                let t = files[i];
                reader
                    .head(&t.blob, marker::WINDOW, sources::MAX_SOURCE_BYTES)
                    .map(|(bytes, longer)| {
                        marker::scan(&bytes, longer, marker::is_markdown(&t.path))
                    })
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    for (i, markers) in misses.into_iter().zip(read) {
        found[i] = Some(markers);
    }
    let found: Vec<Vec<Marker>> = found.into_iter().map(Option::unwrap_or_default).collect();
    let markers = Markers::new(
        files
            .iter()
            .zip(&found)
            .filter(|(_, m)| !m.is_empty())
            .map(|(t, m)| FileMarkers {
                path: t.path.clone(),
                markers: m.clone(),
            })
            .collect(),
    );
    drop(files);
    StagedScan {
        markers,
        checksum,
        blobs: Some(StagedFiles::new(tracked, found)),
    }
}

/// The markers of the given root-relative files, read from the work tree as they are now,
/// inside the read boundary (whether git tracks or ignores them): for the hooks and `review`,
/// which name the files a commit touches.
pub fn markers_for(root: &Path, paths: &[&str]) -> Markers {
    let src = Sources::open(root);
    let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    Markers::new(files_with_markers(&paths, read_all(&src, &paths)))
}

/// The markers of files as blobs in git's object database hold them (`(path, blob)`): what a
/// commit in the making declares, its staged content (ADR-0008, ADR-0009). The header window
/// and grammar are any file's; a blob missing, not a blob, or over the size limit declares
/// nothing.
pub fn blob_markers(repo: &Repo, files: &[(&str, [u8; 20])]) -> Markers {
    if files.is_empty() {
        return Markers::default();
    }
    let reader = git::BlobReader::loose_first(repo);
    Markers::new(
        files
            .iter()
            .filter_map(|(path, blob)| {
                let (bytes, longer) =
                    reader.head(blob, marker::WINDOW, sources::MAX_SOURCE_BYTES)?;
                Some(FileMarkers {
                    path: path.to_string(),
                    markers: marker::scan(&bytes, longer, marker::is_markdown(path)),
                })
            })
            .collect(),
    )
}

/// Reads each file's header and its markers, on every core, in `paths` order (`None`: not
/// read, see `fs::sources::Skip`).
fn read_all(src: &Sources, paths: &[String]) -> Vec<Option<Vec<Marker>>> {
    crate::util::parallel_map(paths, |p| match src.head(p) {
        Head::Read { bytes, longer } => Some(marker::scan(&bytes, longer, marker::is_markdown(p))),
        Head::Skipped(_) => None,
    })
}

/// The files of `paths` whose `read` markers are not none.
fn files_with_markers(paths: &[String], read: Vec<Option<Vec<Marker>>>) -> Vec<FileMarkers> {
    paths
        .iter()
        .zip(read)
        .filter_map(|(p, m)| {
            m.filter(|m| !m.is_empty()).map(|markers| FileMarkers {
                path: p.clone(),
                markers,
            })
        })
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

/// Whether a folder on the way to `rel` (below the root) is a link.
fn through_link(root: &Path, rel: &str) -> bool {
    let mut dir = rel;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if std::fs::symlink_metadata(root.join(parent)).is_ok_and(|m| m.file_type().is_symlink()) {
            return true;
        }
        dir = parent;
    }
    false
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
