//! The manual pages, from the clap definition the binary parses with (docs/pictures.md;
//! ADR-0015): `context-graph(1)`, one page with every command, and for a man folder one page
//! a command (`context-graph-why(1)` …) that the first names. Each page has its synopsis with
//! value names, EXIT STATUS and ENVIRONMENT, and names no page that is not written with it.
//! Rendered with the `roff` crate (the one clap_mangen writes with): clap_mangen 0.3 names a
//! page per subcommand whether or not it is written, and writes synopses without value names.

use clap::{Arg, ArgAction, Command};
use roff::{bold, italic, roman, Inline, Roff};

/// The binary's name.
const BIN: &str = "context-graph";

/// The manual section.
const SECTION: &str = "1";

/// One page: its file name and its text.
pub struct Page {
    pub file: String,
    pub text: String,
}

/// `context-graph(1)`, with every command in it; with `split`, it also names each command's
/// own page (see [`pages`]).
pub fn main_page(command: &Command, split: bool) -> Page {
    let mut r = Roff::new();
    r.control("SH", ["NAME"]);
    r.text([roman(format!("{BIN} - {}", about(command)))]);
    r.control("SH", ["SYNOPSIS"]);
    synopsis(&mut r, command, &[], false);
    r.control("br", []);
    r.text([
        bold(BIN),
        roman(" ["),
        italic("common options"),
        roman("] "),
        italic("COMMAND"),
        roman(" ["),
        italic("ARGS"),
        roman("]"),
    ]);
    r.control("SH", ["DESCRIPTION"]);
    paragraphs(&mut r, long_about(command));
    r.control("SH", ["OPTIONS"]);
    r.text([roman(
        "The common options: every command takes them, before or after its name.",
    )]);
    options(
        &mut r,
        command.get_arguments().filter(|a| a.is_global_set()),
    );
    r.control("PP", []);
    r.text([roman("Without a command:")]);
    options(
        &mut r,
        command
            .get_arguments()
            .filter(|a| !a.is_global_set() && !a.is_positional()),
    );
    r.control("SH", ["COMMANDS"]);
    for sub in subcommands(command) {
        r.control("SS", [sub.get_name()]);
        synopsis(&mut r, sub, &[sub.get_name()], true);
        r.control("PP", []);
        paragraphs(&mut r, long_about(sub));
        options(&mut r, own_arguments(sub));
        if split {
            r.control("PP", []);
            r.text([
                roman("See "),
                bold(format!("{BIN}-{}", sub.get_name())),
                roman(format!("({SECTION}).")),
            ]);
        }
    }
    exit_status(&mut r, None);
    environment(&mut r);
    files(&mut r);
    if split {
        r.control("SH", ["SEE ALSO"]);
        let names: Vec<String> = subcommands(command)
            .map(|s| format!("{BIN}-{}", s.get_name()))
            .collect();
        see_also(&mut r, &names);
    }
    Page {
        file: format!("{BIN}.{SECTION}"),
        text: titled(&r, BIN, command),
    }
}

/// The pages for a man folder: [`main_page`], then one a command, each naming
/// `context-graph(1)`.
pub fn pages(command: &Command) -> Vec<Page> {
    let mut all = vec![main_page(command, true)];
    let common: Vec<&Arg> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .collect();
    for sub in subcommands(command) {
        let name = format!("{BIN}-{}", sub.get_name());
        let mut r = Roff::new();
        r.control("SH", ["NAME"]);
        r.text([roman(format!("{name} - {}", about(sub)))]);
        r.control("SH", ["SYNOPSIS"]);
        synopsis(&mut r, sub, &[sub.get_name()], false);
        r.control("SH", ["DESCRIPTION"]);
        paragraphs(&mut r, long_about(sub));
        r.control("SH", ["OPTIONS"]);
        options(&mut r, own_arguments(sub).chain(common.iter().copied()));
        exit_status(&mut r, Some(sub.get_name()));
        environment(&mut r);
        r.control("SH", ["SEE ALSO"]);
        see_also(&mut r, &[BIN.to_string()]);
        all.push(Page {
            file: format!("{name}.{SECTION}"),
            text: titled(&r, &name, command),
        });
    }
    all
}

/// The page's text with its `.TH` line first (after the `roff` crate's two-line preamble): by
/// hand, since the crate drops an empty argument and the page has no date (the same bytes
/// from the same source).
fn titled(r: &Roff, name: &str, command: &Command) -> String {
    let text = r.render();
    let version = command.get_version().unwrap_or_default();
    // No hyphenation, text left-aligned: command and page names are never broken.
    let th = format!(
        ".TH \"{name}\" \"{SECTION}\" \"\" \"{BIN} {version}\" \"User Commands\"\n.nh\n.ad l\n"
    );
    let mut preamble_end = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(".ie ") || line.starts_with(".el ") {
            preamble_end += line.len();
        } else {
            break;
        }
    }
    let page = format!("{}{th}{}", &text[..preamble_end], &text[preamble_end..]);
    ascii(&page)
}

