//! `supersede`, `amend` and `status`: both sides written, the old record changed in its own
//! form on exactly the lines that change, and a full check with no finding about the pair.

use super::*;

fn no_findings(f: &Fixture) {
    assert_eq!(check_findings(f), Vec::<(String, String)>::new());
}

#[test]
fn supersede_on_adr_tools_records_writes_both_sides() {
    let f = adr_tools_root();
    let out = ok(
        &f,
        &[
            "supersede",
            "ADR-2",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    assert_eq!(out, "created doc/adr/0003-use-mysql.md (ADR-0003)\nchanged doc/adr/0002-use-postgres.md (ADR-0002)\n");
    let old = read(&f, "doc/adr/0002-use-postgres.md");
    assert_eq!(
        changed_lines(ADR_TOOLS_2, &old),
        [(
            "Accepted\n".to_string(),
            "Superseded by [3. Use MySQL](0003-use-mysql.md)\n".to_string()
        )]
    );
    assert_eq!(
        read(&f, "doc/adr/0003-use-mysql.md"),
        "# 3. Use MySQL\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)\n\n## Context\n\n## Decision\n\n## Consequences\n"
    );
    let new = record_of(&f, "doc/adr/0003-use-mysql.md");
    assert_eq!(new["supersedes"], serde_json::json!(["ADR-0002"]));
    let old = record_of(&f, "doc/adr/0002-use-postgres.md");
    assert_eq!(old["status"], "superseded");
    assert_eq!(old["superseded_by"], serde_json::json!(["ADR-0003"]));
    no_findings(&f);
}

#[test]
fn an_already_superseded_record_is_refused_without_force() {
    let f = adr_tools_root();
    ok(&f, &["supersede", "2", "Use MySQL", "--date", "2024-05-01"]);
    let before = snapshot(&f);
    refused(
        &f,
        &["supersede", "2", "Use SQLite", "--date", "2024-05-01"],
        "already superseded",
    );
    refused(&f, &["status", "2", "accepted"], "superseded");
    assert_eq!(snapshot(&f), before);
    ok(
        &f,
        &[
            "supersede",
            "2",
            "Use SQLite",
            "--date",
            "2024-05-01",
            "--force",
        ],
    );
    assert!(read(&f, "doc/adr/0002-use-postgres.md")
        .contains("\nSuperseded by [4. Use SQLite](0004-use-sqlite.md)\n"));
}

#[test]
fn amend_adds_amended_by_as_adr_tools_does() {
    let f = adr_tools_root();
    ok(
        &f,
        &["amend", "1", "Keep records short", "--date", "2024-05-01"],
    );
    let old = read(&f, "doc/adr/0001-record-architecture-decisions.md");
    assert_eq!(
        old,
        ADR_TOOLS_1.replace(
            "Accepted\n\n",
            "Accepted\n\nAmended by [3. Keep records short](0003-keep-records-short.md)\n\n"
        )
    );
    let new = record_of(&f, "doc/adr/0003-keep-records-short.md");
    assert_eq!(new["amends"], serde_json::json!(["ADR-0001"]));
    assert_eq!(
        record_of(&f, "doc/adr/0001-record-architecture-decisions.md")["status"],
        "accepted"
    );
    no_findings(&f);
}

#[test]
fn status_changes_one_line_in_each_form() {
    for (path, text, old_line, new_line) in [
        (
            "doc/adr/0002-use-postgres.md",
            ADR_TOOLS_2.to_string(),
            "Accepted\n",
            "Deprecated\n",
        ),
        (
            "docs/adr/0002-x.md",
            "# ADR 2: X\n\nStatus: Accepted\nDate: 2024-01-01\n\n## Context\n".to_string(),
            "Status: Accepted\n",
            "Status: Deprecated\n",
        ),
        (
            "docs/adr/0002-x.md",
            "# X\n\n* Status: accepted\n* Date: 2024-01-01\n".to_string(),
            "* Status: accepted\n",
            "* Status: deprecated\n",
        ),
        (
            "docs/adr/0002-x.md",
            "---\nstatus: \"accepted\"\ndate: 2024-01-01\n---\n\n# X\n".to_string(),
            "status: \"accepted\"\n",
            "status: \"deprecated\"\n",
        ),
        (
            "docs/adr/0002-x.md",
            "# X\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Context\r\n\r\nNo final newline"
                .to_string(),
            "Accepted\r\n",
            "Deprecated\r\n",
        ),
    ] {
        let f = root_with(&[(path, &text)]);
        let out = ok(&f, &["status", "2", "deprecated"]);
        assert!(
            out.starts_with(&format!("changed {path} (ADR-0002)")),
            "{out}"
        );
        let after = read(&f, path);
        assert_eq!(
            changed_lines(&text, &after),
            [(old_line.to_string(), new_line.to_string())],
            "{path}"
        );
        assert_eq!(record_of(&f, path)["status"], "deprecated");
    }
}

#[test]
fn madr_frontmatter_superseded_in_status_as_madr_writes_it() {
    let old = "---\nstatus: accepted\ndate: 2024-01-05\n---\n\n# Use Postgres\n\n## Context and Problem Statement\n\nWhy.\n";
    let f = root_with(&[("docs/decisions/0001-use-postgres.md", old)]);
    ok(
        &f,
        &[
            "supersede",
            "1",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    assert_eq!(
        changed_lines(old, &read(&f, "docs/decisions/0001-use-postgres.md")),
        [(
            "status: accepted\n".to_string(),
            "status: superseded by [ADR-0002](0002-use-mysql.md)\n".to_string()
        )]
    );
    let new = read(&f, "docs/decisions/0002-use-mysql.md");
    assert!(
        new.contains("\n## More Information\n\nSupersedes [ADR-0001](0001-use-postgres.md)\n"),
        "{new}"
    );
    no_findings(&f);
}

#[test]
fn madr_2_status_line_superseded() {
    let old = "# Use Postgres\n\n* Status: accepted\n* Date: 2024-01-05\n\n## Context and Problem Statement\n\nWhy.\n";
    let f = root_with(&[("docs/adr/0001-use-postgres.md", old)]);
    ok(
        &f,
        &[
            "supersede",
            "1",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    assert_eq!(
        changed_lines(old, &read(&f, "docs/adr/0001-use-postgres.md")),
        [(
            "* Status: accepted\n".to_string(),
            "* Status: superseded by [ADR-0002](0002-use-mysql.md)\n".to_string()
        )]
    );
    let new = read(&f, "docs/adr/0002-use-mysql.md");
    assert!(
        new.contains("* Status: accepted\n* Supersedes [ADR-0001](0001-use-postgres.md)\n"),
        "{new}"
    );
    no_findings(&f);
}

#[test]
fn adrkit_superseded_with_its_successor_key() {
    let f = root_with(&[(
        "docs/adr/0012-resolve-inbound-markers.md",
        super::formats_adrkit(),
    )]);
    // Its `relatesTo: "0009"` names a record not here, and it governs a path not here: those
    // findings are the fixture's own (and the second goes once it is superseded).
    let before = check_findings(&f);
    ok(
        &f,
        &[
            "supersede",
            "ADR-0012",
            "Index markers",
            "--date",
            "2026-09-01",
            "--status",
            "accepted",
        ],
    );
    let old = read(&f, "docs/adr/0012-resolve-inbound-markers.md");
    assert_eq!(
        changed_lines(super::formats_adrkit(), &old),
        [
            (
                "status: accepted\n".to_string(),
                "status: superseded\n".to_string()
            ),
            (
                "supersededBy: null\n".to_string(),
                "supersededBy: \"0013\"\n".to_string()
            ),
        ]
    );
    let new = read(&f, "docs/adr/0013-index-markers.md");
    assert!(new.contains("\nsupersededBy: null\n"), "{new}");
    let r = record_of(&f, "docs/adr/0013-index-markers.md");
    assert_eq!(r["supersedes"], serde_json::json!(["ADR-0012"]));
    let after = check_findings(&f);
    assert!(
        after.iter().all(|x| before.contains(x)),
        "new findings: {after:?} (before {before:?})"
    );
    assert_eq!(
        after,
        [("unknown-reference".to_string(), "ADR-0012".to_string())]
    );
}

#[test]
fn crlf_record_superseded_keeps_its_line_endings() {
    let crlf = ADR_TOOLS_2.replace('\n', "\r\n");
    let f = root_with(&[("doc/adr/0002-use-postgres.md", &crlf)]);
    ok(
        &f,
        &[
            "supersede",
            "2",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    let after = read(&f, "doc/adr/0002-use-postgres.md");
    assert_eq!(
        changed_lines(&crlf, &after),
        [(
            "Accepted\r\n".to_string(),
            "Superseded by [3. Use MySQL](0003-use-mysql.md)\r\n".to_string()
        )]
    );
    no_findings(&f);
}

#[test]
fn a_record_without_status_gets_one() {
    let old = "# 1. Use Postgres\n\n## Context\n\nWhy.\n";
    let f = root_with(&[("docs/adr/0001-use-postgres.md", old)]);
    ok(&f, &["status", "1", "accepted"]);
    assert_eq!(
        read(&f, "docs/adr/0001-use-postgres.md"),
        "# 1. Use Postgres\n\nStatus: Accepted\n\n## Context\n\nWhy.\n"
    );
    no_findings(&f);
}

/// whitehall's ADR-0003 states no status among records with `## Status` sections: `status`
/// and `supersede` give it one as theirs, not a `Status:` line (issue 39).
#[test]
fn a_record_without_status_gets_a_section_where_the_folder_uses_them() {
    let old = "# 3. Multi-part content\n\nDate: 2024-06-04\n\n## Context\n\nWhy.\n";
    let f = root_with(&[
        ("doc/adr/0001-record-architecture-decisions.md", ADR_TOOLS_1),
        ("doc/adr/0002-use-postgres.md", ADR_TOOLS_2),
        ("doc/adr/0003-multi-part-content.md", old),
    ]);
    ok(&f, &["status", "3", "deprecated"]);
    assert_eq!(
        read(&f, "doc/adr/0003-multi-part-content.md"),
        "# 3. Multi-part content\n\nDate: 2024-06-04\n\n## Status\n\nDeprecated\n\n## Context\n\nWhy.\n"
    );
    assert_eq!(
        record_of(&f, "doc/adr/0003-multi-part-content.md")["status"],
        "deprecated"
    );
    no_findings(&f);
    // Superseded, the same: the section says by which.
    let f = root_with(&[
        ("doc/adr/0001-record-architecture-decisions.md", ADR_TOOLS_1),
        ("doc/adr/0002-use-postgres.md", ADR_TOOLS_2),
        ("doc/adr/0003-multi-part-content.md", old),
    ]);
    ok(
        &f,
        &["supersede", "3", "Parts as items", "--date", "2024-07-01"],
    );
    assert_eq!(
        read(&f, "doc/adr/0003-multi-part-content.md"),
        "# 3. Multi-part content\n\nDate: 2024-06-04\n\n## Status\n\nSuperseded by [4. Parts as items](0004-parts-as-items.md)\n\n## Context\n\nWhy.\n"
    );
    assert_eq!(
        record_of(&f, "doc/adr/0003-multi-part-content.md")["status"],
        "superseded"
    );
    no_findings(&f);
}

#[test]
fn madr_3_without_frontmatter_or_status_gets_status_lines() {
    let old = "# Use Postgres\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nPostgres.\n";
    let f = root_with(&[("docs/decisions/0001-use-postgres.md", old)]);
    ok(
        &f,
        &[
            "supersede",
            "1",
            "Use MySQL",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    assert_eq!(
        read(&f, "docs/decisions/0001-use-postgres.md"),
        "# Use Postgres\n\nStatus: Superseded by [ADR-0002](0002-use-mysql.md)\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nPostgres.\n"
    );
    assert_eq!(
        read(&f, "docs/decisions/0002-use-mysql.md"),
        "# Use MySQL\n\nStatus: accepted\nSupersedes [ADR-0001](0001-use-postgres.md)\n\n## Context and Problem Statement\n\n## Decision Outcome\n"
    );
    no_findings(&f);
}

/// Superseding a record in a folder of its own writes the new record beside it, in a folder of
/// its own, and links each to the other's `README.md`.
#[test]
fn supersede_a_record_in_a_folder_of_its_own() {
    let f = root_with(&[
        (
            "rfcs/0004-insecure-http/README.md",
            "# RFC-0004 Block insecure HTTP\n\n**Status:** implementable\n\n## Summary\n\nx\n",
        ),
        (
            "rfcs/0005-digests/README.md",
            "# RFC-0005 Digests\n\n**Status:** implemented\n\n## Summary\n\nx\n",
        ),
    ]);
    let out = ok(&f, &["supersede", "RFC-0004", "Block HTTP for good"]);
    assert_eq!(
        out,
        "created rfcs/0006-block-http-for-good/README.md (RFC-0006)\n\
         changed rfcs/0004-insecure-http/README.md (RFC-0004)\n"
    );
    assert!(
        read(&f, "rfcs/0004-insecure-http/README.md").contains(
            "**Status:** superseded by [RFC-0006](../0006-block-http-for-good/README.md)\n"
        ),
        "{}",
        read(&f, "rfcs/0004-insecure-http/README.md")
    );
    let new = record_of(&f, "rfcs/0006-block-http-for-good/README.md");
    assert_eq!(
        new["supersedes"],
        serde_json::json!(["RFC-0004"]),
        "{new:#}"
    );
    let old = record_of(&f, "rfcs/0004-insecure-http/README.md");
    assert_eq!(old["status"], "superseded", "{old:#}");
    no_findings(&f);
}

/// A record with `#` in its file name is superseded with a link that reaches it: the `#` is
/// written `%23`, or it would start a fragment (issue 36).
#[test]
fn supersede_links_a_record_with_a_hash_in_its_name() {
    let old = "0024-use-#-as-indicator.md";
    let f = root_with(&[(
        &format!("doc/adr/{old}")[..],
        "# 24. Use # as indicator\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nThis.\n",
    )]);
    ok(
        &f,
        &["supersede", "24", "Use quotes", "--date", "2024-05-01"],
    );
    let new = read(&f, "doc/adr/0025-use-quotes.md");
    assert!(
        new.contains("Supersedes [24. Use # as indicator](0024-use-%23-as-indicator.md)"),
        "{new}"
    );
    let r = record_of(&f, "doc/adr/0025-use-quotes.md");
    assert_eq!(r["supersedes"], serde_json::json!(["ADR-0024"]));
    let r = record_of(&f, &format!("doc/adr/{old}"));
    assert_eq!(r["superseded_by"], serde_json::json!(["ADR-0025"]), "{r:#}");
    no_findings(&f);
}

/// A record governing code by the paths its prose names (whitehall's ADR-0001 and its
/// `docs/view_components.md`): `supersede --keep-scope` writes that scope into the new
/// record; without it, stderr says what is not carried and how to carry it (issue 39).
#[test]
fn supersede_offers_the_old_scope_to_the_new_record() {
    let old = "# 1. Add View Components\n\nDate: 2022-11-09\n\n## Status\n\nAccepted\n\n## Context\n\nViews are large.\n\n## Decision\n\nWe write components in `app/components/` and document them in `docs/view_components.md`.\n\n## Consequences\n\nFaster view tests.\n";
    let files = [
        ("docs/adr/0001-add-view-components.md", old),
        ("app/components/card.rb", "class Card; end\n"),
        ("docs/view_components.md", "# View components\n"),
    ];
    let f = root_with(&files);
    let run = f.run_md(&[
        "supersede",
        "1",
        "Use Phlex",
        "--status",
        "accepted",
        "--date",
        "2026-12-05",
    ]);
    run.assert_code(0);
    assert!(
        run.stderr.contains(
            "ADR-0001 governs `app/components/`, `docs/view_components.md`: not carried to the new record (--keep-scope carries it)"
        ),
        "{}",
        run.describe()
    );
    assert!(!read(&f, "docs/adr/0002-use-phlex.md").contains("Governs:"));
    // What `--governs` gives the new record is not named as left behind.
    let f = root_with(&files);
    let run = f.run_md(&[
        "supersede",
        "1",
        "Use Phlex",
        "--governs",
        "app/components/",
    ]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("ADR-0001 governs `docs/view_components.md`: not carried"),
        "{}",
        run.describe()
    );

    let f = root_with(&files);
    let run = f.run_md(&[
        "supersede",
        "1",
        "Use Phlex",
        "--status",
        "accepted",
        "--date",
        "2026-12-05",
        "--keep-scope",
    ]);
    run.assert_code(0);
    assert!(!run.stderr.contains("not carried"), "{}", run.describe());
    let new = read(&f, "docs/adr/0002-use-phlex.md");
    assert!(
        new.contains("\nSupersedes [1. Add View Components](0001-add-view-components.md)\nGoverns: `app/components/`, `docs/view_components.md`\n"),
        "{new}"
    );
    let r = record_of(&f, "docs/adr/0002-use-phlex.md");
    assert_eq!(
        r["governs"],
        serde_json::json!(["app/components/", "docs/view_components.md"])
    );
    no_findings(&f);
}
