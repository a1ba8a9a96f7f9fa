//! One walk of HEAD's history, read in process with gix (never the `git` binary).
//!
//! [`load`] decodes every commit reachable from HEAD exactly once, then diffs each non-merge
//! commit's tree against its first parent's (the root commit against the empty tree) on a few
//! threads, each with its own memory-capped pack and object caches. The result, [`HistoryData`],
//! is what `drift.rs` computes `commits` and `drift` from, and what the index persists.

use gix::bstr::ByteSlice;
use gix::objs::FindExt;
use gix::ObjectId;
use std::collections::{BTreeMap, BinaryHeap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::ids;

/// One commit reachable from HEAD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitMeta {
    /// Full hex id.
    pub sha: String,
    /// Committer time, seconds since the epoch (UTC).
    pub time: i64,
    /// Author name.
    pub author: String,
    /// First line of the message.
    pub subject: String,
    /// The formatted ids the whole message mentions (`ids::mentioned_ids`).
    pub mentions: Vec<String>,
    /// More than one parent (a shallow boundary commit has none).
    pub is_merge: bool,
}

/// A `.md` file renamed by a commit, paths relative to the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// Index into [`HistoryData::commits`].
    pub commit: u32,
    pub from: String,
    pub to: String,
}

/// Everything one walk of HEAD's history yields.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryData {
    /// Full hex id of HEAD.
    pub head: String,
    /// The repository is a shallow clone: history stops at its boundary.
    pub shallow: bool,
    /// Every commit reachable from HEAD, newest first (committer time descending; ties keep the
    /// walk's order, which is deterministic).
    pub commits: Vec<CommitMeta>,
    /// File path (relative to the root, `/`-separated) → indices into `commits` of the non-merge
    /// commits whose diff against their first parent added, modified or deleted it; ascending,
    /// which is newest first. A sorted map, so a folder is one range scan ([`HistoryData::under`]).
    pub by_path: BTreeMap<String, Vec<u32>>,
    /// Renames of `.md` files seen in the walk, in commit order (newest first).
    pub renames: Vec<Rename>,
}

impl HistoryData {
    /// The `(path, commit indices)` entries for a governed entry: a folder (ending with `/`)
    /// gives every path under it, one range scan; a file gives itself.
    pub fn under<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = (&'a String, &'a Vec<u32>)> {
        let is_folder = entry.ends_with('/');
        self.by_path
            .range(entry.to_string()..)
            .take_while(move |(path, _)| {
                if is_folder {
                    path.starts_with(entry)
                } else {
                    path.as_str() == entry
                }
            })
    }
}

/// What [`load`] found at the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The root is not inside a git work tree (or the repository is bare).
    NotARepo,
    /// The repository has no commits: an unborn HEAD.
    NoCommits,
    Ready(HistoryData),
}

/// Why the history could not be read. Messages are one line and name what failed.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot read the root {path}: {message}")]
    Root { path: PathBuf, message: String },
    #[error("cannot open the git repository around {path}: {message}")]
    Open { path: PathBuf, message: String },
    #[error("cannot resolve HEAD: {0}")]
    Head(String),
    #[error("cannot read commit {sha}: {message}")]
    Commit { sha: String, message: String },
    #[error("cannot diff commit {sha}: {message}")]
    Diff { sha: String, message: String },
    #[error("a history thread failed: {0}")]
    Thread(String),
}

/// Pack cache per thread: a memory-capped LRU, so long delta chains are not decoded again and
/// again (the default cache thrashes on big histories).
const PACK_CACHE_BYTES: usize = 32 * 1024 * 1024;
/// Decoded-object cache per thread: neighbouring commits share most trees.
const OBJECT_CACHE_BYTES: usize = 16 * 1024 * 1024;
/// Commits in a first chunk from either end of the history (see [`Queue`]), and the smallest
/// chunk a thread takes: consecutive commits share trees and delta bases.
const PROBE: usize = 64;
/// Diff threads at most.
const MAX_THREADS: usize = 4;

