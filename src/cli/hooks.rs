//! `install-hooks`, `uninstall-hooks`, and `hook NAME [ARGS]`, what the installed hooks call
//! (docs/hooks.md, ADR-0008). A hook never stands in git's way: any failure of ours is one line
//! on stderr and exit 0; strict mode's refusal of an uncited commit is the only exit 1.

use super::ui;
use clap::Args;
use context_graph::app::hook::{self, CommitHook};
use context_graph::hooks::{self as hook_scripts, Hook};
use context_graph::output::{hooks as say, json};
use context_graph::{Options, Session};
use std::path::{Path, PathBuf};

/// The names `hook` accepts.
const NAMES: [&str; 7] = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-merge",
    "post-checkout",
    "post-rewrite",
];

#[derive(Args)]
pub struct HookArgs {
    /// The hook git runs
    #[arg(value_parser = NAMES)]
    name: String,
    /// What git passed the hook (the message file for prepare-commit-msg and commit-msg)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

impl HookArgs {
    /// The arguments of `hook NAME ARGS…` (`args`: the command line after the program's name)
    /// as the installed hook scripts pass them, read without clap: building its parser for
    /// every command costs a commit more than the hook's own answer (issue 17). `None` for
    /// anything else (an option anywhere, an unknown name, an argument that is not UTF-8):
    /// clap parses those as before, so it reports their errors.
    pub fn from_hook_line(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<HookArgs> {
        let mut args = args.into_iter();
        if args.next()? != "hook" {
            return None;
        }
        let name = args.next()?.into_string().ok()?;
        if !NAMES.contains(&name.as_str()) {
            return None;
        }
        let args: Vec<String> = args.map(|a| a.into_string().ok()).collect::<Option<_>>()?;
        if args.iter().any(|a| a.starts_with('-')) {
            return None;
        }
        Some(HookArgs { name, args })
    }
}

#[derive(Args)]
pub struct InstallArgs {
    /// Install into a hooks folder outside this repository (a global core.hooksPath: every
    /// repository that uses it) or inside its work tree (e.g. `.githooks/`: every clone)
    #[arg(long)]
    force: bool,
}

/// `install-hooks`: exit 0, or 2 when a hooks manager owns the hooks, or the folder is shared
/// and `--force` was not given (nothing written).
pub fn install(opts: Options, args: InstallArgs, json_out: bool) -> anyhow::Result<u8> {
    let session = Session::open(opts)?;
    let bin = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .unwrap_or_else(|_| PathBuf::from("context-graph"));
    let report = hook::install_hooks(&session, &bin, args.force)?;
    let text = if json_out {
        json::render(&report)
    } else {
        say::hooks_report(&report, true)
    };
    ui::emit(&text)?;
    Ok(if report.managed_by.is_some() { 2 } else { 0 })
}

/// `uninstall-hooks`.
pub fn uninstall(opts: Options, json_out: bool) -> anyhow::Result<u8> {
    let session = Session::open(opts)?;
    let report = hook::uninstall_hooks(&session)?;
    let text = if json_out {
        json::render(&report)
    } else {
        say::hooks_report(&report, false)
    };
    ui::emit(&text)?;
    Ok(0)
}

/// The variables git sets for a hook that say where the repository is: read once here, then
/// removed from this process, so nothing it does (or ever starts) is pointed at them. The
/// repository is found from the working folder, where git starts its hooks.
const GIT_LOCATIONS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_PREFIX",
];

/// `hook NAME [ARGS]`: exit 1 only for strict mode's refusal; anything else of ours that goes
/// wrong (a panic included) is one line on stderr and exit 0.
pub fn run(opts: Options, args: HookArgs) -> anyhow::Result<u8> {
    let index = std::env::var_os("GIT_INDEX_FILE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    for name in GIT_LOCATIONS {
        std::env::remove_var(name);
    }
    let hook = Hook::from_name(&args.name).expect("clap checked the name");
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(|| run_hook(opts, hook, &args.args, index.as_deref()));
    let failure = match outcome {
        Ok(Ok(code)) => return Ok(code),
        Ok(Err(e)) => e.to_string(),
        Err(_) => "an internal error (a panic)".to_string(),
    };
    eprintln!(
        "context-graph: the {} hook went on without context-graph: {}",
        hook.name(),
        context_graph::util::one_line(&failure)
    );
    Ok(0)
}

/// How long a commit hook waits for an index another process holds (`index --rebuild`, a
/// refresh) before it answers from a scan: a commit never waits on a build (ADR-0008).
const COMMIT_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

fn run_hook(
    mut opts: Options,
    hook: Hook,
    args: &[String],
    index: Option<&Path>,
) -> anyhow::Result<u8> {
    if !hook.refreshes() {
        opts.index_wait = opts.index_wait.min(COMMIT_WAIT);
    } else {
        // A refresh goes on after git returns (ADR-0008): it gives way to git finishing and to
        // whatever the user runs next, on a machine with a core or two to share; from its
        // start, since git is still finishing the commit while it opens the repository.
        #[cfg(unix)]
        let _ = rustix::process::setpriority_process(None, 10);
    }
    if hook.refreshes() {
        after_git();
    }
    let mut session = Session::open(opts)?;
    let message_file = || -> anyhow::Result<&String> {
        args.first().ok_or_else(|| {
            anyhow::anyhow!("git passes {} the message file: none given", hook.name())
        })
    };
    let read = |path: &str| {
        context_graph::fs::read::read_side_file(std::path::Path::new(path))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| anyhow::anyhow!("cannot read the message file {path}: {e}"))
    };
    match hook {
        Hook::PreCommit => {
            let check = hook::staged_check(&mut session, CommitHook::PreCommit, index)?;
            eprint!("{}", say::pre_commit(&check));
            Ok(0)
        }
        Hook::PrepareCommitMsg => {
            let file = message_file()?;
            let template = read(file)?;
            // Git sets `GIT_EDITOR=:` when it opens no editor (`-m`, `-F`, `--no-edit`).
            let editor = std::env::var_os("GIT_EDITOR").is_none_or(|e| e != ":");
            let source = args.get(1).map(String::as_str).filter(|s| !s.is_empty());
            let commit = args.get(2).map(String::as_str).filter(|s| !s.is_empty());
            let check = hook::staged_check(
                &mut session,
                CommitHook::PrepareMessage {
                    template: &template,
                    source,
                    commit,
                    editor,
                },
                index,
            )?;
            let hint = say::hint(&check);
            if !hint.is_empty() {
                let text = hook_scripts::with_hint(&template, &hint, &check.comment);
                std::fs::write(file, text)
                    .map_err(|e| anyhow::anyhow!("cannot write the message file {file}: {e}"))?;
            }
            Ok(0)
        }
        Hook::CommitMsg => {
            let message = read(message_file()?)?;
            let editor = std::env::var_os("GIT_EDITOR").is_none_or(|e| e != ":");
            let cleanup = git_command_line().and_then(|args| cleanup_of(&args));
            let check = hook::staged_check(
                &mut session,
                CommitHook::CommitMessage {
                    message: &message,
                    cleanup: cleanup.as_deref(),
                    editor,
                },
                index,
            )?;
            eprint!("{}", say::commit_msg(&check));
            Ok(u8::from(check.refused()))
        }
        Hook::PostCommit | Hook::PostMerge | Hook::PostCheckout | Hook::PostRewrite => {
            // The first refresh, before the index's folder exists (the scripts then start the
            // binary in the foreground, as husky and lefthook always do): the folder is made
            // and the build goes on in the background, so git never waits on it (ADR-0008). A
            // repository without record folders gets neither.
            if std::env::var_os(DETACHED_ENV).is_none() {
                if let Some(dir) = hook::index_folder(&session).filter(|d| !d.exists()) {
                    if !hook::has_record_folders(&session) {
                        return Ok(0);
                    }
                    if std::fs::create_dir_all(&dir).is_ok() && detach(hook, args, &dir) {
                        return Ok(0);
                    }
                }
            }
            hook::refresh(&mut session, hook, args)?;
            Ok(0)
        }
    }
}

