//! `completions SHELL`, `man` and `schema`: what a packager installs beside the binary, each
//! generated from the definitions the binary itself uses (docs/pictures.md; ADR-0015).

use super::{ui, Cli};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum)]
    shell: Shell,
}

/// The completion script for a shell, from the clap definition.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<u8> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "context-graph", &mut out);
    ui::emit(&String::from_utf8(out)?)?;
    Ok(0)
}

/// The man page (roff), from the clap definition: the main page, then each subcommand's.
pub fn man() -> anyhow::Result<u8> {
    let command = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("context-graph-{}", sub.get_name());
        let sub = sub.clone().display_name(name.clone()).bin_name(name);
        clap_mangen::Man::new(sub).render(&mut out)?;
    }
    ui::emit(&String::from_utf8(out)?)?;
    Ok(0)
}

/// The JSON Schema of every `--json` document.
pub fn schema() -> anyhow::Result<u8> {
    ui::emit(&context_graph::output::json::render(
        &context_graph::output::schema::document(),
    ))?;
    Ok(0)
}
