//! The commit hooks: the warning on an uncited commit of governed paths, silence otherwise,
//! strict mode's refusal, the hint in the message template, `hook pre-commit` alone, and the
//! index git commits from.

use super::{commit, decisions, git, install, ok, stderr};
use crate::git::GitRepo;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// The lines of `text` that context-graph wrote.
fn ours(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.contains("context-graph"))
        .collect()
}

#[test]
fn an_uncited_commit_of_governed_paths_is_warned_about_and_made() {
    let repo = decisions();
    install(&repo);
    let before = repo.head();
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Change login",
    );
    let err = ok(&out, "git commit");
    assert_ne!(repo.head(), before, "the commit is made");
    // Per decision: id, title, record, the staged paths it governs; then how to cite.
    assert_eq!(
        err,
        "context-graph: warning: its staged changes touch paths governed by ADR-0001, which its message does not cite:\n\
         \x20 ADR-0001 \"Tokens expire after an hour\" (docs/adr/0001-tokens.md) governs src/auth/login.py\n\
         context-graph: to cite a decision, write its id in the message (e.g. \"… (ADR-0001)\"); `git commit --amend` adds it to this one\n"
    );
}

#[test]
fn the_warning_names_each_decision_of_the_staged_paths_only() {
    let repo = decisions();
    install(&repo);
    repo.write("src/pay/charge.py", "def charge(): return 2\n");
    repo.write("src/free.py", "def free(): return 2\n");
    ok(&git(&repo, &["add", "src/pay/charge.py"], &[]), "git add");
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Two areas",
    );
    let err = ok(&out, "git commit");
    assert!(
        err.contains("governed by ADR-0001 and ADR-0002, and its message cites none of them"),
        "{err}"
    );
    assert!(err.contains("  ADR-0002 \"Payments go through one gateway\" (docs/adr/0002-payments.md) governs src/pay/charge.py\n"), "{err}");
    assert!(!err.contains("src/free.py"), "{err}");
}

#[test]
fn a_citing_an_ungoverned_and_a_no_longer_current_commit_say_nothing() {
    let repo = decisions();
    install(&repo);
    for (rel, message) in [
        ("src/auth/login.py", "Shorten tokens (adr 1)"),
        ("src/auth/token.py", "Refresh tokens\n\nKeeps to ADR-0001."),
        ("src/free.py", "Free code"),
        ("src/legacy/invoice.py", "Superseded decision's code"),
        ("src/old/config.py", "Deprecated decision's code"),
        ("README.md", "Docs"),
    ] {
        let before = repo.head();
        let out = commit(&repo, rel, &format!("# {message}\n"), message);
        let err = ok(&out, "git commit");
        assert!(ours(&err).is_empty(), "{rel} ({message:?}): {err}");
        assert_ne!(repo.head(), before);
    }
    // Citing one of two decisions warns of the other alone (ADR-0008, amended 2026-12-06).
    repo.write("src/pay/charge.py", "def charge(): return 9\n");
    ok(&git(&repo, &["add", "src/pay/charge.py"], &[]), "git add");
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 9\n",
        "Both (ADR-0002)",
    );
    let err = ok(&out, "git commit");
    assert!(
        err.contains(
            "its staged changes touch paths governed by ADR-0001, which its message does not cite"
        ),
        "{err}"
    );
    assert!(!ours(&err).iter().any(|l| l.contains("ADR-0002")), "{err}");
    // Citing both says nothing.
    repo.write("src/pay/charge.py", "def charge(): return 10\n");
    ok(&git(&repo, &["add", "src/pay/charge.py"], &[]), "git add");
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 10\n",
        "Both (ADR-0001, ADR-0002)",
    );
    assert!(ours(&ok(&out, "git commit")).is_empty());
}

