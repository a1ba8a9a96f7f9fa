//! `scope ID --add PATH…` / `--accept` (docs/mentions.md, ADR-0017): paths written into the
//! record's own scope form, only added lines, line endings kept; `--dry-run` prints the diff;
//! a path outside the root or untracked is refused (exit 2); afterwards `why` names the record.

use crate::git::GitRepo;

const DATE: &str = "2025-03-05T10:00:00Z";

fn repo(record: &str) -> GitRepo {
    let g = GitRepo::new();
    g.write("docs/adr/0001-sessions.md", record);
    g.write(
        "app/controllers/authentication_controller.rb",
        "class A; end\n",
    );
    g.write("lib/billing/invoice.rb", "# invoice\n");
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn read(g: &GitRepo) -> String {
    std::fs::read_to_string(g.path().join("docs/adr/0001-sessions.md")).expect("the record")
}

fn why_ids(g: &GitRepo, path: &str) -> Vec<String> {
    let j = g.run(&["why", path, "--json"]).json();
    j["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn add_writes_a_governs_line_and_why_then_names_the_record() {
    let text = "# 1. Sessions\r\n\r\nStatus: Accepted\r\nDate: 2025-01-01\r\n\r\n## Context\r\n\r\nThe AuthenticationController signs in.";
    let g = repo(text);
    assert!(why_ids(&g, "lib/billing/invoice.rb").is_empty());
    let run = g.run(&["scope", "ADR-0001", "--add", "lib/billing", "--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(j["scope"]["added"], serde_json::json!(["lib/billing/"]));
    assert_eq!(j["scope"]["form"], "governs line");
    assert_eq!(j["scope"]["written"], true);
    assert_eq!(
        read(&g),
        "# 1. Sessions\r\n\r\nStatus: Accepted\r\nDate: 2025-01-01\r\nGoverns: `lib/billing/`\r\n\r\n## Context\r\n\r\nThe AuthenticationController signs in."
    );
    assert_eq!(why_ids(&g, "lib/billing/invoice.rb"), ["ADR-0001"]);
    assert_eq!(g.index_status()["fresh"], true);
    // Only added lines.
    let diff = g.git(&["diff", "--numstat"]);
    assert_eq!(diff.trim(), "1\t0\tdocs/adr/0001-sessions.md");
}

#[test]
fn accept_writes_the_confident_mentions_into_a_frontmatter_list() {
    let g = repo("---\nstatus: accepted\ngoverns:\n  - lib/billing/\n---\n# 1. Sessions\n\nThe AuthenticationController signs in.\n");
    let run = g.run(&["scope", "1", "--accept", "--dry-run"]);
    run.assert_code(0);
    let out = run.stdout();
    assert!(
        out.contains("@@ -4,0 +5,1 @@\n+  - app/controllers/authentication_controller.rb\n"),
        "{out}"
    );
    assert!(
        !read(&g).contains("authentication_controller"),
        "--dry-run wrote"
    );
    g.run(&["scope", "1", "--accept"]).assert_code(0);
    assert_eq!(
        read(&g),
        "---\nstatus: accepted\ngoverns:\n  - lib/billing/\n  - app/controllers/authentication_controller.rb\n---\n# 1. Sessions\n\nThe AuthenticationController signs in.\n"
    );
    assert_eq!(
        why_ids(&g, "app/controllers/authentication_controller.rb"),
        ["ADR-0001"]
    );
    // Asked again: already governed, nothing written.
    let j = g
        .run(&["scope", "1", "--add", "lib/billing/invoice.rb", "--json"])
        .json();
    assert_eq!(j["scope"]["added"], serde_json::json!([]));
    assert_eq!(
        j["scope"]["already"],
        serde_json::json!(["lib/billing/invoice.rb"])
    );
    assert_eq!(j["scope"]["written"], false);
}

#[test]
fn untracked_or_outside_paths_are_refused() {
    let g = repo("# 1. Sessions\n\nStatus: Accepted\n");
    let before = read(&g);
    g.write("lib/untracked.rb", "#\n");
    for path in ["lib/untracked.rb", "../elsewhere", "nothing/here"] {
        let run = g.run(&["scope", "1", "--add", path]);
        run.assert_code(2);
        assert!(run.stderr.contains(path), "{}", run.describe());
    }
    assert_eq!(read(&g), before);
    g.run(&["scope", "ADR-0009", "--add", "lib/billing"])
        .assert_code(2);
}
