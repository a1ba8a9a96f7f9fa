//! A file a decision reaches only through an entry of more than a thousand files (docs/hooks.md,
//! `skip_broad_folders`), through real `git commit` with the installed hooks and through
//! `review`: one line naming the decision, not the full warning; a file the record names in
//! that folder, or a folder of a thousand files or fewer, is warned in full;
//! `skip_broad_folders = false` brings the full warning back.

use super::{commit, install, ok};
use crate::fixture::adr;
use crate::git::GitRepo;

/// ADR-0001 governs `app/` (`files` files and `app/host.js`, which it names) and `lib/` (3
/// files); four more records so that the changes are compared with the records' words.
fn repo(files: usize, off: bool) -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-host.md",
        &adr(
            1,
            "The host loads remote modules",
            "Accepted",
            Some("2025-01-01"),
            "The host application (`app/`) loads each remote module at run time through \
             `app/host.js`; the shared helpers in `lib/` load them too.",
        ),
    );
    for (n, title) in [
        (2, "Logs are structured"),
        (3, "Search uses Lucene"),
        (4, "Mail goes through a queue"),
        (5, "Invoices are sent as PDF"),
    ] {
        repo.write(
            &format!("docs/adr/000{n}-r.md"),
            &adr(
                n,
                title,
                "Accepted",
                Some("2025-01-01"),
                "Nothing governed.",
            ),
        );
    }
    for i in 0..files {
        repo.write(&format!("app/p{i}.js"), "export const page = 1;\n");
    }
    repo.write("app/host.js", "export const host = 1;\n");
    for i in 0..3 {
        repo.write(&format!("lib/h{i}.js"), "export const helper = 1;\n");
    }
    if off {
        repo.write(
            ".context-graph.toml",
            "[hooks]\nskip_broad_folders = false\n",
        );
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

/// A change that speaks of the decision (the host, its remote modules), so that only the
/// folder's size keeps it from a full warning.
const SPEAKS: &str = "// the host loads this remote module at run time\nexport const page = 2;\n";

fn full(err: &str) -> bool {
    err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001,")
}

const LINE: &str = "context-graph: it touches files that ADR-0001 governs only as part of a \
                    folder of over 1,000 files; cite it if it follows or changes it";

#[test]
fn a_file_in_a_folder_of_over_a_thousand_files_gets_one_line() {
    let repo = repo(1001, false);
    let err = ok(
        &commit(&repo, "app/p7.js", SPEAKS, "Load the remote module"),
        "git commit",
    );
    assert!(err.contains(LINE), "{err}");
    assert!(!full(&err), "{err}");
}

#[test]
fn a_named_file_or_a_small_folder_is_warned_in_full() {
    let large = repo(1001, false);
    let err = ok(
        &commit(&large, "app/host.js", SPEAKS, "Load the remote module"),
        "git commit",
    );
    assert!(full(&err), "{err}");
    let small = repo(999, false);
    let err = ok(
        &commit(&small, "app/p7.js", SPEAKS, "Load the remote module"),
        "git commit",
    );
    assert!(full(&err), "{err}");
    assert!(!err.contains(LINE), "{err}");
}

#[test]
fn skip_broad_folders_false_brings_the_full_warning_back() {
    let repo = repo(1001, true);
    let err = ok(
        &commit(&repo, "app/p7.js", SPEAKS, "Load the remote module"),
        "git commit",
    );
    assert!(full(&err), "{err}");
    assert!(!err.contains(LINE), "{err}");
}

#[test]
fn review_lists_it_as_quiet() {
    let repo = repo(1001, false);
    let base = repo.head();
    repo.write("app/p7.js", SPEAKS);
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Load the remote module");
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let quiet = run.json()["query"]["quiet"].clone();
    assert_eq!(quiet[0]["reason"], "broad-folder", "{quiet:#}");
    assert_eq!(quiet[0]["decision"], "ADR-0001", "{quiet:#}");
    let text = repo.run(&["review", &format!("{base}..HEAD")]).stdout();
    assert!(
        text.contains("1 its files lie in a folder of over 1,000 files it governs whole"),
        "{text}"
    );
}