/// The command line of the `git` running this hook: the nearest process above this one whose
/// program is git (the hook's script, or a hooks manager's, in between). Git tells a hook
/// neither `--cleanup` nor `-c commit.cleanup=…`; its command line does. Linux only (`/proc`).
fn git_command_line() -> Option<Vec<String>> {
    #[cfg(unix)]
    let mut pid = std::os::unix::process::parent_id();
    #[cfg(not(unix))]
    let mut pid = 0u32;
    for _ in 0..8 {
        if pid <= 1 {
            return None;
        }
        let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let args: Vec<String> = raw
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let program = args.first().map(|a| a.rsplit('/').next().unwrap_or(a));
        if program == Some("git") {
            return Some(args);
        }
        // The parent's pid is the fourth field of `stat`, after the name in parentheses.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let after = &stat[stat.rfind(')')? + 1..];
        pid = after.split_whitespace().nth(1)?.parse().ok()?;
    }
    None
}

/// The cleanup mode git's command line `args` gives a commit: `--cleanup=MODE` or
/// `--cleanup MODE` after `commit` (the last one wins), else `-c commit.cleanup=MODE` before it.
fn cleanup_of(args: &[String]) -> Option<String> {
    let at = args.iter().position(|a| a == "commit")?;
    let mut mode = None;
    let mut it = args[at + 1..].iter();
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if let Some(m) = a.strip_prefix("--cleanup=") {
            mode = Some(m.to_string());
        } else if a == "--cleanup" {
            mode = it.next().cloned();
        }
    }
    mode.or_else(|| {
        args[..at]
            .windows(2)
            .filter(|w| w[0] == "-c")
            .filter_map(|w| w[1].split_once('='))
            .filter(|(k, _)| k.eq_ignore_ascii_case("commit.cleanup"))
            .map(|(_, v)| v.to_string())
            .next_back()
    })
}

