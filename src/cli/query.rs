//! `check`, `why PATH` and `record ID`: one question answered, rendered, and the exit code.

use super::ui::{self, Bar};
use clap::Args;
use context_graph::output::{json, markdown};
use context_graph::{Ask, Options, Session};

#[derive(Args)]
pub struct WhyArgs {
    /// A path relative to the current folder (to the root when run from outside it), or
    /// absolute, inside the root
    path: String,
}

impl WhyArgs {
    pub fn ask(self) -> Ask {
        Ask::Why(self.path)
    }
}

/// A plain `why PATH` command line, read without building clap's parser (about half a
/// million instructions, a tenth of a warm answer; issue 17): `why` once, one PATH, and any of
/// `--root DIR` (or `--root=DIR`), `--git`, `--json`, `--no-index`, each at most once, before
/// or after it, as clap takes them (they are global). `None` for anything else (another
/// option, a value that starts with `-` or is empty, an argument that is not UTF-8, a repeated
/// option): clap parses those as before, so its errors and help stay its own.
pub fn why_line(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<super::Cli> {
    let mut args = args.into_iter();
    let (mut root, mut path, mut why) = (None, None, false);
    let (mut git, mut json, mut no_index) = (false, false, false);
    let set = |flag: &mut bool| (!std::mem::replace(flag, true)).then_some(());
    let plain = |v: &str| !v.is_empty() && !v.starts_with('-');
    while let Some(arg) = args.next() {
        let arg = arg.into_string().ok()?;
        match arg.as_str() {
            "--git" => set(&mut git)?,
            "--json" => set(&mut json)?,
            "--no-index" => set(&mut no_index)?,
            "--root" if root.is_none() => {
                let dir = args.next()?.into_string().ok()?;
                root = Some(dir).filter(|d| plain(d));
                root.as_ref()?;
            }
            a if a.starts_with("--root=") && root.is_none() => {
                root = Some(a["--root=".len()..].to_string()).filter(|d| plain(d));
                root.as_ref()?;
            }
            "why" if !why => why = true,
            a if why && path.is_none() && plain(a) => path = Some(arg),
            _ => return None,
        }
    }
    Some(super::Cli {
        command: Some(super::Command::Why(WhyArgs { path: path? })),
        why: None,
        record: None,
        common: super::Common {
            root: root.map(std::path::PathBuf::from),
            docs: Vec::new(),
            json,
            git,
            no_index,
        },
    })
}

#[derive(Args)]
pub struct RecordArgs {
    /// ADR-0004, ADR-4, adr-4, "ADR 4", or a bare number when one record has it
    id: String,
}

impl RecordArgs {
    pub fn ask(self) -> Ask {
        Ask::Record(self.id)
    }
}

pub fn run(opts: Options, ask: Ask, json_out: bool) -> anyhow::Result<u8> {
    let bar = Bar::new();
    let progress = |done: usize, total: usize| bar.set(done, total);
    let mut session = Session::open(opts)?;
    let answer = session.answer(&ask, Some(&progress))?;
    bar.finish();
    ui::diagnostics(&answer.diagnostics);
    if let Some(note) = match &ask {
        Ask::Why(p) => session.absent_note(p),
        Ask::Check => session.folders_beside(answer.report.records.len()),
        _ => None,
    } {
        ui::say(&note);
    }
    let report = answer.report;
    if json_out {
        // Streamed: a long answer is not held whole besides the report (ADR-0011).
        ui::emit_with(|out| json::write(&report, out))?;
        let code = context_graph::exit_code(&ask, &report) as u8;
        std::mem::forget(report);
        return Ok(code);
    }
    let text = {
        let style = ui::style();
        match ask {
            Ask::Check => markdown::check(&report, style),
            Ask::Why(_) => markdown::why(&report, style),
            Ask::Record(_) => markdown::record(&report, style),
        }
    };
    ui::emit(&text)?;
    let code = context_graph::exit_code(&ask, &report) as u8;
    // The process ends here: freeing a long answer piece by piece was a twentieth of a query.
    std::mem::forget(report);
    std::mem::forget(text);
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// What a command line comes to: the path asked about and the common options.
    type Read = (String, Option<std::path::PathBuf>, bool, bool, bool);

    fn read(cli: super::super::Cli) -> Option<Read> {
        let c = cli.common;
        match (cli.command, cli.why, cli.record) {
            (Some(super::super::Command::Why(w)), None, None) if c.docs.is_empty() => {
                Some((w.path, c.root, c.git, c.json, c.no_index))
            }
            _ => None,
        }
    }

    fn line(args: &[&str]) -> Vec<std::ffi::OsString> {
        args.iter().map(Into::into).collect()
    }

    fn by_clap(args: &[&str]) -> Option<Read> {
        let all = std::iter::once("context-graph").chain(args.iter().copied());
        super::super::Cli::try_parse_from(all).ok().and_then(read)
    }

    #[test]
    fn plain_why_lines_are_read_as_clap_reads_them() {
        for args in [
            &["why", "src/"][..],
            &["why", "src/lib.rs", "--git", "--json"],
            &["--root", "/tmp/r", "why", "src/mod1/", "--git", "--json"],
            &["--root=/tmp/r", "why", "src/mod1/", "--json"],
            &["--json", "why", "--git", "a b/c.rs", "--no-index"],
            &["why", "src", "--root", "../other"],
            &["--git", "--json", "--no-index", "--root", "r", "why", "why"],
            &["why", "help"],
            &["why", "."],
        ] {
            let fast = why_line(line(args)).and_then(read);
            assert!(fast.is_some(), "{args:?}");
            assert_eq!(fast, by_clap(args), "{args:?}");
        }
    }

    #[test]
    fn any_other_line_is_left_to_clap() {
        for args in [
            &[][..],
            &["why"],
            &["why", "a", "b"],
            &["why", "--", "a"],
            &["why", "-x"],
            &["why", ""],
            &["why", "a", "--json", "--json"],
            &["why", "a", "--git", "--git"],
            &["why", "a", "--root", "r", "--root", "s"],
            &["why", "a", "--root"],
            &["why", "a", "--root", "-r"],
            &["why", "a", "--root="],
            &["why", "a", "--docs", "adr"],
            &["why", "a", "--help"],
            &["why", "a", "-h"],
            &["--why", "a"],
            &["why", "why", "a"],
            &["record", "ADR-1"],
            &["a", "why"],
            &["check", "--json"],
            &["--version"],
        ] {
            assert!(why_line(line(args)).is_none(), "{args:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let mut args = line(&["why"]);
            args.push(std::ffi::OsString::from_vec(vec![0xff, b'm']));
            assert!(why_line(args).is_none());
        }
    }
}
