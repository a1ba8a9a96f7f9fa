//! Bringing the history up to HEAD: the new commits walked, numbered, stored, what HEAD
//! reaches recomputed, and what nothing reaches any more dropped (ADR-0006).

use super::codec;
use super::graph::{load_graph, store_graph, Graph, Reach};
use super::migrations;
use super::pending::{PENDING_MADE_BY, PENDING_MAX};
use super::schema::*;
use super::{Index, IndexError};
use crate::git::{self, WalkedCommit};
use redb::ReadableTable;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// A new commit's values, encoded: the commit, what it changed, its metadata.
struct Encoded {
    n: u32,
    commit: Vec<u8>,
    changes: Vec<u8>,
    /// The sizes of its changes, when its diff kept them.
    sizes: Option<Vec<u8>>,
    meta: Vec<u8>,
}

/// From how many path entries a refresh fills its two groups of tables on two threads.
const PARALLEL_INSERTS: usize = 4096;

/// What a refresh found to do.
enum Plan {
    /// Nothing new: the pending commits (if any) answer with the stored ones.
    UpToDate { pending: Vec<WalkedCommit> },
    /// A fast-forward of a few commits: kept in the pending file, no redb write.
    Pending {
        base: [u8; 20],
        tip: [u8; 20],
        shallow: Vec<u8>,
        commits: Vec<WalkedCommit>,
        added: usize,
    },
    /// Everything into redb: the walked commits and the pending ones (newest first).
    Store(Store),
}

/// The commits to write into redb, and what the refresh knew of the index before.
struct Store {
    new: Vec<WalkedCommit>,
    /// How many of `new` were walked now (the rest were pending).
    added: usize,
    /// Pending commits were folded in: they may lead elsewhere than HEAD (after a reset).
    folded_pending: bool,
    /// The HEAD the index was at, and what it reached.
    indexed: Option<[u8; 20]>,
    old_reach: Option<Reach>,
    shallow: Vec<u8>,
}

/// The history's tables, open in one write transaction.
struct Tables<'t> {
    commits: redb::Table<'t, u32, Checked>,
    changes: redb::Table<'t, u32, Checked>,
    sizes: redb::Table<'t, u32, Checked>,
    commit_ids: redb::Table<'t, &'static [u8; 20], u32>,
    paths: redb::Table<'t, (&'static str, u32), Checked>,
    renames: redb::Table<'t, (&'static str, u32), &'static str>,
    mentions: redb::Table<'t, (&'static str, u32), Checked>,
    meta: redb::Table<'t, &'static str, Checked>,
    graph: redb::Table<'t, u32, Checked>,
}

