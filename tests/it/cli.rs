//! The command line: exit codes, `why` and `record` in both spellings, id forms, `--help`, the
//! Markdown report, discovery of record files, and the files that must never hang or break it.

use crate::env::TestEnv;
use crate::fixture::*;
use serde_json::{json, Value};

fn markdown(f: &Fixture, args: &[&str]) -> (Option<i32>, String) {
    let run = f.run_md(args);
    assert!(!run.timed_out, "timed out: {}", run.describe());
    assert!(
        !run.stdout.contains(&0x1b),
        "ANSI escape in output that is not a TTY: {}",
        run.describe()
    );
    (run.code, run.stdout())
}

fn record_paths(j: &Value) -> Vec<String> {
    let mut v: Vec<String> = records(j)
        .iter()
        .map(|r| r["path"].as_str().unwrap_or("").to_string())
        .collect();
    v.sort();
    v
}

fn decision_ids(j: &Value) -> Vec<String> {
    j["query"]["decisions"]
        .as_array()
        .unwrap_or_else(|| panic!("no query.decisions in {:#}", j["query"]))
        .iter()
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect()
}

// ------------------------------------------------------------------ exit codes

#[test]
fn exit_0_when_nothing_is_found() {
    let f = copy_fixture("adr-tools");
    let run = f.run_json(&[]);
    run.assert_code(0);
    assert!(finding_list(&run.json()).is_empty());
    let (code, _) = markdown(&f, &[]);
    assert_eq!(code, Some(0));
}

#[test]
fn exit_0_with_warnings_only() {
    let f = copy_fixture("nygard");
    let run = f.run_json(&[]);
    run.assert_code(0);
    let j = run.json();
    assert!(!finding_list(&j).is_empty(), "the fixture has a warning");
    assert!(finding_list(&j).iter().all(|f| f["severity"] == "warning"));
    assert_eq!(markdown(&f, &[]).0, Some(0));
}

#[test]
fn exit_1_with_problems() {
    let f = copy_fixture("checks/superseded-still-current");
    f.run_json(&[]).assert_code(1);
    f.run_json(&["check"]).assert_code(1);
    assert_eq!(markdown(&f, &[]).0, Some(1));
}

#[test]
fn check_subcommand_is_the_default() {
    let f = copy_fixture("checks/cites-superseded");
    let plain = f.run_json(&[]);
    let check = f.run_json(&["check"]);
    assert_eq!(plain.code, check.code);
    assert_eq!(plain.json(), check.json());
}

