//! The history `why PATH`'s related records read (docs/related.md, ADR-0017), from the
//! tables the refresh keeps: PATH's own entries in `paths` (the commits that changed it, with
//! the ids their messages cite), each record file's oldest entry there, and that commit's
//! size in `commit_changes`; then the pending commits. The same [`PathHistory`] a full walk
//! gives ([`PathHistory::of_walk`]).

use super::codec;
use super::graph::Reach;
use super::schema::{
    StoredChanges, StoredChangesRef, CHANGE_SIZES, COMMIT_CHANGES, PATHS, RENAMES,
};
use super::{Index, IndexError};
use crate::git::{self, Added, CommitMeta, PathHistory, Touching};
use std::collections::{BTreeMap, HashMap, HashSet};

impl Index {
    /// The related records' history of `path` and the `records`' files (root-relative), among
    /// the commits HEAD reaches, stored or pending. The history is read as stored: the caller
    /// brings it up to date first.
    pub fn path_history(
        &mut self,
        path: &str,
        records: &[&str],
    ) -> Result<PathHistory, IndexError> {
        let reach = self.reach()?;
        let prefix = self.repo.prefix.clone();
        let full = format!("{prefix}{path}");
        let txn = self.read_txn()?;
        let paths = txn.open_table(PATHS).map_err(|e| self.err(e))?;
        let changes = txn.open_table(COMMIT_CHANGES).map_err(|e| self.err(e))?;
        let mut touching: Vec<Touching> = Vec::new();
        let mut touched: HashSet<u32> = HashSet::new();
        for entry in paths
            .range((full.as_str(), 0u32)..)
            .map_err(|e| self.err(e))?
        {
            let (k, v) = entry.map_err(|e| self.err(e))?;
            let (p, n) = k.value();
            if p != full {
                break;
            }
            if !reach.contains(n) {
                continue;
            }
            let read = codec::MetaReader::new(v.value()).map_err(|e| self.err(e))?;
            let (id, time) = (read.id, read.time);
            let m = read.rest().map_err(|e| self.err(e))?;
            if m.is_merge {
                continue;
            }
            touched.insert(n);
            // A commit's size, for the commits whose message names an id.
            let files = match m.mentions.is_empty() {
                true => 0,
                false => size_of(&changes, n).map_err(|e| self.err(e))?,
            };
            touching.push(Touching {
                meta: CommitMeta {
                    sha: git::Sha(id),
                    time,
                    author: m.author.into(),
                    subject: m.subject.into(),
                    mentions: m.mentions.iter().map(|s| s.to_string()).collect(),
                    is_merge: false,
                },
                files,
            });
        }
        let mut pending_with_path = Vec::with_capacity(self.pending.len());
        for c in &self.pending {
            let with = !c.meta.is_merge && c.changes.contains(&full);
            if with {
                touching.push(Touching {
                    meta: c.meta.clone(),
                    files: match c.meta.mentions.is_empty() {
                        true => 0,
                        false => c.changes.len(),
                    },
                });
            }
            pending_with_path.push(with);
        }
        touching.sort_by(|a, b| git::canonical_order(&a.meta, &b.meta));
        let focus = self
            .focused_changes(&changes, &touched, &pending_with_path)
            .map_err(|e| self.err(e))?;
        let mut added = BTreeMap::new();
        let renames = txn.open_table(RENAMES).map_err(|e| self.err(e))?;
        let sizes = txn.open_table(CHANGE_SIZES).map_err(|e| self.err(e))?;
        let files: Vec<String> = records.iter().map(|r| format!("{prefix}{r}")).collect();
        let known = RecordRenames::read(&renames, &reach, &files).map_err(|e| self.err(e))?;
        for (record, file) in records.iter().zip(&files) {
            // The file's names back through the renames HEAD reaches, stored or pending.
            let mut failed = None;
            let never_renamed = known.of(file).is_some_and(|from| from.is_empty())
                && self.pending.iter().all(|c| c.renames.is_empty());
            let names = match never_renamed {
                true => vec![file.clone()],
                false => git::names_of(file, &mut |to| {
                    let mut from = Vec::new();
                    match known.of(to) {
                        Some(stored) => from.extend(stored.iter().cloned()),
                        None => match renamed_from(&renames, &reach, to) {
                            Ok(stored) => from.extend(stored),
                            Err(e) => failed = Some(e),
                        },
                    }
                    for c in &self.pending {
                        from.extend(
                            c.renames
                                .iter()
                                .filter(|(_, t)| t == to)
                                .map(|(f, _)| f.clone()),
                        );
                    }
                    from
                }),
            };
            if let Some(e) = failed {
                return Err(self.err(e));
            }
            // Only a record one of the focused commits changing PATH added can be related by
            // that commit: the others' first commits are not looked for (emberjs/rfcs: 262
            // records' histories read for every answer, a fifth of it).
            if focus
                .as_ref()
                .is_some_and(|f| !names.iter().any(|n| f.contains(n)))
            {
                continue;
            }
            // The oldest stored commit that changed one of them, then its size.
            let mut oldest: Option<(Added, u32)> = None;
            for file in &names {
                for entry in paths
                    .range((file.as_str(), 0u32)..)
                    .map_err(|e| self.err(e))?
                {
                    let (k, v) = entry.map_err(|e| self.err(e))?;
                    let (p, n) = k.value();
                    if p != file {
                        break;
                    }
                    if !reach.contains(n) {
                        continue;
                    }
                    let read = codec::MetaReader::new(v.value()).map_err(|e| self.err(e))?;
                    let candidate = Added {
                        sha: git::Sha(read.id),
                        time: read.time,
                        files: 0,
                        with_path: touched.contains(&n),
                        path_bytes: None,
                    };
                    if oldest
                        .as_ref()
                        .is_none_or(|(kept, _)| candidate.is_older_than(kept))
                    {
                        oldest = Some((candidate, n));
                    }
                }
            }
            let mut first = match oldest {
                Some((mut a, n)) => {
                    // Its size matters only when it changed PATH: the other first commits are
                    // not decoded (on JabRef, seventy records' change lists were a millisecond).
                    if a.with_path {
                        (a.files, a.path_bytes) =
                            size_and_bytes(&changes, &sizes, n, &full).map_err(|e| self.err(e))?;
                    }
                    Some(a)
                }
                None => None,
            };
            for (c, with_path) in self.pending.iter().zip(&pending_with_path) {
                if !c.meta.is_merge && names.iter().any(|name| c.changes.contains(name)) {
                    let candidate = Added {
                        sha: c.meta.sha,
                        time: c.meta.time,
                        files: if *with_path { c.changes.len() } else { 0 },
                        with_path: *with_path,
                        path_bytes: (*with_path)
                            .then(|| git::path_bytes(&c.changes, &c.sizes, &full))
                            .flatten(),
                    };
                    Added::keep_oldest(&mut first, candidate);
                }
            }
            if let Some(a) = first {
                added.insert(record.to_string(), a);
            }
        }
        Ok(PathHistory {
            total_commits: reach.count() + self.pending.len(),
            touching,
            added,
        })
    }
}

