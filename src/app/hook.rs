//! The hooks' questions, asked in a session (CONTRACT.md §5, ADR-0008): which current decisions
//! govern the staged paths and whether the message cites them (pre-commit, prepare-commit-msg,
//! commit-msg), and the quiet refresh of the index (post-commit, post-merge, post-checkout,
//! post-rewrite). Installing and removing the hooks is `hooks::install`'s.

use super::error::{Error, Result};
use super::{Ask, Session};
use crate::fs::fingerprint::DIGEST_MARGIN_NS;
use crate::git::{self, InProgress, Repo};
use crate::hooks::{self, Hook};
use crate::index::{self, Index};
use crate::model::{HooksReport, Skipped, StagedCheck};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where prepare-commit-msg notes, for commit-msg, the commit whose message git started from
/// (`git commit --amend`, `-c`, `-C`): git tells only prepare-commit-msg. In the worktree's git
/// dir, beside the index; written by the binary or, when it is not started, by the script.
pub const MESSAGE_SOURCE: &str = "message-source";

/// The commit hook asking, with what git gave it.
#[derive(Debug, Clone, Copy)]
pub enum CommitHook<'a> {
    /// pre-commit: no message yet.
    PreCommit,
    /// prepare-commit-msg: the message as git prepared it, git's source of it (`message`,
    /// `template`, `merge`, `squash`, `commit`; `None` for a new one) and the commit for
    /// `commit`, and whether git opens an editor on it (it sets `GIT_EDITOR=:` when it does
    /// not).
    PrepareMessage {
        template: &'a str,
        source: Option<&'a str>,
        commit: Option<&'a str>,
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

fn message_source(repo: &Repo) -> PathBuf {
    repo.git_dir.join("context-graph").join(MESSAGE_SOURCE)
}

/// Whether this commit amends HEAD: git started its message from HEAD (`--amend` passes
/// prepare-commit-msg `commit HEAD`; commit-msg reads the note prepare-commit-msg left).
/// `-C HEAD` looks the same, and is judged as an amend.
fn amends(repo: &Repo, hook: CommitHook) -> bool {
    let Some(head) = repo.head.map(|h| git::sha_hex(&h)) else {
        return false;
    };
    let is_head = |rev: &str| rev == "HEAD" || rev == head;
    match hook {
        CommitHook::PreCommit => false,
        CommitHook::PrepareMessage { source, commit, .. } => {
            source == Some("commit") && commit.is_some_and(is_head)
        }
        CommitHook::CommitMessage { .. } => {
            std::fs::read_to_string(message_source(repo)).is_ok_and(|noted| is_head(noted.trim()))
        }
    }
}

/// prepare-commit-msg's note for commit-msg (see [`MESSAGE_SOURCE`]): the commit git started
/// the message from, or nothing. A note that cannot be written is no note.
fn note_source(repo: &Repo, hook: CommitHook) {
    if let CommitHook::PrepareMessage { source, commit, .. } = hook {
        let text = match (source, commit) {
            (Some("commit"), Some(sha)) => format!("{sha}\n"),
            _ => String::new(),
        };
        let path = message_source(repo);
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, text);
    }
}

/// The current decisions governing the paths staged in `index` (the index file git commits
/// from; `None`: the worktree's, or `GIT_INDEX_FILE` as this process sees it), and whether the
/// message cites them. Staged means against HEAD, or against HEAD's parent for an amend (the
/// commit it makes replaces HEAD). The records come from the index's scan memo when it holds.
pub fn staged_check(
    session: &mut Session,
    hook: CommitHook,
    index: Option<&Path>,
) -> Result<StagedCheck> {
    let repo = repo_of(session)?;
    note_source(&repo, hook);
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
    let base = match (repo.head, amends(&repo, hook)) {
        (Some(head), true) => repo.first_parent(head)?,
        (head, _) => head,
    };
    let staged = git::staged_paths(&repo, index, base)?;
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

/// The refresh of a post-* hook: the index brought up to date (`Session::refresh`), so that
/// `index --status` says fresh. A file git changed a moment before a scan (a checkout, a merge)
/// cannot be vouched for by its content yet (`fs::fingerprint::DIGEST_MARGIN_NS`): when a scan
/// ran and its memo does not hold, the refresh waits out that margin and goes again. `false`
/// when there is nothing to do now: post-commit and post-checkout during a rebase (its
/// post-rewrite refreshes once at the end).
pub fn refresh(session: &mut Session, hook: Hook) -> Result<bool> {
    let repo = repo_of(session)?;
    let rebasing = repo.in_progress() == Some(InProgress::Rebase);
    if rebasing && matches!(hook, Hook::PostCommit | Hook::PostCheckout) {
        return Ok(false);
    }
    let mut rescanned = session.refresh()?;
    for _ in 0..3 {
        if !rescanned || memo_holds(session, &repo).unwrap_or(true) {
            break;
        }
        std::thread::sleep(Duration::from_nanos(DIGEST_MARGIN_NS as u64 + 10_000_000));
        rescanned = session.refresh()?;
    }
    Ok(true)
}

/// Whether the index's scan memo holds now: a query would not scan again.
fn memo_holds(session: &Session, repo: &Repo) -> Result<bool> {
    let opts = session.options();
    let idx = Index::open(
        repo.clone(),
        index::path_for(repo),
        opts.index_wait,
        index::Mode::Status,
    )?;
    let cached = idx.inputs(&index::schema::Scope::new(session.root(), &opts.docs))?;
    let holds = cached.memo_report().is_some();
    cached.release(false);
    Ok(holds)
}

/// `install-hooks`: every hook into the folder git runs hooks from, calling `bin`.
pub fn install_hooks(session: &Session, bin: &Path) -> Result<HooksReport> {
    Ok(hooks::install(&repo_of(session)?, bin)?)
}

/// `uninstall-hooks`: our part out of every hook.
pub fn uninstall_hooks(session: &Session) -> Result<HooksReport> {
    Ok(hooks::uninstall(&repo_of(session)?)?)
}
