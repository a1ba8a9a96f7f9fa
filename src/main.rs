//! The `context-graph` binary: parses arguments, asks the library, renders, and maps the
//! result to an exit code. Nothing else lives here (ADR-0004).

use clap::{Args, Parser, Subcommand};
use context_graph::report::{json, markdown};
use context_graph::{Ask, Options};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "context-graph",
    version,
    about = "Keeps a repository's architecture decisions connected to its code",
    long_about = "Reads the decision records (ADRs, RFCs, design docs) of a repository, builds the graph between them and the code, checks it, and answers which decisions govern a path.\n\nWith no command it runs the full check. Exit codes: 0 no problems (or a query answered), 1 the check found problems, 2 no records, an unreadable --root or --docs, or an unknown record id."
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
    /// Print the JSON document instead of Markdown
    #[arg(long, global = true)]
    json: bool,
    /// Read git history: commits citing each record, and code changed since each decision
    #[arg(long, global = true)]
    git: bool,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ask = match (cli.command, cli.why, cli.record) {
        (Some(Command::Why { path }), _, _) | (None, Some(path), _) => Ask::Why(path),
        (Some(Command::Record { id }), _, _) | (None, None, Some(id)) => Ask::Record(id),
        (Some(Command::Check), _, _) | (None, None, None) => Ask::Check,
    };
    let opts = Options {
        root: cli.common.root,
        docs: cli.common.docs,
        git: cli.common.git,
    };
    let report = match context_graph::answer(&opts, &ask) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("context-graph: {e}");
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    let text = if cli.common.json {
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
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("context-graph: cannot write the report: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::from(context_graph::exit_code(&ask, &report) as u8)
}
