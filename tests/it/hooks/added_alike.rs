//! A commit that only adds files beside others of their kind under a decision (docs/hooks.md,
//! `skip_added_alike`), through real `git commit` with the installed hooks and through
//! `review`: one line naming the decision, not the full warning, for one more rule beside the
//! rules; a file of a new kind, a file in a folder that held none, or an edit beside the new
//! file is warned in full; `skip_added_alike = false` brings the full warning back.

use super::{
    commit_all, one_record, review_quiet, said_in_one_line, warned_in_full, warned_not_in_one_line,
};
use crate::git::GitRepo;

/// ADR-0001 decides how messages are transformed: by rules, one class each, in
/// `src/rules/custom/`. Fewer than five records: no change is compared with their words.
fn repo(off: bool) -> GitRepo {
    one_record(
        (
            "0001-rules.md",
            "Transform messages by rules",
            "Each transformation is a rule class in `src/rules/custom/`, run by \
             `src/rules/Engine.java`, which skips and logs a rule that fails.",
        ),
        &[
            ("src/rules/custom/DropName.java", "class DropName {}\n"),
            ("src/rules/custom/MapCodes.java", "class MapCodes {}\n"),
            ("src/rules/Engine.java", "class Engine {}\n"),
        ],
        off.then_some("skip_added_alike"),
    )
}

const LINE: &str = "context-graph: it only adds files beside others of their kind where ADR-0001 \
                    governs; cite it if it follows or changes it";

const RULE: (&str, &str) = ("src/rules/custom/CopyOrder.java", "class CopyOrder {}\n");

#[test]
fn one_more_rule_beside_the_rules_gets_one_line() {
    let repo = repo(false);
    repo.write(RULE.0, RULE.1);
    let err = commit_all(&repo, "Copy the order's provider");
    said_in_one_line(&err, LINE);
}

#[test]
fn a_new_kind_a_new_folder_or_an_edit_beside_it_is_warned_in_full() {
    // A kind of file the folder never held.
    let kind = repo(false);
    kind.write("src/rules/custom/codes.json", "{}\n");
    let err = commit_all(&kind, "Map codes from a table");
    warned_not_in_one_line(&err, LINE);
    // A folder that held nothing before.
    let folder = repo(false);
    folder.write(
        "src/rules/custom/checks/NotEmpty.java",
        "class NotEmpty {}\n",
    );
    let err = commit_all(&folder, "Add checks");
    assert!(warned_in_full(&err), "{err}");
    // The engine edited beside the new rule.
    let edit = repo(false);
    edit.write(RULE.0, RULE.1)
        .write("src/rules/Engine.java", "class Engine { int skipped; }\n");
    let err = commit_all(&edit, "Count skipped rules");
    assert!(warned_in_full(&err), "{err}");
}

#[test]
fn skip_added_alike_false_brings_the_full_warning_back() {
    let repo = repo(true);
    repo.write(RULE.0, RULE.1);
    let err = commit_all(&repo, "Copy the order's provider");
    warned_not_in_one_line(&err, LINE);
}

#[test]
fn review_lists_it_as_quiet() {
    let repo = repo(false);
    let base = repo.head();
    repo.write(RULE.0, RULE.1);
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Copy the order's provider");
    repo.write("src/rules/custom/codes.json", "{}\n");
    repo.commit_at("2025-02-04T10:00:00Z", "Bo", "Map codes from a table");
    review_quiet(
        &repo,
        &base,
        ("Copy the order's provider", "added-alike"),
        "Map codes from a table",
        "it only adds files beside others of their kind",
    );
}
