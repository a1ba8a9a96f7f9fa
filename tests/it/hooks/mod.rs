//! The git hooks (docs/hooks.md, ADR-0008), through real git operations with the hooks
//! installed by the binary, a file per side:
//! - `install`: install-hooks and uninstall-hooks: a fresh folder, over someone else's hook, twice,
//!   `core.hooksPath`, a linked worktree, husky and lefthook;
//! - `commit`: the warning, strict mode, the hint in the message template, `hook pre-commit`
//!   alone, the index git commits from;
//! - `refresh`: the index fresh after commit, merge, checkout, amend, rebase and cherry-pick;
//! - `robust`: the binary gone, someone else's failing hook, merges and sequences left alone;
//! - `staged`: the staged paths against `git diff --cached`;
//! - `quiet`: no warning a reader would not want (bots, releases, generated files, whitespace,
//!   the record's own edit), and a decision named once per branch;
//! - `fifo`: a FIFO ignore file or `hooks.log` holds up no query, commit or checkout;
//! - `unechoed`: a change sharing next to nothing with the record gets one line.
//!
//! Here: a repository with decisions of every status, and git run with its output kept.

mod added_alike;
mod aside;
mod branch_base;
mod broad;
mod commit;
mod config;
mod fifo;
mod install;
mod layout;
mod never;
mod other_settings;
mod own_record;
mod quiet;
mod refresh;
mod renames;
mod robust;
mod staged;
mod unechoed;
mod written_cites;

use crate::env::BIN;
use crate::fixture::adr;
use crate::git::GitRepo;
use std::process::Output;

/// A repository whose decisions govern `src/auth/` (ADR-0001, accepted), `src/pay/` (ADR-0002,
/// accepted), `src/legacy/` (ADR-0003, superseded by ADR-0002) and `src/old/` (ADR-0004,
/// deprecated); `src/free.py` and `README.md` are governed by none. One commit, made with no
/// hooks.
pub fn decisions() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-tokens.md",
        &adr(
            1,
            "Tokens expire after an hour",
            "Accepted",
            Some("2025-01-01"),
            "The login code in `src/auth/` keeps tokens short-lived.",
        ),
    )
    .write(
        "docs/adr/0002-payments.md",
        &adr(
            2,
            "Payments go through one gateway",
            "Accepted",
            Some("2025-01-02"),
            "Supersedes ADR-0003.\n\nEverything in `src/pay/` calls the gateway.",
        ),
    )
    .write(
        "docs/adr/0003-old-payments.md",
        &adr(
            3,
            "Payments by invoice",
            "Superseded by ADR-0002",
            Some("2024-06-01"),
            "The code in `src/legacy/` sends invoices.",
        ),
    )
    .write(
        "docs/adr/0004-xml.md",
        &adr(
            4,
            "Configuration in XML",
            "Deprecated",
            Some("2024-01-01"),
            "The code in `src/old/` reads XML.",
        ),
    )
    .write("src/auth/login.py", "def login(): pass\n")
    .write("src/auth/token.py", "def token(): pass\n")
    .write("src/pay/charge.py", "def charge(): pass\n")
    .write("src/legacy/invoice.py", "def invoice(): pass\n")
    .write("src/old/config.py", "def config(): pass\n")
    .write("src/free.py", "def free(): pass\n")
    .write("README.md", "# Project\n");
    repo.commit_at("2025-02-01T10:00:00Z", "Ana", "Start");
    repo
}

/// `context-graph install-hooks` in the work tree, which must succeed.
pub fn install(repo: &GitRepo) -> String {
    let run = repo.run(&["install-hooks"]);
    assert_eq!(run.code, Some(0), "install-hooks: {}", run.describe());
    run.stdout()
}

/// Git with `args` and extra variables, its output kept whatever its exit status.
pub fn git(repo: &GitRepo, args: &[&str], env: &[(&str, &str)]) -> Output {
    repo.command("git")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run git")
}

/// stderr of a git run, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the git run succeeded; returns its stderr.
pub fn ok(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        stderr(out)
    );
    stderr(out)
}

/// Stages everything and commits it with `message`, hooks running; git's stderr.
pub fn commit_all(repo: &GitRepo, message: &str) -> String {
    ok(&git(repo, &["add", "-A"], &[]), "git add");
    ok(
        &git(repo, &["commit", "-q", "-m", message], &[]),
        "git commit",
    )
}

/// Writes `text` to `rel`, stages it and commits it with `message`, hooks running. Returns git's
/// output.
pub fn commit(repo: &GitRepo, rel: &str, text: &str, message: &str) -> Output {
    repo.write(rel, text);
    ok(&git(repo, &["add", "--", rel], &[]), "git add");
    git(repo, &["commit", "-q", "-m", message], &[])
}

/// A repository of one record, ADR-0001 (`file` in `docs/adr/`, accepted on 2025-01-01, its
/// title and decision text), and `files`, committed with the hooks installed; with
/// `[hooks] OFF = false` in `.context-graph.toml` when `off` names a switch.
pub fn one_record(
    (file, title, text): (&str, &str, &str),
    files: &[(&str, &str)],
    off: Option<&str>,
) -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        &format!("docs/adr/{file}"),
        &crate::fixture::adr(1, title, "Accepted", Some("2025-01-01"), text),
    );
    for (path, content) in files {
        repo.write(path, content);
    }
    if let Some(key) = off {
        repo.write(".context-graph.toml", &format!("[hooks]\n{key} = false\n"));
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

/// Whether git's stderr holds the full warning about ADR-0001.
pub fn warned_in_full(err: &str) -> bool {
    err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001,")
}

/// The hook said `line` of the decision, and no full warning.
pub fn said_in_one_line(err: &str, line: &str) {
    assert!(err.contains(line), "{err}");
    assert!(!warned_in_full(err), "{err}");
}

/// The hook warned in full, and did not say `line`.
pub fn warned_not_in_one_line(err: &str, line: &str) {
    assert!(warned_in_full(err), "{err}");
    assert!(!err.contains(line), "{err}");
}

/// `review BASE..HEAD` of a range whose one quiet commit is `quiet` (its subject), kept quiet for
/// `reason`, and whose commit `warned` is counted uncited under the first decision; the Markdown
/// says why in `says`.
pub fn review_quiet(
    repo: &GitRepo,
    base: &str,
    (quiet, reason): (&str, &str),
    warned: &str,
    says: &str,
) {
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let query = run.json()["query"].clone();
    let listed = query["quiet"].as_array().expect("quiet").clone();
    assert_eq!(listed.len(), 1, "{query:#}");
    assert_eq!(listed[0]["reason"], reason, "{query:#}");
    assert_eq!(listed[0]["subject"], quiet, "{query:#}");
    let commits = query["decisions"][0]["commits"]
        .as_array()
        .expect("commits");
    assert!(
        commits
            .iter()
            .any(|c| c["subject"] == warned && c["cites_record"] == false),
        "{query:#}"
    );
    let text = repo.run(&["review", &format!("{base}..HEAD")]).stdout();
    assert!(text.contains(says), "{text}");
}

/// The path of the binary the tests run.
pub fn bin() -> &'static str {
    BIN
}
