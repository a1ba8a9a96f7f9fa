//! The redb index at `<git dir>/context-graph/index.redb` (CONTRACT.md §4, ADR-0006).
//!
//! It is a cache of what git and the files already say. Parsed records and guides are kept by
//! path with a fingerprint of the file; the history is kept as commits, the per-path commit
//! lists and the ids each message mentions. A query brings it up to date incrementally, then
//! hands the scan its cached parses and drift a sparse [`HistoryData`] holding just the commits
//! the answer needs: the same pure code computes the answer either way, so it equals a fresh
//! scan byte for byte.

mod cache;
pub mod codec;
pub mod migrations;
pub mod schema;

use crate::git::{self, CommitMeta, HistoryData, Rename, Repo, WalkedCommit};
use crate::governs::Pattern;
use crate::model::{IndexStatus, Record};
use crate::parse::ParsedRecord;
use crate::scan::{Inputs, Scan};
use cache::{walk_cache, Kind};
pub use cache::{Cached, MemoHit};
use redb::{
    Database, Durability, ReadOnlyDatabase, ReadableDatabase, ReadableTable, ReadableTableMetadata,
};
use schema::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A map keyed by commit number, with a hash made for numbers (SipHash was a few percent of an
/// answer).
type Numbered<V> = HashMap<u32, V, foldhash::fast::RandomState>;

/// Path → commit numbers, filled from range scans where one path's entries come together: a
/// run is gathered and moved into the map when the path changes, not looked up entry by entry.
#[derive(Default)]
struct PathLists {
    map: BTreeMap<String, Vec<u32>>,
    path: String,
    run: Vec<u32>,
}

impl PathLists {
    fn push(&mut self, path: &str, n: u32) {
        if path != self.path {
            self.flush();
            self.path.push_str(path);
        }
        self.run.push(n);
    }

    fn flush(&mut self) {
        if !self.run.is_empty() {
            let path = std::mem::take(&mut self.path);
            self.map.entry(path).or_default().append(&mut self.run);
        }
        self.path.clear();
    }

    fn finish(mut self) -> BTreeMap<String, Vec<u32>> {
        self.flush();
        self.map
    }
}

/// The number a pending commit goes by in an answer: from the top down, never a stored one.
fn pending_number(i: usize) -> u32 {
    u32::MAX - i as u32
}

/// How many commits the pending file holds at most: past that, a refresh writes them into redb.
const PENDING_MAX: usize = 32;

/// Which build wrote a pending file (one from another build is not read).
const PENDING_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/pending-1");

/// A new commit's values, encoded: the commit, what it changed, its metadata.
struct Encoded {
    n: u32,
    commit: Vec<u8>,
    changes: Vec<u8>,
    meta: Vec<u8>,
}

/// From how many path entries a refresh fills its two groups of tables on two threads.
const PARALLEL_INSERTS: usize = 4096;

/// How long a second process waits for the index before answering from a scan.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(3);

/// Why the index could not be used; the caller answers from a scan and says so once.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("the index {0} is busy (another context-graph is using it)")]
    Busy(PathBuf),
    #[error("the index {path} has schema version {found}, newer than this context-graph ({ours}); upgrade context-graph, or use --no-index")]
    Newer {
        path: PathBuf,
        found: u32,
        ours: u32,
    },
    #[error("cannot use the index {path}: {reason}")]
    Unusable { path: PathBuf, reason: String },
    #[error("git history: {0}")]
    History(#[from] git::HistoryError),
}

impl IndexError {
    fn unusable(path: &Path, reason: impl ToString) -> IndexError {
        IndexError::Unusable {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        }
    }
}

/// Where the index of the repository around `root` lives, with the repository; `None` outside a
/// git work tree (no index there).
pub fn locate(root: &Path) -> Result<Option<(Repo, PathBuf)>, IndexError> {
    Ok(git::open(root)?.map(|repo| {
        let path = repo.git_dir.join("context-graph").join("index.redb");
        (repo, path)
    }))
}

/// How to open the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Create or migrate as needed: every query and `index`.
    Update,
    /// Drop it first: `index --rebuild`.
    Rebuild,
    /// Only look: `index --status` neither creates, migrates nor rebuilds.
    Status,
}

/// An open index (holding the file's lock until dropped).
pub struct Index {
    db: Option<Handle>,
    wait: Duration,
    mode: Mode,
    pub path: PathBuf,
    /// The schema version of the file (below ours only when opened to look).
    pub schema_version: u32,
    pub repo: Repo,
    /// What happened on the way in (rebuilt after corruption, migrated), for stderr.
    pub diagnostics: Vec<String>,
    /// The pending commits found valid by the last refresh (newest first): part of the history
    /// as much as the stored ones.
    pending: Vec<WalkedCommit>,
    /// The pending file to write, encoded, when the last refresh made a new one.
    pending_write: Option<Vec<u8>>,
    /// Set by [`Index::gate_writes`]: opening to write first waits for its sender to go.
    write_gate: Option<std::sync::mpsc::Receiver<()>>,
}

/// A pending file to write: owned, so it can be written on another thread while the answer is
/// computed (a rename waits on the file system's journal, which a `git commit` just filled).
pub struct PendingWrite {
    path: PathBuf,
    bytes: Vec<u8>,
}

impl PendingWrite {
    /// Writes it to a new file renamed over the old (a reader sees one or the other, whole).
    /// Not synced: like every index write, a lost one is redone. The error is a note for stderr.
    pub fn write(self) -> Result<(), String> {
        let tmp = self
            .path
            .with_extension(format!("pending.{}", std::process::id()));
        std::fs::write(&tmp, &self.bytes)
            .and_then(|_| std::fs::rename(&tmp, &self.path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                format!(
                    "cannot keep the new commits in {}: {e}; the next query walks them again",
                    self.path.display()
                )
            })
    }
}