#[test]
fn strict_mode_refuses_an_uncited_commit_and_leaves_head_where_it_was() {
    let repo = decisions();
    install(&repo);
    repo.git(&["config", "context-graph.strict", "true"]);
    let before = repo.head();
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Change login",
    );
    assert!(!out.status.success(), "refused");
    let err = stderr(&out);
    assert!(
        err.contains("context-graph: commit refused (context-graph.strict is true): its staged changes touch paths governed by ADR-0001"),
        "{err}"
    );
    assert!(err.contains("and commit again"), "{err}");
    assert_eq!(repo.head(), before, "HEAD unchanged");
    // The same change, cited, goes in; so does an ungoverned one.
    let out = git(
        &repo,
        &["commit", "-q", "-m", "Change login (ADR-0001)"],
        &[],
    );
    assert!(ours(&ok(&out, "cited commit")).is_empty());
    let out = commit(&repo, "src/free.py", "x = 1\n", "Free");
    ok(&out, "ungoverned commit");
    // `--no-verify` is git's way past every hook, ours included.
    repo.write("src/auth/login.py", "def login(): return 3\n");
    repo.git(&["add", "src/auth/login.py"]);
    let out = git(&repo, &["commit", "-q", "--no-verify", "-m", "Skip"], &[]);
    ok(&out, "--no-verify");
}