/// At most this many commits changing PATH have their change lists read to narrow the records
/// whose first commit is looked for; a path changed more often has every record's looked for.
const FOCUS_COMMITS: usize = 64;

impl Index {
    /// Every file the focused commits changing PATH changed (stored, `touched`, and pending,
    /// by `pending_with_path`), those of at most [`crate::related::FOCUSED_FILES`] files: a
    /// record whose first commit is one of them has one of its names there. `None` when PATH
    /// was changed by more than [`FOCUS_COMMITS`] commits (reading their lists would cost
    /// more than it spares).
    fn focused_changes(
        &self,
        changes: &redb::ReadOnlyTable<u32, super::schema::Checked>,
        touched: &HashSet<u32>,
        pending_with_path: &[bool],
    ) -> Result<Option<HashSet<String>>, String> {
        if touched.len() > FOCUS_COMMITS {
            return Ok(None);
        }
        let focused = crate::related::FOCUSED_FILES;
        let mut out = HashSet::new();
        for &n in touched {
            let Some(bytes) = changes.get(n).map_err(|e| e.to_string())? else {
                continue;
            };
            let stored: StoredChangesRef =
                codec::decode_borrowed(bytes.value()).map_err(|e| e.to_string())?;
            if stored.changes.len() <= focused {
                out.extend(stored.changes.iter().map(|c| c.to_string()));
            }
        }
        for (c, with) in self.pending.iter().zip(pending_with_path) {
            if *with && c.changes.len() <= focused {
                out.extend(c.changes.iter().cloned());
            }
        }
        Ok(Some(out))
    }
}

/// The names the record files were renamed from by the stored commits HEAD reaches, read in
/// one pass over the renames to a name from the folder of the first and the last file to the
/// last file: a lookup each
/// cost a related answer on emberjs/rfcs (262 records) a tenth of its instructions
/// (issue 41). Past [`SCAN_PER_FILE`] renames a file there, the pass stops and each name is
/// looked up.
struct RecordRenames<'a> {
    /// The names read: from the folder of the first and the last file's to the last's.
    span: (&'a str, &'a str),
    /// Each name there that was renamed → the names it was renamed from; `None`: not read in
    /// one pass.
    from: Option<HashMap<String, Vec<String>, foldhash::fast::FixedState>>,
}

