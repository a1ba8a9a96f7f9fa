//! `watch`: keeps the index fresh while files change, until stopped (docs/commands.md, docs/indexing.md;
//! ADR-0010).
//!
//! The root is watched recursively with the platform's events (notify: inotify on Linux), and
//! so are the git dirs' `HEAD` and refs when they lie outside it. An event that can change what
//! the index holds (see `filter`) wakes the loop, which waits for the burst to go quiet, then
//! brings the index up to date through one [`Session`] (the same incremental update as
//! `context-graph index`) and reports it. Between bursts it blocks on a channel: nothing runs.
//! A stop (the binary sends one on Ctrl-C or SIGTERM) is read only between refreshes, so the
//! index is never left mid-write; the index is closed between refreshes, so queries and hooks
//! use it meanwhile.

mod filter;

use crate::app::{self, Progress, Session};
use crate::model::IndexSummary;
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// A burst is over when no event came for this long. It is longer than the index's margin for
/// vouching for a file by its content (`fs::fingerprint::DIGEST_MARGIN_NS`, 50 ms): a scan
/// begun sooner after a change stores a memo that no later check can trust, so the index would
/// stay stale until the next refresh.
pub const QUIET: Duration =
    Duration::from_millis(crate::fs::fingerprint::DIGEST_MARGIN_NS as u64 / 1_000_000 + 10);
/// A burst that never goes quiet (a long checkout) is refreshed at least this often (still
/// [`QUIET`] after its last event).
pub const LONGEST: Duration = Duration::from_millis(500);
/// After a refresh failed for the index (busy, unusable), it is tried again this much later
/// even if nothing changes.
pub const RETRY: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error(transparent)]
    App(#[from] app::Error),
    #[error("cannot watch {path}: {reason}")]
    Watch { path: String, reason: String },
}

/// What reaches the loop.
enum Msg {
    /// Paths that changed (as [`filter::Filter::matters`] names them).
    Changed(Vec<String>),
    /// Events were lost (the kernel's queue overflowed, a new folder could not be watched):
    /// everything is checked again.
    Lost(String),
    Stop,
}

/// What woke a refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The first refresh, at start.
    Start,
    /// These paths changed (sorted, each once).
    Changed(Vec<String>),
    /// Events were lost, for this reason; everything was checked.
    Lost(String),
    /// The last refresh failed for the index; tried again.
    Retry,
}

/// One refresh done.
#[derive(Debug, Clone)]
pub struct Refresh {
    pub cause: Cause,
    pub took: Duration,
    pub summary: IndexSummary,
}

/// What the watch reports, as it happens.
#[derive(Debug)]
pub enum Happened<'a> {
    /// The watches are set (before the first refresh, reported after it): the root, and the
    /// git dirs outside it whose HEAD and refs are watched too.
    Watching {
        root: &'a Path,
        git_dirs: &'a [PathBuf],
    },
    Refreshed(Refresh),
    /// A refresh failed; the watch goes on.
    Failed {
        cause: Cause,
        error: app::Error,
    },
    /// Stopped between refreshes.
    Stopped,
}

/// Ends a running [`Watch`] after its current refresh; safe to call from any thread, any
/// number of times.
#[derive(Clone)]
pub struct Stopper(Sender<Msg>);

impl Stopper {
    pub fn stop(&self) {
        let _ = self.0.send(Msg::Stop);
    }
}

/// A watch over one session's root and repository.
pub struct Watch {
    session: Session,
    /// The worktree's own git dir and the common one, canonical.
    git_dir: PathBuf,
    common_dir: PathBuf,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    /// The files the caller writes its output to: their changes don't wake the watch.
    own_output: Vec<filter::FileId>,
}

impl Watch {
    /// Prepares to watch the session's root; nothing is watched until [`Watch::run`]. Outside
    /// git there is no index to keep fresh: an error.
    pub fn new(session: Session) -> Result<Watch, WatchError> {
        let root = session.root();
        let repo = crate::git::open(root)
            .map_err(app::Error::from)?
            .ok_or_else(|| app::Error::no_git(root))?;
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let git_dir = canonical(&repo.git_dir);
        let common_dir = canonical(&repo.common_dir());
        let (tx, rx) = mpsc::channel();
        Ok(Watch {
            session,
            git_dir,
            common_dir,
            tx,
            rx,
            own_output: Vec::new(),
        })
    }

    /// The caller writes its lines to these (its stderr, its stdout): when one is a file under
    /// the root (`watch 2> watch.log`), writing a line there must not wake the watch, which
    /// would write a line, and so on. Anything but a regular file is left out.
    pub fn skip_output(&mut self, files: &[std::fs::Metadata]) {
        self.own_output = files.iter().filter_map(filter::file_id).collect();
    }

    pub fn stopper(&self) -> Stopper {
        Stopper(self.tx.clone())
    }

