//! Overviews in a folder of numbered records (docs/reading.md, "Which files are records"): an
//! unnumbered file with a heading and nothing of a record (no status, date, id or decision
//! section) among numbered records is no record, whether or not a record points to it.

/// A folder of numbered records holding an overview (hermes' `docs/architecture/architecture.md`:
/// a heading, a code map, no status, date or decision section) reads the overview as no record:
/// `check` no longer asks it for a status, and it governs none of the folders its map names.
/// Unnumbered designs in a folder that is not mostly numbered stay records.
#[test]
fn an_overview_among_numbered_records_is_no_record() {
    let f = crate::fixture::empty_root();
    for (n, title) in [
        (1, "Repository layout"),
        (2, "Error handling"),
        (3, "CLI flags"),
    ] {
        f.write(
            &format!("docs/architecture/adr-00{n}-x.md"),
            format!("# ADR 00{n}: {title}\n\n## Status\n\nAccepted\n\n## Decision\n\nDo it.\n")
                .as_bytes(),
        );
    }
    f.write(
        "docs/architecture/architecture.md",
        b"# Architecture\n\nThis document describes the code base.\n\n## Code Map\n\n### `crates/relayer`\n\nThe relayer.\n",
    );
    f.write("crates/relayer/lib.rs", b"fn main() {}\n");
    f.write(
        "docs/design/0001-queues.md",
        b"# Queues\n\n## Status\n\nAccepted\n\n## Decision\n\nQueue.\n",
    );
    f.write("docs/design/0002-retries.md", b"# Retries\n\nAccepted\n");
    f.write(
        "docs/design/drf.md",
        b"## Dominant Resource Fairness\n\nShares.\n",
    );
    let out = f.run_json(&[
        "check",
        "--docs",
        "docs/architecture",
        "--docs",
        "docs/design",
    ]);
    let doc = out.json();
    let paths = crate::fixture::record_paths(&doc);
    assert!(
        !paths.contains(&"docs/architecture/architecture.md".to_string()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"docs/architecture/adr-001-x.md".to_string()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"docs/design/drf.md".to_string()),
        "{paths:?}"
    );
    let said = doc["findings"].to_string();
    assert!(!said.contains("architecture.md"), "{said}");
}

/// An overview a record points to is still no record: CDCgov/trusted-intermediary's first
/// record says "Please see [adr-guidelines.md](adr-guidelines.md) before completing", and its
/// formatting checklist (a heading, numbered advice, no status, date or decision section) was
/// read as a record missing its status.
#[test]
fn an_overview_a_record_points_to_is_no_record() {
    let f = crate::fixture::empty_root();
    f.write(
        "adr/001-architecture-decision-records.md",
        b"# 1. Architecture Decision Records\n\nDate: 2022-10-21\n\n## Decision\n\nWe write ADRs.\n\n### Please see [adr-guidelines.md](adr-guidelines.md) before completing.\n",
    );
    for (n, title) in [(2, "Java"), (3, "Gradle")] {
        f.write(
            &format!("adr/00{n}-x.md"),
            format!("# {n}. {title}\n\nDate: 2022-10-24\n\n## Decision\n\nUse {title}.\n")
                .as_bytes(),
        );
    }
    f.write(
        "adr/adr-guidelines.md",
        b"# Architectural Decision Record Formatting Checklist\n\n1. Review the Context section.\n\n2. Embolden bulleted titles.\n",
    );
    let doc = f.run_json(&["check", "--docs", "adr"]).json();
    let paths = crate::fixture::record_paths(&doc);
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(
        !paths.contains(&"adr/adr-guidelines.md".to_string()),
        "{paths:?}"
    );
    let said = doc["findings"].to_string();
    assert!(!said.contains("adr-guidelines"), "{said}");
    let first = &doc["records"][0];
    assert_eq!(first["cites"], serde_json::json!([]), "{first:#}");
}
