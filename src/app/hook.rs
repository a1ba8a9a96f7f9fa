//! The hooks' questions, asked in a session (docs/hooks.md, ADR-0008): which current decisions
//! govern the staged paths and whether the message cites them (pre-commit, prepare-commit-msg,
//! commit-msg), and the quiet refresh of the index (post-commit, post-merge, post-checkout,
//! post-rewrite). Installing and removing the hooks is `hooks::install`'s.

use super::error::{Error, Result};
use super::{quiet, Ask, Session};
use crate::fs::fingerprint::DIGEST_MARGIN_NS;
use crate::git::{self, InProgress, Repo};
use crate::hooks::{self, Hook};
use crate::index::{self, governing::RuleFile, Index};
use crate::model::{HooksReport, Record, Skipped, StagedCheck};
use crate::scan;
use crate::text::marker::Markers;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where prepare-commit-msg notes, for commit-msg, the commit whose message git started from
/// (`git commit --amend`, `-c`, `-C`): git tells only prepare-commit-msg. In the worktree's git
/// dir, beside the index; written by the binary or, when it is not started, by the script.
pub const MESSAGE_SOURCE: &str = "message-source";

/// Where commit-msg notes, for post-commit, the HEAD at which it found the index's scan memo
/// holding, and when (`SHA NANOSECONDS`): git changes no file of the work tree between the two,
/// so post-commit then brings only the history up to date. Empty when commit-msg did not find
/// it so. The post-commit script reads and empties it (and [`MESSAGE_SOURCE`]) before the
/// refresh starts, so that a next commit's notes are never the ones emptied, and hands it over
/// in [`CHECKED_ENV`].
pub const CHECKED: &str = "checked";

/// How the post-commit script hands the refresh [`CHECKED`]'s text (set, maybe empty: the
/// script has emptied the notes already).
pub const CHECKED_ENV: &str = "CONTEXT_GRAPH_CHECKED";

/// How many commits back from HEAD a fixup or squash commit's target is looked for.
const FIXUP_SEARCH: usize = 10_000;

/// How long post-commit trusts commit-msg's note.
const CHECKED_FOR: Duration = Duration::from_secs(60);

/// A note of ours in the worktree's git dir, beside the index.
fn note(repo: &Repo, name: &str) -> PathBuf {
    repo.git_dir.join("context-graph").join(name)
}

/// Writes a note into the index's folder, when there is one (a repository without record
/// folders gets none); one that cannot be written is no note (each reader copes with none).
fn write_note(repo: &Repo, name: &str, text: &str) {
    let path = note(repo, name);
    // An empty note already empty (commit-msg's, once post-commit has read it) is left as it
    // is: no file made, removed and renamed on git's path.
    let empty = |m: std::fs::Metadata| m.is_file() && m.len() == 0;
    if text.is_empty() && std::fs::symlink_metadata(&path).is_ok_and(empty) {
        return;
    }
    if path.parent().is_some_and(Path::is_dir) {
        // Put in place of what is there: a FIFO put there is replaced, never written into.
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        let _ = crate::util::replace_file(&path, &tmp, text.as_bytes());
    }
}

/// A note's text: only a regular file's, so a FIFO there is never waited on (ADR-0011).
fn read_note(path: &std::path::Path) -> std::io::Result<String> {
    let bytes = crate::fs::read::read_side_file(path)?;
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

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
    /// commit-msg: the message as the author left it, git's `--cleanup` from its command line
    /// (`commit.cleanup` applies without it), and whether git opened an editor on it.
    CommitMessage {
        message: &'a str,
        cleanup: Option<&'a str>,
        editor: bool,
    },
}

fn repo_of(session: &Session) -> Result<Repo> {
    session
        .repository()
        .cloned()
        .ok_or_else(|| Error::not_in_git(session.root()))
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
            read_note(&note(repo, MESSAGE_SOURCE)).is_ok_and(|noted| is_head(noted.trim()))
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
        write_note(repo, MESSAGE_SOURCE, &text);
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
    // The memo is read, never written, on git's path: the refresh after the commit settles
    // it (ADR-0016).
    session.settle = false;
    session.follow_renames = false;
    // The hook asks `why` only for the decisions governing a staged path: no related records,
    // no history read on git's path (docs/related.md).
    session.related = false;
    let mut held = false;
    let check = check_staged(session, &repo, hook, index, &mut held);
    if let CommitHook::CommitMessage { .. } = hook {
        let now = crate::util::now_ns();
        let head = repo.head.map(|h| format!("{} {now}\n", git::sha_hex(&h)));
        let text = head.filter(|_| held && check.is_ok()).unwrap_or_default();
        write_note(&repo, CHECKED, &text);
    }
    check
}

