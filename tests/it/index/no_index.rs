//! No index where there should be none: `--no-index` neither reads nor writes it, and a folder
//! outside any git repository never gets one.

use super::{ADR1, GOVERNED, QUERIES, UNGOVERNED};
use crate::env::no_index;
use crate::fixture::adr;
use crate::git::GitRepo;
use std::path::{Path, PathBuf};

#[test]
fn no_index_neither_reads_nor_writes_the_index() {
    let repo = GitRepo::new();
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write(GOVERNED, "1\n")
    .write(UNGOVERNED, "1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start for ADR-0001");
    let made = repo.run(&["check", "--git", "--json"]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert!(repo.index_file().is_file(), "a query made the index");

    std::fs::remove_file(repo.index_file()).expect("delete the index");
    for q in QUERIES {
        let out = repo.run(&no_index(q));
        assert_eq!(out.code, Some(0), "{q:?}: {}", out.stderr);
        assert!(out.stderr.is_empty(), "{q:?}: {}", out.stderr);
        assert!(
            !repo.index_file().exists(),
            "{q:?} --no-index created {}",
            repo.index_file().display()
        );
    }

    // Nor the folder.
    std::fs::remove_dir_all(repo.path().join(".git/context-graph")).expect("delete the folder");
    for q in QUERIES {
        repo.run(&no_index(q));
    }
    assert!(!repo.path().join(".git/context-graph").exists());
}

/// Every file or folder under `dir` whose name is `index.redb` or `context-graph`.
fn index_traces(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("list a folder").flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if name == "index.redb" || name == "context-graph" {
                out.push(path.clone());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(path);
            }
        }
    }
    out
}

#[test]
fn outside_a_git_repository_no_index_is_made() {
    let dir = GitRepo::empty_folder();
    dir.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write(GOVERNED, "1\n")
    .write(UNGOVERNED, "1\n");
    let top = dir
        .path()
        .parent()
        .expect("the temporary folder")
        .to_path_buf();
    for q in QUERIES {
        let indexed = dir.run(q);
        let scanned = dir.run(&no_index(q));
        assert_eq!(indexed.code, Some(0), "{q:?}: {}", indexed.stderr);
        assert_eq!(indexed.stdout, scanned.stdout, "{q:?}");
    }
    let out = dir.run(&["index"]);
    assert_ne!(
        out.code,
        Some(0),
        "`index` outside git has nothing to index"
    );
    let traces = index_traces(&top);
    assert!(traces.is_empty(), "an index outside git: {traces:?}");
}
