//! Drift with markers (docs/reading.md, docs/markers.md): a record's governed paths are its entries plus the
//! files whose markers declare it in git's index (their staged content: a file's history is
//! git's), so the commits to a declared file count, and a record only files declare has drift
//! too.

use super::{assert_same, json, records_repo};
use crate::fixture::{column, record};

#[test]
fn commits_to_a_declared_file_count_as_drift() {
    let repo = records_repo();
    repo.write("src/sync/retry.ts", "// @adr 3\nexport const tries = 1;\n")
        .write("src/sync/other.ts", "export const other = 1;\n");
    repo.commit_at("2025-01-15T10:00:00Z", "Ana", "Retry, before the decision");
    repo.write("src/sync/retry.ts", "// @adr 3\nexport const tries = 2;\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ben", "More tries");
    repo.write("src/sync/other.ts", "export const other = 2;\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Cy", "Another file");
    repo.write("src/core/engine.rs", "fn engine() { run() }\n")
        .write(
            "src/sync/retry.ts",
            "// @adr 3, 1\nexport const tries = 3;\n",
        );
    repo.commit_at(
        "2025-03-03T10:00:00Z",
        "Ana",
        "Engine and retry, per ADR-0003",
    );
    let doc = json(&repo, &["record", "ADR-0003", "--git"]);
    let drift = &record(&doc, "ADR-0003")["drift"];
    assert_eq!(drift["since"], "2025-02-01", "{drift:#}");
    assert_eq!(
        column(&drift["commits"], "subject"),
        ["Engine and retry, per ADR-0003", "More tries"],
        "the declared file's commits since the decision, and nothing else: {drift:#}"
    );
    assert_eq!(drift["not_citing_record"], 1);
    // ADR-0001 governs `src/core/` and, since the last commit, a declared file too.
    let doc = json(&repo, &["record", "ADR-0001", "--git"]);
    let subjects = column(&record(&doc, "ADR-0001")["drift"]["commits"], "subject");
    assert_eq!(
        subjects,
        [
            "Engine and retry, per ADR-0003",
            "More tries",
            "Retry, before the decision",
            "Records"
        ],
        "entries and declared files together"
    );
    for q in [
        &["check", "--git", "--json"][..],
        &["why", "src/sync/retry.ts", "--git", "--json"],
        &["record", "ADR-0003", "--git", "--json"],
        &["record", "ADR-0003", "--git"],
    ] {
        assert_same(&repo, "drift", q);
    }
}

#[test]
fn a_record_no_entry_governs_has_drift_once_git_index_has_a_file_declaring_it() {
    let repo = records_repo();
    repo.write("src/x.rs", "fn x() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "x");
    let doc = json(&repo, &["record", "ADR-0012", "--git"]);
    assert!(record(&doc, "ADR-0012")["drift"].is_null(), "{doc:#}");
    // Declared in the work tree only: `why` sees the marker, drift does not yet (a file's
    // history is git's: what counts is what git's index says the file declares).
    repo.write("src/x.rs", "// @adr 12\nfn x() {}\n");
    assert_eq!(super::declared_ids(&repo, "src/x.rs"), ["ADR-0012"]);
    let doc = json(&repo, &["record", "ADR-0012", "--git"]);
    assert!(record(&doc, "ADR-0012")["drift"].is_null(), "{doc:#}");
    assert_same(&repo, "in the work tree", &["check", "--git", "--json"]);
    // Staged: the file's history counts.
    repo.git(&["add", "src/x.rs"]);
    let doc = json(&repo, &["record", "ADR-0012", "--git"]);
    let drift = &record(&doc, "ADR-0012")["drift"];
    assert_eq!(drift["count"], 1, "{drift:#}");
    assert_eq!(column(&drift["commits"], "subject"), ["x"]);
    assert_same(&repo, "staged", &["check", "--git", "--json"]);
    // Not a current record: a marker does not give it drift.
    repo.write("src/x.rs", "// @adr 2\nfn x() {}\n");
    repo.git(&["add", "src/x.rs"]);
    let doc = json(&repo, &["record", "ADR-0002", "--git"]);
    assert!(record(&doc, "ADR-0002")["drift"].is_null(), "{doc:#}");
    // What git's index holds counts, not the work tree: a marker staged, then removed from
    // the work tree only, still declares for drift.
    repo.write("src/x.rs", "// @adr 12\nfn x() {}\n");
    repo.git(&["add", "src/x.rs"]);
    repo.write("src/x.rs", "fn x() {}\n");
    assert!(super::declared(&repo, "src/x.rs").is_empty());
    let doc = json(&repo, &["record", "ADR-0012", "--git"]);
    assert_eq!(record(&doc, "ADR-0012")["drift"]["count"], 1, "{doc:#}");
    let q = ["record", "ADR-0012", "--git", "--json"];
    assert_same(&repo, "staged, then removed from the work tree", &q);
}
