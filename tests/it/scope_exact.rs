//! `scope ID --add PATH` writes exactly the path given (issue 38, ADR-0017): a glob character,
//! a space or a `[` in a file's name is written escaped and read back as that one file, never
//! as a glob over its siblings; a backtick is refused; a path that does not read back as
//! governed is refused and the record put back byte for byte.

use crate::git::GitRepo;

const DATE: &str = "2025-03-05T10:00:00Z";
const RECORD: &str = "docs/adr/0001-storage.md";

/// A repository with the record `record` and, beside their siblings, files whose names hold a
/// glob character, a space or brackets.
fn repo(record: &str) -> GitRepo {
    let g = GitRepo::new();
    g.write(RECORD, record);
    for rel in [
        "src/db/star*.py",
        "src/db/starfoo.py",
        "src/db/other.py",
        "src/db/sp ace.py",
        "src/db/[id].py",
        "src/db/i.py",
        "src/db/README.md",
        "src/star*.py",
        "src/starfoo.py",
        "src/q?.py",
        "src/qa.py",
        "src/db/back`tick.py",
    ] {
        g.write(rel, "x = 1\n");
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn read(g: &GitRepo) -> String {
    std::fs::read_to_string(g.path().join(RECORD)).expect("the record")
}

fn why_ids(g: &GitRepo, path: &str) -> Vec<String> {
    let run = g.run(&["why", path, "--json"]);
    run.assert_code(0);
    run.json()["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect()
}

/// `scope 1 --add PATH`, which must succeed and write PATH as asked.
fn add(g: &GitRepo, path: &str) {
    let run = g.run(&["scope", "1", "--add", path, "--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(j["scope"]["added"], serde_json::json!([path]), "{j:#}");
    assert_eq!(j["scope"]["written"], true, "{j:#}");
}

/// On a record whose scope is a `Governs:` line, `scope --add PATH` governs PATH and none of
/// `siblings`; the line holds PATH escaped (`written`).
fn governs_line_takes(path: &str, siblings: [&str; 2], written: &str) {
    let g = repo("# 1. Storage\n\nStatus: Accepted\nDate: 2025-01-01\n\n## Decision\n\nRows.\n");
    add(&g, path);
    assert_eq!(why_ids(&g, path), ["ADR-0001"], "{path}\n{}", read(&g));
    for sibling in siblings {
        assert!(
            why_ids(&g, sibling).is_empty(),
            "{sibling} governed after adding {path}:\n{}",
            read(&g)
        );
    }
    assert!(
        read(&g).contains(&format!("Governs: `{written}`\n")),
        "{}",
        read(&g)
    );
    assert!(
        g.governed_path_findings().is_empty(),
        "{:?}",
        g.governed_path_findings()
    );
    assert_eq!(g.index_status()["fresh"], true);
}

#[test]
fn a_star_on_a_governs_line_is_the_files_own() {
    governs_line_takes(
        "src/db/star*.py",
        ["src/db/starfoo.py", "src/db/other.py"],
        "src/db/star\\*.py",
    );
}

#[test]
fn a_space_on_a_governs_line_is_the_files_own() {
    governs_line_takes(
        "src/db/sp ace.py",
        ["src/db/other.py", "src/db/starfoo.py"],
        "src/db/sp\\ ace.py",
    );
}

#[test]
fn brackets_on_a_governs_line_are_the_files_own() {
    governs_line_takes(
        "src/db/[id].py",
        ["src/db/i.py", "src/db/other.py"],
        "src/db/\\[id\\].py",
    );
}

#[test]
fn a_frontmatter_list_governs_the_file_named_not_its_siblings() {
    let g = repo("---\nstatus: accepted\ngoverns:\n  - lib/\n---\n# 1. Storage\n\nRows.\n");
    for (path, sibling) in [
        ("src/star*.py", "src/starfoo.py"),
        ("src/q?.py", "src/qa.py"),
    ] {
        add(&g, path);
        assert_eq!(why_ids(&g, path), ["ADR-0001"], "{path}\n{}", read(&g));
        assert!(
            why_ids(&g, sibling).is_empty(),
            "{sibling} governed after adding {path}:\n{}",
            read(&g)
        );
    }
    assert_eq!(
        read(&g),
        "---\nstatus: accepted\ngoverns:\n  - lib/\n  - src/star\\*.py\n  - src/q\\?.py\n---\n# 1. Storage\n\nRows.\n"
    );
}

#[test]
fn a_backtick_in_a_path_is_refused_and_nothing_is_written() {
    let g = repo("# 1. Storage\n\nStatus: Accepted\n\nRows.\n");
    let before = read(&g);
    let run = g.run(&["scope", "1", "--add", "src/db/back`tick.py"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("src/db/back`tick.py") && run.stderr.contains("backtick"),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.stderr.trim_end().lines().count(),
        1,
        "{}",
        run.describe()
    );
    assert_eq!(read(&g), before);
}

#[test]
fn a_path_that_does_not_read_back_as_governed_is_put_back_byte_for_byte() {
    // A project's paperwork (`README.md`) a record's prose names is never governed code: written
    // on its `Governs:` line, it would read back as governing nothing.
    let text = "# 1. Storage\r\n\r\nStatus: Accepted\r\n\r\nRows.";
    let g = repo(text);
    let run = g.run(&["scope", "1", "--add", "src/db/README.md"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("src/db/README.md") && run.stderr.contains("read back"),
        "{}",
        run.describe()
    );
    assert_eq!(read(&g), text);
    assert!(why_ids(&g, "src/db/README.md").is_empty());
    assert_eq!(g.index_status()["fresh"], true);
    assert_eq!(g.git(&["status", "--porcelain"]), "");
}