/// Walks HEAD's history of the repository around `root` (which may be a subfolder of the work
/// tree; every path in the result is relative to it, and paths outside it are dropped).
pub fn load(root: &Path) -> Result<Outcome, HistoryError> {
    let root_abs = std::fs::canonicalize(root).map_err(|e| HistoryError::Root {
        path: root.to_path_buf(),
        message: e.to_string(),
    })?;
    let sync = match gix::ThreadSafeRepository::discover(&root_abs) {
        Ok(repo) => repo,
        Err(err) => {
            use gix::discover::upwards::Error as Up;
            return match err.downcast_any_ref::<Up>() {
                Some(Up::NoGitRepository { .. })
                | Some(Up::NoGitRepositoryWithinCeiling { .. })
                | Some(Up::NoGitRepositoryWithinFs { .. }) => Ok(Outcome::NotARepo),
                _ => Err(HistoryError::Open {
                    path: root_abs,
                    message: one_line(&err.to_string()),
                }),
            };
        }
    };
    let Some(work_dir) = sync.work_dir() else {
        return Ok(Outcome::NotARepo);
    };
    let work_dir = std::fs::canonicalize(work_dir).map_err(|e| HistoryError::Open {
        path: work_dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let Ok(rel) = root_abs.strip_prefix(&work_dir) else {
        // e.g. a root inside the `.git` folder.
        return Ok(Outcome::NotARepo);
    };
    let prefix = path_prefix(rel);

    let repo = {
        let mut repo = sync.to_thread_local();
        tune_caches(&mut repo, None);
        repo
    };
    let head = repo
        .head()
        .and_then(|head| head.try_into_peeled_id())
        .map_err(|e| HistoryError::Head(one_line(&e.to_string())))?;
    let Some(head) = head.map(|id| id.detach()) else {
        return Ok(Outcome::NoCommits);
    };
    let shallow = repo
        .is_shallow()
        .map_err(|e| HistoryError::Head(one_line(&e.to_string())))?;
    let boundary: gix::hashtable::HashSet<ObjectId> = if shallow {
        repo.shallow_commits()
            .map_err(|e| HistoryError::Head(one_line(&e.to_string())))?
            .map(|commits| commits.iter().copied().collect())
            .unwrap_or_default()
    } else {
        Default::default()
    };

    let walked = walk(&repo, head, &boundary)?;
    let jobs: Vec<Job> = walked
        .iter()
        .enumerate()
        .filter(|(_, c)| c.parents.len() <= 1)
        .map(|(i, c)| Job {
            index: i as u32,
            sha: c.id,
            tree: c.tree,
            parent_tree: c.parent_tree,
        })
        .collect();
    let diffs = diff_all(&sync, &jobs, &prefix)?;

    let mut by_path: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut renames = Vec::new();
    for diff in diffs {
        for path in diff.paths {
            by_path.entry(path).or_default().push(diff.index);
        }
        renames.extend(diff.renames);
    }
    let commits = walked
        .into_iter()
        .map(|c| {
            let message = String::from_utf8_lossy(&c.message);
            CommitMeta {
                sha: c.id.to_string(),
                time: c.time,
                author: c.author,
                subject: message.lines().next().unwrap_or("").trim().to_string(),
                mentions: ids::mentioned_ids(&message),
                is_merge: c.parents.len() > 1,
            }
        })
        .collect();
    Ok(Outcome::Ready(HistoryData {
        head: head.to_string(),
        shallow,
        commits,
        by_path,
        renames,
    }))
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `sub/dir/` for a root below the work tree's top, `""` at the top.
fn path_prefix(rel: &Path) -> String {
    let mut prefix = String::new();
    for part in rel.components() {
        prefix.push_str(&part.as_os_str().to_string_lossy());
        prefix.push('/');
    }
    prefix
}

/// A memory-capped LRU pack cache, counting its work in `stats`.
fn tune_caches(repo: &mut gix::Repository, stats: Option<Arc<CacheStats>>) {
    repo.objects.set_pack_cache(move || {
        Box::new(CountingPackCache {
            inner: gix::odb::pack::cache::lru::MemoryCappedHashmap::new(PACK_CACHE_BYTES),
            stats: stats.clone(),
        })
    });
}

/// How hard the pack cache of one diff thread works: `misses / puts` is the average number of
/// delta-chain links decoded per delta-compressed object, 1 when each object's base is cached.
#[derive(Default)]
struct CacheStats {
    misses: AtomicU64,
    puts: AtomicU64,
}

impl CacheStats {
    fn snapshot(&self) -> (u64, u64) {
        (
            self.misses.load(Ordering::Relaxed),
            self.puts.load(Ordering::Relaxed),
        )
    }
}

struct CountingPackCache {
    inner: gix::odb::pack::cache::lru::MemoryCappedHashmap,
    stats: Option<Arc<CacheStats>>,
}

impl gix::odb::pack::cache::DecodeEntry for CountingPackCache {
    fn put(
        &mut self,
        pack_id: u32,
        offset: u64,
        data: &[u8],
        kind: gix::objs::Kind,
        compressed_size: usize,
    ) {
        if let Some(stats) = &self.stats {
            stats.puts.fetch_add(1, Ordering::Relaxed);
        }
        self.inner.put(pack_id, offset, data, kind, compressed_size);
    }

    fn get(
        &mut self,
        pack_id: u32,
        offset: u64,
        out: &mut Vec<u8>,
    ) -> Option<(gix::objs::Kind, usize)> {
        let found = self.inner.get(pack_id, offset, out);
        if let (None, Some(stats)) = (&found, &self.stats) {
            stats.misses.fetch_add(1, Ordering::Relaxed);
        }
        found
    }
}

/// A commit as decoded in the walk.
struct Walked {
    id: ObjectId,
    tree: ObjectId,
    /// Parents as git sees them: none for a shallow boundary commit.
    parents: Vec<ObjectId>,
    /// The first parent's tree, filled once the parent is decoded.
    parent_tree: Option<ObjectId>,
    time: i64,
    author: String,
    message: Vec<u8>,
}

/// Decodes every commit reachable from `head` once, newest first by committer time (a priority
/// queue like git's, then a stable sort for clock skew; ties keep discovery order).
fn walk(
    repo: &gix::Repository,
    head: ObjectId,
    boundary: &gix::hashtable::HashSet<ObjectId>,
) -> Result<Vec<Walked>, HistoryError> {
    let mut buf = Vec::new();
    let mut decoded: Vec<Walked> = Vec::new();
    let mut slot: gix::hashtable::HashMap<ObjectId, usize> = Default::default();
    // (committer time, slot reversed): newest first, then first discovered (slot = discovery order).
    let mut queue: BinaryHeap<(i64, std::cmp::Reverse<usize>)> = BinaryHeap::new();
    let mut order: Vec<usize> = Vec::new();

    let decode = |id: ObjectId, buf: &mut Vec<u8>| -> Result<Walked, HistoryError> {
        let err = |message: String| HistoryError::Commit {
            sha: id.to_string(),
            message: one_line(&message),
        };
        let commit = repo
            .objects
            .find_commit(&id, buf)
            .map_err(|e| err(e.to_string()))?;
        let parents = if boundary.contains(&id) {
            Vec::new()
        } else {
            commit.parents().collect()
        };
        let committer = commit.committer().map_err(|e| err(e.to_string()))?;
        let author = commit
            .author()
            .map(|a| a.name.to_str_lossy().trim().to_string())
            .unwrap_or_default();
        Ok(Walked {
            id,
            tree: commit.tree(),
            parents,
            parent_tree: None,
            time: committer.seconds(),
            author,
            message: commit.message.to_vec(),
        })
    };

    let first = decode(head, &mut buf)?;
    queue.push((first.time, std::cmp::Reverse(0)));
    slot.insert(head, 0);
    decoded.push(first);
    while let Some((_, std::cmp::Reverse(at))) = queue.pop() {
        order.push(at);
        for p in 0..decoded[at].parents.len() {
            let parent = decoded[at].parents[p];
            let parent_at = match slot.get(&parent) {
                Some(&existing) => existing,
                None => {
                    let next = decode(parent, &mut buf)?;
                    let index = decoded.len();
                    queue.push((next.time, std::cmp::Reverse(index)));
                    slot.insert(parent, index);
                    decoded.push(next);
                    index
                }
            };
            if p == 0 {
                decoded[at].parent_tree = Some(decoded[parent_at].tree);
            }
        }
    }
    // Newest first even across clock skew; the sort is stable, so ties keep the walk's order.
    order.sort_by_key(|&at| std::cmp::Reverse(decoded[at].time));
    let mut taken: Vec<Option<Walked>> = decoded.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .map(|at| taken[at].take().expect("each commit is walked once"))
        .collect())
}

struct Job {
    index: u32,
    sha: ObjectId,
    tree: ObjectId,
    parent_tree: Option<ObjectId>,
}

struct CommitDiff {
    index: u32,
    /// Files changed, relative to the root, each once.
    paths: Vec<String>,
    renames: Vec<Rename>,
}

/// Which end of the job list (newest or oldest commits) threads take work from.
///
/// The pack cache only keeps whole objects it was asked for, not the delta bases decoded on the
/// way, so the order of the diffs decides whether it works: walking in the direction the pack's
/// delta chains point, each tree is one delta away from a cached one; against it, every tree
/// decodes its chain again (3x slower on a `git fast-import` history, whose deltas point to
/// older versions; `git repack -f` and clones from a server point them to newer ones). So the
/// first chunk of one thread is taken from the newest end and of another from the oldest end,
/// and once both are measured every thread takes work from the cheaper end.
struct Queue {
    /// Jobs not yet taken: `lo..hi`.
    lo: usize,
    hi: usize,
    /// Chain links decoded per delta object, measured on the first chunk from each end.
    newest_cost: Option<f64>,
    oldest_cost: Option<f64>,
    threads: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Newest,
    Oldest,
}

impl Queue {
    /// The next range of jobs and the end it came from; `None` when all are taken.
    fn take(&mut self, thread: usize) -> Option<(std::ops::Range<usize>, End)> {
        if self.lo >= self.hi {
            return None;
        }
        let (end, size) = match (self.newest_cost, self.oldest_cost) {
            (Some(newest), Some(oldest)) => {
                // Guided: big chunks first, smaller towards the end, for balance.
                let remaining = self.hi - self.lo;
                let size = (remaining / (2 * self.threads)).max(PROBE);
                (
                    if oldest < newest {
                        End::Oldest
                    } else {
                        End::Newest
                    },
                    size,
                )
            }
            (None, Some(_)) => (End::Newest, PROBE),
            (Some(_), None) => (End::Oldest, PROBE),
            (None, None) if thread.is_multiple_of(2) => (End::Newest, PROBE),
            (None, None) => (End::Oldest, PROBE),
        };
        let size = size.min(self.hi - self.lo);
        Some(match end {
            End::Newest => {
                self.lo += size;
                (self.lo - size..self.lo, end)
            }
            End::Oldest => {
                self.hi -= size;
                (self.hi..self.hi + size, end)
            }
        })
    }

    fn measured(&mut self, end: End, cost: f64) {
        let slot = match end {
            End::Newest => &mut self.newest_cost,
            End::Oldest => &mut self.oldest_cost,
        };
        slot.get_or_insert(cost);
    }
}

/// Diffs every job on a few threads, each with a thread-local repository and its own caches.
/// Returns the diffs in job order.
fn diff_all(
    sync: &gix::ThreadSafeRepository,
    jobs: &[Job],
    prefix: &str,
) -> Result<Vec<CommitDiff>, HistoryError> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, MAX_THREADS)
        .min(jobs.len().div_ceil(PROBE).max(1));
    let queue = Mutex::new(Queue {
        lo: 0,
        hi: jobs.len(),
        newest_cost: None,
        oldest_cost: None,
        threads,
    });
    let mut results: Vec<Vec<CommitDiff>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let queue = &queue;
                scope.spawn(move || -> Result<Vec<CommitDiff>, HistoryError> {
                    let stats = Arc::new(CacheStats::default());
                    let mut repo = sync.to_thread_local();
                    tune_caches(&mut repo, Some(stats.clone()));
                    repo.object_cache_size(OBJECT_CACHE_BYTES);
                    let mut differ = Differ::new(&repo, prefix);
                    let mut out = Vec::new();
                    loop {
                        let next = queue.lock().map(|mut q| q.take(thread));
                        let Some((range, end)) =
                            next.map_err(|_| HistoryError::Thread("a diff thread failed".into()))?
                        else {
                            break;
                        };
                        let (misses, puts) = stats.snapshot();
                        let chunk = &jobs[range];
                        if end == End::Newest {
                            for job in chunk {
                                out.push(differ.diff(job)?);
                            }
                        } else {
                            for job in chunk.iter().rev() {
                                out.push(differ.diff(job)?);
                            }
                        }
                        let (misses_now, puts_now) = stats.snapshot();
                        let cost = (misses_now - misses) as f64 / (puts_now - puts).max(1) as f64;
                        if let Ok(mut q) = queue.lock() {
                            q.measured(end, cost);
                        }
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| HistoryError::Thread("a diff thread panicked".into()))?
            })
            .collect::<Result<Vec<_>, HistoryError>>()
    })?;
    let mut all: Vec<CommitDiff> = results.drain(..).flatten().collect();
    all.sort_unstable_by_key(|d| d.index);
    Ok(all)
}

