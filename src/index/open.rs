//! Opening the index file: read only when it is fresh enough, to write when it must change;
//! waiting briefly for another process; migrating an older schema, refusing a newer one, and
//! rebuilding a damaged file (CONTRACT.md §4, ADR-0006).

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
    pub(super) fn writable(&mut self) -> Result<&Database, IndexError> {
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

    /// Drops a file found damaged while in use (`reason`) and starts a new one, saying so:
    /// what it held is built again by this query and the next.
    pub(super) fn rebuild_damaged(&mut self, reason: &str) -> Result<(), IndexError> {
        self.db = None;
        self.write_gate = None;
        self.diagnostics.push(format!(
            "the index {} was damaged ({reason}); rebuilt it",
            self.path.display()
        ));
        remove(&self.path)?;
        self.writable()?;
        Ok(())
    }

    /// Reopens the file to read only, if it was closed after a write.
    pub(super) fn readable(&mut self) -> Result<(), IndexError> {
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

fn remove(path: &Path) -> Result<(), IndexError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(IndexError::unusable(path, e)),
    }
}