/// Runs `f`, turning a panic inside redb (a damaged file can make a plain open panic) into an
/// error, with the panic's message kept off stderr.
fn guarded<T>(path: &Path, f: impl FnOnce() -> Result<T, IndexError>) -> Result<T, IndexError> {
    GUARD.with(|g| g.set(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARD.with(|g| g.set(false));
    match out {
        Ok(r) => r,
        Err(_) => Err(IndexError::unusable(path, "the file is damaged")),
    }
}

thread_local! {
    static GUARD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic happening now is one the index catches and handles (the binary's panic
/// hook stays quiet for those).
pub fn panic_is_handled() -> bool {
    GUARD.with(|g| g.get())
}

enum Opened<D> {
    Db(D),
    Busy,
    Damaged(String),
    Io(String),
}

/// Opens with `open`, waiting up to `wait` while another process holds the file.
fn try_open<D>(
    wait: Duration,
    open: impl Fn() -> Result<D, redb::DatabaseError> + std::panic::RefUnwindSafe,
) -> Opened<D> {
    let deadline = Instant::now() + wait;
    loop {
        match std::panic::catch_unwind(&open) {
            Ok(Ok(db)) => return Opened::Db(db),
            Ok(Err(redb::DatabaseError::DatabaseAlreadyOpen)) => {
                if Instant::now() >= deadline {
                    return Opened::Busy;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            // redb reports a file that is not a redb database (bad magic number) as invalid
            // data: that is damage, not an unusable folder.
            Ok(Err(redb::DatabaseError::Storage(redb::StorageError::Io(e))))
                if e.kind() != std::io::ErrorKind::InvalidData =>
            {
                return Opened::Io(e.to_string())
            }
            Ok(Err(e)) => return Opened::Damaged(e.to_string()),
            Err(_) => return Opened::Damaged("the file is damaged".into()),
        }
    }
}

fn builder() -> redb::Builder {
    let mut b = Database::builder();
    b.set_cache_size(64 * 1024 * 1024);
    b
}

/// The file, opened to read only (shared with other readers, no write on open or close) or
/// to write.
enum Handle {
    Read(ReadOnlyDatabase),
    Write(Database),
}

impl Handle {
    fn begin_read(&self) -> Result<redb::ReadTransaction, redb::TransactionError> {
        match self {
            Handle::Read(db) => db.begin_read(),
            Handle::Write(db) => db.begin_read(),
        }
    }
}

impl Index {
    /// Opens the index of `repo`. A fresh-enough file is opened to read only, so a query that
    /// changes nothing writes nothing; [`Index::writable`] reopens it to write when needed
    /// (creating, migrating, or rebuilding a damaged file).
    pub fn open(
        repo: Repo,
        path: PathBuf,
        wait: Duration,
        mode: Mode,
    ) -> Result<Index, IndexError> {
        let mut index = Index {
            db: None,
            path,
            wait,
            mode,
            schema_version: SCHEMA_VERSION,
            repo,
            diagnostics: Vec::new(),
            pending: Vec::new(),
            pending_write: None,
            write_gate: None,
        };
        let empty = std::fs::metadata(&index.path).is_ok_and(|m| m.len() == 0);
        if mode == Mode::Rebuild {
            remove(&index.path)?;
        } else if empty && mode == Mode::Update {
            // redb would take an empty file for a new database: say the old one was lost.
            index.diagnostics.push(format!(
                "the index {} was empty (damaged); rebuilt it",
                index.path.display()
            ));
            remove(&index.path)?;
        } else if index.path.exists() {
            let p = index.path.clone();
            let read = guarded(&p, || {
                Ok(match try_open(wait, || builder().open_read_only(&p)) {
                    Opened::Db(db) => {
                        let version = migrations::version(&db).ok();
                        match version {
                            Some(v) if v > SCHEMA_VERSION => {
                                return Err(IndexError::Newer {
                                    path: p.clone(),
                                    found: v,
                                    ours: SCHEMA_VERSION,
                                })
                            }
                            Some(v) if v == SCHEMA_VERSION || mode == Mode::Status => Some((db, v)),
                            _ => None,
                        }
                    }
                    Opened::Busy => return Err(IndexError::Busy(p.clone())),
                    _ => None,
                })
            })?;
            if let Some((db, version)) = read {
                index.db = Some(Handle::Read(db));
                index.schema_version = version;
                return Ok(index);
            }
        }
        index.writable()?;
        Ok(index)
    }

    /// Makes the next open to write wait until `gate`'s sender sends or is dropped: another
    /// thread of this process holds a read of the file (see [`Cached::release`]), whose shared
    /// lock would keep the exclusive one out.
    pub fn gate_writes(&mut self, gate: std::sync::mpsc::Receiver<()>) {
        self.write_gate = Some(gate);
    }

    /// The file opened to write: reopened if it was open to read, created, migrated, or
    /// rebuilt when damaged.
    fn writable(&mut self) -> Result<&Database, IndexError> {
        if let Some(gate) = self.write_gate.take() {
            let _ = gate.recv(); // a message or the sender dropped: either way, go on
        }
        if !matches!(self.db, Some(Handle::Write(_))) {
            self.db = None; // release the shared lock before asking for the exclusive one
            let (db, version) = self.open_write()?;
            self.schema_version = version;
            self.db = Some(Handle::Write(db));
        }
        match &self.db {
            Some(Handle::Write(db)) => Ok(db),
            _ => unreachable!("just opened to write"),
        }
    }

    fn open_write(&mut self) -> Result<(Database, u32), IndexError> {
        let mode = self.mode;
        let wait = self.wait;
        let p = self.path.clone();
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(|e| IndexError::unusable(&p, e))?;
        }
        let diagnostics = &mut self.diagnostics;
        guarded(&p, || loop {
            match try_open(wait, || builder().create(&p)) {
                Opened::Db(db) => match Self::check_version(&db, &p, mode != Mode::Status) {
                    Ok(version) => return Ok((db, version)),
                    Err(IndexError::Unusable { reason, .. }) if mode != Mode::Status => {
                        drop(db);
                        diagnostics.push(format!(
                            "the index {} was damaged ({reason}); rebuilt it",
                            p.display()
                        ));
                        remove(&p)?;
                    }
                    Err(e) => return Err(e),
                },
                Opened::Busy => return Err(IndexError::Busy(p.clone())),
                Opened::Io(reason) => return Err(IndexError::unusable(&p, reason)),
                Opened::Damaged(reason) => {
                    if mode == Mode::Status || diagnostics.len() > 1 {
                        return Err(IndexError::unusable(&p, reason));
                    }
                    diagnostics.push(format!(
                        "the index {} was damaged ({reason}); rebuilt it",
                        p.display()
                    ));
                    remove(&p)?;
                }
            }
        })
    }

    /// Reopens the file to read only, if it was closed after a write.
    fn readable(&mut self) -> Result<(), IndexError> {
        if self.db.is_some() {
            return Ok(());
        }
        let p = self.path.clone();
        let wait = self.wait;
        let db = guarded(&p, || {
            match try_open(wait, || builder().open_read_only(&p)) {
                Opened::Db(db) => Ok(db),
                Opened::Busy => Err(IndexError::Busy(p.clone())),
                Opened::Io(reason) | Opened::Damaged(reason) => {
                    Err(IndexError::unusable(&p, reason))
                }
            }
        })?;
        self.db = Some(Handle::Read(db));
        Ok(())
    }

    fn read_txn(&self) -> Result<redb::ReadTransaction, IndexError> {
        self.db
            .as_ref()
            .ok_or_else(|| self.err("not open"))?
            .begin_read()
            .map_err(|e| self.err(e))
    }

    /// Migrates an older schema (when `migrate`); refuses a newer one; checks that the tables
    /// read. Returns the version the file is at.
    fn check_version(db: &Database, path: &Path, migrate: bool) -> Result<u32, IndexError> {
        let found = migrations::version(db).map_err(|e| IndexError::unusable(path, e))?;
        if found > SCHEMA_VERSION {
            return Err(IndexError::Newer {
                path: path.to_path_buf(),
                found,
                ours: SCHEMA_VERSION,
            });
        }
        if !migrate {
            return Ok(found);
        }
        if found < SCHEMA_VERSION {
            migrations::migrate(db, found, SCHEMA_VERSION)
                .map_err(|e| IndexError::unusable(path, e))?;
        }
        // A cheap read of every table: a damaged one fails here, not halfway through an answer.
        let txn = db.begin_read().map_err(|e| IndexError::unusable(path, e))?;
        let meta = txn
            .open_table(META)
            .map_err(|e| IndexError::unusable(path, e))?;
        for key in [KEY_HEAD, KEY_REACH, KEY_SCOPE] {
            meta.get(key).map_err(|e| IndexError::unusable(path, e))?;
        }
        Ok(SCHEMA_VERSION)
    }

    fn meta(&self, key: &str) -> Result<Option<Vec<u8>>, IndexError> {
        let txn = self.read_txn()?;
        let meta = txn.open_table(META).map_err(|e| self.err(e))?;
        Ok(meta
            .get(key)
            .map_err(|e| self.err(e))?
            .map(|v| v.value().to_vec()))
    }

    /// This index's file is unusable for `e` (a redb error, a stored value that does not decode).
    pub(crate) fn err(&self, e: impl ToString) -> IndexError {
        IndexError::unusable(&self.path, e)
    }

    /// The indexed HEAD, if the history part was ever built.
    pub fn indexed_head(&self) -> Result<Option<[u8; 20]>, IndexError> {
        Ok(self
            .meta(KEY_HEAD)?
            .and_then(|b| <[u8; 20]>::try_from(b.as_slice()).ok()))
    }

    // ----- records and guides -----

    /// The cached parses valid for `scope`, to serve a scan, and the last scan's memo: read
    /// as stored, decoded only when used.
    pub fn inputs(&self, scope: &Scope) -> Result<Cached, IndexError> {
        let txn = self.read_txn()?;
        let meta = txn.open_table(META).map_err(|e| self.err(e))?;
        let get = |key: &str| -> Result<Option<Vec<u8>>, IndexError> {
            Ok(meta
                .get(key)
                .map_err(|e| self.err(e))?
                .map(|v| v.value().to_vec()))
        };
        let same_scope = get(KEY_SCOPE)?
            .and_then(|b| codec::decode::<Scope>(&b).ok())
            .is_some_and(|s| &s == scope);
        let guide_walk = get(KEY_GUIDE_WALK)?
            .and_then(|b| codec::decode::<GuideWalkCache>(&b).ok())
            .filter(|w| &w.scope == scope);
        let memo = match (get(KEY_SCAN_MEMO)?, get(KEY_SCAN_MEMO_REPORT)?) {
            (Some(memo), Some(report)) if same_scope => Some((memo, report)),
            _ => None,
        };
        drop(meta);
        Ok(Cached::new(
            scope,
            same_scope.then_some(txn),
            guide_walk,
            memo,
        ))
    }

    /// Keeps what a scan parsed: new and changed files written, vanished ones removed. No
    /// write at all when nothing changed.
    pub fn store_inputs(&mut self, cached: &Cached, scan: &Scan) -> Result<(), IndexError> {
        let (parsed, guides, walk) = (&scan.parsed, &scan.guides, scan.guide_walk.as_ref());
        let seen = crate::util::locked(&cached.seen);
        let stored = crate::util::now_ns();
        // The memo of this scan replaces the last (which did not hold, or this scan would not
        // have run); when none can be made, the last is dropped.
        let memo = cached.memo_of(scan);
        let mut record_writes = Vec::new();
        for p in parsed {
            if let Some(fp) = seen.get(&(Kind::Record, p.path.clone())) {
                record_writes.push((
                    p.path.clone(),
                    codec::encode(&CachedRecord {
                        fingerprint: *fp,
                        stored_ns: stored,
                        parsed: p.clone(),
                    }),
                ));
            }
        }
        let mut guide_writes = Vec::new();
        for g in guides {
            if let Some(fp) = seen.get(&(Kind::Guide, g.path.clone())) {
                guide_writes.push((
                    g.path.clone(),
                    codec::encode(&CachedGuide {
                        fingerprint: *fp,
                        stored_ns: stored,
                        guide: g.clone(),
                    }),
                ));
            }
        }
        cached.release(true);
        let raw = cached.raw().map_err(|e| self.err(e))?;
        let live_records: HashSet<&str> = parsed.iter().map(|p| p.path.as_str()).collect();
        let live_guides: HashSet<&str> = guides.iter().map(|g| g.path.as_str()).collect();
        let gone_records: Vec<&String> = raw
            .records
            .keys()
            .filter(|k| !live_records.contains(k.as_str()))
            .collect();
        let gone_guides: Vec<&String> = raw
            .guides
            .keys()
            .filter(|k| !live_guides.contains(k.as_str()))
            .collect();
        let walk_write = walk.map(|w| codec::encode(&walk_cache(&cached.scope, w, stored)));
        if cached.same_scope
            && memo.is_none()
            && cached.memo.is_none()
            && walk_write.is_none()
            && record_writes.is_empty()
            && guide_writes.is_empty()
            && gone_records.is_empty()
            && gone_guides.is_empty()
        {
            return Ok(());
        }
        let txn = self.write_txn()?;
        {
            let mut records = txn.open_table(RECORDS).map_err(|e| self.err(e))?;
            let mut guide_table = txn.open_table(GUIDES).map_err(|e| self.err(e))?;
            let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
            if !cached.same_scope {
                records.retain(|_, _| false).map_err(|e| self.err(e))?;
                guide_table.retain(|_, _| false).map_err(|e| self.err(e))?;
                meta.insert(KEY_SCOPE, codec::encode(&cached.scope).as_slice())
                    .map_err(|e| self.err(e))?;
            }
            let mut edges = txn.open_table(EDGES).map_err(|e| self.err(e))?;
            if !cached.same_scope {
                edges.retain(|_, _| false).map_err(|e| self.err(e))?;
            }
            let stale = gone_records
                .iter()
                .map(|k| k.as_str())
                .chain(record_writes.iter().map(|(k, _)| k.as_str()));
            for path in stale {
                edges
                    .retain_in((path, "", "")..(path, "\u{10ffff}", ""), |_, _| false)
                    .map_err(|e| self.err(e))?;
            }
            for p in parsed
                .iter()
                .filter(|p| record_writes.iter().any(|(k, _)| k == &p.path))
            {
                for (relation, target) in edges_of(p) {
                    edges
                        .insert((p.path.as_str(), relation, target.as_str()), ())
                        .map_err(|e| self.err(e))?;
                }
            }
            for k in gone_records {
                records.remove(k.as_str()).map_err(|e| self.err(e))?;
            }
            for k in gone_guides {
                guide_table.remove(k.as_str()).map_err(|e| self.err(e))?;
            }
            for (k, v) in &record_writes {
                records
                    .insert(k.as_str(), v.as_slice())
                    .map_err(|e| self.err(e))?;
            }
            for (k, v) in &guide_writes {
                guide_table
                    .insert(k.as_str(), v.as_slice())
                    .map_err(|e| self.err(e))?;
            }
            if let Some(w) = &walk_write {
                meta.insert(KEY_GUIDE_WALK, w.as_slice())
                    .map_err(|e| self.err(e))?;
            }
            match &memo {
                Some((m, report)) => {
                    meta.insert(KEY_SCAN_MEMO, m.as_slice())
                        .map_err(|e| self.err(e))?;
                    meta.insert(KEY_SCAN_MEMO_REPORT, report.as_slice())
                        .map_err(|e| self.err(e))?;
                }
                None => {
                    for key in [KEY_SCAN_MEMO, KEY_SCAN_MEMO_REPORT] {
                        meta.remove(key).map_err(|e| self.err(e))?;
                    }
                }
            }
        }
        txn.commit().map_err(|e| self.err(e))
    }

    /// A write transaction that is not made durable on its own: the index is a cache, a lost
    /// last update is redone next time, and a clean exit makes it durable (ADR-0006).
    fn write_txn(&mut self) -> Result<redb::WriteTransaction, IndexError> {
        let mut txn = self.writable()?.begin_write().map_err(|e| self.err(e))?;
        txn.set_durability(Durability::None)
            .map_err(|e| self.err(e))?;
        Ok(txn)
    }

    // ----- history -----

    /// The pending commits file beside the index.
    fn pending_path(&self) -> PathBuf {
        self.path.with_extension("pending")
    }

    /// The pending commits, when they rest on `indexed` and the same shallow boundary.
    fn read_pending(&self, indexed: Option<[u8; 20]>, shallow: &[u8]) -> Option<Pending> {
        let bytes = std::fs::read(self.pending_path()).ok()?;
        let p: Pending = codec::decode(&bytes).ok()?;
        (p.made_by == PENDING_MADE_BY && Some(p.base) == indexed && p.shallow == shallow)
            .then_some(p)
    }

    /// The pending commits the last refresh found, to be written beside the index: the answer
    /// does not wait for the write (see [`PendingWrite`]).
    pub fn take_pending_write(&mut self) -> Option<PendingWrite> {
        self.pending_write.take().map(|bytes| PendingWrite {
            path: self.pending_path(),
            bytes,
        })
    }

    /// Brings the history up to HEAD: walks only the commits not indexed yet. A fast-forward of
    /// a few commits is kept in the pending file beside the index (no redb write); anything
    /// else (or `fold`, for `index`) writes them all into redb, then removes what no local
    /// branch nor HEAD reaches any more. Returns how many commits were walked.
    pub fn refresh_history(
        &mut self,
        progress: Option<&(dyn Fn(usize, usize) + Sync)>,
        fold: bool,
    ) -> Result<usize, IndexError> {
        let head = self.repo.head;
        let mut indexed = self.indexed_head()?;
        // A shallow clone's boundary commits were diffed against nothing: when the boundary
        // moves (deepen, unshallow), what was indexed for them is wrong, so start over.
        let shallow_now = self.repo.shallow_boundary();
        let shallow_then = self.meta(KEY_SHALLOW)?;
        let same_shallow = shallow_then.as_deref() == Some(shallow_now.as_slice());
        let reach_bytes = self.meta(KEY_REACH)?;
        let has_reach = reach_bytes.is_some();
        let mut pending = self
            .read_pending(indexed, &shallow_now)
            .filter(|_| same_shallow && has_reach);
        let effective = pending.as_ref().map(|p| Some(p.head)).unwrap_or(indexed);
        if head == effective && same_shallow && has_reach && !(fold && pending.is_some()) {
            self.pending = pending.map(|p| p.commits).unwrap_or_default();
            return Ok(0);
        }
        if shallow_then.is_some_and(|then| then != shallow_now) {
            self.clear_history()?;
            indexed = None;
            pending = None;
        }
        // (After `clear_history` there is no indexed HEAD, so the bytes read above are not used.)
        let old_reach: Option<Reach> = match (indexed, reach_bytes) {
            (Some(_), Some(b)) => Some(codec::decode(&b).map_err(|e| self.err(e))?),
            _ => None,
        };
        let pending_commits = pending.map(|p| p.commits).unwrap_or_default();
        let pending_ids: HashSet<[u8; 20]> = pending_commits.iter().map(|c| c.id).collect();
        // Which commits are known: a lookup each, shared by the walk's threads.
        let (new, fast_forward) = {
            let txn = self.read_txn()?;
            let ids = Mutex::new(txn.open_table(COMMIT_IDS).map_err(|e| self.err(e))?);
            let number = |id: &[u8; 20]| {
                let ids = crate::util::locked(&ids);
                ids.get(id).ok().flatten().map(|v| v.value())
            };
            let known = |id: &[u8; 20]| pending_ids.contains(id) || number(id).is_some();
            let new = match head {
                Some(tip) if !known(&tip) => git::walk_new(&self.repo, tip, &known, progress)?,
                _ => Vec::new(),
            };
            // A fast-forward of the effective HEAD: the new commits rest on it and on commits
            // it reached (stored ones HEAD reached, or pending ones).
            let walked: HashSet<[u8; 20]> = new.iter().map(|c| c.id).collect();
            let boundary: HashSet<[u8; 20]> = new
                .iter()
                .flat_map(|c| c.parents.iter().copied())
                .filter(|p| !walked.contains(p))
                .collect();
            let fast_forward = match (&old_reach, effective) {
                (Some(reach), Some(eff)) => {
                    !new.is_empty()
                        && boundary.contains(&eff)
                        && boundary.iter().all(|b| {
                            pending_ids.contains(b) || number(b).is_some_and(|n| reach.contains(n))
                        })
                }
                _ => false,
            };
            (new, fast_forward)
        };
        let added = new.len();
        if !fold && fast_forward && new.len() + pending_commits.len() <= PENDING_MAX {
            if let (Some(base), Some(tip)) = (indexed, head) {
                let mut commits = new;
                commits.extend(pending_commits);
                self.pending_write = Some(codec::encode(&Pending {
                    made_by: PENDING_MADE_BY.to_string(),
                    base,
                    shallow: shallow_now,
                    head: tip,
                    commits: commits.clone(),
                }));
                self.pending = commits;
                return Ok(added);
            }
        }
        // Everything goes into redb: the walked commits and the pending ones (newest first).
        let folded_pending = !pending_commits.is_empty();
        let mut new = new;
        new.extend(pending_commits);
        let txn = self.write_txn()?;
        {
            let mut commits = txn.open_table(COMMITS).map_err(|e| self.err(e))?;
            let mut changes_t = txn.open_table(COMMIT_CHANGES).map_err(|e| self.err(e))?;
            let mut commit_ids = txn.open_table(COMMIT_IDS).map_err(|e| self.err(e))?;
            let mut paths = txn.open_table(PATHS).map_err(|e| self.err(e))?;
            let mut renames = txn.open_table(RENAMES).map_err(|e| self.err(e))?;
            let mut mentions = txn.open_table(MENTIONS).map_err(|e| self.err(e))?;
            let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
            let mut graph_t = txn.open_table(GRAPH).map_err(|e| self.err(e))?;
            // The last chunk of the graph: where new commits are appended.
            let last_chunk = graph_t
                .last()
                .map_err(|e| self.err(e))?
                .map(|(k, _)| k.value())
                .unwrap_or(0);
            let mut graph = load_graph(&graph_t, last_chunk).map_err(|e| self.err(e))?;

            // Number the new commits (oldest first, so parents come before children where
            // possible), then store them with their parents as numbers.
            let first = graph.end();
            let fresh: HashMap<[u8; 20], u32> = new
                .iter()
                .rev()
                .enumerate()
                .map(|(i, c)| (c.id, first + i as u32))
                .collect();
            let number = |id: &[u8; 20],
                          table: &redb::Table<&[u8; 20], u32>|
             -> Result<Option<u32>, IndexError> {
                if let Some(&n) = fresh.get(id) {
                    return Ok(Some(n));
                }
                Ok(table
                    .get(id)
                    .map_err(|e| IndexError::unusable(&self.path, e))?
                    .map(|v| v.value()))
            };
            // (key, index into `stored`): `paths` and `mentions` carry the commit's metadata.
            let mut path_keys: Vec<(&str, u32, usize)> = Vec::new();
            let mut mention_keys: Vec<(&str, u32, usize)> = Vec::new();
            let mut rename_keys: Vec<(&str, u32, &str)> = Vec::new();
            let mut parent_lists: Vec<(u32, Vec<u32>)> = Vec::with_capacity(new.len());
            for (slot, c) in new.iter().enumerate() {
                let n = fresh[&c.id];
                let mut parents = Vec::with_capacity(c.parents.len());
                for p in &c.parents {
                    if let Some(pn) = number(p, &commit_ids)? {
                        parents.push(pn);
                    }
                }
                path_keys.extend(c.changes.iter().map(|p| (p.as_str(), n, slot)));
                mention_keys.extend(c.meta.mentions.iter().map(|id| (id.as_str(), n, slot)));
                rename_keys.extend(
                    c.renames
                        .iter()
                        .map(|(from, to)| (to.as_str(), n, from.as_str())),
                );
                parent_lists.push((n, parents));
            }
            // Each commit's values (the commit, its changes, its metadata), on every core.
            let slots: Vec<usize> = (0..new.len()).collect();
            let stored: Vec<Encoded> =
                crate::util::parallel_map_from(PARALLEL_INSERTS, &slots, |&slot| {
                    let (c, (n, parents)) = (&new[slot], &parent_lists[slot]);
                    let record = StoredCommit {
                        id: c.id,
                        parents: parents.clone(),
                        time: c.meta.time,
                        author: c.meta.author.to_string(),
                        subject: c.meta.subject.to_string(),
                        mentions: c.meta.mentions.clone(),
                        is_merge: c.meta.is_merge,
                    };
                    let touched = StoredChanges {
                        changes: c.changes.clone(),
                        renames: c.renames.clone(),
                    };
                    Encoded {
                        n: *n,
                        commit: codec::encode(&record),
                        changes: codec::encode(&touched),
                        meta: codec::encode(&StoredMeta::of(&record)),
                    }
                });
            // Inserting in key order keeps redb's pages warm: much faster for a first build.
            parent_lists.sort_unstable();
            for (_, parents) in &parent_lists {
                graph.push(parents);
            }
            // Two groups of tables, filled side by side when there is much to insert (a first
            // build): the per-path ones, and the per-commit ones.
            let many = path_keys.len() >= PARALLEL_INSERTS;
            let per_path = |paths: &mut redb::Table<(&str, u32), &[u8]>,
                            mentions: &mut redb::Table<(&str, u32), &[u8]>,
                            renames: &mut redb::Table<(&str, u32), &str>|
             -> Result<(), redb::StorageError> {
                path_keys.sort_unstable();
                for (path, n, slot) in path_keys {
                    paths.insert((path, n), stored[slot].meta.as_slice())?;
                }
                mention_keys.sort_unstable();
                for (id, n, slot) in mention_keys {
                    mentions.insert((id, n), stored[slot].meta.as_slice())?;
                }
                rename_keys.sort_unstable();
                for (to, n, from) in rename_keys {
                    renames.insert((to, n), from)?;
                }
                Ok(())
            };
            let mut by_number: Vec<usize> = (0..stored.len()).collect();
            by_number.sort_unstable_by_key(|&i| stored[i].n);
            let mut id_keys: Vec<(&[u8; 20], u32)> = fresh.iter().map(|(id, n)| (id, *n)).collect();
            id_keys.sort_unstable();
            let per_commit = |commits: &mut redb::Table<u32, &[u8]>,
                              changes_t: &mut redb::Table<u32, &[u8]>,
                              commit_ids: &mut redb::Table<&[u8; 20], u32>|
             -> Result<(), redb::StorageError> {
                for &i in &by_number {
                    commits.insert(stored[i].n, stored[i].commit.as_slice())?;
                }
                for &i in &by_number {
                    changes_t.insert(stored[i].n, stored[i].changes.as_slice())?;
                }
                for (id, n) in id_keys {
                    commit_ids.insert(id, n)?;
                }
                Ok(())
            };
            let (a, b) = if many {
                std::thread::scope(|s| {
                    let a = s.spawn(|| per_path(&mut paths, &mut mentions, &mut renames));
                    std::thread::yield_now(); // see `scan_with`: let it start now
                    let b = per_commit(&mut commits, &mut changes_t, &mut commit_ids);
                    (a.join().expect("an index insert panicked"), b)
                })
            } else {
                (
                    per_path(&mut paths, &mut mentions, &mut renames),
                    per_commit(&mut commits, &mut changes_t, &mut commit_ids),
                )
            };
            a.and(b).map_err(|e| self.err(e))?;

            // Reachable from HEAD: what drift counts.
            let head_n = match &head {
                Some(h) => number(h, &commit_ids)?,
                None => None,
            };
            let old_head_n = match &indexed {
                Some(h) => number(h, &commit_ids)?,
                None => None,
            };
            // A fast-forward: the new commits rest on the old HEAD and on commits it reached,
            // so what HEAD reaches now is what it reached plus them; no need for the graph.
            let boundary: HashSet<u32> = parent_lists
                .iter()
                .flat_map(|(_, ps)| ps.iter().copied())
                .filter(|p| *p < first)
                .collect();
            // (Only when every new commit was walked from HEAD: pending ones folded in may lead
            // elsewhere, after a reset say.)
            let fast = match (&old_reach, old_head_n) {
                (Some(old), Some(o)) => {
                    !new.is_empty()
                        && !folded_pending
                        && boundary.contains(&o)
                        && boundary.iter().all(|b| old.contains(*b))
                }
                _ => false,
            };
            if !fast && graph.base > 0 {
                // Every commit's parents are needed: the whole graph, with the new ones.
                let tail = graph;
                graph = load_graph(&graph_t, 0).map_err(|e| self.err(e))?;
                for n in graph.end()..tail.end() {
                    graph.push(tail.parents_of(n));
                }
            }
            let reach = match (&old_reach, fast) {
                (Some(old), true) => {
                    let mut r = old.clone();
                    for n in fresh.values() {
                        r.insert(*n);
                    }
                    r
                }
                _ => graph.reach(head_n.into_iter()),
            };
            // Keep what HEAD or a local branch reaches; drop the rest (reset, amend, rebase).
            let descends = old_head_n.is_none_or(|o| reach.contains(o));
            if !descends {
                let mut tips: Vec<u32> = head_n.into_iter().collect();
                for t in &self.repo.local_branches {
                    if let Some(n) = number(t, &commit_ids)? {
                        tips.push(n);
                    }
                }
                let keep = graph.reach(tips.into_iter());
                for n in 0..graph.end() {
                    if graph.is_alive(n) && !keep.contains(n) {
                        let Some(bytes) = commits.remove(n).map_err(|e| self.err(e))? else {
                            continue;
                        };
                        let c: StoredCommit =
                            codec::decode(bytes.value()).map_err(|e| self.err(e))?;
                        drop(bytes);
                        let touched: StoredChanges =
                            match changes_t.remove(n).map_err(|e| self.err(e))? {
                                Some(b) => codec::decode(b.value()).map_err(|e| self.err(e))?,
                                None => StoredChanges {
                                    changes: Vec::new(),
                                    renames: Vec::new(),
                                },
                            };
                        for path in &touched.changes {
                            paths.remove((path.as_str(), n)).map_err(|e| self.err(e))?;
                        }
                        for (_, to) in &touched.renames {
                            renames.remove((to.as_str(), n)).map_err(|e| self.err(e))?;
                        }
                        for id in &c.mentions {
                            mentions.remove((id.as_str(), n)).map_err(|e| self.err(e))?;
                        }
                        commit_ids.remove(&c.id).map_err(|e| self.err(e))?;
                        graph.kill(n);
                    }
                }
            }
            // Only the chunks that changed: from the first new commit on, or all after a drop.
            let changed_from = if descends { first } else { 0 };
            store_graph(&mut graph_t, &graph, changed_from).map_err(|e| self.err(e))?;
            meta.insert(KEY_REACH, codec::encode(&reach).as_slice())
                .map_err(|e| self.err(e))?;
            let head_bytes: &[u8] = match &head {
                Some(h) => h.as_slice(),
                None => &[],
            };
            meta.insert(KEY_HEAD, head_bytes).map_err(|e| self.err(e))?;
            meta.insert(KEY_SHALLOW, shallow_now.as_slice())
                .map_err(|e| self.err(e))?;
        }
        txn.commit().map_err(|e| self.err(e))?;
        // The pending commits are stored now (a stale file would not match the new HEAD
        // anyway, but it need not be read again).
        let _ = std::fs::remove_file(self.pending_path());
        self.pending.clear();
        // Close now (on this thread, which may run beside the scan): redb makes the commit
        // durable on close, and the reads that follow reopen the file to read only.
        self.db = None;
        Ok(added)
    }

    /// Drops the history part (commits, paths, renames, mentions, graph, reach, head).
    fn clear_history(&mut self) -> Result<(), IndexError> {
        let txn = self.write_txn()?;
        txn.delete_table(COMMITS).map_err(|e| self.err(e))?;
        txn.delete_table(COMMIT_CHANGES).map_err(|e| self.err(e))?;
        txn.delete_table(COMMIT_IDS).map_err(|e| self.err(e))?;
        txn.delete_table(PATHS).map_err(|e| self.err(e))?;
        txn.delete_table(RENAMES).map_err(|e| self.err(e))?;
        txn.delete_table(MENTIONS).map_err(|e| self.err(e))?;
        txn.delete_table(GRAPH).map_err(|e| self.err(e))?;
        // Made again, empty, in the same transaction: the walk that follows reads them.
        migrations::create_tables(&txn).map_err(|e| self.err(e))?;
        {
            let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
            for key in [KEY_REACH, KEY_HEAD, KEY_SHALLOW] {
                meta.remove(key).map_err(|e| self.err(e))?;
            }
        }
        txn.commit().map_err(|e| self.err(e))
    }

    /// The history a set of records needs, read from the index: only the commits that touch
    /// their governed paths or their files (and the files' earlier names), or mention their ids,
    /// among those HEAD reaches. `drift::fill` gives the same answer on it as on a full walk.
    pub fn history_for(&mut self, records: &[Record]) -> Result<HistoryData, IndexError> {
        self.readable()?;
        let reach: Reach = match self.meta(KEY_REACH)? {
            Some(b) => codec::decode(&b).map_err(|e| self.err(e))?,
            None => Reach::default(),
        };
        let prefix = self.repo.prefix.as_str();
        let txn = self.read_txn()?;
        let paths = txn.open_table(PATHS).map_err(|e| self.err(e))?;
        let renames_t = txn.open_table(RENAMES).map_err(|e| self.err(e))?;
        let mentions = txn.open_table(MENTIONS).map_err(|e| self.err(e))?;

        // (root-relative path) → commit numbers, for every path the answer may look at; and
        // each commit's metadata, read from the same entries the first time it shows up.
        let mut by_path = PathLists::default();
        let mut renames: Vec<(u32, String, String)> = Vec::new();
        let mut found: Numbered<CommitMeta> = Numbered::default();
        let keep =
            |n: u32, value: &[u8], found: &mut Numbered<CommitMeta>| -> Result<(), IndexError> {
                if let std::collections::hash_map::Entry::Vacant(slot) = found.entry(n) {
                    let m: StoredMetaRef =
                        codec::decode_borrowed(value).map_err(|e| self.err(e))?;
                    slot.insert(CommitMeta {
                        sha: git::sha_hex(&m.id),
                        time: m.time,
                        author: m.author.into(),
                        subject: m.subject.into(),
                        mentions: m.mentions.iter().map(|id| id.to_string()).collect(),
                        is_merge: m.is_merge,
                    });
                }
                Ok(())
            };
        // Every stored (and pending) commit touching a path `pattern` matches: one range scan
        // from its literal prefix (paths are stored relative to the work tree's top).
        let scan_range = |pattern: &Pattern,
                          by_path: &mut PathLists,
                          found: &mut Numbered<CommitMeta>|
         -> Result<(), IndexError> {
            let start = format!("{prefix}{}", pattern.range_prefix());
            for entry in paths
                .range((start.as_str(), 0u32)..)
                .map_err(|e| self.err(e))?
            {
                let (k, v) = entry.map_err(|e| self.err(e))?;
                let (path, n) = k.value();
                if !path.starts_with(start.as_str()) {
                    break;
                }
                let rel = &path[prefix.len()..];
                if reach.contains(n) && pattern.matches(rel) {
                    by_path.push(rel, n);
                    keep(n, v.value(), found)?;
                }
            }
            // The pending commits, all reached by HEAD (a fast-forward), numbered down from
            // the top so they never meet a stored number.
            for (i, c) in self.pending.iter().enumerate() {
                let n = pending_number(i);
                for path in &c.changes {
                    let Some(rel) = path.strip_prefix(prefix) else {
                        continue;
                    };
                    if pattern.matches(rel) {
                        by_path.push(rel, n);
                        found.entry(n).or_insert_with(|| c.meta.clone());
                    }
                }
            }
            Ok(())
        };
        for r in records {
            if r.status.is_current() {
                for g in &r.governs {
                    scan_range(&Pattern::new(g), &mut by_path, &mut found)?;
                }
            }
            // The record file, and its earlier names back through renames.
            let mut todo = vec![r.path.clone()];
            let mut seen = HashSet::new();
            while let Some(p) = todo.pop() {
                if !seen.insert(p.clone()) {
                    continue;
                }
                scan_range(&Pattern::File(&p), &mut by_path, &mut found)?;
                let full = format!("{prefix}{p}");
                for entry in renames_t
                    .range((full.as_str(), 0u32)..)
                    .map_err(|e| self.err(e))?
                {
                    let (k, v) = entry.map_err(|e| self.err(e))?;
                    let (to, n) = k.value();
                    if to != full {
                        break;
                    }
                    if reach.contains(n) {
                        if let Some(from) = v.value().strip_prefix(prefix) {
                            renames.push((n, from.to_string(), p.clone()));
                            todo.push(from.to_string());
                        }
                    }
                }
                for (i, c) in self.pending.iter().enumerate() {
                    for (from, to) in &c.renames {
                        if *to == full {
                            if let Some(from) = from.strip_prefix(prefix) {
                                renames.push((pending_number(i), from.to_string(), p.clone()));
                                todo.push(from.to_string());
                            }
                        }
                    }
                }
            }
            for entry in mentions
                .range((r.id.as_str(), 0u32)..)
                .map_err(|e| self.err(e))?
            {
                let (k, v) = entry.map_err(|e| self.err(e))?;
                let (id, n) = k.value();
                if id != r.id {
                    break;
                }
                if reach.contains(n) {
                    keep(n, v.value(), &mut found)?;
                }
            }
            for (i, c) in self.pending.iter().enumerate() {
                if c.meta.mentions.contains(&r.id) {
                    found
                        .entry(pending_number(i))
                        .or_insert_with(|| c.meta.clone());
                }
            }
        }
        // The commits, in the canonical order (newest first, ties by sha); references are
        // sorted, not the metadata itself.
        let mut order: Vec<(u32, &CommitMeta)> = found.iter().map(|(&n, m)| (n, m)).collect();
        order.sort_unstable_by(|a, b| git::canonical_order(a.1, b.1));
        let order: Vec<u32> = order.into_iter().map(|(n, _)| n).collect();
        let position: Numbered<u32> = order
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i as u32))
            .collect();
        let metas: Vec<CommitMeta> = order.iter().filter_map(|n| found.remove(n)).collect();
        let by_path = by_path
            .finish()
            .into_iter()
            .map(|(p, ns)| {
                let mut idx: Vec<u32> =
                    ns.iter().filter_map(|n| position.get(n).copied()).collect();
                idx.sort_unstable();
                (p, idx)
            })
            .collect();
        let mut renames: Vec<Rename> = renames
            .into_iter()
            .filter_map(|(n, from, to)| position.get(&n).map(|&commit| Rename { commit, from, to }))
            .collect();
        renames.sort_by(|a, b| (a.commit, &a.from, &a.to).cmp(&(b.commit, &b.from, &b.to)));
        renames.dedup();
        Ok(HistoryData {
            head: self.repo.head.map(|h| git::sha_hex(&h)).unwrap_or_default(),
            shallow: self.repo.shallow,
            commits: metas,
            by_path,
            renames,
            total_commits: reach.count() + self.pending.len(),
        })
    }

    /// `index --status`: reports, never updates.
    pub fn status(&mut self, root: &Path, docs: &[String]) -> Result<IndexStatus, IndexError> {
        self.readable()?;
        let stored_head = self.indexed_head()?;
        // Pending commits count as indexed: the history answers for them.
        let shallow = self.repo.shallow_boundary();
        let pending = if self.meta(KEY_SHALLOW)?.as_deref() == Some(shallow.as_slice()) {
            self.read_pending(stored_head, &shallow)
        } else {
            None
        };
        let indexed = pending
            .as_ref()
            .map(|p| Some(p.head))
            .unwrap_or(stored_head);
        let txn = self.read_txn()?;
        let records = txn
            .open_table(RECORDS)
            .map_err(|e| self.err(e))?
            .len()
            .map_err(|e| self.err(e))?;
        let commits = txn
            .open_table(COMMITS)
            .map_err(|e| self.err(e))?
            .len()
            .map_err(|e| self.err(e))?
            + pending.map_or(0, |p| p.commits.len() as u64);
        // Status looks at older files too: before schema 4, `paths` held no values.
        let distinct = if self.schema_version < 4 {
            distinct_paths(&txn, migrations::v1_initial::PATHS_V1)
        } else {
            distinct_paths(&txn, PATHS)
        }
        .map_err(|e| self.err(e))?;
        let scope = Scope {
            root: root.display().to_string(),
            docs: docs.to_vec(),
        };
        let files_fresh = self.files_fresh(&scope)?;
        let head = self.repo.head.map(|h| git::sha_hex(&h));
        let indexed_head = indexed.map(|h| git::sha_hex(&h));
        Ok(IndexStatus {
            path: self.path.display().to_string(),
            schema_version: self.schema_version,
            fresh: self.schema_version == SCHEMA_VERSION
                && files_fresh
                && head == indexed_head
                && self.meta(KEY_REACH)?.is_some(),
            head,
            indexed_head,
            records,
            commits,
            paths: distinct,
        })
    }

    /// Whether every record file is cached and unchanged (no file is read).
    fn files_fresh(&self, scope: &Scope) -> Result<bool, IndexError> {
        let cached = self.inputs(scope)?;
        if !cached.same_scope {
            return Ok(false);
        }
        let root = Path::new(&scope.root);
        let Ok(folders) = crate::fs::discover::record_folders(root, &scope.docs) else {
            return Ok(false);
        };
        let (files, _) = crate::fs::discover::record_files(root, &folders);
        Ok(files.len() == cached.records().len()
            && files.iter().all(|f| cached.record(f).is_some()))
    }
}

/// How many paths a `paths` table lists commits for.
fn distinct_paths<V: redb::Value + 'static>(
    txn: &redb::ReadTransaction,
    table: redb::TableDefinition<(&str, u32), V>,
) -> Result<u64, redb::Error> {
    let mut distinct = 0u64;
    let mut last: Option<String> = None;
    for entry in txn.open_table(table)?.iter()? {
        let (k, _) = entry?;
        let (p, _) = k.value();
        if last.as_deref() != Some(p) {
            distinct += 1;
            last = Some(p.to_string());
        }
    }
    Ok(distinct)
}

fn remove(path: &Path) -> Result<(), IndexError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(IndexError::unusable(path, e)),
    }
}

