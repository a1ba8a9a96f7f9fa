//! What reaches the terminal: the report on stdout (a closed pipe ends quietly), notes and
//! progress on stderr (progress only on a TTY), colour only on a TTY with `NO_COLOR` unset.

use context_graph::output::markdown::Style;
use std::io::{IsTerminal, Write};

/// Stdout was closed under us (`| head`): not an error, the reader has what it wanted.
#[derive(Debug, thiserror::Error)]
#[error("stdout was closed")]
pub struct ClosedPipe;

/// Writes the report to stdout.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(ClosedPipe.into()),
        Err(e) => Err(anyhow::anyhow!("cannot write the report: {e}")),
    }
}

/// Writes an answer to stdout with `write`, as [`emit`] does with a text. `write` buffers what
/// it writes itself (as `json::write` does): a second buffer here only copied the answer again.
pub fn emit_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(ClosedPipe.into()),
        Err(e) => Err(anyhow::anyhow!("cannot write the report: {e}")),
    }
}

/// The notes on how an answer was found, one line each on stderr.
pub fn diagnostics(notes: &[String]) {
    for d in notes {
        eprintln!("context-graph: note: {d}");
    }
}

/// A word about what was asked (a path neither tracked nor on disk), one line on stderr: the
/// answer is still given, exit 0 (docs/commands.md).
pub fn say(note: &str) {
    eprintln!("context-graph: {note}");
}

/// Colour only when stdout is a terminal and `NO_COLOR` is unset.
pub fn style() -> Style {
    Style {
        colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub fn new() -> Bar {
        if !std::io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = indicatif::ProgressBar::hidden();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "indexing history {bar:30} {pos}/{len} commits ({eta})",
            )
            .expect("the template is valid"),
        );
        Bar(Some(bar))
    }

    pub fn set(&self, done: usize, total: usize) {
        if let Some(bar) = &self.0 {
            if bar.is_hidden() && total > 1000 {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// A damaged index file can make redb panic; the library catches that and rebuilds, so the
/// panic's message must not reach the user as if the tool had crashed.
pub fn quiet_handled_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A stored value failing its checksum on another thread: that thread's owner, which
        // joins it, is the one to catch it (ADR-0011).
        let damage_elsewhere = context_graph::index::is_damage(info.payload())
            && std::thread::current().name() != Some("main");
        if !context_graph::index::panic_is_handled() && !damage_elsewhere {
            default(info);
        }
    }));
}
