//! `check`, `why PATH` and `record ID`: one question answered, rendered, and the exit code.

use super::ui::{self, Bar};
use clap::Args;
use context_graph::output::{json, markdown};
use context_graph::{Ask, Options, Session};

#[derive(Args)]
pub struct WhyArgs {
    /// A path relative to the root (or absolute, inside it)
    path: String,
}

impl WhyArgs {
    pub fn ask(self) -> Ask {
        Ask::Why(self.path)
    }
}

#[derive(Args)]
pub struct RecordArgs {
    /// ADR-0004, ADR-4, adr-4, "ADR 4", or a bare number when one record has it
    id: String,
}

impl RecordArgs {
    pub fn ask(self) -> Ask {
        Ask::Record(self.id)
    }
}

pub fn run(opts: Options, ask: Ask, json_out: bool) -> anyhow::Result<u8> {
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let answer = Session::open(opts)?.answer(&ask, Some(&progress))?;
    bar.finish();
    ui::diagnostics(&answer.diagnostics);
    let report = answer.report;
    if json_out {
        // Streamed: a long answer is not held whole besides the report (ADR-0011).
        ui::emit_with(|out| json::write(&report, out))?;
        let code = context_graph::exit_code(&ask, &report) as u8;
        std::mem::forget(report);
        return Ok(code);
    }
    let text = {
        let style = ui::style();
        match ask {
            Ask::Check => markdown::check(&report, style),
            Ask::Why(_) => markdown::why(&report, style),
            Ask::Record(_) => markdown::record(&report, style),
        }
    };
    ui::emit(&text)?;
    let code = context_graph::exit_code(&ask, &report) as u8;
    // The process ends here: freeing a long answer piece by piece was a twentieth of a query.
    std::mem::forget(report);
    std::mem::forget(text);
    Ok(code)
}
