//! The diffs of a long walk, started while the walk goes (ADR-0005): each commit's job (its
//! tree against its first parent's) is known once the walk has decoded that parent, so the
//! diff threads take the jobs as the walk finds them, newest first, instead of waiting for
//! the whole history to be decoded on one core.

use super::diff::{CommitDiff, Job, MAX_THREADS, PROBE, PROGRESS_EVERY, TREE_CACHE_BYTES};
use super::differ::Differ;
use super::packs::{Packs, Reader};
use super::HistoryError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// A walk that has found this many jobs starts its diff threads; one that ends with fewer (an
/// index refresh) diffs them after the walk, as before.
pub(super) const STREAM_AFTER: usize = 2 * PROBE;

/// The jobs the walk has found, shared with the diff threads.
pub(super) struct Feed {
    state: Mutex<State>,
    ready: Condvar,
}

struct State {
    jobs: Vec<Job>,
    /// Jobs before this one are taken.
    next: usize,
    /// The walk is over (or failed): no more jobs will come.
    done: bool,
}

impl Feed {
    pub(super) fn new(jobs: Vec<Job>) -> Feed {
        Feed {
            state: Mutex::new(State {
                jobs,
                next: 0,
                done: false,
            }),
            ready: Condvar::new(),
        }
    }

    /// One more job from the walk.
    pub(super) fn push(&self, job: Job) {
        let mut state = crate::util::locked(&self.state);
        state.jobs.push(job);
        if state.jobs.len() - state.next == PROBE {
            self.ready.notify_all();
        }
    }

    /// The walk is over: the threads take what is left and stop.
    pub(super) fn finish(&self) {
        crate::util::locked(&self.state).done = true;
        self.ready.notify_all();
    }

    /// How many jobs the walk has found so far.
    fn found(&self) -> usize {
        crate::util::locked(&self.state).jobs.len()
    }

    /// The next jobs for a thread, copied into `out`; false when all are taken and the walk
    /// is over. While the walk goes a thread takes `PROBE` jobs at a time (consecutive commits
    /// share trees and delta bases); after it, what is left is shared out in chunks that get
    /// smaller towards the end, for balance.
    fn take(&self, threads: usize, out: &mut Vec<Job>) -> bool {
        out.clear();
        let mut state = crate::util::locked(&self.state);
        loop {
            let left = state.jobs.len() - state.next;
            let size = if state.done {
                (left / (2 * threads)).max(PROBE).min(left)
            } else if left >= PROBE {
                PROBE
            } else {
                0
            };
            if size > 0 {
                let from = state.next;
                out.extend_from_slice(&state.jobs[from..from + size]);
                state.next += size;
                return true;
            }
            if state.done {
                return false;
            }
            state = match self.ready.wait(state) {
                Ok(state) => state,
                Err(poisoned) => poisoned.into_inner(),
            };
        }
    }
}

/// How many diff threads a long walk starts.
pub(super) fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, MAX_THREADS)
}

/// One diff thread: diffs the jobs it takes from `feed` until the walk is over and every job
/// is taken. Its reader maps the packs itself and unmaps them every
/// [`super::diff::RELEASE_EVERY`] diffs (the walk's length is not known when it starts).
pub(super) fn diff_feed(
    sync: &gix::ThreadSafeRepository,
    packs: &Packs,
    feed: &Feed,
    threads: usize,
    done: &AtomicUsize,
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Vec<CommitDiff>, HistoryError> {
    let repo = sync.to_thread_local();
    let reader = Reader::releasing(packs, &repo, TREE_CACHE_BYTES);
    let mut differ = Differ::new(&reader, repo.object_hash(), true);
    let mut out = Vec::new();
    let mut chunk = Vec::with_capacity(PROBE);
    while feed.take(threads, &mut chunk) {
        for job in &chunk {
            out.push(differ.diff(job)?);
            if out.len().is_multiple_of(super::diff::RELEASE_EVERY) {
                reader.release();
            }
            let now = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(progress) = progress.filter(|_| now.is_multiple_of(PROGRESS_EVERY)) {
                progress(now, feed.found().max(now));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gix::ObjectId;

    fn job(index: u32) -> Job {
        let id = ObjectId::null(gix::hash::Kind::Sha1);
        Job {
            index,
            sha: id,
            tree: id,
            parent_tree: None,
        }
    }

    #[test]
    fn the_feed_hands_out_every_job_once_while_the_walk_goes_and_after() {
        let feed = Feed::new((0..10).map(job).collect());
        let taken = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| {
                    let mut chunk = Vec::new();
                    while feed.take(3, &mut chunk) {
                        crate::util::locked(&taken).extend(chunk.iter().map(|j| j.index));
                    }
                });
            }
            for i in 10..1000 {
                feed.push(job(i));
            }
            feed.finish();
        });
        let mut taken = taken.into_inner().unwrap();
        taken.sort_unstable();
        assert_eq!(taken, (0..1000).collect::<Vec<u32>>());
    }

    #[test]
    fn a_thread_waits_for_a_whole_chunk_until_the_walk_is_over() {
        let feed = Feed::new((0..(PROBE as u32 - 1)).map(job).collect());
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| {
                let mut chunk = Vec::new();
                assert!(feed.take(1, &mut chunk));
                chunk.len()
            });
            std::thread::sleep(std::time::Duration::from_millis(50));
            feed.push(job(PROBE as u32 - 1));
            assert_eq!(waiter.join().unwrap(), PROBE);
        });
        feed.finish();
        let mut chunk = Vec::new();
        assert!(!feed.take(1, &mut chunk));
    }
}
