//! Opening the index file: read only when it is fresh enough, to write when it must change;
//! waiting briefly for another process; migrating an older schema, refusing a newer one, and
//! rebuilding a damaged file (docs/indexing.md, ADR-0006). A new file (a first build, a rebuild,
//! one made for a damaged file) is built beside the old and renamed into its place whole, so no
//! reader ever opens a half-built index; a file no longer as this tool left it is checked page
//! by page before it is trusted (ADR-0011).

use super::durable::{self, FirstBuild};
use super::integrity::{self, Storage};
use super::migrations;
use super::schema::*;
use super::{Index, IndexError, Mode};
use crate::git::Repo;
use redb::{Database, Durability, ReadOnlyDatabase, ReadableDatabase};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Runs `f`, turning a panic inside redb (a damaged file can make a plain open panic) into an
/// error, with the panic's message kept off stderr.
pub(super) fn guarded<T>(
    path: &Path,
    f: impl FnOnce() -> Result<T, IndexError>,
) -> Result<T, IndexError> {
    // Nested in [`catch_damage`], the outer guard stays up afterwards.
    let outer = GUARD.with(|g| g.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARD.with(|g| g.set(outer));
    match out {
        Ok(r) => r,
        Err(_) => Err(IndexError::unusable(path, "the file is damaged")),
    }
}

/// Runs `f` (a whole answer from the index), catching a panic: a panic while reading the
/// index is damage the integrity check missed, so the file at `discard` is dropped (rebuilt by
/// the next query) and `None` returned, the caller answering from a scan (ADR-0011).
pub fn catch_damage<T>(discard: Option<&Path>, f: impl FnOnce() -> T) -> Option<T> {
    let outer = GUARD.with(|g| g.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARD.with(|g| g.set(outer));
    match out {
        Ok(v) => Some(v),
        Err(_) => {
            if let Some(path) = discard {
                let _ = std::fs::remove_file(path);
                integrity::unseal(path);
            }
            None
        }
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
pub(super) enum Handle {
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
            history_memo_write: None,
            write_gate: None,
            building: None,
            build_lock: None,
            generation: None,
        };
        let empty = std::fs::metadata(&index.path).is_ok_and(|m| m.len() == 0);
        if mode == Mode::Rebuild {
            // Built beside the old one, which answers every other reader until this is whole.
            index.build_new();
        } else if empty && mode == Mode::Update {
            // redb would take an empty file for a new database: say the old one was lost.
            index.diagnostics.push(format!(
                "the index {} was empty (damaged); rebuilt it",
                index.path.display()
            ));
            index.build_new();
        } else if index.path.exists() {
            // Not as this tool left it: every page checked before anything is read from it.
            if mode == Mode::Update && !integrity::sealed(&index.path) {
                index.verify()?;
            }
        } else if mode == Mode::Update {
            index.first_build()?;
        }
        if index.building.is_none() && index.path.exists() {
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
                let generation = generation_of(&db).map_err(|e| index.err(e))?;
                index.db = Some(Handle::Read(db));
                index.schema_version = version;
                index.same_file(generation)?;
                return Ok(index);
            }
        }
        index.writable()?;
        Ok(index)
    }

    /// The file this index reads and writes: the new one while it is built, else the index.
    fn file(&self) -> PathBuf {
        self.building.clone().unwrap_or_else(|| self.path.clone())
    }

    /// Starts a new file beside the index (a first build, a rebuild, a damaged file's
    /// replacement), put in its place by [`Index::finish`]. Any earlier new file is dropped.
    fn build_new(&mut self) {
        self.db = None;
        if let Some(old) = self.building.take() {
            let _ = std::fs::remove_file(old);
        }
        remove_dead_builds(&self.path);
        let name = format!(
            "{NEW_PREFIX}{}-{}",
            std::process::id(),
            crate::util::now_ns()
        );
        self.building = Some(self.path.with_file_name(name));
        self.generation = None;
    }

    /// A first build: like every other new file, built beside and renamed into place
    /// ([`Index::finish`]), so a build cut short (a full disk, a kill) leaves no partial file
    /// behind; under the build lock, so a second process waits for it, or answers from a scan,
    /// rather than building the same file (ADR-0006, ADR-0011).
    fn first_build(&mut self) -> Result<(), IndexError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| IndexError::unusable(&self.path, e))?;
        }
        match durable::lock_first_build(&self.path, self.wait) {
            Ok(FirstBuild::Build(lock)) => {
                self.build_new();
                self.build_lock = Some(lock);
            }
            Ok(FirstBuild::Built) => {}
            Ok(FirstBuild::Busy) => return Err(IndexError::Busy(self.path.clone())),
            Err(e) => return Err(IndexError::unusable(&self.path, e)),
        }
        Ok(())
    }

    /// Checks every page of a file no longer as this tool left it (redb's integrity check),
    /// sealing it when whole; a damaged one is replaced by a new build, said once.
    fn verify(&mut self) -> Result<(), IndexError> {
        let p = self.path.clone();
        let wait = self.wait;
        let checked = guarded(&p, || {
            // A newer schema's file is refused as it is, never written.
            if let Opened::Db(db) = try_open(wait, || builder().open_read_only(&p)) {
                if let Ok(found) = migrations::version(&db) {
                    if found > SCHEMA_VERSION {
                        return Err(IndexError::Newer {
                            path: p.clone(),
                            found,
                            ours: SCHEMA_VERSION,
                        });
                    }
                }
                drop(db);
                // Another process of ours was writing it (its lock is what this open waited
                // for): once it has sealed the file, there is nothing to check.
                for _ in 0..3 {
                    if integrity::sealed(&p) {
                        return Ok(Ok(false));
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
            Ok(match try_open(wait, || create_db(&p)) {
                Opened::Db(mut db) => match db.check_integrity() {
                    Ok(true) => db.close().map(|_| true).map_err(|e| e.to_string()),
                    Ok(false) => Err("pages that failed their checksum".to_string()),
                    Err(e) => Err(e.to_string()),
                },
                Opened::Busy => return Err(IndexError::Busy(p.clone())),
                Opened::Io(reason) => return Err(IndexError::unusable(&p, reason)),
                Opened::Damaged(reason) => Err(reason),
            })
        })
        .or_else(|e| match e {
            IndexError::Unusable { reason, .. } => Ok(Err(reason)),
            e => Err(e),
        })?;
        match checked {
            Ok(false) => Ok(()),
            Ok(true) => integrity::seal(&p).map_err(|e| self.err(format!("cannot write: {e}"))),
            Err(reason) => {
                self.diagnostics.push(format!(
                    "the index {} was damaged ({reason}); rebuilt it",
                    p.display()
                ));
                self.build_new();
                Ok(())
            }
        }
    }

    /// Refuses a reopen that finds another file than the one first opened (`index --rebuild`
    /// put a new one in place meanwhile): what was read from the first is not mixed with it.
    fn same_file(&mut self, now: Option<Vec<u8>>) -> Result<(), IndexError> {
        match &self.generation {
            None => {
                self.generation = Some(now);
                Ok(())
            }
            Some(first) if *first == now => Ok(()),
            Some(_) => Err(IndexError::Replaced(self.path.clone())),
        }
    }

    /// Closes the file, making its updates durable and sealing it; an error (a full disk) is
    /// the update's: what was written since the last durable state is dropped by redb.
    pub(super) fn close(&mut self) -> Result<(), IndexError> {
        match self.db.take() {
            Some(Handle::Write(db)) => {
                db.close()
                    .map_err(|e| self.err(format!("cannot write: {e}")))?;
                if self.building.is_none() {
                    durable::sync_file(&self.path)
                        .and_then(|_| integrity::seal(&self.path))
                        .map_err(|e| self.err(format!("cannot write: {e}")))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Ends the use of the index: closes it ([`Index::close`]), and puts a new file in place
    /// of the old, whole, sealed. After an error nothing is put in place.
    pub fn finish(&mut self) -> Result<(), IndexError> {
        self.write_gate = None;
        self.close()?;
        if let Some(new) = self.building.take() {
            // Durable before it is put in place, and in place durably before it is sealed.
            let put = durable::sync_file(&new)
                .and_then(|_| crate::util::faults::check("rename"))
                .and_then(|_| std::fs::rename(&new, &self.path));
            if let Err(e) = put {
                let _ = std::fs::remove_file(&new);
                return Err(self.err(format!("cannot write: {e}")));
            }
            self.build_lock = None;
            if let Err(e) = durable::sync_folder(&self.path) {
                // Its place not known to be on the disk: no file rather than one unvouched for.
                let _ = std::fs::remove_file(&self.path);
                return Err(self.err(format!("cannot write: {e}")));
            }
            integrity::seal(&self.path).map_err(|e| self.err(format!("cannot write: {e}")))?;
        }
        Ok(())
    }

    /// Makes the next open to write wait until `gate`'s sender sends or is dropped: another
    /// thread of this process holds a read of the file (see [`Cached::release`]), whose shared
    /// lock would keep the exclusive one out.
    pub fn gate_writes(&mut self, gate: std::sync::mpsc::Receiver<()>) {
        self.write_gate = Some(gate);
    }

    /// The file opened to write: reopened if it was open to read, created, migrated, or
    /// rebuilt when damaged.
    pub(super) fn writable(&mut self) -> Result<&Database, IndexError> {
        if let Some(gate) = self.write_gate.take() {
            let _ = gate.recv(); // a message or the sender dropped: either way, go on
        }
        if !matches!(self.db, Some(Handle::Write(_))) {
            self.db = None; // release the shared lock before asking for the exclusive one
            let (db, version) = self.open_write()?;
            let mut generation = generation_of(&db).map_err(|e| self.err(e))?;
            if generation.is_none() && self.building.is_some() {
                generation = Some(name_file(&db).map_err(|e| self.err(e))?);
            }
            self.schema_version = version;
            self.db = Some(Handle::Write(db));
            self.same_file(generation)?;
        }
        match &self.db {
            Some(Handle::Write(db)) => Ok(db),
            _ => unreachable!("just opened to write"),
        }
    }

    fn open_write(&mut self) -> Result<(Database, u32), IndexError> {
        let mode = self.mode;
        let wait = self.wait;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| IndexError::unusable(&self.path, e))?;
        }
        let mut rebuilt = 0;
        loop {
            let p = self.file();
            let opened = guarded(&p, || {
                Ok(match try_open(wait, || create_db(&p)) {
                    Opened::Db(db) => match Self::check_version(&db, &p, mode != Mode::Status) {
                        Ok(version) => Ok((db, version)),
                        Err(IndexError::Unusable { reason, .. }) if mode != Mode::Status => {
                            Err(reason)
                        }
                        Err(e) => return Err(e),
                    },
                    Opened::Busy => return Err(IndexError::Busy(p.clone())),
                    Opened::Io(reason) => return Err(IndexError::unusable(&p, reason)),
                    Opened::Damaged(reason) if mode != Mode::Status => Err(reason),
                    Opened::Damaged(reason) => return Err(IndexError::unusable(&p, reason)),
                })
            })?;
            match opened {
                Ok(found) => return Ok(found),
                // A file made here now that does not open is no damage to rebuild again.
                Err(reason) if rebuilt > 0 || self.building.is_some() => {
                    return Err(IndexError::unusable(&p, reason))
                }
                // Something was read from it already: a new file now would mix with that (a
                // `check --git` lost its commits), so the answer is given up as damage and comes
                // from a scan; the file is dropped, built anew next time (ADR-0011).
                Err(_) if self.generation.is_some() => {
                    std::panic::panic_any(super::checked::Damaged)
                }
                Err(reason) => {
                    self.diagnostics.push(format!(
                        "the index {} was damaged ({reason}); rebuilt it",
                        self.path.display()
                    ));
                    rebuilt += 1;
                    self.build_new();
                }
            }
        }
    }

    /// Reopens the file to read only, if it was closed after a write.
    pub(super) fn readable(&mut self) -> Result<(), IndexError> {
        if self.db.is_some() {
            return Ok(());
        }
        let p = self.file();
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
        let generation = generation_of(&db).map_err(|e| self.err(e))?;
        self.db = Some(Handle::Read(db));
        self.same_file(generation)
    }

    pub(super) fn read_txn(&self) -> Result<redb::ReadTransaction, IndexError> {
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

    /// A write transaction that is not made durable on its own: the index is a cache, a lost
    /// last update is redone next time, and a clean exit makes it durable (ADR-0006).
    pub(super) fn write_txn(&mut self) -> Result<redb::WriteTransaction, IndexError> {
        let mut txn = self.writable()?.begin_write().map_err(|e| self.err(e))?;
        txn.set_durability(Durability::None)
            .map_err(|e| self.err(e))?;
        Ok(txn)
    }
}

impl Drop for Index {
    /// An index not finished ([`Index::finish`]) is closed (and sealed, when that works) as it
    /// is; a new file it was building is not put in place.
    fn drop(&mut self) {
        self.write_gate = None;
        if let Some(Handle::Write(db)) = self.db.take() {
            if db.close().is_ok()
                && self.building.is_none()
                && durable::sync_file(&self.path).is_ok()
            {
                let _ = integrity::seal(&self.path);
            }
        }
        if let Some(new) = self.building.take() {
            let _ = std::fs::remove_file(new);
        }
    }
}

/// How a new file being built beside the index is named: then the process and the time.
const NEW_PREFIX: &str = "index.redb.new-";

/// Removes the new files of builds whose process is gone (killed part way): on Linux, where
/// `/proc` tells; elsewhere they stay.
fn remove_dead_builds(index: &Path) {
    if !cfg!(target_os = "linux") {
        return;
    }
    let Some(dir) = index.parent() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(NEW_PREFIX)) else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or("");
        let alive = pid == std::process::id().to_string() || Path::new("/proc").join(pid).exists();
        if !pid.is_empty() && !alive {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The file at `path` opened to write (made when missing), through the failpoints.
fn create_db(path: &Path) -> Result<Database, redb::DatabaseError> {
    builder().create_with_backend(Storage::create(path)?)
}

/// The file's generation, as stored.
fn generation_of(db: &impl ReadableDatabase) -> Result<Option<Vec<u8>>, redb::Error> {
    migrations::meta_value(&db.begin_read()?, KEY_GENERATION)
}

/// Names a new file: a generation no other file has (the time and this process).
fn name_file(db: &Database) -> Result<Vec<u8>, redb::Error> {
    let name = format!("{}-{}", crate::util::now_ns(), std::process::id()).into_bytes();
    let mut txn = db.begin_write()?;
    txn.set_durability(Durability::None)?;
    txn.open_table(META)?
        .insert(KEY_GENERATION, name.as_slice())?;
    txn.commit()?;
    Ok(name)
}
