//! `introduced` evidence weighs PATH's part of the commit that added the record (docs/related.md,
//! ADR-0017): a record added beside a new module and a line in `package.json` is related to the
//! module, not to `package.json`. The same answer from a pending commit, from the stored
//! history and from `--no-index`.

use crate::fixture::adr;
use crate::git::GitRepo;

/// A `package.json` of twenty dependencies, and one more at the end when `extra`.
fn manifest(extra: bool) -> String {
    let mut deps: Vec<String> = (0..20)
        .map(|i| format!("    \"dep-{i:02}\": \"^1.{i}.0\""))
        .collect();
    if extra {
        deps.push("    \"streams\": \"^2.0.0\"".to_string());
    }
    format!(
        "{{\n  \"name\": \"shop\",\n  \"dependencies\": {{\n{}\n  }}\n}}\n",
        deps.join(",\n")
    )
}

/// A module of about 20 KB.
fn module() -> String {
    (0..400)
        .map(|i| format!("pub fn stream_part_{i:03}() -> u32 {{ {i} }}\n"))
        .collect()
}

/// The meta record, then the manifest; then ADR-0002 "Stream the exports", added with
/// `src/export/pipe.rs` (new, 20 KB) and one line of `package.json` (0.1% of the bytes).
fn repo() -> GitRepo {
    let repo = crate::related::started();
    repo.write("package.json", &manifest(false));
    repo.commit_at("2025-01-01T11:00:00Z", "Ann", "Add the manifest");
    repo
}

fn add_the_record(repo: &GitRepo) -> String {
    repo.write(
        "docs/adr/0002-stream-the-exports.md",
        &adr(
            2,
            "Stream the exports",
            "Accepted",
            Some("2025-01-02"),
            "## Decision\n\nExports are written as they are read.",
        ),
    );
    repo.write("src/export/pipe.rs", &module());
    repo.write("package.json", &manifest(true));
    repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Stream the exports")
}

/// `why PATH --json`'s related records as "id kind+kind", the index's answer checked equal to
/// `--no-index`'s (`related::related`).
fn related(repo: &GitRepo, path: &str) -> Vec<String> {
    crate::related::kinds(&crate::related::related(repo, path))
}

#[test]
fn a_file_the_adding_commit_changed_by_a_line_among_thousands_is_not_introduced() {
    let repo = repo();
    // Indexed at the first commit: the second is pending at the next answer.
    assert_eq!(repo.run(&["index"]).code, Some(0));
    add_the_record(&repo);
    for when in ["pending", "stored"] {
        if when == "stored" {
            assert_eq!(repo.run(&["index", "--rebuild"]).code, Some(0));
        }
        assert_eq!(
            related(&repo, "src/export/pipe.rs"),
            ["ADR-0002 introduced"],
            "{when}"
        );
        assert_eq!(
            related(&repo, "package.json"),
            Vec::<String>::new(),
            "{when}: one dependency line is 0.1% of what the commit changed"
        );
    }
    let text = repo.run(&["why", "package.json"]).stdout();
    assert!(!text.contains("added with this file"), "{text}");
}

#[test]
fn a_file_that_is_a_fair_part_of_the_adding_commit_is_introduced() {
    let repo = repo();
    add_the_record(&repo);
    // A second record added with a small module and the manifest's next line: the line is
    // now a fair part of a small commit.
    repo.write(
        "docs/adr/0003-retry-the-exports.md",
        &adr(
            3,
            "Retry",
            "Accepted",
            Some("2025-01-03"),
            "## Decision\n\nRetry.",
        ),
    );
    repo.write("src/export/retry.rs", "pub fn retry() {}\n");
    repo.write(
        "package.json",
        &manifest(true).replace("\"^2.0.0\"", "\"^2.0.0\",\n    \"retry\": \"^1.0.0\""),
    );
    repo.commit_at("2025-01-03T10:00:00Z", "Ann", "Retry the exports");
    assert_eq!(related(&repo, "package.json"), ["ADR-0003 introduced"]);
}

#[test]
fn a_record_naming_its_own_code_is_introduced_to_an_unnamed_file_only_beside_other_evidence() {
    // cisagov/manage.get.gov's state-machine record names its models; the commit adding it
    // also touched `settings.py` and `models/user.py`, and the record was shown related to
    // both, alone by that commit: a reader judged both wrong (issue 36).
    let repo = repo();
    repo.write("src/models/request.py", "class Request: pass\n")
        .write("src/models/invite.py", "class Invite: pass\n")
        .write("src/settings.py", "APPS = []\n")
        .write("src/models/user.py", "class User: pass\n");
    repo.commit_at("2025-01-02T09:00:00Z", "Ann", "The models");
    repo.write(
        "docs/adr/0002-state-machines.md",
        &adr(
            2,
            "Use a library for state machines",
            "Accepted",
            Some("2025-01-02"),
            "## Decision\n\n`src/models/request.py` and `src/models/invite.py` keep their \
             states with the library.",
        ),
    );
    repo.write("src/models/request.py", "class Request:\n    state = 1\n")
        .write("src/settings.py", "APPS = ['fsm']\n")
        .write("src/models/user.py", "class User:\n    pass\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Ann", "State machines");
    assert_eq!(related(&repo, "src/settings.py"), Vec::<String>::new());
    assert_eq!(related(&repo, "src/models/user.py"), Vec::<String>::new());
    // A record naming no code is still related by the commit that added it alone.
    repo.write(
        "docs/adr/0003-iso-dates.md",
        &adr(
            3,
            "Write dates as ISO 8601",
            "Accepted",
            Some("2025-01-03"),
            "## Decision\n\nISO.",
        ),
    );
    repo.write(
        "src/models/user.py",
        "class User:\n    born = '2025-01-03'\n",
    );
    repo.commit_at("2025-01-03T10:00:00Z", "Ann", "ISO dates");
    assert_eq!(
        related(&repo, "src/models/user.py"),
        ["ADR-0003 introduced"]
    );
}
