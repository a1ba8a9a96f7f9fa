//! `context PATH… [--budget TOKENS]`: what an agent should read before it edits PATH
//! (docs/agents.md; ADR-0014).

use super::ui;
use clap::Args;
use context_graph::app::context::DEFAULT_BUDGET;
use context_graph::output::{context, json};
use context_graph::{Options, Session};

#[derive(Args)]
pub struct ContextArgs {
    /// Paths relative to the current folder (or absolute, inside the root); they share one budget
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// The budget in tokens, counted as characters/4
    #[arg(long, value_name = "TOKENS", default_value_t = DEFAULT_BUDGET)]
    budget: usize,
}

pub fn run(opts: Options, args: ContextArgs, json_out: bool) -> anyhow::Result<u8> {
    let paths: Vec<String> = args.paths.iter().map(|p| super::typed(&opts, p)).collect();
    let session = &mut Session::open(opts)?;
    let answer = session.context(&paths, args.budget, None)?;
    ui::diagnostics(&answer.diagnostics);
    for note in paths.iter().filter_map(|p| session.absent_note(p)) {
        ui::say(&note);
    }
    let text = if json_out {
        json::report(&answer.report)
    } else {
        context::markdown(&answer.report)
    };
    ui::emit(&text)?;
    Ok(0)
}
