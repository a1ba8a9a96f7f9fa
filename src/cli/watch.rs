//! `watch`: keep the index fresh until Ctrl-C or SIGTERM, which end it with exit 0 after the
//! refresh under way (docs/indexing.md; ADR-0010). One line on stderr per refresh; with `--json`,
//! also one JSON object per refresh on stdout (JSON Lines).

use super::ui::{self, Bar};
use super::Usage;
use clap::Args;
use context_graph::output::escape;
use context_graph::watch::{Cause, Happened, Refresh, Watch};
use context_graph::{Options, Session};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Args)]
pub struct WatchArgs {}

/// How many changed paths a refresh line names before it counts the rest.
const NAMED: usize = 3;

pub fn run(opts: Options, _args: WatchArgs, json_out: bool) -> anyhow::Result<u8> {
    if opts.no_index {
        return Err(Usage(
            "watch keeps the index fresh, and --no-index means there is none: drop --no-index"
                .into(),
        )
        .into());
    }
    let mut watch = Watch::new(Session::open(opts)?)?;
    watch.skip_output(&output_files());
    // The first signal stops the watch between refreshes (the index complete); a second one,
    // during a long first build say, ends the process at once: the index keeps its last
    // complete state (ADR-0006).
    let stopper = watch.stopper();
    let signals = AtomicUsize::new(0);
    ctrlc::set_handler(move || {
        if signals.fetch_add(1, Ordering::SeqCst) == 0 {
            stopper.stop();
        } else {
            line("stopped during a refresh; the index keeps its last complete state");
            std::process::exit(0);
        }
    })?;
    let stdout_closed = watch.stopper();
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let mut first = true;
    watch.run(Some(&progress), &mut |happened| match happened {
        Happened::Watching { root, git_dirs } => {
            let mut what = escape(&root.display().to_string());
            for dir in git_dirs {
                let dir = escape(&dir.display().to_string());
                what.push_str(&format!(" and the refs of {dir}"));
            }
            line(&format!("watching {what} (Ctrl-C stops)"));
        }
        Happened::Refreshed(refresh) => {
            if std::mem::take(&mut first) {
                bar.finish();
            }
            ui::diagnostics(&refresh.summary.diagnostics);
            line(&refreshed(&refresh));
            if json_out && ui::emit(&json_line(&refresh)).is_err() {
                stdout_closed.stop(); // nobody reads the lines any more
            }
        }
        Happened::Failed { cause, error } => {
            if std::mem::take(&mut first) {
                bar.finish();
            }
            line(&format!(
                "refresh failed {}: {}; still watching",
                after(&cause),
                escape(&error.to_string())
            ));
        }
        Happened::Stopped => line("stopped"),
    })?;
    Ok(0)
}

/// What stdout and stderr are, when they can be told (a file under the root must not wake the
/// watch with every line written to it).
fn output_files() -> Vec<std::fs::Metadata> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let stat = |fd: std::os::fd::BorrowedFd| {
            let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
            file.metadata().ok()
        };
        [
            stat(std::io::stdout().as_fd()),
            stat(std::io::stderr().as_fd()),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
    #[cfg(not(unix))]
    {
        Vec::new()
    }
}

/// One line on stderr; a closed stderr is no reason to stop keeping the index fresh.
fn line(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "context-graph: watch: {text}");
}

/// `refreshed in 12 ms after docs/adr/0001-x.md changed: 14 records, 0 new commits`.
fn refreshed(r: &Refresh) -> String {
    let s = &r.summary;
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "refreshed in {} ms {}: {}, {}",
        r.took.as_millis(),
        after(&r.cause),
        plural(s.records, "record", "records"),
        plural(s.commits_added, "new commit", "new commits"),
    )
}

/// What woke a refresh, as the rest of its line.
fn after(cause: &Cause) -> String {
    match cause {
        Cause::Start => "at start".into(),
        Cause::Retry => "on retrying".into(),
        Cause::Lost(why) => format!("after lost events ({}), everything checked", escape(why)),
        Cause::Changed(paths) => {
            let named: Vec<String> = paths.iter().take(NAMED).map(|p| escape(p)).collect();
            let rest = paths.len().saturating_sub(NAMED);
            let more = if rest > 0 {
                format!(" and {rest} more")
            } else {
                String::new()
            };
            format!("after {}{more} changed", named.join(", "))
        }
    }
}

/// `{"cause": "changed", "changed": [...], "ms": 12, "records": 14, "commits_added": 0, "head": …}`.
fn json_line(r: &Refresh) -> String {
    use context_graph::model::{WatchCause, WatchRefresh};
    let (cause, changed) = match &r.cause {
        Cause::Start => (WatchCause::Start, Vec::new()),
        Cause::Retry => (WatchCause::Retry, Vec::new()),
        Cause::Lost(_) => (WatchCause::Lost, Vec::new()),
        Cause::Changed(paths) => (WatchCause::Changed, paths.clone()),
    };
    let line = WatchRefresh {
        cause,
        changed,
        commits_added: r.summary.commits_added,
        head: r.summary.head.clone(),
        ms: r.took.as_millis() as u64,
        records: r.summary.records,
    };
    let value = serde_json::to_string(&line).expect("a refresh serialises");
    format!("{value}\n")
}
