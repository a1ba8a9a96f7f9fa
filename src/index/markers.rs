// @adr 0009
//! The source files' markers, cached by blob id (ADR-0009): each tracked file whose state
//! matched git's index when it was scanned is kept with the blob id the index named and its
//! markers; a scan serves it from here while that still holds (`scan::markers`), so a refresh
//! reads only the files that changed. What a full scan no longer finds is dropped.

use super::codec;
use super::open::guarded;
use super::schema::{StagedHead, StoredMarkers, StoredStagedBlobs, KEY_SOURCE_WALK, MARKERS, META};
use super::{Index, IndexError};
use crate::scan::{self, MarkerCache, MarkerScan, SourceWalk, StagedCache};
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
const STAGED_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/staged-1");

/// The staged file as read: its head, and (decoded on first use) each file's markers.
struct StoredStagedCache {
    head: Option<StagedHead>,
    bytes: Vec<u8>,
    decoded: std::sync::OnceLock<BlobMarkers>,
}

/// Each file's blob and markers, by path.
type BlobMarkers = HashMap<String, ([u8; 20], Vec<Marker>), foldhash::fast::RandomState>;

impl StoredStagedCache {
    fn read(path: &Path) -> StoredStagedCache {
        let bytes = std::fs::read(path).unwrap_or_default();
        let head = codec::decode_borrowed::<(StagedHead, &[u8])>(&bytes)
            .ok()
            .map(|(head, _)| head)
            .filter(|h| h.made_by == STAGED_MADE_BY);
        StoredStagedCache {
            head,
            bytes,
            decoded: std::sync::OnceLock::new(),
        }
    }
}

impl StagedCache for StoredStagedCache {
    fn held(&self, checksum: &[u8; 20]) -> Option<Markers> {
        self.head
            .as_ref()
            .filter(|h| &h.checksum == checksum)
            .map(|h| h.markers.clone())
    }

    fn blob(&self, path: &str, blob: &[u8; 20]) -> Option<Vec<Marker>> {
        let decoded = self.decoded.get_or_init(|| {
            let Some(_) = &self.head else {
                return BlobMarkers::default();
            };
            codec::decode_borrowed::<(StagedHead, &[u8])>(&self.bytes)
                .ok()
                .and_then(|(_, blobs)| codec::decode::<StoredStagedBlobs>(blobs).ok())
                .unwrap_or_default()
                .into_iter()
                .map(|(path, blob, markers)| {
                    let markers = markers
                        .into_iter()
                        .map(|(line, id)| Marker { line, id })
                        .collect();
                    (path, (blob, markers))
                })
                .collect()
        });
        decoded
            .get(path)
            .filter(|(b, _)| b == blob)
            .map(|(_, m)| m.clone())
    }
}

impl Index {
    /// The file beside the index that keeps what git's index declares.
    fn staged_path(&self) -> std::path::PathBuf {
        self.path.with_extension("staged")
    }

    /// What the files git tracks declare in git's index (`scan::staged_markers`): the kept
    /// answer while git's index has the same checksum, else found again (each blob kept read
    /// once) and kept. Kept in a small file beside the index, written to a new file renamed
    /// over the old and never synced (as the pending commits are), so a new commit costs no
    /// redb write session; a file that cannot be written is found again next time.
    pub fn staged_markers(&mut self) -> Result<Markers, IndexError> {
        let path = self.staged_path();
        let stored = StoredStagedCache::read(&path);
        let found = scan::staged_markers(&self.repo, &stored);
        if let (Some(blobs), Some(checksum)) = (&found.blobs, found.checksum) {
            let all: StoredStagedBlobs = blobs
                .iter()
                .map(|b| {
                    let markers = b.markers.iter().map(|m| (m.line, m.id.clone())).collect();
                    (b.path.clone(), b.blob, markers)
                })
                .collect();
            let head = StagedHead {
                made_by: STAGED_MADE_BY.to_string(),
                checksum,
                markers: found.markers.clone(),
            };
            let bytes = codec::encode(&(head, codec::encode(&all)));
            let tmp = path.with_extension(format!("staged.{}", std::process::id()));
            if std::fs::write(&tmp, &bytes)
                .and_then(|_| std::fs::rename(&tmp, &path))
                .is_err()
            {
                let _ = std::fs::remove_file(&tmp);
            }
        }
        Ok(found.markers)
    }
}

fn stored_of(blob: [u8; 20], markers: &[Marker]) -> StoredMarkers {
    StoredMarkers {
        blob,
        markers: markers.iter().map(|m| (m.line, m.id.clone())).collect(),
    }
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
            let walk = txn
                .open_table(META)
                .map_err(|e| self.err(e))?
                .get(KEY_SOURCE_WALK)
                .map_err(|e| self.err(e))?
                .and_then(|v| codec::decode::<SourceWalk>(v.value()).ok());
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
    /// dropped with the whole file, which is built again.
    /// Only a scan of every file keeps what it read: a folder's (`why FOLDER`) is served and
    /// reads what is not kept, so a commit under it costs no redb write.
    pub fn markers(&mut self, root: &Path, within: &str) -> Result<MarkerScan, IndexError> {
        let stored = match self.stored_markers_within(within) {
            Ok(stored) => stored,
            Err(IndexError::Unusable { reason, .. }) => {
                self.rebuild_damaged(&reason)?;
                StoredMarkerCache::default()
            }
            Err(e) => return Err(e),
        };
        let found = scan::scan_markers(root, Some(&self.repo), within, &stored);
        if within.is_empty() {
            self.store_markers(&stored, &found, within)?;
        }
        Ok(found)
    }

    /// [`Index::stored_markers`]; when the table is found damaged, the file is dropped and
    /// built again, and nothing is stored.
    pub fn stored_markers_or_rebuild(&mut self) -> Result<StoredMarkerCache, IndexError> {
        match self.stored_markers() {
            Ok(stored) => Ok(stored),
            Err(IndexError::Unusable { reason, .. }) => {
                self.rebuild_damaged(&reason)?;
                Ok(StoredMarkerCache::default())
            }
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
                let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
                meta.insert(KEY_SOURCE_WALK, codec::encode(walk).as_slice())
                    .map_err(|e| self.err(e))?;
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
