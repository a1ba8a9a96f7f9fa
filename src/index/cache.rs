//! The records' and guides' cache, and the scan memo (ADR-0006).
//!
//! Parsed files are kept with a fingerprint of the file taken before it was read; a file whose
//! fingerprint is the same, and settled (not changed within the clock's resolution of when it
//! was stored), is served without reading it. The scan memo goes one step further: the last
//! scan's report, with everything it depended on besides the parsed files (the record folders
//! and the files in them, the guide files, and every answer the file system gave the graph).
//! When all of that still holds, the report is the one a scan would make, and no graph is built.

use super::codec;
use super::schema::{
    CachedGuide, CachedRecord, GuideWalkCache, MemoReport, MemoReportRef, RecordHead,
    RecordHeadRef, ScanMemo, Scope, GUIDES, RECORDS,
};
use crate::fs::discover;
use crate::fs::fingerprint::{fingerprint, settled, Fingerprint, RootDir};
use crate::fs::Found;
use crate::model::Report;
use crate::parse::Guide;
use crate::parse::ParsedRecord;
use crate::scan::{Inputs, Scan};
use crate::util::locked;
use redb::ReadableTable;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Which build wrote a scan memo: one written by another build (whose report may have other
/// fields) is not used.
const MEMO_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/memo-4");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    Record,
    Guide,
}

/// The cached parses, serving a scan ([`Inputs`]) and noting what it had to parse anew.
/// The stored values are decoded on first use: a query the memo answers decodes none.
pub struct Cached {
    pub(super) root: PathBuf,
    pub(super) scope: Scope,
    pub(super) same_scope: bool,
    /// The read transaction the stored parses come from, when they are for this scope: read
    /// the first time a scan asks ([`Cached::raw`]), so a query the memo answers reads none.
    /// It holds the file's shared lock: [`Cached::release`] lets it go before any write.
    parses: Mutex<Option<redb::ReadTransaction>>,
    raw: OnceLock<Result<Raw, String>>,
    records: OnceLock<HashMap<String, CachedRecord>>,
    guides: OnceLock<HashMap<String, CachedGuide>>,
    pub(super) guide_walk: Option<GuideWalkCache>,
    /// The stored [`ScanMemo`] and [`MemoReport`], undecoded.
    pub(super) memo: Option<(Vec<u8>, Vec<u8>)>,
    /// The files parsed anew (not served), with their fingerprints from before the read.
    pub(super) seen: Mutex<HashMap<(Kind, String), Fingerprint>>,
    /// Every file's fingerprint as the scan found it, served or not.
    all: Mutex<HashMap<(Kind, String), Fingerprint>>,
    /// The root, opened on first use: fingerprints are taken relative to it.
    dir: OnceLock<RootDir>,
}

/// The stored parses, undecoded: records and guides by root-relative path.
#[derive(Default)]
pub(super) struct Raw {
    pub(super) records: HashMap<String, Vec<u8>>,
    pub(super) guides: HashMap<String, Vec<u8>>,
}

/// Reads the records' and guides' tables as stored.
fn read_raw(txn: &redb::ReadTransaction) -> Result<Raw, redb::Error> {
    let mut raw = Raw::default();
    for (table, out) in [(RECORDS, &mut raw.records), (GUIDES, &mut raw.guides)] {
        for entry in txn.open_table(table)?.iter()? {
            let (k, v) = entry?;
            out.insert(k.value().to_string(), v.value().to_vec());
        }
    }
    Ok(raw)
}

/// Decodes what decodes; a value that does not is left out (its file is parsed again).
fn decode_all<T: serde::de::DeserializeOwned>(
    raw: &HashMap<String, Vec<u8>>,
) -> HashMap<String, T> {
    raw.iter()
        .filter_map(|(k, v)| codec::decode(v).ok().map(|d| (k.clone(), d)))
        .collect()
}

impl Cached {
    pub(super) fn new(
        scope: &Scope,
        parses: Option<redb::ReadTransaction>,
        guide_walk: Option<GuideWalkCache>,
        memo: Option<(Vec<u8>, Vec<u8>)>,
    ) -> Cached {
        Cached {
            root: PathBuf::from(&scope.root),
            scope: scope.clone(),
            same_scope: parses.is_some(),
            parses: Mutex::new(parses),
            raw: OnceLock::new(),
            records: OnceLock::new(),
            guides: OnceLock::new(),
            guide_walk,
            memo,
            seen: Mutex::new(HashMap::new()),
            all: Mutex::new(HashMap::new()),
            dir: OnceLock::new(),
        }
    }

    fn dir(&self) -> &RootDir {
        self.dir.get_or_init(|| RootDir::open(&self.root))
    }

