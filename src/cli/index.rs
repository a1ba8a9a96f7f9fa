//! `index`: bring the index up to date (`--rebuild` drops it first), or report it (`--status`).

use super::ui::{self, Bar};
use clap::Args;
use context_graph::output::{json, markdown};
use context_graph::{Options, Session};

#[derive(Args)]
pub struct IndexArgs {
    /// Drop the index and build it again
    #[arg(long, conflicts_with = "status")]
    rebuild: bool,
    /// Report the index's state without updating it
    #[arg(long)]
    status: bool,
}

pub fn run(opts: Options, args: IndexArgs, json_out: bool) -> anyhow::Result<u8> {
    let mut session = Session::open(opts)?;
    if args.status {
        let status = session.index_status()?;
        let text = if json_out {
            json::render(&status)
        } else {
            markdown::index_status(&status)
        };
        ui::emit(&text)?;
        return Ok(0);
    }
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let summary = session.index_update(args.rebuild, Some(&progress))?;
    bar.finish();
    ui::diagnostics(&summary.diagnostics);
    let text = if json_out {
        json::render(&summary)
    } else {
        markdown::index_summary(&summary)
    };
    ui::emit(&text)?;
    Ok(0)
}
