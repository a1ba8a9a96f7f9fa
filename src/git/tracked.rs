// @adr 0009
//! The files git tracks, read from git's index in process (ADR-0009): each with the blob id
//! and the file state git recorded for it, so a file whose state still matches is known to
//! hold that blob without being read (as `git status` tells it).

use super::{HistoryError, Repo};
use crate::util::one_line;

/// The file state git's index recorded for an entry (its fields as git stores them: 32 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexStat {
    pub size: u32,
    pub mtime: (u32, u32),
    pub ctime: (u32, u32),
    pub ino: u32,
    pub dev: u32,
    pub uid: u32,
    pub gid: u32,
}

/// One tracked file, root-relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackedFile {
    pub path: String,
    /// The blob git's index holds for it.
    pub blob: [u8; 20],
    pub stat: IndexStat,
    /// Tracked as a symbolic link.
    pub link: bool,
    /// Whether `stat` may vouch for the content: not racily clean (changed in the same moment
    /// git wrote its index), not a conflict, not only intended to be added.
    pub trusted: bool,
}

/// What git's index says is tracked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tracked {
    pub files: Vec<TrackedFile>,
    /// The checksum git wrote at the end of its index: the same checksum, the same index
    /// (`None` when it wrote none, or there is no index yet).
    pub checksum: Option<[u8; 20]>,
}

/// The name of the repository on its forge, from `remote.origin.url` (`opentelemetry-collector`
/// of `https://github.com/open-telemetry/opentelemetry-collector.git`), lower case: what a
/// link into the repository's own code names. `None` without such a remote.
pub fn home_name(repo: &Repo) -> Option<String> {
    let url = repo
        .gix()
        .ok()?
        .config_snapshot()
        .string("remote.origin.url")?
        .to_string();
    home_name_of(&url)
}

/// [`home_name`] of a remote's URL: `https://github.com/o/name.git`, `git@host:o/name` give
/// `name`; a path on this machine, none.
pub fn home_name_of(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches('/');
    let remote = url.contains("://") && !url.starts_with("file://")
        || (!url.contains("://") && url.contains(':') && !url.starts_with(['/', '.']));
    let name = url.rsplit(['/', ':']).next()?;
    let name = name.strip_suffix(".git").unwrap_or(name);
    (remote && !name.is_empty()).then(|| name.to_ascii_lowercase())
}

/// The checksum git wrote at the end of its index (the last 20 bytes), read without reading
/// the rest: `None` when there is no index, it is too short, or git wrote no checksum
/// (`index.skipHash`). What [`tracked`] reports as `checksum`, for a cache to be asked first.
pub fn index_checksum(repo: &Repo) -> Option<[u8; 20]> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(repo.index_file()).ok()?;
    if file.metadata().ok()?.len() < 32 {
        return None;
    }
    file.seek(SeekFrom::End(-20)).ok()?;
    let mut out = [0u8; 20];
    file.read_exact(&mut out).ok()?;
    (out != [0u8; 20]).then_some(out)
}

/// The files git's index lists under the root `repo` was opened at (root-relative, in path
/// order, each once): no submodules, no sparse folders, no path that is not UTF-8. A
/// repository with no index yet tracks nothing.
///
/// The last answer is kept for the process, by the index file's path, size, times and trailing
/// checksum and the root's prefix: an answer asks for it twice (the markers of PATH, and what
/// git's index declares), and `watch` asks again after every change.
pub fn tracked(repo: &Repo) -> Result<std::sync::Arc<Tracked>, HistoryError> {
    type Key = (
        std::path::PathBuf,
        String,
        u64,
        std::time::SystemTime,
        Option<[u8; 20]>,
    );
    static LAST: std::sync::Mutex<Option<(Key, std::sync::Arc<Tracked>)>> =
        std::sync::Mutex::new(None);
    // One reading at a time: a thread that asks while another reads waits for its answer
    // rather than reading the same index again beside it (an answer asks from two threads).
    static READING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _reading = READING.lock();
    let path = repo.index_file().to_path_buf();
    let Ok(meta) = std::fs::metadata(&path) else {
        return Ok(Default::default());
    };
    let key: Option<Key> = meta.modified().ok().map(|mtime| {
        (
            path.clone(),
            repo.prefix.clone(),
            meta.len(),
            mtime,
            index_checksum(repo),
        )
    });
    if let (Some(key), Ok(last)) = (&key, LAST.lock()) {
        if let Some((_, found)) = last.as_ref().filter(|(k, _)| k == key) {
            return Ok(found.clone());
        }
    }
    // Read from the bytes (no entry decoded beyond what is kept, no extension, no thread
    // pool asked for its size); by gix's decoder where that does not apply (issue 17).
    let found = match read_entries(repo, Select::Under(repo.prefix.as_bytes())) {
        Some(found) => found,
        None => read_tracked(repo, &path)?,
    };
    let found = std::sync::Arc::new(found);
    if let (Some(key), Ok(mut last)) = (key, LAST.lock()) {
        *last = Some((key, found.clone()));
    }
    Ok(found)
}

