//! Never lose a record (issue 38, ADR-0013): every write goes beside and is renamed over (a new
//! record linked into place), so a kill half way through a write (the failpoint
//! `record=abort@N`) or a full disk (`record=N`) leaves every record byte for byte; the mode and
//! the line endings are kept; and writers at once, `new`, `supersede` and `amend` alike, take
//! distinct numbers under the folder's lock.

use super::*;
use crate::git::GitRepo;
use std::os::unix::fs::PermissionsExt;

/// `context-graph ARGS --root ROOT` with the failpoints `spec`.
fn run_faulty(f: &Fixture, args: &[&str], spec: &str) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    let root = f.root.to_string_lossy().into_owned();
    all.extend(["--root", root.as_str()]);
    f.env
        .run_with(f.env.path(), &all, &[("CONTEXT_GRAPH_FAILPOINTS", spec)])
}

/// The snapshot without hidden files: what a reader of the folder sees as records (a kill
/// leaves its temporary file, `.NAME.PID-N.tmp`, which no reader takes for a record).
fn visible(f: &Fixture) -> Vec<(String, Vec<u8>)> {
    snapshot(f)
        .into_iter()
        .filter(|(rel, _)| !rel.rsplit('/').next().unwrap_or("").starts_with('.'))
        .collect()
}

/// Killed by the failpoint, not ended by itself.
fn assert_killed(run: &Run) {
    assert!(
        !run.timed_out && run.code.is_none(),
        "expected a kill: {}",
        run.describe()
    );
}

#[test]
fn a_kill_half_way_through_a_write_leaves_every_record_byte_for_byte() {
    let date = ["--date", "2024-05-01"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["status", "2", "deprecated"], "record=abort@1"),
        (vec!["new", "Use Redis"], "record=abort@1"),
        (vec!["supersede", "2", "Use MySQL"], "record=abort@1"),
        (vec!["amend", "2", "Use MySQL"], "record=abort@1"),
    ];
    for (args, spec) in cases {
        let f = adr_tools_root();
        let before = snapshot(&f);
        let mut args = args.clone();
        if args[0] != "status" {
            args.extend(date);
        }
        assert_killed(&run_faulty(&f, &args, spec));
        assert_eq!(visible(&f), before, "{args:?} killed");
        // The folder reads as before: the temporary file left is no record.
        assert_eq!(
            check_findings(&f),
            Vec::<(String, String)>::new(),
            "{args:?}"
        );
        let listed = f.run_json(&["check"]).json();
        assert_eq!(
            record_paths(&listed),
            [
                "doc/adr/0001-record-architecture-decisions.md",
                "doc/adr/0002-use-postgres.md"
            ],
            "{args:?}"
        );
    }
    // Killed while changing the old record, after the new one is written: the new one is
    // whole (as a run that is not killed writes it) and the old one byte for byte.
    for verb in ["supersede", "amend"] {
        let args = [verb, "2", "Use MySQL", "--date", "2024-05-01"];
        let clean = adr_tools_root();
        ok(&clean, &args);
        let f = adr_tools_root();
        assert_killed(&run_faulty(&f, &args, "record=abort@2"));
        assert_eq!(
            read(&f, "doc/adr/0003-use-mysql.md"),
            read(&clean, "doc/adr/0003-use-mysql.md"),
            "{verb}"
        );
        assert_eq!(
            read(&f, "doc/adr/0002-use-postgres.md"),
            ADR_TOOLS_2,
            "{verb}"
        );
    }
}

#[test]
fn a_kill_during_scope_add_leaves_the_record_byte_for_byte() {
    let record = "# 1. Sessions\r\n\r\nStatus: Accepted\r\nDate: 2025-01-01\r\n\r\n## Context\r\n";
    let g = GitRepo::new();
    g.write("docs/adr/0001-sessions.md", record);
    g.write("lib/billing/invoice.rb", "# invoice\n");
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    let file = g.path().join("docs/adr/0001-sessions.md");
    let args = ["scope", "1", "--add", "lib/billing"];
    assert_killed(&g.run_with(&args, &[("CONTEXT_GRAPH_FAILPOINTS", "record=abort@1")]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), record);
    let run = g.run_with(&args, &[("CONTEXT_GRAPH_FAILPOINTS", "record=1")]);
    run.assert_usage_error();
    assert!(
        run.stderr.contains("docs/adr/0001-sessions.md"),
        "{}",
        run.describe()
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), record);
    // No temporary file is left by a failure that is not a kill: only the kill's.
    let left: Vec<String> = std::fs::read_dir(g.path().join("docs/adr"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    g.run(&args).assert_code(0);
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("Governs: `lib/billing/`\r\n"));
}

