//! `review [RANGE]` (docs/hooks.md, ADR-0008): the decisions a range of commits touches, the
//! commits touching each, whether the range cites them; Markdown, JSON, `--strict`, the default
//! range.

use crate::git::GitRepo;
use crate::hooks::decisions;
use serde_json::{json, Value};

/// On `feature` from main: an uncited and a citing commit to `src/auth/` (ADR-0001), an uncited
/// one to `src/pay/` (ADR-0002), one to ungoverned code and one to a superseded decision's.
/// Returns the repository and the commits, oldest first.
fn feature() -> (GitRepo, Vec<String>) {
    let repo = decisions();
    repo.branch("feature");
    let mut shas = Vec::new();
    for (i, (rel, message)) in [
        ("src/auth/login.py", "Shorten the login"),
        ("src/auth/token.py", "Refresh tokens\n\nKeeps to adr-1."),
        ("src/pay/charge.py", "Charge more"),
        ("src/free.py", "Free code"),
        ("src/legacy/invoice.py", "Invoices"),
    ]
    .iter()
    .enumerate()
    {
        repo.write(rel, &format!("v = {i}\n"));
        shas.push(repo.commit_at(&format!("2025-03-0{}T10:00:00Z", i + 1), "Ana", message));
    }
    (repo, shas)
}

fn review(repo: &GitRepo, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["review"];
    all.extend(args);
    all.push("--json");
    let run = repo.run(&all);
    (run.code, run.json())
}

/// A commit object as the JSON shows it, with `cites_record`.
fn commit(repo: &GitRepo, sha: &str, day: u32, subject: &str, cites: bool) -> Value {
    let short = repo.git(&["rev-parse", "--short", sha]).trim().to_string();
    json!({
        "sha": short,
        "date": format!("2025-03-0{day}"),
        "author": "Ana",
        "subject": subject,
        "cites_record": cites,
    })
}

#[test]
fn a_branch_with_cited_and_uncited_commits() {
    let (repo, shas) = feature();
    let (code, doc) = review(&repo, &["main..HEAD"]);
    assert_eq!(code, Some(0), "{doc:#}");
    let q = &doc["query"];
    assert_eq!(q["review"], "main..HEAD");
    assert_eq!(q["base"], repo.rev("main"));
    assert_eq!(q["head"], repo.head());
    assert_eq!(q["commits"], 5);
    assert_eq!(
        q["decisions"],
        json!([
            {
                "id": "ADR-0001",
                "title": "Tokens expire after an hour",
                "records": ["docs/adr/0001-tokens.md"],
                "paths": ["src/auth/login.py", "src/auth/token.py"],
                "commits": [
                    commit(&repo, &shas[1], 2, "Refresh tokens", true),
                    commit(&repo, &shas[0], 1, "Shorten the login", false),
                ],
                "cited": true,
                // The second commit of Ana's run cites it: no repeat (review_quiet.rs has them).
                "repeats": [],
            },
            {
                "id": "ADR-0002",
                "title": "Payments go through one gateway",
                "records": ["docs/adr/0002-payments.md"],
                "paths": ["src/pay/charge.py"],
                "commits": [commit(&repo, &shas[2], 3, "Charge more", false)],
                "cited": false,
                "repeats": [],
            },
        ]),
        "{q:#}"
    );
    assert_eq!(q["uncited"], json!(["ADR-0002"]));
    // The usual document, narrowed to those decisions.
    let ids: Vec<&str> = doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["ADR-0001", "ADR-0002"]);
    for key in ["root", "docs", "findings", "notes"] {
        assert!(doc.get(key).is_some(), "{key}");
    }

    // --strict, and the configuration, make the uncited decision an exit 1.
    assert_eq!(review(&repo, &["main..HEAD", "--strict"]).0, Some(1));
    repo.git(&["config", "context-graph.strict", "true"]);
    assert_eq!(review(&repo, &["main..HEAD"]).0, Some(1));
    // A range whose decisions are all cited passes strict mode.
    let range = format!("{}..{}", shas[0], shas[1]);
    let (code, doc) = review(&repo, &[&range, "--strict"]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["query"]["uncited"], json!([]));
    // One that touches nothing governed.
    let range = format!("{}..{}", shas[2], shas[4]);
    let (code, doc) = review(&repo, &[&range, "--strict"]);
    assert_eq!((code, &doc["query"]["decisions"]), (Some(0), &json!([])));
}

