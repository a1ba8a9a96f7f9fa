//! The diffs: each new non-merge commit's tree against its first parent's, on a few threads,
//! taking work from the end of the history whose deltas decode cheaper (ADR-0005).

use super::packs::{Packs, Reader};
use super::renames::pair_renames;
use super::HistoryError;
use crate::util::one_line;
use gix::ObjectId;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Decoded trees cached per thread (delta bases included).
pub(super) const TREE_CACHE_BYTES: usize = 16 * 1024 * 1024;
/// Commits in a first chunk from either end of the history (see [`Queue`]), and the smallest
/// chunk a thread takes: consecutive commits share trees and delta bases.
pub(super) const PROBE: usize = 64;
/// Diff threads at most.
pub(super) const MAX_THREADS: usize = 4;
/// `progress` is told after every this many diffs.
pub(super) const PROGRESS_EVERY: usize = 256;
/// A diff thread of a walk longer than this maps the packs itself and unmaps them after every
/// this many diffs ([`Reader::release`]): the pages of the pack it read stop counting in the
/// process's memory. On git/git the pages a full walk read were most of its peak memory
/// (240 of 346 MiB); the few diffs of a refresh keep the shared mapping.
pub(super) const RELEASE_EVERY: usize = 1024;

#[derive(Clone, Copy)]
pub(super) struct Job {
    /// Index into the walked commits.
    pub(super) index: u32,
    pub(super) sha: ObjectId,
    pub(super) tree: ObjectId,
    pub(super) parent_tree: Option<ObjectId>,
}

pub(super) struct CommitDiff {
    pub(super) index: u32,
    /// Files changed, relative to the work tree top, sorted, each once.
    pub(super) paths: Vec<String>,
    /// `.md` renames `(from, to)`, by `to`.
    pub(super) renames: Vec<(String, String)>,
    /// For a commit that may add a record ([`super::sizes_told`]), how many bytes each of
    /// `paths` grew or shrank by; empty for the others.
    pub(super) sizes: Vec<u32>,
}
/// Which end of the job list (newest or oldest commits) threads take work from.
///
/// Walking in the direction the pack's delta chains point, each tree is one delta away from a
/// cached one; against it, a tree's chain is decoded down to a cached or full base (every link
/// then cached, see [`Reader`]). `git fast-import` histories point their deltas to older
/// versions, `git repack -f` and clones from a server to newer ones. Since the reader keeps
/// the intermediate bases the two ends cost about the same (0.59 and 0.65 entries decoded per
/// tree on the generated 20,000-commit history), but a chain longer than the cache holds still
/// favours its own direction. So the first chunk of one thread is taken from the newest end and
/// of another from the oldest end, and once both are measured every thread takes work from the
/// cheaper end.
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
pub(super) fn diff_all(
    sync: &gix::ThreadSafeRepository,
    packs: &Packs,
    jobs: &[Job],
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
    sizes: bool,
) -> Result<Vec<CommitDiff>, HistoryError> {
    let total = jobs.len();
    if let Some(progress) = progress {
        progress(0, total);
    }
    // A few jobs (an index refresh) run here: no need to ask the system for its cores (which
    // reads cgroup files).
    let threads = if jobs.len() <= PROBE {
        1
    } else {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, MAX_THREADS)
            .min(jobs.len().div_ceil(PROBE))
    };
    let queue = Mutex::new(Queue {
        lo: 0,
        hi: jobs.len(),
        newest_cost: None,
        oldest_cost: None,
        threads,
    });
    let done = AtomicUsize::new(0);
    let work = |thread: usize| -> Result<Vec<CommitDiff>, HistoryError> {
        let repo = sync.to_thread_local();
        let reader = if total > RELEASE_EVERY {
            Reader::releasing(packs, &repo, TREE_CACHE_BYTES)
        } else {
            Reader::new(packs, &repo, TREE_CACHE_BYTES)
        };
        let mut differ = Differ::new(&reader, repo.object_hash(), sizes);
        let mut out = Vec::new();
        let mut one = |job: &Job, out: &mut Vec<CommitDiff>| -> Result<(), HistoryError> {
            out.push(differ.diff(job)?);
            if out.len().is_multiple_of(RELEASE_EVERY) {
                reader.release();
            }
            let now = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(progress) = progress.filter(|_| now.is_multiple_of(PROGRESS_EVERY)) {
                progress(now, total);
            }
            Ok(())
        };
        loop {
            let next = queue.lock().map(|mut q| q.take(thread));
            let Some((range, end)) =
                next.map_err(|_| HistoryError::Thread("a diff thread failed".into()))?
            else {
                break;
            };
            let before = reader.stats();
            let chunk = &jobs[range];
            if end == End::Newest {
                for job in chunk {
                    one(job, &mut out)?;
                }
            } else {
                for job in chunk.iter().rev() {
                    one(job, &mut out)?;
                }
            }
            let now = reader.stats();
            let cost =
                (now.links - before.links) as f64 / (now.served - before.served).max(1) as f64;
            if let Ok(mut q) = queue.lock() {
                q.measured(end, cost);
            }
        }
        Ok(out)
    };
    let results: Vec<Vec<CommitDiff>> = if threads == 1 {
        // A few new commits (an index refresh): no thread to start.
        vec![work(0)?]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|thread| {
                    let work = &work;
                    scope.spawn(move || work(thread))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .map_err(|_| HistoryError::Thread("a diff thread panicked".into()))?
                })
                .collect::<Result<Vec<_>, HistoryError>>()
        })?
    };
    let mut all: Vec<CommitDiff> = results.into_iter().flatten().collect();
    all.sort_unstable_by_key(|d| d.index);
    if let Some(progress) = progress {
        progress(total, total);
    }
    Ok(all)
}

