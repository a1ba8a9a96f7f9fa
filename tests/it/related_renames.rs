//! A record's earlier names, for `introduced` evidence (docs/related.md), are read from the
//! stored renames in one pass over those to a name between the first and the last record's,
//! and looked up one by one when that pass would read too many (issue 41). Either way the
//! answer is the one a fresh scan gives.

use crate::fixture::adr;
use crate::related::{related, started};
use serde_json::json;

/// ADR-0002, drafted as `00XX-…` with `src/export/run.rs`, numbered later; `moved` other
/// Markdown files between the records' names renamed as well. The commit that drafted it.
fn renamed_record(moved: usize) -> (crate::git::GitRepo, String) {
    let repo = started();
    let draft = adr(
        2,
        "Throttle the exports",
        "Accepted",
        None,
        "Exports are throttled.",
    );
    repo.write("docs/adr/00XX-throttle-the-exports.md", &draft);
    repo.write("src/export/run.rs", "pub fn run() {}\n");
    // Notes named as templates are (no records), sorted between the two records' names.
    for i in 0..moved {
        repo.write(
            &format!("docs/adr/0001-z/XXXX-before-{i}.md"),
            &format!("# Note {i}\n\nA note on the first record, number {i}.\n"),
        );
    }
    let added = repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Draft the export decision");
    repo.mv(
        "docs/adr/00XX-throttle-the-exports.md",
        "docs/adr/0002-throttle-the-exports.md",
    );
    for i in 0..moved {
        repo.mv(
            &format!("docs/adr/0001-z/XXXX-before-{i}.md"),
            &format!("docs/adr/0001-z/XXXX-after-{i}.md"),
        );
    }
    repo.commit_at("2025-01-03T10:00:00Z", "Bob", "Number the export decision");
    (repo, added)
}

#[test]
fn a_record_renamed_since_is_introduced_by_the_commit_that_added_its_first_name() {
    // Whether the renames are read in one pass or looked up one by one: two records, so a
    // pass may read eight renames; none, then twelve, lie between their names.
    for moved in [0, 12] {
        let (repo, added) = renamed_record(moved);
        assert_eq!(repo.run(&["index"]).code, Some(0));
        assert_eq!(
            related(&repo, "src/export/run.rs"),
            json!([{"id": "ADR-0002", "status": "accepted", "score": 2, "evidence": [
                {"kind": "introduced", "commit": &added[..7]},
            ], "title": "Throttle the exports"}]),
            "with {moved} other renames"
        );
    }
}