/// Commits per stored chunk of the graph: appending a commit rewrites one chunk.
pub(crate) const GRAPH_CHUNK: u32 = 4096;

/// The commit graph as numbers, from commit `base` on: each commit's parents (flat, with
/// offsets), and whether it is still kept. A dropped commit keeps its slot; nothing kept
/// reaches it. Stored in chunks of [`GRAPH_CHUNK`] commits (`base` is then the chunk's first).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Graph {
    #[serde(skip)]
    pub(crate) base: u32,
    offsets: Vec<u32>,
    parents: Vec<u32>,
    alive: Vec<bool>,
}

impl Graph {
    /// One past the last commit number it holds.
    pub(crate) fn end(&self) -> u32 {
        self.base + self.alive.len() as u32
    }

    pub(crate) fn push(&mut self, parents: &[u32]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.parents.extend_from_slice(parents);
        self.offsets.push(self.parents.len() as u32);
        self.alive.push(true);
    }

    pub(crate) fn parents_of(&self, n: u32) -> &[u32] {
        let Some(i) = n.checked_sub(self.base).map(|i| i as usize) else {
            return &[];
        };
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.parents[a as usize..b as usize],
            _ => &[],
        }
    }

    pub(crate) fn is_alive(&self, n: u32) -> bool {
        n.checked_sub(self.base)
            .and_then(|i| self.alive.get(i as usize).copied())
            .unwrap_or(false)
    }

    pub(crate) fn kill(&mut self, n: u32) {
        if let Some(slot) = n
            .checked_sub(self.base)
            .and_then(|i| self.alive.get_mut(i as usize))
        {
            *slot = false;
        }
    }

    /// The commits from `from` to `to` (exclusive) as a graph of their own.
    fn slice(&self, from: u32, to: u32) -> Graph {
        let mut g = Graph {
            base: from,
            ..Graph::default()
        };
        for n in from..to {
            g.push(self.parents_of(n));
            if !self.is_alive(n) {
                g.kill(n);
            }
        }
        g
    }

    /// Appends `other`, which starts where this one ends.
    fn extend(&mut self, other: &Graph) {
        for n in other.base..other.end() {
            self.push(other.parents_of(n));
            if !other.is_alive(n) {
                let last = self.end() - 1;
                self.kill(last);
            }
        }
    }

    /// Everything `tips` reach (the graph must start at commit 0).
    fn reach(&self, tips: impl Iterator<Item = u32>) -> Reach {
        let mut reach = Reach::with_len(self.end() as usize);
        let mut stack: Vec<u32> = tips.collect();
        while let Some(n) = stack.pop() {
            if n < self.end() && !reach.contains(n) {
                reach.insert(n);
                stack.extend_from_slice(self.parents_of(n));
            }
        }
        reach
    }
}