/// Diffs a commit's tree against its parent's, as `gix::diff::tree` with its recorder would,
/// reading only what differs: the entries two trees share at their start and at their end are
/// skipped as bytes (one compare each), never parsed, and a subtree with the same id is not
/// entered. A commit changes a few files in trees of hundreds of entries, so most of each tree
/// is never parsed (on git/git this was about half of the walk's time).
pub(super) struct Differ<'r> {
    objects: &'r Reader<'r>,
    hash: gix::hash::Kind,
    /// The two trees compared at each depth.
    trees: Vec<[Vec<u8>; 2]>,
    /// The folder being compared, `a/b/`.
    path: Vec<u8>,
    /// Each file changed: its path, what happened, its new id (the old one when deleted) and,
    /// when modified, its old id.
    changes: Vec<(String, Side, ObjectId, Option<ObjectId>)>,
    /// Whether a commit that may add a record keeps its sizes ([`CommitDiff::sizes`]).
    sizes: bool,
}

/// What happened to a file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Deleted,
    Added,
    Modified,
}

impl<'r> Differ<'r> {
    pub(super) fn new(objects: &'r Reader<'r>, hash: gix::hash::Kind, sizes: bool) -> Self {
        Differ {
            objects,
            hash,
            trees: Vec::new(),
            path: Vec::new(),
            changes: Vec::new(),
            sizes,
        }
    }

    pub(super) fn diff(&mut self, job: &Job) -> Result<CommitDiff, HistoryError> {
        self.path.clear();
        self.changes.clear();
        self.trees_at(0, job.parent_tree.as_deref(), Some(&job.tree))
            .map_err(|message| HistoryError::Diff {
                sha: job.sha.to_string(),
                message: one_line(&message),
            })?;
        let sized = self.sizes
            && super::sizes_told(
                self.changes.len(),
                self.changes
                    .iter()
                    .any(|(p, side, _, _)| *side == Side::Added && super::may_be_record(p)),
            );
        let mut sizes: Vec<(String, u32)> = Vec::new();
        let mut blob = Vec::new();
        if sized {
            for (path, side, oid, old) in &self.changes {
                let (before, after) = match side {
                    Side::Added => (None, Some(oid)),
                    Side::Deleted => (Some(oid), None),
                    Side::Modified => (old.as_ref(), Some(oid)),
                };
                let size = self
                    .blob_size(before, &mut blob)
                    .abs_diff(self.blob_size(after, &mut blob))
                    .min(u64::from(u32::MAX)) as u32;
                sizes.push((path.clone(), size));
            }
            sizes.sort_unstable();
            sizes.dedup_by(|a, b| a.0 == b.0);
        }
        let mut paths = Vec::with_capacity(self.changes.len());
        let mut added_md: Vec<(String, ObjectId)> = Vec::new();
        let mut deleted_md: Vec<(String, ObjectId)> = Vec::new();
        for (path, side, oid, _) in self.changes.drain(..) {
            if path.ends_with(".md") || path.ends_with(".rst") {
                match side {
                    Side::Added => added_md.push((path.clone(), oid)),
                    Side::Deleted => deleted_md.push((path.clone(), oid)),
                    Side::Modified => {}
                }
            }
            paths.push(path);
        }
        paths.sort_unstable();
        paths.dedup();
        let renames = pair_renames(deleted_md, added_md);
        Ok(CommitDiff {
            index: job.index,
            paths,
            renames,
            sizes: sizes.into_iter().map(|(_, n)| n).collect(),
        })
    }