/// What [`tracked`] answers, decoded whole by gix and not kept: the reading [`tracked`] falls
/// back on where the bytes can't be read directly (and what that reading is tested against).
pub fn tracked_decoded(repo: &Repo) -> Result<Tracked, HistoryError> {
    read_tracked(repo, repo.index_file())
}

fn read_tracked(repo: &Repo, path: &std::path::Path) -> Result<Tracked, HistoryError> {
    // The trailing checksum is read, not verified: hashing the whole file again was a fifth
    // of a warm `why --git` on git/git; it is git's to keep right (as `git::staged_paths`
    // reads it too). Built with SHA-1 only (ADR-0011).
    let index = gix::index::File::at(path, gix::hash::Kind::Sha1, true, Default::default())
        .map_err(|e| HistoryError::GitIndex(one_line(&e.to_string())))?;
    Ok(tracked_of(repo, &index))
}

/// What git's decoded `index` tracks under the root `repo` was opened at, as [`tracked`]
/// lists it: for an index already decoded (the commit hook's, `git::StagedIndex`).
pub fn tracked_of(repo: &Repo, index: &gix::index::File) -> Tracked {
    let timestamp = index.timestamp();
    let checksum = index.checksum().filter(|c| !c.is_null()).map(|c| {
        let mut out = [0u8; 20];
        out.copy_from_slice(&c.as_bytes()[..20]);
        out
    });
    let options = gix::index::entry::stat::Options {
        trust_ctime: true,
        check_stat: true,
        use_nsec: true,
        use_stdev: false,
    };
    let prefix = repo.prefix.as_bytes();
    // Every path checked as UTF-8 at once (each entry's path is a piece of this backing): one
    // pass, not one call per file. `None` when some path is not UTF-8: then each on its own.
    let backing: &[u8] = index.path_backing();
    let whole = std::str::from_utf8(backing).ok();
    let mut out: Vec<TrackedFile> = Vec::with_capacity(index.entries().len());
    for entry in index.entries() {
        use gix::index::entry::{Flags, Mode, Stage};
        if !(entry.mode == Mode::FILE
            || entry.mode == Mode::FILE_EXECUTABLE
            || entry.mode == Mode::SYMLINK)
        {
            continue;
        }
        let path: &[u8] = entry.path_in(backing);
        let Some(rel) = crate::util::under_prefix(path, prefix) else {
            continue;
        };
        let rel = match whole {
            Some(whole) => {
                let start = rel.as_ptr() as usize - backing.as_ptr() as usize;
                whole.get(start..start + rel.len())
            }
            None => std::str::from_utf8(rel).ok(),
        };
        let Some(rel) = rel else {
            continue;
        };
        let conflict = entry.stage() != Stage::Unconflicted;
        if let Some(last) = out.last_mut().filter(|l| l.path == rel) {
            last.trusted = false; // one path in several stages: a conflict
            continue;
        }
        let s = entry.stat;
        let mut blob = [0u8; 20];
        blob.copy_from_slice(&entry.id.as_bytes()[..20]);
        out.push(TrackedFile {
            path: rel.to_string(),
            blob,
            stat: IndexStat {
                size: s.size,
                mtime: (s.mtime.secs, s.mtime.nsecs),
                ctime: (s.ctime.secs, s.ctime.nsecs),
                ino: s.ino,
                dev: s.dev,
                uid: s.uid,
                gid: s.gid,
            },
            link: entry.mode == Mode::SYMLINK,
            trusted: !conflict
                && !entry.flags.contains(Flags::INTENT_TO_ADD)
                && !s.is_racy(timestamp, options),
        });
    }
    Tracked {
        files: out,
        checksum,
    }
}

