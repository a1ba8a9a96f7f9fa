//! A path the prose of more than three current records names as governed is common ground:
//! a mention of each, governed by none (docs/reading.md, "Named in passing"; ADR-0017; issue
//! 36). Three still govern, a proposed record does not count, a declared scope is kept, and
//! the commit hook stays quiet on common ground.

use crate::git::GitRepo;

const DATE: &str = "2024-03-01T10:00:00Z";

/// A repository with `n` records of `status` naming `src/core/` in their decision, each with
/// a file of its own, and `declared` more that declare `src/core/` in a `governs:` list.
fn repo(accepted: usize, proposed: usize, declared: usize) -> GitRepo {
    let g = GitRepo::new();
    let mut n = 0;
    let mut add = |status: &str, front: &str| {
        n += 1;
        g.write(
            &format!("docs/adr/{n:04}-layer-{n}.md"),
            &format!(
                "{front}# {n}. Layer rule {n}\n\nStatus: {status}\n\n## Decision\n\n\
                 Handlers in `src/core/` follow rule {n}, kept in `src/rules/r{n}.rs`.\n"
            ),
        );
        g.write(&format!("src/rules/r{n}.rs"), "fn rule() {}\n");
    };
    for _ in 0..accepted {
        add("accepted", "");
    }
    for _ in 0..proposed {
        add("proposed", "");
    }
    for _ in 0..declared {
        add("accepted", "---\ngoverns:\n  - src/core/\n---\n");
    }
    g.write("src/core/a.rs", "fn a() {}\n");
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn ids(range: std::ops::RangeInclusive<u32>) -> Vec<String> {
    range.map(|i| format!("ADR-{i:04}")).collect()
}

#[test]
fn a_folder_four_records_name_is_common_ground_each_still_governs_its_own() {
    let g = repo(4, 0, 0);
    let (gov, by) = g.why_ids("src/core/a.rs");
    assert!(gov.is_empty(), "common ground governs for none: {gov:?}");
    assert_eq!(by, ids(1..=4), "each still mentions it");
    // What each names alone still governs.
    assert_eq!(g.why_ids("src/rules/r2.rs").0, ids(2..=2));
}

#[test]
fn three_records_still_govern_and_a_proposed_one_does_not_count() {
    assert_eq!(repo(3, 0, 0).why_ids("src/core/a.rs").0, ids(1..=3));
    // A proposed fourth is no common ground: all four govern, the proposed one as proposed.
    assert_eq!(repo(3, 1, 0).why_ids("src/core/a.rs").0, ids(1..=4));
}

#[test]
fn a_declared_scope_is_kept_on_common_ground() {
    // Four accepted in prose, one declaring it: the prose ones govern no more, the declared
    // one does.
    let (gov, _) = repo(4, 0, 1).why_ids("src/core/a.rs");
    assert_eq!(gov, ids(5..=5));
}

#[test]
fn the_commit_hook_is_quiet_on_common_ground_and_warns_on_a_records_own_file() {
    use crate::hooks::{commit, install, ok};
    let g = repo(4, 0, 0);
    install(&g);
    let quiet = ok(
        &commit(&g, "src/core/a.rs", "fn a() { 1; }\n", "Tune a"),
        "git commit",
    );
    assert!(!quiet.contains("context-graph: warning"), "{quiet}");
    let warned = ok(
        &commit(&g, "src/rules/r3.rs", "fn rule() { 3; }\n", "Tune rule 3"),
        "git commit",
    );
    assert!(warned.contains("governed by ADR-0003"), "{warned}");
}
