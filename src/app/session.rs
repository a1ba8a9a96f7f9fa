//! A session: the root resolved and its repository opened once, answering as many questions
//! as it is asked (a command asks one; hooks and `watch` ask many). Each answer comes from the
//! index brought up to date (ADR-0006), or from a fresh scan with `--no-index`, outside git, or
//! when the index can't be used; the two are byte-identical.

use super::error::{Error, Result};
use super::pick::{marker_findings, narrow, narrow_memo, Known};
use super::{Answer, Ask, Options, Progress};
use crate::fs::root::{query_path, resolve_root};
use crate::git::{self, Outcome, Repo};
use crate::index::schema::Scope;
use crate::index::{self, Index};
use crate::model::{IndexStatus, IndexSummary, Report};
use crate::text::marker::Markers;
use crate::{drift, scan};
use std::path::{Path, PathBuf};

/// A little more than the margin within which a file's content cannot vouch for it.
const SETTLE: std::time::Duration =
    std::time::Duration::from_nanos(crate::fs::fingerprint::DIGEST_MARGIN_NS as u64 + 10_000_000);

/// What `Session::scan_with` found: the scan's own outcome (the report narrowed to the
/// question, and what the markers need of it), how many commits were added, and whether a scan
/// ran (the memo did not hold).
type ScanOutcome = (Result<(Report, Known)>, usize, bool);

pub struct Session {
    opts: Options,
    root: PathBuf,
    /// The git work tree around the root, opened once; `None` outside git.
    repo: Option<Repo>,
    /// Whether the repository's HEAD and branches were read for the next question already
    /// (opening reads them; every later question reads them again).
    refs_read: bool,
    /// `.context-graph.toml` as read when the session opened (ADR-0012); `None` without one.
    config: Option<crate::fs::config::Config>,
    /// Whether a scan memo found holding is stored again as found (ADR-0016): not by a
    /// commit hook, whose refresh after the commit does it off git's path.
    pub(super) settle: bool,
    /// Whether a full check's records are kept in the commit hook's table of governed
    /// entries (ADR-0018): by the refreshes, never on git's path.
    keep_table: bool,
}

impl Session {
    /// Resolves the root (`--root`, else the work tree around the current folder) and opens
    /// the repository around it.
    pub fn open(opts: Options) -> Result<Session> {
        let root = resolve_root(opts.root.as_deref())?;
        // An invalid configuration fails every command before any work (exit 2).
        let config = crate::fs::config::load(&root).map_err(crate::fs::FsError::from)?;
        let repo = git::open(&root)?;
        Ok(Session {
            opts,
            root,
            repo,
            refs_read: true,
            config,
            settle: true,
            keep_table: false,
        })
    }

    /// The canonical root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// `.context-graph.toml` as read when the session opened; `None` without one.
    pub fn config(&self) -> Option<&crate::fs::config::Config> {
        self.config.as_ref()
    }

    /// The configuration's warnings (unknown keys), for stderr.
    fn config_warnings(&self) -> Vec<String> {
        self.config
            .as_ref()
            .map(|c| c.warnings.clone())
            .unwrap_or_default()
    }

    /// The git work tree around the root, as opened (HEAD as read then); `None` outside git.
    pub fn repository(&self) -> Option<&Repo> {
        self.repo.as_ref()
    }

    /// The repository, with HEAD and the branches read anew.
    fn repo_now(&mut self) -> Result<Option<Repo>> {
        if let (Some(repo), false) = (&mut self.repo, self.refs_read) {
            repo.refresh()?;
        }
        self.refs_read = false;
        Ok(self.repo.clone())
    }

    /// The repository and the index file of it; an error outside git.
    fn index_of(&mut self) -> Result<(Repo, PathBuf)> {
        match self.repo_now()? {
            Some(repo) => {
                let path = index::path_for(&repo);
                Ok((repo, path))
            }
            None => Err(Error::no_git(&self.root)),
        }
    }

