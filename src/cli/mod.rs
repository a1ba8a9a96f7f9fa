//! The command line: clap types, one file per subcommand, and the terminal policy (`ui`:
//! where output goes, colour, progress). This is the binary's, not the library's: the library
//! returns data, these decide how it reaches a person (ADR-0003, ADR-0007).

mod context;
mod coverage;
mod hooks;
mod index;
mod manpage;
mod pictures;
mod query;
mod review;
mod scope;
mod ship;
mod ui;
mod usage;
mod watch;
mod write;

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
#[derive(Args, Default)]
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
    InstallHooks(hooks::InstallArgs),
    /// Remove context-graph's part from the git hooks (a hook with nothing else in it is deleted)
    UninstallHooks,
    /// What the installed git hooks call: NAME is the hook, ARGS what git passed it
    Hook(hooks::HookArgs),
    /// The decisions a range of commits touches, and whether the range cites them (for CI)
    Review(review::ReviewArgs),
    /// Keep the index fresh while files change, until Ctrl-C
    Watch(watch::WatchArgs),
    // Pictures and shipping (docs/pictures.md, ADR-0015).
    /// The decisions as a graph: Mermaid (default), Graphviz DOT or JSON
    Graph(pictures::GraphArgs),
    /// One self-contained HTML page: the graph, the records and the findings
    Report(pictures::ReportArgs),
    /// The completion script for a shell
    Completions(ship::CompletionsArgs),
    /// The manual page (roff): one page with every command, for `man -l -`; or with --dir a
    /// page a command, for a man folder
    Man(ship::ManArgs),
    /// The JSON Schema (draft 2020-12) of every --json document
    Schema,
    /// What an agent should read before editing PATH: the governing decisions in their own
    /// words, within a budget
    Context(context::ContextArgs),
    /// A Model Context Protocol server over stdio for coding agents: tools why, record,
    /// context, check, review; each record as the resource decision://ID
    Mcp,
    /// Make a record folder and its first record, "Record architecture decisions"
    Init(write::InitCmd),
    /// Write a new record in the folder's own conventions
    New(write::NewCmd),
    /// Write a record superseding OLD, and mark OLD superseded in its own form
    Supersede(write::RelateCmd),
    /// Write a record amending OLD, and mark OLD "Amended by" it
    Amend(write::RelateCmd),
    /// Change a record's status in place
    Status(write::StatusCmd),
    /// The index's refresh after a write, run in the background by the commands above: not
    /// clap's to parse, so that no completion or help offers it ([`Cli::from_env`]).
    #[command(skip)]
    RefreshAfterWrite,
    /// Write paths into a record's scope: --add PATH…, or --accept its code mentions
    Scope(scope::ScopeArgs),
    /// How much of the code that changed current decisions govern: the share of commits, the
    /// hottest ungoverned folders, the decisions changed most without being cited
    Coverage(coverage::CoverageArgs),
    /// Rules in records: `rules freeze ID` writes an `except` line for each place the
    /// record's rules are broken today
    Rules(write::RulesCmd),
}

impl Cli {
    /// This process's command line. `hook NAME ARGS…` as the installed hooks write it is read
    /// without building clap's whole parser, since git waits on it (issue 17; see
    /// [`hooks::HookArgs::from_hook_line`]); anything else is clap's to parse. `Err(code)`:
    /// clap printed the help or version asked for, or the command line was refused, in one
    /// line (`usage`); the process exits with `code`.
    pub fn from_env() -> Result<Cli, u8> {
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        if let Some(args) = hooks::HookArgs::from_hook_line(args.iter().cloned()) {
            return Ok(Cli {
                command: Some(Command::Hook(args)),
                why: None,
                record: None,
                common: Common::default(),
            });
        }
        // A plain `why PATH` likewise (issue 17: the answer right after a commit).
        if let Some(cli) = query::why_line(args.iter().cloned()) {
            return Ok(cli);
        }
        let program = || std::iter::once(std::ffi::OsString::from("context-graph"));
        // The write commands' background refresh: `[--root DIR] [--docs DIR]… refresh-after-write`.
        if let Some((last, options)) = args.split_last() {
            if last == "refresh-after-write" {
                return match RefreshLine::try_parse_from(program().chain(options.iter().cloned())) {
                    Ok(line) => Ok(Cli {
                        command: Some(Command::RefreshAfterWrite),
                        why: None,
                        record: None,
                        common: line.common,
                    }),
                    Err(e) => Err(usage::report(&e, &args)),
                };
            }
        }
        Cli::try_parse_from(program().chain(args.iter().cloned()))
            .map_err(|e| usage::report(&e, &args))
    }
}