impl<'t> Tables<'t> {
    fn open(txn: &'t redb::WriteTransaction) -> Result<Tables<'t>, redb::TableError> {
        Ok(Tables {
            commits: txn.open_table(COMMITS)?,
            changes: txn.open_table(COMMIT_CHANGES)?,
            sizes: txn.open_table(CHANGE_SIZES)?,
            commit_ids: txn.open_table(COMMIT_IDS)?,
            paths: txn.open_table(PATHS)?,
            renames: txn.open_table(RENAMES)?,
            mentions: txn.open_table(MENTIONS)?,
            meta: txn.open_table(META)?,
            graph: txn.open_table(GRAPH)?,
        })
    }
}

/// What applying the new commits left for pruning: the graph (all of it, or its tail on a
/// fast-forward), what HEAD reaches, and the numbers that matter.
struct Applied {
    graph: Graph,
    reach: Reach,
    /// The first number the new commits took.
    first: u32,
    head_n: Option<u32>,
    old_head_n: Option<u32>,
}

impl Index {
    /// Brings the history up to HEAD: walks only the commits not indexed yet ([`Index::plan`]).
    /// A fast-forward of a few commits is kept in the pending file beside the index (no redb
    /// write); anything else (or `fold`, for `index`) writes them all into redb
    /// ([`Index::apply`]), then removes what no local branch nor HEAD reaches any more
    /// ([`Index::prune`]). Returns how many commits were walked.
    pub fn refresh_history(
        &mut self,
        progress: Option<&(dyn Fn(usize, usize) + Sync)>,
        fold: bool,
    ) -> Result<usize, IndexError> {
        let mut replans = 0;
        let (store, txn) = loop {
            let store = match self.plan(progress, fold)? {
                Plan::UpToDate { pending } => {
                    self.pending = pending;
                    return Ok(0);
                }
                Plan::Pending {
                    base,
                    tip,
                    shallow,
                    commits,
                    added,
                } => {
                    self.pending_write = Some(codec::encode(&Pending {
                        made_by: PENDING_MADE_BY.to_string(),
                        base,
                        shallow,
                        head: tip,
                        commits: commits.clone(),
                    }));
                    self.pending = commits;
                    return Ok(added);
                }
                Plan::Store(store) => store,
            };
            let txn = self.write_txn()?;
            // HEAD moved while this planned (the hook of the next commit or merge ran meanwhile,
            // and may have kept its commits pending): planned again under the lock, so an older
            // HEAD is never stored over what it did (ADR-0011).
            let mut now = self.repo.clone();
            if replans < 3 && now.refresh().is_ok() && now.head != self.repo.head {
                drop(txn);
                self.repo = now;
                replans += 1;
                continue;
            }
            break (store, txn);
        };
        let added = store.added;
        {
            let mut tables = Tables::open(&txn).map_err(|e| self.err(e))?;
            let applied = self.apply(&mut tables, &store)?;
            self.prune(&mut tables, &store, applied)?;
        }
        txn.commit().map_err(|e| self.err(e))?;
        // The pending commits are stored now (a stale file would not match the new HEAD
        // anyway, but it need not be read again).
        let _ = std::fs::remove_file(self.pending_path());
        self.pending.clear();
        // Close now (on this thread, which may run beside the scan): redb makes the commit
        // durable on close, and the reads that follow reopen the file to read only.
        self.close()?;
        Ok(added)
    }

