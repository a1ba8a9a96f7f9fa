//! The diffs: each new non-merge commit's tree against its first parent's, on a few threads,
//! taking work from the end of the history whose deltas decode cheaper (ADR-0005).

use super::differ::Differ;
use super::packs::{Packs, Reader};
use super::HistoryError;
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