/// The files git's index lists at or under the root-relative `within` (as [`tracked`] lists
/// them, the others left out), read from the index file's bytes without decoding the rest:
/// each entry's fixed header gives where the next begins, so only the paths are compared, the
/// reading stops past the folder (entries are sorted by path), and no extension is decoded
/// (git's cache-tree alone is a quarter of a 50,000-file index, and decoding it all was most of
/// a warm `why FOLDER`, ADR-0016). `None` where that reading does not apply and [`tracked`]
/// must read it: index format 4 (paths stored as deltas), a split index (a `sharedindex.*`
/// file in the git dir: the entries are in two files), a path of 4,095 bytes or more, or
/// anything unexpected.
pub fn tracked_within(repo: &Repo, within: &str) -> Option<Tracked> {
    let full = format!("{}{within}", repo.prefix);
    let folder = format!("{full}/");
    read_entries(
        repo,
        Select::Within {
            file: full.as_bytes(),
            folder: folder.as_bytes(),
        },
    )
}

/// Which entries [`read_entries`] lists.
#[derive(Clone, Copy)]
enum Select<'a> {
    /// Every entry whose path starts with this (the root's prefix in the work tree, maybe
    /// empty): the whole index is read.
    Under(&'a [u8]),
    /// The entry at `file` and those under `folder` (`file` and a `/`): read only as far as
    /// they go.
    Within { file: &'a [u8], folder: &'a [u8] },
}

