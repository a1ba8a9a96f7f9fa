//! The `context-graph` binary: parses arguments, asks the library, renders, and maps the
//! result to an exit code. Nothing else lives here (ADR-0004).

use clap::{Args, Parser, Subcommand};
use context_graph::output::{json, markdown};
use context_graph::{Ask, Options};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "context-graph",
    version,
    about = "Keeps a repository's architecture decisions connected to its code",
    long_about = "Reads the decision records (ADRs, RFCs, design docs) of a repository, builds the graph between them and the code, checks it, and answers which decisions govern a path.\n\nWith no command it runs the full check. Answers come from an index in the git dir, brought up to date first (--no-index scans instead). Exit codes: 0 no problems (or a query answered), 1 the check found problems, 2 no records, an unreadable --root or --docs, or an unknown record id."
)]
struct Cli {
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
    Why {
        /// A path relative to the root (or absolute, inside it)
        path: String,
    },
    /// One record: its fields, edges, commits and drift
    Record {
        /// ADR-0004, ADR-4, adr-4, "ADR 4", or a bare number when one record has it
        id: String,
    },
    /// Bring the index up to date (records, guides and history)
    Index {
        /// Drop the index and build it again
        #[arg(long, conflicts_with = "status")]
        rebuild: bool,
        /// Report the index's state without updating it
        #[arg(long)]
        status: bool,
    },
}

fn main() -> ExitCode {
    quiet_handled_panics();
    let cli = Cli::parse();
    let opts = Options {
        root: cli.common.root,
        docs: cli.common.docs,
        git: cli.common.git,
        no_index: cli.common.no_index,
        index_wait: std::env::var("CONTEXT_GRAPH_INDEX_WAIT_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis)
            .unwrap_or(context_graph::index::DEFAULT_WAIT),
    };
    let json = cli.common.json;
    let ask = match (cli.command, cli.why, cli.record) {
        (Some(Command::Index { rebuild, status }), _, _) => {
            return index_command(&opts, rebuild, status, json)
        }
        (Some(Command::Why { path }), _, _) | (None, Some(path), _) => Ask::Why(path),
        (Some(Command::Record { id }), _, _) | (None, None, Some(id)) => Ask::Record(id),
        (Some(Command::Check), _, _) | (None, None, None) => Ask::Check,
    };
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let answer = match context_graph::answer(&opts, &ask, Some(&progress)) {
        Ok(a) => a,
        Err(e) => return fail(&e),
    };
    bar.finish();
    for d in &answer.diagnostics {
        eprintln!("context-graph: note: {d}");
    }
    let report = answer.report;
    let text = if json {
        json::report(&report)
    } else {
        let style = markdown::Style {
            colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        };
        match ask {
            Ask::Check => markdown::check(&report, style),
            Ask::Why(_) => markdown::why(&report, style),
            Ask::Record(_) => markdown::record(&report, style),
        }
    };
    if let Some(code) = emit(&text) {
        return code;
    }
    let code = ExitCode::from(context_graph::exit_code(&ask, &report) as u8);
    // The process ends here: freeing a long answer piece by piece was a twentieth of a query.
    std::mem::forget(report);
    std::mem::forget(text);
    code
}

fn index_command(opts: &Options, rebuild: bool, status: bool, json: bool) -> ExitCode {
    if status {
        return match context_graph::index_status(opts) {
            Ok(s) => {
                let text = if json {
                    json::render(&s)
                } else {
                    markdown::index_status(&s)
                };
                emit(&text).unwrap_or(ExitCode::SUCCESS)
            }
            Err(e) => fail(&e),
        };
    }
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    match context_graph::index_update(opts, rebuild, Some(&progress)) {
        Ok(summary) => {
            bar.finish();
            for d in &summary.diagnostics {
                eprintln!("context-graph: note: {d}");
            }
            let text = if json {
                json::render(&summary)
            } else {
                markdown::index_summary(&summary)
            };
            emit(&text).unwrap_or(ExitCode::SUCCESS)
        }
        Err(e) => fail(&e),
    }
}

fn fail(e: &context_graph::Error) -> ExitCode {
    eprintln!("context-graph: {e}");
    ExitCode::from(e.exit_code() as u8)
}

/// Writes the report; a closed pipe ends quietly.
fn emit(text: &str) -> Option<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => None,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Some(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("context-graph: cannot write the report: {e}");
            Some(ExitCode::from(2))
        }
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    fn new() -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = indicatif::ProgressBar::hidden();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "indexing history {bar:30} {pos}/{len} commits ({eta})",
            )
            .expect("the template is valid"),
        );
        Bar(Some(bar))
    }

    fn set(&self, done: usize, total: usize) {
        if let Some(bar) = &self.0 {
            if bar.is_hidden() && total > 1000 {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A damaged index file can make redb panic; the library catches that and rebuilds, so the
/// panic's message must not reach the user as if the tool had crashed.
fn quiet_handled_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !context_graph::index::panic_is_handled() {
            default(info);
        }
    }));
}
