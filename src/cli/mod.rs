//! The command line: clap types, one file per subcommand, and the terminal policy (`ui`:
//! where output goes, colour, progress). This is the binary's, not the library's: the library
//! returns data, these decide how it reaches a person (ADR-0003, ADR-0007).

mod hooks;
mod index;
mod query;
mod review;
mod scope;
mod ui;
mod watch;

use clap::{Args, Parser, Subcommand};
use context_graph::Options;
use std::path::PathBuf;
use std::time::Duration;

pub use ui::{quiet_handled_panics, ClosedPipe};

#[derive(Parser)]
#[command(
    name = "context-graph",
    version,
    about = "Keeps a repository's architecture decisions connected to its code",
    long_about = "Reads the decision records (ADRs, RFCs, design docs) of a repository, builds the graph between them and the code, checks it, and answers which decisions govern a path.\n\nWith no command it runs the full check. Answers come from an index in the git dir, brought up to date first (--no-index scans instead). Exit codes: 0 no problems (or a query answered), 1 the check found problems, 2 no records, an unreadable --root or --docs, or an unknown record id."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Same as the `why PATH` command: the decisions that govern PATH
    #[arg(long, value_name = "PATH", conflicts_with = "record")]
    why: Option<String>,
    /// Same as the `record ID` command: one record, its edges, commits and drift
    #[arg(long, value_name = "ID")]
    record: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// The options every command takes.
#[derive(Args)]
struct Common {
    /// The repository root (default: the top of the git work tree around the current folder)
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// A record folder relative to the root, used instead of the default list (repeatable)
    #[arg(long, global = true, value_name = "DIR")]
    docs: Vec<String>,
    /// Print JSON instead of Markdown
    #[arg(long, global = true)]
    json: bool,
    /// Read git history: commits citing each record, and code changed since each decision
    #[arg(long, global = true)]
    git: bool,
    /// Neither read nor write the index: answer from a fresh scan
    #[arg(long, global = true)]
    no_index: bool,
}

#[derive(Subcommand)]
enum Command {
    /// The full check: every record, every finding (the default)
    Check,
    /// The decisions that govern PATH, current ones first
    Why(query::WhyArgs),
    /// One record: its fields, edges, commits and drift
    Record(query::RecordArgs),
    /// Bring the index up to date (records, guides and history)
    Index(index::IndexArgs),
    /// Install the git hooks: a warning on a commit that changes governed paths without citing
    /// their decisions, a hint in the message, the index kept fresh
    InstallHooks,
    /// Remove context-graph's part from the git hooks (a hook with nothing else in it is deleted)
    UninstallHooks,
    /// What the installed git hooks call: NAME is the hook, ARGS what git passed it
    Hook(hooks::HookArgs),
    /// The decisions a range of commits touches, and whether the range cites them (for CI)
    Review(review::ReviewArgs),
    /// Keep the index fresh while files change, until Ctrl-C
    Watch(watch::WatchArgs),
    /// Write paths into a record's scope: --add PATH…, or --accept its code mentions
    Scope(scope::ScopeArgs),
}

/// A usage error found after clap parsed the arguments: exit 2, one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(String);

/// Runs the command line; the exit code, or the error to report (exit 2).
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    let opts = options(&cli.common);
    let json = cli.common.json;
    let flag = match (&cli.why, &cli.record) {
        (Some(_), _) => Some("--why"),
        (None, Some(_)) => Some("--record"),
        (None, None) => None,
    };
    let ask = match (cli.command, cli.why, cli.record) {
        (Some(command), _, _) if flag.is_some() => {
            let name = match command {
                Command::Check => "check",
                Command::Why(_) => "why",
                Command::Record(_) => "record",
                Command::Index(_) => "index",
                Command::InstallHooks => "install-hooks",
                Command::UninstallHooks => "uninstall-hooks",
                Command::Hook(_) => "hook",
                Command::Review(_) => "review",
                Command::Watch(_) => "watch",
                Command::Scope(_) => "scope",
            };
            return Err(Usage(format!(
                "{} and the `{name}` command ask two questions at once: ask one",
                flag.unwrap_or_default()
            ))
            .into());
        }
        (Some(Command::Index(args)), _, _) => return index::run(opts, args, json),
        (Some(Command::InstallHooks), _, _) => return hooks::install(opts, json),
        (Some(Command::UninstallHooks), _, _) => return hooks::uninstall(opts, json),
        (Some(Command::Hook(args)), _, _) => return hooks::run(opts, args),
        (Some(Command::Review(args)), _, _) => return review::run(opts, args, json),
        (Some(Command::Watch(args)), _, _) => return watch::run(opts, args, json),
        (Some(Command::Scope(args)), _, _) => return scope::run(opts, args, json),
        (Some(Command::Why(args)), _, _) => args.ask(),
        (None, Some(path), _) => context_graph::Ask::Why(path),
        (Some(Command::Record(args)), _, _) => args.ask(),
        (None, None, Some(id)) => context_graph::Ask::Record(id),
        (Some(Command::Check), _, _) | (None, None, None) => context_graph::Ask::Check,
    };
    query::run(opts, ask, json)
}

fn options(common: &Common) -> Options {
    Options {
        root: common.root.clone(),
        docs: common.docs.clone(),
        git: common.git,
        no_index: common.no_index,
        index_wait: std::env::var("CONTEXT_GRAPH_INDEX_WAIT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis)
            .unwrap_or(context_graph::index::DEFAULT_WAIT),
        mentions: std::env::var("CONTEXT_GRAPH_MENTIONS").map_or(true, |v| v != "off"),
    }
}
