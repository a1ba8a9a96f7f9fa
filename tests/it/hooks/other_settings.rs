//! A commit that changes only settings a decision never names, in settings files it governs
//! (docs/hooks.md, `skip_other_settings`), through real `git commit` with the installed hooks
//! and through `review`: one line naming the decision, not the full warning, for a new package
//! rule in a `renovate.json` whose branch presets the decision sets; a change to a key the
//! record writes, to a file that is not settings, or to a CI pipeline, is warned in full;
//! `skip_other_settings = false` brings the full warning back.

use super::{
    commit_all, one_record, review_quiet, said_in_one_line, warned_in_full, warned_not_in_one_line,
};
use crate::git::GitRepo;

const RENOVATE: &str = "{\n  \"extends\": [\"config:recommended\"],\n  \"baseBranchPatterns\": [\"main\", \"release-1.0\"]\n}\n";

/// ADR-0001 decides which branches Renovate updates, by `baseBranchPatterns` in
/// `renovate.json`, and that `scripts/branches.sh` writes the list. Fewer than five records:
/// no change is compared with their words.
fn repo(off: bool) -> GitRepo {
    one_record(
        (
            "0001-update-branches.md",
            "Update the supported release branches",
            "Renovate updates every supported release branch: `renovate.json` lists them in \
             `baseBranchPatterns`, written by `scripts/branches.sh` at each release, which \
             `.github/workflows/branches.yml` runs.",
        ),
        &[
            ("renovate.json", RENOVATE),
            ("scripts/branches.sh", "echo main\n"),
            (".github/workflows/branches.yml", WORKFLOW),
        ],
        off.then_some("skip_other_settings"),
    )
}

const LINE: &str = "context-graph: it changes settings that ADR-0001 never names, in files it \
                    governs; cite it if it follows or changes it";

const WORKFLOW: &str = "on:\n  push:\n    tags: ['v*']\njobs:\n  list:\n    runs-on: ubuntu-latest\n    steps:\n      - run: scripts/branches.sh\n";

/// A rule grouping the image bumps of one tool: a setting the record never names.
const GROUPED: &str = "{\n  \"extends\": [\"config:recommended\"],\n  \"baseBranchPatterns\": [\"main\", \"release-1.0\"],\n  \"packageRules\": [\n    {\"matchPackageNames\": [\"spire-server\", \"spire-agent\"], \"groupName\": \"spire\"}\n  ]\n}\n";

#[test]
fn another_setting_of_the_file_gets_one_line() {
    let repo = repo(false);
    repo.write("renovate.json", GROUPED);
    let err = commit_all(&repo, "Group the spire image bumps");
    said_in_one_line(&err, LINE);
}

#[test]
fn a_setting_the_record_names_or_a_script_is_warned_in_full() {
    // The branches the record decides.
    let branches = repo(false);
    branches.write(
        "renovate.json",
        &RENOVATE.replace("\"release-1.0\"]", "\"release-1.0\", \"release-1.1\"]"),
    );
    let err = commit_all(&branches, "Update release 1.1 too");
    warned_not_in_one_line(&err, LINE);
    // A script beside the settings file: not settings.
    let script = repo(false);
    script
        .write("renovate.json", GROUPED)
        .write("scripts/branches.sh", "echo main release-1.1\n");
    let err = commit_all(&script, "Group spire, list 1.1");
    assert!(warned_in_full(&err), "{err}");
    // A CI pipeline is a program written in YAML, not settings: a step made conditional.
    let pipeline = repo(false);
    pipeline.write(
        ".github/workflows/branches.yml",
        &WORKFLOW.replace(
            "      - run:",
            "      - if: github.ref != 'refs/heads/main'\n        run:",
        ),
    );
    let err = commit_all(&pipeline, "List branches on tags only");
    warned_not_in_one_line(&err, LINE);
}

#[test]
fn skip_other_settings_false_brings_the_full_warning_back() {
    let repo = repo(true);
    repo.write("renovate.json", GROUPED);
    let err = commit_all(&repo, "Group the spire image bumps");
    warned_not_in_one_line(&err, LINE);
}

#[test]
fn review_lists_it_as_quiet() {
    let repo = repo(false);
    let base = repo.head();
    repo.write("renovate.json", GROUPED);
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Group the spire image bumps");
    repo.write(
        "renovate.json",
        &GROUPED.replace("\"release-1.0\"]", "\"release-1.0\", \"release-1.1\"]"),
    );
    repo.commit_at("2025-02-04T10:00:00Z", "Bo", "Update release 1.1 too");
    review_quiet(
        &repo,
        &base,
        ("Group the spire image bumps", "other-settings"),
        "Update release 1.1 too",
        "it changes only settings the record never names",
    );
}