    /// Answers one question.
    pub fn answer(&mut self, ask: &Ask, progress: Progress) -> Result<Answer> {
        // A query path is checked before any work: one outside the root is refused.
        let why_path = match ask {
            Ask::Why(p) => Some(query_path(&self.root, p).map_err(|reason| Error::BadPath {
                path: p.clone(),
                reason,
            })?),
            _ => None,
        };
        let why_path = why_path.as_deref();
        let repo = self.repo_now()?;
        let mut diagnostics = self.config_warnings();
        // A repository git can read and this build cannot (SHA-256): the answer is the
        // records' alone, and says so once (`--git` says it in its notes; ADR-0011).
        if repo.is_none() && !self.opts.no_index && !self.opts.git {
            if let Some(unsupported) = Error::object_format(&self.root) {
                diagnostics.push(format!("{unsupported}: answered without history"));
            }
        }
        let mut scanned = true;
        let indexed = match (&repo, self.opts.no_index) {
            (Some(repo), false) => {
                let path = index::path_for(repo);
                let answered = index::catch_damage(Some(&path), || {
                    self.answer_indexed(repo.clone(), ask, why_path, progress)
                });
                match answered {
                    Some(Ok(found)) => Some(found),
                    Some(Err(Error::Index(e))) => {
                        diagnostics.push(format!("{e}; answered from a scan"));
                        None
                    }
                    Some(Err(e)) => return Err(e),
                    None => {
                        diagnostics.push(format!(
                            "the index {} failed while read (damaged); answered from a scan, and it is rebuilt next time",
                            path.display()
                        ));
                        None
                    }
                }
            }
            _ => None,
        };
        let report = match indexed {
            Some((report, mut notes, rescanned)) => {
                diagnostics.append(&mut notes);
                scanned = rescanned;
                report
            }
            None => {
                // The records and the source files are read side by side: both mostly wait
                // on the file system.
                let (local, global) = self.marker_needs(ask, why_path);
                let root = self.root.as_path();
                let at = repo.as_ref();
                let staged = self.opts.git.then_some(at).flatten();
                let (scanned, local, global, staged) = std::thread::scope(|s| {
                    let global = global
                        .then(|| s.spawn(|| scan::scan_markers(root, at, "", &scan::NoCache)));
                    let local = local
                        .map(|w| s.spawn(move || scan::scan_markers(root, at, w, &scan::NoCache)));
                    let staged =
                        staged.map(|r| s.spawn(move || scan::staged_markers(r, &scan::NoCache)));
                    let names = scan::tracked_names(at.filter(|_| self.opts.mentions));
                    let scanned = scan::scan(root, &self.opts.docs, &scan::Fresh, &names);
                    let join = |h: std::thread::ScopedJoinHandle<'_, scan::MarkerScan>| {
                        h.join().expect("the marker scan panicked")
                    };
                    let staged = staged.map(|h| h.join().expect("the marker scan panicked"));
                    (scanned, local.map(join), global.map(join), staged)
                });
                let report = scanned?.report;
                let picking = local
                    .as_ref()
                    .map(|l| l.markers.clone())
                    .unwrap_or_default();
                let (mut report, known) = narrow(report, ask, why_path, root, &picking)?;
                let markers = Found { local, global };
                marker_findings(&mut report, ask, why_path, markers.about(), &known);
                markers.add_notes(&mut report);
                let staged = staged.map(|s| s.markers).unwrap_or_default();
                let needed = self.opts.git || (repo.is_some() && names_missing_paths(&report));
                if needed {
                    let outcome = match &repo {
                        Some(repo) => git::load(repo)?,
                        None => Outcome::NotARepo,
                    };
                    match &outcome {
                        Outcome::Ready(data) => with_history(
                            &mut report,
                            &mut |p| data.ever_had(&crate::governs::Pattern::new(p)),
                            &self.kept_elsewhere(repo.as_ref()),
                        ),
                        Outcome::NoCommits => with_history(
                            &mut report,
                            &mut |_| false,
                            &self.kept_elsewhere(repo.as_ref()),
                        ),
                        Outcome::NotARepo => {}
                    }
                    if self.opts.git {
                        add_history(&self.root, &mut report, outcome, &staged);
                    }
                }
                report
            }
        };
        Ok(Answer {
            report,
            diagnostics,
            scanned,
        })
    }

    /// The indexed answer, what to say about how it was found, and whether a scan ran.
    fn answer_indexed(
        &self,
        repo: Repo,
        ask: &Ask,
        why_path: Option<&str>,
        progress: Progress,
    ) -> Result<(Report, Vec<String>, bool)> {
        let path = index::path_for(&repo);
        let mut idx = Index::open(repo, path, self.opts.index_wait, index::Mode::Update)?;
        let has_commits = idx.repo.head.is_some();
        let history = (self.opts.git && has_commits).then_some(progress);
        let (local, global) = self.marker_needs(ask, why_path);
        // Drift counts the files git's index says declare a record: kept by the checksum of
        // git's index, so asking again reads nothing. After a commit it reads git's index
        // whole: on a thread of its own, started first, beside the rest (the memo's check,
        // which reads the same index, waits for that reading rather than doing it twice:
        // `git::tracked`).
        let staged = (self.opts.git && has_commits).then(|| {
            let job = idx.staged_job();
            std::thread::spawn(move || job.run())
        });
        // The markers of the path asked about are read beside the memo's check too, and only
        // waited for where the answer is narrowed to the path (issue 17).
        let mut local = match local {
            Some(within) => Some(self.markers_started(&mut idx, within)?),
            None => None,
        };
        // Every source file's markers (the full check's and `record`'s findings) are brought
        // up to date beside the scan, on a thread of their own (a stat per tracked file), and
        // kept after it.
        let stored = match global {
            true => Some(idx.stored_markers_or_rebuild()?),
            false => None,
        };
        let root = self.root.as_path();
        let repo = idx.repo.clone();
        let (scanned, global, staged) = std::thread::scope(|s| {
            let handle = stored
                .as_ref()
                .map(|stored| s.spawn(|| scan::scan_markers(root, Some(&repo), "", stored)));
            let mut picking = || {
                local
                    .as_mut()
                    .map(|l| l.scan().markers.clone())
                    .unwrap_or_default()
            };
            let scanned = self.scan_with(&mut idx, history, false, ask, why_path, &mut picking);
            let global = handle.map(|h| h.join().expect("the marker scan panicked"));
            let staged = staged.map(|h| h.join().expect("the staged markers panicked"));
            (scanned, global, staged.unwrap_or_default())
        });
        // What git's index declares is kept beside the index on the writing thread below, not
        // here: the answer goes on meanwhile (issue 17).
        let (staged, staged_write) = staged;
        let (scanned, _, rescanned) = scanned?;
        if let (Some(stored), Some(found)) = (&stored, &global) {
            idx.store_markers(stored, found, "")?;
        }
        let (mut report, known) = scanned?;
        let local = local.map(LocalMarkers::into_scan);
        let markers = Found { local, global };
        marker_findings(&mut report, ask, why_path, markers.about(), &known);
        markers.add_notes(&mut report);
        // Whether a missing path was ever there is the history's to say: brought up to date
        // now if the query did not already (no `--git`).
        if names_missing_paths(&report) {
            if !self.opts.git && has_commits {
                idx.refresh_history(progress, false)?;
            }
            let missing = missing_paths(&report);
            let names: Vec<&str> = missing.iter().map(String::as_str).collect();
            let had = idx.ever_had(&names)?;
            let known: std::collections::HashMap<String, bool> =
                missing.into_iter().zip(had).collect();
            let mut ever_had = |p: &str| known.get(p).copied().unwrap_or(true);
            with_history(
                &mut report,
                &mut ever_had,
                &self.kept_elsewhere(Some(&idx.repo)),
            );
        }
        // New pending commits (and what git's index declares, found anew) are written beside
        // the index while the answer is computed.
        let pending = idx.take_pending_write();
        let written = std::thread::scope(|s| -> Result<Option<String>> {
            let write = (pending.is_some() || staged_write.is_some()).then(|| {
                s.spawn(move || {
                    let note = pending.and_then(|p| p.write().err());
                    if let Some(w) = staged_write {
                        w.write();
                    }
                    note
                })
            });
            if write.is_some() {
                std::thread::yield_now(); // see `scan_with`: let it start now
            }
            if self.opts.git {
                let outcome = if has_commits {
                    let history = idx.history_for(&report.records, &staged)?;
                    // A new history memo is written while the answer is computed.
                    if let Some(memo) = idx.take_history_memo_write() {
                        s.spawn(move || memo.write());
                    }
                    Outcome::Ready(history)
                } else {
                    Outcome::NoCommits
                };
                add_history(&self.root, &mut report, outcome, &staged);
            }
            Ok(write.and_then(|w| w.join().expect("the pending write panicked")))
        })?;
        idx.diagnostics.extend(written);
        idx.finish()?;
        Ok((report, std::mem::take(&mut idx.diagnostics), rescanned))
    }

    /// The report `ask` needs, from the index: its scan memo when that still holds, else a
    /// scan served from its cached parses, which then keeps what was parsed anew (ADR-0006).
    /// With `history`, the history part is brought up to date at the same time, on another
    /// thread (the scan mostly waits on the file system, the walk on git's objects). Returns
    /// the scan's own outcome, narrowed to the question, how many commits were added, and
    /// whether a scan ran (the memo did not hold); the outer error is the index's.
    #[allow(clippy::too_many_arguments)]
    fn scan_with(
        &self,
        idx: &mut Index,
        history: Option<Progress>,
        fold: bool,
        ask: &Ask,
        why_path: Option<&str>,
        picking: &mut dyn FnMut() -> Markers,
    ) -> Result<ScanOutcome> {
        let (root, docs) = (self.root.as_path(), self.opts.docs.as_slice());
        let cached = idx.inputs(&Scope::new(root, docs))?;
        // The tracked paths the records' code mentions resolve against (CONTRACT.md §11).
        let repo = idx.repo.clone();
        // `cached` reads the stored parses only when the memo does not hold; until that is
        // settled, the refresh must not open the index to write (its read holds a shared lock).
        let (gate, gated) = std::sync::mpsc::channel::<()>();
        idx.gate_writes(gated);
        let (scanned, refreshed) = std::thread::scope(|s| {
            let refresh = history.map(|progress| {
                let idx = &mut *idx;
                s.spawn(move || idx.refresh_history(progress, fold))
            });
            if refresh.is_some() {
                // Let the new thread run now: left to wait for this one's time slice, it
                // started up to 4 ms late (measured on a 2-core VM).
                std::thread::yield_now();
            }
            let tracked = Some(&repo).filter(|_| self.opts.mentions);
            // The memo is checked against the paths git's index tracks, mentions or not;
            // `index` (`fold`) scans whatever the memo says, so that it sees what the memo
            // does not look at (ADR-0016).
            let memo = match fold {
                true => None,
                false => cached.memo_report(Some(&repo)),
            };
            cached.release(memo.is_none());
            drop(gate);
            let scanned = match memo {
                Some(report) => Ok(Scanned::Memo(report)),
                None => {
                    let names = scan::tracked_names(tracked);
                    scan::scan(root, docs, &cached, &names).map(|mut s| {
                        if tracked.is_none() {
                            // No mentions resolved: the memo still keeps the tracked paths.
                            s.names_checksum = git::index_checksum(&repo);
                            s.names = scan::names_digest(Some(&repo));
                        }
                        Scanned::Scan(Box::new(s))
                    })
                }
            };
            let refreshed = refresh.map(|h| h.join().expect("the history refresh panicked"));
            (scanned, refreshed)
        });
        let added = refreshed.transpose()?.unwrap_or(0);
        let rescanned = !matches!(scanned, Ok(Scanned::Memo(_)));
        // The commit hook's table is kept from the full check's records and what they were
        // read from, a scan's or the memo's (ADR-0018).
        let table = (self.keep_table && matches!(ask, Ask::Check))
            .then(|| index::governing::path_for(&idx.repo));
        let report = match scanned {
            Ok(Scanned::Scan(scan)) => {
                idx.store_inputs(&cached, &scan)?;
                if let (Some(path), Some(deps)) = (&table, &scan.deps) {
                    index::governing::write(path, cached.scope(), deps, &scan.report.records);
                }
                narrow(scan.report, ask, why_path, root, &picking())
            }
            Ok(Scanned::Memo(mut memo)) => {
                // Kept as found holding now, so the next check reads nothing; not by a
                // commit hook, which leaves the write to the refresh after the commit.
                if let (Some(settled), true) = (memo.take_settled(), self.settle) {
                    idx.settle_memo(&settled)?;
                }
                let deps = table.as_ref().map(|_| memo.deps().clone());
                match narrow_memo(memo, ask, why_path, root, &picking()) {
                    Ok(decoded) => {
                        let decoded = decoded.map_err(|e| idx.err(e))?;
                        if let (Some(path), Some(deps)) = (&table, &deps) {
                            let records = &decoded.0.records;
                            index::governing::write(path, cached.scope(), deps, records);
                        }
                        Ok(decoded)
                    }
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e.into()),
        };
        Ok((report, added, rescanned))
    }

    /// `index` (and `index --rebuild`): brings every part of the index up to date.
    pub fn index_update(&mut self, rebuild: bool, progress: Progress) -> Result<IndexSummary> {
        // Another process may put a new file in place while this one reads the old (a first
        // build racing another, `index --rebuild` beside it): nothing was mixed, so the update
        // starts again on the file now there, which is complete (ADR-0011).
        let mut tries = 0;
        loop {
            match self.index_update_once(rebuild, progress) {
                Err(Error::Index(index::IndexError::Replaced(_))) if tries < 3 => tries += 1,
                done => return done,
            }
        }
    }

    fn index_update_once(&mut self, rebuild: bool, progress: Progress) -> Result<IndexSummary> {
        self.keep_table = true;
        let (repo, path) = self.index_of()?;
        let mode = if rebuild {
            index::Mode::Rebuild
        } else {
            index::Mode::Update
        };
        let mut idx = Index::open(repo, path, self.opts.index_wait, mode)?;
        let history = idx.repo.head.is_some().then_some(progress);
        idx.markers(&self.root, "")?;
        if idx.repo.head.is_some() {
            idx.staged_markers()?;
        }
        // `index` writes pending commits into redb.
        let (scanned, commits_added, mut rescanned) = self.scan_with(
            &mut idx,
            history,
            true,
            &Ask::Check,
            None,
            &mut Markers::default,
        )?;
        if let Some(p) = idx.take_pending_write() {
            if let Err(note) = p.write() {
                idx.diagnostics.push(note);
            }
        }
        // Files written within a moment of the scan cannot vouch for themselves by their
        // content yet (`fs::fingerprint::DIGEST_MARGIN_NS`): scanned again a moment later, so
        // that `index --status` right after says fresh (CONTRACT.md §4, ADR-0011).
        let mut scanned = scanned;
        for _ in 0..3 {
            if !rescanned || idx.memo_holds(&Scope::new(&self.root, &self.opts.docs))? {
                break;
            }
            std::thread::sleep(SETTLE);
            (scanned, _, rescanned) = self.scan_with(
                &mut idx,
                None,
                true,
                &Ask::Check,
                None,
                &mut Markers::default,
            )?;
        }
        idx.finish()?;
        let records = match scanned {
            Ok((report, _)) => report.records.len(),
            Err(e) if e.is_no_records() => 0,
            Err(e) => return Err(e),
        };
        Ok(IndexSummary {
            path: idx.path.display().to_string(),
            records,
            commits_added,
            head: idx.repo.head.map(|h| git::sha_hex(&h)),
            diagnostics: self
                .config_warnings()
                .into_iter()
                .chain(idx.diagnostics.iter().cloned())
                .collect(),
        })
    }

    /// The refresh hooks' update (ADR-0008): every part of the index brought up to date as
    /// `index` does, except that a few new commits stay in the pending file, as a query leaves
    /// them (a commit costs a file rename, not a redb write session), and the markers are kept
    /// as they are read (ADR-0009). Returns whether a scan ran (the scan memo did not hold):
    /// only a scan's stamps can be too recent to hold in turn.
    pub fn refresh(&mut self) -> Result<bool> {
        self.keep_table = true;
        let (repo, path) = self.index_of()?;
        let mut idx = Index::open(repo, path, self.opts.index_wait, index::Mode::Update)?;
        let history = idx.repo.head.is_some().then_some(None);
        let (scanned, _, rescanned) = self.scan_with(
            &mut idx,
            history,
            false,
            &Ask::Check,
            None,
            &mut Markers::default,
        )?;
        if let Some(p) = idx.take_pending_write() {
            // Not written: the next query walks those commits again.
            let _ = p.write();
        }
        idx.finish()?;
        match scanned {
            Err(e) if !e.is_no_records() => Err(e),
            _ => Ok(rescanned),
        }
    }

    /// `index --status`: reports, never updates.
    /// A hook's refresh still running is waited for (at most [`index::inflight::STALE`]):
    /// right after a git operation the index is reported as its hook leaves it (ADR-0008).
    pub fn index_status(&mut self) -> Result<IndexStatus> {
        let (repo, path) = self.index_of()?;
        index::inflight::wait(&repo, index::inflight::STALE);
        let nothing = IndexStatus {
            path: path.display().to_string(),
            schema_version: index::schema::SCHEMA_VERSION,
            head: repo.head.map(|h| git::sha_hex(&h)),
            indexed_head: None,
            fresh: false,
            records: 0,
            commits: 0,
            paths: 0,
        };
        if !path.exists() {
            return Ok(nothing);
        }
        // A file that cannot be read (damaged, truncated) is reported as holding nothing, not
        // fresh: the next query rebuilds it (ADR-0011). A newer schema is refused.
        let status = index::catch_damage(None, || {
            let mut idx = Index::open(repo, path, self.opts.index_wait, index::Mode::Status)?;
            idx.status(&self.root, &self.opts.docs)
        });
        match status {
            Some(Ok(status)) => Ok(status),
            Some(Err(e @ (index::IndexError::Newer { .. } | index::IndexError::Busy(_)))) => {
                Err(e.into())
            }
            Some(Err(_)) | None => Ok(nothing),
        }
    }
}

