//! A decision about where files live, and a commit that makes or empties no folder
//! (docs/hooks.md, `skip_layout_edits`), through real `git commit` with the installed hooks and
//! through `review`: one line naming the decision, not the full warning, for an edit, a file
//! added beside others or a file moved within its folder, and for a folder made shaped as one
//! beside it (a `.ts` and a `.css`, as each component has); a folder of a new shape made, or one
//! emptied, anywhere in the commit, or a decision about something else, is warned in full;
//! `skip_layout_edits = false` brings the full warning back.

use super::{commit_all, git, install, ok};
use crate::fixture::adr;
use crate::git::GitRepo;

/// ADR-0001 says where the code goes (`src/ui/`, `src/model/`); ADR-0002 decides how `src/db/`
/// reaches the database. Fewer than five records: no change is compared with their words.
fn repo(off: bool) -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-packages.md",
        &adr(
            1,
            "Use a clear package structure",
            "Accepted",
            Some("2025-01-01"),
            "Components live in `src/ui/`, one folder each; state and actions live in \
             `src/model/`.",
        ),
    )
    .write(
        "docs/adr/0002-pool.md",
        &adr(
            2,
            "Reach the database through one pool",
            "Accepted",
            Some("2025-01-01"),
            "Every query in `src/db/` takes a connection from the pool.",
        ),
    )
    .write("src/ui/panel/panel.ts", "export const panel = 1;\n")
    .write("src/ui/panel/panel.css", ".panel {}\n")
    .write("src/ui/menu/menu.ts", "export const menu = 1;\n")
    .write("src/ui/menu/menu.css", ".menu {}\n")
    .write("src/model/state.ts", "export const state = {};\n")
    .write("src/db/pool.ts", "export const pool = 1;\n")
    .write("notes/old.md", "Old notes.\n");
    if off {
        repo.write(
            ".context-graph.toml",
            "[hooks]\nskip_layout_edits = false\n",
        );
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

fn full(err: &str, id: &str) -> bool {
    err.contains(&format!(
        "context-graph: warning: its staged changes touch paths governed by {id},"
    ))
}

const LINE: &str = "context-graph: it changes files whose place ADR-0001 decides, and makes or \
                    empties no folder; cite it if it follows or changes it";

const FIX: &str = "export const state = { open: false };\n";

#[test]
fn a_commit_that_makes_or_empties_no_folder_gets_one_line() {
    // An edit.
    let edit = repo(false);
    edit.write("src/model/state.ts", FIX);
    let err = commit_all(&edit, "Close the panel by default");
    assert!(err.contains(LINE), "{err}");
    assert!(!full(&err, "ADR-0001"), "{err}");
    // A file added beside the panel's, and one moved within its folder.
    let added = repo(false);
    added.write("src/ui/panel/size.ts", "export const size = 1;\n");
    ok(
        &git(&added, &["mv", "notes/old.md", "notes/archive.md"], &[]),
        "git mv",
    );
    let err = commit_all(&added, "Size the panel");
    assert!(err.contains(LINE), "{err}");
    assert!(!full(&err, "ADR-0001"), "{err}");
}

#[test]
fn a_folder_made_or_emptied_anywhere_is_warned_in_full() {
    // A new folder beside the edit.
    let added = repo(false);
    added
        .write("src/model/state.ts", FIX)
        .write("src/ui/shared/resize.ts", "export const resize = 1;\n");
    let err = commit_all(&added, "Share the resize handle");
    assert!(full(&err, "ADR-0001"), "{err}");
    assert!(!err.contains(LINE), "{err}");
    // A file moved out of its folder, emptying it: the commit rearranges folders.
    let moved = repo(false);
    ok(
        &git(&moved, &["mv", "notes/old.md", "old.md"], &[]),
        "git mv",
    );
    moved.write("src/model/state.ts", FIX);
    let err = commit_all(&moved, "Close the panel by default");
    assert!(full(&err, "ADR-0001"), "{err}");
    // The panel's folder emptied.
    let removed = repo(false);
    ok(
        &git(&removed, &["rm", "-q", "-r", "src/ui/panel"], &[]),
        "git rm",
    );
    removed.write("src/model/state.ts", FIX);
    let err = commit_all(&removed, "Drop the panel");
    assert!(full(&err, "ADR-0001"), "{err}");
}

const REPEATED: &str =
    "context-graph: it makes folders shaped as ones beside them, where ADR-0001 \
                        decides where files live; cite it if it follows or changes it";

/// One more component, its `.ts` and `.css` as the panel's and the menu's.
fn add_tabs(repo: &GitRepo) {
    repo.write("src/ui/tabs/tabs.ts", "export const tabs = 1;\n")
        .write("src/ui/tabs/tabs.css", ".tabs {}\n");
}

#[test]
fn a_folder_shaped_as_one_beside_it_gets_one_line() {
    let repo = repo(false);
    add_tabs(&repo);
    let err = commit_all(&repo, "Add the tabs");
    assert!(err.contains(REPEATED), "{err}");
    assert!(!full(&err, "ADR-0001"), "{err}");
    // The same folder with a kind of file none beside it holds: warned in full.
    let other = repo_with_tabs_and(".json");
    assert!(full(&other, "ADR-0001"), "{other}");
    assert!(!other.contains(REPEATED), "{other}");
    // Off, the full warning.
    let off = self::repo(true);
    add_tabs(&off);
    let err = commit_all(&off, "Add the tabs");
    assert!(full(&err, "ADR-0001"), "{err}");
}

/// Commits the tabs' folder with one more file of kind `ext`; git's stderr.
fn repo_with_tabs_and(ext: &str) -> String {
    let repo = repo(false);
    add_tabs(&repo);
    repo.write(&format!("src/ui/tabs/strings{ext}"), "{}\n");
    commit_all(&repo, "Add the tabs")
}

#[test]
fn a_decision_about_something_else_is_warned_in_full() {
    let repo = repo(false);
    repo.write("src/db/pool.ts", "export const pool = 2;\n");
    let err = commit_all(&repo, "Grow the pool");
    assert!(full(&err, "ADR-0002"), "{err}");
    assert!(!err.contains("whose place"), "{err}");
}

#[test]
fn skip_layout_edits_false_brings_the_full_warning_back() {
    let repo = repo(true);
    repo.write("src/model/state.ts", FIX);
    let err = commit_all(&repo, "Close the panel by default");
    assert!(full(&err, "ADR-0001"), "{err}");
    assert!(!err.contains(LINE), "{err}");
}

#[test]
fn review_lists_it_as_quiet() {
    let repo = repo(false);
    let base = repo.head();
    repo.write("src/model/state.ts", FIX);
    repo.write("src/ui/panel/size.ts", "export const size = 1;\n");
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Size the panel");
    repo.write("src/ui/shared/resize.ts", "export const resize = 1;\n");
    repo.commit_at("2025-02-04T10:00:00Z", "Bo", "Share the resize handle");
    add_tabs(&repo);
    repo.commit_at("2025-02-05T10:00:00Z", "Cy", "Add the tabs");
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let query = run.json()["query"].clone();
    let quiet = query["quiet"].as_array().expect("quiet").clone();
    assert_eq!(quiet.len(), 2, "{query:#}");
    let reason = |subject: &str| {
        quiet
            .iter()
            .find(|q| q["subject"] == subject && q["decision"] == "ADR-0001")
            .map(|q| q["reason"].clone())
    };
    assert_eq!(
        reason("Size the panel"),
        Some("layout-kept".into()),
        "{query:#}"
    );
    assert_eq!(
        reason("Add the tabs"),
        Some("layout-repeated".into()),
        "{query:#}"
    );
    // The commit that makes a folder is the decision's, uncited.
    let decision = &query["decisions"][0];
    assert_eq!(decision["id"], "ADR-0001", "{query:#}");
    let commits = decision["commits"].as_array().expect("commits");
    assert!(
        commits
            .iter()
            .any(|c| c["subject"] == "Share the resize handle" && c["cites_record"] == false),
        "{query:#}"
    );
    let text = repo.run(&["review", &format!("{base}..HEAD")]).stdout();
    assert!(
        text.contains("it decides where files live, and no folder is made or emptied"),
        "{text}"
    );
    assert!(
        text.contains(
            "it decides where files live, and each folder made is shaped as one beside it"
        ),
        "{text}"
    );
}
