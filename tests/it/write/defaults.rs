//! What `new` takes when nothing says otherwise (issue 39, ADR-0013): the status of the folder's
//! tool (adr-tools writes Accepted, read back by the real `adr list` and `adr generate toc`), a
//! folder's `default_status` from `.context-graph.toml`; and a title that never makes the
//! record look like a template.

use super::*;
use crate::git::GitRepo;

use super::adr_tools::{adr, adr_installed};

/// The `## Status` section's first line.
fn status_section(text: &str) -> &str {
    let at = text.find("## Status\n\n").expect("a status section") + "## Status\n\n".len();
    text[at..].lines().next().unwrap_or("")
}

#[test]
fn new_in_an_adr_tools_folder_is_accepted_as_adr_new_writes_it() {
    let repo = GitRepo::new();
    if !adr_installed(&repo) {
        return;
    }
    // A folder of adr-tools' choosing, named by `.adr-dir`.
    adr(&repo, &["init", "docs/architecture"]);
    adr(&repo, &["new", "Use Postgres"]);
    repo.run(&["new", "Use Redis"]).assert_code(0);
    adr(&repo, &["new", "Use Kafka"]);
    let read = |p: &str| std::fs::read_to_string(repo.path().join(p)).unwrap();
    let theirs = read("docs/architecture/0002-use-postgres.md");
    let ours = read("docs/architecture/0003-use-redis.md");
    assert_eq!(status_section(&theirs), "Accepted");
    assert_eq!(status_section(&ours), "Accepted", "{ours}");
    assert_eq!(
        adr(&repo, &["list"]),
        "docs/architecture/0001-record-architecture-decisions.md\ndocs/architecture/0002-use-postgres.md\ndocs/architecture/0003-use-redis.md\ndocs/architecture/0004-use-kafka.md\n"
    );
    let toc = adr(&repo, &["generate", "toc"]);
    assert!(
        toc.contains("* [3. Use Redis](0003-use-redis.md)\n* [4. Use Kafka](0004-use-kafka.md)\n"),
        "{toc}"
    );
    let check = repo.run(&["check", "--json"]);
    check.assert_code(0);
    let r = record_at(&check.json(), "docs/architecture/0003-use-redis.md").clone();
    assert_eq!(r["status"], "accepted");
    assert_eq!(findings(&check.json()), Vec::<(String, String)>::new());
    // `--status` still wins.
    repo.run(&["new", "Use Memcached", "--status", "proposed"])
        .assert_code(0);
    assert_eq!(
        status_section(&read("docs/architecture/0005-use-memcached.md")),
        "Proposed"
    );
}

#[test]
fn a_folder_without_adr_tools_keeps_proposed() {
    let f = root_with(&[(
        "docs/adr/0001-use-rust.md",
        "# 1. Use Rust\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nx\n",
    )]);
    ok(&f, &["new", "Use Tokio", "--date", "2024-05-01"]);
    assert_eq!(
        status_section(&read(&f, "docs/adr/0002-use-tokio.md")),
        "Proposed"
    );
}

#[test]
fn new_takes_the_folders_configured_default_status() {
    let f = root_with(&[
        (
            ".context-graph.toml",
            "[[folders]]\npath = \"rfcs\"\ndefault_status = \"accepted\"\n",
        ),
        (
            "rfcs/0001-retry-budget.md",
            "# RFC 1 - Retry budget\n\nStatus: Accepted\n\n## Summary\n\nRetries share a budget.\n",
        ),
    ]);
    ok(&f, &["new", "Circuit breakers", "--date", "2024-05-01"]);
    let text = read(&f, "rfcs/0002-circuit-breakers.md");
    assert!(text.contains("\nStatus: Accepted\n"), "{text}");
    assert_eq!(
        record_of(&f, "rfcs/0002-circuit-breakers.md")["status"],
        "accepted"
    );
    ok(
        &f,
        &[
            "new",
            "Bulkheads",
            "--date",
            "2024-05-01",
            "--status",
            "proposed",
        ],
    );
    let text = read(&f, "rfcs/0003-bulkheads.md");
    assert!(text.contains("\nStatus: Proposed\n"), "{text}");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn a_title_with_the_word_template_is_still_a_record() {
    let f = adr_tools_root();
    let out = ok(&f, &["new", "Use real template", "--date", "2024-05-01"]);
    assert_eq!(
        out,
        "created doc/adr/0003-use-real-template.md (ADR-0003)\n"
    );
    let shown = ok(&f, &["record", "3"]);
    assert!(shown.contains("Use real template"), "{shown}");
    assert_eq!(
        record_of(&f, "doc/adr/0003-use-real-template.md")["id"],
        "ADR-0003"
    );
    ok(&f, &["new", "Template", "--date", "2024-05-01"]);
    ok(&f, &["record", "4"]);
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}