#[test]
fn a_full_disk_exits_2_and_leaves_every_file_byte_for_byte() {
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["status", "2", "deprecated"],
            "record=1",
            "0002-use-postgres.md",
        ),
        (
            &["new", "Use Redis", "--date", "2024-05-01"],
            "record=1",
            "0003-use-redis.md",
        ),
        (
            &["supersede", "2", "Use MySQL"],
            "record=1",
            "0003-use-mysql.md",
        ),
        // The new record written, the old one's change fails: the new one is taken back.
        (
            &["supersede", "2", "Use MySQL"],
            "record=2",
            "0002-use-postgres.md",
        ),
        (
            &["amend", "2", "Use MySQL"],
            "record=2",
            "0002-use-postgres.md",
        ),
    ];
    for (args, spec, names) in cases {
        let f = adr_tools_root();
        let before = snapshot(&f);
        let run = run_faulty(&f, args, spec);
        run.assert_usage_error();
        assert!(
            run.stderr.contains(names) && run.stderr.contains("no space left"),
            "{}",
            run.describe()
        );
        // Hidden files included: no temporary file is left either.
        assert_eq!(snapshot(&f), before, "{args:?} {spec}");
    }
    // Two records changed, the second's change fails: the first gets its old bytes back.
    let f = adr_tools_root();
    let before = snapshot(&f);
    let args = ["new", "Use MySQL", "--supersedes", "1", "--supersedes", "2"];
    let run = run_faulty(&f, &args, "record=3");
    run.assert_usage_error();
    assert!(
        run.stderr.contains("0002-use-postgres.md"),
        "{}",
        run.describe()
    );
    assert_eq!(snapshot(&f), before);
    // `init` writes its record and `.adr-dir`: either failing leaves nothing.
    for spec in ["record=1", "record=2"] {
        let e = empty_root();
        let run = run_faulty(&e, &["init", "--folder", "decisions"], spec);
        run.assert_usage_error();
        assert!(snapshot(&e).is_empty(), "{spec}: {:?}", snapshot(&e));
    }
}

#[test]
fn a_rewritten_record_keeps_its_mode_and_crlf_line_endings() {
    let crlf = ADR_TOOLS_2.replace('\n', "\r\n");
    let f = root_with(&[
        ("doc/adr/0001-record-architecture-decisions.md", ADR_TOOLS_1),
        ("doc/adr/0002-use-postgres.md", &crlf),
    ]);
    let path = f.path("doc/adr/0002-use-postgres.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    ok(&f, &["status", "2", "deprecated"]);
    let after = read(&f, "doc/adr/0002-use-postgres.md");
    assert_eq!(
        changed_lines(&crlf, &after),
        [("Accepted\r\n".to_string(), "Deprecated\r\n".to_string())]
    );
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o640);
    ok(&f, &["supersede", "2", "Use MySQL", "--force"]);
    let after = read(&f, "doc/adr/0002-use-postgres.md");
    assert!(
        after.contains("Superseded by [3. Use MySQL](0003-use-mysql.md)\r\n"),
        "{after:?}"
    );
    assert_eq!(after.matches('\n').count(), after.matches("\r\n").count());
    assert_eq!(mode(&path), 0o640);
    // The new record takes the mode a new file gets, not the temporary file's.
    assert_eq!(
        mode(&f.path("doc/adr/0003-use-mysql.md")),
        mode(&f.path("doc/adr/0001-record-architecture-decisions.md"))
    );
}

/// `n` records, `0001-decision-1.md` …, each accepted.
fn many_records(n: usize) -> Fixture {
    let f = empty_root();
    for i in 1..=n {
        f.write(
            &format!("doc/adr/{i:04}-decision-{i}.md"),
            format!("# {i}. Decision {i}\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nText {i}.\n").as_bytes(),
        );
    }
    f
}

/// Runs every command of `runs` at once on `f`, each must succeed; then the folder's numbers are
/// 1..=`total`, each once, and the full check has no finding (no duplicate id, every link and
/// relation whole).
fn all_at_once(f: &Fixture, runs: &[Vec<String>], total: usize) {
    let root = f.root.to_string_lossy().into_owned();
    let running: Vec<_> = runs
        .iter()
        .map(|args| {
            let mut all = args.clone();
            all.extend(["--root".to_string(), root.clone()]);
            f.env.spawn(f.env.path(), all, &[])
        })
        .collect();
    for r in running {
        r.finish().assert_code(0);
    }
    let mut numbers: Vec<String> = std::fs::read_dir(f.path("doc/adr"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy()[..4].to_string())
        .collect();
    numbers.sort();
    let expected: Vec<String> = (1..=total).map(|n| format!("{n:04}")).collect();
    assert_eq!(numbers, expected, "{runs:?}");
    assert_eq!(check_findings(f), Vec::<(String, String)>::new());
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn twelve_supersedes_at_once_take_twelve_numbers() {
    let f = many_records(12);
    let runs: Vec<Vec<String>> = (1..=12)
        .map(|i| args(&["supersede", &i.to_string(), &format!("Successor {i}")]))
        .collect();
    all_at_once(&f, &runs, 24);
    for i in 1..=12 {
        let old = read(&f, &format!("doc/adr/{i:04}-decision-{i}.md"));
        assert!(old.contains("Superseded by ["), "{old}");
    }
}

#[test]
fn twelve_amends_at_once_take_twelve_numbers() {
    let f = many_records(12);
    let runs: Vec<Vec<String>> = (1..=12)
        .map(|i| args(&["amend", &i.to_string(), &format!("Amendment {i}")]))
        .collect();
    all_at_once(&f, &runs, 24);
}

#[test]
fn new_supersede_and_amend_at_once_take_distinct_numbers() {
    let f = many_records(8);
    let mut runs: Vec<Vec<String>> = Vec::new();
    for i in 1..=4 {
        runs.push(args(&["new", &format!("Fresh {i}")]));
        runs.push(args(&[
            "supersede",
            &i.to_string(),
            &format!("Successor {i}"),
        ]));
        runs.push(args(&[
            "amend",
            &(i + 4).to_string(),
            &format!("Amendment {i}"),
        ]));
    }
    all_at_once(&f, &runs, 20);
}