struct Differ<'r> {
    repo: &'r gix::Repository,
    prefix: &'r str,
    state: gix::diff::tree::State,
    old_buf: Vec<u8>,
    new_buf: Vec<u8>,
    empty_tree: Vec<u8>,
}

impl<'r> Differ<'r> {
    fn new(repo: &'r gix::Repository, prefix: &'r str) -> Self {
        Differ {
            repo,
            prefix,
            state: Default::default(),
            old_buf: Vec::new(),
            new_buf: Vec::new(),
            empty_tree: Vec::new(),
        }
    }

    fn diff(&mut self, job: &Job) -> Result<CommitDiff, HistoryError> {
        use gix::diff::tree::recorder::Change;
        let err = |message: String| HistoryError::Diff {
            sha: job.sha.to_string(),
            message: one_line(&message),
        };
        let objects = &self.repo.objects;
        let hash = job.tree.kind();
        let new = objects
            .find_tree_iter(&job.tree, &mut self.new_buf)
            .map_err(|e| err(e.to_string()))?;
        let old = match &job.parent_tree {
            Some(tree) => objects
                .find_tree_iter(tree, &mut self.old_buf)
                .map_err(|e| err(e.to_string()))?,
            None => gix::objs::TreeRefIter::from_bytes(&self.empty_tree, hash),
        };
        // A fresh recorder per diff: a reused one reports wrong paths.
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(old, new, &mut self.state, objects, &mut recorder)
            .map_err(|e| err(e.to_string()))?;

        let mut paths = Vec::new();
        let mut added_md: Vec<(String, ObjectId)> = Vec::new();
        let mut deleted_md: Vec<(String, ObjectId)> = Vec::new();
        for change in recorder.records {
            let (path, md_side, oid) = match change {
                Change::Addition {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => {
                    if entry_mode.is_tree() {
                        continue;
                    }
                    (path, Some(true), oid)
                }
                Change::Deletion {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => {
                    if entry_mode.is_tree() {
                        continue;
                    }
                    (path, Some(false), oid)
                }
                Change::Modification {
                    previous_entry_mode,
                    previous_oid,
                    entry_mode,
                    oid,
                    path,
                } => {
                    if entry_mode.is_tree() || previous_entry_mode.is_tree() {
                        continue;
                    }
                    // Old trees carry non-canonical modes (100664): the same blob with the
                    // same kind of mode is no change, as git sees it.
                    if previous_oid == oid && previous_entry_mode.kind() == entry_mode.kind() {
                        continue;
                    }
                    (path, None, oid)
                }
            };
            let Some(rel) = path.strip_prefix(self.prefix.as_bytes()) else {
                continue;
            };
            let rel = String::from_utf8_lossy(rel).into_owned();
            if rel.ends_with(".md") {
                match md_side {
                    Some(true) => added_md.push((rel.clone(), oid)),
                    Some(false) => deleted_md.push((rel.clone(), oid)),
                    None => {}
                }
            }
            paths.push(rel);
        }
        paths.sort_unstable();
        paths.dedup();
        let renames = pair_renames(job.index, deleted_md, added_md);
        Ok(CommitDiff {
            index: job.index,
            paths,
            renames,
        })
    }
}

/// Pairs the `.md` files one commit deleted with those it added: by identical blob first, then
/// by identical file name in another folder, then by the same leading number in the file name
/// (`0003-a.md` → `0003-b.md`). Each file is paired at most once.
fn pair_renames(
    commit: u32,
    mut deleted: Vec<(String, ObjectId)>,
    mut added: Vec<(String, ObjectId)>,
) -> Vec<Rename> {
    let mut out = Vec::new();
    if deleted.is_empty() || added.is_empty() {
        return out;
    }
    deleted.sort();
    added.sort();
    let mut used_added = vec![false; added.len()];
    let mut used_deleted = vec![false; deleted.len()];
    type Same = fn(&(String, ObjectId), &(String, ObjectId)) -> bool;
    let rules: [Same; 3] = [
        |d, a| d.1 == a.1,
        |d, a| file_name(&d.0) == file_name(&a.0),
        |d, a| match (leading_number(&d.0), leading_number(&a.0)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    ];
    for rule in rules {
        for (di, d) in deleted.iter().enumerate() {
            if used_deleted[di] {
                continue;
            }
            if let Some(ai) = (0..added.len()).find(|&ai| !used_added[ai] && rule(d, &added[ai])) {
                used_deleted[di] = true;
                used_added[ai] = true;
                out.push(Rename {
                    commit,
                    from: d.0.clone(),
                    to: added[ai].0.clone(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.to.cmp(&b.to));
    out
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The leading number of a file name, as a number (`0003-a.md` → 3).
fn leading_number(path: &str) -> Option<u64> {
    let name = file_name(path);
    let stem = name.strip_suffix(".md").unwrap_or(name);
    ids::number_in_file_name(stem)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(n: u8) -> ObjectId {
        ObjectId::from_bytes_or_panic(&[n; 20])
    }

    #[test]
    fn renames_pair_by_blob_then_name_then_number() {
        let deleted = vec![
            ("docs/adr/0001-a.md".to_string(), oid(1)),
            ("docs/adr/0002-b.md".to_string(), oid(2)),
            ("docs/adr/0003-c.md".to_string(), oid(3)),
        ];
        let added = vec![
            ("docs/decisions/0002-b.md".to_string(), oid(9)),
            ("docs/adr/0003-renamed.md".to_string(), oid(8)),
            ("docs/adr/0001-x.md".to_string(), oid(1)),
        ];
        let got = pair_renames(4, deleted, added);
        let pairs: Vec<(&str, &str)> = got
            .iter()
            .map(|r| (r.from.as_str(), r.to.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("docs/adr/0001-a.md", "docs/adr/0001-x.md"),
                ("docs/adr/0003-c.md", "docs/adr/0003-renamed.md"),
                ("docs/adr/0002-b.md", "docs/decisions/0002-b.md"),
            ]
        );
        assert!(got.iter().all(|r| r.commit == 4));
    }

    #[test]
    fn unrelated_md_files_are_not_renames() {
        let got = pair_renames(
            0,
            vec![("notes/a.md".into(), oid(1))],
            vec![("notes/b.md".into(), oid(2))],
        );
        assert!(got.is_empty());
    }

    #[test]
    fn the_queue_hands_out_every_job_once_then_from_the_cheaper_end() {
        for threads in 1..=3 {
            for (newest, oldest) in [(1.0, 9.0), (9.0, 1.0)] {
                let n = 1000;
                let mut queue = Queue {
                    lo: 0,
                    hi: n,
                    newest_cost: None,
                    oldest_cost: None,
                    threads,
                };
                let mut seen = vec![0u8; n];
                let mut ends = Vec::new();
                let mut thread = 0;
                while let Some((range, end)) = queue.take(thread % threads) {
                    for i in range {
                        seen[i] += 1;
                    }
                    ends.push(end);
                    queue.measured(end, if end == End::Newest { newest } else { oldest });
                    thread += 1;
                }
                assert!(seen.iter().all(|&s| s == 1), "every job once");
                // One probe from each end first, then only the cheaper end.
                assert!(ends[..2].contains(&End::Newest) && ends[..2].contains(&End::Oldest));
                let cheaper = if newest < oldest {
                    End::Newest
                } else {
                    End::Oldest
                };
                assert!(ends[2..].iter().all(|&e| e == cheaper), "{threads} threads");
            }
        }
    }

    #[test]
    fn prefix_of_a_subfolder_root() {
        assert_eq!(path_prefix(Path::new("")), "");
        assert_eq!(path_prefix(Path::new("a/b")), "a/b/");
    }

    #[test]
    fn folder_entries_are_range_scans() {
        let mut data = HistoryData::default();
        for (p, i) in [
            ("src/auth/a.rs", 0),
            ("src/auth/b/c.rs", 1),
            ("src/authz.rs", 2),
            ("src/auth", 3),
        ] {
            data.by_path.insert(p.to_string(), vec![i]);
        }
        let under: Vec<&str> = data.under("src/auth/").map(|(p, _)| p.as_str()).collect();
        assert_eq!(under, ["src/auth/a.rs", "src/auth/b/c.rs"]);
        let file: Vec<&str> = data
            .under("src/authz.rs")
            .map(|(p, _)| p.as_str())
            .collect();
        assert_eq!(file, ["src/authz.rs"]);
    }
}
