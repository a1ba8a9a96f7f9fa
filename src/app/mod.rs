//! The application: options, the questions a command asks, and answering them from the index
//! brought up to date or from a fresh scan (CONTRACT.md §1, §4; ADR-0006, ADR-0007).

pub mod error;
pub mod pick;

pub use error::{Error, Result};

use crate::fs::root::resolve_root;
use crate::git as history;
use crate::index::{self, Index};
use crate::model::{self, IndexSummary, Report, Severity};
use crate::{drift, scan};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Progress of long work: (done, total).
pub type Progress<'a> = Option<&'a (dyn Fn(usize, usize) + Sync)>;

/// The options every command takes.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--root`; `None` means the work tree around the current directory.
    pub root: Option<PathBuf>,
    /// `--docs`: record folders used instead of the default list.
    pub docs: Vec<String>,
    /// `--git`: read commits and drift from the history.
    pub git: bool,
    /// `--no-index`: neither read nor write the index; scan.
    pub no_index: bool,
    /// How long to wait for an index another process holds, before answering from a scan.
    pub index_wait: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            root: None,
            docs: Vec::new(),
            git: false,
            no_index: false,
            index_wait: index::DEFAULT_WAIT,
        }
    }
}

/// The question asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    Check,
    Why(String),
    Record(String),
}

/// An answered question, and what to say about how it was answered (for stderr, never in
/// the report: the JSON is the same with or without the index).
#[derive(Debug, Clone)]
pub struct Answer {
    pub report: Report,
    pub diagnostics: Vec<String>,
}

/// Answers one question: from the index brought up to date (ADR-0006), or from a fresh scan
/// with `--no-index`, outside git, or when the index can't be used.
pub fn answer(opts: &Options, ask: &Ask, progress: Progress) -> Result<Answer> {
    let root = resolve_root(opts.root.as_deref())?;
    // A query path is checked before any work: one outside the root is refused.
    let why_path = match ask {
        Ask::Why(p) => {
            Some(
                crate::fs::root::query_path(&root, p).map_err(|reason| Error::BadPath {
                    path: p.clone(),
                    reason,
                })?,
            )
        }
        _ => None,
    };
    let mut diagnostics = Vec::new();
    let indexed = if opts.no_index {
        None
    } else {
        match answer_indexed(&root, opts, ask, why_path.as_deref(), progress) {
            Ok(found) => found,
            Err(Error::Index(e)) => {
                diagnostics.push(format!("{e}; answered from a scan"));
                None
            }
            Err(e) => return Err(e),
        }
    };
    let report = match indexed {
        Some((report, mut notes)) => {
            diagnostics.append(&mut notes);
            report
        }
        None => {
            let report = scan::scan(&root, &opts.docs, &scan::Fresh)?.report;
            let mut report = narrow(report, ask, why_path.as_deref())?;
            if opts.git {
                let outcome = history::load(&root)?;
                add_history(&root, &mut report, outcome);
            }
            report
        }
    };
    Ok(Answer {
        report,
        diagnostics,
    })
}

/// What a question keeps of the full report, decided from the records' ids, statuses and
/// governed entries alone: a scan's records or the scan memo's stored heads.
enum Pick {
    All,
    Why(Vec<model::Decision>),
    Record(String),
}

impl Pick {
    fn of<R: model::Pickable>(records: &[R], ask: &Ask, why_path: Option<&str>) -> Result<Pick> {
        Ok(match ask {
            Ask::Check => Pick::All,
            Ask::Why(_) => Pick::Why(pick::decisions_for(records, why_path.unwrap_or(""))),
            Ask::Record(input) => Pick::Record(pick::find_id(records, input)?),
        })
    }

    fn keeps(&self, id: &str) -> bool {
        match self {
            Pick::All => true,
            Pick::Why(decisions) => decisions.iter().any(|d| d.id == id),
            Pick::Record(found) => found == id,
        }
    }

