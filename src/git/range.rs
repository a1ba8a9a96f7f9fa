//! A range of commits for `review` (docs/hooks.md, ADR-0008): the commits one tip reaches and a
//! base does not, as `git log BASE..HEAD` lists them, each decoded once with its whole message,
//! and each non-merge one diffed against its first parent.

use super::data::{canonical_order, CommitMeta};
use super::diff::{diff_all, Job};
use super::repo::Repo;
use super::HistoryError;
use crate::util::one_line;
use gix::bstr::ByteSlice;
use gix::objs::FindExt;
use gix::prelude::ObjectIdExt;
use gix::ObjectId;
use std::sync::Arc;

/// Objects looked for as loose files first, per commit of the range (the commit, its parent,
/// the trees and blobs of a small change), and at most (see `Packs::open`): a miss costs one
/// failed open, about what gix's first reading of a loose object costs over ours.
const LOOSE_PER_COMMIT: usize = 8;
const LOOSE_AT_MOST: usize = 2048;

/// One commit of a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeCommit {
    pub meta: CommitMeta,
    /// The sha as git abbreviates it here (unique in the repository, at least 7 characters);
    /// empty in a [`Branch`] until asked for ([`Branch::short`]).
    pub short: String,
    /// The whole message.
    pub message: String,
    /// The author's email.
    pub email: String,
    /// Its full id, and its parents'.
    pub id: [u8; 20],
    pub parents: Vec<[u8; 20]>,
    /// Files its diff against its first parent added, modified or deleted, relative to the root
    /// (paths outside it dropped), sorted; empty for a merge, and until it is diffed
    /// ([`walk_branch`], [`Branch::diff`]).
    pub changes: Vec<String>,
    /// What its diff compares, until it is diffed; `None` for a merge.
    job: Option<Job>,
}

/// The commits `head` reaches and `base` does not, in canonical order (newest first, ties by
/// sha). A shallow clone's boundary ends the walk, as it ends git's.
pub fn walk_range(
    repo: &Repo,
    base: [u8; 20],
    head: [u8; 20],
) -> Result<Vec<RangeCommit>, HistoryError> {
    let (mut commits, packs) = walk(repo, base, head, usize::MAX, true)?;
    let jobs: Vec<Job> = commits
        .iter_mut()
        .enumerate()
        .filter_map(|(i, c)| {
            c.job.take().map(|job| Job {
                index: i as u32,
                ..job
            })
        })
        .collect();
    for diff in diff_all(repo.sync()?, &packs, &jobs, None, false)? {
        commits[diff.index as usize].changes = changes_under(repo, diff.paths);
    }
    Ok(commits)
}

/// A branch as the commit hook reads it: its commits, none diffed until asked
/// ([`Branch::diff`]), and the packs they are read from, opened once for all.
pub struct Branch {
    pub commits: Vec<RangeCommit>,
    packs: super::packs::Packs,
}

/// The commits of [`walk_range`], the newest `cap` of them (the commit hook's branch, ADR-0008:
/// never the history unbounded), none diffed yet: the hook diffs only those it needs.
pub fn walk_branch(
    repo: &Repo,
    base: [u8; 20],
    head: [u8; 20],
    cap: usize,
) -> Result<Branch, HistoryError> {
    walk(repo, base, head, cap, false).map(|(commits, packs)| Branch { commits, packs })
}

impl Branch {
    /// Fills the `changes` of commit `i` (once; a merge has none).
    pub fn diff(&mut self, repo: &Repo, i: usize) -> Result<(), HistoryError> {
        let Some(commit) = self.commits.get_mut(i) else {
            return Ok(());
        };
        let Some(job) = commit.job.take() else {
            return Ok(());
        };
        for diff in diff_all(repo.sync()?, &self.packs, &[job], None, false)? {
            commit.changes = changes_under(repo, diff.paths);
        }
        Ok(())
    }

    /// Commit `i`'s sha as git abbreviates it (each is a search of the object store, so only
    /// for the commits the hook names).
    pub fn short(&self, repo: &Repo, i: usize) -> String {
        let Some(c) = self.commits.get(i) else {
            return String::new();
        };
        let id = ObjectId::from_bytes_or_panic(&c.id);
        match repo.gix() {
            Ok(local) => abbreviated(&local, id),
            Err(_) => id.to_hex_with_len(7).to_string(),
        }
    }
}