/// The options of the hidden `refresh-after-write` (see [`Cli::from_env`]).
#[derive(Parser)]
#[command(name = "context-graph")]
struct RefreshLine {
    #[command(flatten)]
    common: Common,
}

/// A usage error found after clap parsed the arguments: exit 2, one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(String);

/// Runs the command line; the exit code, or the error to report (exit 2). Under `hook` an
/// error is said in one line and the exit is 0: a hook never stands in git's way (ADR-0008).
pub fn run(cli: Cli) -> anyhow::Result<u8> {
    let hook = matches!(cli.command, Some(Command::Hook(_)));
    match dispatch(cli) {
        Err(e) if hook && !e.is::<ClosedPipe>() => {
            let e = context_graph::util::one_line(&e.to_string());
            eprintln!("context-graph: the hook went on without context-graph: {e}");
            Ok(0)
        }
        outcome => outcome,
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<u8> {
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
                Command::InstallHooks(_) => "install-hooks",
                Command::UninstallHooks => "uninstall-hooks",
                Command::Hook(_) => "hook",
                Command::Review(_) => "review",
                Command::Watch(_) => "watch",
                Command::Graph(_) => "graph",
                Command::Report(_) => "report",
                Command::Completions(_) => "completions",
                Command::Man(_) => "man",
                Command::Schema => "schema",
                Command::Context(_) => "context",
                Command::Mcp => "mcp",
                Command::Init(_) => "init",
                Command::New(_) => "new",
                Command::Supersede(_) => "supersede",
                Command::Amend(_) => "amend",
                Command::Status(_) => "status",
                Command::RefreshAfterWrite => "refresh-after-write",
                Command::Scope(_) => "scope",
                Command::Coverage(_) => "coverage",
                Command::Rules(_) => "rules",
            };
            return Err(Usage(format!(
                "{} and the `{name}` command ask two questions at once: ask one",
                flag.unwrap_or_default()
            ))
            .into());
        }
        (Some(Command::Index(args)), _, _) => return index::run(opts, args, json),
        (Some(Command::InstallHooks(args)), _, _) => return hooks::install(opts, args, json),
        (Some(Command::UninstallHooks), _, _) => return hooks::uninstall(opts, json),
        (Some(Command::Hook(args)), _, _) => return hooks::run(opts, args),
        (Some(Command::Review(args)), _, _) => return review::run(opts, args, json),
        (Some(Command::Watch(args)), _, _) => return watch::run(opts, args, json),
        (Some(Command::Graph(args)), _, _) => return pictures::graph(opts, args, json),
        (Some(Command::Report(args)), _, _) => return pictures::report(opts, args),
        (Some(Command::Completions(args)), _, _) => return ship::completions(args),
        (Some(Command::Man(args)), _, _) => return ship::man(args),
        (Some(Command::Schema), _, _) => return ship::schema(),
        (Some(Command::Context(args)), _, _) => return context::run(opts, args, json),
        (Some(Command::Mcp), _, _) => return crate::mcp::run(opts),
        (Some(Command::Init(args)), _, _) => return write::init(opts, args, json),
        (Some(Command::New(args)), _, _) => return write::new(opts, args, json),
        (Some(Command::Supersede(args)), _, _) => return write::supersede(opts, args, json),
        (Some(Command::Amend(args)), _, _) => return write::amend(opts, args, json),
        (Some(Command::Status(args)), _, _) => return write::status(opts, args, json),
        (Some(Command::RefreshAfterWrite), _, _) => return write::refresh(opts),
        (Some(Command::Scope(args)), _, _) => return scope::run(opts, args, json),
        (Some(Command::Coverage(args)), _, _) => return coverage::run(opts, args, json),
        (Some(Command::Rules(args)), _, _) => return write::rules(opts, args, json),
        (Some(Command::Why(args)), _, _) => typed_why(&opts, args.ask()),
        (None, Some(path), _) => typed_why(&opts, context_graph::Ask::Why(path)),
        (Some(Command::Record(args)), _, _) => args.ask(),
        (None, None, Some(id)) => context_graph::Ask::Record(id),
        (Some(Command::Check), _, _) | (None, None, None) => context_graph::Ask::Check,
    };
    query::run(opts, ask, json)
}

/// A PATH as the user typed it, from the current folder (docs/commands.md, "Ids and paths").
pub(crate) fn typed(opts: &Options, arg: &str) -> String {
    context_graph::fs::root::typed_path(opts.root.as_deref(), arg)
}

fn typed_why(opts: &Options, ask: context_graph::Ask) -> context_graph::Ask {
    match ask {
        context_graph::Ask::Why(p) => context_graph::Ask::Why(typed(opts, &p)),
        other => other,
    }
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