/// [`staged_check`]'s work; `held` is set when the index's scan memo answered (no scan ran).
fn check_staged(
    session: &mut Session,
    repo: &Repo,
    hook: CommitHook,
    index: Option<&Path>,
    held: &mut bool,
) -> Result<StagedCheck> {
    let mut check = StagedCheck {
        skipped: skip(repo, hook),
        strict: repo
            .config_bool("context-graph.strict")
            .or_else(|| session.config().and_then(|c| c.strict))
            .unwrap_or(false),
        comment: repo.comment_prefix(),
        ..StagedCheck::default()
    };
    // No record folders (hooks in a global core.hooksPath reach such repositories): no
    // decision governs anything, and nothing is read or written.
    if check.skipped.is_some() || !has_record_folders(session) {
        return Ok(check);
    }
    // The table of governed entries is checked beside the reading of git's index and HEAD's
    // tree: it touches only the table and the record files (ADR-0018).
    let table = TableLoad::start(session, repo);
    let base = match (repo.head, amends(repo, hook)) {
        (Some(head), true) => repo.first_parent(head)?,
        (head, _) => head,
    };
    let (changes, staged_index) = git::staged_with_index(repo, index, base)?;
    // Read once: the rules resolve imports against it, the warning counts folders in it.
    let staged_index = staged_index.map(std::sync::Arc::new);
    let rules_added = |change, known| super::hook_rules::added(session, repo, change, known);
    check.staged = changes.len();
    if changes.is_empty() {
        return Ok(check);
    }
    // What the staged files declare is their staged content's (a deleted file's, what it had):
    // read from git's objects, never the work tree (ADR-0009).
    let blobs: Vec<(&str, [u8; 20])> = changes
        .iter()
        .filter_map(|c| c.blob.map(|b| (c.path.as_str(), b)))
        .collect();
    let markers = scan::blob_markers(repo, &blobs);
    let staged: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
    // What the last refresh kept of the records, while the record files are as it read them:
    // all the warning needs (ADR-0018), and which carry rules (ADR-0021), without the index.
    if let Some((records, rule_files, table)) = table.records(&staged, &markers) {
        check.rules_added = rules_added((&changes, staged_index.clone()), Some(&rule_files));
        let found = (records.as_slice(), changes.as_slice(), &markers);
        decide(
            session,
            repo,
            hook,
            (found, Some(table), staged_index),
            &staged,
            &mut check,
        );
        return Ok(check);
    }
    check.rules_added = rules_added((&changes, staged_index.clone()), None);
    // One staged path declaring nothing (most commits): the records that govern it, as `why`
    // finds them, are all that is needed, and only those are decoded from the scan memo.
    let ask = match staged.as_slice() {
        [one] if markers.is_empty() => Ask::Why(one.clone()),
        _ => Ask::Check,
    };
    let answered = match session.answer(&ask, None) {
        // A path `why` would refuse (it cannot be, coming from git's index): ask it all.
        Err(Error::BadPath { .. }) => session.answer(&Ask::Check, None),
        other => other,
    };
    let report = match answered {
        Ok(answer) => {
            *held = !answer.scanned;
            answer.report
        }
        Err(e) if e.is_no_records() => return Ok(check),
        Err(e) => return Err(e),
    };
    let found = (report.records.as_slice(), changes.as_slice(), &markers);
    decide(
        session,
        repo,
        hook,
        (found, None, staged_index),
        &staged,
        &mut check,
    );
    Ok(check)
}

/// The decisions governing the `staged` paths, whether the message cites them, and the
/// warnings a reader would not want taken out (`app::quiet`, docs/hooks.md).
fn decide(
    session: &Session,
    repo: &Repo,
    hook: CommitHook,
    (found, table, index): (quiet::Staged, Option<Vec<u8>>, Option<quiet::Index>),
    staged: &[String],
    check: &mut StagedCheck,
) {
    check.decisions = hooks::governing(found.0, staged, found.2);
    judge_message(repo, hook, check);
    let (message, branch) = match hook {
        CommitHook::PreCommit => (None, None),
        CommitHook::PrepareMessage { template, .. } => (Some(template), None),
        CommitHook::CommitMessage { message, .. } => {
            (Some(message), repo.head.map(|h| (h, amends(repo, hook))))
        }
    };
    quiet::settle_staged(session, repo, message, (found, table, index), check, branch);
}

