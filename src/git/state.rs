//! What the hooks and `review` ask of a repository besides its history, read in process: the
//! hooks folder git runs, an operation in progress, a few configuration values, and the upstream
//! of the current branch (docs/hooks.md, ADR-0008).

use super::repo::{id20, Repo};
use super::HistoryError;
use crate::util::one_line;
use std::path::{Path, PathBuf};

/// An operation git is in the middle of, as its state files in the worktree's git dir say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InProgress {
    /// `MERGE_HEAD`: a merge is being concluded.
    Merge,
    /// `CHERRY_PICK_HEAD`.
    CherryPick,
    /// `REVERT_HEAD`.
    Revert,
    /// `rebase-merge/`, or `rebase-apply/` of a rebase.
    Rebase,
    /// `rebase-apply/` of `git am`.
    Am,
    /// `sequencer/`: a cherry-pick or revert of several commits.
    Sequence,
}

/// The hooks folder git runs hooks from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HooksDir {
    /// As `git rev-parse --git-path hooks` resolves it, made absolute: `core.hooksPath` (relative
    /// to the top of the work tree when relative), else `hooks/` in the common git dir (which
    /// linked worktrees share).
    pub path: PathBuf,
    /// `core.hooksPath` as configured, when it is.
    pub configured: Option<String>,
}