/// The entries of git's index that `select` picks, read from its bytes as
/// [`tracked_within`] says; `None` where that reading does not apply.
fn read_entries(repo: &Repo, select: Select<'_>) -> Option<Tracked> {
    use std::io::{Read, Seek, SeekFrom};
    let split = std::fs::read_dir(&repo.git_dir).ok()?.any(|e| {
        e.is_ok_and(|e| {
            e.file_name()
                .as_encoded_bytes()
                .starts_with(b"sharedindex.")
        })
    });
    if split {
        return None;
    }
    let path = repo.index_file();
    let mut file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    let size = usize::try_from(meta.len()).ok()?;
    let timestamp = meta.modified().ok()?;
    let since = timestamp.duration_since(std::time::UNIX_EPOCH).ok()?;
    let (stamp_secs, stamp_nsecs) = (since.as_secs(), since.subsec_nanos());
    // Read as far as the entries asked about go, a chunk at a time.
    let mut bytes: Vec<u8> = Vec::new();
    let mut more = |bytes: &mut Vec<u8>, upto: usize| -> Option<()> {
        if bytes.len() >= upto {
            return Some(());
        }
        // 64 KiB first (a folder early in a big index is read without the rest), then
        // doubling, so that a folder late in it is not copied over and over as the buffer grows.
        let want = upto.max(bytes.len() + bytes.len().max(64 * 1024)).min(size);
        if want < upto {
            return None;
        }
        // Read into the buffer's spare room, not over zeros written first (zeroing the
        // chunk was a tenth of reading it).
        let missing = want - bytes.len();
        bytes.reserve_exact(missing);
        (&mut file)
            .take(missing as u64)
            .read_to_end(bytes)
            .ok()
            .filter(|&read| read == missing)
            .map(|_| ())
    };
    // The whole index is read at once, when all of it is asked for.
    let first = match select {
        Select::Under(_) => size,
        Select::Within { .. } => 12,
    };
    more(&mut bytes, first)?;
    let be32 = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..4)? != b"DIRC" || !matches!(be32(&bytes, 4)?, 2 | 3) {
        return None;
    }
    let count = be32(&bytes, 8)? as usize;
    // One pass: each entry picked is checked as UTF-8 where it lies and kept at once (a copy
    // of the paths, checked in one call, and a list of where the entries begin were 30 pages
    // of fresh memory after every commit, each first touch 2–4 µs on the VM: issue 17).
    let mut out: Vec<TrackedFile> = match select {
        // Sized once for the whole index: at most every entry.
        Select::Under(_) => Vec::with_capacity(count.min(size / 62)),
        Select::Within { .. } => Vec::new(),
    };
    let mut at = 12;
    for _ in 0..count {
        if bytes.len() < at + 64 {
            more(&mut bytes, at + 64)?;
        }
        let flags = u16::from_be_bytes(bytes.get(at + 60..at + 62)?.try_into().ok()?);
        let extended = flags & 0x4000 != 0;
        let name_at = at + if extended { 64 } else { 62 };
        let len = usize::from(flags & 0x0fff);
        if len == 0x0fff {
            return None;
        }
        let entry_len = (name_at - at + len + 8) & !7;
        if bytes.len() < at + entry_len {
            more(&mut bytes, at + entry_len)?;
        }
        let b = bytes.as_slice();
        let name = b.get(name_at..name_at + len)?;
        let wanted = match select {
            // (An empty prefix is not compared: see `util::under_prefix`.)
            Select::Under(prefix) if !prefix.is_empty() && !name.starts_with(prefix) => {
                if name > prefix {
                    break; // sorted: nothing further is under the prefix
                }
                false
            }
            Select::Under(_) => true,
            Select::Within { folder, .. } if name > folder && !name.starts_with(folder) => {
                break; // sorted: nothing further is under the folder
            }
            Select::Within { file, folder } => name == file || name.starts_with(folder),
        };
        let mode = be32(b, at + 24)?;
        let entry = at;
        at += entry_len;
        if !(wanted && (mode == 0o100644 || mode == 0o100755 || mode == 0o120000)) {
            continue;
        }
        let Ok(rel) = std::str::from_utf8(&name[repo.prefix.len()..]) else {
            continue;
        };
        if let Some(last) = out.last_mut().filter(|l| l.path == rel) {
            last.trusted = false; // one path in several stages: a conflict
            continue;
        }
        let at = entry;
        let conflict = flags & 0x3000 != 0;
        let intent_to_add = extended && {
            let more = u16::from_be_bytes(b.get(at + 62..at + 64)?.try_into().ok()?);
            more & (1 << 13) != 0
        };
        let stat = IndexStat {
            ctime: (be32(b, at)?, be32(b, at + 4)?),
            mtime: (be32(b, at + 8)?, be32(b, at + 12)?),
            dev: be32(b, at + 16)?,
            ino: be32(b, at + 20)?,
            uid: be32(b, at + 28)?,
            gid: be32(b, at + 32)?,
            size: be32(b, at + 36)?,
        };
        // Racily clean, as `gix` tells it: changed in the second git wrote the index, at or
        // after its nanosecond.
        let racy = match stamp_secs.cmp(&u64::from(stat.mtime.0)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => stamp_nsecs <= stat.mtime.1,
            std::cmp::Ordering::Greater => false,
        };
        let mut blob = [0u8; 20];
        blob.copy_from_slice(b.get(at + 40..at + 60)?);
        out.push(TrackedFile {
            path: rel.to_string(),
            blob,
            stat,
            link: mode == 0o120000,
            trusted: !conflict && !intent_to_add && !racy,
        });
    }
    // The checksum git wrote at the end, as [`index_checksum`] reads it (already read when
    // the whole index was).
    let mut checksum = [0u8; 20];
    match bytes
        .get(size.checked_sub(20)?..)
        .filter(|_| bytes.len() == size)
    {
        Some(end) => checksum.copy_from_slice(end),
        None => {
            file.seek(SeekFrom::Start(u64::try_from(size.checked_sub(20)?).ok()?))
                .ok()?;
            file.read_exact(&mut checksum).ok()?;
        }
    }
    Some(Tracked {
        files: out,
        checksum: (checksum != [0u8; 20]).then_some(checksum),
    })
}

