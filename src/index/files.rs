//! The records' and guides' cache (ADR-0006): each file's parse kept with the stamp of the
//! file it was read from; a file whose stamp still holds is served without reading it. Also
//! the last guide walk. [`Cached`] serves a scan ([`Inputs`]); [`Index::store_inputs`] keeps
//! what a scan read anew.

use super::codec;
use super::schema::{
    CachedGuide, CachedRecord, Scope, WalkCache, EDGES, GUIDES, KEY_GUIDE_WALK, KEY_SCAN_MEMO,
    KEY_SCAN_MEMO_REPORT, KEY_SCOPE, META, RECORDS, WALKS,
};
use super::{Index, IndexError};
use crate::fs::fingerprint::{Content, Fingerprint, RootDir, Stamp};
use crate::fs::walk::WalkStamp;
use crate::fs::Found;
use crate::parse::{Guide, ParsedRecord};
use crate::scan::{Inputs, Scan};
use crate::util::locked;
use redb::ReadableTable;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

/// The cached parses, serving a scan ([`Inputs`]). The stored values are decoded on first
/// use: a query the memo answers decodes none.
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
    /// The last guide walk as stored, decoded on first use: on a large tree it is one stamp
    /// per folder, and only a scan needs it (read with the stored parses).
    guide_walk: OnceLock<Option<WalkStamp>>,
    /// The stored [`super::schema::ScanMemo`] and [`super::schema::MemoReport`], undecoded.
    pub(super) memo: Option<(Vec<u8>, Vec<u8>)>,
    /// The root, opened on first use: stamps are taken relative to it.
    dir: OnceLock<RootDir>,
    /// The side file keeping which checksum of git's index has the memo's tracked paths
    /// (`memo::same_names`).
    pub(super) names_file: PathBuf,
    /// Whether that file may be written (not by `index --status`, which never writes).
    pub(super) keep_names: bool,
}