impl Repo {
    /// The hooks folder git runs hooks from (see [`HooksDir`]).
    pub fn hooks_dir(&self) -> HooksDir {
        let Ok(repo) = self.gix() else {
            return HooksDir {
                path: lexical(&self.common_dir().join("hooks")),
                configured: None,
            };
        };
        let config = repo.config_snapshot();
        let configured = config
            .string("core.hooksPath")
            .map(|v| v.to_string())
            .filter(|v| !v.is_empty());
        let path = match &configured {
            Some(value) => {
                // `~/` and `%(prefix)/` as git expands them; the text as written otherwise.
                let expanded = config
                    .trusted_path("core.hooksPath")
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| PathBuf::from(value));
                if expanded.is_absolute() {
                    expanded
                } else {
                    self.workdir.join(expanded)
                }
            }
            None => repo.common_dir().join("hooks"),
        };
        HooksDir {
            path: lexical(&path),
            configured,
        }
    }

    /// The operation git is in the middle of in this worktree, if any: what a commit hook
    /// leaves alone (a merge being concluded, a commit of a rebase, cherry-pick or revert).
    pub fn in_progress(&self) -> Option<InProgress> {
        let dir = &self.git_dir;
        let has = |name: &str| dir.join(name).exists();
        if has("rebase-merge") {
            Some(InProgress::Rebase)
        } else if has("rebase-apply") {
            Some(if has("rebase-apply/applying") {
                InProgress::Am
            } else {
                InProgress::Rebase
            })
        } else if has("MERGE_HEAD") {
            Some(InProgress::Merge)
        } else if has("CHERRY_PICK_HEAD") {
            Some(InProgress::CherryPick)
        } else if has("REVERT_HEAD") {
            Some(InProgress::Revert)
        } else if has("sequencer") {
            Some(InProgress::Sequence)
        } else {
            None
        }
    }

    /// A boolean of the repository's configuration (all levels, as git reads them); `None` when
    /// it is unset or not a boolean.
    pub fn config_bool(&self, key: &str) -> Option<bool> {
        if let Some(given) = super::cmdline::value(key) {
            return match given.map(|v| v.to_ascii_lowercase()).as_deref() {
                None | Some("true" | "yes" | "on" | "1") => Some(true),
                Some("false" | "no" | "off" | "0" | "") => Some(false),
                Some(_) => None,
            };
        }
        if self.config_cannot_set(key) {
            return None;
        }
        self.gix().ok()?.config_snapshot().boolean(key)
    }

    /// A string of the repository's configuration (all levels, as git reads them).
    pub fn config_string(&self, key: &str) -> Option<String> {
        if let Some(given) = super::cmdline::value(key) {
            return Some(given.unwrap_or_default());
        }
        if self.config_cannot_set(key) {
            return None;
        }
        self.gix()
            .ok()?
            .config_snapshot()
            .string(key)
            .map(|v| v.to_string())
    }

    /// What starts a comment line in a commit message: `core.commentString`, else
    /// `core.commentChar`, else `#` (also for `auto`, whose choice depends on the message).
    pub fn comment_prefix(&self) -> String {
        ["core.commentString", "core.commentChar"]
            .iter()
            .find_map(|key| self.config_string(key))
            .filter(|v| !v.is_empty() && v != "auto")
            .unwrap_or_else(|| "#".to_string())
    }

    /// The current branch's upstream, as a reference name (`refs/remotes/origin/main`, or
    /// `refs/heads/main` for a local one); `None` on a detached HEAD or without one.
    pub fn upstream(&self) -> Result<Option<String>, HistoryError> {
        let repo = self.gix()?;
        let err = |e: &dyn std::fmt::Display| HistoryError::Head(one_line(&e.to_string()));
        let Some(branch) = repo.head_name().map_err(|e| err(&e))? else {
            return Ok(None);
        };
        let short = branch.shorten().to_string();
        let config = repo.config_snapshot();
        let remote = config.string(format!("branch.{short}.remote").as_str());
        let merge = config.string(format!("branch.{short}.merge").as_str());
        match (remote, merge) {
            // `git branch --set-upstream-to=main`: a local branch is the upstream.
            (Some(remote), Some(merge)) if remote == "." => Ok(Some(merge.to_string())),
            (Some(_), Some(_)) => {
                match repo
                    .branch_remote_tracking_ref_name(branch.as_ref(), gix::remote::Direction::Fetch)
                {
                    Some(Ok(name)) => Ok(Some(name.as_bstr().to_string())),
                    Some(Err(e)) => Err(err(&e)),
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// The commit a revision names (`main`, `origin/main`, `HEAD~3`, a sha, a tag), peeled.
    pub fn resolve_commit(&self, rev: &str) -> Result<[u8; 20], HistoryError> {
        let repo = self.gix()?;
        let err = |e: &dyn std::fmt::Display| {
            HistoryError::Range(format!(
                "cannot resolve {rev:?}: {}",
                one_line(&e.to_string())
            ))
        };
        let id = repo.rev_parse_single(rev).map_err(|e| err(&e))?;
        let commit = id
            .object()
            .map_err(|e| err(&e))?
            .peel_to_commit()
            .map_err(|e| err(&e))?;
        Ok(id20(&commit.id))
    }
}

impl Repo {
    /// The first parent of `commit`; `None` for a root commit.
    pub fn first_parent(&self, commit: [u8; 20]) -> Result<Option<[u8; 20]>, HistoryError> {
        let repo = self.gix()?;
        let id = gix::ObjectId::from_bytes_or_panic(&commit);
        let found = repo.find_commit(id).map_err(|e| HistoryError::Commit {
            sha: id.to_string(),
            message: one_line(&e.to_string()),
        })?;
        let parent = found.parent_ids().next().map(|p| id20(&p));
        Ok(parent)
    }

    /// The message of the commit a fixup or squash commit names by `target` (what follows
    /// `fixup! `): among the newest `limit` commits reachable from `from`, the one whose subject
    /// is `target`, else the commit `target` names as a revision, else the newest whose subject
    /// starts with it, as `git rebase --autosquash` finds it. `None` when none is found.
    pub fn fixup_message(&self, from: [u8; 20], target: &str, limit: usize) -> Option<String> {
        let repo = self.gix().ok()?;
        let start = gix::ObjectId::from_bytes_or_panic(&from);
        let mut prefixed = None;
        for info in repo.rev_walk([start]).all().ok()?.take(limit) {
            let Ok(commit) = info.ok()?.object() else {
                continue;
            };
            let Ok(message) = commit.message_raw() else {
                continue;
            };
            let message = String::from_utf8_lossy(message).into_owned();
            let subject = message.lines().next().unwrap_or("").trim_end();
            if subject == target {
                return Some(message);
            }
            if prefixed.is_none() && subject.starts_with(target) {
                prefixed = Some(message);
            }
        }
        let named = self.resolve_commit(target).ok().and_then(|id| {
            let commit = repo
                .find_commit(gix::ObjectId::from_bytes_or_panic(&id))
                .ok()?;
            let message = commit.message_raw().ok()?;
            Some(String::from_utf8_lossy(message).into_owned())
        });
        named.or(prefixed)
    }

    /// When `head` is GitHub's synthetic merge of a pull request (a merge of two parents that a
    /// ref `refs/pull/N/merge` or `refs/remotes/pull/N/merge` names, as actions/checkout
    /// checks it out): that ref's name and the merge's second parent, the pull request's head.
    pub fn pull_request_merge(&self, head: [u8; 20]) -> Option<(String, [u8; 20])> {
        let repo = self.gix().ok()?;
        let id = gix::ObjectId::from_bytes_or_panic(&head);
        let commit = repo.find_commit(id).ok()?;
        let parents: Vec<gix::ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        let [_, pr_head] = parents.as_slice() else {
            return None;
        };
        let refs = repo.references().ok()?;
        for prefix in ["refs/pull/", "refs/remotes/pull/"] {
            let Ok(found) = refs.prefixed(prefix) else {
                continue;
            };
            for mut r in found.flatten() {
                let name = r.name().as_bstr().to_string();
                let Some(number) = name
                    .strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix("/merge"))
                else {
                    continue;
                };
                if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                if r.peel_to_id().is_ok_and(|target| target.detach() == id) {
                    return Some((name, id20(pr_head)));
                }
            }
        }
        None
    }

    /// The best common ancestor of two commits (`git merge-base`), if they have one.
    pub fn merge_base(&self, a: [u8; 20], b: [u8; 20]) -> Result<Option<[u8; 20]>, HistoryError> {
        let repo = self.gix()?;
        let one = gix::ObjectId::from_bytes_or_panic(&a);
        let two = gix::ObjectId::from_bytes_or_panic(&b);
        match repo.merge_base(one, two) {
            Ok(id) => Ok(id.map(|id| id20(&id))),
            Err(e) => Err(HistoryError::Range(format!(
                "cannot find the merge base of {one} and {two}: {}",
                one_line(&e.to_string())
            ))),
        }
    }
}

/// `a/./b/../c` as `a/c`, without touching the file system (the hooks folder may not exist).
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_drops_dots() {
        assert_eq!(lexical(Path::new("/r/./a/../b")), PathBuf::from("/r/b"));
        assert_eq!(
            lexical(Path::new("/r/.husky/_")),
            PathBuf::from("/r/.husky/_")
        );
    }
}
