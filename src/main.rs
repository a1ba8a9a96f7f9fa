//! The `context-graph` binary: parses arguments, runs the command, and maps the result to an
//! exit code. Everything else is the library's, or `cli/`'s (ADR-0003, ADR-0007).

mod cli;
mod mcp;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::quiet_handled_panics();
    let cli = match cli::Cli::from_env() {
        Ok(cli) => cli,
        // The help or version printed, or the command line refused in one line.
        Err(code) => return ExitCode::from(code),
    };
    match cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.is::<cli::ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            // One line: the library's messages already name what failed and why; a message
            // that spans lines (a foreign error's) is joined (docs/commands.md, "Output").
            let text = e.to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!("context-graph: {}", lines.join(" "));
            ExitCode::from(2)
        }
    }
}
