//! The markers' findings (docs/reading.md, docs/markers.md): `dangling-marker` for an id no record has,
//! `stale-marker` for a record that no longer holds, naming its successor; both warnings, so
//! a marker never changes an exit code by itself.

use super::{assert_same, findings_of, json, records_repo};

#[test]
fn a_marker_naming_no_record_is_a_dangling_marker() {
    let repo = records_repo();
    repo.write("src/a.rs", "// A.\n// @adr 99, 12\n")
        .write("src/b.py", "# @rfc 8\n");
    let out = repo.run(&["check", "--json"]);
    assert_eq!(out.code, Some(0), "warnings only: {}", out.describe());
    let doc = out.json();
    assert_eq!(
        findings_of(&doc, "dangling-marker"),
        [
            (
                "ADR-0099".to_string(),
                "src/a.rs".to_string(),
                "`src/a.rs:2` declares ADR-0099, which doesn't exist: correct the marker, or remove it"
                    .to_string()
            ),
            (
                "RFC-0008".to_string(),
                "src/b.py".to_string(),
                "`src/b.py:1` declares RFC-0008, which doesn't exist: correct the marker, or remove it"
                    .to_string()
            ),
        ]
    );
    assert!(findings_of(&doc, "stale-marker").is_empty(), "{doc:#}");
    assert_same(&repo, "dangling", &["check", "--json"]);
}

#[test]
fn a_marker_naming_a_record_that_no_longer_holds_is_stale() {
    let repo = records_repo();
    repo.write("src/old.rs", "// @adr 2\n")
        .write("src/gone.rs", "// @adr 4\n")
        .write("src/never.rs", "// @adr 5\n")
        .write("src/fine.rs", "// @adr 3, 6, 12\n");
    let doc = json(&repo, &["check"]);
    let stale = findings_of(&doc, "stale-marker");
    assert_eq!(
        stale
            .iter()
            .map(|(r, p, _)| (r.as_str(), p.as_str()))
            .collect::<Vec<_>>(),
        [
            ("ADR-0002", "src/old.rs"),
            ("ADR-0004", "src/gone.rs"),
            ("ADR-0005", "src/never.rs")
        ],
        "current and proposed records are not stale: {doc:#}"
    );
    assert_eq!(
        stale[0].2,
        "`src/old.rs:1` declares ADR-0002, which is superseded by ADR-0003: point the marker at ADR-0003"
    );
    assert!(
        stale[1]
            .2
            .contains("`src/gone.rs:1` declares ADR-0004, which is deprecated"),
        "{}",
        stale[1].2
    );
    assert!(
        stale[2]
            .2
            .contains("`src/never.rs:1` declares ADR-0005, which was rejected"),
        "{}",
        stale[2].2
    );
    assert!(findings_of(&doc, "dangling-marker").is_empty());
}

#[test]
fn a_marker_never_changes_an_exit_code() {
    let repo = records_repo();
    // A problem of the records' own: ADR-0008 is superseded by ADR-0003 but still accepted.
    repo.write(
        "docs/adr/0008-still.md",
        "# 8. Still\n\nStatus: Accepted\n\nSuperseded by ADR-0003.\n",
    );
    let before = repo.run(&["check", "--json"]);
    assert_eq!(before.code, Some(1), "{}", before.describe());
    repo.write("src/a.rs", "// @adr 99\n")
        .write("src/b.rs", "// @adr 2\n");
    let after = repo.run(&["check", "--json"]);
    assert_eq!(
        after.code,
        Some(1),
        "the problem still decides: {}",
        after.describe()
    );
    repo.remove("docs/adr/0008-still.md");
    let clean = repo.run(&["check", "--json"]);
    assert_eq!(
        clean.code,
        Some(0),
        "warnings alone exit 0: {}",
        clean.describe()
    );
    assert_eq!(findings_of(&clean.json(), "dangling-marker").len(), 1);
    for q in [
        &["why", "src/a.rs"][..],
        &["why", "src/b.rs"],
        &["record", "2"],
    ] {
        let out = repo.run(q);
        assert_eq!(out.code, Some(0), "{}", out.describe());
    }
}

#[test]
fn each_question_shows_the_findings_of_the_markers_it_is_about() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 2, 99\n")
        .write("src/b.rs", "// @adr 2\n")
        .write("src/c.rs", "// @adr 98\n");
    // `why FILE`: the findings about FILE's markers, not another file's.
    let a = json(&repo, &["why", "src/a.rs"]);
    let places = |doc: &serde_json::Value, code: &str| -> Vec<String> {
        findings_of(doc, code)
            .into_iter()
            .map(|(r, p, _)| format!("{r} {p}"))
            .collect()
    };
    assert_eq!(places(&a, "stale-marker"), ["ADR-0002 src/a.rs"]);
    assert_eq!(places(&a, "dangling-marker"), ["ADR-0099 src/a.rs"]);
    // `record ID`: every marker naming it.
    let r = json(&repo, &["record", "ADR-0002"]);
    assert_eq!(
        places(&r, "stale-marker"),
        ["ADR-0002 src/a.rs", "ADR-0002 src/b.rs"]
    );
    assert!(places(&r, "dangling-marker").is_empty());
    // The full check: all of them.
    let all = json(&repo, &["check"]);
    assert_eq!(
        places(&all, "dangling-marker"),
        ["ADR-0098 src/c.rs", "ADR-0099 src/a.rs"]
    );
    for q in [
        &["why", "src/a.rs", "--json"][..],
        &["why", "src", "--json"],
        &["record", "ADR-0002", "--json"],
        &["why", "src/a.rs", "--git", "--json"],
        &["why", "src/a.rs"],
    ] {
        assert_same(&repo, "findings", q);
    }
    // The Markdown `why`: the stale record's warning is counted under it, the dangling one
    // (about no record shown) listed in full.
    let text = repo.run(&["why", "src/a.rs"]).stdout();
    assert!(
        text.contains("  - 1 warning: `context-graph record ADR-0002`"),
        "{text}"
    );
    assert!(
        text.contains("## Warnings\n\n- **ADR-0099** `dangling-marker` (src/a.rs): `src/a.rs:1` declares ADR-0099"),
        "{text}"
    );
}