/// Set in the refresh a hook started in the background ([`detach`]).
const DETACHED_ENV: &str = "CONTEXT_GRAPH_DETACHED";

/// The pid of the git that ran the hook, set by the post-commit script for the refresh it
/// starts in the background: the refresh waits for that git to finish first (issue 17).
const AFTER_ENV: &str = "CONTEXT_GRAPH_AFTER";

/// How long a refresh waits for git to finish before it goes on regardless.
const AFTER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A background refresh waits until the git that ran its hook has exited (at most
/// [`AFTER_WAIT`]): git finishes the commit (its summary, its automatic maintenance) with the
/// machine's cores to itself, and the refresh reads the commit as git left it. Only where the
/// hook script names git in [`AFTER_ENV`]; asleep on a pidfd until git exits where Linux has
/// them, else by asking `/proc` every millisecond whether it still runs (a process that has
/// exited but not yet been waited for counts as gone, either way).
fn after_git() {
    let pid = std::env::var(AFTER_ENV).ok();
    std::env::remove_var(AFTER_ENV);
    let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()).filter(|p| *p > 1) else {
        return;
    };
    #[cfg(target_os = "linux")]
    if wait_exit(pid, AFTER_WAIT) {
        return;
    }
    let stat = PathBuf::from(format!("/proc/{pid}/stat"));
    let running = || {
        std::fs::read_to_string(&stat).is_ok_and(|s| {
            // The state is the first field after the name in parentheses.
            let state = s
                .rfind(')')
                .and_then(|at| s[at + 1..].split_whitespace().next());
            !matches!(state, Some("Z" | "X" | "x"))
        })
    };
    let start = std::time::Instant::now();
    while running() && start.elapsed() < AFTER_WAIT {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Sleeps until the process `pid` has exited (or `limit` has passed), on a pidfd: no CPU
/// spent while git finishes. Whether it could wait so (`false`: no pidfd here, poll instead).
#[cfg(target_os = "linux")]
fn wait_exit(pid: u32, limit: std::time::Duration) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    use rustix::io::Errno;
    use rustix::process::{pidfd_open, Pid, PidfdFlags};
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return true;
    };
    let fd = match pidfd_open(pid, PidfdFlags::empty()) {
        Ok(fd) => fd,
        // Gone already (and waited for).
        Err(Errno::SRCH) => return true,
        Err(_) => return false,
    };
    let start = std::time::Instant::now();
    loop {
        let left = limit.saturating_sub(start.elapsed());
        let timeout = Timespec {
            tv_sec: left.as_secs() as i64,
            tv_nsec: i64::from(left.subsec_nanos()),
        };
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Err(Errno::INTR) if !left.is_zero() => continue,
            _ => return true,
        }
    }
}

