//! Status-table folders (issue 39, ADR-0013), shaped like DependencyTrack's: records with no
//! title heading whose header is a `| Status | Date | Author(s) |` table, a `000-template.md`
//! to copy. `new` fills the template's row, `status` and `supersede` change the row (the table
//! kept aligned), `scope --add` writes one `Governs:` line under the table.

use super::*;
use crate::git::GitRepo;

const TEMPLATE: &str = "| Status                                               | Date       | Author(s)                                        |
|:-----------------------------------------------------|:-----------|:-------------------------------------------------|
| Proposed, Accepted, Rejected, Deprecated, Superseded | yyyy-mm-dd | [@githubHandle](https://github.com/githubHandle) |

## Context

What is the issue that we're seeing that is motivating this decision or change?

## Decision

What is the change that we're proposing and/or doing?

## Consequences

What becomes easier or more difficult to do because of this change?
";

const FIRST: &str = "| Status   | Date       | Author(s)                        |
|:---------|:-----------|:---------------------------------|
| Accepted | 2025-01-07 | [@ann](https://github.com/ann)   |

## Context

We ship events through a broker that few operators run well.

## Decision

Drop the broker; keep events in the database.

## Consequences

One fewer service to run.
";

const SECOND: &str = "| Status   | Date       | Author(s)                        |
|:---------|:-----------|:---------------------------------|
| Proposed | 2025-02-11 | [@bob](https://github.com/bob)   |

## Context

Without the broker ([ADR-001](001-drop-the-broker.md)) work needs a queue.

## Decision

A queue table polled by the workers.

## Consequences

Polling costs a little.
";

const FILES: [(&str, &str); 3] = [
    ("docs/adr/000-template.md", TEMPLATE),
    ("docs/adr/001-drop-the-broker.md", FIRST),
    ("docs/adr/002-queue-in-the-database.md", SECOND),
];

/// The template's row filled: the status cased as its placeholder, the date, the table as
/// narrow as its cells (the author's handle left for the author).
const FILLED: &str = "| Status   | Date       | Author(s)                                        |
|:---------|:-----------|:-------------------------------------------------|
| Proposed | 2026-12-05 | [@githubHandle](https://github.com/githubHandle) |
";

#[test]
fn new_fills_the_folders_template_table() {
    let f = root_with(&FILES);
    let out = ok(&f, &["new", "Retry failed jobs", "--date", "2026-12-05"]);
    assert_eq!(
        out,
        "created docs/adr/003-retry-failed-jobs.md (ADR-0003)\n"
    );
    let text = read(&f, "docs/adr/003-retry-failed-jobs.md");
    // The template, its row filled: no `Status:` line, no heading the folder's records lack.
    let (table, rest) = TEMPLATE.split_at(TEMPLATE.find("\n\n").unwrap() + 1);
    assert_eq!(table.lines().count(), 3);
    assert_eq!(text, format!("{FILLED}{rest}"));
    let r = record_of(&f, "docs/adr/003-retry-failed-jobs.md");
    assert_eq!(r["id"], "ADR-0003");
    assert_eq!(r["status"], "proposed");
    assert_eq!(r["date"], "2026-12-05");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn status_changes_the_table_row_alone() {
    let f = root_with(&FILES);
    let out = ok(&f, &["status", "ADR-2", "accepted"]);
    assert_eq!(
        out,
        "changed docs/adr/002-queue-in-the-database.md (ADR-0002)\n"
    );
    let after = read(&f, "docs/adr/002-queue-in-the-database.md");
    assert_eq!(
        changed_lines(SECOND, &after),
        [(
            "| Proposed | 2025-02-11 | [@bob](https://github.com/bob)   |\n".to_string(),
            "| Accepted | 2025-02-11 | [@bob](https://github.com/bob)   |\n".to_string()
        )]
    );
    assert!(!after.contains("Status:"), "{after}");
    assert_eq!(
        record_of(&f, "docs/adr/002-queue-in-the-database.md")["status"],
        "accepted"
    );
    // On a record `new` wrote, too.
    ok(&f, &["new", "Retry failed jobs", "--date", "2026-12-05"]);
    ok(&f, &["status", "3", "accepted"]);
    let third = read(&f, "docs/adr/003-retry-failed-jobs.md");
    assert!(
        third.starts_with(&FILLED.replace("Proposed", "Accepted")),
        "{third}"
    );
    assert!(!third.contains("Status:"), "{third}");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn supersede_writes_the_row_and_a_line_under_the_new_table() {
    let f = root_with(&FILES);
    ok(
        &f,
        &[
            "supersede",
            "2",
            "Queue in Postgres with SKIP LOCKED",
            "--status",
            "accepted",
            "--date",
            "2026-12-05",
        ],
    );
    // The old row says so, the table widened to fit it as the folder's own superseded records are.
    assert_eq!(
        read(&f, "docs/adr/002-queue-in-the-database.md"),
        SECOND.replace(
            "| Status   | Date       | Author(s)                        |
|:---------|:-----------|:---------------------------------|
| Proposed |",
            "| Status                                                             | Date       | Author(s)                        |
|:-------------------------------------------------------------------|:-----------|:---------------------------------|
| Superseded by [ADR-003](003-queue-in-postgres-with-skip-locked.md) |"
        )
    );
    let new = read(&f, "docs/adr/003-queue-in-postgres-with-skip-locked.md");
    assert!(
        new.starts_with(&format!(
            "{}\nSupersedes [ADR-002](002-queue-in-the-database.md)\n\n## Context\n",
            FILLED.replace("Proposed", "Accepted")
        )),
        "{new}"
    );
    assert_eq!(
        record_of(&f, "docs/adr/002-queue-in-the-database.md")["status"],
        "superseded"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}

#[test]
fn scope_add_writes_one_governs_line_under_the_table() {
    let g = GitRepo::new();
    for (rel, text) in FILES {
        g.write(rel, text);
    }
    g.write("src/events/outbox.java", "class Outbox {}\n");
    g.write("src/events/store.java", "class Store {}\n");
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    g.run(&["scope", "1", "--add", "src/events/outbox.java"])
        .assert_code(0);
    g.run(&["scope", "1", "--add", "src/events/store.java"])
        .assert_code(0);
    let text = std::fs::read_to_string(g.path().join("docs/adr/001-drop-the-broker.md")).unwrap();
    assert_eq!(
        text,
        FIRST.replace(
            "|\n\n## Context",
            "|\n\nGoverns: `src/events/outbox.java`, `src/events/store.java`\n\n## Context"
        )
    );
    let why = g.run(&["why", "src/events/store.java", "--json"]).json();
    assert_eq!(why["query"]["decisions"][0]["id"], "ADR-0001");
    let check = g.run(&["check", "--json"]);
    assert_eq!(findings(&check.json()), Vec::<(String, String)>::new());
}

#[test]
fn without_a_template_new_takes_the_newest_records_table() {
    let f = root_with(&FILES[1..]);
    ok(&f, &["new", "Retry failed jobs", "--date", "2026-12-05"]);
    assert_eq!(
        read(&f, "docs/adr/003-retry-failed-jobs.md"),
        "| Status   | Date       | Author(s) |
|:---------|:-----------|:----------|
| Proposed | 2026-12-05 |           |

## Context

## Decision

## Consequences
"
    );
    ok(&f, &["status", "3", "accepted"]);
    let r = record_of(&f, "docs/adr/003-retry-failed-jobs.md");
    assert_eq!(r["status"], "accepted");
    assert_eq!(r["date"], "2026-12-05");
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());
}
