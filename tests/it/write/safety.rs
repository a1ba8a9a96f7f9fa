//! What a write refuses, `--dry-run`, two writers at once, a read-only folder, and the index
//! fresh afterwards.

use super::*;
use crate::git::GitRepo;

#[test]
fn unknown_ids_are_refused_and_nothing_is_written() {
    let f = adr_tools_root();
    let before = snapshot(&f);
    refused(&f, &["supersede", "ADR-0009", "X"], "ADR-0009");
    refused(&f, &["amend", "9", "X"], "9");
    refused(&f, &["status", "RFC-2", "accepted"], "RFC-2");
    refused(&f, &["status", "2", "bogus"], "bogus");
    refused(&f, &["new", "X", "--date", "2024-13-45"], "--date");
    assert_eq!(snapshot(&f), before);
}

#[test]
fn dry_run_writes_nothing_and_prints_the_diff() {
    let f = adr_tools_root();
    let before = snapshot(&f);
    let out = ok(
        &f,
        &[
            "supersede",
            "2",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--dry-run",
        ],
    );
    assert!(out.starts_with("would create doc/adr/0003-use-mysql.md (ADR-0003)\nwould change doc/adr/0002-use-postgres.md (ADR-0002)\n"), "{out}");
    assert!(out.contains("--- a/doc/adr/0002-use-postgres.md\n+++ b/doc/adr/0002-use-postgres.md\n@@ -7,1 +7,1 @@\n-Accepted\n+Superseded by [3. Use MySQL](0003-use-mysql.md)\n"), "{out}");
    assert!(
        out.contains("+++ b/doc/adr/0003-use-mysql.md\n@@ -0,0 +1,"),
        "{out}"
    );
    let v = ok_json(&f, &["status", "1", "deprecated", "--dry-run"]);
    assert_eq!(v["dry_run"], true);
    assert_eq!(
        v["written"][0]["path"],
        "doc/adr/0001-record-architecture-decisions.md"
    );
    refused(
        &f,
        &["init", "--dry-run", "--folder", "other/adr"],
        "records exist already",
    );
    let e = empty_root();
    let out = ok(&e, &["init", "--dry-run", "--date", "2024-01-02"]);
    assert!(out.starts_with("would create docs/adr/0001-record-architecture-decisions.md (ADR-0001)\nwould create .adr-dir\n"), "{out}");
    assert!(snapshot(&e).is_empty());
    assert_eq!(snapshot(&f), before);
}

#[test]
fn several_folders_need_folder() {
    let f = adr_tools_root();
    f.write("docs/rfcs/0001-x.md", b"# RFC 1: X\n\nStatus: Accepted\n");
    refused(&f, &["new", "Y"], "--folder");
    let out = ok(
        &f,
        &["new", "Y", "--folder", "docs/rfcs", "--date", "2024-05-01"],
    );
    assert_eq!(out, "created docs/rfcs/0002-y.md (RFC-0002)\n");
}

#[test]
fn two_writers_at_once_take_two_numbers() {
    let f = adr_tools_root();
    let root = f.root.to_string_lossy().into_owned();
    for round in 0..3 {
        let runs: Vec<_> = (0..4)
            .map(|i| {
                let title = format!("Writer {round} {i}");
                f.env.spawn(
                    &f.root,
                    ["new", title.as_str(), "--root", root.as_str(), "--json"],
                    &[],
                )
            })
            .collect();
        for r in runs {
            r.finish().assert_code(0);
        }
    }
    let mut numbers: Vec<String> = std::fs::read_dir(f.path("doc/adr"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy()[..4].to_string())
        .collect();
    numbers.sort();
    let expected: Vec<String> = (1..=14).map(|n| format!("{n:04}")).collect();
    assert_eq!(numbers, expected);
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn a_read_only_folder_is_refused_with_nothing_written() {
    let f = adr_tools_root();
    let dir = f.path("doc/adr");
    // `chattr +i` stops root too; without it, only a user other than root can be refused.
    let immutable = f
        .command("chattr")
        .arg("+i")
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success());
    if !immutable {
        let mut perms = std::fs::metadata(&dir).unwrap().permissions();
        use std::os::unix::fs::PermissionsExt;
        perms.set_mode(0o555);
        std::fs::set_permissions(&dir, perms).unwrap();
        if std::fs::write(dir.join("probe"), b"").is_ok() {
            let _ = std::fs::remove_file(dir.join("probe"));
            crate::skip::skipped(
                "running as root without chattr, a folder can't be made read-only",
            );
            return;
        }
    }
    let before = snapshot(&f);
    let run = f.run_md(&["supersede", "2", "Use MySQL", "--date", "2024-05-01"]);
    if immutable {
        let _ = f.command("chattr").arg("-i").arg(&dir).status();
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    run.assert_usage_error();
    assert!(
        run.stderr
            .contains("cannot create doc/adr/0003-use-mysql.md"),
        "{}",
        run.describe()
    );
    assert_eq!(snapshot(&f), before);
}

#[test]
fn the_index_is_fresh_after_a_write_and_the_check_is_clean() {
    let repo = GitRepo::new();
    repo.write("doc/adr/0001-record-architecture-decisions.md", ADR_TOOLS_1);
    repo.write("doc/adr/0002-use-postgres.md", ADR_TOOLS_2);
    repo.commit_at("2024-03-01T10:00:00Z", "Fixture", "records");
    repo.run(&["index"]).assert_code(0);
    for args in [
        &["new", "Use Redis", "--date", "2024-05-01"][..],
        &[
            "supersede",
            "2",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
        &["status", "3", "accepted"],
    ] {
        repo.run(args).assert_code(0);
        assert_eq!(repo.index_status()["fresh"], true, "after {args:?}");
    }
    let check = repo.run(&["check", "--json"]);
    check.assert_code(0);
    assert_eq!(findings(&check.json()), Vec::<(String, String)>::new());
    assert_eq!(
        ids(&check.json()),
        ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]
    );
}

#[test]
fn init_writes_the_first_record_and_refuses_a_second_time() {
    let f = empty_root();
    let out = ok(&f, &["init", "--date", "2024-01-02"]);
    assert_eq!(
        out,
        "created docs/adr/0001-record-architecture-decisions.md (ADR-0001)\ncreated .adr-dir\n"
    );
    let text = read(&f, "docs/adr/0001-record-architecture-decisions.md");
    assert!(text.starts_with("# 1. Record architecture decisions\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n"), "{text}");
    assert_eq!(read(&f, ".adr-dir"), "docs/adr\n");
    refused(&f, &["init"], "records exist already");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
    ok(&f, &["new", "Use Rust", "--date", "2024-05-01"]);
    assert!(f.path("docs/adr/0002-use-rust.md").is_file());

    let m = empty_root();
    ok(
        &m,
        &[
            "init",
            "--format",
            "madr",
            "--folder",
            "docs/decisions",
            "--date",
            "2024-01-02",
        ],
    );
    let text = read(&m, "docs/decisions/0001-record-architecture-decisions.md");
    assert!(
        text.starts_with(
            "---\nstatus: accepted\ndate: 2024-01-02\n---\n\n# Record architecture decisions\n"
        ),
        "{text}"
    );
    assert!(!m.path(".adr-dir").exists());
    ok(&m, &["new", "Use Rust", "--date", "2024-05-01"]);
    assert!(read(&m, "docs/decisions/0002-use-rust.md")
        .starts_with("---\nstatus: proposed\ndate: 2024-05-01\n---\n"));
    assert_eq!(check_findings(&m), Vec::<(String, String)>::new());
}