#[test]
fn exit_2_without_records() {
    let f = copy_fixture("empty");
    f.run_json(&[]).assert_usage_error();
    f.run_md(&[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_root_that_does_not_exist() {
    let f = empty_root();
    let missing = f.root.join("no-such-folder");
    f.env.run_json(&missing, &[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_root_that_is_a_file() {
    let f = copy_fixture("adr-tools");
    let file = f.root.join("services/catalog/db.py");
    f.env.run_json(&file, &[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_missing_docs_folder() {
    let f = copy_fixture("discovery");
    f.run_json(&["--docs", "no/such/folder"])
        .assert_usage_error();
}

#[test]
fn exit_2_for_an_unknown_record_id() {
    let f = copy_fixture("why");
    f.run_json(&["record", "ADR-0999"]).assert_usage_error();
    f.run_json(&["--record", "ADR-0999"]).assert_usage_error();
    f.run_md(&["record", "ADR-0999"]).assert_usage_error();
}

#[test]
fn exit_2_for_an_ambiguous_bare_number() {
    // ADR-0005 and DR-0005 both have the number 5.
    let f = copy_fixture("why");
    f.run_json(&["record", "5"]).assert_usage_error();
}

#[test]
fn exit_2_for_why_outside_the_root() {
    let f = copy_fixture("why");
    let outside = f.env.path().join("outside");
    assert!(outside.is_dir());
    for path in ["../outside", "/etc", outside.to_str().unwrap()] {
        let run = f.run_json(&["why", path]);
        run.assert_usage_error();
        assert!(
            run.stdout.is_empty(),
            "no answer on stdout: {}",
            run.describe()
        );
    }
}

#[test]
fn why_is_answered_with_exit_0_despite_problems() {
    let f = copy_fixture("checks/governed-path-gone");
    f.run_json(&["why", "src/auth/login.py"]).assert_code(0);
    f.run_md(&["why", "src/auth/login.py"]).assert_code(0);
}

#[test]
fn record_is_answered_with_exit_0_despite_problems() {
    let f = copy_fixture("checks/superseded-still-current");
    let run = f.run_json(&["record", "ADR-0001"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        findings(&j),
        [(
            "superseded-still-current".to_string(),
            "ADR-0001".to_string()
        )]
    );
    f.run_md(&["record", "ADR-0001"]).assert_code(0);
}

#[test]
fn root_defaults_to_the_current_folder_outside_git() {
    let f = copy_fixture("why");
    let run = f.run_in(&f.root, ["--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        std::fs::canonicalize(j["root"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(&f.root).unwrap()
    );
    assert_eq!(records(&j).len(), 6);
}

#[test]
fn root_defaults_to_the_top_of_the_git_work_tree() {
    let f = copy_fixture("why");
    let git = f
        .command("git")
        .args(["init", "-q"])
        .current_dir(&f.root)
        .status()
        .expect("run git init");
    assert!(git.success());
    let run = f.run_in(&f.root.join("src/auth"), ["--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        std::fs::canonicalize(j["root"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(&f.root).unwrap()
    );
    assert_eq!(records(&j).len(), 6);
}

// ------------------------------------------------------------------ why

#[test]
fn why_lists_current_decisions_first_then_by_id() {
    let f = copy_fixture("why");
    let run = f.run_json(&["why", "src/auth/login.py"]);
    run.assert_code(0);
    assert_eq!(
        run.json()["query"],
        json!({"why": "src/auth/login.py", "decisions": [
            {"id": "ADR-0002", "status": "accepted", "current": true, "matches": ["src/auth/login.py"]},
            {"id": "ADR-0003", "status": "accepted", "current": true, "matches": ["src/auth/"]},
            {"id": "ADR-0001", "status": "superseded", "current": false, "matches": ["src/auth/"]},
        ]})
    );
}

#[test]
fn why_a_folder_matches_entries_inside_it() {
    let f = copy_fixture("why");
    let j = f.run_json(&["why", "src/auth"]).json();
    assert_eq!(
        j["query"],
        json!({"why": "src/auth", "decisions": [
            {"id": "ADR-0002", "status": "accepted", "current": true, "matches": ["src/auth/login.py"]},
            {"id": "ADR-0003", "status": "accepted", "current": true, "matches": ["src/auth/"]},
            {"id": "ADR-0001", "status": "superseded", "current": false, "matches": ["src/auth/"]},
            {"id": "ADR-0004", "status": "proposed", "current": false, "matches": ["src/auth/session.py"]},
        ]})
    );
    let j = f.run_json(&["why", "src"]).json();
    assert_eq!(
        decision_ids(&j),
        ["ADR-0002", "ADR-0003", "ADR-0005", "ADR-0001", "ADR-0004"]
    );
}

#[test]
fn why_normalises_the_path() {
    let f = copy_fixture("why");
    let absolute = f.root.join("src/auth");
    for path in ["./src/auth/", "src/auth/", absolute.to_str().unwrap()] {
        let run = f.run_json(&["why", path]);
        run.assert_code(0);
        let j = run.json();
        assert_eq!(j["query"]["why"], "src/auth", "why {path}");
        assert_eq!(
            decision_ids(&j),
            ["ADR-0002", "ADR-0003", "ADR-0001", "ADR-0004"],
            "why {path}"
        );
    }
}

#[test]
fn why_a_path_nothing_governs() {
    let f = copy_fixture("why");
    let run = f.run_json(&["why", "docs/nothing/here.txt"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(j["query"]["decisions"], json!([]));
    assert_eq!(j["records"], json!([]));
    let (code, text) = markdown(&f, &["why", "docs/nothing/here.txt"]);
    assert_eq!(code, Some(0));
    assert!(
        text.to_lowercase().contains("no recorded decision"),
        "{text}"
    );
}

#[test]
fn why_records_hold_the_matched_records_in_full() {
    let f = copy_fixture("why");
    let j = f.run_json(&["why", "src/auth/login.py"]).json();
    let mut want = decision_ids(&j);
    want.sort();
    let mut got = ids(&j);
    got.sort();
    assert_eq!(got, want);
    let r = record(&j, "ADR-0003");
    assert_eq!(r["title"], "Auth module");
    assert_eq!(list(r, "supersedes"), ["ADR-0001"]);
    assert_eq!(list(r, "governs"), ["src/auth/"]);
}

#[test]
fn why_findings_are_those_about_the_matched_records() {
    let f = copy_fixture("checks/overlapping-governance");
    let run = f.run_json(&["why", "src/api/routes.py"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(decision_ids(&j), ["ADR-0007", "ADR-0008"]);
    assert_eq!(
        findings(&j),
        [("overlapping-governance".to_string(), "ADR-0008".to_string())]
    );
}

#[test]
fn why_flag_and_subcommand_agree() {
    assert_flag_agrees(&["why", "src/auth"], &["--why", "src/auth"]);
}

/// The subcommand form and the flag form answer alike, in JSON and in Markdown, on the `why`
/// fixture.
fn assert_flag_agrees(sub_args: &[&str], flag_args: &[&str]) {
    let f = copy_fixture("why");
    let sub = f.run_json(sub_args);
    let flag = f.run_json(flag_args);
    sub.assert_code(0);
    flag.assert_code(0);
    assert_eq!(sub.json(), flag.json());
    assert_eq!(markdown(&f, sub_args).1, markdown(&f, flag_args).1);
}

#[test]
fn why_markdown_shows_current_decisions_then_history_with_successor() {
    let f = copy_fixture("why");
    let (code, text) = markdown(&f, &["why", "src/auth/login.py"]);
    assert_eq!(code, Some(0));
    for needle in [
        "ADR-0002",
        "ADR-0003",
        "ADR-0001",
        "Login form",
        "Auth module",
    ] {
        assert!(text.contains(needle), "missing {needle}:\n{text}");
    }
    let pos = |s: &str| text.find(s).unwrap();
    assert!(
        pos("ADR-0002") < pos("ADR-0001") && pos("ADR-0003") < pos("ADR-0001"),
        "current decisions come before the superseded one:\n{text}"
    );
    let history = &text[pos("ADR-0001")..];
    assert!(
        history.contains("ADR-0003"),
        "the superseded decision names its successor:\n{text}"
    );
}

// ------------------------------------------------------------------ record

#[test]
fn record_accepts_every_id_form() {
    let f = copy_fixture("why");
    for form in ["ADR-0003", "ADR-3", "adr-3", "ADR 3", "adr-0003", "3"] {
        let run = f.run_json(&["record", form]);
        run.assert_code(0);
        let j = run.json();
        assert_eq!(j["query"], json!({"record": "ADR-0003"}), "record {form:?}");
        assert_eq!(ids(&j), ["ADR-0003"], "record {form:?}");
    }
    let j = f.run_json(&["record", "DR-5"]).json();
    assert_eq!(j["query"], json!({"record": "DR-0005"}));
}

#[test]
fn record_flag_and_subcommand_agree() {
    assert_flag_agrees(&["record", "ADR-3"], &["--record", "ADR-3"]);
}

#[test]
fn record_query_holds_the_record_in_full() {
    let f = copy_fixture("why");
    let j = f.run_json(&["record", "ADR-0001"]).json();
    assert_eq!(j["query"], json!({"record": "ADR-0001"}));
    let r = record(&j, "ADR-0001");
    assert_eq!(r["status"], "superseded");
    assert_eq!(list(r, "superseded_by"), ["ADR-0003"]);
    assert_eq!(list(r, "successors"), ["ADR-0003"]);
    assert_eq!(list(r, "governs"), ["src/auth/"]);
    assert_eq!(records(&j).len(), 1);
}

#[test]
fn record_markdown_shows_the_record_and_its_edges() {
    let f = copy_fixture("why");
    let (code, text) = markdown(&f, &["record", "ADR-0003"]);
    assert_eq!(code, Some(0));
    for needle in ["ADR-0003", "Auth module", "ADR-0001", "src/auth/"] {
        assert!(text.contains(needle), "missing {needle}:\n{text}");
    }
}

// ------------------------------------------------------------------ help

#[test]
fn help_mentions_every_command_and_option() {
    let run = TestEnv::new().run(["--help"]);
    run.assert_code(0);
    let text = run.stdout();
    for needle in ["check", "why", "record", "--root", "--docs", "--json"] {
        assert!(
            text.contains(needle),
            "--help does not mention {needle}:\n{text}"
        );
    }
}

// ------------------------------------------------------------------ Markdown report

#[test]
fn markdown_report_has_summary_problems_warnings_and_records_table() {
    let f = copy_fixture("checks/superseded-still-current");
    let j = f.run_json(&[]).json();
    let (code, text) = markdown(&f, &[]);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = text.lines().collect();
    let lower: Vec<String> = lines.iter().map(|l| l.to_lowercase()).collect();

    // A summary line near the top with the counts: 5 problems, 2 warnings.
    assert!(
        lower.iter().take(10).any(|l| l.contains("problem")
            && l.contains('5')
            && l.contains("warning")
            && l.contains('2')),
        "no summary line with 5 problems and 2 warnings near the top:\n{text}"
    );

    // A problems section, then a warnings section.
    let is_heading = |l: &str| l.trim_start().starts_with('#') || l.trim_start().starts_with("**");
    let heading = |word: &str, not: &str| {
        lower
            .iter()
            .position(|l| is_heading(l) && l.contains(word) && !l.contains(not))
            .unwrap_or_else(|| panic!("no heading for {word}:\n{text}"))
    };
    let problems = heading("problem", "warning");
    let warnings = heading("warning", "problem");
    assert!(
        problems < warnings,
        "problems come before warnings:\n{text}"
    );
    let problem_part = lines[problems..warnings].join("\n");
    for f in finding_list(&j)
        .iter()
        .filter(|f| f["severity"] == "problem")
    {
        let id = f["record"].as_str().unwrap();
        assert!(
            problem_part.contains(id),
            "problem about {id} not listed:\n{text}"
        );
    }
    let warning_part = lines[warnings..].join("\n");
    for id in ["ADR-0003", "ADR-0015"] {
        assert!(
            warning_part.contains(id),
            "warning about {id} not listed:\n{text}"
        );
    }

    // A records table: id, title, status, date, governs.
    let header = lower
        .iter()
        .position(|l| {
            l.trim_start().starts_with('|')
                && ["id", "title", "status", "date", "governs"]
                    .iter()
                    .all(|w| l.contains(w))
        })
        .unwrap_or_else(|| panic!("no records table header:\n{text}"));
    let table: Vec<&str> = lines[header..]
        .iter()
        .take_while(|l| l.trim_start().starts_with('|'))
        .copied()
        .collect();
    for r in records(&j) {
        let id = r["id"].as_str().unwrap();
        let title = r["title"].as_str().unwrap();
        assert!(
            table
                .iter()
                .any(|row| row.contains(id) && row.contains(title)),
            "no table row for {id} ({title}):\n{text}"
        );
    }
}

#[test]
fn markdown_has_no_colour_when_stdout_is_not_a_tty() {
    // `markdown` itself fails on any ESC byte; run every command once.
    let f = copy_fixture("checks/superseded-still-current");
    markdown(&f, &[]);
    markdown(&f, &["why", "docs"]);
    markdown(&f, &["record", "ADR-0001"]);
    let help = TestEnv::new().run(["--help"]);
    assert!(!help.stdout.contains(&0x1b), "{}", help.describe());
}

#[test]
fn control_characters_in_titles_are_escaped_in_markdown() {
    let f = empty_root();
    f.write("src/app/main.py", b"print(1)\n");
    f.write(
        "docs/adr/0001-evil-title.md",
        b"# 1. Evil \x1b[31mred\x1b[0m title\x07\n\nStatus: Accepted\n\nOwns `src/app/`.\n",
    );
    f.write(
        "docs/adr/0002-another.md",
        b"# 2. Another\n\nStatus: Accepted\n\nSee ADR-0001.\n",
    );
    for args in [
        &[][..],
        &["why", "src/app"][..],
        &["record", "ADR-0001"][..],
        &["record", "ADR-0002"][..],
    ] {
        let run = f.run_md(args);
        assert!(!run.timed_out, "{}", run.describe());
        for byte in [0x1bu8, 0x07] {
            assert!(
                !run.stdout.contains(&byte),
                "raw control byte {byte:#x} in the output of {args:?}: {}",
                run.describe()
            );
        }
        if args.is_empty() || args[1] == "ADR-0001" || args[0] == "why" {
            assert!(run.stdout().contains("Evil"), "{}", run.describe());
        }
    }
    // A record file name with an ESC in it: paths are escaped too.
    f.write(
        "docs/adr/0003-odd\x1bname.md",
        b"# 3. Odd name\n\nStatus: Accepted\n",
    );
    for args in [&[][..], &["record", "ADR-0003"][..]] {
        let run = f.run_md(args);
        run.assert_code(0);
        assert!(
            !run.stdout.contains(&0x1b),
            "raw ESC from a path in the output of {args:?}: {}",
            run.describe()
        );
        assert!(run.stdout().contains("Odd name"), "{}", run.describe());
    }
    // The JSON keeps the title as data, escaped by JSON itself.
    let run = f.run_json(&[]);
    assert!(!run.stdout.contains(&0x1b));
    assert!(record(&run.json(), "ADR-0001")["title"]
        .as_str()
        .unwrap()
        .contains("Evil"));
}

// ------------------------------------------------------------------ discovery

#[test]
fn discovery_reads_every_default_folder_recursively() {
    let j = json("discovery");
    assert_eq!(
        record_paths(&j),
        sorted(&[
            "adr/0004-top-level-adr.md",
            "architecture/decisions/0005-architecture-decisions.md",
            "doc/architecture/decisions/0006-doc-architecture.md",
            "docs/adr/0001-first.md",
            "docs/adr/nested/0002-nested.md",
            "docs/decisions/0003-decisions-folder.md",
            "docs/designs/0008-designs-folder.md",
            "docs/rfc/0007-rfc-folder.md",
        ])
    );
}

#[test]
fn discovery_skips_readme_index_templates_and_0000_files() {
    let j = json("discovery");
    let paths = record_paths(&j);
    for skipped in [
        "docs/adr/README.md",
        "docs/adr/index.md",
        "docs/adr/template.md",
        "docs/adr/adr-Template-long.md",
        "docs/adr/0042-TEMPLATE.md",
        "docs/adr/0000-use-adrs.md",
        "docs/adr/notes.txt",
        "docs/other/0099-not-in-a-record-folder.md",
        "knowledge/choices/0001-custom-folder.md",
    ] {
        assert!(
            !paths.iter().any(|p| p == skipped),
            "{skipped} read as a record"
        );
    }
    let ids = ids(&j);
    for id in ["ADR-0000", "ADR-0041", "ADR-0042", "ADR-0099"] {
        assert!(
            !ids.iter().any(|i| i == id),
            "{id} read as a record: {ids:?}"
        );
    }
}

#[test]
fn guides_in_hidden_and_build_folders_are_skipped() {
    let j = json("discovery");
    let mut docs: Vec<String> = j["docs"]
        .as_array()
        .expect("docs")
        .iter()
        .map(|d| d["path"].as_str().unwrap().to_string())
        .collect();
    docs.sort();
    assert_eq!(docs, ["README.md", "docs/guide.md"]);
}

#[test]
fn docs_option_replaces_the_default_folders() {
    let (code, j) = check_args("discovery", &["--docs", "knowledge/choices"]);
    assert_eq!(code, Some(0), "{j:#}");
    assert_eq!(
        record_paths(&j),
        ["knowledge/choices/0001-custom-folder.md"]
    );
    assert_eq!(ids(&j), ["DR-0001"]);
}

#[test]
fn docs_option_is_repeatable() {
    let (_, j) = check_args(
        "discovery",
        &["--docs", "knowledge/choices", "--docs", "adr"],
    );
    let mut got = ids(&j);
    got.sort();
    assert_eq!(got, ["ADR-0004", "DR-0001"]);
}

#[test]
fn gitignored_guides_are_skipped() {
    let f = copy_fixture("checks/doc-cites-superseded");
    let git = f
        .command("git")
        .args(["init", "-q"])
        .current_dir(&f.root)
        .status()
        .expect("run git init");
    assert!(git.success());
    f.write(".gitignore", b"generated/\n");
    f.write("generated/old-notes.md", b"# Old notes\n\nSee ADR-0001.\n");
    let run = f.run_json(&[]);
    run.assert_code(0);
    let j = run.json();
    let docs: Vec<&str> = j["docs"]
        .as_array()
        .expect("docs")
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert!(!docs.contains(&"generated/old-notes.md"), "{docs:?}");
    assert!(docs.contains(&"docs/onboarding.md"), "{docs:?}");
    assert!(!finding_list(&j)
        .iter()
        .any(|f| f["path"] == "generated/old-notes.md"));
}

fn make_fifo(f: &Fixture, rel: &str) {
    let path = f.path(rel);
    let status = f.command("mkfifo").arg(&path).status().expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_named_like_a_record_does_not_hang() {
    let f = copy_fixture("why");
    make_fifo(&f, "docs/adr/x.md");
    make_fifo(&f, "docs/pipe.md");
    for args in [&[][..], &["why", "src/auth"][..]] {
        let run = f.run_json(args);
        assert!(!run.timed_out, "hung on a FIFO: {}", run.describe());
        run.assert_code(0);
        let j = run.json();
        assert!(!records(&j).iter().any(|r| r["path"] == "docs/adr/x.md"));
    }
    let j = f.run_json(&[]).json();
    assert_eq!(records(&j).len(), 6, "{:?}", ids(&j));
}

#[test]
fn a_symlink_loop_does_not_hang() {
    use std::os::unix::fs::symlink;
    let f = copy_fixture("why");
    symlink(".", f.path("docs/adr/loop")).unwrap();
    symlink("self.md", f.path("docs/adr/self.md")).unwrap();
    std::fs::create_dir_all(f.path("docs/guides")).unwrap();
    symlink("..", f.path("docs/guides/up")).unwrap();
    symlink("../..", f.path("src/auth/top")).unwrap();
    let run = f.run_json(&[]);
    assert!(!run.timed_out, "hung on a symlink loop: {}", run.describe());
    run.assert_code(0);
    let j = run.json();
    let count = records(&j).iter().filter(|r| r["id"] == "ADR-0002").count();
    assert_eq!(
        count,
        1,
        "ADR-0002 read {count} times: {:?}",
        record_paths(&j)
    );
    let why = f.run_json(&["why", "src/auth"]);
    assert!(
        !why.timed_out,
        "why hung on a symlink loop: {}",
        why.describe()
    );
    why.assert_code(0);
}

#[test]
fn a_non_utf8_record_is_skipped_with_a_note() {
    let f = copy_fixture("why");
    f.write(
        "docs/adr/0009-latin1.md",
        b"# 9. Caf\xe9 au lait\n\nStatus: Accepted\n\nOwns `src/billing/`.\n",
    );
    let run = f.run_json(&[]);
    run.assert_code(0);
    let j = run.json();
    assert!(
        !records(&j)
            .iter()
            .any(|r| r["path"] == "docs/adr/0009-latin1.md"),
        "a non-UTF-8 file was read as a record"
    );
    let notes = strings(&j["notes"]);
    assert!(
        notes.iter().any(|n| n.contains("0009-latin1.md")),
        "no note names the skipped file: {notes:?}"
    );
    // The Markdown report carries the note too, and still works.
    let (code, text) = markdown(&f, &[]);
    assert_eq!(code, Some(0));
    assert!(text.contains("0009-latin1.md"), "{text}");
}