/// What the hook reads of the table: the decisions, the records with rules, and the table's
/// bytes, whose records' words are decoded only when a warning is about to be printed.
type FromTable = (Vec<Record>, Vec<RuleFile>, Vec<u8>);

/// The commit hook's table of governed entries (ADR-0018) being read and checked, on a thread
/// of its own while git's index and HEAD's tree are read; never with `--no-index`.
enum TableLoad {
    None,
    Running(std::thread::JoinHandle<Option<Vec<u8>>>),
    Done(Option<Vec<u8>>),
}

impl TableLoad {
    /// Starts reading the table of `repo`'s worktree (here, when no thread can be started).
    fn start(session: &Session, repo: &Repo) -> TableLoad {
        if session.options().no_index {
            return TableLoad::None;
        }
        let path = index::governing::path_for(repo);
        let root = session.root().to_path_buf();
        let docs = session.options().docs.clone();
        let (p, r, d) = (path.clone(), root.clone(), docs.clone());
        match std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || index::governing::load(&p, &r, &d))
        {
            Ok(handle) => TableLoad::Running(handle),
            Err(_) => TableLoad::Done(index::governing::load(&path, &root, &docs)),
        }
    }

    /// The current decisions that govern some `staged` paths (by their entries or the `markers`
    /// they declare), the records with rules, and the table itself, when there is one that
    /// holds.
    fn records(self, staged: &[String], markers: &Markers) -> Option<FromTable> {
        let bytes = match self {
            TableLoad::None => None,
            TableLoad::Running(handle) => handle.join().ok().flatten(),
            TableLoad::Done(bytes) => bytes,
        }?;
        let declared =
            |id: &str| !markers.is_empty() && staged.iter().any(|p| markers.declares(p, id));
        let wanted = |id: &str, governs: &[&str]| {
            let scope = crate::governs::Scope::new(governs);
            staged
                .iter()
                .any(|p| hooks::id_governs_path(id, &scope, p, markers))
        };
        let rules = index::governing::rule_files(&bytes)?;
        let records = index::governing::records(&bytes, staged, declared, wanted)?;
        Some((records, rules, bytes))
    }
}

/// Whether the message cites each decision of `check`, and for prepare-commit-msg, whether
/// one is cited already.
fn judge_message(repo: &Repo, hook: CommitHook, check: &mut StagedCheck) {
    let message = match hook {
        CommitHook::PreCommit => None,
        CommitHook::PrepareMessage { template, .. } => Some((template, None, true)),
        CommitHook::CommitMessage {
            message,
            cleanup,
            editor,
        } => Some((message, cleanup, editor)),
    };
    if let Some((message, cleanup, editor)) = message {
        // The message as git will commit it: its cleanup mode decides whether a line starting
        // with the comment character is a comment (the editor) or the subject (`-m "#3306 …"`).
        let config = repo.config_string("commit.cleanup");
        let cleanup = hooks::Cleanup::of(cleanup.or(config.as_deref()), editor);
        let mut body = hooks::message_body(message, &check.comment, cleanup);
        // A fixup or squash commit stands for its target: the target's citations count.
        if let (Some(target), Some(head)) = (hooks::fixup_target(&body), repo.head) {
            if let Some(text) = repo.fixup_message(head, target, FIXUP_SEARCH) {
                body.push('\n');
                body.push_str(&text);
            }
        }
        for d in &mut check.decisions {
            d.cited = hooks::cites(&body, &d.id);
        }
        if matches!(hook, CommitHook::PrepareMessage { .. })
            && check.decisions.iter().any(|d| d.cited)
        {
            check.skipped = Some(Skipped::AlreadyCited);
        }
    }
}

/// The refresh of a post-* hook (`args`: what git passed it): the index brought up to date, so
/// that `index --status` says fresh. `false` when there is nothing to do now: post-commit and
/// post-checkout during a rebase (its post-rewrite refreshes once at the end).
///
/// - post-commit after commit-msg found the scan memo holding at the new commit's parent (its
///   note, [`CHECKED`]): only the history, since git changed no file in between.
/// - A file changed a moment before a scan cannot be vouched for by its content
///   (`fs::fingerprint::DIGEST_MARGIN_NS`). Git writes its index after the files it changes, so
///   after a checkout of another commit, a merge or a rebase the refresh first waits until that
///   margin has passed since then; and whenever a scan ran and its memo does not hold, it waits
///   out the margin and goes again.
///
/// When it succeeds, the note naming this process as a refresh in flight goes
/// (`index::inflight`). When it fails, the note stays until the process exits, after the
/// caller has written its one line to `hooks.log`: a note of a process gone no longer counts,
/// so `index --status`, which waits for the refresh, then finds that line.
pub fn refresh(session: &mut Session, hook: Hook, args: &[String]) -> Result<bool> {
    let repo = repo_of(session)?;
    let done = refresh_in(session, &repo, hook, args);
    if done.is_ok() {
        index::inflight::finish(&repo);
    }
    done
}