/// Starts this hook's refresh again as a process of its own that git does not wait for, its
/// failures going to `hooks.log` in `dir` and its pid named by a note `refreshing.PID` there
/// (as the scripts do). Whether it started.
fn detach(hook: Hook, args: &[String], dir: &Path) -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    let log = context_graph::fs::read::open_log(&dir.join("hooks.log"))
        .map(std::process::Stdio::from)
        .unwrap_or_else(|_| std::process::Stdio::null());
    let child = std::process::Command::new(exe)
        .arg("hook")
        .arg(hook.name())
        .args(args)
        .env(DETACHED_ENV, "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn();
    match child {
        Ok(child) => {
            let note = dir.join(format!(
                "{}{}",
                context_graph::index::inflight::PREFIX,
                child.id()
            ));
            let _ = context_graph::fs::read::open_log(&note);
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn line(args: &[&str]) -> Vec<std::ffi::OsString> {
        args.iter().map(Into::into).collect()
    }

    /// What clap makes of the same command line, for comparison.
    fn by_clap(args: &[&str]) -> Option<(String, Vec<String>)> {
        #[derive(Parser)]
        struct Top {
            #[command(subcommand)]
            command: Sub,
        }
        #[derive(clap::Subcommand)]
        enum Sub {
            Hook(HookArgs),
        }
        let top = Top::try_parse_from(std::iter::once("context-graph").chain(args.iter().copied()));
        top.ok().map(
            |Top {
                 command: Sub::Hook(h),
             }| (h.name, h.args),
        )
    }

    #[test]
    fn the_hook_lines_the_scripts_write_are_read_as_clap_reads_them() {
        for args in [
            &["hook", "commit-msg", ".git/COMMIT_EDITMSG"][..],
            &[
                "hook",
                "prepare-commit-msg",
                ".git/COMMIT_EDITMSG",
                "commit",
                "HEAD",
            ],
            &[
                "hook",
                "prepare-commit-msg",
                ".git/COMMIT_EDITMSG",
                "message",
            ],
            &["hook", "post-checkout", "0123abc", "4567def", "1"],
            &["hook", "post-rewrite", "rebase"],
            &["hook", "post-commit"],
            &["hook", "pre-commit", ""],
        ] {
            let fast = HookArgs::from_hook_line(line(args)).map(|h| (h.name, h.args));
            assert!(fast.is_some(), "{args:?}");
            assert_eq!(fast, by_clap(args), "{args:?}");
        }
    }

    #[test]
    fn anything_else_is_left_to_clap() {
        for args in [
            &["hook"][..],
            &["hook", "commit-msg", "--json", "msg"],
            &["hook", "--no-index", "commit-msg", "msg"],
            &["hook", "commit-msg", "msg", "-v"],
            &["hook", "no-such-hook", "msg"],
            &["why", "hook", "commit-msg"],
            &["--json", "hook", "commit-msg", "msg"],
        ] {
            assert!(HookArgs::from_hook_line(line(args)).is_none(), "{args:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let mut args = line(&["hook", "commit-msg"]);
            args.push(std::ffi::OsString::from_vec(vec![0xff, b'm']));
            assert!(HookArgs::from_hook_line(args).is_none());
        }
    }
}
