//! The completion scripts in the shells themselves (issue 39): bash completes each
//! subcommand's flags and values, as a user pressing TAB would get them; zsh and fish load
//! their scripts; no hidden command is offered; fish offers no files where none is taken.

use super::on_path;
use crate::env::TestEnv;

/// The script for `shell`, written into the env's folder.
fn script(env: &TestEnv, shell: &str) -> std::path::PathBuf {
    let run = env.run(["completions", shell]);
    run.assert_code(0);
    let file = env.path().join(format!("context-graph.{shell}"));
    std::fs::write(&file, &run.stdout).expect("write the script");
    file
}

/// What bash's completion offers for the command line `line` (the cursor at its end; a line
/// ending in a space completes a new word): the function `complete -p` names for the command,
/// run as bash runs it on TAB.
fn bash_offers(
    env: &TestEnv,
    bash: &std::path::Path,
    file: &std::path::Path,
    line: &str,
) -> Vec<String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if line.ends_with(' ') {
        words.push("");
    }
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        r#"source '{file}' || exit 3
spec=$(complete -p context-graph) || exit 4
fn=$(printf '%s\n' "$spec" | sed -n 's/.*-F \([^ ]*\).*/\1/p')
COMP_WORDS=({words})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE='{line}'
COMP_POINT=${{#COMP_LINE}}
cur="${{COMP_WORDS[COMP_CWORD]}}"
prev="${{COMP_WORDS[COMP_CWORD-1]}}"
"$fn" context-graph "$cur" "$prev"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        file = file.display(),
        words = quoted.join(" "),
    );
    let out = env
        .command(bash)
        .arg("--norc")
        .arg("-c")
        .arg(&program)
        .output()
        .expect("run bash");
    assert!(out.status.success(), "bash on {line:?}: {out:?}");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn bash_completes_each_subcommand_s_flags_and_values() {
    let Some(bash) = on_path(&["bash"]) else {
        crate::skip::skipped("bash is not on PATH to run its completion");
        return;
    };
    let env = TestEnv::new();
    let file = script(&env, "bash");
    let offers = |line: &str| bash_offers(&env, &bash, &file, line);
    // The value of a subcommand's option: the formats, not the files of the folder.
    assert_eq!(
        offers("context-graph graph --format "),
        ["mermaid", "dot", "json"]
    );
    assert_eq!(offers("context-graph graph --format d"), ["dot"]);
    assert_eq!(offers("context-graph --json graph --format j"), ["json"]);
    // A subcommand's flags, a hyphenated one's too.
    let graph = offers("context-graph graph --");
    for flag in [
        "--format",
        "--focus",
        "--depth",
        "--all",
        "--governs",
        "--root",
    ] {
        assert!(
            graph.iter().any(|f| f == flag),
            "graph: no {flag} in {graph:?}"
        );
    }
    assert_eq!(offers("context-graph review --str"), ["--strict"]);
    assert_eq!(offers("context-graph install-hooks --fo"), ["--force"]);
    // A positional argument's values (with the flags, as clap_complete offers them first).
    let shells = offers("context-graph completions ");
    let (flags, values): (Vec<&String>, Vec<&String>) =
        shells.iter().partition(|w| w.starts_with('-'));
    assert_eq!(values, ["bash", "elvish", "fish", "powershell", "zsh"]);
    assert!(flags.iter().any(|f| *f == "--help"), "{shells:?}");
    assert_eq!(offers("context-graph completions z"), ["zsh"]);
    assert_eq!(offers("context-graph hook post-m"), ["post-merge"]);
    // The subcommands, and no hidden one.
    let top = offers("context-graph ");
    for sub in [
        "check",
        "why",
        "graph",
        "install-hooks",
        "completions",
        "coverage",
    ] {
        assert!(top.iter().any(|s| s == sub), "no {sub} in {top:?}");
    }
    assert!(!top.iter().any(|s| s.contains("refresh")), "{top:?}");
    assert!(offers("context-graph ref").is_empty());
}

#[test]
fn zsh_loads_its_script_and_offers_no_hidden_command() {
    let env = TestEnv::new();
    let file = script(&env, "zsh");
    let text = std::fs::read_to_string(&file).expect("the script");
    assert!(!text.contains("refresh-after-write"));
    let Some(zsh) = on_path(&["zsh"]) else {
        crate::skip::skipped("zsh is not on PATH to load its completion script");
        return;
    };
    // compinit, then the script: it defines its function and registers it for the command.
    let program = format!(
        "autoload -Uz compinit && compinit -u -d '{dump}' && source '{file}' && \
         (( $+functions[_context-graph] )) && [[ $_comps[context-graph] == _context-graph ]]",
        dump = env.path().join("zcompdump").display(),
        file = file.display()
    );
    let out = env
        .command(zsh)
        .arg("-f")
        .arg("-c")
        .arg(&program)
        .output()
        .expect("run zsh");
    assert!(out.status.success(), "zsh: {out:?}");
    assert!(
        out.stderr.is_empty(),
        "zsh: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn fish_completes_values_and_offers_no_files_where_none_is_taken() {
    let Some(fish) = on_path(&["fish"]) else {
        crate::skip::skipped("fish is not on PATH to load its completion script");
        return;
    };
    let env = TestEnv::new();
    let file = script(&env, "fish");
    std::fs::create_dir_all(env.path().join("docs/adr")).expect("a folder");
    std::fs::write(env.path().join("notes.txt"), "x").expect("a file");
    let offers = |line: &str| -> Vec<String> {
        let out = env
            .command(&fish)
            .arg("--no-config")
            .arg("-c")
            .arg(format!("source '{}'; complete -C '{line}'", file.display()))
            .output()
            .expect("run fish");
        assert!(out.status.success(), "fish on {line:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "fish: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("UTF-8")
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(
        offers("context-graph completions "),
        ["bash", "elvish", "fish", "powershell", "zsh"]
    );
    assert!(offers("context-graph schema ").is_empty());
    assert!(offers("context-graph index n").is_empty());
    assert_eq!(offers("context-graph hook post-m"), ["post-merge"]);
    assert_eq!(offers("context-graph graph --format j"), ["json"]);
    // Options that take a folder or a path still complete them, and `why` its PATH.
    assert_eq!(offers("context-graph index --docs d"), ["docs/"]);
    assert_eq!(offers("context-graph why n"), ["notes.txt"]);
    let top = offers("context-graph ");
    assert!(top.iter().any(|s| s == "install-hooks"), "{top:?}");
    assert!(!top.iter().any(|s| s.contains("refresh")), "{top:?}");
}
