//! The README's examples are run, so they never go stale (issue 40).
//!
//! The convention: every fenced block of `README.md` whose info string is `console` is an
//! example. In it, a line starting `$ ` is a command, and the lines after it, up to the next
//! command or the block's end, are what it prints: stdout and stderr as a terminal shows them
//! (the command runs as `sh -c 'COMMAND' 2>&1`), compared exactly but for trailing newlines,
//! and it must exit 0. The blocks run in order in one repository: `fixtures/readme/` committed
//! by Ana on 2025-03-01, then one edit of `src/payments/gateway.py` committed by Ben on
//! 2025-04-02, in the hermetic [`TestEnv`](crate::env::TestEnv) (pinned author, committer and
//! dates, so every commit, and so every sha the README shows, is the same on every machine).
//! `context-graph` on the command line is the binary under test (its folder is first on PATH).
//! Other blocks (`sh`, `yaml`, `json`) are not run.
//!
//! Before each command the test waits for the hooks' background refresh (`index --status`
//! waits for it, ADR-0008), as a user's next command finds it finished.

use crate::env::BIN;
use crate::fixture::{copy_dir, fixture_dir};
use crate::git::GitRepo;
use std::path::Path;

/// One command of a `console` block and what it prints.
struct Example {
    /// The line of `README.md` the command is on (1-based).
    line: usize,
    command: String,
    expected: String,
}

/// Every command of every `console` block of `text`, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if in_console {
            if fence {
                in_console = false;
            } else if let Some(command) = line.strip_prefix("$ ") {
                out.push(Example {
                    line: i + 1,
                    command: command.to_string(),
                    expected: String::new(),
                });
            } else {
                let example = out
                    .last_mut()
                    .unwrap_or_else(|| panic!("README.md:{}: output before a command", i + 1));
                example.expected.push_str(line);
                example.expected.push('\n');
            }
        } else if in_other {
            in_other = !fence;
        } else if fence {
            if line.trim() == "```console" {
                in_console = true;
            } else {
                in_other = true;
            }
        }
    }
    out
}

/// The repository the examples run in.
fn repository() -> GitRepo {
    let repo = GitRepo::new();
    copy_dir(&fixture_dir("readme"), repo.path());
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start the shop");
    repo.write(
        "src/payments/gateway.py",
        "def charge(order):\n    return provider.charge(order)\n",
    );
    repo.commit_at("2025-04-02T10:00:00Z", "Ben", "Charge through the provider");
    repo
}

/// `command` run by `sh` in the work tree, stderr joined to stdout: (exit code, output).
fn run(repo: &GitRepo, command: &str) -> (Option<i32>, String) {
    let bin_dir = Path::new(BIN).parent().expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let out = repo
        .command("sh")
        .arg("-c")
        .arg(format!("{command} 2>&1"))
        .env("PATH", path)
        .output()
        .expect("run sh");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Waits for the hooks' background refresh, if one runs: `index --status` waits for it.
fn settle(repo: &GitRepo) {
    if repo.path().join(".git/context-graph").is_dir() {
        run(repo, "context-graph index --status >/dev/null");
    }
}

#[test]
fn the_readme_examples_print_what_the_readme_says() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("read README.md");
    let examples = examples(&readme);
    // The quick start's steps are all there, so an example cannot be dropped unnoticed.
    for step in [
        "context-graph",
        "context-graph why ",
        "context-graph install-hooks",
        "git commit ",
        "context-graph new ",
        "context-graph review ",
        "context-graph context ",
    ] {
        assert!(
            examples.iter().any(|e| e.command.starts_with(step)),
            "the README has no console example starting `$ {step}`"
        );
    }
    let repo = repository();
    let mut stale = Vec::new();
    for example in &examples {
        settle(&repo);
        let (code, got) = run(&repo, &example.command);
        let (want, got) = (example.expected.trim_end(), got.trim_end());
        if code != Some(0) || want != got {
            stale.push(format!(
                "README.md:{}: `$ {}` exited {code:?} and printed:\n{got}\n--- the README says:\n{want}\n",
                example.line, example.command
            ));
        }
    }
    settle(&repo);
    assert!(
        stale.is_empty(),
        "{} README example(s) are stale:\n\n{}",
        stale.len(),
        stale.join("\n")
    );
}

#[test]
fn a_console_block_is_split_into_commands_and_their_output() {
    let text = "intro\n```sh\n$ not run\n```\n```console\n$ a\none\n\ntwo\n$ b\n```\n";
    let got = examples(text);
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].line, got[0].command.as_str()), (6, "a"));
    assert_eq!(got[0].expected, "one\n\ntwo\n");
    assert_eq!(
        (got[1].command.as_str(), got[1].expected.as_str()),
        ("b", "")
    );
}
