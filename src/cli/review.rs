//! `review [RANGE]`: the decisions a range of commits touches and whether the range cites them,
//! as Markdown for a pull request or the JSON document; `--strict` for CI (docs/hooks.md,
//! ADR-0008).

use super::ui;
use clap::Args;
use context_graph::app::review;
use context_graph::model::Query;
use context_graph::output::{hooks as say, json};
use context_graph::{Options, Session};

#[derive(Args)]
pub struct ReviewArgs {
    /// BASE..HEAD, BASE...HEAD (from their merge base) or BASE (to HEAD); default: the current
    /// branch's upstream to HEAD
    range: Option<String>,
    /// Exit 1 when the range touches a decision it does not cite (as `git config
    /// context-graph.strict true` does)
    #[arg(long)]
    strict: bool,
}

pub fn run(opts: Options, args: ReviewArgs, json_out: bool) -> anyhow::Result<u8> {
    let mut session = Session::open(opts)?;
    let reviewed = review::review(&mut session, args.range.as_deref())?;
    ui::diagnostics(&reviewed.diagnostics);
    let text = if json_out {
        json::report(&reviewed.report)
    } else {
        say::review(&reviewed.report)
    };
    ui::emit(&text)?;
    let uncited = match &reviewed.report.query {
        Some(Query::Review(q)) => !q.uncited.is_empty(),
        _ => false,
    };
    Ok(u8::from((args.strict || reviewed.strict_config) && uncited))
}