    /// What a refresh has to do: nothing, keep a few commits pending, or store them. Walks the
    /// commits not indexed yet (nor pending). A moved shallow boundary clears the history first.
    fn plan(
        &mut self,
        progress: Option<&(dyn Fn(usize, usize) + Sync)>,
        fold: bool,
    ) -> Result<Plan, IndexError> {
        let head = self.repo.head;
        let mut indexed = self.indexed_head()?;
        // A shallow clone's boundary commits were diffed against nothing: when the boundary
        // moves (deepen, unshallow), what was indexed for them is wrong, so start over.
        let shallow_now = self.repo.shallow_boundary();
        let shallow_then = self.meta(KEY_SHALLOW)?;
        let same_shallow = shallow_then.as_deref() == Some(shallow_now.as_slice());
        let reach_bytes = self.meta(KEY_REACH)?;
        let has_reach = reach_bytes.is_some();
        let mut pending = self
            .read_pending(indexed, &shallow_now)
            .filter(|_| same_shallow && has_reach);
        let effective = pending.as_ref().map(|p| Some(p.head)).unwrap_or(indexed);
        if head == effective && same_shallow && has_reach && !(fold && pending.is_some()) {
            return Ok(Plan::UpToDate {
                pending: pending.map(|p| p.commits).unwrap_or_default(),
            });
        }
        if shallow_then.is_some_and(|then| then != shallow_now) {
            self.clear_history()?;
            indexed = None;
            pending = None;
        }
        // (After `clear_history` there is no indexed HEAD, so the bytes read above are not used.)
        let old_reach: Option<Reach> = match (indexed, reach_bytes) {
            (Some(_), Some(b)) => Some(codec::decode(&b).map_err(|e| self.err(e))?),
            _ => None,
        };
        let pending_commits = pending.map(|p| p.commits).unwrap_or_default();
        let pending_ids: HashSet<[u8; 20]> = pending_commits.iter().map(|c| c.id).collect();
        // Which commits are known: a lookup each, shared by the walk's threads.
        let (new, fast_forward) = {
            let txn = self.read_txn()?;
            let ids = Mutex::new(txn.open_table(COMMIT_IDS).map_err(|e| self.err(e))?);
            let number = |id: &[u8; 20]| {
                let ids = crate::util::locked(&ids);
                ids.get(id).ok().flatten().map(|v| v.value())
            };
            let known = |id: &[u8; 20]| pending_ids.contains(id) || number(id).is_some();
            let new = match head {
                Some(tip) if !known(&tip) => git::walk_new(&self.repo, tip, &known, progress)?,
                _ => Vec::new(),
            };
            // A fast-forward of the effective HEAD: the new commits rest on it and on commits
            // it reached (stored ones HEAD reached, or pending ones).
            let walked: HashSet<[u8; 20]> = new.iter().map(|c| c.id).collect();
            let boundary: HashSet<[u8; 20]> = new
                .iter()
                .flat_map(|c| c.parents.iter().copied())
                .filter(|p| !walked.contains(p))
                .collect();
            let fast_forward = match (&old_reach, effective) {
                (Some(reach), Some(eff)) => {
                    !new.is_empty()
                        && boundary.contains(&eff)
                        && boundary.iter().all(|b| {
                            pending_ids.contains(b) || number(b).is_some_and(|n| reach.contains(n))
                        })
                }
                _ => false,
            };
            (new, fast_forward)
        };
        let added = new.len();
        if !fold && fast_forward && new.len() + pending_commits.len() <= PENDING_MAX {
            if let (Some(base), Some(tip)) = (indexed, head) {
                let mut commits = new;
                commits.extend(pending_commits);
                return Ok(Plan::Pending {
                    base,
                    tip,
                    shallow: shallow_now,
                    commits,
                    added,
                });
            }
        }
        let folded_pending = !pending_commits.is_empty();
        let mut new = new;
        new.extend(pending_commits);
        Ok(Plan::Store(Store {
            new,
            added,
            folded_pending,
            indexed,
            old_reach,
            shallow: shallow_now,
        }))
    }

    /// The number of a commit: a new one's, or a stored one's.
    fn number_of(
        &self,
        fresh: &HashMap<[u8; 20], u32>,
        ids: &redb::Table<&[u8; 20], u32>,
        id: &[u8; 20],
    ) -> Result<Option<u32>, IndexError> {
        if let Some(&n) = fresh.get(id) {
            return Ok(Some(n));
        }
        Ok(ids.get(id).map_err(|e| self.err(e))?.map(|v| v.value()))
    }

