//! Never in the way (ADR-0008), as a new user meets the hooks: a `.git/context-graph` that
//! cannot be written, docs/hooks.md's husky and lefthook lines without the binary, a subject that
//! starts with `#` under `-m`, fixup and squash commits.

use super::{decisions, git, install, ok, stderr};
use crate::git::GitRepo;

/// Asserts nothing but git spoke: no shell error, no line of ours.
fn quiet(out: &std::process::Output, what: &str) {
    let err = ok(out, what);
    for bad in ["context-graph", "cannot", "sh: ", "No such", "Permission"] {
        assert!(!err.contains(bad), "{what}: {err}");
    }
}

/// Runs commit, checkout, merge and rebase, cited commits in strict mode, through the hooks
/// with `.git/context-graph` as `spoil` leaves it; an uncited commit is still refused.
fn every_operation_succeeds_quietly(repo: &GitRepo) {
    repo.git(&["config", "context-graph.strict", "true"]);
    let run = |args: &[&str]| git(repo, args, &[]);
    repo.write("src/auth/login.py", "a = 1\n");
    quiet(&run(&["add", "-A"]), "add");
    let before = repo.head();
    quiet(
        &run(&["commit", "-q", "-m", "Shorter tokens (ADR-0001)"]),
        "a cited commit",
    );
    assert_ne!(repo.head(), before);
    quiet(
        &run(&["commit", "-q", "--amend", "-m", "Short tokens (ADR-0001)"]),
        "an amend",
    );
    quiet(&run(&["checkout", "-q", "-b", "topic"]), "checkout -b");
    repo.write("src/pay/charge.py", "b = 1\n");
    quiet(
        &run(&["commit", "-q", "-a", "-m", "Gateway (ADR-0002)"]),
        "a commit on the topic",
    );
    quiet(&run(&["checkout", "-q", "main"]), "checkout main");
    repo.write("README.md", "# Main\n");
    quiet(
        &run(&["commit", "-q", "-a", "-m", "Main"]),
        "an ungoverned commit",
    );
    quiet(
        &run(&["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"]),
        "merge",
    );
    quiet(
        &run(&["checkout", "-q", "-b", "later", "topic"]),
        "checkout",
    );
    quiet(&run(&["rebase", "-q", "main"]), "rebase");
    // Strict mode's refusal still passes through.
    repo.write("src/auth/token.py", "t = 9\n");
    let before = repo.head();
    let out = run(&["commit", "-q", "-a", "-m", "Uncited"]);
    assert!(!out.status.success(), "strict refuses: {}", stderr(&out));
    assert!(stderr(&out).contains("ADR-0001"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("cannot"), "{}", stderr(&out));
    assert_eq!(repo.head(), before);
}

#[test]
fn a_regular_file_in_place_of_the_index_folder_blocks_nothing() {
    let repo = decisions();
    install(&repo);
    let dir = repo.path().join(".git/context-graph");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::write(&dir, "not a folder\n").expect("a file in its place");
    every_operation_succeeds_quietly(&repo);
    assert!(dir.is_file(), "left as it was");
}

#[test]
fn an_index_folder_nothing_can_be_written_in_blocks_nothing() {
    let repo = decisions();
    install(&repo);
    let dir = repo.path().join(".git/context-graph");
    std::fs::create_dir_all(&dir).expect("mkdir");
    // Folders where the hooks write their notes and log: no one, root included, can write them.
    for name in ["message-source", "checked", "hooks.log"] {
        std::fs::create_dir_all(dir.join(name).join("x")).expect("a folder in its place");
    }
    // And, for anyone but root, a folder made read-only (as one root made would be).
    let root = rustix::process::geteuid().is_root();
    if !root {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    }
    every_operation_succeeds_quietly(&repo);
    if !root {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// The fenced block of docs/hooks.md holding the line `marker`, without its fences.
fn hooks_page_block(marker: &str) -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/hooks.md"))
        .expect("read docs/hooks.md");
    let at = readme.find(marker).expect("docs/hooks.md shows the lines");
    let start = readme[..at].rfind("```").expect("a fence before");
    let start = start + readme[start..].find('\n').expect("the fence's line") + 1;
    let end = at + readme[at..].find("```").expect("a fence after");
    readme[start..end].to_string()
}

/// The husky lines, by hook: (name, line).
fn husky_lines() -> Vec<(String, String)> {
    let block = hooks_page_block("# .husky/commit-msg");
    let lines: Vec<&str> = block.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(name) = l.strip_prefix("# .husky/") {
            out.push((name.to_string(), lines[i + 1].to_string()));
        }
    }
    out
}

/// The lefthook commands, by hook: (name, run).
fn lefthook_runs() -> Vec<(String, String)> {
    let block = hooks_page_block("# lefthook.yml");
    let docs = yaml_rust2::YamlLoader::load_from_str(&block).expect("valid YAML");
    let map = docs[0].as_hash().expect("a map of hooks");
    map.iter()
        .map(|(k, v)| {
            let run = v["commands"]["context-graph"]["run"]
                .as_str()
                .expect("a run line");
            (k.as_str().expect("a name").to_string(), run.to_string())
        })
        .collect()
}

/// The arguments git passes the hook `name`, for a message in `msg`.
fn hook_args(name: &str, msg: &str) -> Vec<String> {
    match name {
        "commit-msg" => vec![msg.to_string()],
        "prepare-commit-msg" => vec![msg.to_string(), "message".to_string()],
        "post-merge" => vec!["0".to_string()],
        "post-checkout" => vec!["HEAD".to_string(), "HEAD".to_string(), "1".to_string()],
        "post-rewrite" => vec!["amend".to_string()],
        _ => Vec::new(),
    }
}

/// Runs a line of docs/hooks.md as husky (`sh -e`, the hook's arguments) or lefthook (`sh -c`, `{N}`
/// replaced by the quoted arguments) would, with `path` as PATH.
fn run_line(
    repo: &GitRepo,
    manager: &str,
    name: &str,
    line: &str,
    msg: &str,
    path: &str,
) -> std::process::Output {
    let args = hook_args(name, msg);
    let mut cmd = repo.command("sh");
    if manager == "husky" {
        cmd.args(["-e", "-c", line, name]).args(&args);
    } else {
        let mut run = line.to_string();
        for n in 1..=3 {
            let arg = args.get(n - 1).map(String::as_str).unwrap_or("");
            run = run.replace(&format!("{{{n}}}"), &format!("'{arg}'"));
        }
        cmd.args(["-c", &run]);
    }
    cmd.env("PATH", path).output().expect("run sh")
}

#[test]
fn the_readmes_husky_and_lefthook_lines_fail_open_and_let_strict_mode_through() {
    let manifest = env!("CARGO_MANIFEST_DIR");
    for (marker, file) in [
        ("# .husky/commit-msg", "husky"),
        ("# lefthook.yml", "lefthook.yml"),
    ] {
        let kept = std::fs::read_to_string(format!("{manifest}/hooks/managers/{file}"))
            .expect("read the kept lines");
        assert_eq!(
            hooks_page_block(marker),
            kept,
            "docs/hooks.md shows {file} as kept"
        );
    }
    let repo = decisions();
    repo.git(&["config", "context-graph.strict", "true"]);
    repo.write("src/auth/login.py", "a = 1\n");
    repo.git(&["add", "-A"]);
    let msg = repo.env().path().join("MSG");
    let msg_path = msg.to_str().expect("utf-8");
    let without = super::robust::path_without_us();
    let ours = repo.env().path().join("ours");
    std::fs::create_dir_all(&ours).expect("mkdir");
    std::os::unix::fs::symlink(super::bin(), ours.join("context-graph")).expect("link");
    let with = format!("{}:{without}", ours.display());
    let husky = husky_lines();
    let lefthook = lefthook_runs();
    assert_eq!(husky.len(), 6, "{husky:?}");
    assert_eq!(lefthook.len(), 6, "{lefthook:?}");
    for (manager, lines) in [("husky", &husky), ("lefthook", &lefthook)] {
        for (name, line) in lines {
            std::fs::write(&msg, "Uncited\n").expect("write");
            let out = run_line(&repo, manager, name, line, msg_path, &without);
            let err = stderr(&out);
            assert!(out.status.success(), "{manager} {name}: {err}");
            assert_eq!(
                err,
                format!("context-graph: not found on PATH; the {name} hook goes on without it\n"),
                "{manager} {name}"
            );
        }
        let commit_msg = &lines
            .iter()
            .find(|(n, _)| n == "commit-msg")
            .expect("one")
            .1;
        std::fs::write(&msg, "Uncited\n").expect("write");
        let out = run_line(&repo, manager, "commit-msg", commit_msg, msg_path, &with);
        assert_eq!(out.status.code(), Some(1), "{manager}: {}", stderr(&out));
        assert!(stderr(&out).contains("ADR-0001"), "{}", stderr(&out));
        std::fs::write(&msg, "Cited (ADR-0001)\n").expect("write");
        let out = run_line(&repo, manager, "commit-msg", commit_msg, msg_path, &with);
        assert_eq!(out.status.code(), Some(0), "{manager}: {}", stderr(&out));
    }
    // And through git, as husky 9 runs them: `.husky/_/NAME` runs `.husky/NAME` with `sh -e`.
    repo.git(&["config", "core.hooksPath", ".husky/_"]);
    let dir = repo.path().join(".husky/_");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, line) in &husky {
        std::fs::write(repo.path().join(".husky").join(name), format!("{line}\n")).expect("write");
        let runner = dir.join(name);
        std::fs::write(
            &runner,
            format!("#!/bin/sh\nexec sh -e \"${{0%/*}}/../{name}\" \"$@\"\n"),
        )
        .expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&runner, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let env = [("PATH", without.as_str())];
    let before = repo.head();
    ok(
        &git(&repo, &["commit", "-q", "-m", "Uncited"], &env),
        "commit",
    );
    assert_ne!(repo.head(), before, "committed without the binary");
    ok(
        &git(&repo, &["checkout", "-q", "-b", "x"], &env),
        "checkout",
    );
    repo.write("src/auth/login.py", "a = 2\n");
    let env = [("PATH", with.as_str())];
    let before = repo.head();
    let out = git(&repo, &["commit", "-q", "-a", "-m", "Uncited"], &env);
    assert!(!out.status.success(), "strict refuses: {}", stderr(&out));
    assert_eq!(repo.head(), before);
}

/// Stages a change to a path ADR-0001 governs, strict mode on.
fn staged_governed(repo: &GitRepo, n: usize) {
    repo.git(&["config", "context-graph.strict", "true"]);
    repo.write("src/auth/login.py", &format!("a = {n}\n"));
    repo.git(&["add", "-A"]);
}

#[test]
fn a_subject_starting_with_the_comment_character_follows_gits_cleanup() {
    let repo = decisions();
    install(&repo);
    let subject = "#3306 Fix user (ADR-0001)";
    // `-m` keeps the line (cleanup `whitespace`): the commit cites, strict mode lets it in.
    staged_governed(&repo, 1);
    let before = repo.head();
    quiet(&git(&repo, &["commit", "-q", "-m", subject], &[]), "-m");
    assert_ne!(repo.head(), before);
    assert_eq!(repo.git(&["log", "-1", "--format=%s"]).trim(), subject);
    // So does `-F`.
    staged_governed(&repo, 2);
    let file = repo.env().path().join("MSG");
    std::fs::write(&file, format!("{subject}\n")).expect("write");
    let f = file.to_str().expect("utf-8");
    quiet(&git(&repo, &["commit", "-q", "-F", f], &[]), "-F");
    // Where git strips the line, it does not cite: `--cleanup=strip`, `-c commit.cleanup=strip`,
    // `commit.cleanup`, and the editor's default.
    let refused = |args: &[&str], env: &[(&str, &str)], what: &str| {
        staged_governed(&repo, 3);
        let before = repo.head();
        let out = git(&repo, args, env);
        assert!(!out.status.success(), "{what}: refused");
        assert!(
            stderr(&out).contains("ADR-0001"),
            "{what}: {}",
            stderr(&out)
        );
        assert_eq!(repo.head(), before, "{what}");
    };
    let strip = [
        "commit",
        "-q",
        "--cleanup=strip",
        "-m",
        subject,
        "-m",
        "Body",
    ];
    refused(&strip, &[], "--cleanup=strip");
    let strip = [
        "commit",
        "-q",
        "--cleanup",
        "strip",
        "-m",
        subject,
        "-m",
        "Body",
    ];
    refused(&strip, &[], "--cleanup strip");
    let c = [
        "-c",
        "commit.cleanup=strip",
        "commit",
        "-q",
        "-m",
        subject,
        "-m",
        "Body",
    ];
    refused(&c, &[], "-c commit.cleanup=strip");
    repo.git(&["config", "commit.cleanup", "strip"]);
    refused(
        &["commit", "-q", "-m", subject, "-m", "Body"],
        &[],
        "commit.cleanup",
    );
    // The command line wins over the configuration.
    staged_governed(&repo, 4);
    let kept = ["commit", "-q", "--cleanup=whitespace", "-m", subject];
    quiet(&git(&repo, &kept, &[]), "--cleanup=whitespace");
    repo.git(&["config", "--unset", "commit.cleanup"]);
    let editor = repo.env().path().join("editor.sh");
    std::fs::write(
        &editor,
        format!("#!/bin/sh\nprintf '%s\\n\\nBody\\n' '{subject}' >\"$1\"\n"),
    )
    .expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let ed = editor.to_str().expect("utf-8");
    refused(&["commit", "-q"], &[("GIT_EDITOR", ed)], "the editor");
}

#[test]
fn a_fixup_or_squash_commit_counts_its_targets_citations() {
    let repo = decisions();
    install(&repo);
    staged_governed(&repo, 1);
    let msg = [
        "commit",
        "-q",
        "-m",
        "Shorter tokens",
        "-m",
        "Per ADR-0001.",
    ];
    quiet(&git(&repo, &msg, &[]), "the cited target");
    let target = repo.head();
    staged_governed(&repo, 2);
    quiet(
        &git(&repo, &["commit", "-q", "--fixup", "HEAD"], &[]),
        "--fixup HEAD",
    );
    assert_eq!(
        repo.git(&["log", "-1", "--format=%s"]).trim(),
        "fixup! Shorter tokens"
    );
    staged_governed(&repo, 3);
    quiet(
        &git(
            &repo,
            &["commit", "-q", "--squash", &target, "-m", "And more"],
            &[],
        ),
        "--squash",
    );
    // A fixup of an uncited commit is still refused.
    staged_governed(&repo, 4);
    quiet(
        &git(
            &repo,
            &["commit", "-q", "--no-verify", "-m", "Uncited"],
            &[],
        ),
        "past the hooks",
    );
    staged_governed(&repo, 5);
    let before = repo.head();
    let out = git(&repo, &["commit", "-q", "--fixup", "HEAD"], &[]);
    assert!(!out.status.success(), "refused: {}", stderr(&out));
    assert_eq!(repo.head(), before);
}

#[test]
fn hooks_in_a_global_folder_ask_for_force_and_leave_a_repository_without_records_alone() {
    let repo = decisions();
    let global = repo.env().path().join("global-hooks");
    let global_s = global.to_str().expect("utf-8").to_string();
    // Set for every repository, as `git config --global core.hooksPath` does.
    repo.git(&["config", "--global", "core.hooksPath", &global_s]);
    let run = repo.run(&["install-hooks"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr.contains("outside this repository: every repository whose core.hooksPath names it runs these hooks")
            && run.stderr.contains("--force"),
        "{}",
        run.describe()
    );
    assert!(!global.exists(), "nothing written");
    let run = repo.run(&["install-hooks", "--force"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(global.join("post-commit").is_file());

    // Another repository, with no record folders, under the same hooks.
    let plain = GitRepo::new();
    plain.git(&["config", "core.hooksPath", &global_s]);
    plain
        .write("src/a.py", "a = 1\n")
        .write("README.md", "# Plain\n");
    plain.git(&["add", "-A"]);
    let run = |args: &[&str]| quiet(&git(&plain, args, &[]), &args.join(" "));
    run(&["commit", "-q", "-m", "Start"]);
    run(&["checkout", "-q", "-b", "topic"]);
    plain.write("src/a.py", "a = 2\n");
    run(&["commit", "-q", "-a", "-m", "Topic"]);
    run(&["checkout", "-q", "main"]);
    run(&["merge", "-q", "--no-ff", "-m", "Merge", "topic"]);
    run(&["commit", "-q", "--amend", "-m", "Merged"]);
    for out in [
        git(
            &plain,
            &["commit", "-q", "--allow-empty", "-m", "Empty"],
            &[],
        ),
        git(&plain, &["checkout", "-q", "-b", "later"], &[]),
    ] {
        let err = ok(&out, "quiet");
        assert_eq!(err, "", "no output");
    }
    // Give a background refresh, had one started, the time to leave its files.
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        !plain.path().join(".git/context-graph").exists(),
        "no index, no side files"
    );
}

#[test]
fn the_first_refresh_after_install_does_not_make_git_wait() {
    let repo = decisions();
    let run = repo.run(&["install-hooks"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let dir = repo.path().join(".git/context-graph");
    assert!(dir.is_dir(), "install-hooks made the index's folder");
    // Even without it (removed), the first refresh goes on in the background: named by its
    // note, and done by the time `index --status` answers.
    std::fs::remove_dir_all(&dir).expect("remove");
    repo.write("src/free.py", "b = 1\n");
    repo.git(&["add", "-A"]);
    quiet(&git(&repo, &["commit", "-q", "-m", "Free"], &[]), "commit");
    assert!(dir.is_dir());
    let status = repo.index_status();
    assert_eq!(status["fresh"], true, "{status:#}");
    assert_eq!(status["indexed_head"], repo.head().as_str(), "{status:#}");
}

#[test]
fn a_new_worktree_builds_its_index_in_the_background() {
    let repo = decisions();
    install(&repo);
    let built = repo.run(&["index"]);
    assert_eq!(built.code, Some(0), "{}", built.describe());
    let wt = repo.env().path().join("wt");
    let wt_s = wt.to_str().expect("utf-8");
    quiet(
        &git(&repo, &["worktree", "add", "-q", "-b", "topic", wt_s], &[]),
        "worktree add",
    );
    // The refresh went on in a process of its own: its log is the one it was started with,
    // and `index --status` waits for it, then says fresh.
    let dir = repo.path().join(".git/worktrees/wt/context-graph");
    assert!(dir.join("hooks.log").is_file(), "started in the background");
    let status = repo.env().run_in(&wt, ["index", "--status", "--json"]);
    let status = status.json();
    let log = std::fs::read_to_string(dir.join("hooks.log")).unwrap_or_default();
    assert_eq!(status["fresh"], true, "{status:#}\nhooks.log:\n{log}");
    assert_eq!(status["indexed_head"], repo.head().as_str(), "{status:#}");
    // Started from the main worktree's index, it answers as a scan does.
    let asked = ["why", "src/auth", "--git", "--json"];
    let from_index = repo.env().run_in(&wt, asked);
    let scanned = repo
        .env()
        .run_in(&wt, ["why", "src/auth", "--git", "--json", "--no-index"]);
    assert_eq!(from_index.code, Some(0), "{}", from_index.describe());
    assert_eq!(from_index.stdout(), scanned.stdout());
    assert!(
        !from_index.stderr.contains("note"),
        "{}",
        from_index.describe()
    );
}