    /// The answer from a report holding (at least) the records this keeps.
    fn answer(self, report: Report, why_path: Option<&str>) -> Report {
        match self {
            Pick::All => report,
            Pick::Why(decisions) => pick::why_decided(report, why_path.unwrap_or(""), decisions),
            Pick::Record(id) => pick::record_found(report, id),
        }
    }
}

fn narrow(report: Report, ask: &Ask, why_path: Option<&str>) -> Result<Report> {
    let pick = Pick::of(&report.records, ask, why_path)?;
    Ok(pick.answer(report, why_path))
}

/// [`narrow`] on the scan memo's report: the records are picked by their stored heads and only
/// those are decoded (the answer is the same).
fn narrow_memo(
    memo: index::MemoHit<'_>,
    ask: &Ask,
    why_path: Option<&str>,
) -> Result<std::result::Result<Report, index::codec::DecodeError>> {
    let pick = Pick::of(memo.heads(), ask, why_path)?;
    Ok(memo
        .report(|id| pick.keeps(id))
        .map(|report| pick.answer(report, why_path)))
}

/// The indexed answer; `None` outside a git work tree.
fn answer_indexed(
    root: &Path,
    opts: &Options,
    ask: &Ask,
    why_path: Option<&str>,
    progress: Progress,
) -> Result<Option<(Report, Vec<String>)>> {
    let Some((repo, path)) = index::locate(root)? else {
        return Ok(None);
    };
    let mut idx = Index::open(repo, path, opts.index_wait, index::Mode::Update)?;
    let has_commits = idx.repo.head.is_some();
    let history = (opts.git && has_commits).then_some(progress);
    let (scanned, _) = scan_with(&mut idx, root, &opts.docs, history, false, ask, why_path)?;
    let mut report = scanned?;
    // New pending commits are written beside the index while the answer is computed.
    let pending = idx.take_pending_write();
    let written = std::thread::scope(|s| -> Result<Option<String>> {
        let write = pending.map(|p| s.spawn(move || p.write()));
        if write.is_some() {
            std::thread::yield_now(); // see `scan_with`: let it start now
        }
        if opts.git {
            let outcome = if has_commits {
                history::Outcome::Ready(idx.history_for(&report.records)?)
            } else {
                history::Outcome::NoCommits
            };
            add_history(root, &mut report, outcome);
        }
        Ok(write.and_then(|w| w.join().expect("the pending write panicked").err()))
    })?;
    idx.diagnostics.extend(written);
    Ok(Some((report, idx.diagnostics)))
}

/// Where an indexed report came from.
enum Scanned<'a> {
    /// The index's scan memo still held.
    Memo(index::MemoHit<'a>),
    Scan(Box<scan::Scan>),
}

/// The report `ask` needs, from the index: its scan memo when that still holds, else a scan
/// served from its cached parses, which then keeps what was parsed anew (ADR-0006). With
/// `history`, the history part is brought up to date at the same time, on another thread (the
/// scan mostly waits on the file system, the walk on git's objects). Returns the scan's own
/// outcome, narrowed to the question, and how many commits were added; the outer error is the
/// index's.
fn scan_with(
    idx: &mut Index,
    root: &Path,
    docs: &[String],
    history: Option<Progress>,
    fold: bool,
    ask: &Ask,
    why_path: Option<&str>,
) -> Result<(Result<Report>, usize)> {
    let scope = index::schema::Scope {
        root: root.display().to_string(),
        docs: docs.to_vec(),
    };
    let cached = idx.inputs(&scope)?;
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
            // Let the new thread run now: left to wait for this one's time slice, it started
            // up to 4 ms late (measured on a 2-core VM).
            std::thread::yield_now();
        }
        let memo = cached.memo_report(docs);
        cached.release(memo.is_none());
        drop(gate);
        let scanned = match memo {
            Some(report) => Ok(Scanned::Memo(report)),
            None => scan::scan(root, docs, &cached).map(|s| Scanned::Scan(Box::new(s))),
        };
        let refreshed = refresh.map(|h| h.join().expect("the history refresh panicked"));
        (scanned, refreshed)
    });
    let added = refreshed.transpose()?.unwrap_or(0);
    let report = match scanned {
        Ok(Scanned::Scan(scan)) => {
            idx.store_inputs(&cached, &scan)?;
            narrow(scan.report, ask, why_path)
        }
        Ok(Scanned::Memo(memo)) => match narrow_memo(memo, ask, why_path) {
            Ok(decoded) => Ok(decoded.map_err(|e| idx.err(e))?),
            Err(e) => Err(e),
        },
        Err(e) => Err(e),
    };
    Ok((report, added))
}