impl Session {
    /// Whether the repository's records are about code kept elsewhere (CONTRACT.md §8, "Gone
    /// means it was there"): its record folders against the files git tracks, read when asked.
    fn kept_elsewhere<'a>(&'a self, repo: Option<&'a Repo>) -> impl Fn() -> bool + 'a {
        move || {
            let Some(Ok(tracked)) = repo.map(git::tracked) else {
                return false;
            };
            let folders = crate::fs::discover::record_folders(&self.root, &self.opts.docs)
                .unwrap_or_default();
            crate::checks::code_kept_elsewhere(
                &folders,
                tracked.files.iter().map(|f| f.path.as_str()),
            )
        }
    }

    /// Which source files' markers `ask` needs for its decisions and findings: for `why PATH`,
    /// those in PATH; for the full check and `record`, every file's. Returns (PATH, every
    /// file). Drift, with `--git`, counts what git's index declares instead.
    fn marker_needs<'a>(&self, ask: &Ask, why_path: Option<&'a str>) -> (Option<&'a str>, bool) {
        match ask {
            Ask::Why(_) => (Some(why_path.unwrap_or("")), false),
            _ => (None, true),
        }
    }

    /// The markers under `within` from the index: a folder's served by blob id (and kept,
    /// for the whole root); a single file is only read. Read on a thread of its own, but for
    /// the whole root, which the index keeps after.
    fn markers_started(&self, idx: &mut Index, within: &str) -> Result<LocalMarkers> {
        if within.is_empty() {
            return Ok(LocalMarkers::Ready(Box::new(
                idx.markers(&self.root, within)?,
            )));
        }
        let (root, repo, within) = (self.root.clone(), idx.repo.clone(), within.to_string());
        let stored = match root.join(&within).is_dir() {
            true => Some(idx.stored_markers_for(&within)?),
            false => None,
        };
        Ok(LocalMarkers::Running(std::thread::spawn(move || {
            let cache: &dyn scan::MarkerCache = match &stored {
                Some(stored) => stored,
                None => &scan::NoCache,
            };
            scan::scan_markers(&root, Some(&repo), &within, cache)
        })))
    }

    /// The markers of every source file under the root (CONTRACT.md §7, ADR-0009): from the
    /// index brought up to date, or read afresh with `--no-index`, outside git, or when the
    /// index can't be used. For the hooks and `review`: with [`Markers::declared`], the files
    /// declaring each record.
    pub fn source_markers(&mut self) -> Result<Markers> {
        let repo = self.repo_now()?;
        if let (Some(repo), false) = (&repo, self.opts.no_index) {
            let path = index::path_for(repo);
            let opened = Index::open(
                repo.clone(),
                path,
                self.opts.index_wait,
                index::Mode::Update,
            );
            if let Ok(found) = opened.and_then(|mut idx| idx.markers(&self.root, "")) {
                return Ok(found.markers);
            }
        }
        Ok(scan::scan_markers(&self.root, repo.as_ref(), "", &scan::NoCache).markers)
    }
}

