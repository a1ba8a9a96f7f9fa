//! `completions SHELL`, `man` and `schema`: what a packager installs beside the binary, each
//! generated from the definitions the binary itself uses (docs/pictures.md; ADR-0015).

use super::{manpage, ui, Cli};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete in
    #[arg(value_enum)]
    shell: Shell,
}

/// The completion script for a shell, from the clap definition, with what clap_complete 4.6
/// gets wrong for this binary put right (see [`bash_states`], [`fish_values`]).
pub fn completions(args: CompletionsArgs) -> anyhow::Result<u8> {
    ui::emit(&script(args.shell))?;
    Ok(0)
}

/// The binary's name, as the shells complete it.
const BIN: &str = "context-graph";

/// The completion script for `shell`.
pub fn script(shell: Shell) -> String {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, BIN, &mut out);
    let script = String::from_utf8_lossy(&out).into_owned();
    match shell {
        Shell::Bash => bash_states(&script),
        Shell::Fish => fish_values(script, &command),
        _ => script,
    }
}

/// clap_complete's bash script tracks the words typed in a state named from the binary's
/// name with `-` as `__` (`context__graph__subcmd__graph`), but names the states it completes
/// in with `-` as `__subcmd__` (`context__subcmd__graph__subcmd__graph`): with a hyphen in the
/// binary's name no subcommand's flags or values ever complete (clap-rs/clap#6421, open in
/// 4.6.12). The second spelling is made the first; where clap_complete agrees already this
/// changes nothing.
fn bash_states(script: &str) -> String {
    let typed = format!("{}__subcmd__", BIN.replace('-', "__"));
    let labelled = format!("{}__subcmd__", BIN.replace('-', "__subcmd__"));
    script.replace(&labelled, &typed)
}

/// clap_complete's fish script completes no positional argument, so fish offers files after
/// `completions`, `hook` or `schema`. Each subcommand whose positional arguments have a fixed
/// set of values is given them, and one that takes no file gets none (`-f`); options that
/// take a path keep their own `-F`.
fn fish_values(mut script: String, command: &clap::Command) -> String {
    let fn_name = BIN.replace('-', "_");
    let mut lines = Vec::new();
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let positionals: Vec<&clap::Arg> = sub.get_positionals().collect();
        let values: Vec<String> = positionals
            .iter()
            .flat_map(|a| a.get_possible_values())
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        let condition = format!("__fish_{fn_name}_using_subcommand {}", sub.get_name());
        if !values.is_empty() {
            lines.push(format!(
                "complete -c {BIN} -n \"{condition}\" -f -a \"{}\"",
                values.join(" ")
            ));
        } else if positionals.is_empty() {
            lines.push(format!("complete -c {BIN} -n \"{condition}\" -f"));
        }
    }
    if !lines.is_empty() {
        script.push_str(
            "\n# The values of positional arguments, and no files where none is taken.\n",
        );
        script.push_str(&lines.join("\n"));
        script.push('\n');
    }
    script
}

#[derive(Args)]
pub struct ManArgs {
    /// Write the pages into DIR, one a command (context-graph.1, context-graph-why.1, …),
    /// instead of the one page with every command to stdout
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    dir: Option<std::path::PathBuf>,
}

/// The manual: `context-graph(1)` with every command on stdout, or with `--dir` a page a
/// command written there, each file's path printed (docs/pictures.md).
pub fn man(args: ManArgs) -> anyhow::Result<u8> {
    let mut command = Cli::command();
    command.build();
    let Some(dir) = args.dir else {
        ui::emit(&manpage::main_page(&command, false).text)?;
        return Ok(0);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("man --dir {}: {e}", dir.display()))?;
    let mut written = String::new();
    for page in manpage::pages(&command) {
        let path = dir.join(&page.file);
        std::fs::write(&path, page.text)
            .map_err(|e| anyhow::anyhow!("man --dir: cannot write {}: {e}", path.display()))?;
        written.push_str(&format!("{}\n", path.display()));
    }
    ui::emit(&written)?;
    Ok(0)
}

/// The JSON Schema of every `--json` document.
pub fn schema() -> anyhow::Result<u8> {
    ui::emit(&context_graph::output::json::render(
        &context_graph::output::schema::document(),
    ))?;
    Ok(0)
}
