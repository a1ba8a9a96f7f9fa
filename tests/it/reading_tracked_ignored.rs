//! A tracked file stays code when a `.gitignore` pattern matches it, as in git (`git
//! check-ignore` agrees; issue 38, ADR-0002): its prose record and a declared scope govern it,
//! and `why`, `review` and the commit hook name it; an untracked ignored file is still build
//! output, skipped.

use crate::git::GitRepo;
use crate::hooks::{git, install, ok};

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

/// Records naming `build/config.py` (tracked, though `build/` is ignored) in prose, and `gen/`
/// and `proto/*.pb.go` (tracked, ignored) in a declared scope; `build/out.js` is ignored and
/// untracked.
fn ignored_but_tracked() -> GitRepo {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-build.md",
        "# 1. Build settings\n\nStatus: Accepted\nDate: 2025-01-01\n\n## Decision\n\nThe settings in `build/config.py` choose the target; `build/out.js` is what it makes.\n",
    )
    .write(
        "docs/adr/0002-generated.md",
        "---\nstatus: accepted\ngoverns:\n  - gen/\n  - \"proto/*.pb.go\"\n---\n# 2. Generated code\n\nGenerated code is committed.\n",
    )
    .write("build/config.py", "TARGET = 'x'\n")
    .write("gen/api.py", "def api(): pass\n")
    .write("proto/a.pb.go", "package proto\n")
    .write("src/main.py", "print(1)\n");
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    g.write(".gitignore", "build/\ngen/\n*.pb.go\n")
        .write("build/out.js", "x\n");
    g.commit_at("2025-03-06T10:00:00Z", "Ann", "ignore build output");
    assert_eq!(g.git(&["ls-files", "build"]).trim(), "build/config.py");
    g
}

#[test]
fn a_tracked_file_an_ignore_pattern_matches_is_governed_by_its_prose_record() {
    let g = ignored_but_tracked();
    let j = g.run(&["record", "ADR-0001", "--json"]).json();
    let governs = &j["records"][0]["governs"];
    assert_eq!(*governs, serde_json::json!(["build/config.py"]), "{j:#}");
    assert_eq!(why_ids(&g, "build/config.py"), ["ADR-0001"]);
    // The untracked ignored file is still build output, not code.
    assert!(why_ids(&g, "build/out.js").is_empty());
}

#[test]
fn a_tracked_file_an_ignore_pattern_matches_is_no_missing_path_of_a_declared_scope() {
    let g = ignored_but_tracked();
    assert!(
        g.governed_path_findings().is_empty(),
        "{:?}",
        g.governed_path_findings()
    );
    assert_eq!(why_ids(&g, "gen/api.py"), ["ADR-0002"]);
    assert_eq!(why_ids(&g, "proto/a.pb.go"), ["ADR-0002"]);
    assert_eq!(why_ids(&g, "proto"), ["ADR-0002"]);
}

#[test]
fn review_and_the_commit_hook_name_the_decision_of_a_tracked_ignored_file() {
    let g = ignored_but_tracked();
    install(&g);
    g.branch("feature");
    g.write("build/config.py", "TARGET = 'y'\n");
    ok(&git(&g, &["add", "-u"], &[]), "git add -u");
    let out = git(&g, &["commit", "-q", "-m", "Retarget"], &[]);
    let err = ok(&out, "git commit");
    assert!(
        err.contains("ADR-0001") && err.contains("governs build/config.py"),
        "{err}"
    );
    let review = g.run(&["review", "main..HEAD", "--json"]);
    let j = review.json();
    let ids: Vec<&str> = j["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .filter_map(|d| d["id"].as_str())
        .collect();
    assert_eq!(ids, ["ADR-0001"], "{j:#}");
}

/// A declared glob whose only file is untracked and ignored, itself or by its folder, matches
/// nothing, with the index and without; one whose untracked file is not ignored matches (the
/// walk looking for a match applies the ignore files itself, issue 41).
#[test]
fn a_declared_glob_matching_only_an_untracked_ignored_file_names_a_missing_path() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-generated.md",
        "---\nstatus: accepted\ngoverns:\n  - \"out/**/*.rs\"\n  - \"kept/**/*.rs\"\n  - \"deep/**/*.rs\"\n---\n# 1. Generated code\n\nGenerated code is built, never committed.\n",
    )
    .write(".gitignore", "out/gen/a.rs\ndeep/x/skip/\n")
    .write("src/main.rs", "fn main() {}\n");
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    g.write("out/gen/a.rs", "fn a() {}\n")
        .write("kept/k/b.rs", "fn b() {}\n")
        .write("deep/x/skip/c.rs", "fn c() {}\n");
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let found = g.governed_path_findings_of(args);
        assert_eq!(found.len(), 2, "{args:?}: {found:#?}");
        assert!(
            found.iter().any(|m| m.contains("`out/**/*.rs`")),
            "{found:#?}"
        );
        assert!(
            found.iter().any(|m| m.contains("`deep/**/*.rs`")),
            "{found:#?}"
        );
    }
    // Once the file is not ignored, it is a match, both ways.
    g.write(".gitignore", "deep/x/skip/\n");
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let found = g.governed_path_findings_of(args);
        assert_eq!(found.len(), 1, "{args:?}: {found:#?}");
        assert!(found[0].contains("`deep/**/*.rs`"), "{found:#?}");
    }
}
