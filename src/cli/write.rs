//! `init`, `new`, `supersede`, `amend`, `status`: records written in the repository's own
//! conventions (docs/writing.md, ADR-0013). After a write the index is brought up to date by a
//! refresh of this binary in the background, as the git hooks' is (ADR-0008): named by a note
//! that `index --status` waits on.

use super::ui;
use clap::{Args, ValueEnum};
use context_graph::app::write::{self, Format, NewArgs};
use context_graph::model::WriteReport;
use context_graph::output::{json, write as say};
use context_graph::{Options, Session};
use std::path::PathBuf;

/// What every write takes.
#[derive(Args)]
pub struct WriteFlags {
    /// Write nothing: print what would be written, and the diff
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub struct NewCmd {
    /// The new record's title
    title: String,
    #[command(flatten)]
    new: NewFlags,
}

/// `new`'s options, shared by `supersede` and `amend`.
#[derive(Args)]
pub struct NewFlags {
    /// The new record's status (default: the folder's default_status; Accepted where adr-tools writes; else proposed)
    #[arg(long, value_name = "WORD")]
    status: Option<String>,
    /// A record the new one supersedes, marked superseded in its own form (repeatable)
    #[arg(long, value_name = "ID")]
    supersedes: Vec<String>,
    /// A record the new one amends, marked "Amended by" in its own form (repeatable)
    #[arg(long, value_name = "ID")]
    amends: Vec<String>,
    /// A path the new record governs, relative to the current folder (repeatable)
    #[arg(long, value_name = "PATH")]
    governs: Vec<String>,
    /// The record folder to write in, when the repository has several
    #[arg(long, value_name = "DIR")]
    folder: Option<String>,
    /// The record's date, YYYY-MM-DD (default: today, UTC)
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    /// A template to fill instead of the folder's own
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// Open the new record in $VISUAL or $EDITOR once written
    #[arg(long)]
    edit: bool,
    /// Supersede or amend a record already superseded
    #[arg(long)]
    force: bool,
    /// Write the scope of the records superseded into the new one
    #[arg(long)]
    keep_scope: bool,
    #[command(flatten)]
    flags: WriteFlags,
}

#[derive(Args)]
pub struct RelateCmd {
    /// The record superseded or amended
    old: String,
    /// The new record's title
    title: String,
    #[command(flatten)]
    new: NewFlags,
}

#[derive(Args)]
pub struct StatusCmd {
    /// The record
    id: String,
    /// Its new status: accepted, deprecated, rejected, …
    word: String,
    /// Change a superseded record's status
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    flags: WriteFlags,
}

/// `rules …`: what a record's rules write (docs/rules.md, ADR-0021).
#[derive(Args)]
pub struct RulesCmd {
    #[command(subcommand)]
    action: RulesAction,
}

#[derive(clap::Subcommand)]
enum RulesAction {
    /// Write one `except` line per place the record's rules are broken today (reason `frozen
    /// DATE`) into its `context-graph` block: a baseline that only shrinks
    Freeze {
        /// The record
        id: String,
        #[command(flatten)]
        flags: WriteFlags,
    },
}

pub fn rules(opts: Options, cmd: RulesCmd, json_out: bool) -> anyhow::Result<u8> {
    match cmd.action {
        RulesAction::Freeze { id, flags } => written(opts, json_out, false, |s| {
            write::freeze_rules(s, &id, flags.dry_run)
        }),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum InitFormat {
    Nygard,
    Madr,
}

#[derive(Args)]
pub struct InitCmd {
    /// The first record's form: Nygard's (as adr-tools writes it) or MADR's
    #[arg(long, value_enum, default_value = "nygard")]
    format: InitFormat,
    /// The record folder to make (default: the existing record folder, else docs/adr)
    #[arg(long, value_name = "DIR")]
    folder: Option<String>,
    /// The first record's date, YYYY-MM-DD (default: today, UTC)
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    #[command(flatten)]
    flags: WriteFlags,
}

fn new_args(title: String, f: &NewFlags, opts: &Options) -> NewArgs {
    NewArgs {
        title,
        status: f.status.clone(),
        supersedes: f.supersedes.clone(),
        amends: f.amends.clone(),
        governs: f.governs.iter().map(|g| super::typed(opts, g)).collect(),
        folder: f.folder.clone(),
        date: f.date.clone(),
        template: f.template.clone(),
        force: f.force,
        dry_run: f.flags.dry_run,
        keep_scope: f.keep_scope,
    }
}

pub fn new(opts: Options, cmd: NewCmd, json_out: bool) -> anyhow::Result<u8> {
    let args = new_args(cmd.title, &cmd.new, &opts);
    written(opts, json_out, cmd.new.edit, |s| {
        write::new_record(s, &args)
    })
}

pub fn supersede(opts: Options, cmd: RelateCmd, json_out: bool) -> anyhow::Result<u8> {
    let mut args = new_args(cmd.title, &cmd.new, &opts);
    args.supersedes.insert(0, cmd.old);
    written(opts, json_out, cmd.new.edit, |s| {
        write::new_record(s, &args)
    })
}

pub fn amend(opts: Options, cmd: RelateCmd, json_out: bool) -> anyhow::Result<u8> {
    let mut args = new_args(cmd.title, &cmd.new, &opts);
    args.amends.insert(0, cmd.old);
    written(opts, json_out, cmd.new.edit, |s| {
        write::new_record(s, &args)
    })
}

pub fn status(opts: Options, cmd: StatusCmd, json_out: bool) -> anyhow::Result<u8> {
    written(opts, json_out, false, |s| {
        write::set_status(s, &cmd.id, &cmd.word, cmd.force, cmd.flags.dry_run)
    })
}

pub fn init(opts: Options, cmd: InitCmd, json_out: bool) -> anyhow::Result<u8> {
    let format = match cmd.format {
        InitFormat::Nygard => Format::Nygard,
        InitFormat::Madr => Format::Madr,
    };
    written(opts, json_out, false, |s| {
        write::init(
            s,
            format,
            cmd.folder.as_deref(),
            cmd.date.as_deref(),
            cmd.flags.dry_run,
        )
    })
}

/// The hidden command the background refresh runs.
pub fn refresh(opts: Options) -> anyhow::Result<u8> {
    // At nice 10, as the hooks' refresh (ADR-0008): it gives way to the write that started it,
    // still printing and exiting, and to the user's next command (ADR-0013).
    #[cfg(unix)]
    let _ = rustix::process::setpriority_process(None, 10);
    let mut session = Session::open(opts)?;
    write::refresh_after_write(&mut session)?;
    Ok(0)
}

/// Runs a write, opens the editor on a new record (`--edit`), prints what was written, and
/// starts the index's refresh.
fn written(
    opts: Options,
    json_out: bool,
    edit: bool,
    run: impl FnOnce(&Session) -> context_graph::Result<WriteReport>,
) -> anyhow::Result<u8> {
    let session = Session::open(opts.clone())?;
    let report = run(&session)?;
    if edit && !report.dry_run {
        if let Some(created) = report.written.iter().find(|w| w.action == "created") {
            open_editor(&session.root().join(&created.path))?;
        }
    }
    let text = if json_out {
        json::render(&report)
    } else {
        say::markdown(&report)
    };
    ui::diagnostics(&report.notes);
    if !report.dry_run && !report.written.is_empty() {
        start_refresh(&session, &opts);
    }
    ui::emit(&text)?;
    Ok(0)
}

/// `$VISUAL`, else `$EDITOR`, else `vi`, run by the shell with the file as its argument, as
/// git runs its editor.
fn open_editor(path: &std::path::Path) -> anyhow::Result<()> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "vi".to_string());
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(&editor)
        .arg(path)
        .status()
        .map_err(|e| anyhow::anyhow!("cannot start the editor {editor}: {e}"))?;
    if !status.success() {
        anyhow::bail!(
            "the editor {editor} failed ({status}); the record is written at {}",
            path.display()
        );
    }
    Ok(())
}

/// The index's refresh, in the background: this binary's hidden `refresh-after-write`, named
/// by a note beside the index; its failures go to `hooks.log` there. Nothing outside git or
/// with `--no-index`.
fn start_refresh(session: &Session, opts: &Options) {
    let Some(repo) = session.repository() else {
        return;
    };
    if opts.no_index {
        return;
    }
    let Some(dir) = context_graph::index::path_for(repo)
        .parent()
        .map(|d| d.to_path_buf())
    else {
        return;
    };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let log = context_graph::fs::read::open_log(&dir.join("hooks.log"));
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("--root").arg(session.root());
    for d in &opts.docs {
        cmd.arg("--docs").arg(d);
    }
    cmd.arg("refresh-after-write")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null());
    match log {
        Ok(f) => cmd.stderr(f),
        Err(_) => cmd.stderr(std::process::Stdio::null()),
    };
    if let Ok(child) = cmd.spawn() {
        let note = dir.join(format!(
            "{}{}",
            context_graph::index::inflight::PREFIX,
            child.id()
        ));
        let _ = context_graph::fs::read::open_log(&note);
    }
}