/// The markers a question found: those in PATH for `why PATH`, every file's when it needed
/// them.
struct Found {
    local: Option<scan::MarkerScan>,
    global: Option<scan::MarkerScan>,
}

impl Found {
    /// The markers the question's findings are about: PATH's for `why`, else every file's.
    fn about(&self) -> &Markers {
        self.local
            .as_ref()
            .or(self.global.as_ref())
            .map(|f| &f.markers)
            .unwrap_or(&NO_MARKERS)
    }

    /// Why git's index could not be read, once.
    fn add_notes(&self, report: &mut Report) {
        let note = self
            .local
            .iter()
            .chain(&self.global)
            .find_map(|f| f.note.clone());
        report.notes.extend(note);
    }
}

static NO_MARKERS: Markers = Markers { files: Vec::new() };

/// Where an indexed report came from.
enum Scanned<'a> {
    /// The index's scan memo still held.
    Memo(index::MemoHit<'a>),
    Scan(Box<scan::Scan>),
}

/// Whether a current record of the report names a path that is not there (whose finding the
/// history decides: gone, or never had).
fn names_missing_paths(report: &Report) -> bool {
    report
        .records
        .iter()
        .any(|r| r.status.is_current() && !r.missing_paths.is_empty())
}

/// The paths current records name that are not there, each once.
fn missing_paths(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .records
        .iter()
        .filter(|r| r.status.is_current())
        .flat_map(|r| r.missing_paths.iter().cloned())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The findings about missing paths, told by the history whether the repository ever had each,
/// and `kept_elsewhere` whether its records are about code kept elsewhere (asked only about a
/// path it never had).
fn with_history(
    report: &mut Report,
    ever_had: &mut dyn FnMut(&str) -> bool,
    kept_elsewhere: &dyn Fn() -> bool,
) {
    crate::checks::with_history(&report.records, &mut report.findings, ever_had, &mut || {
        kept_elsewhere()
    });
}

fn add_history(root: &Path, report: &mut Report, outcome: Outcome, markers: &Markers) {
    match outcome {
        Outcome::NotARepo => report.notes.push(match Error::object_format(root) {
            Some(unsupported) => format!("--git: {unsupported}: answered without history"),
            None => format!(
                "--git: {} is not in a git work tree, so there is no history to read",
                root.display()
            ),
        }),
        Outcome::NoCommits => report.notes.push(
            "--git: the repository has no commits yet, so there is no history to read".into(),
        ),
        Outcome::Ready(data) => {
            if data.shallow {
                report.notes.push(
                    "--git: this is a shallow clone: commits and drift count only the commits present"
                        .into(),
                );
            }
            drift::fill_declared(&mut report.records, &data, markers, &mut report.notes);
        }
    }
}

/// The markers of the path asked about: read, or being read on a thread of their own.
enum LocalMarkers {
    Ready(Box<scan::MarkerScan>),
    Running(std::thread::JoinHandle<scan::MarkerScan>),
}

impl LocalMarkers {
    /// The scan, waited for the first time it is asked for.
    fn scan(&mut self) -> &scan::MarkerScan {
        if let LocalMarkers::Running(_) = self {
            let LocalMarkers::Running(handle) =
                std::mem::replace(self, LocalMarkers::Ready(Box::default()))
            else {
                unreachable!("matched just above")
            };
            *self = LocalMarkers::Ready(Box::new(handle.join().expect("the marker scan panicked")));
        }
        match self {
            LocalMarkers::Ready(scan) => scan,
            LocalMarkers::Running(_) => unreachable!("waited for just above"),
        }
    }

    fn into_scan(mut self) -> scan::MarkerScan {
        self.scan();
        match self {
            LocalMarkers::Ready(scan) => *scan,
            LocalMarkers::Running(_) => unreachable!("waited for by scan()"),
        }
    }
}
