//! The manual (issue 39): `man` prints one page with every command and names no other page;
//! `man --dir DIR` writes a page a command, and every page any of them names is written; each
//! page has a synopsis with value names, EXIT STATUS and ENVIRONMENT, and `groff -ww` (on the
//! plain ASCII device, the strictest) and `man -l` read it without a warning.

use super::on_path;
use crate::env::TestEnv;
use std::ffi::OsStr;
use std::path::Path;

/// The commands a user can type, as `--help` lists them (clap's `help` aside).
fn commands(env: &TestEnv) -> Vec<String> {
    let help = env.run(["--help"]);
    help.assert_code(0);
    let text = help.stdout();
    let list = text
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands section")
        .split("\n\n")
        .next()
        .expect("its lines");
    list.lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// `groff -ww` and `man -l` on the page: no warning, and the text `man` renders.
fn rendered(env: &TestEnv, page: &Path) -> Option<String> {
    let (Some(groff), Some(man)) = (on_path(&["groff"]), on_path(&["man"])) else {
        crate::skip::skipped("groff or man is not on PATH to read the man page");
        return None;
    };
    let out = env
        .command(groff)
        .args(["-ww", "-man", "-Tascii", "-z"])
        .arg(page)
        .output()
        .expect("run groff");
    assert!(out.status.success(), "groff: {out:?}");
    assert!(
        out.stderr.is_empty(),
        "groff -ww on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = env
        .command(man)
        .arg("-l")
        .arg(page)
        .env("MANWIDTH", "200")
        .output()
        .expect("run man");
    assert!(out.status.success(), "man -l: {out:?}");
    assert!(
        out.stderr.is_empty(),
        "man -l on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("UTF-8"))
}

/// The pages `text` names, `NAME(1)`.
fn named_pages(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in text.match_indices("(1)") {
        let name: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The sections every page has, and its synopsis with value names.
fn assert_sections(text: &str, what: &str) {
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "EXIT STATUS",
        "ENVIRONMENT",
    ] {
        assert!(
            text.contains(&format!("\n{section}\n")),
            "{what}: no {section} section:\n{text}"
        );
    }
}

#[test]
fn man_prints_one_page_with_every_command_and_names_no_other_page() {
    let env = TestEnv::new();
    let run = env.run(["man"]);
    run.assert_code(0);
    let page = run.stdout();
    assert_eq!(page.matches("\n.TH ").count(), 1, "one page");
    assert!(page.contains(".TH \"context-graph\" \"1\""), "{page}");
    // The synopsis names each option's value.
    assert!(page.contains("[\\fB\\-\\-root\\fR \\fIDIR\\fR]"), "{page}");
    assert!(page.contains("[\\fB\\-\\-record\\fR \\fIID\\fR]"), "{page}");
    // Each command has its part, with its own synopsis; no hidden one.
    for command in commands(&env) {
        assert!(
            page.contains(&format!(
                "\n.SS {command}\n\\fBcontext\\-graph\\fR \\fB{}\\fR",
                command.replace('-', "\\-")
            )),
            "no part for {command}"
        );
    }
    assert!(
        page.contains("[\\fB\\-\\-format\\fR \\fIFORMAT\\fR]"),
        "graph's synopsis"
    );
    assert!(
        page.contains("[\\fB\\-\\-focus\\fR \\fIID|PATH\\fR]"),
        "graph's synopsis"
    );
    assert!(!page.contains("refresh\\-after"), "a hidden command");
    let file = env.path().join("context-graph.1");
    std::fs::write(&file, &page).expect("write the page");
    let Some(text) = rendered(&env, &file) else {
        return;
    };
    assert_sections(&text, "context-graph(1)");
    assert!(
        text.contains("\nCOMMANDS\n") && text.contains("\nFILES\n"),
        "{text}"
    );
    assert_eq!(
        named_pages(&text),
        ["context-graph"],
        "names another page:\n{text}"
    );
    assert!(
        text.contains("context-graph graph [--format FORMAT] [--focus ID|PATH] [--depth N]"),
        "{text}"
    );
}

#[test]
fn man_dir_writes_a_page_a_command_and_every_page_named() {
    let env = TestEnv::new();
    let dir = env.path().join("man/man1");
    let run = env.run([OsStr::new("man"), OsStr::new("--dir"), dir.as_os_str()]);
    run.assert_code(0);
    let mut expected = vec!["context-graph.1".to_string()];
    expected.extend(
        commands(&env)
            .iter()
            .map(|c| format!("context-graph-{c}.1")),
    );
    let listed: Vec<String> = run
        .stdout()
        .lines()
        .map(|l| {
            Path::new(l)
                .strip_prefix(&dir)
                .unwrap_or_else(|_| panic!("{l} is not in {}", dir.display()))
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(listed, expected, "each page written, said once");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    on_disk.sort();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(on_disk, sorted);
    for file in &expected {
        let page = std::fs::read_to_string(dir.join(file)).expect("the page");
        assert_eq!(page.matches("\n.TH ").count(), 1, "{file}: one page");
        let Some(text) = rendered(&env, &dir.join(file)) else {
            return;
        };
        assert_sections(&text, file);
        for named in named_pages(&text) {
            assert!(
                dir.join(format!("{named}.1")).is_file(),
                "{file} names {named}(1), which is not written"
            );
        }
        if file != "context-graph.1" {
            assert!(
                text.contains("SEE ALSO\n       context-graph(1)"),
                "{file}:\n{text}"
            );
        }
    }
    let why = rendered(&env, &dir.join("context-graph-why.1")).expect("rendered above");
    assert!(
        why.contains(
            "context-graph why [--root DIR] [--docs DIR]... [--json] [--git] [--no-index] PATH"
        ),
        "{why}"
    );
    let hook = rendered(&env, &dir.join("context-graph-hook.1")).expect("rendered above");
    let status = hook.split("EXIT STATUS").nth(1).expect("EXIT STATUS");
    assert!(
        status.contains("a hook never stands in git's way") && !status.contains("\n       2 "),
        "{hook}"
    );
    // A man folder as `man -M` reads it.
    if let Some(man) = on_path(&["man"]) {
        let out = env
            .command(man)
            .arg("-M")
            .arg(env.path().join("man"))
            .arg("context-graph-graph")
            .output()
            .expect("run man");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "man -M: {out:?}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("--focus"));
    }
}

#[test]
fn the_environment_section_names_every_variable_the_binary_reads() {
    // Every `CONTEXT_GRAPH_…` name in the source, but the hook scripts' placeholder for the
    // binary's path (`@CONTEXT_GRAPH_BIN@`), which is no variable.
    let mut names = vec!["NO_COLOR".to_string()];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            for (at, _) in text.match_indices("CONTEXT_GRAPH_") {
                let name: String = text[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                let placeholder = text[..at].ends_with('@');
                if !placeholder && name.len() > "CONTEXT_GRAPH_".len() && !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    assert!(names.len() >= 6, "{names:?}");
    let env = TestEnv::new();
    let page = env.run(["man"]).stdout();
    let environment = page
        .split(".SH ENVIRONMENT")
        .nth(1)
        .and_then(|s| s.split("\n.SH ").next())
        .expect("an ENVIRONMENT section");
    for name in names {
        assert!(
            environment.contains(&format!("\\fB{name}\\fR")),
            "ENVIRONMENT does not name {name}:\n{environment}"
        );
    }
}
