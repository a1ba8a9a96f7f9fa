//! What is printed for people: `--help`, and the Markdown report (summary, problems, warnings, the
//! records table; no colour off a TTY; control characters escaped).

use super::markdown;
use crate::env::TestEnv;
use crate::fixture::*;

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
