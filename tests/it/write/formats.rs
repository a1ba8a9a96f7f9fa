//! `new` in each folder's own form: the file name, the id, the format read from the newest
//! record or the template, and a full check with nothing to say about the new record.

use super::*;

#[test]
fn adr_tools_folder_gets_the_next_number_and_its_form() {
    let f = adr_tools_root();
    let out = ok(
        &f,
        &["new", "Use Redis for caching", "--date", "2024-05-01"],
    );
    assert_eq!(
        out,
        "created doc/adr/0003-use-redis-for-caching.md (ADR-0003)\n"
    );
    assert_eq!(
        read(&f, "doc/adr/0003-use-redis-for-caching.md"),
        "# 3. Use Redis for caching\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n## Context\n\n## Decision\n\n## Consequences\n"
    );
    // Accepted, as `adr new` writes in adr-tools' folder (issue 39).
    let r = record_of(&f, "doc/adr/0003-use-redis-for-caching.md");
    assert_eq!(r["id"], "ADR-0003");
    assert_eq!(r["status"], "accepted");
    assert_eq!(r["date"], "2024-05-01");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn new_twice_in_a_row_takes_two_numbers() {
    let f = adr_tools_root();
    ok(&f, &["new", "First", "--date", "2024-05-01"]);
    let out = ok(&f, &["new", "Second", "--date", "2024-05-01"]);
    assert_eq!(out, "created doc/adr/0004-second.md (ADR-0004)\n");
    assert!(f.path("doc/adr/0003-first.md").is_file());
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn file_name_prefix_width_and_slug_follow_the_folder() {
    for (names, expected) in [
        (
            ["adr-1-use-a.md", "adr-2-use-b.md"],
            "docs/adr/adr-3-use-x-y.md",
        ),
        (
            ["ADR-001-Use-A.md", "ADR-002-Use-B.md"],
            "docs/adr/ADR-003-Use-X-Y.md",
        ),
        (
            ["0001_use_a.md", "0002_use_b.md"],
            "docs/adr/0003_use_x_y.md",
        ),
    ] {
        let files: Vec<(String, String)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                (
                    format!("docs/adr/{n}"),
                    format!("# ADR {}: Use {i}\n\nStatus: Accepted\n\nDate: 2024-01-0{}\n\n## Context\n\nx\n", i + 1, i + 1),
                )
            })
            .collect();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let f = root_with(&refs);
        let out = ok(&f, &["new", "Use X, Y", "--date", "2024-05-01"]);
        assert_eq!(out, format!("created {expected} (ADR-0003)\n"));
        // The heading's form and the header lines, as the newest record wrote them.
        assert_eq!(
            read(&f, expected),
            "# ADR 3: Use X, Y\n\nStatus: Proposed\n\nDate: 2024-05-01\n\n## Context\n"
        );
        assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
    }
}

const MADR4: &str = "---\nstatus: accepted\ndate: 2024-01-05\ndecision-makers: [alice]\nconsulted: []\n---\n\n# Use Markdown records\n\n## Context and Problem Statement\n\nWhy.\n\n## Considered Options\n\n* A\n\n## Decision Outcome\n\nChosen option: A.\n\n### Consequences\n\n* Good.\n";