    /// The stored parses, read on first use (none for another scope). A table that does not
    /// read serves nothing here, and its error stops the write that would keep this scan.
    pub(super) fn raw(&self) -> Result<&Raw, &str> {
        self.raw
            .get_or_init(|| match (&*locked(&self.parses), self.same_scope) {
                (Some(txn), _) => read_raw(txn).map_err(|e| e.to_string()),
                (None, false) => Ok(Raw::default()),
                (None, true) => Err("the stored parses were released unread".into()),
            })
            .as_ref()
            .map_err(|e| e.as_str())
    }

    /// Ends the read of the stored parses (reading them first when `keep`), so the index can
    /// be opened to write: a scan keeps them; an answer from the memo needs none.
    pub fn release(&self, keep: bool) {
        if keep {
            let _ = self.raw();
        }
        *locked(&self.parses) = None;
    }

    pub(super) fn records(&self) -> &HashMap<String, CachedRecord> {
        self.records.get_or_init(|| {
            self.raw()
                .map(|raw| decode_all(&raw.records))
                .unwrap_or_default()
        })
    }

    fn guides(&self) -> &HashMap<String, CachedGuide> {
        self.guides.get_or_init(|| {
            self.raw()
                .map(|raw| decode_all(&raw.guides))
                .unwrap_or_default()
        })
    }

    fn serve(&self, kind: Kind, found: &Found, cached: Option<(&Fingerprint, i64)>) -> bool {
        let fp = self.dir().fingerprint(&found.rel);
        let fresh = match (fp, cached) {
            (Some(now), Some((then, stored))) => now == *then && settled(&now, stored),
            _ => false,
        };
        if let Some(fp) = fp {
            let key = (kind, found.rel.clone());
            if !fresh {
                locked(&self.seen).insert(key.clone(), fp);
            }
            locked(&self.all).insert(key, fp);
        }
        fresh
    }

    /// The cached guide walk, when no folder it walked and no ignore file changed since.
    fn valid_walk(&self) -> Option<&GuideWalkCache> {
        let w = self.guide_walk.as_ref()?;
        let same = |now: Option<Fingerprint>, then: &Option<Fingerprint>| {
            now == *then && now.as_ref().is_none_or(|fp| settled(fp, w.stored_ns))
        };
        let dir = self.dir();
        let dirs_same = crate::util::parallel_map_from(1024, &w.dirs, |(d, then)| {
            same(dir.fingerprint(d), then)
        })
        .into_iter()
        .all(|same| same);
        let ignores_same = dirs_same
            && w.ignores
                .iter()
                .all(|(p, then)| same(fingerprint(Path::new(p)), then));
        ignores_same.then_some(w)
    }

    /// The stored scan's report, when everything it depended on still holds: the same record
    /// folders, each folder listed with the fingerprint it had (so the same files in it), every
    /// record and guide file with the fingerprint it had (settled), the same guide files, and
    /// the same answers from the file system.
    pub fn memo_report(&self, docs: &[String]) -> Option<MemoHit<'_>> {
        let (memo, report) = self.memo.as_ref()?;
        let memo: ScanMemo = codec::decode(memo).ok()?;
        if memo.made_by != MEMO_MADE_BY || memo.scope != self.scope || memo.scope.docs != docs {
            return None;
        }
        let root = self.root.as_path();
        let folders = discover::record_folders(root, docs).ok()?;
        if folders != memo.folders {
            return None;
        }
        let dir = self.dir();
        let same = |rel: &str, then: &Fingerprint| {
            dir.fingerprint(rel)
                .is_some_and(|now| now == *then && settled(&now, memo.stored_ns))
        };
        // The same folders listed: the same files in them (and the same notes).
        if !memo.record_dirs.iter().all(|(dir, then)| same(dir, then)) {
            return None;
        }
        let unchanged = |files: &[Found], fps: &[Fingerprint]| {
            files.len() == fps.len() && files.iter().zip(fps).all(|(f, then)| same(&f.rel, then))
        };
        if !unchanged(&memo.files, &memo.file_fps) {
            return None;
        }
        let walk = self.valid_walk()?;
        // The walk's folders were just found unchanged (same inode and times, settled).
        let same_dirs: std::collections::HashSet<&str> =
            walk.dirs.iter().map(|(d, _)| d.as_str()).collect();
        if walk.files != memo.guide_files
            || !unchanged(&memo.guide_files, &memo.guide_fps)
            || !memo.observed.still_holds(root, &same_dirs)
        {
            return None;
        }
        let report: MemoReportRef = codec::decode_borrowed(report).ok()?;
        (report.heads.len() == report.records.len()).then_some(MemoHit {
            root: memo.scope.root,
            report,
        })
    }

    /// The memo of `scan` (run on these inputs), to store with `stored_ns`: `None` when a file
    /// had no fingerprint, or the report holds history (it never does straight from a scan).
    pub(super) fn memo_of(&self, scan: &Scan) -> Option<(Vec<u8>, Vec<u8>)> {
        let all = locked(&self.all);
        let fps = |kind: Kind, files: &[Found]| -> Option<Vec<Fingerprint>> {
            files
                .iter()
                .map(|f| all.get(&(kind, f.rel.clone())).copied())
                .collect()
        };
        let report = &scan.report;
        if report.query.is_some()
            || report
                .records
                .iter()
                .any(|r| !r.commits.is_empty() || r.drift.is_some())
        {
            return None;
        }
        let record_dirs = scan
            .record_dirs
            .iter()
            .map(|d| self.dir().fingerprint(d).map(|fp| (d.clone(), fp)))
            .collect::<Option<Vec<_>>>()?;
        let memo = ScanMemo {
            made_by: MEMO_MADE_BY.to_string(),
            scope: self.scope.clone(),
            stored_ns: scan.started_ns,
            folders: scan.folders.clone(),
            files: scan.files.clone(),
            file_notes: scan.file_notes.clone(),
            record_dirs,
            file_fps: fps(Kind::Record, &scan.files)?,
            guide_files: scan.guide_files.clone(),
            guide_fps: fps(Kind::Guide, &scan.guide_files)?,
            observed: scan.observed.clone(),
        };
        let memo_report = MemoReport {
            heads: report
                .records
                .iter()
                .map(|r| RecordHead {
                    id: r.id.clone(),
                    status: r.status,
                    governs: r.governs.clone(),
                })
                .collect(),
            records: report.records.iter().map(codec::encode).collect(),
            docs: report.docs.clone(),
            findings: report.findings.clone(),
            notes: report.notes.clone(),
        };
        Some((codec::encode(&memo), codec::encode(&memo_report)))
    }
}