    /// The size of blob `id` in bytes (none, or one that does not read: 0), read into `buf`.
    fn blob_size(&self, id: Option<&ObjectId>, buf: &mut Vec<u8>) -> u64 {
        use gix::objs::Find;
        let Some(id) = id else {
            return 0;
        };
        match self.objects.try_find(id, buf) {
            Ok(Some(data)) => data.data.len() as u64,
            _ => 0,
        }
    }

    /// Compares the trees `old` and `new` (`None`: empty) of the folder `self.path`.
    fn trees_at(
        &mut self,
        depth: usize,
        old: Option<&gix::hash::oid>,
        new: Option<&gix::hash::oid>,
    ) -> Result<(), String> {
        if self.trees.len() <= depth {
            self.trees.push(Default::default());
        }
        let [mut old_buf, mut new_buf] = std::mem::take(&mut self.trees[depth]);
        let result = self
            .load(old, &mut old_buf)
            .and_then(|()| self.load(new, &mut new_buf))
            .and_then(|()| self.compare(depth, &old_buf, &new_buf));
        self.trees[depth] = [old_buf, new_buf];
        result
    }

    fn load(&self, id: Option<&gix::hash::oid>, buf: &mut Vec<u8>) -> Result<(), String> {
        let Some(id) = id else {
            buf.clear();
            return Ok(());
        };
        use gix::objs::Find;
        let kind = match self.objects.try_find(id, buf) {
            Ok(Some(data)) => data.kind,
            Ok(None) => return Err(format!("tree {id} could not be found")),
            Err(e) => return Err(e.to_string()),
        };
        if kind != gix::objs::Kind::Tree {
            return Err(format!("object {id} is a {kind}, not a tree"));
        }
        Ok(())
    }

    /// A merge of two sorted trees: entries only in `old` are deleted, only in `new` added,
    /// in both with another id (or kind of mode) modified; folders are compared in turn.
    fn compare(&mut self, depth: usize, old: &[u8], new: &[u8]) -> Result<(), String> {
        let hash_len = self.hash.len_in_bytes();
        // Entries wholly inside the common start are the same in both (and end at the same
        // places): skip them.
        let same_start = common_prefix(old, new);
        let mut at = 0;
        while let Some(end) = entry_end(old, at, hash_len) {
            if end > same_start {
                break;
            }
            at = end;
        }
        let (mut o, mut n) = (at, at);
        let same_end = common_suffix(&old[o..], &new[n..]);
        loop {
            // What is left is the same in both (both sit at an entry's start): done.
            let (old_left, new_left) = (old.len() - o, new.len() - n);
            if old_left == new_left && old_left <= same_end {
                return Ok(());
            }
            let a = self.entry(old, o)?;
            let b = self.entry(new, n)?;
            match (a, b) {
                (Some((a, a_end)), Some((b, b_end))) => {
                    match gix::objs::tree::name_order(
                        a.filename,
                        a.mode.is_tree(),
                        b.filename,
                        b.mode.is_tree(),
                    ) {
                        std::cmp::Ordering::Equal => {
                            (o, n) = (a_end, b_end);
                            if a.mode.is_tree() && b.mode.is_tree() {
                                if a.oid != b.oid {
                                    self.folder(depth, a.filename, Some(a.oid), Some(b.oid))?;
                                }
                            } else if a.oid != b.oid || a.mode.kind() != b.mode.kind() {
                                // Old trees carry non-canonical modes (100664): the same blob
                                // with the same kind of mode is no change, as git sees it.
                                self.file(a.filename, Side::Modified, b.oid, Some(a.oid));
                            }
                        }
                        std::cmp::Ordering::Less => {
                            o = a_end;
                            self.one_side(depth, a, Side::Deleted)?;
                        }
                        std::cmp::Ordering::Greater => {
                            n = b_end;
                            self.one_side(depth, b, Side::Added)?;
                        }
                    }
                }
                (Some((a, a_end)), None) => {
                    o = a_end;
                    self.one_side(depth, a, Side::Deleted)?;
                }
                (None, Some((b, b_end))) => {
                    n = b_end;
                    self.one_side(depth, b, Side::Added)?;
                }
                (None, None) => return Ok(()),
            }
        }
    }