fn refresh_in(session: &mut Session, repo: &Repo, hook: Hook, args: &[String]) -> Result<bool> {
    let repo = repo.clone();
    if session.options().no_index || !has_record_folders(session) || !index_folder_writable(&repo) {
        return Ok(false);
    }
    let rebasing = repo.in_progress() == Some(InProgress::Rebase);
    if rebasing && matches!(hook, Hook::PostCommit | Hook::PostCheckout) {
        return Ok(false);
    }
    if hook == Hook::PostCommit {
        // Both notes were about the commit just made: none is left for the next one. The
        // script has emptied them already when it hands the note over.
        let checked = match std::env::var(CHECKED_ENV) {
            Ok(text) => checked_at_parent(&repo, &text),
            Err(_) => {
                let text = read_note(&note(&repo, CHECKED)).unwrap_or_default();
                for name in [CHECKED, MESSAGE_SOURCE] {
                    if std::fs::metadata(note(&repo, name)).is_ok_and(|m| m.len() > 0) {
                        write_note(&repo, name, "");
                    }
                }
                checked_at_parent(&repo, &text)
            }
        };
        if checked {
            refresh_history(session, &repo)?;
            return Ok(true);
        }
    }
    // A linked worktree's first refresh starts from a copy of the main worktree's index.
    seed_worktree_index(&repo, session.options().index_wait);
    let moved_files = match hook {
        Hook::PostCheckout => args.first() != args.get(1),
        Hook::PostMerge => true,
        Hook::PostRewrite => args.first().map(String::as_str) == Some("rebase"),
        _ => false,
    };
    if moved_files {
        // The history does not depend on the work tree: it is brought up to date while git's
        // last writes settle.
        refresh_history(session, &repo)?;
        settle(&repo);
    }
    let mut rescanned = session.refresh()?;
    for _ in 0..3 {
        if !rescanned || memo_holds(session, &repo).unwrap_or(true) {
            break;
        }
        std::thread::sleep(MARGIN);
        rescanned = session.refresh()?;
    }
    Ok(true)
}

