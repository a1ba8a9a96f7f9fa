//! Errors as docs/commands.md promises them (issue 39): one line on stderr starting
//! `context-graph:`, clap's argument errors included with their suggestion; `hook` exits 0
//! whatever it is given; the common mistakes say what to do.

use crate::env::TestEnv;
use crate::fixture::*;

/// The one line a refused command line printed, after checking it is one line and exit 2.
fn refused(env: &TestEnv, args: &[&str]) -> String {
    let run = env.run(args);
    run.assert_usage_error();
    assert!(run.stdout.is_empty(), "{}", run.describe());
    run.stderr.trim_end().to_string()
}

#[test]
fn clap_errors_are_one_line_and_keep_their_suggestion() {
    let env = TestEnv::new();
    assert_eq!(
        refused(&env, &["chek"]),
        "context-graph: unrecognized subcommand 'chek' (did you mean 'check'?)"
    );
    assert_eq!(
        refused(&env, &["--jsn"]),
        "context-graph: unexpected argument '--jsn' found (did you mean '--json'?)"
    );
    assert_eq!(
        refused(&env, &["graph", "--format", "svg"]),
        "context-graph: invalid value 'svg' for '--format <FORMAT>' (possible values: mermaid, dot, json)"
    );
    assert_eq!(
        refused(&env, &["graph", "--format", "mermiad"]),
        "context-graph: invalid value 'mermiad' for '--format <FORMAT>' \
         (possible values: mermaid, dot, json; did you mean 'mermaid'?)"
    );
    assert_eq!(
        refused(&env, &["why"]),
        "context-graph: the following required arguments were not provided: <PATH> \
         (usage: context-graph why <PATH>)"
    );
    let line = refused(&env, &["why", "a", "b"]);
    assert_eq!(line, "context-graph: unexpected argument 'b' found");
}