/// Every character beyond ASCII as plain ASCII (`…` as `...`) or else as groff's `\[uXXXX]`:
/// troff reads its input as Latin-1 unless `preconv` runs first, which `man` does and `groff`
/// alone does not, and a terminal without UTF-8 has no glyph for `\[u2026]`.
fn ascii(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for c in page.chars() {
        match c {
            c if c.is_ascii() => out.push(c),
            '\u{2026}' => out.push_str("..."),
            c => out.push_str(&format!("\\[u{:04X}]", u32::from(c))),
        }
    }
    out
}

/// The commands a user can type: not hidden, not clap's `help`.
fn subcommands(command: &Command) -> impl Iterator<Item = &Command> {
    command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
}

/// A command's own arguments: not the common options, not `--help`.
fn own_arguments(command: &Command) -> impl Iterator<Item = &Arg> {
    command
        .get_arguments()
        .filter(|a| !a.is_global_set() && !a.is_hide_set() && a.get_id() != "help")
}

fn about(command: &Command) -> String {
    let text = command
        .get_about()
        .or_else(|| command.get_long_about())
        .map(|a| a.to_string())
        .unwrap_or_default();
    text.lines().next().unwrap_or_default().to_string()
}

fn long_about(command: &Command) -> String {
    command
        .get_long_about()
        .or_else(|| command.get_about())
        .map(|a| a.to_string())
        .unwrap_or_default()
}

/// Text with blank lines between paragraphs.
fn paragraphs(r: &mut Roff, text: String) {
    for (i, para) in text.split("\n\n").enumerate() {
        if i > 0 {
            r.control("PP", []);
        }
        r.text([roman(context_graph::util::one_line(para))]);
    }
}

/// `context-graph why [--root DIR] … PATH`: with `words` after the name, the options, then
/// the positional arguments; `short` leaves the common options as `[common options]`.
fn synopsis(r: &mut Roff, command: &Command, words: &[&str], short: bool) {
    let mut line: Vec<Inline> = vec![bold(BIN)];
    for w in words {
        line.push(roman(" "));
        line.push(bold(*w));
    }
    let shown = command.get_arguments().filter(|a| {
        !a.is_hide_set() && a.get_id() != "help" && a.get_id() != "version" && !a.is_positional()
    });
    for arg in shown {
        if short && arg.is_global_set() {
            continue;
        }
        line.push(roman(" ["));
        line.extend(flag(arg));
        line.push(roman("]"));
        if repeats(arg) {
            line.push(roman("..."));
        }
    }
    if short && command.get_arguments().any(|a| a.is_global_set()) {
        line.extend([roman(" ["), italic("common options"), roman("]")]);
    }
    for arg in command.get_positionals().filter(|a| !a.is_hide_set()) {
        let name = value_name(arg);
        let required = arg.is_required_set();
        line.push(roman(if required { " " } else { " [" }));
        line.push(italic(name));
        if !required {
            line.push(roman("]"));
        }
        if repeats(arg) {
            line.push(roman("..."));
        }
    }
    if command.has_subcommands() && words.is_empty() && !short {
        line.extend([roman(" ["), italic("COMMAND"), roman("]")]);
    }
    r.text(line);
}

/// `--root DIR`, `-h, --help`.
fn flag(arg: &Arg) -> Vec<Inline> {
    let mut out = Vec::new();
    if let Some(short) = arg.get_short() {
        out.push(bold(format!("-{short}")));
        if arg.get_long().is_some() {
            out.push(roman(", "));
        }
    }
    if let Some(long) = arg.get_long() {
        out.push(bold(format!("--{long}")));
    }
    if arg.get_action().takes_values() {
        out.push(roman(" "));
        out.push(italic(value_name(arg)));
    }
    out
}

fn value_name(arg: &Arg) -> String {
    match arg.get_value_names() {
        Some(names) if !names.is_empty() => names
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        _ => arg.get_id().as_str().to_uppercase(),
    }
}

fn repeats(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Append)
        || arg.get_num_args().is_some_and(|n| n.max_values() > 1)
}

