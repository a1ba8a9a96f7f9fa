// @adr 0009
//! The source files' markers, cached by blob id (ADR-0009): each tracked file whose state
//! matched git's index when it was scanned is kept with the blob id the index named and its
//! markers; a scan serves it from here while that still holds (`scan::markers`), so a refresh
//! reads only the files that changed. What a full scan no longer finds is dropped.

use super::codec;
use super::open::guarded;
use super::schema::{
    StagedBlobs, StagedHead, StoredMarkers, KEY_SOURCE_WALK, MARKERS, META, WALKS,
};
use super::{Index, IndexError};
use crate::scan::{self, MarkerCache, MarkerScan, SourceWalk, StagedCache, StagedFiles};
use crate::text::marker::Markers;
use crate::text::marker::{is_within, Marker};
use redb::ReadableTable;
use std::collections::HashMap;
use std::path::Path;

/// The stored markers, by path, and the last walk for untracked files.
#[derive(Default)]
pub struct StoredMarkerCache {
    entries: HashMap<String, StoredMarkers, foldhash::fast::RandomState>,
    walk: Option<SourceWalk>,
}

impl MarkerCache for StoredMarkerCache {
    fn walk(&self) -> Option<&SourceWalk> {
        self.walk.as_ref()
    }

    fn get(&self, path: &str, blob: &[u8; 20]) -> Option<Vec<Marker>> {
        let stored = self.entries.get(path).filter(|s| &s.blob == blob)?;
        Some(
            stored
                .markers
                .iter()
                .map(|(line, id)| Marker {
                    line: *line,
                    id: id.clone(),
                })
                .collect(),
        )
    }
}

/// Which build wrote a staged file (one from another build is not read).
const STAGED_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/staged-3");

/// The staged file as read: its head, and (decoded in place on first use) each file's
/// markers.
struct StoredStagedCache<'a> {
    head: Option<StagedHead>,
    bytes: &'a [u8],
    blobs: std::sync::OnceLock<Option<StagedBlobs<'a>>>,
}

impl<'a> StoredStagedCache<'a> {
    fn read(bytes: &'a [u8]) -> StoredStagedCache<'a> {
        let head = codec::decode_borrowed::<(StagedHead, &[u8])>(bytes)
            .ok()
            .map(|(head, _)| head)
            .filter(|h| h.made_by == STAGED_MADE_BY);
        StoredStagedCache {
            head,
            bytes,
            blobs: std::sync::OnceLock::new(),
        }
    }

    fn stored(&self) -> Option<&StagedBlobs<'a>> {
        self.blobs
            .get_or_init(|| {
                self.head.as_ref()?;
                let (_, blobs) = codec::decode_borrowed::<(StagedHead, &[u8])>(self.bytes).ok()?;
                let stored: StagedBlobs = codec::decode_borrowed(blobs).ok()?;
                (stored.blobs.len() / 20 == stored.ends.len() / 4).then_some(stored)
            })
            .as_ref()
    }
}

impl StagedBlobs<'_> {
    fn len(&self) -> usize {
        self.ends.len() / 4
    }

    /// The `at`th path (`None` past the end, or in a damaged file).
    fn path(&self, at: usize) -> Option<&str> {
        let end = |i: usize| -> Option<usize> {
            let b = self.ends.get(i * 4..i * 4 + 4)?;
            Some(u32::from_le_bytes(b.try_into().ok()?) as usize)
        };
        let start = if at == 0 { 0 } else { end(at - 1)? };
        self.paths.get(start..end(at)?)
    }

    /// Where `path` is: at `hint` when it is there, else found by search (the paths are in
    /// git's index order, sorted).
    fn find(&self, hint: usize, path: &str) -> Option<usize> {
        if self.path(hint) == Some(path) {
            return Some(hint);
        }
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.path(mid)?.cmp(path) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }
}