#[test]
fn help_and_version_are_clap_s_own() {
    let env = TestEnv::new();
    let help = env.run(["--help"]);
    help.assert_code(0);
    assert!(help.stderr.is_empty(), "{}", help.describe());
    assert!(help
        .stdout()
        .contains("Usage: context-graph [OPTIONS] [COMMAND]"));
    assert!(help.stdout().contains("\nCommands:\n"));
    let help = env.run(["why", "--help"]);
    help.assert_code(0);
    assert!(help
        .stdout()
        .contains("Usage: context-graph why [OPTIONS] <PATH>"));
    let version = env.run(["--version"]);
    version.assert_code(0);
    assert_eq!(
        version.stdout(),
        format!("context-graph {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn hook_exits_0_whatever_it_is_given() {
    let f = copy_fixture("adr-tools");
    let root = f.root.to_str().expect("UTF-8");
    for args in [
        &["hook", "bogus"][..],
        &["hook"],
        &["hook", "--bogus", "commit-msg"],
        &["--root", root, "hook", "no-such-hook", "x"],
        &["--why", "src", "hook", "commit-msg", "msg"],
    ] {
        let run = f.env.run_in(&f.root, args);
        run.assert_code(0);
        let err = run.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{}", run.describe());
        assert!(
            err.starts_with("context-graph: the hook went on without context-graph: "),
            "{}",
            run.describe()
        );
    }
    // The line says what was wrong, as any other error would.
    let run = f.env.run_in(&f.root, ["hook", "bogus"]);
    assert!(
        run.stderr
            .contains("invalid value 'bogus' for '<NAME>' (possible values: pre-commit,"),
        "{}",
        run.describe()
    );
}

#[test]
fn no_records_names_the_folders_that_look_like_record_folders() {
    let f = crate::fixture::empty_root();
    for name in ["client-settings", "observability", "rate-limiting"] {
        f.write(
            &format!("docs/proposals/{name}.md"),
            b"# A proposal\n\nStatus: implemented\n",
        );
    }
    for n in 1..=4 {
        f.write(&format!("seed/{n:04}.rst"), b"A seed\n=====\n");
    }
    // Guides in a folder of no record-like name, named by their topic.
    for name in ["install", "usage", "faq"] {
        f.write(&format!("docs/guide/{name}.md"), b"# Guide\n");
    }
    let run = f.run_md(&["check"]);
    run.assert_usage_error();
    assert!(
        run.stderr
            .contains("; try `--docs seed` (4 files) or `--docs docs/proposals` (3 files)"),
        "{}",
        run.describe()
    );
    // A folder named on the command line that holds none: no guess.
    let run = f.run_md(&["check", "--docs", "docs/guide"]);
    assert!(
        run.stderr.contains("no decision records found") || run.code == Some(0),
        "{}",
        run.describe()
    );
    assert!(!run.stderr.contains("; try"), "{}", run.describe());
}

#[test]
fn no_records_says_how_to_make_or_name_a_record_folder() {
    let f = copy_fixture("empty");
    for run in [f.run_md(&[]), f.run_json(&["why", "src"])] {
        run.assert_usage_error();
        assert!(
            run.stderr.contains("no decision records found under")
                && run
                    .stderr
                    .contains("`context-graph init` makes a record folder")
                && run.stderr.contains("`--docs DIR` names the folder"),
            "{}",
            run.describe()
        );
    }
}

#[test]
fn an_unknown_id_names_the_record_it_is_close_to() {
    let f = copy_fixture("adr-tools");
    for (asked, said) in [
        // A word of its title or file name, misspelt.
        ("postgress", "did you mean ADR-0003 (Use PostgreSQL)?"),
        ("mysql", "did you mean ADR-0002 (Use MySQL)?"),
        // Another prefix, the same number.
        ("RFC-3", "did you mean ADR-0003 (Use PostgreSQL)?"),
        // Nothing close: the ids there are.
        ("foo", "the ids run from ADR-0001 to ADR-0004"),
        ("99", "the ids run from ADR-0001 to ADR-0004"),
    ] {
        for args in [&["record", asked][..], &["--record", asked]] {
            let run = f.run_md(args);
            run.assert_usage_error();
            assert_eq!(
                run.stderr.trim_end(),
                format!("context-graph: no record has the id {asked} ({said})"),
                "{}",
                run.describe()
            );
        }
    }
    // The write commands find their record the same way.
    let run = f.run_md(&["status", "postgress", "deprecated"]);
    run.assert_usage_error();
    assert!(
        run.stderr.contains("did you mean ADR-0003"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_misspelt_status_names_the_word_it_is_close_to() {
    let f = copy_fixture("adr-tools");
    let before =
        std::fs::read(f.path("doc/adr/0001-record-architecture-decisions.md")).expect("the record");
    let run = f.run_md(&["status", "1", "Acepted"]);
    run.assert_usage_error();
    assert_eq!(
        run.stderr.trim_end(),
        "context-graph: Acepted: not a status word this tool knows; did you mean accepted? \
         (the words: proposed, accepted, implemented, rejected, deprecated)"
    );
    let run = f.run_md(&["new", "Cache reads", "--status", "deprecatd", "--dry-run"]);
    run.assert_usage_error();
    assert!(
        run.stderr.contains(
            "--status deprecatd: not a status word this tool knows; did you mean deprecated?"
        ),
        "{}",
        run.describe()
    );
    // Nothing close: the words alone.
    let run = f.run_md(&["status", "1", "banana"]);
    run.assert_usage_error();
    assert!(!run.stderr.contains("did you mean"), "{}", run.describe());
    assert_eq!(
        std::fs::read(f.path("doc/adr/0001-record-architecture-decisions.md")).expect("the record"),
        before,
        "a refused status writes nothing"
    );
}

/// The default folders hold one record and a folder elsewhere many (external-secrets'
/// `docs/design` and `design`): `check` names it on stderr, and says nothing once `--docs`
/// names the folders or the default ones hold more than a few.
#[test]
fn a_fuller_record_folder_beside_the_default_ones_is_named() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/design/push-secret.md",
        b"# Push secret\n\nStatus: accepted\n",
    );
    // Numbered guides are guides: no folder is named.
    for n in 1..=8 {
        f.write(&format!("docs/guides/{n:02}-step.md"), b"# A step\n");
    }
    let run = f.run_md(&["check"]);
    run.assert_code(0);
    assert!(
        !run.stderr.contains("named like records"),
        "{}",
        run.describe()
    );
    for n in 1..=5 {
        f.write(
            &format!("design/{n:03}-design.md"),
            b"# A design\n\nStatus: implemented\n",
        );
    }
    let run = f.run_md(&["check"]);
    run.assert_code(0);
    let hint = "context-graph: only 1 record in docs/design; `design` holds 5 files named like records: `--docs docs/design --docs design` reads them all";
    assert!(run.stderr.contains(hint), "{}", run.describe());
    assert!(!run.stdout().contains("holds 5 files"), "stderr only");
    let run = f.run_md(&["--docs", "design", "check"]);
    run.assert_code(0);
    assert!(
        !run.stderr.contains("named like records"),
        "{}",
        run.describe()
    );
    for name in ["a", "b"] {
        f.write(
            &format!("docs/design/{name}.md"),
            b"# Another\n\nStatus: accepted\n",
        );
    }
    let run = f.run_md(&["check"]);
    assert!(
        !run.stderr.contains("named like records"),
        "{}",
        run.describe()
    );
}
