//! The command line, a file per subject:
//! - `exit_codes`: exit codes, and the root a run defaults to;
//! - `why` and `record`: the two queries in both spellings, and every id form;
//! - `output`: `--help` and the Markdown report;
//! - `discovery`: which record files are found, and the files that must never hang or break it;
//! - `errors`: every error one line, clap's included, and the hints the common mistakes get;
//! - `escaping`: no title, name or subject renders as HTML in a report's Markdown.
//!
//! Here: a run for Markdown, and the check that a query's subcommand and flag forms agree.

mod discovery;
mod errors;
mod escaping;
mod exit_codes;
mod output;
mod record;
mod why;

use crate::fixture::*;

fn markdown(f: &Fixture, args: &[&str]) -> (Option<i32>, String) {
    let run = f.run_md(args);
    assert!(!run.timed_out, "timed out: {}", run.describe());
    assert!(
        !run.stdout.contains(&0x1b),
        "ANSI escape in output that is not a TTY: {}",
        run.describe()
    );
    (run.code, run.stdout())
}

/// The subcommand form and the flag form answer alike, in JSON and in Markdown, on the `why`
/// fixture.
fn assert_flag_agrees(sub_args: &[&str], flag_args: &[&str]) {
    let f = copy_fixture("why");
    let sub = f.run_json(sub_args);
    let flag = f.run_json(flag_args);
    sub.assert_code(0);
    flag.assert_code(0);
    assert_eq!(sub.json(), flag.json());
    assert_eq!(markdown(&f, sub_args).1, markdown(&f, flag_args).1);
}
