//! A file name written alone that many tracked files bear (`` `build.gradle.kts` `` in a
//! repository of modules) names the kind of file, not the one at the root: a mention, not
//! governed (docs/reading.md, "Named in passing"; ADR-0017; issue 36). Written with a folder,
//! or borne by a few files, it governs as before; and a warm answer follows git's index when
//! files of that name come and go.

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2024-03-01T10:00:00Z";

const RECORD: &str = "# 1. Build settings in one place\n\nStatus: accepted\n\n## Decision\n\n\
    Modules declare their `namespace` in `build.gradle.kts`, and every module is listed in \
    `settings.gradle.kts`.\n";

/// A repository whose record names `build.gradle.kts` alone, with that file at the root and
/// in `modules` module folders.
fn repo(record: &str, modules: usize) -> GitRepo {
    let g = GitRepo::new();
    g.write("docs/adr/0001-build-settings.md", record);
    g.write("build.gradle.kts", "plugins {}\n");
    g.write("settings.gradle.kts", "include(\":app\")\n");
    for m in 0..modules {
        g.write(&format!("mod{m}/build.gradle.kts"), "android {}\n");
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn governs(g: &GitRepo) -> Vec<String> {
    let j: Value = g.run(&["check", "--json"]).json();
    j["records"][0]["governs"]
        .as_array()
        .expect("governs")
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_file_name_many_modules_bear_is_a_mention_not_the_roots_governed_file() {
    let g = repo(RECORD, 5);
    assert_eq!(governs(&g), vec!["settings.gradle.kts".to_string()]);
    let (gov, by) = g.why_ids("build.gradle.kts");
    assert!(
        gov.is_empty(),
        "nothing governs the root build file: {gov:?}"
    );
    assert_eq!(by, vec!["ADR-0001".to_string()], "it is still a mention");
    // The file the name names once still governs.
    assert_eq!(
        g.why_ids("settings.gradle.kts").0,
        vec!["ADR-0001".to_string()]
    );
}

#[test]
fn a_file_name_few_files_bear_governs_the_one_at_the_root() {
    let g = repo(RECORD, 3);
    assert_eq!(
        governs(&g),
        vec![
            "build.gradle.kts".to_string(),
            "settings.gradle.kts".to_string()
        ]
    );
}

#[test]
fn a_file_name_written_from_the_root_governs_however_many_bear_it() {
    let g = repo(
        &RECORD.replace("`build.gradle.kts`", "`./build.gradle.kts`"),
        6,
    );
    assert!(
        governs(&g).contains(&"build.gradle.kts".to_string()),
        "{:?}",
        governs(&g)
    );
}

#[test]
fn a_warm_answer_follows_the_files_git_tracks_of_that_name() {
    let g = repo(RECORD, 3);
    g.run(&["index"]).assert_finished();
    assert_eq!(
        g.why_ids("build.gradle.kts").0,
        vec!["ADR-0001".to_string()]
    );
    // A module inside one, the fifth file of that name: the name now stands for the
    // modules' files, warm or not (no folder a record names changed).
    g.write("mod0/lib/build.gradle.kts", "android {}\n");
    g.git(&["add", "mod0/lib/build.gradle.kts"]);
    assert!(g.why_ids("build.gradle.kts").0.is_empty());
    g.commit_at("2024-03-02T10:00:00Z", "Ann", "A module inside one");
    g.run(&["index"]).assert_finished();
    assert!(g.why_ids("build.gradle.kts").0.is_empty());
    // And back: the root's file again once a module goes.
    g.git(&["rm", "-q", "mod0/build.gradle.kts"]);
    assert_eq!(
        g.why_ids("build.gradle.kts").0,
        vec!["ADR-0001".to_string()]
    );
}