impl StagedCache for StoredStagedCache<'_> {
    fn held(&self, checksum: &[u8; 20]) -> Option<Markers> {
        self.head
            .as_ref()
            .filter(|h| &h.checksum == checksum)
            .map(|h| h.markers.clone())
    }

    fn blob(&self, at: usize, path: &str, blob: &[u8; 20]) -> Option<Vec<Marker>> {
        let s = self.stored()?;
        let at = s.find(at, path)?;
        if s.blobs.get(at * 20..at * 20 + 20)? != blob {
            return None;
        }
        let markers = match s.markers.binary_search_by_key(&(at as u32), |(i, _)| *i) {
            Ok(k) => s.markers[k]
                .1
                .iter()
                .map(|&(line, id)| Marker {
                    line,
                    id: id.to_string(),
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        Some(markers)
    }
}

/// The staged file's bytes for what a scan found.
fn staged_bytes(head: StagedHead, files: &StagedFiles) -> Vec<u8> {
    let n = files.markers.len();
    let (mut paths, mut ends, mut blobs, mut markers) = (
        String::with_capacity(n * 32),
        Vec::with_capacity(n * 4),
        Vec::with_capacity(n * 20),
        Vec::new(),
    );
    for (at, (t, m)) in files.files().zip(&files.markers).enumerate() {
        paths.push_str(&t.path);
        ends.extend_from_slice(&(paths.len() as u32).to_le_bytes());
        blobs.extend_from_slice(&t.blob);
        if !m.is_empty() {
            let m = m.iter().map(|m| (m.line, m.id.as_str())).collect();
            markers.push((at as u32, m));
        }
    }
    let stored = StagedBlobs {
        paths: &paths,
        ends: &ends,
        blobs: &blobs,
        markers,
    };
    codec::encode(&(head, codec::Bytes(&codec::encode(&stored))))
}

impl Index {
    /// What the files git tracks declare in git's index (`scan::staged_markers`): the kept
    /// answer while git's index has the same checksum, else found again (each blob kept read
    /// once) and kept. Kept in a small file beside the index, replaced as the pending commits
    /// are ([`crate::util::replace_file`]) and never synced, so a new commit costs no redb
    /// write session; a file that cannot be written is found again next time.
    pub fn staged_markers(&mut self) -> Result<Markers, IndexError> {
        let (markers, write) = self.staged_job().run();
        if let Some(write) = write {
            write.write();
        }
        Ok(markers)
    }

    /// [`Index::staged_markers`] as work that holds no borrow of the index, for another
    /// thread: after a commit it reads all of git's index, which an answer need not wait for
    /// before it checks its memo.
    pub fn staged_job(&self) -> StagedJob {
        StagedJob {
            repo: self.repo.clone(),
            path: self.path.with_extension("staged"),
        }
    }
}

/// See [`Index::staged_job`].
pub struct StagedJob {
    repo: crate::git::Repo,
    /// The file beside the index that keeps what git's index declares.
    path: std::path::PathBuf,
}

impl StagedJob {
    /// The markers git's index declares, and the file that keeps them to write when they were
    /// found anew: left to the caller, so that an answer need not wait for the write (a
    /// 90 KB file on a 2,000-file tree, after every commit) before it goes on (issue 17).
    pub fn run(self) -> (Markers, Option<StagedWrite>) {
        let path = self.path;
        let bytes = crate::fs::read::read_side_file(&path).unwrap_or_default();
        let stored = StoredStagedCache::read(&bytes);
        let found = scan::staged_markers(&self.repo, &stored);
        let write = match (&found.blobs, found.checksum) {
            (Some(files), Some(checksum)) => {
                let head = StagedHead {
                    made_by: STAGED_MADE_BY.to_string(),
                    checksum,
                    markers: found.markers.clone(),
                };
                Some(StagedWrite {
                    bytes: staged_bytes(head, files),
                    path,
                })
            }
            _ => None,
        };
        (found.markers, write)
    }
}

/// What [`StagedJob::run`] found, to be kept beside the index.
pub type StagedWrite = SideFileWrite;

/// A cache file beside the index to write (`index.staged`, `index.history`), owned so that
/// the answer goes on while it is written.
pub struct SideFileWrite {
    pub(super) path: std::path::PathBuf,
    pub(super) bytes: Vec<u8>,
}

impl SideFileWrite {
    /// Puts the file in place ([`crate::util::replace_file`], through `NAME.EXT.PID` beside
    /// it); a failed write is a cache miss next time, nothing more.
    pub fn write(self) {
        let ext = self.path.extension().unwrap_or_default().to_string_lossy();
        let tmp = self
            .path
            .with_extension(format!("{ext}.{}", std::process::id()));
        let _ = crate::util::replace_file(&self.path, &tmp, &self.bytes);
    }
}

fn stored_of(blob: [u8; 20], markers: &[Marker]) -> StoredMarkers {
    StoredMarkers {
        blob,
        markers: markers.iter().map(|m| (m.line, m.id.clone())).collect(),
    }
}

/// A markers table found damaged: the whole answer is given up as damage (the callers catch it
/// with [`super::catch_damage`]), so it comes from a scan and the file is dropped, built anew by
/// the next query or at once by `index` (ADR-0011). Rebuilding it in the middle of the answer
/// mixed what was read before with the new, empty file: a `check --git` lost its commits.
fn damaged<T>() -> T {
    std::panic::panic_any(super::checked::Damaged)
}

impl Index {
    /// Every stored file's markers (a value that does not decode is left out: its file is
    /// read again).
    /// A panic inside redb (a damaged page) is an unusable file.
    pub fn stored_markers(&mut self) -> Result<StoredMarkerCache, IndexError> {
        self.stored_markers_within("")
    }

    /// The stored markers of the files at or under `within` (`""`: every file), read as one
    /// range of the table, with the stored walk.
    fn stored_markers_within(&mut self, within: &str) -> Result<StoredMarkerCache, IndexError> {
        self.readable()?;
        let path = self.path.clone();
        guarded(&path, || {
            let txn = self.read_txn()?;
            // The walk serves only a scan of every file (one stamp per folder of the tree:
            // not decoded for a folder's scan).
            // Not even opened for a folder's scan: opening a table reads its root page, which
            // holds the walk's megabytes on a large tree.
            let walks = match within.is_empty() {
                true => Some(txn.open_table(WALKS)),
                false => None,
            };
            let walk = match walks {
                Some(Ok(walks)) => walks
                    .get(KEY_SOURCE_WALK)
                    .map_err(|e| self.err(e))?
                    .and_then(|v| codec::decode::<SourceWalk>(v.value()).ok()),
                Some(Err(redb::TableError::TableDoesNotExist(_))) | None => None,
                Some(Err(e)) => return Err(self.err(e)),
            };
            let table = txn.open_table(MARKERS).map_err(|e| self.err(e))?;
            let mut entries = HashMap::default();
            let end = format!("{within}/\u{10ffff}");
            let range = if within.is_empty() {
                table.iter()
            } else {
                table.range(within..end.as_str())
            };
            for entry in range.map_err(|e| self.err(e))? {
                let (k, v) = entry.map_err(|e| self.err(e))?;
                if !is_within(k.value(), within) {
                    continue;
                }
                if let Ok(stored) = codec::decode::<StoredMarkers>(v.value()) {
                    entries.insert(k.value().to_string(), stored);
                }
            }
            Ok(StoredMarkerCache { entries, walk })
        })
    }

    /// The markers of the source files at or under `within` (`""`: every file) of `root`,
    /// served from the stored ones where git's index vouches for a file; what was read anew is
    /// kept (and, for a scan of every file, what is gone dropped). A table found damaged is
    /// damage to the whole file ([`damaged`]).
    /// Only a scan of every file keeps what it read: a folder's (`why FOLDER`) is served and
    /// reads what is not kept, so a commit under it costs no redb write.
    pub fn markers(&mut self, root: &Path, within: &str) -> Result<MarkerScan, IndexError> {
        let stored = self.stored_markers_for(within)?;
        let found = scan::scan_markers(root, Some(&self.repo), within, &stored);
        if within.is_empty() {
            self.store_markers(&stored, &found, within)?;
        }
        Ok(found)
    }

    /// The stored markers of the files at or under `within`, for a scan of them
    /// (`scan::scan_markers`); a table found damaged is damage to the whole file ([`damaged`]).
    pub fn stored_markers_for(&mut self, within: &str) -> Result<StoredMarkerCache, IndexError> {
        match self.stored_markers_within(within) {
            Ok(stored) => Ok(stored),
            Err(IndexError::Unusable { .. }) => damaged(),
            Err(e) => Err(e),
        }
    }

    /// [`Index::stored_markers`]; a table found damaged is damage to the whole file
    /// ([`damaged`]).
    pub fn stored_markers_or_rebuild(&mut self) -> Result<StoredMarkerCache, IndexError> {
        match self.stored_markers() {
            Ok(stored) => Ok(stored),
            Err(IndexError::Unusable { .. }) => damaged(),
            Err(e) => Err(e),
        }
    }

    /// Keeps what a scan of `within` on `stored` found: each clean file not stored as it is,
    /// the walk it made, and (for a scan of folders) drops the files it no longer found.
    pub fn store_markers(
        &mut self,
        stored: &StoredMarkerCache,
        found: &MarkerScan,
        within: &str,
    ) -> Result<(), IndexError> {
        let Some((writes, gone)) = changes(stored, found, within) else {
            return Ok(());
        };
        let txn = self.write_txn()?;
        let path = self.path.clone();
        guarded(&path, || {
            if let Some(walk) = &found.walk {
                let mut walks = txn.open_table(WALKS).map_err(|e| self.err(e))?;
                walks
                    .insert(KEY_SOURCE_WALK, codec::encode(walk).as_slice())
                    .map_err(|e| self.err(e))?;
                // Where an older build kept it.
                let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
                meta.remove(KEY_SOURCE_WALK).map_err(|e| self.err(e))?;
            }
            {
                let mut table = txn.open_table(MARKERS).map_err(|e| self.err(e))?;
                for path in gone {
                    table.remove(path).map_err(|e| self.err(e))?;
                }
                for (path, value) in &writes {
                    table
                        .insert(path.as_str(), value.as_slice())
                        .map_err(|e| self.err(e))?;
                }
            }
            txn.commit().map_err(|e| self.err(e))
        })
    }
}

type Changes<'a> = (Vec<(String, Vec<u8>)>, Vec<&'a str>);

/// What storing `found` would write (each clean file not stored as it is) and remove (stored
/// files under `within` a scan of `within` no longer found clean); `None` when nothing.
fn changes<'a>(
    stored: &'a StoredMarkerCache,
    found: &MarkerScan,
    within: &str,
) -> Option<Changes<'a>> {
    let mut writes = Vec::new();
    for f in &found.clean {
        let same = stored.entries.get(&f.path).is_some_and(|s| {
            s.blob == f.blob
                && s.markers.len() == f.markers.len()
                && s.markers
                    .iter()
                    .zip(&f.markers)
                    .all(|((line, id), m)| *line == m.line && *id == m.id)
        });
        if !same {
            writes.push((
                f.path.clone(),
                codec::encode(&stored_of(f.blob, &f.markers)),
            ));
        }
    }
    // Only a scan of folders vouches for what it did not find: a single file's scan reads
    // the file and keeps nothing.
    let clean: std::collections::HashSet<&str> =
        found.clean.iter().map(|f| f.path.as_str()).collect();
    let gone: Vec<&str> = if found.complete {
        stored
            .entries
            .keys()
            .map(String::as_str)
            .filter(|p| is_within(p, within) && !clean.contains(p))
            .collect()
    } else {
        Vec::new()
    };
    (!writes.is_empty() || !gone.is_empty() || found.walk.is_some()).then_some((writes, gone))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::{IndexStat, Tracked, TrackedFile};

    fn file(path: &str, blob: u8, link: bool) -> TrackedFile {
        TrackedFile {
            path: path.to_string(),
            blob: [blob; 20],
            stat: IndexStat {
                size: 0,
                mtime: (0, 0),
                ctime: (0, 0),
                ino: 0,
                dev: 0,
                uid: 0,
                gid: 0,
            },
            link,
            trusted: true,
        }
    }

    #[test]
    fn the_staged_file_serves_each_blob_it_kept_and_nothing_else() {
        let tracked = Tracked {
            files: vec![
                file("a.rs", 1, false),
                file("b/link", 2, true),
                file("b/c.rs", 3, false),
                file("d.md", 4, false),
            ],
            checksum: Some([9; 20]),
        };
        let marked = vec![Marker {
            line: 2,
            id: "ADR-0009".to_string(),
        }];
        let files = StagedFiles::new(
            std::sync::Arc::new(tracked),
            vec![Vec::new(), marked.clone(), Vec::new()],
        );
        let head = StagedHead {
            made_by: STAGED_MADE_BY.to_string(),
            checksum: [9; 20],
            markers: Markers::default(),
        };
        let bytes = staged_bytes(head, &files);
        let kept = StoredStagedCache::read(&bytes);
        assert!(
            kept.held(&[9; 20]).is_some(),
            "the same checksum: held whole"
        );
        assert!(kept.held(&[8; 20]).is_none());
        // Places count the files without links: b/c.rs is the second.
        assert_eq!(kept.blob(1, "b/c.rs", &[3; 20]), Some(marked.clone()));
        assert_eq!(
            kept.blob(0, "b/c.rs", &[3; 20]),
            Some(marked),
            "a wrong place is searched"
        );
        assert_eq!(kept.blob(0, "a.rs", &[1; 20]), Some(Vec::new()));
        assert_eq!(kept.blob(2, "d.md", &[4; 20]), Some(Vec::new()));
        assert_eq!(kept.blob(2, "d.md", &[5; 20]), None, "another blob");
        assert_eq!(kept.blob(1, "b/link", &[2; 20]), None, "links are not kept");
        assert_eq!(kept.blob(7, "e.rs", &[1; 20]), None, "an unknown path");
        // Another build's file, or a damaged one, serves nothing.
        let other = StoredStagedCache::read(&bytes[..bytes.len() - 5]);
        assert_eq!(other.blob(0, "a.rs", &[1; 20]), None);
        assert!(StoredStagedCache::read(b"junk").held(&[9; 20]).is_none());
    }
}