/// The id git gives a blob holding `bytes` (what `git hash-object` prints): a file whose bytes
/// hash to the blob git's index holds for it holds exactly that blob, whatever its state.
pub fn blob_id(bytes: &[u8]) -> Option<[u8; 20]> {
    let id = gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, bytes).ok()?;
    id.as_slice().try_into().ok()
}

/// Reads blobs from git's object database, for what a file holds in git's index rather than in
/// the work tree.
pub struct BlobReader {
    /// gix's handle, opened on first need (when it cannot open the repository, no blob is
    /// found).
    repo: super::repo::LazyGix,
    /// With [`BlobReader::loose_first`], the loose objects, read with one zlib state for all,
    /// and the packed ones, read without opening gix (issue 41).
    loose: Option<std::cell::RefCell<super::packed::Plain>>,
}

impl BlobReader {
    pub fn new(repo: &Repo) -> BlobReader {
        BlobReader {
            repo: super::repo::LazyGix::of(repo),
            loose: None,
        }
    }

    /// A reader for a few blobs that are likely loose (those just staged, as a commit hook
    /// reads them): each is looked for among the loose objects first, and read once, with one
    /// zlib state for all; anything else as [`BlobReader::new`] reads it.
    /// gix is opened only for a blob that is not loose (a commit hook's usually are).
    pub fn loose_first(repo: &Repo) -> BlobReader {
        let loose = super::packed::Plain::of_repo(repo)
            .ok()
            .map(std::cell::RefCell::new);
        BlobReader {
            repo: super::repo::LazyGix::of(repo),
            loose,
        }
    }

    fn gix(&self) -> Option<&gix::Repository> {
        self.repo.get().ok()
    }

    /// The first `window` bytes of the blob `id`, and whether it goes on past them; `None`
    /// when it is missing, not a blob, or larger than `max` bytes.
    pub fn head(&self, id: &[u8; 20], window: usize, max: u64) -> Option<(Vec<u8>, bool)> {
        use super::loose::Found;
        let id = gix::ObjectId::from_bytes_or_panic(id);
        if let Some(objects) = &self.loose {
            let objects = &mut *objects.borrow_mut();
            let mut data = Vec::new();
            // Only the window and one byte more are inflated: whether it goes on is its size's.
            match objects
                .loose
                .read(&id, &mut data, max, window.saturating_add(1))
            {
                Found::Read(gix::object::Kind::Blob, size) => {
                    data.truncate(window);
                    return Some((data, size > window as u64));
                }
                Found::Read(..) | Found::TooLarge => return None,
                Found::NotHere => {}
            }
            if let Some(kind) = objects.packed.read_within(&id, &mut data, max) {
                if kind != gix::object::Kind::Blob {
                    return None;
                }
                let longer = data.len() > window;
                data.truncate(window);
                return Some((data, longer));
            }
        }
        let header = self.gix()?.find_header(id).ok()?;
        if header.kind() != gix::object::Kind::Blob || header.size() > max {
            return None;
        }
        let mut blob = self.gix()?.find_blob(id).ok()?;
        let data = std::mem::take(&mut blob.data);
        let longer = data.len() > window;
        let mut data = data;
        data.truncate(window);
        Some((data, longer))
    }
}

#[cfg(test)]
mod home_tests {
    use super::home_name_of;

    #[test]
    fn a_forges_url_gives_the_repositorys_name_a_local_path_none() {
        for (url, name) in [
            ("https://github.com/acme-co/Ledger.git", Some("ledger")),
            ("git@github.com:acme-co/ledger.git", Some("ledger")),
            (
                "ssh://git@gitlab.example.com/group/sub/ledger",
                Some("ledger"),
            ),
            ("https://github.com/acme-co/ledger/", Some("ledger")),
            ("/srv/mirrors/ledger.git", None),
            ("../ledger", None),
            ("file:///srv/ledger.git", None),
        ] {
            assert_eq!(home_name_of(url).as_deref(), name, "{url}");
        }
    }
}