/// The stored report of a memo that holds, its records still encoded.
pub struct MemoHit<'a> {
    root: String,
    report: MemoReportRef<'a>,
}

impl MemoHit<'_> {
    /// What the records are picked by, in report order.
    pub fn heads(&self) -> &[RecordHeadRef<'_>] {
        &self.report.heads
    }

    /// The report with the records whose id `keep` takes (decoded now) and every finding:
    /// the query narrows the findings as it would a scan's report.
    pub fn report(self, keep: impl Fn(&str) -> bool) -> Result<Report, codec::DecodeError> {
        let records = self
            .report
            .heads
            .iter()
            .zip(&self.report.records)
            .filter(|(head, _)| keep(head.id))
            .map(|(_, bytes)| codec::decode(bytes))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Report {
            root: self.root,
            records,
            docs: self.report.docs,
            findings: self.report.findings,
            notes: self.report.notes,
            query: None,
        })
    }
}

impl Inputs for Cached {
    fn guide_files(&self) -> Option<Vec<Found>> {
        self.valid_walk().map(|w| w.files.clone())
    }

    fn record(&self, found: &Found) -> Option<ParsedRecord> {
        let c = self.records().get(&found.rel);
        self.serve(
            Kind::Record,
            found,
            c.map(|c| (&c.fingerprint, c.stored_ns)),
        )
        .then(|| c.map(|c| c.parsed.clone()))
        .flatten()
    }

    fn guide(&self, found: &Found) -> Option<Guide> {
        let c = self.guides().get(&found.rel);
        self.serve(Kind::Guide, found, c.map(|c| (&c.fingerprint, c.stored_ns)))
            .then(|| c.map(|c| c.guide.clone()))
            .flatten()
    }
}

/// What a guide walk depended on, fingerprinted now.
pub(super) fn walk_cache(
    scope: &Scope,
    walk: &crate::fs::walk::GuideWalk,
    stored_ns: i64,
) -> GuideWalkCache {
    let root = Path::new(&scope.root);
    let mut ignores: Vec<PathBuf> = crate::fs::walk::outer_ignore_files(root);
    // Inside the walked folders only the ignore files that exist: one appearing or vanishing
    // changes its folder's times, which are checked anyway.
    for d in &walk.dirs {
        for name in [".gitignore", ".ignore"] {
            let p = root.join(d).join(name);
            if p.exists() {
                ignores.push(p);
            }
        }
    }
    GuideWalkCache {
        scope: scope.clone(),
        stored_ns,
        dirs: walk
            .dirs
            .iter()
            .map(|d| (d.clone(), fingerprint(&root.join(d))))
            .collect(),
        ignores: ignores
            .into_iter()
            .map(|p| {
                let fp = fingerprint(&p);
                (p.display().to_string(), fp)
            })
            .collect(),
        files: walk.files.clone(),
    }
}
