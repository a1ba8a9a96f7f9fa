//! The hooks' questions, asked in a session (CONTRACT.md §5, ADR-0008): which current decisions
//! govern the staged paths and whether the message cites them (pre-commit, prepare-commit-msg,
//! commit-msg), and the quiet refresh of the index (post-commit, post-merge, post-checkout,
//! post-rewrite). Installing and removing the hooks is `hooks::install`'s.

use super::error::{Error, Result};
use super::{Ask, Session};
use crate::git::{self, InProgress, Repo};
use crate::hooks::{self, Hook};
use crate::model::{HooksReport, IndexSummary, Skipped, StagedCheck};
use std::path::Path;

/// The commit hook asking, with what git gave it.
#[derive(Debug, Clone, Copy)]
pub enum CommitHook<'a> {
    /// pre-commit: no message yet.
    PreCommit,
    /// prepare-commit-msg: the message as git prepared it, git's source of it (`message`,
    /// `template`, `merge`, `squash`, `commit`; `None` for a new one), and whether git opens an
    /// editor on it (it sets `GIT_EDITOR=:` when it does not).
    PrepareMessage {
        template: &'a str,
        source: Option<&'a str>,
        editor: bool,
    },
    /// commit-msg: the message as the author left it.
    CommitMessage { message: &'a str },
}

fn repo_of(session: &Session) -> Result<Repo> {
    session
        .repository()
        .cloned()
        .ok_or_else(|| Error::NoGit(session.root().display().to_string()))
}

/// Why a commit hook leaves this commit alone, before reading anything else.
fn skip(repo: &Repo, hook: CommitHook) -> Option<Skipped> {
    if let CommitHook::PrepareMessage { source, editor, .. } = hook {
        if matches!(source, Some("merge" | "squash")) {
            return Some(Skipped::Merge);
        }
        if !editor {
            return Some(Skipped::NoEditor);
        }
    }
    match repo.in_progress() {
        Some(InProgress::Merge) => Some(Skipped::Merge),
        Some(_) => Some(Skipped::Sequence),
        None => None,
    }
}

/// The current decisions governing the paths staged in `index` (the index file git commits
/// from; `None`: the worktree's, or `GIT_INDEX_FILE` as this process sees it), and whether the
/// message cites them. The records come from the index's scan memo when it holds.
pub fn staged_check(
    session: &mut Session,
    hook: CommitHook,
    index: Option<&Path>,
) -> Result<StagedCheck> {
    let repo = repo_of(session)?;
    let mut check = StagedCheck {
        staged: 0,
        decisions: Vec::new(),
        skipped: skip(&repo, hook),
        strict: repo.config_bool("context-graph.strict").unwrap_or(false),
        comment: repo.comment_prefix(),
    };
    if check.skipped.is_some() {
        return Ok(check);
    }
    let staged = git::staged_paths(&repo, index)?;
    check.staged = staged.len();
    if staged.is_empty() {
        return Ok(check);
    }
    let report = match session.answer(&Ask::Check, None) {
        Ok(answer) => answer.report,
        Err(e) if e.is_no_records() => return Ok(check),
        Err(e) => return Err(e),
    };
    check.decisions = hooks::governing(&report.records, &staged);
    let message = match hook {
        CommitHook::PreCommit => None,
        CommitHook::PrepareMessage { template, .. } => Some(template),
        CommitHook::CommitMessage { message } => Some(message),
    };
    if let Some(message) = message {
        let body = hooks::message_body(message, &check.comment);
        for d in &mut check.decisions {
            d.cited = hooks::cites(&body, &d.id);
        }
        if matches!(hook, CommitHook::PrepareMessage { .. })
            && check.decisions.iter().any(|d| d.cited)
        {
            check.skipped = Some(Skipped::AlreadyCited);
        }
    }
    Ok(check)
}

/// The refresh of a post-* hook: the index brought up to date as `context-graph index` does.
/// `None` when there is nothing to do now: post-commit and post-checkout during a rebase (its
/// post-rewrite refreshes once at the end).
pub fn refresh(session: &mut Session, hook: Hook) -> Result<Option<IndexSummary>> {
    let repo = repo_of(session)?;
    let rebasing = repo.in_progress() == Some(InProgress::Rebase);
    if rebasing && matches!(hook, Hook::PostCommit | Hook::PostCheckout) {
        return Ok(None);
    }
    session.index_update(false, None).map(Some)
}

/// `install-hooks`: every hook into the folder git runs hooks from, calling `bin`.
pub fn install_hooks(session: &Session, bin: &Path) -> Result<HooksReport> {
    Ok(hooks::install(&repo_of(session)?, bin)?)
}

/// `uninstall-hooks`: our part out of every hook.
pub fn uninstall_hooks(session: &Session) -> Result<HooksReport> {
    Ok(hooks::uninstall(&repo_of(session)?)?)
}