/// `git -c context-graph.strict=true commit` is strict for that commit: git hands `-c` to its
/// hooks in `GIT_CONFIG_PARAMETERS` (gix reads no such variable), and `-c …=false` turns a
/// configured strictness off.
#[test]
fn strict_mode_given_with_git_dash_c_holds_for_that_commit() {
    let repo = decisions();
    install(&repo);
    let before = repo.head();
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.git(&["add", "src/auth/login.py"]);
    let args = [
        "-c",
        "context-graph.strict=true",
        "commit",
        "-q",
        "-m",
        "Change login",
    ];
    let out = git(&repo, &args, &[]);
    assert!(!out.status.success(), "refused: {}", stderr(&out));
    assert!(
        stderr(&out).contains("commit refused (context-graph.strict is true)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(repo.head(), before, "HEAD unchanged");
    repo.git(&["config", "context-graph.strict", "true"]);
    let args = [
        "-c",
        "context-graph.strict=false",
        "commit",
        "-q",
        "-m",
        "Change login",
    ];
    let out = git(&repo, &args, &[]);
    let err = ok(&out, "-c context-graph.strict=false");
    assert!(
        err.contains("governed by ADR-0001"),
        "warned, not refused: {err}"
    );
}

/// An editor for `GIT_EDITOR`: saves the file git opens to `saved`, then writes `message` into it.
fn editor(repo: &GitRepo, message: &str) -> (String, PathBuf) {
    let saved = repo.env().path().join("template.txt");
    let script = repo.env().path().join("editor.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncp \"$1\" '{}'\nprintf '%s\\n' '{message}' > \"$1\"\n",
            saved.display()
        ),
    )
    .expect("write the editor");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    (script.display().to_string(), saved)
}

#[test]
fn the_hint_is_in_the_template_when_git_opens_an_editor() {
    let repo = decisions();
    install(&repo);
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.git(&["add", "src/auth/login.py"]);
    let (script, saved) = editor(&repo, "Shorten tokens (ADR-0001)");
    let out = git(&repo, &["commit", "-q"], &[("GIT_EDITOR", &script)]);
    let err = ok(&out, "editor commit");
    assert!(ours(&err).is_empty(), "the message cites: {err}");
    let template = std::fs::read_to_string(&saved).expect("the editor saw the template");
    let hint = "# context-graph: the staged changes touch paths that these current decisions govern.\n\
                # Cite the ones this commit follows or changes by their id, e.g. \"… (ADR-0001)\":\n\
                #   ADR-0001 Tokens expire after an hour: src/auth/login.py\n#\n";
    assert!(
        template.starts_with(&format!("\n{hint}# Please enter the commit message")),
        "{template}"
    );
    let message = repo.git(&["log", "-1", "--format=%B"]);
    assert_eq!(message.trim(), "Shorten tokens (ADR-0001)");

    // `-m`: no editor, no hint (git leaves what it committed from in COMMIT_EDITMSG).
    repo.write("src/auth/login.py", "def login(): return 2\n");
    repo.git(&["add", "src/auth/login.py"]);
    ok(
        &git(&repo, &["commit", "-q", "-m", "Again (ADR-0001)"], &[]),
        "-m",
    );
    let last = std::fs::read_to_string(repo.path().join(".git/COMMIT_EDITMSG")).expect("read");
    assert!(!last.contains("context-graph"), "{last}");

    // Amending a message that already cites the decision: no hint.
    let (script, saved) = editor(&repo, "Again, amended (ADR-0001)");
    ok(
        &git(
            &repo,
            &["commit", "-q", "--amend"],
            &[("GIT_EDITOR", &script)],
        ),
        "amend",
    );
    let template = std::fs::read_to_string(&saved).expect("read");
    assert!(template.starts_with("Again (ADR-0001)\n"), "{template}");
    assert!(!template.contains("# context-graph"), "{template}");

    // Amending one that does not: the hint, below the old message.
    ok(
        &git(
            &repo,
            &["commit", "-q", "--amend", "-m", "Uncited now"],
            &[],
        ),
        "amend -m",
    );
    let (script, saved) = editor(&repo, "Cited at last (ADR-1)");
    ok(
        &git(
            &repo,
            &["commit", "-q", "--amend"],
            &[("GIT_EDITOR", &script)],
        ),
        "amend",
    );
    let template = std::fs::read_to_string(&saved).expect("read");
    assert!(
        template.starts_with(&format!("Uncited now\n\n{hint}")),
        "{template}"
    );
}

#[test]
fn the_hint_keeps_to_the_comment_character_and_above_the_scissors() {
    let repo = decisions();
    install(&repo);
    repo.git(&["config", "core.commentChar", ";"]);
    repo.write("src/pay/charge.py", "def charge(): return 1\n");
    repo.git(&["add", "src/pay/charge.py"]);
    let (script, saved) = editor(&repo, "Charge (ADR-0002)");
    ok(
        &git(&repo, &["commit", "-q", "-v"], &[("GIT_EDITOR", &script)]),
        "commit -v",
    );
    let template = std::fs::read_to_string(&saved).expect("read");
    let hint = template
        .find("; context-graph:")
        .expect("the hint, as ; comments");
    let scissors = template
        .find("; ------------------------ >8")
        .expect("scissors");
    assert!(hint < scissors, "{template}");
    assert!(!template.contains("# context-graph"), "{template}");
}

#[test]
fn pre_commit_alone_lists_the_decisions_and_exits_0() {
    // No hooks installed: the pre-commit framework runs the binary itself.
    let repo = decisions();
    repo.git(&["config", "context-graph.strict", "true"]);
    let run = repo.run(&["hook", "pre-commit"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(0), ""),
        "nothing staged"
    );
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.write("src/old/config.py", "def config(): return 1\n");
    repo.git(&["add", "-A"]);
    let run = repo.run(&["hook", "pre-commit"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(
        run.stderr,
        "context-graph: the staged changes touch paths that current decisions govern:\n\
         \x20 ADR-0001 Tokens expire after an hour: src/auth/login.py\n\
         context-graph: cite the ones this commit follows or changes in its message, e.g. \"… (ADR-0001)\"\n"
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn commit_a_and_commit_of_paths_are_judged_by_the_index_git_commits_from() {
    let repo = decisions();
    install(&repo);
    // `commit -a`: nothing staged beforehand; git stages into index.lock for the commit.
    repo.write("src/auth/login.py", "def login(): return 1\n");
    let out = git(&repo, &["commit", "-q", "-a", "-m", "All of it"], &[]);
    let err = ok(&out, "commit -a");
    assert!(
        err.contains("governed by ADR-0001, which its message does not cite"),
        "{err}"
    );
    // `commit PATH`: only that path, though another governed change is staged.
    repo.write("src/pay/charge.py", "def charge(): return 1\n");
    repo.git(&["add", "src/pay/charge.py"]);
    repo.write("src/auth/token.py", "def token(): return 1\n");
    let out = git(
        &repo,
        &[
            "commit",
            "-q",
            "-m",
            "Only tokens",
            "--",
            "src/auth/token.py",
        ],
        &[],
    );
    let err = ok(&out, "commit PATH");
    assert!(err.contains("governs src/auth/token.py"), "{err}");
    assert!(!err.contains("ADR-0002"), "{err}");
    // A linked worktree's own index: see install::a_linked_worktree_….
}

#[test]
fn the_commit_msg_hook_reads_the_message_git_gives_it() {
    let repo = decisions();
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.git(&["add", "-A"]);
    let file = repo.env().path().join("MSG");
    let run_with = |text: &str| {
        std::fs::write(&file, text).expect("write the message");
        repo.run(&["hook", "commit-msg", file.to_str().expect("utf-8")])
    };
    let cited = run_with("Tokens (ADR-0001)\n");
    assert_eq!((cited.code, cited.stderr.as_str()), (Some(0), ""));
    // A mention in a comment line, or below the scissors, is not in the commit.
    for text in [
        "Tokens\n# ADR-0001 governs this\n",
        "Tokens\n# ------------------------ >8 ------------------------\nADR-0001\n",
    ] {
        let run = run_with(text);
        assert_eq!(run.code, Some(0), "{}", run.describe());
        assert!(
            run.stderr.contains("ADR-0001"),
            "{text:?}: {}",
            run.describe()
        );
    }
    repo.git(&["config", "context-graph.strict", "yes"]);
    assert_eq!(run_with("Tokens\n").code, Some(1), "strict: refused");
    // A message file git never wrote: one line, and the commit goes on.
    let run = repo.run(&["hook", "commit-msg", "/nonexistent/MSG"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.describe());
    assert!(run.stderr.starts_with("context-graph: the commit-msg hook went on without context-graph: cannot read the message file"), "{}", run.stderr);
}

#[test]
fn the_hook_reads_git_index_file_and_ignores_where_else_git_points() {
    let repo = decisions();
    // A temporary index holding a staged change to src/pay/, the real one holding none.
    repo.write("src/pay/charge.py", "def charge(): return 1\n");
    repo.git(&["add", "src/pay/charge.py"]);
    let tmp = repo.env().path().join("other-index");
    std::fs::copy(repo.path().join(".git/index"), &tmp).expect("copy the index");
    repo.git(&["reset", "-q"]);
    let tmp = tmp.display().to_string();
    let run = repo.run_with(
        &["hook", "pre-commit"],
        &[
            ("GIT_INDEX_FILE", tmp.as_str()),
            ("GIT_DIR", "/nonexistent"),
            ("GIT_WORK_TREE", "/nonexistent"),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stderr
            .contains("ADR-0002 Payments go through one gateway: src/pay/charge.py"),
        "{}",
        run.describe()
    );
    let plain = repo.run(&["hook", "pre-commit"]);
    assert_eq!(plain.stderr, "", "the worktree's own index stages nothing");
}

#[test]
fn no_hint_for_a_merge_or_a_squash() {
    let repo = decisions();
    install(&repo);
    repo.branch("topic");
    repo.write("src/auth/login.py", "def login(): return 7\n");
    repo.git(&[
        "commit",
        "-q",
        "--no-verify",
        "-a",
        "-m",
        "Topic (ADR-0001)",
    ]);
    repo.checkout("main");
    repo.write("README.md", "# Moved\n");
    repo.git(&["commit", "-q", "--no-verify", "-a", "-m", "Main"]);
    // A merge whose message git opens in the editor.
    let (script, saved) = editor(&repo, "Merge topic");
    let out = git(
        &repo,
        &["merge", "-q", "--no-ff", "--edit", "topic"],
        &[("GIT_EDITOR", &script)],
    );
    let err = ok(&out, "merge --edit");
    assert!(ours(&err).is_empty(), "{err}");
    let template = std::fs::read_to_string(&saved).expect("the editor ran");
    assert!(template.starts_with("Merge branch 'topic'"), "{template}");
    assert!(!template.contains("context-graph"), "{template}");
    // A squash, committed with the editor.
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    repo.git(&["-c", "merge.ff=true", "merge", "-q", "--squash", "topic"]);
    let (script, saved) = editor(&repo, "Squashed");
    let out = git(&repo, &["commit", "-q"], &[("GIT_EDITOR", &script)]);
    ok(&out, "squash commit");
    let template = std::fs::read_to_string(&saved).expect("the editor ran");
    assert!(
        template.starts_with("Squashed commit of the following"),
        "{template}"
    );
    assert!(!template.contains("# context-graph"), "{template}");
}

#[test]
fn prepare_commit_msg_called_directly_decides_as_the_script_does() {
    // As husky or lefthook call it: the binary alone, no script in front of it.
    let repo = decisions();
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.git(&["add", "-A"]);
    let file = repo.env().path().join("MSG");
    let path = file.to_str().expect("utf-8").to_string();
    let run = |text: &str, args: &[&str], env: &[(&str, &str)]| -> String {
        std::fs::write(&file, text).expect("write");
        let mut all = vec!["hook", "prepare-commit-msg", path.as_str()];
        all.extend(args);
        let run = repo.run_with(&all, env);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (Some(0), ""),
            "{}",
            run.describe()
        );
        std::fs::read_to_string(&file).expect("read")
    };
    let template = "\n# Please enter the commit message.\n";
    assert!(run(template, &[], &[])
        .contains("#   ADR-0001 Tokens expire after an hour: src/auth/login.py\n"));
    assert!(run(template, &["template"], &[]).contains("# context-graph:"));
    assert_eq!(
        run(template, &[], &[("GIT_EDITOR", ":")]),
        template,
        "no editor"
    );
    assert_eq!(run(template, &["merge"], &[]), template);
    assert_eq!(run(template, &["squash"], &[]), template);
    assert_eq!(
        run("Tokens (ADR-1)\n", &["message"], &[]),
        "Tokens (ADR-1)\n",
        "already cited"
    );
}

#[test]
fn an_amend_in_the_editor_is_judged_as_the_commit_it_makes() {
    let repo = decisions();
    install(&repo);
    repo.git(&["config", "context-graph.strict", "true"]);
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Tokens (ADR-0001)",
    );
    ok(&out, "a cited commit");
    let cited = repo.head();
    // Rewording it without the citation: nothing new is staged, but the commit it makes still
    // changes src/auth/login.py against its parent. (git tells the hooks of an amend only when
    // it opens the editor: `--amend -m` looks like a new commit to them, and review catches it.)
    let (script, _) = editor(&repo, "Tokens");
    let out = git(
        &repo,
        &["commit", "-q", "--amend"],
        &[("GIT_EDITOR", &script)],
    );
    assert!(!out.status.success(), "refused: {}", stderr(&out));
    assert!(
        stderr(&out).contains("governed by ADR-0001"),
        "{}",
        stderr(&out)
    );
    assert_eq!(repo.head(), cited);
    // Rewording it with the citation kept goes in.
    let (script, _) = editor(&repo, "Shorter tokens (ADR-1)");
    let out = git(
        &repo,
        &["commit", "-q", "--amend"],
        &[("GIT_EDITOR", &script)],
    );
    assert!(ours(&ok(&out, "a cited amend")).is_empty());
    assert_ne!(repo.head(), cited);
    // A new commit after an amend is judged against HEAD again: nothing governed here.
    let out = commit(&repo, "src/free.py", "x = 2\n", "Free");
    assert!(ours(&ok(&out, "a plain commit")).is_empty());
}

#[test]
fn a_staged_file_declaring_a_decision_is_governed_by_it() {
    let repo = decisions();
    install(&repo);
    // `src/free.py` is governed by no record's entries; its staged content declares ADR-0002.
    let out = commit(
        &repo,
        "src/free.py",
        "# @adr 0002\ndef free(): return 3\n",
        "Free code",
    );
    let err = ok(&out, "git commit");
    assert!(
        err.contains("  ADR-0002 \"Payments go through one gateway\" (docs/adr/0002-payments.md) governs src/free.py\n"),
        "{err}"
    );
    // What counts is the staged content, not the work tree's: staged without the marker (the
    // file in the work tree keeps it), the commit touches no decision.
    repo.write("src/free.py", "def free(): return 4\n");
    ok(&git(&repo, &["add", "--", "src/free.py"], &[]), "git add");
    repo.write("src/free.py", "# @adr 0002\ndef free(): return 4\n");
    let out = git(&repo, &["commit", "-q", "-m", "No marker staged"], &[]);
    let err = ok(&out, "git commit");
    assert!(ours(&err).is_empty(), "{err}");
    // A marker naming a superseded decision governs nothing; a deleted file is judged by what
    // it declared.
    let out = commit(&repo, "src/free.py", "# @adr 3\n", "Superseded marker");
    assert!(ours(&ok(&out, "git commit")).is_empty());
    commit(&repo, "src/other.py", "# @adr 1\n", "Cites ADR-0001");
    ok(&git(&repo, &["rm", "-q", "src/other.py"], &[]), "git rm");
    let out = git(&repo, &["commit", "-q", "-m", "Drop other"], &[]);
    let err = ok(&out, "git commit");
    assert!(err.contains("governs src/other.py"), "{err}");
    // Cited, silent.
    let out = commit(&repo, "src/free.py", "# @adr 0002\n", "Per ADR-2");
    assert!(ours(&ok(&out, "git commit")).is_empty());
}

/// The hooks installed, one cited commit made and the refresh it started waited for: where
/// the table of governed entries that refresh keeps is.
fn table_after_a_commit(repo: &GitRepo) -> PathBuf {
    install(repo);
    ok(
        &commit(repo, "src/auth/login.py", "a = 1\n", "Login (ADR-0001)"),
        "commit",
    );
    let _ = repo.index_status(); // waits for the refresh post-commit started
    repo.index_file().parent().unwrap().join("index.governing")
}

/// commit-msg answers from the table of governed entries the last refresh kept beside the index
/// (ADR-0018), without checking the index's scan memo, and only while the record files are as
/// that refresh read them: a record changed since (in the work tree, no refresh run) is read
/// anew.
#[test]
fn the_refreshs_table_of_governed_entries_answers_only_while_the_records_hold() {
    let repo = decisions();
    let dir = table_after_a_commit(&repo).parent().unwrap().to_path_buf();
    assert!(
        dir.join("index.governing").is_file(),
        "the refresh keeps it"
    );
    // The hook alone, as git runs it: the warning, and no note that it checked the scan memo
    // (the note post-commit reads to skip that check), since the table answered.
    repo.write("src/auth/login.py", "a = 2\n");
    ok(&git(&repo, &["add", "src/auth/login.py"], &[]), "git add");
    repo.write(".git/MSG", "Login again\n");
    let run = repo.run(&["hook", "commit-msg", ".git/MSG"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stderr.contains("governed by ADR-0001, which"),
        "{}",
        run.describe()
    );
    let note = std::fs::read_to_string(dir.join("checked")).unwrap_or_default();
    assert_eq!(note, "", "answered from the table");
    ok(&git(&repo, &["reset", "-q"], &[]), "git reset");
    // ADR-0001 now governs `src/pay/` instead, in the work tree only.
    repo.write(
        "docs/adr/0001-tokens.md",
        &crate::fixture::adr(
            1,
            "Tokens expire after an hour",
            "Accepted",
            Some("2025-01-01"),
            "The code in `src/pay/` keeps tokens short-lived.",
        ),
    );
    let err = ok(
        &commit(&repo, "src/auth/login.py", "a = 3\n", "Login once more"),
        "commit",
    );
    assert!(!err.contains("ADR-0001"), "{err}");
    let err = ok(
        &commit(&repo, "src/pay/charge.py", "b = 3\n", "Charge"),
        "commit",
    );
    assert!(err.contains("governed by ADR-0001 and ADR-0002"), "{err}");
}

/// A table that is damaged (a length no value of its bytes could have) or of another layout
/// is no table: the hook answers as without one, and never asks for memory it cannot have
/// (ADR-0011, ADR-0018).
#[test]
fn a_damaged_table_of_governed_entries_is_no_table() {
    let repo = decisions();
    let table = table_after_a_commit(&repo);
    let good = std::fs::read(&table).expect("the refresh keeps it");
    // Its maker as written (a length byte, then the text), then the next field's length as
    // a bincode varint of 2^61 bytes: more than any machine has, less than a size can hold.
    let maker = 1 + usize::from(good[0]);
    let mut huge = good[..maker].to_vec();
    huge.push(0xFD);
    huge.extend((1u64 << 61).to_le_bytes());
    huge.extend(&good[maker..]);
    // Another layout: the same bytes after another maker.
    let mut other = vec![b"other/table-1".len() as u8];
    other.extend(b"other/table-1");
    other.extend(&good[maker..]);
    for (what, bytes) in [("damaged", huge), ("another layout", other)] {
        std::fs::write(&table, &bytes).unwrap();
        repo.write("src/auth/login.py", &format!("a = {}\n", bytes.len()));
        ok(&git(&repo, &["add", "src/auth/login.py"], &[]), "git add");
        repo.write(".git/MSG", "Login again\n");
        let run = repo.run(&["hook", "commit-msg", ".git/MSG"]);
        assert_eq!(run.code, Some(0), "{what}: {}", run.describe());
        assert!(
            run.stderr.contains("governed by ADR-0001, which"),
            "{what}: {}",
            run.describe()
        );
        ok(&git(&repo, &["reset", "-q"], &[]), "git reset");
    }
}