/// The graph from chunk `from` on.
pub(crate) fn load_graph(
    table: &impl ReadableTable<u32, &'static [u8]>,
    from: u32,
) -> Result<Graph, redb::Error> {
    let mut graph = Graph {
        base: from * GRAPH_CHUNK,
        ..Graph::default()
    };
    for entry in table.range(from..)? {
        let (chunk, bytes) = entry?;
        let mut part: Graph =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
        part.base = chunk.value() * GRAPH_CHUNK;
        if part.base != graph.end() {
            return Err(redb::Error::Corrupted(format!(
                "graph chunk {} does not follow commit {}",
                chunk.value(),
                graph.end()
            )));
        }
        graph.extend(&part);
    }
    Ok(graph)
}

/// Writes the chunks of `graph` that hold commit `from` and later ones.
pub(crate) fn store_graph(
    table: &mut redb::Table<u32, &'static [u8]>,
    graph: &Graph,
    from: u32,
) -> Result<(), redb::Error> {
    let first_chunk = from.max(graph.base) / GRAPH_CHUNK;
    let last_chunk = graph.end().saturating_sub(1) / GRAPH_CHUNK;
    if graph.end() == graph.base {
        return Ok(());
    }
    for chunk in first_chunk..=last_chunk {
        let from = (chunk * GRAPH_CHUNK).max(graph.base);
        let to = ((chunk + 1) * GRAPH_CHUNK).min(graph.end());
        let part = graph.slice(from, to);
        table.insert(chunk, codec::encode(&part).as_slice())?;
    }
    Ok(())
}

