//! The `context-graph` binary: parses arguments, runs the command, and maps the result to an
//! exit code. Everything else is the library's, or `cli/`'s (ADR-0003, ADR-0007).

mod cli;
mod mcp;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::quiet_handled_panics();
    match cli::run(cli::Cli::from_env()) {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.is::<cli::ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            // One line: the library's messages already name what failed and why.
            eprintln!("context-graph: {e}");
            ExitCode::from(2)
        }
    }
}