    /// Watches, refreshes once, then refreshes after every burst of changes until stopped.
    /// `progress` is shown for the first refresh (a first build can be long). An error at
    /// setting the watches, or a first refresh that fails for its input (no git, an unreadable
    /// `--docs`), ends it; later failures are reported and the watch goes on.
    pub fn run(
        mut self,
        progress: Progress,
        on: &mut dyn FnMut(Happened),
    ) -> Result<(), WatchError> {
        let root = self.session.root().to_path_buf();
        let mut filter = filter::Filter::new(&root, Some(&self.git_dir), Some(&self.common_dir));
        filter.skip_files(std::mem::take(&mut self.own_output));
        let tx = self.tx.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let msg = match event {
                    Ok(e) if e.need_rescan() => {
                        Msg::Lost("the kernel's event queue overflowed".into())
                    }
                    Ok(e) if !changes_content(&e.kind) => return,
                    Ok(e) => {
                        let paths: Vec<String> =
                            e.paths.iter().filter_map(|p| filter.matters(p)).collect();
                        if paths.is_empty() {
                            return;
                        }
                        Msg::Changed(paths)
                    }
                    Err(e) => Msg::Lost(crate::util::one_line(&e.to_string())),
                };
                let _ = tx.send(msg);
            })
            .map_err(|e| watch_error(&root, e))?;
        watcher
            .watch(&root, RecursiveMode::Recursive)
            .map_err(|e| watch_error(&root, e))?;
        let extra = self.git_watches(&root);
        for (path, mode) in &extra {
            watcher
                .watch(path, *mode)
                .map_err(|e| watch_error(path, e))?;
        }
        // Reported after the first refresh, so that one failing for its input is the only
        // line; set before it, so that a change during it is not missed.
        let mut retry = match self.refresh(Cause::Start, progress, on) {
            Err(e) if !is_transient(&e) => return Err(e.into()),
            Err(error) => {
                on(Happened::Failed {
                    cause: Cause::Start,
                    error,
                });
                true
            }
            Ok(()) => false,
        };
        let git_dirs: Vec<PathBuf> = extra
            .into_iter()
            .filter(|(p, mode)| *mode == RecursiveMode::NonRecursive && !p.ends_with("info"))
            .map(|(p, _)| p)
            .collect();
        on(Happened::Watching {
            root: &root,
            git_dirs: &git_dirs,
        });
        loop {
            let first = if retry {
                self.rx.recv_timeout(RETRY)
            } else {
                self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
            };
            let mut burst = Burst::default();
            match first {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(msg) => burst.add(msg),
                Err(RecvTimeoutError::Timeout) => {} // a retry, nothing changed
            }
            if !burst.is_empty() && !self.quiet(&mut burst) {
                break;
            }
            let cause = burst.cause();
            retry = match self.refresh(cause.clone(), None, on) {
                Ok(()) => false,
                Err(error) => {
                    let again = is_transient(&error);
                    on(Happened::Failed { cause, error });
                    again
                }
            };
        }
        drop(watcher);
        on(Happened::Stopped);
        Ok(())
    }

    /// Gathers the burst's events until none came for [`QUIET`], or, after [`LONGEST`], waits
    /// out [`QUIET`] from the last one. False when a stop came meanwhile.
    fn quiet(&self, burst: &mut Burst) -> bool {
        let start = Instant::now();
        let mut last = start;
        loop {
            let quiet_left = QUIET.saturating_sub(last.elapsed());
            if quiet_left.is_zero() {
                return true;
            }
            let cut_left = LONGEST.saturating_sub(start.elapsed());
            if cut_left.is_zero() {
                std::thread::sleep(quiet_left);
                return true;
            }
            match self.rx.recv_timeout(quiet_left.min(cut_left)) {
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => return false,
                Ok(msg) => {
                    burst.add(msg);
                    last = Instant::now();
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// One incremental update of every part of the index, reported when it succeeds.
    fn refresh(
        &mut self,
        cause: Cause,
        progress: Progress,
        on: &mut dyn FnMut(Happened),
    ) -> Result<(), app::Error> {
        let start = Instant::now();
        let summary = self.session.index_update(false, progress)?;
        on(Happened::Refreshed(Refresh {
            cause,
            took: start.elapsed(),
            summary,
        }));
        Ok(())
    }

    /// The git dirs' parts that move HEAD and the branches, when the root's own watch does
    /// not hold them (a linked worktree's git dir, a root below the work tree's top): each git
    /// dir's top (HEAD, packed-refs, shallow), its `refs/` and its `info/`.
    fn git_watches(&self, root: &Path) -> Vec<(PathBuf, RecursiveMode)> {
        let mut out = Vec::new();
        let mut dirs = vec![&self.git_dir];
        if self.common_dir != self.git_dir {
            dirs.push(&self.common_dir);
        }
        for dir in dirs {
            if dir.starts_with(root) {
                continue;
            }
            out.push((dir.clone(), RecursiveMode::NonRecursive));
            for (sub, mode) in [
                ("refs", RecursiveMode::Recursive),
                ("info", RecursiveMode::NonRecursive),
            ] {
                let path = dir.join(sub);
                if path.is_dir() {
                    out.push((path, mode));
                }
            }
        }
        out
    }
}

/// Whether the event can mean different content, names or metadata: not a mere open, read
/// or close after reading (which the refresh itself causes).
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// A failure worth trying again without a change: the index was busy or unusable, or the
/// repository could not be read for a moment.
fn is_transient(e: &app::Error) -> bool {
    matches!(e, app::Error::Index(_) | app::Error::History(_))
}

fn watch_error(path: &Path, e: notify::Error) -> WatchError {
    let reason = match e.kind {
        notify::ErrorKind::MaxFilesWatch => "the system's limit on watched folders is reached \
             (on Linux, raise fs.inotify.max_user_watches)"
            .to_string(),
        _ => crate::util::one_line(&e.to_string()),
    };
    WatchError::Watch {
        path: path.display().to_string(),
        reason,
    }
}

/// The events of one burst.
#[derive(Default)]
struct Burst {
    paths: BTreeSet<String>,
    lost: Option<String>,
}

impl Burst {
    fn add(&mut self, msg: Msg) {
        match msg {
            Msg::Changed(paths) => self.paths.extend(paths),
            Msg::Lost(why) => self.lost = Some(why),
            Msg::Stop => {}
        }
    }

    fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.lost.is_none()
    }

    fn cause(self) -> Cause {
        match (self.lost, self.paths.is_empty()) {
            (Some(why), _) => Cause::Lost(why),
            (None, false) => Cause::Changed(self.paths.into_iter().collect()),
            (None, true) => Cause::Retry,
        }
    }
}