    /// The entry starting at `at` and where it ends; `None` at the end of the tree.
    fn entry<'t>(
        &self,
        tree: &'t [u8],
        at: usize,
    ) -> Result<Option<(gix::objs::tree::EntryRef<'t>, usize)>, String> {
        if at >= tree.len() {
            return Ok(None);
        }
        // Parsed from the rest of the tree, its end then read off the parser: one scan of the
        // name, not a search for its end first and a parse of the entry again (issue 41).
        let rest = &tree[at..];
        let mut entries = gix::objs::TreeRefIter::from_bytes(rest, self.hash);
        let entry = entries
            .next()
            .ok_or_else(|| "a tree entry is corrupt".to_string())?
            .map_err(|e| e.to_string())?;
        Ok(Some((entry, at + entries.offset_to_next_entry(rest))))
    }

    /// An entry only one side has: a file, or every file under a folder.
    fn one_side(
        &mut self,
        depth: usize,
        entry: gix::objs::tree::EntryRef<'_>,
        side: Side,
    ) -> Result<(), String> {
        if entry.mode.is_tree() {
            let (old, new) = match side {
                Side::Deleted => (Some(entry.oid), None),
                _ => (None, Some(entry.oid)),
            };
            self.folder(depth, entry.filename, old, new)
        } else {
            self.file(entry.filename, side, entry.oid, None);
            Ok(())
        }
    }

    fn folder(
        &mut self,
        depth: usize,
        name: &[u8],
        old: Option<&gix::hash::oid>,
        new: Option<&gix::hash::oid>,
    ) -> Result<(), String> {
        let len = self.path.len();
        self.path.extend_from_slice(name);
        self.path.push(b'/');
        let result = self.trees_at(depth + 1, old, new);
        self.path.truncate(len);
        result
    }

    fn file(
        &mut self,
        name: &[u8],
        side: Side,
        oid: &gix::hash::oid,
        old: Option<&gix::hash::oid>,
    ) {
        let mut path = Vec::with_capacity(self.path.len() + name.len());
        path.extend_from_slice(&self.path);
        path.extend_from_slice(name);
        let path = String::from_utf8(path)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.changes
            .push((path, side, oid.to_owned(), old.map(ToOwned::to_owned)));
    }
}

/// Where the tree entry starting at `at` ends (`mode SP name NUL id`): the first NUL ends the
/// name. `None` at the end or when the entry is cut short.
fn entry_end(tree: &[u8], at: usize, hash_len: usize) -> Option<usize> {
    use gix::bstr::ByteSlice;
    let nul = at + tree.get(at..)?.find_byte(0)?;
    let end = nul + 1 + hash_len;
    (end <= tree.len()).then_some(end)
}

/// How many bytes `a` and `b` share at their start.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many bytes `a` and `b` share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = n;
    while i >= 8 && a[i - 8..i] == b[i - 8..i] {
        i -= 8;
    }
    while i > 0 && a[i - 1] == b[i - 1] {
        i -= 1;
    }
    n - i
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
