//! Pictures and shipping (docs/pictures.md, ADR-0015):
//! - `graph`: the formats, what is shown, `--focus`, and Graphviz laying the DOT out;
//! - `report`: the HTML page, and the page in a real headless browser;
//! - `ship`: completions and the JSON Schema;
//! - `completions`: the completion scripts run in bash, zsh and fish;
//! - `man`: the man pages, read by groff and man;
//! - `readme`: the README's links and its Install section;
//! - `action`: the Action's and the release workflow's files, and the Action's scripts run
//!   against a simulated pull request.
//!
//! Here: the corpus they share, and finding a tool on `PATH`.

#[cfg(unix)]
mod action;
mod completions;
mod graph;
mod man;
mod readme;
mod report;
mod report_reads;
mod ship;

use crate::fixture::{adr, empty_root, Fixture};
use std::path::PathBuf;

/// 1 superseded by 2; 3 amends 2; 4 deprecated; 5 proposed, citing 3 and 4. ADR-0002 governs
/// `src/auth/` and its title holds markup.
pub const TITLE_2: &str = "Sessions in <Redis> & \"friends\" {{graph}}";

pub fn corpus() -> Fixture {
    let f = empty_root();
    let records = [
        adr(
            1,
            "Session store",
            "Superseded by ADR-0002",
            Some("2024-01-01"),
            "Memory.",
        ),
        adr(
            2,
            TITLE_2,
            "Accepted",
            Some("2024-02-01"),
            "Supersedes ADR-0001. Governs `src/auth/`.",
        ),
        adr(
            3,
            "Session expiry",
            "Accepted",
            Some("2024-03-01"),
            "Amends ADR-0002.",
        ),
        adr(
            4,
            "Old logging",
            "Deprecated",
            Some("2023-01-01"),
            "Nothing.",
        ),
        adr(
            5,
            "Metrics",
            "Proposed",
            Some("2024-04-01"),
            "Builds on ADR-0003 and ADR-0004.",
        ),
    ];
    let names = ["store", "redis", "expiry", "old", "metrics"];
    for (i, (text, name)) in records.iter().zip(names).enumerate() {
        f.write(&format!("docs/adr/{:04}-{name}.md", i + 1), text.as_bytes());
    }
    f.write("src/auth/login.rs", b"fn login() {}\n");
    f
}

/// The first of `names` found on `PATH`.
pub fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}
