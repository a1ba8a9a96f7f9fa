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
use crate::scan;
use crate::text::marker::Markers;
use std::path::{Path, PathBuf};

mod history;
mod index_update;
mod markers;
mod related;

use history::{
    add_history, links_missing, missing_paths, names_missing_paths, with_history, with_renames,
};
use markers::{Found, LocalMarkers};

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
    /// Whether `why`'s related records are looked for (docs/related.md): not by a commit
    /// hook, which asks `why` only for the decisions governing a staged path.
    pub(super) related: bool,
    /// Whether a full check's records are kept in the commit hook's table of governed
    /// entries (ADR-0018): by the refreshes, never on git's path.
    keep_table: bool,
    /// Whether a gone path's finding is told where git renamed it (a tree diff of a commit per
    /// such path, docs/reading.md): not on git's path, where the hook reads no finding.
    pub(super) follow_renames: bool,
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
            related: true,
            keep_table: false,
            follow_renames: true,
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
                let scanned = scanned?;
                let picking = local
                    .as_ref()
                    .map(|l| l.markers.clone())
                    .unwrap_or_default();
                let (mut report, mut known) =
                    narrow(scanned, ask, why_path, root, &picking, self.related)?;
                if let Some(partial) = known.related.take() {
                    let history = match &repo {
                        Some(repo) if partial.wants_history() => related::walked(repo, &partial)?,
                        _ => None,
                    };
                    related::fill(&mut report, partial, history.as_ref());
                }
                let markers = Found { local, global };
                marker_findings(&mut report, ask, why_path, markers.about(), &known);
                markers.add_notes(&mut report);
                let staged = staged.map(|s| s.markers).unwrap_or_default();
                let renames = self.follow_renames && !matches!(ask, Ask::Why(_));
                let needed = self.opts.git
                    || (repo.is_some()
                        && (names_missing_paths(&report) || (renames && links_missing(&report))));
                if needed {
                    let outcome = match &repo {
                        Some(repo) => git::load(repo)?,
                        None => Outcome::NotARepo,
                    };
                    match (&outcome, &repo) {
                        (Outcome::Ready(data), Some(at)) => {
                            with_history(
                                &mut report,
                                &mut |p| data.ever_had(&crate::governs::Pattern::new(p)),
                                &self.kept_elsewhere(repo.as_ref()),
                            );
                            // `why` reads no history beyond the index (ADR-0016): a gone
                            // path's finding counts the same, moved or not.
                            if renames {
                                with_renames(&self.root, at, &mut report, &mut |p| {
                                    let newest = data.newest_touching(p)?;
                                    Some(data.commits.get(newest as usize)?.sha.0)
                                });
                            }
                        }
                        (Outcome::Ready(data), None) => with_history(
                            &mut report,
                            &mut |p| data.ever_had(&crate::governs::Pattern::new(p)),
                            &self.kept_elsewhere(repo.as_ref()),
                        ),
                        (Outcome::NoCommits, _) => with_history(
                            &mut report,
                            &mut |_| false,
                            &self.kept_elsewhere(repo.as_ref()),
                        ),
                        (Outcome::NotARepo, _) => {}
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

    /// `check`'s word on records it may have missed: the default folders hold only a few
    /// records and a folder elsewhere looks like a fuller one (`fs::discover::folders_beside`).
    /// Only without `--docs` and a configuration naming the folders; asked by the `check`
    /// command alone (never on git's path).
    pub fn folders_beside(&self, found: usize) -> Option<String> {
        if !self.opts.docs.is_empty() {
            return None;
        }
        let reading = crate::fs::discover::reading(&self.root, &self.opts.docs).ok()?;
        if !reading.config.folders.is_empty() {
            return None;
        }
        crate::fs::discover::folders_beside(&self.root, &reading.folders, found)
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
        let (mut report, mut known) = scanned?;
        // The history is brought up to date once: by the query (`--git`), else here when an
        // answer needs it.
        let mut refreshed = self.opts.git;
        if let Some(partial) = known.related.take() {
            let history = match has_commits && partial.wants_history() {
                true => {
                    if !refreshed {
                        idx.refresh_history(progress, false)?;
                        refreshed = true;
                    }
                    Some(idx.path_history(partial.path(), &partial.record_files())?)
                }
                false => None,
            };
            related::fill(&mut report, partial, history.as_ref());
        }
        let local = local.map(LocalMarkers::into_scan);
        let markers = Found { local, global };
        marker_findings(&mut report, ask, why_path, markers.about(), &known);
        markers.add_notes(&mut report);
        // Whether a missing path was ever there is the history's to say: brought up to date
        // now if the query did not already (no `--git`).
        let renames = self.follow_renames && !matches!(ask, Ask::Why(_));
        if names_missing_paths(&report) || (renames && links_missing(&report)) {
            if !refreshed && has_commits {
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
            // `why` reads no history beyond the index (ADR-0016): a gone path's finding
            // counts the same, moved or not.
            if renames {
                let at = idx.repo.clone();
                with_renames(&self.root, &at, &mut report, &mut |p| {
                    idx.last_touch(&[p]).ok()?.into_iter().next().flatten()
                });
            }
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
        // The tracked paths the records' code mentions resolve against (docs/mentions.md).
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
                Some(report) => Ok(Scanned::Memo(Box::new(report))),
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
                    let rules = rule_files(&scan.report.records, &scan.report.rules);
                    let records = (scan.report.records.as_slice(), scan.vocabulary());
                    index::governing::write(path, cached.scope(), deps, records, &rules);
                }
                narrow(*scan, ask, why_path, root, &picking(), self.related)
            }
            Ok(Scanned::Memo(mut memo)) => {
                // Kept as found holding now, so the next check reads nothing; not by a
                // commit hook, which leaves the write to the refresh after the commit.
                if let (Some(settled), true) = (memo.take_settled(), self.settle) {
                    idx.settle_memo(&settled)?;
                }
                let deps = table.as_ref().map(|_| memo.deps());
                let vocabulary = table.as_ref().map(|_| memo.vocabulary().to_vec());
                match narrow_memo(*memo, ask, why_path, root, &picking(), self.related) {
                    Ok(decoded) => {
                        let decoded = decoded.map_err(|e| idx.err(e))?;
                        if let (Some(path), Some(deps), Some(words)) = (&table, &deps, &vocabulary)
                        {
                            let records = &decoded.0.records;
                            let rules = rule_files(records, &decoded.0.rules);
                            let records = (records.as_slice(), words.as_slice());
                            index::governing::write(path, cached.scope(), deps, records, &rules);
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
}

/// Where an indexed report came from.
enum Scanned<'a> {
    /// The index's scan memo still held.
    Memo(Box<index::MemoHit<'a>>),
    Scan(Box<scan::Scan>),
}

/// The current records that carry rules, for the commit hook's table (ADR-0021).
fn rule_files(
    records: &[crate::model::Record],
    rules: &[crate::model::RecordRules],
) -> Vec<index::governing::RuleFile> {
    rules
        .iter()
        .filter(|r| r.enforced)
        .filter_map(|r| {
            let record = records.iter().find(|x| x.path == r.path)?;
            Some(index::governing::RuleFile {
                path: r.path.clone(),
                id: r.id.clone(),
                status: record.status,
            })
        })
        .collect()
}
