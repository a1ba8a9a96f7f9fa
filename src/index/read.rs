//! Reading the history an answer needs (ADR-0006): only the commits that touch the records'
//! governed paths or files, or mention their ids, among those HEAD reaches, as a sparse
//! [`HistoryData`] that `drift::fill` answers from as from a full walk.

use super::codec;
use super::graph::Reach;
use super::pending::pending_number;
use super::schema::*;
use super::{Index, IndexError};
use crate::git::{self, CommitMeta, HistoryData, Rename, WalkedCommit};
use crate::governs::{Pattern, Scope};
use crate::model::Record;
use crate::text::date::{parse_date, SECONDS_PER_DAY};
use crate::text::marker::Markers;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A map keyed by commit number, with a hash made for numbers (SipHash was a few percent of an
/// answer).
type Numbered<V> = HashMap<u32, V, foldhash::fast::RandomState>;

/// Path → commit numbers, filled from range scans where one path's entries come together: a
/// run is gathered and moved into the map when the path changes, not looked up entry by entry.
#[derive(Default)]
pub(super) struct PathLists {
    pub(super) map: BTreeMap<String, Vec<u32>>,
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

    pub(super) fn flush(&mut self) {
        if !self.run.is_empty() {
            let path = std::mem::take(&mut self.path);
            self.map.entry(path).or_default().append(&mut self.run);
        }
        self.path.clear();
    }

    pub(super) fn finish(mut self) -> BTreeMap<String, Vec<u32>> {
        self.flush();
        self.map
    }
}

/// The commits an answer reads, each once: its metadata in the order first met, and where
/// each commit number's is. (A map of numbers to places, not to the metadata itself: the map
/// stays small as it grows, where one holding 1,300 commits' metadata regrew through 400 KB,
/// a sixth of a warm answer's page faults.)
#[derive(Default)]
pub(super) struct Found {
    pub(super) slots: Numbered<u32>,
    pub(super) metas: Vec<CommitMeta>,
    /// Authors as met: an answer's commits share a few authors, so each name is made once.
    authors: HashSet<std::sync::Arc<str>, foldhash::fast::RandomState>,
}

impl Found {
    pub(super) fn reserve(&mut self, n: usize) {
        self.slots.reserve(n);
        self.metas.reserve(n);
    }

    pub(super) fn insert(&mut self, n: u32, meta: CommitMeta) {
        self.slots.insert(n, self.metas.len() as u32);
        self.metas.push(meta);
    }

    pub(super) fn author(&mut self, name: &str) -> std::sync::Arc<str> {
        if let Some(known) = self.authors.get(name) {
            return known.clone();
        }
        let made: std::sync::Arc<str> = name.into();
        self.authors.insert(made.clone());
        made
    }
}

impl Index {
    /// What HEAD reaches, as stored (nothing before the history was first built); the file
    /// opened to read.
    pub(super) fn reach(&mut self) -> Result<Reach, IndexError> {
        self.readable()?;
        Ok(match self.meta(KEY_REACH)? {
            Some(b) => codec::decode(&b).map_err(|e| self.err(e))?,
            None => Reach::default(),
        })
    }

    /// For each pattern, whether a commit HEAD reaches (stored or pending) ever touched a path
    /// it matches (docs/reading.md, "Gone means it was there").
    pub fn ever_had(&mut self, patterns: &[&str]) -> Result<Vec<bool>, IndexError> {
        let reach = self.reach()?;
        let prefix = self.repo.prefix.as_str();
        let txn = self.read_txn()?;
        let paths = txn.open_table(PATHS).map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(patterns.len());
        for text in patterns {
            let pattern = Pattern::new(text);
            let pending = self.pending.iter().any(|c| {
                c.changes.iter().any(|p| {
                    crate::util::under_prefix_str(p, prefix).is_some_and(|rel| pattern.matches(rel))
                })
            });
            let mut had = pending;
            let start = format!("{prefix}{}", pattern.range_prefix());
            if !had {
                for entry in paths
                    .range((start.as_str(), 0u32)..)
                    .map_err(|e| self.err(e))?
                {
                    let (k, _) = entry.map_err(|e| self.err(e))?;
                    let (path, n) = k.value();
                    if !path.starts_with(start.as_str()) {
                        break;
                    }
                    if reach.contains(n) && pattern.matches(&path[prefix.len()..]) {
                        had = true;
                        break;
                    }
                }
            }
            out.push(had);
        }
        Ok(out)
    }

    /// For each root-relative path, the id of the newest commit HEAD reaches (stored or
    /// pending) that touched it: for a path that is gone, the commit that deleted it, where
    /// git may show it renamed (`git::renamed_in`; issue 36).
    pub fn last_touch(&mut self, paths: &[&str]) -> Result<Vec<Option<[u8; 20]>>, IndexError> {
        let reach = self.reach()?;
        let prefix = self.repo.prefix.clone();
        let txn = self.read_txn()?;
        let table = txn.open_table(PATHS).map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(paths.len());
        for rel in paths {
            let full = format!("{prefix}{rel}");
            // A path no commit touched as a file may be a folder: the newest commit that
            // touched a file in it (the one that deleted or moved the last of them).
            let folder = format!("{full}/");
            // The pending commits are newer than the stored ones, and newest first.
            let pending = self
                .pending
                .iter()
                .find(|c| {
                    c.changes.binary_search(&full).is_ok()
                        || c.changes.iter().any(|p| p.starts_with(&folder))
                })
                .map(|c| c.id);
            if pending.is_some() {
                out.push(pending);
                continue;
            }
            let mut newest: Option<(i64, [u8; 20])> = None;
            let exact = table
                .range((full.as_str(), 0u32)..)
                .map_err(|e| self.err(e))?
                .next()
                .transpose()
                .map_err(|e| self.err(e))?
                .is_some_and(|(k, _)| k.value().0 == full);
            let from = if exact {
                full.as_str()
            } else {
                folder.as_str()
            };
            let ours = |path: &str| match exact {
                true => path == full,
                false => path.starts_with(&folder),
            };
            for entry in table.range((from, 0u32)..).map_err(|e| self.err(e))? {
                let (k, v) = entry.map_err(|e| self.err(e))?;
                let (path, n) = k.value();
                if !ours(path) {
                    break;
                }
                if !reach.contains(n) {
                    continue;
                }
                let read = codec::MetaReader::new(v.value()).map_err(|e| self.err(e))?;
                if newest.is_none_or(|(t, _)| read.time > t) {
                    newest = Some((read.time, read.id));
                }
            }
            out.push(newest.map(|(_, id)| id));
        }
        Ok(out)
    }

    /// The history a set of records needs, read from the index: only the commits that touch
    /// their governed paths or their files (and the files' earlier names), or mention their ids,
    /// among those HEAD reaches. `drift::fill` gives the same answer on it as on a full walk.
    /// The files whose markers declare a current record (`markers`) are read like its
    /// governed paths: drift counts them (ADR-0009).
    ///
    /// What the stored commits give is kept beside the index ([`super::history_memo`]) with
    /// everything it was read from: while that holds (a few new commits kept pending since,
    /// the records as they were), it is read back whole and only the pending commits are
    /// added (issue 17). The pending commits never change what is read from the stored ones,
    /// except through a record file they renamed: then everything is read as it stands.
    pub fn history_for(
        &mut self,
        records: &[Record],
        markers: &Markers,
    ) -> Result<HistoryData, IndexError> {
        let declared = markers.declared();
        let reach = self.reach()?;
        let renamed = self.pending.iter().any(|c| !c.renames.is_empty());
        let key = match renamed {
            true => None,
            false => Some(self.history_key(records, &declared)?),
        };
        let gathered = match key {
            Some(key) => {
                let mut gathered = match self.read_history_memo(&key) {
                    Some(kept) => kept,
                    None => {
                        let mut gathered = self.gather(records, &declared, &reach, &[])?;
                        gathered.by_path.flush();
                        self.keep_history_memo(key, &gathered);
                        gathered
                    }
                };
                self.add_pending(&mut gathered, records, &declared);
                gathered
            }
            None => self.gather(records, &declared, &reach, &self.pending)?,
        };
        Ok(self.finish_history(gathered, &reach))
    }

    /// The commits `records` need among those HEAD reaches, read from the stored ones and
    /// from `pending`.
    fn gather(
        &self,
        records: &[Record],
        declared: &Declared<'_>,
        reach: &Reach,
        pending: &[WalkedCommit],
    ) -> Result<Gathered, IndexError> {
        // The first commit number that may be as recent as a date (seconds): every stored
        // number below it is older (`KEY_TIME_BLOCKS`; 0 when the index keeps no blocks).
        let blocks: Option<Vec<i64>> = match self.meta(KEY_TIME_BLOCKS)? {
            Some(b) => Some(codec::decode(&b).map_err(|e| self.err(e))?),
            None => None,
        };
        let floor_of = |since: Option<i64>| -> u32 {
            match (since, &blocks) {
                (Some(since), Some(blocks)) => first_number_since(blocks, since),
                _ => 0,
            }
        };
        let prefix = self.repo.prefix.as_str();
        let txn = self.read_txn()?;
        let paths = txn.open_table(PATHS).map_err(|e| self.err(e))?;
        let renames_t = txn.open_table(RENAMES).map_err(|e| self.err(e))?;
        let mentions = txn.open_table(MENTIONS).map_err(|e| self.err(e))?;

        // (root-relative path) → commit numbers, for every path the answer may look at; and
        // each commit's metadata, read from the same entries the first time it shows up.
        let mut g = Gathered::default();
        // Keeps commit `n` unless it is older than `since` (seconds), and says whether it did
        // (or had already).
        let keep = |n: u32,
                    value: &[u8],
                    since: Option<i64>,
                    found: &mut Found|
         -> Result<bool, IndexError> {
            if found.slots.contains_key(&n) {
                return Ok(true);
            }
            let read = codec::MetaReader::new(value).map_err(|e| self.err(e))?;
            if since.is_some_and(|since| read.time < since) {
                return Ok(false);
            }
            let (id, time) = (read.id, read.time);
            let m = read.rest().map_err(|e| self.err(e))?;
            let meta = CommitMeta {
                sha: git::Sha(id),
                time,
                author: found.author(m.author),
                subject: m.subject.into(),
                mentions: m.mentions.iter().map(|id| id.to_string()).collect(),
                is_merge: m.is_merge,
            };
            found.insert(n, meta);
            Ok(true)
        };
        // Every stored (and pending) commit touching a path `pattern` matches: one range scan
        // from its literal prefix (paths are stored relative to the work tree's top). Stored
        // commits older than `since` are left out.
        let scan_range = |pattern: &Pattern,
                          scope: Option<&Scope>,
                          since: Option<i64>,
                          by_path: &mut PathLists,
                          found: &mut Found|
         -> Result<(), IndexError> {
            let start = format!("{prefix}{}", pattern.range_prefix());
            // No stored commit numbered below `floor` is as recent as `since`: each path's
            // entries are read from there on, one seek a path.
            let floor = floor_of(since);
            let mut from = (start.clone(), 0u32);
            loop {
                let mut next: Option<(String, u32)> = None;
                // A path's entries come one after another: whether it is governed is decided
                // once.
                let mut last: Option<(String, bool)> = None;
                for entry in paths
                    .range((from.0.as_str(), from.1)..)
                    .map_err(|e| self.err(e))?
                {
                    let (k, v) = entry.map_err(|e| self.err(e))?;
                    let (path, n) = k.value();
                    let governed = match &last {
                        Some((p, governed)) if p == path => *governed,
                        _ => {
                            if !path.starts_with(start.as_str()) {
                                break;
                            }
                            if n < floor {
                                next = Some((path.to_string(), floor));
                                break;
                            }
                            let rel = &path[prefix.len()..];
                            let governed =
                                pattern.matches(rel) && scope.is_none_or(|s| s.governs(rel));
                            last = Some((path.to_string(), governed));
                            governed
                        }
                    };
                    if governed && reach.contains(n) && keep(n, v.value(), since, found)? {
                        by_path.push(&path[prefix.len()..], n);
                    }
                }
                match next {
                    Some(key) => from = key,
                    None => break,
                }
            }
            pending_on(pending, prefix, pattern, scope, by_path, found);
            Ok(())
        };
        for r in records {
            if r.status.is_current() {
                // Drift counts the commits on the governed paths since the record's date: the
                // older ones are not read (on a long history most of them). Without a usable
                // date it counts from the record file's first commit: all are read.
                let since = r
                    .date
                    .as_deref()
                    .filter(|d| !d.trim().is_empty())
                    .and_then(parse_date)
                    .map(|day| day * SECONDS_PER_DAY);
                let scope = Scope::new(&r.governs);
                for pattern in scope.positives() {
                    scan_range(pattern, Some(&scope), since, &mut g.by_path, &mut g.found)?;
                }
                for (file, _) in declared.get(r.id.as_str()).into_iter().flatten() {
                    scan_range(
                        &Pattern::Path(file),
                        None,
                        since,
                        &mut g.by_path,
                        &mut g.found,
                    )?;
                }
            }
            // The record file, and its earlier names back through renames.
            let mut todo = vec![r.path.clone()];
            let mut seen = HashSet::new();
            let mut chain = Vec::new();
            while let Some(p) = todo.pop() {
                if !seen.insert(p.clone()) {
                    continue;
                }
                scan_range(&Pattern::Path(&p), None, None, &mut g.by_path, &mut g.found)?;
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
                        if let Some(from) = crate::util::under_prefix_str(v.value(), prefix) {
                            g.renames.push((n, from.to_string(), p.clone()));
                            todo.push(from.to_string());
                        }
                    }
                }
                for (i, c) in pending.iter().enumerate() {
                    for (from, to) in &c.renames {
                        if *to == full {
                            if let Some(from) = crate::util::under_prefix_str(from, prefix) {
                                g.renames
                                    .push((pending_number(i), from.to_string(), p.clone()));
                                todo.push(from.to_string());
                            }
                        }
                    }
                }
                chain.push(p);
            }
            g.chains.push(chain);
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
                    keep(n, v.value(), None, &mut g.found)?;
                }
            }
            pending_mentioning(pending, &r.id, &mut g.found);
        }
        Ok(g)
    }

    /// Adds the pending commits to what the stored ones gave (`g`, read with no pending
    /// commits): the same as reading both at once when no pending commit renamed a file.
    fn add_pending(&self, g: &mut Gathered, records: &[Record], declared: &Declared<'_>) {
        let prefix = self.repo.prefix.as_str();
        let pending = self.pending.as_slice();
        for (r, chain) in records.iter().zip(&g.chains) {
            let current = r.status.is_current();
            if current {
                let scope = Scope::new(&r.governs);
                for pattern in scope.positives() {
                    let (by_path, found) = (&mut g.by_path, &mut g.found);
                    pending_on(pending, prefix, pattern, Some(&scope), by_path, found);
                }
            }
            // The files declaring a current record, then the record's file and its earlier
            // names: each read whole.
            let declaring = declared.get(r.id.as_str()).filter(|_| current);
            let files = declaring.into_iter().flatten().map(|(file, _)| *file);
            for file in files.chain(chain.iter().map(String::as_str)) {
                let (by_path, found) = (&mut g.by_path, &mut g.found);
                pending_on(pending, prefix, &Pattern::Path(file), None, by_path, found);
            }
            pending_mentioning(pending, &r.id, &mut g.found);
        }
    }

    /// The history an answer reads, from what was gathered.
    fn finish_history(&self, g: Gathered, reach: &Reach) -> HistoryData {
        // The commits, in the canonical order (newest first, ties by sha); their places are
        // sorted, not the metadata itself.
        let Gathered {
            found,
            by_path,
            renames,
            ..
        } = g;
        let Found {
            slots, mut metas, ..
        } = found;
        // A stable sort: the stored commits of a history memo come in this order already,
        // and the pending ones after them, two runs merged at once.
        let mut order: Vec<u32> = (0..metas.len() as u32).collect();
        order.sort_by(|&a, &b| git::canonical_order(&metas[a as usize], &metas[b as usize]));
        // Slot → place in the answer.
        let mut place = vec![0u32; metas.len()];
        for (i, &slot) in order.iter().enumerate() {
            place[slot as usize] = i as u32;
        }
        // Put in place where they are, cycle by cycle, not copied into a new list: a
        // thousand commits' metadata is 40 pages of fresh memory, and each page's first touch
        // cost 2–4 µs on the VM (issue 17).
        let mut to = place.clone();
        for i in 0..to.len() {
            while to[i] as usize != i {
                let j = to[i] as usize;
                metas.swap(i, j);
                to.swap(i, j);
            }
        }
        let position = |n: &u32| slots.get(n).map(|&slot| place[slot as usize]);
        let by_path = by_path
            .finish()
            .into_iter()
            .map(|(p, ns)| {
                let mut idx: Vec<u32> = ns.iter().filter_map(position).collect();
                idx.sort_unstable();
                (p, idx)
            })
            .collect();
        let mut renames: Vec<Rename> = renames
            .into_iter()
            .filter_map(|(n, from, to)| position(&n).map(|commit| Rename { commit, from, to }))
            .collect();
        renames.sort_by(|a, b| (a.commit, &a.from, &a.to).cmp(&(b.commit, &b.from, &b.to)));
        renames.dedup();
        HistoryData {
            head: self.repo.head.map(|h| git::sha_hex(&h)).unwrap_or_default(),
            shallow: self.repo.shallow,
            commits: metas,
            by_path,
            renames,
            total_commits: reach.count() + self.pending.len(),
        }
    }
}

