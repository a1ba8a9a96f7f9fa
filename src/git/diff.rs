//! The diffs: each new non-merge commit's tree against its first parent's, on a few threads,
//! taking work from the end of the history whose deltas decode cheaper (ADR-0005).

use super::renames::pair_renames;
use super::walk::{tune_caches, CacheStats};
use super::HistoryError;
use crate::util::one_line;
use gix::objs::FindExt;
use gix::ObjectId;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Decoded-object cache per thread: neighbouring commits share most trees (measured: little
/// gain beyond a few MiB once the pack cache holds the delta bases).
const OBJECT_CACHE_BYTES: usize = 4 * 1024 * 1024;
/// Commits in a first chunk from either end of the history (see [`Queue`]), and the smallest
/// chunk a thread takes: consecutive commits share trees and delta bases.
const PROBE: usize = 64;
/// Diff threads at most.
const MAX_THREADS: usize = 4;
/// `progress` is told after every this many diffs.
const PROGRESS_EVERY: usize = 256;

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
pub(super) fn diff_all(
    sync: &gix::ThreadSafeRepository,
    jobs: &[Job],
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
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
        let stats = Arc::new(CacheStats::default());
        let mut repo = sync.to_thread_local();
        // A few commits (a refresh) gain nothing from big caches, and pay to set them up.
        if jobs.len() > PROBE {
            tune_caches(&mut repo, Some(stats.clone()));
            repo.object_cache_size(OBJECT_CACHE_BYTES);
        }
        let mut differ = Differ::new(&repo);
        let mut out = Vec::new();
        let mut one = |job: &Job, out: &mut Vec<CommitDiff>| -> Result<(), HistoryError> {
            out.push(differ.diff(job)?);
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
            let (misses, puts) = stats.snapshot();
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
            let (misses_now, puts_now) = stats.snapshot();
            let cost = (misses_now - misses) as f64 / (puts_now - puts).max(1) as f64;
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

struct Differ<'r> {
    repo: &'r gix::Repository,
    state: gix::diff::tree::State,
    old_buf: Vec<u8>,
    new_buf: Vec<u8>,
    empty_tree: Vec<u8>,
}

impl<'r> Differ<'r> {
    fn new(repo: &'r gix::Repository) -> Self {
        Differ {
            repo,
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
            let path = String::from_utf8(Vec::from(path))
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            if path.ends_with(".md") {
                match md_side {
                    Some(true) => added_md.push((path.clone(), oid)),
                    Some(false) => deleted_md.push((path.clone(), oid)),
                    None => {}
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
        })
    }
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
