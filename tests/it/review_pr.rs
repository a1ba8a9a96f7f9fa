//! `review` for a pull request (docs/hooks.md, ADR-0008): the Markdown always fits one pull
//! request comment while `--json` stays complete, GitHub's synthetic merge (`refs/pull/N/merge`)
//! is set aside for the pull request's own commits, "1 commit touches", and what a title or
//! subject holds (HTML, bidirectional controls) can neither render nor reorder the text.

use crate::git::{FastImport, GitRepo};
use crate::hooks::decisions;

/// GitHub's limit for one comment.
const COMMENT: usize = 65_536;

#[test]
fn the_markdown_fits_one_comment_and_the_json_has_everything() {
    let repo = GitRepo::new();
    let (modules, commits): (u32, usize) = (150, 40);
    let mut fi = FastImport::new();
    let who = "Ana <ana@example.com>";
    // Each commit changes a number only: counted though it says nothing of the records.
    let mut files = vec![FastImport::file(
        ".context-graph.toml",
        "[hooks]\nskip_unechoed = false\n",
    )];
    for m in 0..modules {
        let title = format!(
            "Module {m} keeps <img src=x onerror=alert(1)> its \u{202e}txt.exe own {}",
            "long words ".repeat(10)
        );
        files.push(FastImport::file(
            &format!("docs/adr/{:04}-m.md", m + 1),
            &crate::fixture::adr(
                m + 1,
                &title,
                "Accepted",
                Some("2025-01-01"),
                &format!("The code in `src/m{m}/` is ours."),
            ),
        ));
        files.push(FastImport::file(&format!("src/m{m}/a.py"), "a = 0\n"));
    }
    let start = fi.commit(
        "refs/heads/main",
        who,
        1_735_725_600,
        "Start",
        None,
        None,
        &files,
    );
    let mut from = format!(":{start}");
    for c in 0..commits {
        let changes: Vec<String> = (0..modules)
            .map(|m| FastImport::file(&format!("src/m{m}/a.py"), &format!("a = {}\n", c + 1)))
            .collect();
        let mark = fi.commit(
            "refs/heads/feature",
            who,
            1_735_812_000 + c * 60,
            &format!("Change {c} <script>alert(1)</script> \u{2067}rtl\u{2069}"),
            Some(&from),
            None,
            &changes,
        );
        from = format!(":{mark}");
    }
    repo.fast_import(&fi.finish());
    repo.git(&["checkout", "-q", "feature"]);

    let run = repo.run(&["review", "main..feature"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    assert!(text.len() <= COMMENT, "{} bytes", text.len());
    assert!(text.contains("40 commits (`"), "{}", &text[..400]);
    assert!(
        text.contains("  - and 20 more\n"),
        "commit lists capped: {}",
        &text[..3000.min(text.len())]
    );
    assert!(
        text.contains("more: this comment holds what fits in one"),
        "decisions counted"
    );
    // Nothing renders as HTML, nothing reorders the line.
    for (at, _) in text.match_indices('<') {
        assert!(
            text[..at].ends_with('\\'),
            "a bare < at {at}: {}",
            &text[at..]
        );
    }
    assert!(text.contains("\\<img src=x onerror=alert(1)\\>"), "as text");
    assert!(text.contains("\\<script\\>"), "as text");
    for c in ['\u{202e}', '\u{2067}', '\u{2069}'] {
        assert!(!text.contains(c), "{c:?} escaped");
    }
    assert!(text.contains("\\u{202e}txt.exe"), "shown escaped");

    let run = repo.run(&["review", "main..feature", "--json"]);
    let doc = run.json();
    let q = &doc["query"];
    let decisions = q["decisions"].as_array().expect("decisions");
    assert_eq!(decisions.len(), modules as usize, "every decision");
    for d in decisions {
        assert_eq!(d["commits"].as_array().expect("commits").len(), commits);
    }
    // The JSON keeps the text as it is.
    assert!(decisions[0]["title"]
        .as_str()
        .expect("title")
        .contains("<img src=x onerror=alert(1)> its \u{202e}txt.exe"));
}

#[test]
fn one_commit_touches() {
    let repo = decisions();
    repo.branch("feature");
    repo.write("src/auth/login.py", "a = 1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Shorten");
    let run = repo.run(&["review", "main..HEAD"]);
    let text = run.stdout();
    assert!(
        text.contains("1 commit (`")
            && text.contains("`) touches paths governed by 1 current decision; 1 is not cited."),
        "{text}"
    );
    repo.write("src/free.py", "a = 1\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Free");
    let run = repo.run(&["review", "HEAD~1..HEAD"]);
    assert!(
        run.stdout()
            .contains("`): none touches a path that a current decision governs."),
        "{}",
        run.stdout()
    );
}

#[test]
fn githubs_synthetic_merge_is_set_aside_for_the_pull_requests_own_commits() {
    let repo = decisions();
    repo.branch("feature");
    repo.write("src/auth/login.py", "a = 1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Shorten");
    repo.write("src/auth/token.py", "t = 1\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Refresh");
    let pr_head = repo.head();
    repo.checkout("main");
    repo.write("README.md", "# Moved on\n");
    repo.commit_at("2025-03-03T10:00:00Z", "Bo", "Main moves");
    // As actions/checkout leaves a pull request's CI: GitHub's merge, detached.
    repo.git(&["checkout", "-q", "--detach", "main"]);
    repo.merge_no_ff(
        "feature",
        "2025-03-04T10:00:00Z",
        "GitHub",
        "Merge 1 into 2",
    );
    let merge = repo.head();
    repo.git(&["update-ref", "refs/remotes/pull/7/merge", &merge]);

    let run = repo.run(&["review", "main...HEAD", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let q = &run.json()["query"];
    assert_eq!(q["commits"], 2, "{q:#}");
    assert_eq!(q["head"], pr_head, "{q:#}");
    assert_eq!(q["pull_request"]["ref"], "refs/remotes/pull/7/merge");
    assert_eq!(q["pull_request"]["merge"], merge);
    let subjects: Vec<&str> = q["decisions"][0]["commits"]
        .as_array()
        .expect("commits")
        .iter()
        .map(|c| c["subject"].as_str().expect("subject"))
        .collect();
    assert_eq!(subjects, ["Refresh", "Shorten"]);
    let text = repo.run(&["review", "main...HEAD"]).stdout();
    let short = |s: &str| s[..7].to_string();
    assert!(
        text.contains(&format!(
            "Reviewed the pull request's head `{}`: `refs/remotes/pull/7/merge` is GitHub's merge of it into the base (`{}`), set aside.",
            short(&pr_head),
            short(&merge)
        )),
        "{text}"
    );
    assert!(text.contains("2 commits (`"), "{text}");
    // Without the ref, a merge is a merge like any other.
    repo.git(&["update-ref", "-d", "refs/remotes/pull/7/merge"]);
    let q = &repo.run(&["review", "main...HEAD", "--json"]).json()["query"];
    assert_eq!(q["commits"], 3, "{q:#}");
    assert_eq!(q["pull_request"], serde_json::Value::Null);
}
