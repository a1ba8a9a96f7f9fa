//! Discovery of record files and guides (the default folders, `--docs`, the names skipped, hidden,
//! build and ignored folders), and the files that must never hang or break it: a FIFO, a symlink
//! loop, a file that is not UTF-8.

use super::markdown;
use crate::fixture::*;
use serde_json::Value;

fn record_paths(j: &Value) -> Vec<String> {
    let mut v: Vec<String> = records(j)
        .iter()
        .map(|r| r["path"].as_str().unwrap_or("").to_string())
        .collect();
    v.sort();
    v
}

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
            // A record titled "Template", as `new "Template"` names it: a record's number
            // makes the name a record's (issue 39).
            "docs/adr/0042-TEMPLATE.md",
            "docs/adr/nested/0002-nested.md",
            "docs/decisions/0003-decisions-folder.md",
            "docs/designs/0008-designs-folder.md",
            "docs/rfc/0007-rfc-folder.md",
        ])
    );
}

#[test]
fn discovery_skips_readme_index_templates_and_0000_templates() {
    let j = json("discovery");
    let paths = record_paths(&j);
    for skipped in [
        "docs/adr/README.md",
        "docs/adr/index.md",
        "docs/adr/template.md",
        "docs/adr/adr-Template-long.md",
        // A `0000-` file holding a template's placeholders (docs/reading.md).
        "docs/adr/0000-short-title.md",
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
    for id in ["ADR-0000", "ADR-0041", "ADR-0099"] {
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
