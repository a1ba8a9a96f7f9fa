// @adr 0008
//! Refreshes in flight (ADR-0008): the post-commit, post-merge, post-checkout and post-rewrite
//! hooks start the binary's refresh and return at once, so git goes on without waiting for it.
//! Before returning, the hook script writes a note `refreshing.<pid>` beside the index naming
//! that process; the refresh removes its own note when it is done. `index --status` waits while
//! a note names a process still running, so right after any git operation it reports the index
//! as the hook leaves it: fresh.
//!
//! A note whose process is gone (killed, or done before the script wrote the note) is removed
//! by the first reader; one older than [`STALE`] never counts (its pid may name another process
//! by now).

use super::path_for;
use crate::git::Repo;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The note's name before the pid.
pub const PREFIX: &str = "refreshing.";

/// A note this old is no refresh of ours any more.
pub const STALE: Duration = Duration::from_secs(300);

/// How long after its note a process with no command line yet still counts as the refresh
/// starting: a child the hook just spawned may still be inside `execve` (its memory released
/// for the parent, the new program not yet mapped) when a reader looks, and `/proc` then shows
/// an empty command line. Seen under load: the note was taken for a dead process's.
const STARTING: Duration = Duration::from_secs(10);

/// How often a waiting reader looks again.
const POLL: Duration = Duration::from_millis(2);

/// The folder the notes are in: the index's.
fn dir_of(repo: &Repo) -> Option<PathBuf> {
    path_for(repo).parent().map(Path::to_path_buf)
}

/// The refresh in this process is done: its note, if any, goes.
pub fn finish(repo: &Repo) {
    if let Some(dir) = dir_of(repo) {
        let _ = std::fs::remove_file(dir.join(format!("{PREFIX}{}", std::process::id())));
    }
}

/// Waits until no note names a refresh still running, at most `limit`. Returns whether none
/// does (`false`: one was still running when the limit came).
pub fn wait(repo: &Repo, limit: Duration) -> bool {
    let Some(dir) = dir_of(repo) else {
        return true;
    };
    let deadline = Instant::now() + limit;
    loop {
        if !running(&dir) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(POLL);
    }
}

/// Whether a note in `dir` names a refresh still running; the notes that no longer count are
/// removed.
fn running(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut any = false;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let age = entry
            .metadata()
            .and_then(|m| m.modified())
            .map(|t| t.elapsed().unwrap_or_default());
        let young = age.as_ref().is_ok_and(|age| *age < STALE);
        let starting = age.is_ok_and(|age| age < STARTING);
        if young && alive(pid, starting) {
            any = true;
        } else {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    any
}

/// Whether the process `pid` is running (one that exited and waits to be reaped is not);
/// `starting`: its note is recent enough that a process still starting counts.
#[cfg(unix)]
fn alive(pid: u32, starting: bool) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    if pid == rustix::process::getpid() {
        return false;
    }
    match rustix::process::test_kill_process(pid) {
        Ok(()) => is_a_hook(pid.as_raw_nonzero().get(), starting),
        // It exists, owned by someone else.
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

/// On Linux, whether `pid` is still a hook's refresh: a running process among whose arguments
/// `hook` is followed by `post-…`, or a write's `refresh-after-write` (ADR-0013) (not one that exited and waits to be reaped, nor another
/// program that got the pid since). Elsewhere, any process with that pid counts.
/// A process with no command line yet (inside `execve`) counts while `starting`.
#[cfg(unix)]
fn is_a_hook(pid: i32, starting: bool) -> bool {
    let proc = std::path::Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    if is_zombie(pid) {
        return false;
    }
    std::fs::read(proc.join(pid.to_string()).join("cmdline"))
        .is_ok_and(|cmdline| is_a_refresh(&cmdline, starting))
}

/// Whether a command line (`/proc/PID/cmdline`: NUL-separated) is a hook's refresh or a
/// write's; an empty one (a process inside `execve`) counts while `starting`.
fn is_a_refresh(cmdline: &[u8], starting: bool) -> bool {
    if cmdline.is_empty() {
        return starting;
    }
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).skip(1).collect();
    args.windows(2)
        .any(|w| w[0] == b"hook" && w[1].starts_with(b"post-"))
        || args.contains(&&b"refresh-after-write"[..])
}

/// On Linux, whether `pid` has exited and waits to be reaped (`Z` in `/proc/PID/stat`): its
/// refresh is over.
#[cfg(unix)]
fn is_zombie(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// Elsewhere a note counts until it is [`STALE`].
#[cfg(not(unix))]
fn alive(_pid: u32, _starting: bool) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::is_a_refresh;

    #[test]
    fn a_process_still_inside_execve_counts_only_while_its_note_is_new() {
        // Seen under load: the status reader met the refresh with no command line yet, took
        // its note for a dead process's and removed it, and answered before the build was done.
        assert!(is_a_refresh(b"", true));
        assert!(!is_a_refresh(b"", false));
        let hook = b"/usr/bin/context-graph\0hook\0post-checkout\0a\0b\0x\0";
        assert!(is_a_refresh(hook, false));
        assert!(is_a_refresh(b"cg\0refresh-after-write\0", false));
        assert!(!is_a_refresh(b"/bin/sh\0.git/hooks/post-checkout\0", true));
    }
}
