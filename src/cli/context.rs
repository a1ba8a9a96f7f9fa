//! `context PATH… [--budget TOKENS]`: what an agent should read before it edits PATH
//! (docs/agents.md; ADR-0014).

use super::ui;
use clap::Args;
use context_graph::app::context::DEFAULT_BUDGET;
use context_graph::output::{context, json};
use context_graph::{Options, Session};

#[derive(Args)]
pub struct ContextArgs {
    /// Paths relative to the root (or absolute, inside it); they share one budget
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// The budget in tokens, counted as characters/4
    #[arg(long, value_name = "TOKENS", default_value_t = DEFAULT_BUDGET)]
    budget: usize,
}

pub fn run(opts: Options, args: ContextArgs, json_out: bool) -> anyhow::Result<u8> {
    let answer = Session::open(opts)?.context(&args.paths, args.budget, None)?;
    ui::diagnostics(&answer.diagnostics);
    let text = if json_out {
        json::report(&answer.report)
    } else {
        context::markdown(&answer.report)
    };
    ui::emit(&text)?;
    Ok(0)
}