/// A set of commit numbers as a bitmap.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Reach {
    bits: Vec<u64>,
}

impl Reach {
    fn with_len(n: usize) -> Reach {
        Reach {
            bits: vec![0; n.div_ceil(64)],
        }
    }
    fn contains(&self, n: u32) -> bool {
        self.bits
            .get(n as usize / 64)
            .is_some_and(|w| w & (1 << (n % 64)) != 0)
    }
    fn insert(&mut self, n: u32) {
        let i = n as usize / 64;
        if i >= self.bits.len() {
            self.bits.resize(i + 1, 0);
        }
        self.bits[i] |= 1 << (n % 64);
    }
    fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The edges a record declares, as parsed: (relation, target id or path).
pub(crate) fn edges_of(p: &ParsedRecord) -> Vec<(&'static str, String)> {
    use crate::parse::Ref;
    let target = |r: &Ref| match r {
        Ref::Id(id) => id.clone(),
        Ref::Link { target, .. } => target.clone(),
    };
    let mut out: Vec<(&'static str, String)> = Vec::new();
    out.extend(p.supersedes.iter().map(|r| ("supersedes", target(r))));
    out.extend(p.superseded_by.iter().map(|r| ("superseded-by", target(r))));
    out.extend(p.amends.iter().map(|r| ("amends", target(r))));
    out.extend(p.mentions.iter().map(|id| ("mentions", id.clone())));
    out.extend(p.links.iter().map(|r| ("links", target(r))));
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: u32) -> Graph {
        let mut g = Graph::default();
        for i in 0..n {
            let parents: Vec<u32> = match i {
                0 => vec![],
                _ if i % 97 == 0 => vec![i - 1, i / 2],
                _ => vec![i - 1],
            };
            g.push(&parents);
        }
        g.kill(5);
        g
    }

    fn same(a: &Graph, b: &Graph) {
        assert_eq!(a.end(), b.end());
        for n in 0..a.end() {
            assert_eq!(a.parents_of(n), b.parents_of(n), "commit {n}");
            assert_eq!(a.is_alive(n), b.is_alive(n), "commit {n}");
        }
    }

    #[test]
    fn the_graph_round_trips_through_chunks_and_appends_to_its_tail() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path().join("g.redb")).unwrap();
        let whole = sample(2 * GRAPH_CHUNK + 10);
        let txn = db.begin_write().unwrap();
        {
            let mut t = txn.open_table(GRAPH).unwrap();
            store_graph(&mut t, &whole, 0).unwrap();
            same(&load_graph(&t, 0).unwrap(), &whole);
            // Append to the tail only, as a refresh does.
            let mut tail = load_graph(&t, 2).unwrap();
            assert_eq!(tail.base, 2 * GRAPH_CHUNK);
            let first = tail.end();
            for i in 0..GRAPH_CHUNK {
                tail.push(&[first + i - 1]);
            }
            store_graph(&mut t, &tail, first).unwrap();
            let mut expected = whole.clone();
            for i in 0..GRAPH_CHUNK {
                expected.push(&[first + i - 1]);
            }
            let loaded = load_graph(&t, 0).unwrap();
            same(&loaded, &expected);
            assert!(loaded.reach([loaded.end() - 1].into_iter()).contains(0));
            assert!(!loaded.reach([4].into_iter()).contains(6));
        }
        txn.commit().unwrap();
    }
}
