//! `coverage [--since DATE | --last N]`: how much of the code that changed current decisions
//! govern (docs/mentions.md, ADR-0017). A query: exit 0 unless an error.

use super::ui::{self, Bar};
use clap::Args;
use context_graph::app::coverage::{self, Window};
use context_graph::output::{coverage as say, json};
use context_graph::text::date::parse_date;
use context_graph::{Options, Session};

#[derive(Args)]
pub struct CoverageArgs {
    /// Count the commits from this day on (YYYY-MM-DD, UTC); default: the 12 months before
    /// HEAD's commit date
    #[arg(long, value_name = "DATE", value_parser = day, conflicts_with = "last")]
    since: Option<i64>,
    /// Count the last N non-merge commits instead
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    last: Option<u64>,
}

/// `--since`'s value: a real `YYYY-MM-DD` date, as days since 1970-01-01.
fn day(text: &str) -> Result<i64, String> {
    let t = text.trim();
    match parse_date(t) {
        Some(day) if t.len() == 10 => Ok(day),
        _ => Err("expected a date written YYYY-MM-DD".to_string()),
    }
}

pub fn run(mut opts: Options, args: CoverageArgs, json_out: bool) -> anyhow::Result<u8> {
    // The history is always read; the full check's drift (`--git`) is not needed.
    opts.git = false;
    let window = match (args.since, args.last) {
        (Some(day), _) => Window::Since(day),
        (None, Some(n)) => Window::Last(usize::try_from(n).unwrap_or(usize::MAX)),
        (None, None) => Window::Default,
    };
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let mut session = Session::open(opts)?;
    let covered = coverage::coverage(&mut session, window, Some(&progress))?;
    bar.finish();
    ui::diagnostics(&covered.diagnostics);
    let text = if json_out {
        json::report(&covered.report)
    } else {
        say::markdown(&covered.report)
    };
    ui::emit(&text)?;
    Ok(0)
}