#[test]
fn madr_4_frontmatter_keys_keep_their_case_and_order() {
    let f = root_with(&[("docs/decisions/0001-use-markdown-records.md", MADR4)]);
    ok(
        &f,
        &[
            "new",
            "Use Rust",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
        ],
    );
    assert_eq!(
        read(&f, "docs/decisions/0002-use-rust.md"),
        "---\nstatus: accepted\ndate: 2024-05-01\ndecision-makers: []\nconsulted: []\n---\n\n# Use Rust\n\n## Context and Problem Statement\n\n## Considered Options\n\n## Decision Outcome\n"
    );
    let r = record_of(&f, "docs/decisions/0002-use-rust.md");
    assert_eq!(
        (r["id"].as_str(), r["status"].as_str()),
        (Some("ADR-0002"), Some("accepted"))
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn madr_2_list_fields_without_frontmatter() {
    let madr2 = "# Use Markdown records\n\n* Status: accepted\n* Deciders: Alice, Bob\n* Date: 2024-01-05\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nA.\n";
    let f = root_with(&[("docs/adr/0001-use-markdown-records.md", madr2)]);
    ok(&f, &["new", "Use Rust", "--date", "2024-05-01"]);
    assert_eq!(
        read(&f, "docs/adr/0002-use-rust.md"),
        "# Use Rust\n\n* Status: proposed\n* Deciders:\n* Date: 2024-05-01\n\n## Context and Problem Statement\n\n## Decision Outcome\n"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn madr_3_template_is_filled() {
    let template = "---\nstatus: {proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)}\ndate: {YYYY-MM-DD when the decision was last updated}\ndeciders: {list everyone involved in the decision}\n---\n# {short title of solved problem and solution}\n\n## Context and Problem Statement\n\n{Describe the context and problem statement}\n";
    let f = root_with(&[
        ("docs/decisions/adr-template.md", template),
        ("docs/decisions/0001-use-markdown-records.md", MADR4),
    ]);
    ok(&f, &["new", "Use Rust", "--date", "2024-05-01"]);
    assert_eq!(
        read(&f, "docs/decisions/0002-use-rust.md"),
        "---\nstatus: proposed\ndate: 2024-05-01\ndeciders: {list everyone involved in the decision}\n---\n# Use Rust\n\n## Context and Problem Statement\n\n{Describe the context and problem statement}\n"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn log4brains_dated_names_and_its_template() {
    let template = "# [short title of solved problem and solution]\n\n- Status: [draft | proposed | rejected | accepted | deprecated | … | superseded by [xxx](yyyymmdd-xxx.md)] <!-- optional -->\n- Deciders: [list everyone involved in the decision] <!-- optional -->\n- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n\n## Context and Problem Statement\n\n[Describe the context]\n";
    let rec = "# Use Log4brains\n\n- Status: accepted\n- Date: 2024-01-02\n\n## Context and Problem Statement\n\nWe want records.\n";
    let f = root_with(&[
        ("docs/adr/template.md", template),
        ("docs/adr/20240102-use-log4brains.md", rec),
    ]);
    let out = ok(&f, &["new", "Use Rust", "--date", "2024-05-01"]);
    assert_eq!(
        out,
        "created docs/adr/20240501-use-rust.md (20240501-use-rust)\n"
    );
    let text = read(&f, "docs/adr/20240501-use-rust.md");
    assert!(
        text.starts_with("# Use Rust\n\n- Status: proposed\n- Deciders: [list"),
        "{text}"
    );
    assert!(text.contains("\n- Date: 2024-05-01\n"), "{text}");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
    // The same title the same day is the same file: refused, nothing written.
    let before = snapshot(&f);
    refused(&f, &["new", "Use Rust", "--date", "2024-05-01"], "exists");
    assert_eq!(snapshot(&f), before);
}

#[test]
fn dated_rfc_names_with_a_number() {
    let rfc = |n: u32, title: &str| {
        format!("# RFC {n} - {title}\n\nStatus: Accepted\n\n## Summary\n\nx\n")
    };
    let f = root_with(&[
        (
            "rfcs/2021-05-04-1234-retry-budget.md",
            &rfc(1234, "Retry budget"),
        ),
        ("rfcs/2021-06-01-1240-backoff.md", &rfc(1240, "Backoff")),
    ]);
    let out = ok(&f, &["new", "Circuit breakers", "--date", "2024-05-01"]);
    // The id printed is the one the check reads for the file.
    let path = "rfcs/2024-05-01-1241-circuit-breakers.md";
    let id = record_of(&f, path)["id"].as_str().unwrap().to_string();
    assert_eq!(out, format!("created {path} ({id})\n"));
    assert_eq!(
        read(&f, "rfcs/2024-05-01-1241-circuit-breakers.md"),
        "# RFC 1241 - Circuit breakers\n\nStatus: Proposed\n\n## Summary\n"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

pub(super) const ADRKIT: &str = "---\nid: \"0012\"\ntitle: Resolve inbound markers\nstatus: accepted\ndate: 2026-08-05\nschemaVersion: 0.1.0\nreversibility: two-way-door\ntags: [core, cli]\nsupersededBy: null\nrelatesTo:\n  - \"0009\"\naffects:\n  - type: path\n    pattern: packages/core/**\n---\n\n# Resolve inbound markers\n\n## Context\n\nWhy.\n";

#[test]
fn adrkit_frontmatter_keeps_its_keys_and_id_form() {
    let f = root_with(&[("docs/adr/0012-resolve-inbound-markers.md", ADRKIT)]);
    ok(
        &f,
        &[
            "new",
            "Index markers",
            "--date",
            "2026-09-01",
            "--governs",
            "src/",
        ],
    );
    assert_eq!(
        read(&f, "docs/adr/0013-index-markers.md"),
        "---\nid: \"0013\"\ntitle: Index markers\nstatus: proposed\ndate: 2026-09-01\nschemaVersion: 0.1.0\nreversibility: two-way-door\ntags: []\nsupersededBy: null\nrelatesTo: []\naffects:\n  - type: path\n    pattern: src/\n---\n\n# Index markers\n\n## Context\n"
    );
    let r = record_of(&f, "docs/adr/0013-index-markers.md");
    assert_eq!(r["id"], "ADR-0013");
    assert_eq!(r["governs"], serde_json::json!(["src/"]));
}

#[test]
fn crlf_records_give_a_crlf_record() {
    let crlf = ADR_TOOLS_2.replace('\n', "\r\n");
    let f = root_with(&[("doc/adr/0002-use-postgres.md", &crlf)]);
    ok(&f, &["new", "Use Redis", "--date", "2024-05-01"]);
    let text = read(&f, "doc/adr/0003-use-redis.md");
    assert!(
        text.starts_with("# 3. Use Redis\r\n\r\nDate: 2024-05-01\r\n"),
        "{text:?}"
    );
    assert_eq!(
        text.matches('\n').count(),
        text.matches("\r\n").count(),
        "{text:?}"
    );
}

#[test]
fn the_folders_own_template_wins_and_template_flag_wins_over_it() {
    let ours =
        "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nOur own words.\n";
    let f = adr_tools_root();
    f.write("doc/adr/templates/template.md", ours.as_bytes());
    ok(&f, &["new", "Use Redis", "--date", "2024-05-01"]);
    assert_eq!(
        read(&f, "doc/adr/0003-use-redis.md"),
        "# 3. Use Redis\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n## Context\n\nOur own words.\n"
    );
    let other = f.env.path().join("t.md");
    std::fs::write(&other, "# TITLE\n\nStatus: STATUS\n").unwrap();
    ok(
        &f,
        &[
            "new",
            "Use Kafka",
            "--date",
            "2024-05-01",
            "--template",
            other.to_str().unwrap(),
        ],
    );
    assert_eq!(
        read(&f, "doc/adr/0004-use-kafka.md"),
        "# Use Kafka\n\nStatus: Accepted\n"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn an_empty_folder_gets_a_plain_nygard_record() {
    let f = empty_root();
    std::fs::create_dir_all(f.path("docs/adr")).unwrap();
    ok(&f, &["new", "Use Rust", "--date", "2024-05-01"]);
    let text = read(&f, "docs/adr/0001-use-rust.md");
    assert!(
        text.starts_with(
            "# 1. Use Rust\n\nDate: 2024-05-01\n\n## Status\n\nProposed\n\n## Context\n"
        ),
        "{text}"
    );
}

#[test]
fn json_names_each_file_written() {
    let f = adr_tools_root();
    let v = ok_json(&f, &["supersede", "2", "Use MySQL", "--date", "2024-05-01"]);
    assert_eq!(
        v,
        serde_json::json!({"written": [
            {"path": "doc/adr/0003-use-mysql.md", "id": "ADR-0003", "action": "created"},
            {"path": "doc/adr/0002-use-postgres.md", "id": "ADR-0002", "action": "changed"}
        ]})
    );
}

#[test]
fn governs_on_a_nygard_record_is_a_line_of_paths() {
    let f = adr_tools_root();
    f.write("src/cache/mod.rs", b"x");
    ok(
        &f,
        &[
            "new",
            "Use Redis",
            "--date",
            "2024-05-01",
            "--status",
            "accepted",
            "--governs",
            "src/cache",
        ],
    );
    let text = read(&f, "doc/adr/0003-use-redis.md");
    assert!(text.contains("\nGoverns: `src/cache/`\n"), "{text}");
    let why = ok_json(&f, &["why", "src/cache/mod.rs"]);
    let ids: Vec<&str> = why["query"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ADR-0003"]);
}

#[test]
fn edit_opens_the_editor_on_the_new_record() {
    let f = adr_tools_root();
    let script = f.env.path().join("ed.sh");
    std::fs::write(&script, "#!/bin/sh\nprintf 'Edited.\\n' >> \"$1\"\n").unwrap();
    let chmod = f
        .command("chmod")
        .args(["+x"])
        .arg(&script)
        .status()
        .unwrap();
    assert!(chmod.success());
    let mut args: Vec<String> = [
        "new",
        "Use Redis",
        "--date",
        "2024-05-01",
        "--edit",
        "--root",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(f.root.to_string_lossy().into_owned());
    let run = f
        .env
        .run_with(&f.root, &args, &[("EDITOR", script.to_str().unwrap())]);
    run.assert_code(0);
    assert!(read(&f, "doc/adr/0003-use-redis.md").ends_with("## Consequences\nEdited.\n"));
}

/// flux2's layout: each record the `README.md` of a folder of its own. A new one takes the next
/// number past them, in a folder of its own, from the newest one's form.
#[test]
fn records_in_folders_of_their_own_get_a_new_folder_of_their_own() {
    let rfc = |n: u32, title: &str| {
        format!("# RFC-{n:04} {title}\n\n**Status:** implemented\n\n**Creation date:** 2022-03-30\n\n## Summary\n\nx\n")
    };
    let f = root_with(&[
        ("rfcs/README.md", "# RFCs\n\nThe index.\n"),
        (
            "rfcs/0001-authorization/README.md",
            &rfc(1, "Authorization"),
        ),
        ("rfcs/0013-cli-plugins/README.md", &rfc(13, "CLI plugins")),
    ]);
    let dry = ok(
        &f,
        &["new", "Try folders", "--date", "2026-12-02", "--dry-run"],
    );
    assert!(
        dry.contains("+++ b/rfcs/0014-try-folders/README.md"),
        "{dry}"
    );
    assert!(!f.path("rfcs/0014-try-folders").exists(), "a dry run wrote");
    let out = ok(&f, &["new", "Try folders", "--date", "2026-12-02"]);
    assert_eq!(out, "created rfcs/0014-try-folders/README.md (RFC-0014)\n");
    assert_eq!(
        read(&f, "rfcs/0014-try-folders/README.md"),
        "# RFC-0014 Try folders\n\n**Status:** proposed\n\n**Creation date:** 2026-12-02\n\n## Summary\n"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}
