//! `install-hooks` and `uninstall-hooks`: where the files go, what happens to someone else's
//! hooks, twice, and the managers we do not write into.

use super::{bin, commit, decisions, install, ok, stderr};
use crate::git::GitRepo;
use context_graph::hooks::{Hook, BEGIN, END};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const NAMES: [&str; 7] = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-merge",
    "post-checkout",
    "post-rewrite",
];

/// Every file in `dir` with its bytes and mode.
fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let e = e.expect("a folder entry");
        let meta = std::fs::symlink_metadata(e.path()).expect("stat a hook");
        let bytes = std::fs::read(e.path()).unwrap_or_default();
        out.insert(
            e.file_name().to_string_lossy().into_owned(),
            (bytes, meta.permissions().mode()),
        );
    }
    out
}

fn hooks_dir(repo: &GitRepo) -> PathBuf {
    repo.path().join(".git/hooks")
}

/// Writes an executable hook.
fn hook(dir: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(dir).expect("create the hooks folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a hook");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

#[test]
fn every_hook_is_written_whole_naming_the_binary_and_executable() {
    let repo = decisions();
    let out = install(&repo);
    let quoted = format!("'{}'", std::fs::canonicalize(bin()).expect("bin").display());
    for name in NAMES {
        let path = hooks_dir(&repo).join(name);
        let text = read(&path);
        let script = Hook::from_name(name).expect("a hook").script();
        assert_eq!(
            text,
            script.replace("@CONTEXT_GRAPH_BIN@", &quoted),
            "{name}"
        );
        assert!(
            text.starts_with("#!/bin/sh\n") && !text.contains('\r'),
            "{name}"
        );
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{name} is executable");
        assert!(
            out.contains(&format!("- `.git/hooks/{name}`: created")),
            "{name}: {out}"
        );
    }
    // The scripts in hooks/ are the ones built in, byte for byte.
    let project = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("hooks");
    for name in NAMES {
        let kept = read(&project.join(name));
        assert_eq!(
            kept,
            Hook::from_name(name).expect("a hook").script(),
            "{name}"
        );
    }
}

#[test]
fn installing_twice_changes_nothing() {
    let repo = decisions();
    install(&repo);
    let first = snapshot(&hooks_dir(&repo));
    let out = install(&repo);
    assert_eq!(snapshot(&hooks_dir(&repo)), first);
    assert_eq!(
        out.matches("already installed, unchanged").count(),
        7,
        "{out}"
    );
}

#[test]
fn someone_elses_hooks_are_kept_run_after_ours_and_given_back_by_uninstall() {
    let repo = decisions();
    let dir = hooks_dir(&repo);
    // A shell hook, one without a `#!` line, and one in another language.
    hook(
        &dir,
        "post-commit",
        "#!/bin/sh\necho \"post-commit ran\" >> .git/mine.log\n",
    );
    hook(
        &dir,
        "pre-commit",
        "echo \"pre-commit ran\" >> .git/mine.log\n",
    );
    hook(
        &dir,
        "commit-msg",
        "#!/usr/bin/perl\nopen(my $f, '>>', '.git/mine.log');\nprint $f \"commit-msg ran on $ARGV[0]\\n\";\n",
    );
    let before = snapshot(&dir);
    let out = install(&repo);
    assert!(
        out.contains("- `.git/hooks/post-commit`: added at the top"),
        "{out}"
    );
    assert!(
        out.contains("- `.git/hooks/pre-commit`: added at the top"),
        "{out}"
    );
    assert!(
        out.contains("- `.git/hooks/commit-msg`: the existing hook moved to `commit-msg.before-context-graph`"),
        "{out}"
    );
    let post = read(&dir.join("post-commit"));
    assert!(post.starts_with(&format!("#!/bin/sh\n{BEGIN}\n")), "{post}");
    assert!(post.ends_with(&format!(
        "{END}\necho \"post-commit ran\" >> .git/mine.log\n"
    )));
    assert_eq!(
        read(&dir.join("commit-msg.before-context-graph")).as_bytes(),
        before["commit-msg"].0.as_slice()
    );

    // All three still run, ours with them: the commit warns and each hook of theirs logs.
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Change login",
    );
    let err = ok(&out, "git commit");
    assert!(err.contains("ADR-0001"), "{err}");
    let log = read(&repo.path().join(".git/mine.log"));
    assert!(log.contains("pre-commit ran"), "{log}");
    assert!(
        log.contains("commit-msg ran on .git/COMMIT_EDITMSG"),
        "{log}"
    );
    assert!(log.contains("post-commit ran"), "{log}");

    // Uninstall: theirs exactly as they were, ours gone.
    let run = repo.run(&["uninstall-hooks"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    assert!(
        text.contains("- `.git/hooks/post-commit`: our part removed, the rest of the hook kept"),
        "{text}"
    );
    assert!(text.contains("- `.git/hooks/commit-msg`: our part removed, `commit-msg.before-context-graph` put back"), "{text}");
    assert!(
        text.contains("- `.git/hooks/post-merge`: deleted: nothing else was in it"),
        "{text}"
    );
    let after = snapshot(&dir);
    let left: Vec<&String> = after.keys().filter(|k| !k.ends_with(".sample")).collect();
    assert_eq!(
        left,
        ["commit-msg", "post-commit", "pre-commit"],
        "{after:?}"
    );
    for name in ["commit-msg", "post-commit", "pre-commit"] {
        assert_eq!(after[name], before[name], "{name} is as it was");
    }
    // A second uninstall finds nothing of ours.
    let again = repo.run(&["uninstall-hooks"]).stdout();
    assert_eq!(again.matches("nothing of ours in it").count(), 7, "{again}");
}

#[test]
fn core_hooks_path_is_relative_to_the_top_of_the_work_tree() {
    let repo = decisions();
    repo.git(&["config", "core.hooksPath", ".githooks"]);
    // A folder inside the work tree is shared with every clone once committed: it takes
    // --force, and nothing is written without it.
    let run = repo.run(&["install-hooks"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr
            .contains("inside the work tree: once committed, every clone runs these hooks")
            && run.stderr.contains("context-graph install-hooks --force"),
        "{}",
        run.describe()
    );
    assert!(!repo.path().join(".githooks").exists());
    // Run from a subfolder: the hooks still go where git looks for them.
    let run = repo
        .env()
        .run_in(&repo.path().join("src/auth"), ["install-hooks", "--force"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    // They name no path of this machine: `context-graph` comes from PATH.
    let script = read(&repo.path().join(".githooks/commit-msg"));
    assert!(script.contains("__cg_bin=''\n"), "{script}");
    assert!(!script.contains(bin()), "{script}");
    let text = run.stdout();
    assert!(
        text.contains("Hooks folder: `.githooks` (core.hooksPath = `.githooks`)"),
        "{text}"
    );
    for name in NAMES {
        assert!(repo.path().join(".githooks").join(name).is_file(), "{name}");
        assert!(
            !hooks_dir(&repo).join(name).exists(),
            "{name} not in .git/hooks"
        );
    }
    let ours = repo.env().path().join("ours");
    std::fs::create_dir_all(&ours).expect("mkdir");
    std::os::unix::fs::symlink(bin(), ours.join("context-graph")).expect("link");
    let path = format!(
        "{}:{}",
        ours.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    repo.write("src/auth/login.py", "def login(): return 2\n");
    repo.git(&["add", "-A"]);
    let out = super::git(
        &repo,
        &["commit", "-q", "-m", "Change login"],
        &[("PATH", &path)],
    );
    assert!(stderr(&out).contains("ADR-0001"), "{}", stderr(&out));
}

#[test]
fn a_linked_worktree_shares_the_common_hooks_folder_and_keeps_its_own_index() {
    let repo = decisions();
    let wt = repo.linked_worktree("wt", "topic");
    let run = repo.env().run_in(&wt, ["install-hooks"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    let common = repo.path().join(".git/hooks");
    assert!(
        text.contains(&format!("Hooks folder: `{}`", common.display())),
        "{text}"
    );
    for name in NAMES {
        assert!(common.join(name).is_file(), "{name}");
    }
    // A commit in the worktree: its staged paths are read from its own index.
    std::fs::write(wt.join("src/pay/charge.py"), "def charge(): return 1\n").expect("write");
    let add = repo
        .command("git")
        .current_dir(&wt)
        .args(["add", "src/pay/charge.py"])
        .output()
        .expect("git add");
    ok(&add, "git add");
    let out = repo
        .command("git")
        .current_dir(&wt)
        .args(["commit", "-q", "-m", "Charge more"])
        .output()
        .expect("git commit");
    let err = ok(&out, "git commit in the worktree");
    assert!(err.contains("ADR-0002"), "{err}");
    assert!(!err.contains("ADR-0001"), "{err}");
    let status = repo.env().run_in(&wt, ["index", "--status", "--json"]);
    let status = status.json();
    assert_eq!(status["fresh"], true, "{status:#}");
    assert!(
        status["path"]
            .as_str()
            .expect("path")
            .ends_with(".git/worktrees/wt/context-graph/index.redb"),
        "{status:#}"
    );
    // The main work tree's index was never built: nothing ran there.
    assert!(!repo.index_file().exists());
}

#[test]
fn husky_and_lefthook_are_told_how_to_add_us_and_nothing_is_written() {
    let husky = decisions();
    husky.git(&["config", "core.hooksPath", ".husky/_"]);
    hook(
        &husky.path().join(".husky/_"),
        "h",
        "#!/usr/bin/env sh\n# husky\n",
    );
    let before = snapshot(&husky.path().join(".husky/_"));
    let run = husky.run(&["install-hooks"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    let text = run.stdout();
    assert!(text.contains("Nothing written: husky manages"), "{text}");
    assert!(text.contains("core.hooksPath = .husky/_"), "{text}");
    assert!(
        text.contains("context-graph hook commit-msg \"$1\""),
        "{text}"
    );
    assert_eq!(snapshot(&husky.path().join(".husky/_")), before);

    let lefthook = decisions();
    lefthook.write("lefthook.yml", "pre-commit:\n  commands: {}\n");
    let before = snapshot(&hooks_dir(&lefthook));
    let run = lefthook.run(&["install-hooks", "--json"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    let json = run.json();
    assert_eq!(json["managed_by"]["name"], "lefthook", "{json:#}");
    assert_eq!(json["managed_by"]["evidence"], "lefthook.yml", "{json:#}");
    assert_eq!(json["files"], serde_json::json!([]), "{json:#}");
    assert_eq!(snapshot(&hooks_dir(&lefthook)), before);
    let md = lefthook.run(&["install-hooks"]).stdout();
    assert!(
        md.contains("context-graph hook commit-msg {1} || [ $? -ne 1 ] || exit 1"),
        "{md}"
    );
}

#[test]
fn a_hook_git_skips_is_left_alone() {
    let repo = decisions();
    let off = hooks_dir(&repo).join("post-merge");
    std::fs::write(&off, "#!/bin/sh\nexit 1\n").expect("write");
    std::fs::set_permissions(&off, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let out = install(&repo);
    assert!(
        out.contains("- `.git/hooks/post-merge`: left alone: the file is not executable"),
        "{out}"
    );
    assert_eq!(read(&off), "#!/bin/sh\nexit 1\n");
}

#[test]
fn the_pre_commit_frameworks_hooks_call_the_hook_of_their_stage() {
    let text = read(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"));
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).expect("valid YAML");
    let hooks = docs[0].as_vec().expect("a list of hooks");
    let mut stages = Vec::new();
    let mut system = Vec::new();
    let ids: Vec<&str> = hooks.iter().filter_map(|h| h["id"].as_str()).collect();
    for h in hooks {
        let entry = h["entry"].as_str().expect("entry");
        let name = entry
            .strip_prefix("context-graph hook ")
            .expect("calls `hook`");
        assert!(NAMES.contains(&name), "{entry}");
        let stage: Vec<&str> = h["stages"]
            .as_vec()
            .expect("stages")
            .iter()
            .map(|s| s.as_str().expect("a stage"))
            .collect();
        assert_eq!(stage, [name], "{entry}");
        // Each hook twice: built by the framework (rust), or the installed binary (system,
        // its id the rust one's with `-system`; ADR-0015).
        let id = h["id"].as_str().expect("an id");
        match h["language"].as_str() {
            Some("rust") => stages.push(name),
            Some("system") => {
                let built = id.strip_suffix("-system").expect("a -system id");
                assert!(ids.contains(&built), "{id} has no rust twin");
                system.push(name);
            }
            other => panic!("{id}: language {other:?}"),
        }
    }
    stages.sort_unstable();
    system.sort_unstable();
    let mut all = NAMES.to_vec();
    all.sort_unstable();
    assert_eq!(stages, all, "one hook per stage");
    assert_eq!(system, all, "one installed-binary hook per stage");
}

#[test]
fn a_link_to_a_shared_hook_is_chained_and_put_back() {
    let repo = decisions();
    let shared = repo.env().path().join("shared-hook");
    std::fs::write(&shared, "#!/bin/sh\necho shared >> .git/shared.log\n").expect("write");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let dir = hooks_dir(&repo);
    std::os::unix::fs::symlink(&shared, dir.join("post-commit")).expect("link");
    // A dangling link is left alone, as git would skip it.
    std::os::unix::fs::symlink(repo.env().path().join("gone"), dir.join("post-merge"))
        .expect("link");
    let out = install(&repo);
    assert!(out.contains("- `.git/hooks/post-commit`: the existing hook moved to `post-commit.before-context-graph`"), "{out}");
    assert!(
        out.contains("- `.git/hooks/post-merge`: left alone"),
        "{out}"
    );
    let kept =
        std::fs::read_link(dir.join("post-commit.before-context-graph")).expect("still a link");
    assert_eq!(kept, shared);
    ok(&commit(&repo, "src/free.py", "x = 1\n", "Free"), "commit");
    assert_eq!(read(&repo.path().join(".git/shared.log")), "shared\n");
    assert_eq!(
        read(&shared),
        "#!/bin/sh\necho shared >> .git/shared.log\n",
        "the shared script untouched"
    );
    let run = repo.run(&["uninstall-hooks"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(
        std::fs::read_link(dir.join("post-commit")).expect("a link again"),
        shared
    );
    assert!(!dir.join("post-commit.before-context-graph").exists());
}