/// The files whose markers declare each id ([`Markers::declared`]).
pub(super) type Declared<'a> = BTreeMap<&'a str, Vec<(&'a str, u32)>>;

/// What the commits an answer needs gave, before it is put in order: each commit's metadata,
/// each path's commit numbers, the renames met, and each record's file names back through
/// them (the record's own first), record by record.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) found: Found,
    pub(super) by_path: PathLists,
    pub(super) renames: Vec<(u32, String, String)>,
    pub(super) chains: Vec<Vec<String>>,
}

/// The pending commits (all reached by HEAD, a fast-forward, numbered down from the top so
/// they never meet a stored number) touching a path `pattern` matches (within `scope`).
fn pending_on(
    pending: &[WalkedCommit],
    prefix: &str,
    pattern: &Pattern,
    scope: Option<&Scope>,
    by_path: &mut PathLists,
    found: &mut Found,
) {
    for (i, c) in pending.iter().enumerate() {
        let n = pending_number(i);
        for path in &c.changes {
            let Some(rel) = crate::util::under_prefix_str(path, prefix) else {
                continue;
            };
            if pattern.matches(rel) && scope.is_none_or(|s| s.governs(rel)) {
                by_path.push(rel, n);
                if !found.slots.contains_key(&n) {
                    found.insert(n, c.meta.clone());
                }
            }
        }
    }
}

/// The pending commits whose message mentions `id`.
fn pending_mentioning(pending: &[WalkedCommit], id: &str, found: &mut Found) {
    for (i, c) in pending.iter().enumerate() {
        let n = pending_number(i);
        if c.meta.mentions.iter().any(|m| m == id) && !found.slots.contains_key(&n) {
            found.insert(n, c.meta.clone());
        }
    }
}

/// The first commit number whose block may hold a commit as recent as `since` (seconds): every
/// stored number below it is older. `blocks` is the index's `KEY_TIME_BLOCKS`, the latest
/// commit time of each block of [`TIME_BLOCK`] numbers.
pub(super) fn first_number_since(blocks: &[i64], since: i64) -> u32 {
    let at = blocks
        .iter()
        .position(|&t| t >= since)
        .unwrap_or(blocks.len());
    at as u32 * TIME_BLOCK
}