/// Whether the index's folder is there, or can be made, and it and the index can be written.
/// Ones made by root (`sudo context-graph index`, a container), read-only, or a file in the
/// folder's place leave the refresh nothing to do, quietly (ADR-0008); a query says so once and
/// answers from a scan.
fn index_folder_writable(repo: &Repo) -> bool {
    let path = index::path_for(repo);
    let Some(dir) = path.parent() else {
        return false;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    #[cfg(unix)]
    {
        use rustix::fs::{access, Access};
        access(dir, Access::WRITE_OK).is_ok()
            && (!path.exists() || access(&path, Access::WRITE_OK).is_ok())
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// A linked worktree without an index gets a copy of the main worktree's: the history, most of
/// an index, is the same for every worktree, and the refresh then brings the copy to this
/// worktree's HEAD and files incrementally (the index is a cache checked against git and the
/// files before every answer, so a copy answers as a build would). The copy is made while a
/// shared lock keeps writers out, and renamed into place whole. Whether one was made.
fn seed_worktree_index(repo: &Repo, wait: Duration) -> bool {
    let ours = index::path_for(repo);
    let common = repo.common_dir();
    let main = common.join("context-graph").join("index.redb");
    let linked = std::fs::canonicalize(&common).ok() != std::fs::canonicalize(&repo.git_dir).ok();
    if !linked || ours.exists() || !main.is_file() {
        return false;
    }
    let Ok(held) = Index::open(repo.clone(), main.clone(), wait, index::Mode::Status) else {
        return false;
    };
    let part = ours.with_extension("redb.seed");
    let copied = std::fs::copy(&main, &part).is_ok() && std::fs::rename(&part, &ours).is_ok();
    drop(held);
    if !copied {
        let _ = std::fs::remove_file(&part);
    }
    copied
}

/// A little more than the margin within which a file's content cannot vouch for it.
pub(super) const MARGIN: Duration = Duration::from_nanos(DIGEST_MARGIN_NS as u64 + 10_000_000);

/// Waits until [`MARGIN`] has passed since git last wrote the worktree's index.
fn settle(repo: &Repo) {
    let written = std::fs::metadata(repo.git_dir.join("index")).and_then(|m| m.modified());
    if let Ok(age) = written.map(|t| t.elapsed().unwrap_or_default()) {
        if let Some(left) = MARGIN.checked_sub(age) {
            std::thread::sleep(left);
        }
    }
}

/// Whether commit-msg's note (its `text`) says the scan memo held at HEAD's parent, a moment
/// ago.
fn checked_at_parent(repo: &Repo, text: &str) -> bool {
    let Some((sha, at)) = text.trim().split_once(' ') else {
        return false;
    };
    let age = crate::util::now_ns().saturating_sub(at.parse::<i64>().unwrap_or(0));
    let recent = (0..CHECKED_FOR.as_nanos() as i64).contains(&age);
    let parent = repo
        .head
        .and_then(|head| repo.first_parent(head).ok().flatten())
        .map(|p| git::sha_hex(&p));
    recent && parent.is_some_and(|p| p == sha)
}

/// The history part of the index brought up to HEAD, new commits kept pending as a query keeps
/// them.
fn refresh_history(session: &Session, repo: &Repo) -> Result<()> {
    let path = index::path_for(repo);
    // Damage found while read: the file is dropped, built anew by the next query (ADR-0011).
    index::catch_damage(Some(&path), || -> Result<()> {
        let mut idx = Index::open(
            repo.clone(),
            path.clone(),
            session.options().index_wait,
            index::Mode::Update,
        )?;
        if idx.repo.head.is_some() {
            idx.refresh_history(None, false)?;
        }
        if let Some(pending) = idx.take_pending_write() {
            // Not written: the next query walks those commits again.
            let _ = pending.write();
        }
        // A first build is put in place (ADR-0006).
        idx.finish()?;
        Ok(())
    })
    .unwrap_or(Ok(()))
}

/// Whether the index's scan memo holds now: a query would not scan again.
pub(super) fn memo_holds(session: &Session, repo: &Repo) -> Result<bool> {
    let opts = session.options();
    let path = index::path_for(repo);
    // Damage found while read: the memo does not hold (the file is built anew, ADR-0011).
    index::catch_damage(Some(&path), || -> Result<bool> {
        let idx = Index::open(
            repo.clone(),
            path.clone(),
            opts.index_wait,
            index::Mode::Status,
        )?;
        let cached = idx.inputs(&index::schema::Scope::new(session.root(), &opts.docs))?;
        let holds = cached.memo_report(Some(repo)).is_some();
        cached.release(false);
        Ok(holds)
    })
    .unwrap_or(Ok(false))
}

/// `install-hooks`: every hook into the folder git runs hooks from, calling `bin`. A folder
/// outside the repository, or inside its work tree, is shared (every repository using it, every
/// clone): it takes `force`, and one inside the work tree calls `context-graph` from PATH.
/// The index's folder is made, when the repository has record folders, so that the hooks'
/// refresh goes on in the background from the first commit on.
pub fn install_hooks(session: &Session, bin: &Path, force: bool) -> Result<HooksReport> {
    let repo = repo_of(session)?;
    let report = hooks::install(&repo, bin, force)?;
    if report.managed_by.is_none() && has_record_folders(session) {
        if let Some(dir) = index::path_for(&repo).parent() {
            let _ = std::fs::create_dir_all(dir);
        }
    }
    Ok(report)
}

/// The index's folder, in a git repository.
pub fn index_folder(session: &Session) -> Option<PathBuf> {
    let repo = session.repository()?;
    index::path_for(repo).parent().map(Path::to_path_buf)
}

/// Whether the repository has record folders. Hooks in a global `core.hooksPath` reach
/// repositories that keep no decisions: there they write nothing and say nothing.
pub fn has_record_folders(session: &Session) -> bool {
    crate::fs::discover::record_folders(session.root(), &session.options().docs)
        .map_or(true, |found| !found.is_empty())
}

/// `uninstall-hooks`: our part out of every hook.
pub fn uninstall_hooks(session: &Session) -> Result<HooksReport> {
    Ok(hooks::uninstall(&repo_of(session)?)?)
}