fn add_history(root: &Path, report: &mut Report, outcome: history::Outcome) {
    match outcome {
        history::Outcome::NotARepo => report.notes.push(format!(
            "--git: {} is not in a git work tree, so there is no history to read",
            root.display()
        )),
        history::Outcome::NoCommits => report.notes.push(
            "--git: the repository has no commits yet, so there is no history to read".into(),
        ),
        history::Outcome::Ready(data) => {
            if data.shallow {
                report.notes.push(
                    "--git: this is a shallow clone: commits and drift count only the commits present"
                        .into(),
                );
            }
            drift::fill(&mut report.records, &data, &mut report.notes);
        }
    }
}

/// The exit code of an answered question: 1 when the full check found problems, else 0.
pub fn exit_code(ask: &Ask, report: &Report) -> i32 {
    let problems = report
        .findings
        .iter()
        .any(|f| f.severity == Severity::Problem);
    i32::from(*ask == Ask::Check && problems)
}

/// The root, its repository and where its index lives; an error outside git.
fn locate_index(opts: &Options) -> Result<(PathBuf, history::Repo, PathBuf)> {
    let root = resolve_root(opts.root.as_deref())?;
    let Some((repo, path)) = index::locate(&root)? else {
        return Err(Error::NoGit(root.display().to_string()));
    };
    Ok((root, repo, path))
}

fn open_index(opts: &Options, rebuild: bool) -> Result<(PathBuf, Index)> {
    let (root, repo, path) = locate_index(opts)?;
    let mode = if rebuild {
        index::Mode::Rebuild
    } else {
        index::Mode::Update
    };
    let idx = Index::open(repo, path, opts.index_wait, mode)?;
    Ok((root, idx))
}

/// `index` (and `index --rebuild`): brings every part of the index up to date.
pub fn index_update(opts: &Options, rebuild: bool, progress: Progress) -> Result<IndexSummary> {
    let (root, mut idx) = open_index(opts, rebuild)?;
    let history = idx.repo.head.is_some().then_some(progress);
    // `index` writes pending commits into redb.
    let (scanned, commits_added) = scan_with(
        &mut idx,
        &root,
        &opts.docs,
        history,
        true,
        &Ask::Check,
        None,
    )?;
    if let Some(p) = idx.take_pending_write() {
        if let Err(note) = p.write() {
            idx.diagnostics.push(note);
        }
    }
    let records = match scanned {
        Ok(report) => report.records.len(),
        Err(Error::NoRecords { .. }) => 0,
        Err(e) => return Err(e),
    };
    Ok(IndexSummary {
        path: idx.path.display().to_string(),
        records,
        commits_added,
        head: idx.repo.head.map(|h| history::sha_hex(&h)),
        diagnostics: idx.diagnostics.clone(),
    })
}

/// `index --status`: reports, never updates.
pub fn index_status(opts: &Options) -> Result<model::IndexStatus> {
    let (root, repo, path) = locate_index(opts)?;
    if !path.exists() {
        return Ok(model::IndexStatus {
            path: path.display().to_string(),
            schema_version: index::schema::SCHEMA_VERSION,
            head: repo.head.map(|h| history::sha_hex(&h)),
            indexed_head: None,
            fresh: false,
            records: 0,
            commits: 0,
            paths: 0,
        });
    }
    let mut idx = Index::open(repo, path, opts.index_wait, index::Mode::Status)?;
    Ok(idx.status(&root, &opts.docs)?)
}
