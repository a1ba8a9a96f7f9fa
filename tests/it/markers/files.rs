//! Which files are read for markers (ADR-0009): the files git tracks, plus the untracked ones
//! it does not ignore; outside git, every file `.gitignore` and `.ignore` do not exclude.

use super::{assert_same, declared, declared_ids, json, records_repo};
use crate::fixture::adr;
use crate::git::GitRepo;

#[test]
fn tracked_files_count_and_untracked_ones_unless_git_ignores_them() {
    let repo = records_repo();
    repo.write(".gitignore", "build/\n*.gen.ts\n")
        .write("src/kept.gen.ts", "// @adr 12\n");
    repo.git(&["add", "-f", "src/kept.gen.ts"]);
    repo.commit_at(
        "2025-03-01T10:00:00Z",
        "Ana",
        "A generated file kept on purpose",
    );
    repo.write("build/out.js", "// @adr 12\n")
        .write("src/skip.gen.ts", "// @adr 12\n")
        .write("src/new.ts", "// @adr 3\n");
    assert_eq!(
        declared(&repo, "."),
        [
            ("ADR-0003".to_string(), vec!["src/new.ts:1".to_string()]),
            (
                "ADR-0012".to_string(),
                vec!["src/kept.gen.ts:1".to_string()]
            ),
        ],
        "tracked (even ignored) and untracked not ignored; not what git ignores"
    );
    assert!(declared(&repo, "build/out.js").is_empty());
    assert!(declared(&repo, "src/skip.gen.ts").is_empty());
    assert_eq!(declared_ids(&repo, "src/kept.gen.ts"), ["ADR-0012"]);
    assert_same(&repo, "ignored files", &["check", "--json"]);
}

#[test]
fn the_repositorys_own_excludes_count_too() {
    let repo = records_repo();
    std::fs::create_dir_all(repo.path().join(".git/info")).expect("info");
    std::fs::write(repo.path().join(".git/info/exclude"), "scratch/\n").expect("exclude");
    repo.write("scratch/try.rs", "// @adr 12\n")
        .write("src/try.rs", "// @adr 12\n");
    assert!(declared(&repo, "scratch/try.rs").is_empty());
    assert_eq!(declared_ids(&repo, "src/try.rs"), ["ADR-0012"]);
}

#[test]
fn outside_git_gitignore_and_ignore_decide() {
    let root = GitRepo::empty_folder();
    root.write(
        "docs/adr/0001-core.md",
        &adr(1, "Core", "Accepted", None, "The core."),
    )
    .write(".gitignore", "dist/\n")
    .write("src/.ignore", "vendored.rs\n")
    .write("dist/app.js", "// @adr 1\n")
    .write("src/vendored.rs", "// @adr 1\n")
    .write("src/own.rs", "// @adr 1\n")
    .write(".hidden/tool.rs", "// @adr 1\n");
    let doc = json(&root, &["why", "."]);
    assert_eq!(
        super::decisions(&doc),
        [(
            "ADR-0001".to_string(),
            vec![],
            vec![".hidden/tool.rs:1".to_string(), "src/own.rs:1".to_string()]
        )]
    );
    assert!(declared(&root, "src/vendored.rs").is_empty());
    assert!(declared(&root, "dist/app.js").is_empty());
}

#[test]
fn a_nested_repository_is_its_own() {
    let repo = records_repo();
    let nested = repo.path().join("vendor/lib");
    std::fs::create_dir_all(&nested).expect("a nested folder");
    repo.command("git")
        .args(["init", "-q", "vendor/lib"])
        .output()
        .expect("git init");
    repo.write("vendor/lib/x.rs", "// @adr 12\n")
        .write("vendor/y.rs", "// @adr 3\n");
    assert_eq!(declared_ids(&repo, "vendor"), ["ADR-0003"]);
    assert!(declared(&repo, "vendor/lib/x.rs").is_empty());
}
