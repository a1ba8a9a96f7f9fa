//! `scope ID --add PATH… | --accept [--dry-run]`: paths written into a record's scope.

use super::ui;
use clap::Args;
use context_graph::output::{json, scope};
use context_graph::{Options, Session};

#[derive(Args)]
pub struct ScopeArgs {
    /// The record: ADR-0004, ADR-4, or a bare number when one record has it
    id: String,
    /// Paths (relative to the current folder) to write into the record's scope
    #[arg(long, num_args = 1.., value_name = "PATH", required_unless_present = "accept")]
    add: Vec<String>,
    /// Also write every code mention of the record at confidence 0.8 or above
    #[arg(long)]
    accept: bool,
    /// Print the diff; write nothing
    #[arg(long)]
    dry_run: bool,
}

pub fn run(opts: Options, args: ScopeArgs, json_out: bool) -> anyhow::Result<u8> {
    let add: Vec<String> = args.add.iter().map(|p| super::typed(&opts, p)).collect();
    let mut session = Session::open(opts)?;
    let edit = session.scope_add(&args.id, &add, args.accept, args.dry_run)?;
    let text = if json_out {
        json::render(&context_graph::model::ScopeReport { scope: edit })
    } else {
        scope::markdown(&edit)
    };
    ui::emit(&text)?;
    Ok(0)
}