#[test]
fn the_markdown_is_fit_for_a_pull_request() {
    let (repo, shas) = feature();
    let run = repo.run(&["review", "main..HEAD"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    let short = |i: usize| {
        repo.git(&["rev-parse", "--short", &shas[i]])
            .trim()
            .to_string()
    };
    for want in [
        "# context-graph review: `main..HEAD`\n".to_string(),
        "5 commits (`".to_string(),
        " touch paths governed by 2 current decisions; 1 is not cited.\n".to_string(),
        "| ADR-0002 | Payments go through one gateway | **no** | 1 | 1 |\n".to_string(),
        // Cited by one commit of the two that touch its paths.
        "| ADR-0001 | Tokens expire after an hour | partly: 1 uncited | 2 | 2 |\n".to_string(),
        "## ADR-0002: Payments go through one gateway (not cited)\n".to_string(),
        "- Record: `docs/adr/0002-payments.md`\n".to_string(),
        "- Paths touched: `src/pay/charge.py`\n".to_string(),
        format!("  - `{}` 2025-03-03 Ana: Charge more\n", short(2)),
        format!(
            "  - `{}` 2025-03-02 Ana: Refresh tokens (cites it)\n",
            short(1)
        ),
        "To cite a decision, mention its id in a commit message of the range".to_string(),
    ] {
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
    }
    // Uncited decisions come first.
    assert!(
        text.find("## ADR-0002").expect("ADR-0002") < text.find("## ADR-0001").expect("ADR-0001")
    );
    assert!(!text.contains('\u{1b}'), "no colour in a pipe");
}

#[test]
fn a_decision_cited_in_the_range_still_counts_the_commits_citing_none() {
    let (repo, shas) = feature();
    // The login commit touches ADR-0001's paths without citing it; the next one cites it.
    let run = repo.run(&["review", &format!("main..{}", shas[1])]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    assert!(
        text.contains(
            " touch paths governed by 1 current decision; every one is cited in the range, \
             though 1 commit that touches them cites none.\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("| Tokens expire after an hour | partly: 1 uncited | 2 | 2 |\n"),
        "{text}"
    );
    // Only the citing commit: every one is cited, and nothing more is said.
    let run = repo.run(&["review", &format!("{}..{}", shas[0], shas[1])]);
    assert!(
        run.stdout()
            .contains("governed by 1 current decision; every one is cited.\n"),
        "{}",
        run.stdout()
    );
    assert!(
        run.stdout()
            .contains("| Tokens expire after an hour | yes | 1 | 1 |\n"),
        "{}",
        run.stdout()
    );
}

#[test]
fn the_default_range_is_the_upstream_of_the_branch() {
    let (repo, _) = feature();
    let run = repo.run(&["review"]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert_eq!(
        run.stderr,
        "context-graph: the branch feature has no upstream: name the range to review, e.g. `context-graph review origin/main..HEAD`\n"
    );
    repo.git(&["branch", "-q", "--set-upstream-to=main"]);
    let (code, doc) = review(&repo, &[]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["query"]["review"], "main..HEAD");
    assert_eq!(doc["query"]["uncited"], json!(["ADR-0002"]));
    // A remote-tracking upstream, as CI has after a fetch.
    let clone = GitRepo::empty_folder();
    std::fs::remove_dir(clone.path()).expect("make room");
    let url = format!("file://{}", repo.path().display());
    let out = clone
        .env()
        .command("git")
        .args([
            "clone",
            "-q",
            "-b",
            "main",
            &url,
            &clone.path().display().to_string(),
        ])
        .output()
        .expect("clone");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    clone.git(&["checkout", "-q", "-b", "work", "--track", "origin/main"]);
    clone.git(&["merge", "-q", "--ff-only", "origin/feature"]);
    let (code, doc) = review(&clone, &[]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["query"]["review"], "origin/main..HEAD");
    assert_eq!(doc["query"]["commits"], 5);
}

#[test]
fn ranges_merges_and_bad_input() {
    let (repo, shas) = feature();
    // A merge commit's message cites for the range; its diff is not counted twice.
    repo.checkout("main");
    repo.git(&["checkout", "-q", "-b", "integration"]);
    repo.merge_no_ff(
        "feature",
        "2025-03-09T10:00:00Z",
        "Ben",
        "Merge feature (ADR-0002)",
    );
    let (code, doc) = review(&repo, &["main..integration"]);
    assert_eq!(code, Some(0), "{doc:#}");
    let q = &doc["query"];
    assert_eq!(q["commits"], 6, "five commits and the merge");
    assert_eq!(q["uncited"], json!([]), "the merge cites ADR-0002");
    assert_eq!(
        q["decisions"][1]["commits"].as_array().map(Vec::len),
        Some(1)
    );
    // `A...B` starts at their merge base; a lone BASE ends at HEAD.
    repo.checkout("main");
    repo.write("README.md", "# Moved on\n");
    repo.commit_at("2025-03-10T10:00:00Z", "Cy", "Main moves");
    let (_, three) = review(&repo, &["main...feature"]);
    assert_eq!(three["query"]["commits"], 5);
    assert_eq!(three["query"]["base"], repo.rev("main~1"));
    repo.checkout("feature");
    let (_, lone) = review(&repo, &[&shas[2]]);
    assert_eq!(lone["query"]["review"], format!("{}..HEAD", shas[2]));
    assert_eq!(lone["query"]["commits"], 2);
    // A revision that names nothing: exit 2, one line.
    repo.run(&["review", "nope..HEAD"]).assert_usage_error();
    // In a shallow clone, the message says what to fetch.
    let shallow = repo.shallow_clone(2);
    let run = shallow.run(&["review", "HEAD~4..HEAD"]);
    run.assert_usage_error();
    assert!(
        run.stderr.contains("this is a shallow clone"),
        "{}",
        run.describe()
    );
    let (code, doc) = review(&shallow, &["HEAD~1..HEAD"]);
    assert_eq!((code, &doc["query"]["commits"]), (Some(0), &json!(1)));
}

#[test]
fn outside_git_there_is_nothing_to_review_or_install() {
    let env = crate::env::TestEnv::new();
    for args in [["review"], ["install-hooks"], ["uninstall-hooks"]] {
        let run = env.run(args);
        run.assert_usage_error();
        assert!(
            run.stderr
                .ends_with("is not in a git work tree: there are no hooks or commits to look at\n"),
            "{}",
            run.describe()
        );
    }
}

#[test]
fn a_file_declaring_a_decision_counts_in_review() {
    let repo = decisions();
    repo.branch("feature");
    repo.write("src/free.py", "# @adr 0001\nv = 1\n");
    let sha = repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Free code");
    let (code, doc) = review(&repo, &["main..HEAD"]);
    assert_eq!(code, Some(0), "{doc:#}");
    let q = &doc["query"];
    assert_eq!(q["uncited"], json!(["ADR-0001"]), "{doc:#}");
    assert_eq!(q["decisions"][0]["paths"], json!(["src/free.py"]));
    assert_eq!(
        q["decisions"][0]["commits"],
        json!([commit(&repo, &sha, 1, "Free code", false)])
    );
    // Without the marker the same commit touches no decision.
    repo.write("src/free.py", "v = 2\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Drop the marker");
    let (_, doc) = review(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(doc["query"]["decisions"], json!([]), "{doc:#}");
}

/// Two records sharing an id (zebra's two ADR-0005s, one per folder): the section names the
/// record whose paths the range touched, not the first of that id.
#[test]
fn a_shared_id_names_the_record_that_governs_what_the_range_touched() {
    let repo = GitRepo::new();
    let record = |n: u32, title: &str, body: &str| {
        crate::fixture::adr(n, title, "Accepted", Some("2025-01-01"), body)
    };
    repo.write(
        "docs/decisions/devops/0005-docker-use-setpriv.md",
        &record(
            5,
            "Use setpriv in the entrypoint",
            "The `docker/entrypoint.sh` drops privileges.",
        ),
    )
    .write(
        "docs/decisions/testing/0005-test-architecture.md",
        &record(
            5,
            "Module-based test architecture",
            "Helpers stay in `tests/common/`.",
        ),
    )
    .write("docker/entrypoint.sh", "exec app\n")
    .write("tests/common/launch.rs", "fn launch() {}\n");
    repo.commit_at("2025-02-01T10:00:00Z", "Ana", "Setup");
    repo.write("tests/common/launch.rs", "fn launch() { start() }\n");
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Start the node in launch");
    let (code, doc) = review(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(code, Some(0), "{doc:#}");
    let d = &doc["query"]["decisions"][0];
    assert_eq!(d["id"], "ADR-0005", "{doc:#}");
    assert_eq!(d["title"], "Module-based test architecture");
    assert_eq!(
        d["records"],
        json!(["docs/decisions/testing/0005-test-architecture.md"])
    );
    let text = repo.run(&["review", "HEAD~1..HEAD"]).stdout();
    assert!(
        text.contains("- Record: `docs/decisions/testing/0005-test-architecture.md`\n"),
        "{text}"
    );
    assert!(!text.contains("setpriv.md"), "{text}");
}