    /// Numbers the new commits, stores them (the commit, its changes, the per-path and per-id
    /// entries carrying its metadata), appends them to the graph, and works out what HEAD
    /// reaches now.
    fn apply(&self, t: &mut Tables, store: &Store) -> Result<Applied, IndexError> {
        let new = &store.new;
        // The last chunk of the graph: where new commits are appended.
        let last_chunk = t
            .graph
            .last()
            .map_err(|e| self.err(e))?
            .map(|(k, _)| k.value())
            .unwrap_or(0);
        let mut graph = load_graph(&t.graph, last_chunk).map_err(|e| self.err(e))?;

        // Number the new commits (oldest first, so parents come before children where
        // possible), then store them with their parents as numbers.
        let first = graph.end();
        let fresh: HashMap<[u8; 20], u32> = new
            .iter()
            .rev()
            .enumerate()
            .map(|(i, c)| (c.id, first + i as u32))
            .collect();
        // (key, index into `stored`): `paths` and `mentions` carry the commit's metadata.
        let mut path_keys: Vec<(&str, u32, usize)> = Vec::new();
        let mut mention_keys: Vec<(&str, u32, usize)> = Vec::new();
        let mut rename_keys: Vec<(&str, u32, &str)> = Vec::new();
        let mut parent_lists: Vec<(u32, Vec<u32>)> = Vec::with_capacity(new.len());
        for (slot, c) in new.iter().enumerate() {
            let n = fresh[&c.id];
            let mut parents = Vec::with_capacity(c.parents.len());
            for p in &c.parents {
                if let Some(pn) = self.number_of(&fresh, &t.commit_ids, p)? {
                    parents.push(pn);
                }
            }
            path_keys.extend(c.changes.iter().map(|p| (p.as_str(), n, slot)));
            mention_keys.extend(c.meta.mentions.iter().map(|id| (id.as_str(), n, slot)));
            rename_keys.extend(
                c.renames
                    .iter()
                    .map(|(from, to)| (to.as_str(), n, from.as_str())),
            );
            parent_lists.push((n, parents));
        }
        // Each commit's values (the commit, its changes, its metadata), on every core.
        let slots: Vec<usize> = (0..new.len()).collect();
        let stored: Vec<Encoded> =
            crate::util::parallel_map_from(PARALLEL_INSERTS, &slots, |&slot| {
                let (c, (n, parents)) = (&new[slot], &parent_lists[slot]);
                let record = StoredCommit {
                    id: c.id,
                    parents: parents.clone(),
                    time: c.meta.time,
                    author: c.meta.author.to_string(),
                    subject: c.meta.subject.to_string(),
                    mentions: c.meta.mentions.clone(),
                    is_merge: c.meta.is_merge,
                };
                let touched = StoredChanges {
                    changes: c.changes.clone(),
                    renames: c.renames.clone(),
                };
                Encoded {
                    n: *n,
                    commit: codec::encode(&record),
                    changes: codec::encode(&touched),
                    sizes: (!c.sizes.is_empty()).then(|| codec::encode(&c.sizes)),
                    meta: codec::encode(&StoredMeta::of(&record)),
                }
            });
        // Inserting in key order keeps redb's pages warm: much faster for a first build.
        parent_lists.sort_unstable();
        for (_, parents) in &parent_lists {
            graph.push(parents);
        }
        // Two groups of tables, filled side by side when there is much to insert (a first
        // build): the per-path ones, and the per-commit ones.
        let many = path_keys.len() >= PARALLEL_INSERTS;
        let per_path = |paths: &mut redb::Table<(&str, u32), Checked>,
                        mentions: &mut redb::Table<(&str, u32), Checked>,
                        renames: &mut redb::Table<(&str, u32), &str>|
         -> Result<(), redb::StorageError> {
            path_keys.sort_unstable();
            for (path, n, slot) in path_keys {
                paths.insert((path, n), stored[slot].meta.as_slice())?;
            }
            mention_keys.sort_unstable();
            for (id, n, slot) in mention_keys {
                mentions.insert((id, n), stored[slot].meta.as_slice())?;
            }
            rename_keys.sort_unstable();
            for (to, n, from) in rename_keys {
                renames.insert((to, n), from)?;
            }
            Ok(())
        };
        let mut by_number: Vec<usize> = (0..stored.len()).collect();
        by_number.sort_unstable_by_key(|&i| stored[i].n);
        let mut id_keys: Vec<(&[u8; 20], u32)> = fresh.iter().map(|(id, n)| (id, *n)).collect();
        id_keys.sort_unstable();
        let per_commit = |commits: &mut redb::Table<u32, Checked>,
                          changes: &mut redb::Table<u32, Checked>,
                          sizes: &mut redb::Table<u32, Checked>,
                          commit_ids: &mut redb::Table<&[u8; 20], u32>|
         -> Result<(), redb::StorageError> {
            for &i in &by_number {
                commits.insert(stored[i].n, stored[i].commit.as_slice())?;
            }
            for &i in &by_number {
                changes.insert(stored[i].n, stored[i].changes.as_slice())?;
            }
            for &i in &by_number {
                if let Some(kept) = &stored[i].sizes {
                    sizes.insert(stored[i].n, kept.as_slice())?;
                }
            }
            for (id, n) in id_keys {
                commit_ids.insert(id, n)?;
            }
            Ok(())
        };
        let Tables {
            commits,
            changes,
            sizes,
            commit_ids,
            paths,
            renames,
            mentions,
            ..
        } = t;
        let (a, b) = if many {
            std::thread::scope(|s| {
                let a = s.spawn(|| per_path(paths, mentions, renames));
                std::thread::yield_now(); // see `Session::scan_with`: let it start now
                let b = per_commit(commits, changes, sizes, commit_ids);
                (a.join().expect("an index insert panicked"), b)
            })
        } else {
            (
                per_path(paths, mentions, renames),
                per_commit(commits, changes, sizes, commit_ids),
            )
        };
        a.and(b).map_err(|e| self.err(e))?;
        // Numbers only grow (the graph's positions), so each block's latest time only grows.
        let kept = t
            .meta
            .get(KEY_TIME_BLOCKS)
            .map_err(|e| self.err(e))?
            .map(|v| codec::decode::<Vec<i64>>(v.value()))
            .transpose()
            .map_err(|e| self.err(e))?;
        if let Some(mut blocks) = kept.or_else(|| (first == 0).then(Vec::new)) {
            for s in &stored {
                let at = (s.n / TIME_BLOCK) as usize;
                if blocks.len() <= at {
                    blocks.resize(at + 1, i64::MIN);
                }
                let time = codec::meta_time(&s.meta).map_err(|e| self.err(e))?;
                blocks[at] = blocks[at].max(time);
            }
            t.meta
                .insert(KEY_TIME_BLOCKS, codec::encode(&blocks).as_slice())
                .map_err(|e| self.err(e))?;
        }

        // Reachable from HEAD: what drift counts.
        let head_n = match &self.repo.head {
            Some(h) => self.number_of(&fresh, &t.commit_ids, h)?,
            None => None,
        };
        let old_head_n = match &store.indexed {
            Some(h) => self.number_of(&fresh, &t.commit_ids, h)?,
            None => None,
        };
        // A fast-forward: the new commits rest on the old HEAD and on commits it reached,
        // so what HEAD reaches now is what it reached plus them; no need for the graph.
        let boundary: HashSet<u32> = parent_lists
            .iter()
            .flat_map(|(_, ps)| ps.iter().copied())
            .filter(|p| *p < first)
            .collect();
        // (Only when every new commit was walked from HEAD: pending ones folded in may lead
        // elsewhere, after a reset say.)
        let fast = match (&store.old_reach, old_head_n) {
            (Some(old), Some(o)) => {
                !new.is_empty()
                    && !store.folded_pending
                    && boundary.contains(&o)
                    && boundary.iter().all(|b| old.contains(*b))
            }
            _ => false,
        };
        if !fast && graph.base > 0 {
            // Every commit's parents are needed: the whole graph, with the new ones.
            let tail = graph;
            graph = load_graph(&t.graph, 0).map_err(|e| self.err(e))?;
            for n in graph.end()..tail.end() {
                graph.push(tail.parents_of(n));
            }
        }
        let reach = match (&store.old_reach, fast) {
            (Some(old), true) => {
                let mut r = old.clone();
                for n in fresh.values() {
                    r.insert(*n);
                }
                r
            }
            _ => graph.reach(head_n.into_iter()),
        };
        Ok(Applied {
            graph,
            reach,
            first,
            head_n,
            old_head_n,
        })
    }

