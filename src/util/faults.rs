//! Injected write failures, for the tests of a full disk and of a kill (ADR-0011, ADR-0013):
//! compiled into debug builds only (the tests' builds); a release build has no failpoint and
//! reads no variable.
//!
//! `CONTEXT_GRAPH_FAILPOINTS=site=N[,site=N…]` makes the N-th write at `site` (counted from 1
//! in this process) and every later one fail as a full disk does. `site=abort@N` instead kills
//! the process (`std::process::abort`) at the N-th write, half way through it, as a power cut
//! or `kill -9` would. `site=stall@N` holds the process still at the N-th write while the
//! `stall` trace it notes `site` in is there (at most [`STALL`]), then lets the write go on: a
//! test asks its questions while a build holds the index, then removes the trace. The sites: `redb` (every write, length change and sync of the index
//! file), `file` (every cache file written beside it: the pending commits, git's index markers,
//! the seal), `rename` (the rebuilt index put in place), `sync` (the index file and its folder
//! synced before the seal is written) and `record` (every record, `.adr-dir` or other file a
//! write command replaces or creates, `fs::atomic`).
//!
//! `CONTEXT_GRAPH_TRACE=DIR` makes [`trace`] append a line for each event it is told of to
//! `DIR/SITE` (`imports`: a file whose imports were parsed).

/// The environment variable naming the folder where [`trace`] notes its events (debug
/// builds only): the tests count through it what a command did, as a file parsed.
pub const TRACE_VAR: &str = "CONTEXT_GRAPH_TRACE";

/// The environment variable naming the failpoints.
pub const VAR: &str = "CONTEXT_GRAPH_FAILPOINTS";

/// What a failpoint does when it is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The write fails as on a full disk (`ENOSPC`).
    Full,
    /// The process is killed half way through the write.
    Abort,
    /// The process stands still while its `stall` trace is there, then the write goes on.
    Stall,
}

/// The longest a `stall@N` failpoint holds the process still.
pub const STALL: std::time::Duration = std::time::Duration::from_secs(60);

/// The fault injected at this write of `site`, if any.
#[cfg(debug_assertions)]
pub fn fault(site: &str) -> Option<Fault> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static POINTS: OnceLock<Option<HashMap<String, (usize, Fault)>>> = OnceLock::new();
    static HITS: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);
    let points = POINTS.get_or_init(|| {
        let spec = std::env::var(VAR).ok()?;
        Some(
            spec.split(',')
                .filter_map(|p| {
                    let (name, n) = p.split_once('=')?;
                    let n = n.trim();
                    let (n, fault) = if let Some(n) = n.strip_prefix("abort@") {
                        (n, Fault::Abort)
                    } else if let Some(n) = n.strip_prefix("stall@") {
                        (n, Fault::Stall)
                    } else {
                        (n, Fault::Full)
                    };
                    Some((name.trim().to_string(), (n.parse().ok()?, fault)))
                })
                .collect(),
        )
    });
    let (from, fault) = points.as_ref().and_then(|p| p.get(site))?;
    let mut hits = super::locked(&HITS);
    let hit = hits
        .get_or_insert_with(HashMap::new)
        .entry(site.to_string())
        .or_default();
    *hit += 1;
    match fault {
        Fault::Full if *hit >= *from => Some(Fault::Full),
        Fault::Abort | Fault::Stall if *hit == *from => Some(*fault),
        _ => None,
    }
}

/// Never fails: failpoints exist in debug builds only.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn fault(_site: &str) -> Option<Fault> {
    None
}

/// Fails when the failpoint `site` says this write fails (a full disk).
pub fn check(site: &str) -> std::io::Result<()> {
    match fault(site) {
        Some(Fault::Full) => Err(full(site)),
        Some(Fault::Abort) => std::process::abort(),
        Some(Fault::Stall) => {
            stall(site);
            Ok(())
        }
        None => Ok(()),
    }
}

/// Notes in the `stall` trace that the process stands still at `site`, then holds it still
/// while that trace is there, at most [`STALL`]; without a trace folder, not at all.
pub fn stall(site: &str) {
    let Some(dir) = std::env::var_os(TRACE_VAR) else {
        return;
    };
    trace("stall", site);
    let noted = std::path::Path::new(&dir).join("stall");
    let began = std::time::Instant::now();
    while noted.exists() && began.elapsed() < STALL {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The error a full disk gives, naming the failpoint.
pub fn full(site: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::StorageFull,
        format!("no space left on device (injected at `{site}`)"),
    )
}

/// Notes `what` happened at `site`: one line appended to the file `site` in the folder
/// [`TRACE_VAR`] names (`imports`: each file whose imports were parsed, ADR-0021). Nothing
/// without the variable; a failed write is ignored (a trace never changes an answer).
#[cfg(debug_assertions)]
pub fn trace(site: &str, what: &str) {
    use std::io::Write;
    let Some(dir) = std::env::var_os(TRACE_VAR) else {
        return;
    };
    let path = std::path::Path::new(&dir).join(site);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(format!("{what}\n").as_bytes());
    }
}

/// Notes nothing: traces exist in debug builds only.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn trace(_site: &str, _what: &str) {}