/// `id` as git abbreviates it in `local` (unique there, at least 7 characters).
fn abbreviated(local: &gix::Repository, id: ObjectId) -> String {
    id.attach(local).shorten_or_id().to_string()
}

/// The paths of a diff relative to the root (those outside it dropped).
fn changes_under(repo: &Repo, paths: Vec<String>) -> Vec<String> {
    let prefix = repo.prefix.as_str();
    paths
        .into_iter()
        .filter_map(|p| crate::util::under_prefix_str(&p, prefix).map(str::to_string))
        .collect()
}

/// The commits `head` reaches and `base` does not (the newest `cap`), in canonical order,
/// each with its job (and, with `shorten`, its short sha), and the packs they were read from.
fn walk(
    repo: &Repo,
    base: [u8; 20],
    head: [u8; 20],
    cap: usize,
    shorten: bool,
) -> Result<(Vec<RangeCommit>, super::packs::Packs), HistoryError> {
    let local = repo.gix()?;
    let walk_err = |e: &dyn std::fmt::Display| {
        HistoryError::Range(format!(
            "cannot walk the range {}..{}: {}",
            ObjectId::from_bytes_or_panic(&base),
            ObjectId::from_bytes_or_panic(&head),
            one_line(&e.to_string())
        ))
    };
    let tips: Vec<ObjectId> = local
        .rev_walk([ObjectId::from_bytes_or_panic(&head)])
        .with_hidden([ObjectId::from_bytes_or_panic(&base)])
        .all()
        .map_err(|e| walk_err(&e))?
        .take(cap)
        .map(|info| info.map(|i| i.id))
        .collect::<Result<_, _>>()
        .map_err(|e| walk_err(&e))?;

    let commit_err = |id: &ObjectId, e: &dyn std::fmt::Display| HistoryError::Commit {
        sha: id.to_string(),
        message: one_line(&e.to_string()),
    };
    // A branch's newest commits are mostly loose: read as such first, with one inflater (the
    // commit hook reads its branch before every commit; gix maps each loose object apart).
    let sync = repo.sync()?;
    let loose = tips
        .len()
        .saturating_mul(LOOSE_PER_COMMIT)
        .min(LOOSE_AT_MOST);
    let packs = super::packs::Packs::open(sync, loose);
    // Commits only: no cache of trees.
    let objects = super::packs::Reader::new(&packs, &local, 0);
    let mut buf = Vec::new();
    let mut parent_buf = Vec::new();
    let mut commits = Vec::with_capacity(tips.len());
    for id in tips {
        let commit = objects
            .find_commit(&id, &mut buf)
            .map_err(|e| commit_err(&id, &e))?;
        let parents: Vec<ObjectId> = commit.parents().collect();
        let time = commit
            .committer()
            .map_err(|e| commit_err(&id, &e))?
            .seconds();
        let (author, email) = commit
            .author()
            .map(|a| {
                (
                    Arc::from(a.name.to_str_lossy().trim()),
                    a.email.to_str_lossy().trim().to_string(),
                )
            })
            .unwrap_or_else(|_| (Arc::from(""), String::new()));
        let message = commit.message.to_str_lossy().into_owned();
        let tree = commit.tree();
        let mut job = None;
        if parents.len() <= 1 {
            let parent_tree = match parents.first() {
                Some(p) => Some(
                    objects
                        .find_commit_iter(p, &mut parent_buf)
                        .map_err(|e| commit_err(p, &e))?
                        .tree_id()
                        .map_err(|e| commit_err(p, &e))?,
                ),
                None => None,
            };
            job = Some(Job {
                index: 0,
                sha: id,
                tree,
                parent_tree,
            });
        }
        let short = if shorten {
            abbreviated(&local, id)
        } else {
            String::new()
        };
        commits.push(RangeCommit {
            short,
            meta: CommitMeta::of(
                super::Sha::from_bytes(id.as_bytes()),
                time,
                author,
                &message,
                parents.len(),
            ),
            message,
            email,
            id: super::repo::id20(&id),
            parents: parents.iter().map(|p| super::repo::id20(p)).collect(),
            changes: Vec::new(),
            job,
        });
    }
    drop(objects);
    commits.sort_by(|a, b| canonical_order(&a.meta, &b.meta));
    Ok((commits, packs))
}
