//! Mistakes on the command line, reported as every error is: one line on stderr starting
//! `context-graph:`, exit 2 (docs/commands.md, "Output"; ADR-0003). clap's own errors are
//! several lines (`error: …`, a tip, the usage, a pointer to `--help`): they are folded into
//! one, its suggestion kept (`unrecognized subcommand 'chek' (did you mean 'check'?)`).
//! `--help` and `--version` are clap's, unchanged. Under `hook` the same line is said and the
//! exit is 0: a hook never stands in git's way (ADR-0008).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;
use std::ffi::OsString;

/// What to do with a command line clap refused: print the help or version it asked for, or
/// the error in one line. The exit code.
pub fn report(e: &clap::Error, args: &[OsString]) -> u8 {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // A closed pipe (`--help | head`) is not an error.
        let _ = e.print();
        return 0;
    }
    if is_hook(args) {
        eprintln!(
            "context-graph: the hook went on without context-graph: {}",
            one_line(e)
        );
        return 0;
    }
    eprintln!("context-graph: {}", one_line(e));
    2
}

/// clap's error in one line, without the `error: ` clap starts it with.
pub fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let head = lines.next().unwrap_or_default();
    let head = head.strip_prefix("error: ").unwrap_or(head).trim_end();
    let mut listed = Vec::new();
    let mut said = Vec::new();
    for line in lines {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            continue;
        }
        if let Some(tip) = line.strip_prefix("tip: ") {
            let tip = match nearest(e) {
                Some(best) if tip.contains("similar") => format!("did you mean '{best}'?"),
                _ => tip.to_string(),
            };
            if !said.contains(&tip) {
                said.push(tip);
            }
        } else if let Some(values) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            said.push(values.to_string());
        } else {
            listed.push(line.to_string());
        }
    }
    let mut out = head.to_string();
    if !listed.is_empty() {
        let joined = listed.join(", ");
        out = match out.strip_suffix(':') {
            Some(lead) => format!("{lead}: {joined}"),
            None => format!("{out}: {joined}"),
        };
    }
    if e.kind() == ErrorKind::MissingRequiredArgument {
        if let Some(usage) = usage(e) {
            said.push(format!("usage: {usage}"));
        }
    }
    if !said.is_empty() {
        out = format!("{out} ({})", said.join("; "));
    }
    context_graph::util::one_line(&out)
}

/// The one suggestion clap ranks first: it lists similar names least similar first.
fn nearest(e: &clap::Error) -> Option<String> {
    [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ]
    .into_iter()
    .find_map(|kind| match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.last().cloned(),
        _ => None,
    })
}

/// The usage line clap shows under the error, without its `Usage: `.
fn usage(e: &clap::Error) -> Option<String> {
    let ContextValue::StyledStr(usage) = e.get(ContextKind::Usage)? else {
        return None;
    };
    let usage = usage.to_string();
    let usage = usage.trim();
    Some(
        usage
            .strip_prefix("Usage:")
            .unwrap_or(usage)
            .trim()
            .to_string(),
    )
}

/// Whether the command line is `hook …`: its first word that is neither an option nor the
/// value of one is `hook`.
fn is_hook(args: &[OsString]) -> bool {
    let command = super::Cli::command();
    let takes_value = |flag: &str| {
        command.get_arguments().any(|a| {
            a.get_long().is_some_and(|l| flag == format!("--{l}")) && a.get_action().takes_values()
        })
    };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(word) = word.to_str() else {
            return false;
        };
        if word.starts_with('-') {
            // `--root DIR`: skip DIR too (`--root=DIR` is one word).
            if !word.contains('=') && takes_value(word) {
                words.next();
            }
            continue;
        }
        return word == "hook";
    }
    false
}