/// The stored parses, undecoded: records and guides by root-relative path.
#[derive(Default)]
pub(super) struct Raw {
    pub(super) records: HashMap<String, Vec<u8>>,
    pub(super) guides: HashMap<String, Vec<u8>>,
    /// The last guide walk ([`WalkCache`]), undecoded.
    pub(super) walk: Option<Vec<u8>>,
    /// The imports the records' rules read, by blob id (ADR-0021), undecoded.
    pub(super) imports: super::imports::RawImports,
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
    raw.walk = match txn.open_table(WALKS) {
        Ok(walks) => walks.get(KEY_GUIDE_WALK)?.map(|v| v.value().to_vec()),
        Err(redb::TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    raw.imports = super::imports::read(txn)?;
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
    fn new(
        scope: &Scope,
        parses: Option<redb::ReadTransaction>,
        memo: Option<(Vec<u8>, Vec<u8>)>,
        names_file: PathBuf,
    ) -> Cached {
        Cached {
            root: PathBuf::from(&scope.root),
            scope: scope.clone(),
            same_scope: parses.is_some(),
            parses: Mutex::new(parses),
            raw: OnceLock::new(),
            records: OnceLock::new(),
            guides: OnceLock::new(),
            guide_walk: OnceLock::new(),
            memo,
            dir: OnceLock::new(),
            names_file,
            keep_names: true,
        }
    }

    /// What these parses were read under (root, `--docs`, configuration, parser).
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The root, opened once.
    pub(super) fn dir(&self) -> &RootDir {
        self.dir.get_or_init(|| RootDir::open(&self.root))
    }

    /// The stored parses, read on first use (none for another scope). A table that does not
    /// read serves nothing here, and its error stops the write that would keep this scan.
    fn raw(&self) -> Result<&Raw, &str> {
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

    fn records(&self) -> &HashMap<String, CachedRecord> {
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

    /// The last guide walk stored for this scope, decoded now if not yet.
    fn stored_walk(&self) -> Option<&WalkStamp> {
        self.guide_walk
            .get_or_init(|| {
                let raw = self.raw().ok()?.walk.as_deref()?;
                codec::decode::<WalkCache>(raw)
                    .ok()
                    .filter(|w| w.scope == self.scope)
                    .map(|w| w.walk)
            })
            .as_ref()
    }

    /// The stored imports, when the stored parses were read.
    pub(super) fn raw_imports(&self) -> Option<&super::imports::RawImports> {
        self.raw().ok().map(|r| &r.imports)
    }

    /// Whether a cached entry's stamp still holds for `rel`, whose fingerprint is `now`.
    fn holds(&self, rel: &str, stamp: &Stamp, stored_ns: i64, now: &Fingerprint) -> bool {
        stamp.holds(self.dir(), rel, Content::File, now, stored_ns)
    }
}

impl Inputs for Cached {
    fn keeps(&self) -> Option<&RootDir> {
        Some(self.dir())
    }

    fn record(&self, found: &Found, now: &Fingerprint) -> Option<(ParsedRecord, Stamp)> {
        let c = self.records().get(&found.rel)?;
        self.holds(&found.rel, &c.stamp, c.stored_ns, now)
            .then(|| (c.parsed.clone(), c.stamp))
    }

    fn guide(&self, found: &Found, now: &Fingerprint) -> Option<(Guide, Stamp)> {
        let c = self.guides().get(&found.rel)?;
        self.holds(&found.rel, &c.stamp, c.stored_ns, now)
            .then(|| (c.guide.clone(), c.stamp))
    }

    fn guide_walk(&self) -> Option<WalkStamp> {
        self.stored_walk()
            .filter(|w| w.still_holds(self.dir()))
            .cloned()
    }

    fn imports(&self) -> Option<&dyn crate::scan::imports::ImportCache> {
        Some(self)
    }
}

impl crate::scan::imports::ImportCache for Cached {
    fn get(&self, key: &crate::scan::imports::ImportKey) -> Option<Vec<crate::imports::Import>> {
        super::imports::get(self.raw_imports()?, key)
    }
}

impl Index {
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
        let memo = match (get(KEY_SCAN_MEMO)?, get(KEY_SCAN_MEMO_REPORT)?) {
            (Some(memo), Some(report)) if same_scope => Some((memo, report)),
            _ => None,
        };
        drop(meta);
        Ok(Cached::new(
            scope,
            same_scope.then_some(txn),
            memo,
            self.path.with_extension("names"),
        ))
    }

    /// Keeps what a scan on `cached` read anew: each file whose stamp is not the cached one is
    /// written, vanished ones removed, the guide walk and the scan's memo replaced. No write at
    /// all when nothing changed.
    pub fn store_inputs(&mut self, cached: &Cached, scan: &Scan) -> Result<(), IndexError> {
        let Some(deps) = &scan.deps else {
            return Ok(());
        };
        let stored = deps.started_ns;
        let stamps = |list: &[(Found, Option<Stamp>)]| -> HashMap<String, Stamp> {
            list.iter()
                .filter_map(|(f, s)| s.map(|s| (f.rel.clone(), s)))
                .collect()
        };
        let (record_stamps, guide_stamps) = (stamps(&deps.files), stamps(&deps.guides));
        // The memo of this scan replaces the last (which did not hold, or this scan would not
        // have run); when none can be made, the last is dropped.
        let memo = super::memo_of::memo_of(&cached.scope, scan);
        let mut record_writes = Vec::new();
        for p in &scan.parsed {
            let Some(stamp) = record_stamps.get(&p.path) else {
                continue;
            };
            if cached.records().get(&p.path).map(|c| &c.stamp) != Some(stamp) {
                record_writes.push((
                    p.path.clone(),
                    codec::encode(&CachedRecord {
                        stamp: *stamp,
                        stored_ns: stored,
                        parsed: p.clone(),
                    }),
                ));
            }
        }
        let mut guide_writes = Vec::new();
        for g in &scan.guides {
            let Some(stamp) = guide_stamps.get(&g.path) else {
                continue;
            };
            if cached.guides().get(&g.path).map(|c| &c.stamp) != Some(stamp) {
                guide_writes.push((
                    g.path.clone(),
                    codec::encode(&CachedGuide {
                        stamp: *stamp,
                        stored_ns: stored,
                        guide: g.clone(),
                    }),
                ));
            }
        }
        cached.release(true);
        let raw = cached.raw().map_err(|e| self.err(e))?;
        let live_records: HashSet<&str> = scan.parsed.iter().map(|p| p.path.as_str()).collect();
        let live_guides: HashSet<&str> = scan.guides.iter().map(|g| g.path.as_str()).collect();
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
        let import_writes =
            super::imports::ImportWrites::of(scan.imports.as_ref(), cached.raw_imports());
        let walk_write = (cached.stored_walk() != Some(&deps.walk)).then(|| {
            codec::encode(&WalkCache {
                scope: cached.scope.clone(),
                walk: deps.walk.clone(),
            })
        });
        if cached.same_scope
            && memo.is_none()
            && cached.memo.is_none()
            && walk_write.is_none()
            && record_writes.is_empty()
            && guide_writes.is_empty()
            && gone_records.is_empty()
            && gone_guides.is_empty()
            && import_writes.is_empty()
        {
            return Ok(());
        }
        let txn = self.write_txn()?;
        {
            let mut records = txn.open_table(RECORDS).map_err(|e| self.err(e))?;
            let mut guide_table = txn.open_table(GUIDES).map_err(|e| self.err(e))?;
            let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
            let mut edges = txn.open_table(EDGES).map_err(|e| self.err(e))?;
            if !cached.same_scope {
                records.retain(|_, _| false).map_err(|e| self.err(e))?;
                guide_table.retain(|_, _| false).map_err(|e| self.err(e))?;
                edges.retain(|_, _| false).map_err(|e| self.err(e))?;
                meta.insert(KEY_SCOPE, codec::encode(&cached.scope).as_slice())
                    .map_err(|e| self.err(e))?;
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
            let written: HashSet<&str> = record_writes.iter().map(|(k, _)| k.as_str()).collect();
            for p in scan
                .parsed
                .iter()
                .filter(|p| written.contains(p.path.as_str()))
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
                let mut walks = txn.open_table(WALKS).map_err(|e| self.err(e))?;
                walks
                    .insert(KEY_GUIDE_WALK, w.as_slice())
                    .map_err(|e| self.err(e))?;
                // Where an older build kept it.
                meta.remove(KEY_GUIDE_WALK).map_err(|e| self.err(e))?;
            }
            self.write_imports(&txn, &import_writes)?;
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
}

/// The edges a record declares, as parsed: (relation, target id or path).
pub(crate) fn edges_of(p: &ParsedRecord) -> Vec<(&'static str, String)> {
    use crate::parse::Ref;
    let target = |r: &Ref| match r {
        Ref::Id(id) => id.clone(),
        Ref::Link { target, .. } | Ref::Web { target, .. } => target.clone(),
    };
    let mut out: Vec<(&'static str, String)> = Vec::new();
    out.extend(p.supersedes.iter().map(|r| ("supersedes", target(r))));
    out.extend(p.superseded_by.iter().map(|r| ("superseded-by", target(r))));
    out.extend(p.amends.iter().map(|r| ("amends", target(r))));
    out.extend(p.related.iter().map(|r| ("relates-to", target(r))));
    out.extend(p.mentions.iter().map(|id| ("mentions", id.clone())));
    out.extend(p.links.iter().map(|r| ("links", target(r))));
    out.sort();
    out.dedup();
    out
}
