//! `graph` and `report --html`: the decisions as a picture (docs/pictures.md; ADR-0015).

use super::ui;
use super::Usage;
use clap::{Args, ValueEnum};
use context_graph::app::picture::{self, Shown};
use context_graph::output::{graph, html, json};
use context_graph::{Options, Session};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// A fenced Mermaid flowchart, for Markdown (GitHub renders it as printed)
    Mermaid,
    /// Graphviz DOT, for `dot -Tsvg`
    Dot,
    /// {"nodes": [...], "edges": [...]}
    Json,
}

#[derive(Args)]
pub struct GraphArgs {
    /// The output format (--json alone means json)
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Only the neighbourhood of a record (ADR-0004) or of the decisions governing a path
    #[arg(long, value_name = "ID|PATH")]
    focus: Option<String>,
    /// How many edges away from the focus to keep (default 1)
    #[arg(long, value_name = "N", requires = "focus")]
    depth: Option<usize>,
    /// Superseded and deprecated records too (a focus shows its neighbours of any status)
    #[arg(long)]
    all: bool,
    /// The paths each current record governs, as nodes
    #[arg(long)]
    governs: bool,
}

pub fn graph(opts: Options, args: GraphArgs, json_out: bool) -> anyhow::Result<u8> {
    let shown = Shown {
        focus: args.focus,
        depth: args.depth,
        all: args.all,
        governs: args.governs,
    };
    let pictured = picture::picture(&mut Session::open(opts)?, &shown)?;
    ui::diagnostics(&pictured.answer.diagnostics);
    let format = match (args.format, json_out) {
        (Some(f), _) => f,
        (None, true) => Format::Json,
        (None, false) => Format::Mermaid,
    };
    let text = match format {
        Format::Mermaid => graph::mermaid(&pictured.graph),
        Format::Dot => graph::dot(&pictured.graph),
        Format::Json => json::render(&pictured.graph),
    };
    ui::emit(&text)?;
    Ok(0)
}

#[derive(Args)]
pub struct ReportArgs {
    /// Write one self-contained HTML page to FILE (`-` for stdout)
    #[arg(long, value_name = "FILE")]
    html: PathBuf,
}

pub fn report(opts: Options, args: ReportArgs) -> anyhow::Result<u8> {
    let shown = Shown {
        all: true,
        ..Shown::default()
    };
    let pictured = picture::picture(&mut Session::open(opts)?, &shown)?;
    ui::diagnostics(&pictured.answer.diagnostics);
    let page = html::report(&pictured.answer.report, &pictured.graph);
    if args.html.as_os_str() == "-" {
        ui::emit(&page)?;
    } else {
        std::fs::write(&args.html, page)
            .map_err(|e| Usage(format!("cannot write {}: {e}", args.html.display())))?;
        // The one line a reader looks for: where the page is (docs/pictures.md).
        let records = pictured.answer.report.records.len();
        let s = if records == 1 { "" } else { "s" };
        ui::emit(&format!(
            "wrote {} ({records} record{s})\n",
            context_graph::output::escape(&args.html.display().to_string())
        ))?;
    }
    Ok(0)
}