/// Each argument as a tagged paragraph: its flag and value name, its help, its values.
fn options<'a>(r: &mut Roff, args: impl Iterator<Item = &'a Arg>) {
    for arg in args.filter(|a| !a.is_hide_set()) {
        r.control("TP", []);
        if arg.is_positional() {
            r.text([italic(value_name(arg))]);
        } else {
            r.text(flag(arg));
        }
        let help = arg
            .get_long_help()
            .or_else(|| arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let mut text = context_graph::util::one_line(&help);
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() && arg.get_action().takes_values() && !text.contains("default") {
            text.push_str(&format!(" (default: {})", defaults.join(", ")));
        }
        r.text([roman(text)]);
        let values: Vec<_> = arg
            .get_possible_values()
            .into_iter()
            .filter(|v| !v.is_hide_set())
            .collect();
        if values.is_empty() || matches!(arg.get_action(), ArgAction::SetTrue) {
            continue;
        }
        if values.iter().any(|v| v.get_help().is_some()) {
            r.control("RS", []);
            for v in &values {
                r.control("TP", []);
                r.text([bold(v.get_name())]);
                let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                r.text([roman(context_graph::util::one_line(&help))]);
            }
            r.control("RE", []);
        } else {
            r.control("br", []);
            let mut line = vec![roman("One of: ")];
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    line.push(roman(", "));
                }
                line.push(bold(v.get_name()));
            }
            line.push(roman("."));
            r.text(line);
        }
    }
}

fn exit_status(r: &mut Roff, command: Option<&str>) {
    r.control("SH", ["EXIT STATUS"]);
    let entries: &[(&str, &str)] = match command {
        Some("hook") => &[
            ("0", "Whatever happens to context-graph: a hook never stands in git's way. What went wrong is said in one line on stderr."),
            ("1", "Strict mode (git config context-graph.strict true) refused a commit whose message cites none of the decisions governing its staged paths."),
        ],
        _ => &[
            ("0", "No problem found (warnings allowed), or a question (why, record, index, context, coverage, a write) answered."),
            ("1", "The full check found a problem; review --strict: a decision the range touches is not cited."),
            ("2", "Bad input, said in one line on stderr starting \"context-graph:\": no records, an unreadable --root or --docs, an unknown record id, a path outside the root, an invalid .context-graph.toml, a write refused, a command line not understood; install-hooks: husky or lefthook owns the hooks."),
        ],
    };
    for (code, text) in entries {
        r.control("TP", []);
        r.text([bold(*code)]);
        r.text([roman(*text)]);
    }
    if command.is_none() {
        r.control("PP", []);
        r.text([roman("The hook command exits 0 whatever happens, except 1 for strict mode's refusal of an uncited commit.")]);
    }
}

/// Every variable the binary reads (`NO_COLOR`, `CONTEXT_GRAPH_*`; a test compares this list
/// with the source).
fn environment(r: &mut Roff) {
    r.control("SH", ["ENVIRONMENT"]);
    let entries: [(&str, &str); 10] = [
        ("NO_COLOR", "Set (to anything): no colour, even on a terminal. Without it, colour only when stdout is a terminal."),
        ("CONTEXT_GRAPH_INDEX_WAIT_MS", "How long a query waits for an index another process is writing, in milliseconds (default 3000); then it answers from a scan."),
        ("CONTEXT_GRAPH_MENTIONS", "off: find no code mentions (for measuring what they cost)."),
        ("CONTEXT_GRAPH_AFTER", "Set by the installed post-commit hook for the refresh it starts in the background: the process id of the git to wait for. Not for users."),
        ("CONTEXT_GRAPH_CHECKED", "Set by the installed post-commit hook for the refresh it starts: what the commit-msg hook found. Not for users."),
        ("CONTEXT_GRAPH_DETACHED", "Set in the refresh a hook starts in the background. Not for users."),
        ("CONTEXT_GRAPH_FAILPOINTS", "Read by debug builds only (the tests'): write failures to inject. A release build reads no such variable."),
        ("CONTEXT_GRAPH_TRACE", "Read by debug builds only (the tests'): a folder where each file whose imports are parsed is counted. A release build reads no such variable."),
        ("VISUAL, EDITOR", "The editor new, supersede and amend open with --edit (default vi)."),
        ("GIT_INDEX_FILE, GIT_EDITOR, GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_CONFIG_PARAMETERS", "As git sets them for its hooks: the hook command reads them (the last, what `git -c` gives the command).",),
    ];
    for (name, text) in entries {
        r.control("TP", []);
        r.text([bold(name)]);
        r.text([roman(text)]);
    }
}

fn files(r: &mut Roff) {
    r.control("SH", ["FILES"]);
    for (name, text) in [
        (".context-graph.toml", "At the root: record folders, statuses, scope and hooks settings; command-line flags win over it."),
        ("$GIT_DIR/context-graph/", "The index (index.redb), a cache of git and the files, rebuilt when damaged; the hooks' log (hooks.log)."),
    ] {
        r.control("TP", []);
        r.text([bold(name)]);
        r.text([roman(text)]);
    }
}

fn see_also(r: &mut Roff, names: &[String]) {
    let mut line = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            line.push(roman(", "));
        }
        line.push(bold(name.as_str()));
        line.push(roman(format!("({SECTION})")));
    }
    r.text(line);
}