/// The renames one pass may read, per record file, before it gives way to a lookup each.
const SCAN_PER_FILE: usize = 4;

impl<'a> RecordRenames<'a> {
    fn read(
        renames: &redb::ReadOnlyTable<(&'static str, u32), &'static str>,
        reach: &Reach,
        files: &'a [String],
    ) -> Result<RecordRenames<'a>, redb::StorageError> {
        let (Some(first), Some(last)) = (files.iter().min(), files.iter().max()) else {
            return Ok(RecordRenames {
                span: ("", ""),
                from: None,
            });
        };
        // From the folder both are in: a record's earlier names are mostly beside it, and
        // sort before the first record's (`text/0000-x.md` renamed `text/0421-x.md`).
        let common = first
            .bytes()
            .zip(last.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let folder = first[..common].rfind('/').map_or("", |at| &first[..=at]);
        let span = (folder, last.as_str());
        let budget = files.len().saturating_mul(SCAN_PER_FILE);
        let mut from: HashMap<String, Vec<String>, _> = HashMap::default();
        for (read, entry) in renames.range((span.0, 0u32)..)?.enumerate() {
            let (k, v) = entry?;
            let (to, n) = k.value();
            if to > span.1 {
                break;
            }
            if read >= budget {
                return Ok(RecordRenames { span, from: None });
            }
            if reach.contains(n) {
                from.entry(to.to_string())
                    .or_default()
                    .push(v.value().to_string());
            }
        }
        Ok(RecordRenames {
            span,
            from: Some(from),
        })
    }

    /// The names `to` was renamed from, as [`renamed_from`] gives them; `None` for a name
    /// the pass did not read.
    fn of(&self, to: &str) -> Option<&[String]> {
        let from = self.from.as_ref()?;
        if to < self.span.0 || to > self.span.1 {
            return None;
        }
        Some(from.get(to).map_or(&[], Vec::as_slice))
    }
}

/// The names `to` was renamed from by the stored commits HEAD reaches.
fn renamed_from(
    renames: &redb::ReadOnlyTable<(&'static str, u32), &'static str>,
    reach: &Reach,
    to: &str,
) -> Result<Vec<String>, redb::StorageError> {
    let mut out = Vec::new();
    for entry in renames.range((to, 0u32)..)? {
        let (k, v) = entry?;
        let (t, n) = k.value();
        if t != to {
            break;
        }
        if reach.contains(n) {
            out.push(v.value().to_string());
        }
    }
    Ok(out)
}

/// How many files commit `n`'s diff changed, as stored (none stored: 0).
fn size_of(
    changes: &redb::ReadOnlyTable<u32, super::schema::Checked>,
    n: u32,
) -> Result<usize, String> {
    let Some(bytes) = changes.get(n).map_err(|e| e.to_string())? else {
        return Ok(0);
    };
    let stored: StoredChangesRef =
        codec::decode_borrowed(bytes.value()).map_err(|e| e.to_string())?;
    Ok(stored.changes.len())
}

/// Commit `n`'s stored changes (none stored: `None`).
fn stored_changes(
    changes: &redb::ReadOnlyTable<u32, super::schema::Checked>,
    n: u32,
) -> Result<Option<StoredChanges>, String> {
    let Some(bytes) = changes.get(n).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let stored: StoredChanges = codec::decode(bytes.value()).map_err(|e| e.to_string())?;
    Ok(Some(stored))
}

/// How many files commit `n`'s diff changed, as stored, and `path`'s bytes changed beside all
/// of theirs when its sizes were kept (none stored: 0 and `None`).
fn size_and_bytes(
    changes: &redb::ReadOnlyTable<u32, super::schema::Checked>,
    sizes: &redb::ReadOnlyTable<u32, super::schema::Checked>,
    n: u32,
    path: &str,
) -> Result<(usize, Option<(u64, u64)>), String> {
    let Some(stored) = stored_changes(changes, n)? else {
        return Ok((0, None));
    };
    let Some(kept) = sizes.get(n).map_err(|e| e.to_string())? else {
        return Ok((stored.changes.len(), None));
    };
    let kept: Vec<u32> = codec::decode(kept.value()).map_err(|e| e.to_string())?;
    Ok((
        stored.changes.len(),
        git::path_bytes(&stored.changes, &kept, path),
    ))
}
