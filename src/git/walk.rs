//! The walk: every commit reachable from a tip and not yet known, decoded once and read
//! straight from the packs, then diffed on a few threads (ADR-0005).

use super::data::{CommitMeta, WalkedCommit};
use super::diff::{diff_all, Job, RELEASE_EVERY};
use super::packs::{Packs, Reader};
use super::repo::{id20, Repo};
use super::stream::{self, Feed, STREAM_AFTER};
use super::HistoryError;
use crate::util::one_line;
use gix::bstr::ByteSlice;
use gix::objs::FindExt;
use gix::ObjectId;
use std::collections::BinaryHeap;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

/// How many objects a walk looks for as loose files first (see `Packs::open`): enough for the
/// few commits of a refresh after a commit, a merge or a rebase of a branch.
const LOOSE_FIRST: usize = 256;

/// Walks the history from `tip`, never entering a commit for which `known` is true (it and its
/// ancestors are known already), decodes each new commit once and diffs each new non-merge one
/// against its first parent (a known parent is read for its tree only). Returns the new
/// commits in no particular order. `progress(done, total)` is told how the diffs go, now and
/// then, from the diff threads: first with none done, last with all; while the diffs run
/// beside the walk, `total` is the diffs found so far, and grows until the walk ends.
pub fn walk_new(
    repo: &Repo,
    tip: [u8; 20],
    known: &(dyn Fn(&[u8; 20]) -> bool + Sync),
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Result<Vec<WalkedCommit>, HistoryError> {
    if known(&tip) {
        return Ok(Vec::new());
    }
    let sync = repo.sync()?;
    let local = sync.to_thread_local();
    let mut packs = Packs::open(sync, LOOSE_FIRST);
    let boundary: gix::hashtable::HashSet<ObjectId> = if repo.shallow {
        local
            .shallow_commits()
            .map_err(|e| HistoryError::Head(one_line(&e.to_string())))?
            .map(|commits| commits.iter().copied().collect())
            .unwrap_or_default()
    } else {
        Default::default()
    };

    // The walk hands each non-merge commit's job over as soon as it is known. A long walk
    // starts the diff threads once it has found `STREAM_AFTER` jobs, so the diffs run beside
    // it; a short one (a refresh) diffs its few jobs after it, on this thread.
    let feed = Feed::new(Vec::new());
    let done = AtomicUsize::new(0);
    let (walked, diffs) = std::thread::scope(|scope| {
        let (feed, done) = (&feed, &done);
        let packs_ref = &packs;
        let mut early: Vec<Job> = Vec::new();
        let mut threads = Vec::new();
        // The walk maps the packs itself and unmaps them now and then, as a diff thread
        // does: the pages it read stop counting in the process's memory while the diffs
        // run beside it.
        let walked = walk(
            &Reader::releasing(packs_ref, &local, 0),
            ObjectId::from(tip),
            known,
            &boundary,
            &mut |job| {
                if !threads.is_empty() {
                    feed.push(job);
                    return;
                }
                early.push(job);
                if early.len() == STREAM_AFTER {
                    for job in early.drain(..) {
                        feed.push(job);
                    }
                    if let Some(progress) = progress {
                        progress(0, STREAM_AFTER);
                    }
                    let n = stream::threads();
                    threads = (0..n)
                        .map(|_| {
                            scope.spawn(move || {
                                stream::diff_feed(sync, packs_ref, feed, n, done, progress)
                            })
                        })
                        .collect();
                }
            },
        );
        // Whatever the walk's outcome, the threads stop once the jobs found are taken.
        feed.finish();
        let mut streamed = Vec::new();
        let mut failed = None;
        for handle in threads {
            match handle.join() {
                Ok(Ok(diffs)) => streamed.extend(diffs),
                Ok(Err(e)) => failed = failed.or(Some(e)),
                Err(_) => {
                    failed = failed.or(Some(HistoryError::Thread("a diff thread panicked".into())))
                }
            }
        }
        let walked = walked?;
        if let Some(e) = failed {
            return Err(e);
        }
        let diffs = if streamed.is_empty() {
            diff_all(sync, packs_ref, &early, progress, true)?
        } else {
            streamed.sort_unstable_by_key(|d| d.index);
            if let Some(progress) = progress {
                let total = streamed.len();
                progress(total, total);
            }
            streamed
        };
        Ok((walked, diffs))
    })?;
    if walked.len() > RELEASE_EVERY {
        // The walk's pages of the shared mapping need not stay counted while the index is
        // written.
        packs.release();
    }

    let mut out: Vec<WalkedCommit> = walked
        .into_iter()
        .map(|c| WalkedCommit {
            id: id20(&c.id),
            parents: c.parents.iter().map(|p| id20(p)).collect(),
            meta: c.meta,
            changes: Vec::new(),
            renames: Vec::new(),
            sizes: Vec::new(),
        })
        .collect();
    for diff in diffs {
        let commit = &mut out[diff.index as usize];
        commit.changes = diff.paths;
        commit.renames = diff.renames;
        commit.sizes = diff.sizes;
    }
    Ok(out)
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
    meta: CommitMeta,
}

/// Decodes every commit reachable from `tip` but not known once, in the order git would show
/// them (a priority queue on committer time; ties in discovery order). A known parent is read
/// for its tree only, never entered.
fn walk(
    objects: &Reader,
    tip: ObjectId,
    known: &(dyn Fn(&[u8; 20]) -> bool + Sync),
    boundary: &gix::hashtable::HashSet<ObjectId>,
    on_job: &mut dyn FnMut(Job),
) -> Result<Vec<Walked>, HistoryError> {
    let mut buf = Vec::new();
    let mut decoded: Vec<Walked> = Vec::new();
    let mut slot: gix::hashtable::HashMap<ObjectId, usize> = Default::default();
    // Trees of known commits that are first parents of new ones.
    let mut known_trees: gix::hashtable::HashMap<ObjectId, ObjectId> = Default::default();
    // (committer time, slot reversed): newest first, then first discovered (slot = discovery order).
    let mut queue: BinaryHeap<(i64, std::cmp::Reverse<usize>)> = BinaryHeap::new();
    let mut order: Vec<usize> = Vec::new();

    let commit_error = |id: &ObjectId, message: String| HistoryError::Commit {
        sha: id.to_string(),
        message: one_line(&message),
    };
    let decode = |id: ObjectId, buf: &mut Vec<u8>| -> Result<Walked, HistoryError> {
        let commit = objects
            .find_commit(&id, buf)
            .map_err(|e| commit_error(&id, e.to_string()))?;
        let parents: Vec<ObjectId> = if boundary.contains(&id) {
            Vec::new()
        } else {
            commit.parents().collect()
        };
        let time = commit
            .committer()
            .map_err(|e| commit_error(&id, e.to_string()))?
            .seconds();
        let author = commit
            .author()
            .map(|a| Arc::from(a.name.to_str_lossy().trim()))
            .unwrap_or_else(|_| Arc::from(""));
        let message = commit.message.to_str_lossy();
        let meta = CommitMeta::of(
            super::Sha::from_bytes(id.as_bytes()),
            time,
            author,
            &message,
            parents.len(),
        );
        Ok(Walked {
            id,
            tree: commit.tree(),
            parents,
            parent_tree: None,
            time,
            meta,
        })
    };

    let first = decode(tip, &mut buf)?;
    queue.push((first.time, std::cmp::Reverse(0)));
    slot.insert(tip, 0);
    decoded.push(first);
    while let Some((_, std::cmp::Reverse(at))) = queue.pop() {
        order.push(at);
        for p in 0..decoded[at].parents.len() {
            let parent = decoded[at].parents[p];
            let parent_tree = match slot.get(&parent) {
                Some(&existing) => decoded[existing].tree,
                None if known(&id20(&parent)) => {
                    if p != 0 {
                        continue;
                    }
                    match known_trees.get(&parent) {
                        Some(&tree) => tree,
                        None => {
                            let tree = objects
                                .find_commit_iter(&parent, &mut buf)
                                .map_err(|e| commit_error(&parent, e.to_string()))?
                                .tree_id()
                                .map_err(|e| commit_error(&parent, e.to_string()))?;
                            known_trees.insert(parent, tree);
                            tree
                        }
                    }
                }
                None => {
                    let next = decode(parent, &mut buf)?;
                    let index = decoded.len();
                    if index.is_multiple_of(RELEASE_EVERY) {
                        objects.release();
                    }
                    let tree = next.tree;
                    queue.push((next.time, std::cmp::Reverse(index)));
                    slot.insert(parent, index);
                    decoded.push(next);
                    tree
                }
            };
            if p == 0 {
                decoded[at].parent_tree = Some(parent_tree);
            }
        }
        // Its parents are decoded: a non-merge commit's diff is known now, and its place in
        // the walk's order is final.
        let commit = &decoded[at];
        if commit.parents.len() <= 1 {
            on_job(Job {
                index: (order.len() - 1) as u32,
                sha: commit.id,
                tree: commit.tree,
                parent_tree: commit.parent_tree,
            });
        }
    }
    let mut taken: Vec<Option<Walked>> = decoded.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .map(|at| taken[at].take().expect("each commit is walked once"))
        .collect())
}