    /// Keeps what HEAD or a local branch reaches and drops the rest (after a reset, amend or
    /// rebase: HEAD no longer descends from the indexed one); then stores the graph's changed
    /// chunks, what HEAD reaches, HEAD and the shallow boundary.
    fn prune(&self, t: &mut Tables, store: &Store, applied: Applied) -> Result<(), IndexError> {
        let Applied {
            mut graph,
            reach,
            first,
            head_n,
            old_head_n,
        } = applied;
        let descends = old_head_n.is_none_or(|o| reach.contains(o));
        if !descends {
            let mut tips: Vec<u32> = head_n.into_iter().collect();
            // Read only now: a rewrite is rare, and every answer opens the repository.
            for tip in &self.repo.local_branches()? {
                if let Some(n) = self.number_of(&HashMap::new(), &t.commit_ids, tip)? {
                    tips.push(n);
                }
            }
            let keep = graph.reach(tips.into_iter());
            for n in 0..graph.end() {
                if graph.is_alive(n) && !keep.contains(n) {
                    let Some(bytes) = t.commits.remove(n).map_err(|e| self.err(e))? else {
                        continue;
                    };
                    let c: StoredCommit = codec::decode(bytes.value()).map_err(|e| self.err(e))?;
                    drop(bytes);
                    let touched: StoredChanges =
                        match t.changes.remove(n).map_err(|e| self.err(e))? {
                            Some(b) => codec::decode(b.value()).map_err(|e| self.err(e))?,
                            None => StoredChanges {
                                changes: Vec::new(),
                                renames: Vec::new(),
                            },
                        };
                    t.sizes.remove(n).map_err(|e| self.err(e))?;
                    for path in &touched.changes {
                        t.paths
                            .remove((path.as_str(), n))
                            .map_err(|e| self.err(e))?;
                    }
                    for (_, to) in &touched.renames {
                        t.renames
                            .remove((to.as_str(), n))
                            .map_err(|e| self.err(e))?;
                    }
                    for id in &c.mentions {
                        t.mentions
                            .remove((id.as_str(), n))
                            .map_err(|e| self.err(e))?;
                    }
                    t.commit_ids.remove(&c.id).map_err(|e| self.err(e))?;
                    graph.kill(n);
                }
            }
        }
        // Only the chunks that changed: from the first new commit on, or all after a drop.
        let changed_from = if descends { first } else { 0 };
        store_graph(&mut t.graph, &graph, changed_from).map_err(|e| self.err(e))?;
        t.meta
            .insert(KEY_REACH, codec::encode(&reach).as_slice())
            .map_err(|e| self.err(e))?;
        let head_bytes: &[u8] = match &self.repo.head {
            Some(h) => h.as_slice(),
            None => &[],
        };
        t.meta
            .insert(KEY_HEAD, head_bytes)
            .map_err(|e| self.err(e))?;
        t.meta
            .insert(KEY_SHALLOW, store.shallow.as_slice())
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Drops the history part (commits, their changes and sizes, paths, renames, mentions, graph,
    /// reach, head).
    fn clear_history(&mut self) -> Result<(), IndexError> {
        let txn = self.write_txn()?;
        txn.delete_table(COMMITS).map_err(|e| self.err(e))?;
        txn.delete_table(COMMIT_CHANGES).map_err(|e| self.err(e))?;
        txn.delete_table(CHANGE_SIZES).map_err(|e| self.err(e))?;
        txn.delete_table(COMMIT_IDS).map_err(|e| self.err(e))?;
        txn.delete_table(PATHS).map_err(|e| self.err(e))?;
        txn.delete_table(RENAMES).map_err(|e| self.err(e))?;
        txn.delete_table(MENTIONS).map_err(|e| self.err(e))?;
        txn.delete_table(GRAPH).map_err(|e| self.err(e))?;
        // Made again, empty, in the same transaction: the walk that follows reads them.
        migrations::create_tables(&txn).map_err(|e| self.err(e))?;
        {
            let mut meta = txn.open_table(META).map_err(|e| self.err(e))?;
            for key in [KEY_REACH, KEY_HEAD, KEY_SHALLOW, KEY_TIME_BLOCKS] {
                meta.remove(key).map_err(|e| self.err(e))?;
            }
        }
        txn.commit().map_err(|e| self.err(e))
    }
}
