//! `review` judges each commit as a reader would (docs/hooks.md): quiet commits (a bot's, a
//! release, whitespace, lock or generated files, a record that did not exist or was not current
//! at that commit) are listed with why and not counted; a commit editing the record cites it;
//! a decision's later commits on the same branch (one merge's commits, or one author's run) are
//! marked as repeats. Each `[hooks]` switch off counts them again.

use crate::fixture::adr;
use crate::git::GitRepo;
use crate::hooks::decisions;
use serde_json::{json, Value};

/// The commits of the range, by name.
struct Range {
    repo: GitRepo,
    shas: std::collections::HashMap<&'static str, String>,
}

impl Range {
    fn short(&self, name: &str) -> String {
        let sha = &self.shas[name];
        self.repo
            .git(&["rev-parse", "--short", sha])
            .trim()
            .to_string()
    }
}

fn new_record(status: &str) -> String {
    adr(
        5,
        "New module",
        status,
        Some("2025-03-01"),
        "The code in `src/new/` is new: the ledger module.",
    )
}

/// On `feature` from main, oldest first: two commits by Ana to `src/auth/` (ADR-0001), a bot's
/// and a release to `src/pay/` (ADR-0002), Bo's whitespace to `src/auth/`, then by Cy: a lock
/// file in `src/auth/`, `src/new/` before ADR-0005 existed, ADR-0005 proposed, `src/new/` while
/// it was proposed, ADR-0005 accepted with `src/new/`, and `src/new/` again.
fn range() -> Range {
    let repo = decisions();
    repo.write("src/auth/Cargo.lock", "version = 3\n");
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Lock");
    repo.branch("feature");
    let mut shas = std::collections::HashMap::new();
    let steps: [(&str, &str, &str, &str, &str); 11] = [
        (
            "ana1",
            "Ana",
            "src/auth/login.py",
            "def login(): return 1\n",
            "Shorten the login",
        ),
        (
            "ana2",
            "Ana",
            "src/auth/token.py",
            "def token(): return 1\n",
            "Refresh tokens",
        ),
        (
            "bot",
            "dependabot[bot]",
            "src/pay/charge.py",
            "def charge(): return gateway(1)\n",
            "Update",
        ),
        (
            "release",
            "Bo",
            "src/pay/charge.py",
            "def charge(): return gateway(2)\n",
            "release: v0.8.0",
        ),
        (
            "space",
            "Bo",
            "src/auth/login.py",
            "def login():  return 1\n",
            "Tidy",
        ),
        (
            "lock",
            "Cy",
            "src/auth/Cargo.lock",
            "version = 4\n",
            "Lock again",
        ),
        ("early", "Cy", "src/new/x.py", "x = 1\n", "Start the module"),
        (
            "propose",
            "Cy",
            "docs/adr/0005-new.md",
            &new_record("Proposed"),
            "Propose",
        ),
        (
            "proposed",
            "Cy",
            "src/new/x.py",
            "x = 2\n",
            "Grow the module",
        ),
        (
            "accept",
            "Cy",
            "docs/adr/0005-new.md",
            &new_record("Accepted"),
            "Accept",
        ),
        (
            "later",
            "Cy",
            "src/new/x.py",
            "ledger = 3\n",
            "More of the module",
        ),
    ];
    for (day, (name, author, rel, text, message)) in steps.iter().enumerate() {
        repo.write(rel, text);
        if *name == "accept" {
            repo.write("src/new/x.py", "x = 2.5\n");
        }
        let date = format!("2025-03-{:02}T10:00:00Z", day + 1);
        shas.insert(*name, repo.commit_at(&date, author, message));
    }
    Range { repo, shas }
}

/// `review main..HEAD --json`'s query, with the `[hooks]` keys `off` set false.
fn review(repo: &GitRepo, off: &[&str]) -> Value {
    match off {
        [] => {
            let _ = std::fs::remove_file(repo.path().join(".context-graph.toml"));
            repo
        }
        keys => {
            let lines: String = keys.iter().map(|k| format!("{k} = false\n")).collect();
            repo.write(".context-graph.toml", &format!("[hooks]\n{lines}"))
        }
    };
    let run = repo.run(&["review", "main..HEAD", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    run.json()["query"].clone()
}

fn decision<'a>(q: &'a Value, id: &str) -> Option<&'a Value> {
    q["decisions"].as_array()?.iter().find(|d| d["id"] == id)
}

/// The short shas of a decision's commits.
fn commits(q: &Value, id: &str) -> Vec<String> {
    decision(q, id)
        .map(|d| {
            d["commits"]
                .as_array()
                .expect("commits")
                .iter()
                .map(|c| c["sha"].as_str().expect("sha").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn quiet_commits_are_listed_with_why_and_not_counted() {
    let r = range();
    let q = review(&r.repo, &[]);
    let quiet: Vec<(String, String, String)> = q["quiet"]
        .as_array()
        .expect("quiet")
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().expect(k).to_string();
            (s("sha"), s("decision"), s("reason"))
        })
        .collect();
    let expect =
        |name: &str, id: &str, reason: &str| (r.short(name), id.to_string(), reason.to_string());
    for want in [
        expect("bot", "ADR-0002", "bot"),
        expect("release", "ADR-0002", "release"),
        expect("space", "ADR-0001", "whitespace"),
        expect("lock", "ADR-0001", "generated"),
        expect("early", "ADR-0005", "record-missing"),
        expect("proposed", "ADR-0005", "record-not-current"),
    ] {
        assert!(quiet.contains(&want), "{want:?} in {quiet:?}");
    }
    assert_eq!(quiet.len(), 6, "{quiet:?}");
    // ADR-0002 was touched only quietly: no decision, nothing uncited.
    assert!(decision(&q, "ADR-0002").is_none(), "{q:#}");
    assert_eq!(commits(&q, "ADR-0001"), [r.short("ana2"), r.short("ana1")]);
    assert_eq!(q["uncited"], json!(["ADR-0001"]));
    // Proposing the record cites it, and so does accepting it with code; the later commit
    // repeats it on Cy's run.
    let adr5 = decision(&q, "ADR-0005").expect("ADR-0005");
    assert_eq!(
        commits(&q, "ADR-0005"),
        [r.short("later"), r.short("accept")]
    );
    assert_eq!(adr5["cited"], true);
    assert_eq!(adr5["commits"][1]["cites_record"], true);
    assert_eq!(
        adr5["repeats"],
        json!([{"sha": r.short("later"), "first": r.short("propose")}])
    );
    assert_eq!(
        decision(&q, "ADR-0001").expect("ADR-0001")["repeats"],
        json!([{"sha": r.short("ana2"), "first": r.short("ana1")}])
    );
}

#[test]
fn the_markdown_counts_the_quiet_commits_and_marks_repeats() {
    let r = range();
    let run = r.repo.run(&["review", "main..HEAD"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let text = run.stdout();
    assert!(
        text.contains("6 commits touching a decision were not counted as a reader would not want them warned about: 1 made by a bot; 1 a release or version bump; 1 only lock, generated or vendored files of it change; 1 only whitespace of its files changes; 1 the record did not exist yet; 1 the record was not current then."),
        "{text}"
    );
    assert!(text.contains("## Quiet commits"), "{text}");
    assert!(
        text.lines().any(
            |l| l.starts_with(&format!("- `{}` dependabot", r.short("bot")))
                && l.ends_with(": Update (ADR-0002: made by a bot)")
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Refresh tokens (again on its branch, first named in `{}`)",
            r.short("ana1")
        )),
        "{text}"
    );
}

#[test]
fn each_switch_off_counts_its_commits_again() {
    let r = range();
    let has = |q: &Value, id: &str, name: &str| commits(q, id).contains(&r.short(name));
    let q = review(&r.repo, &["skip_bots"]);
    assert!(has(&q, "ADR-0002", "bot"), "{q:#}");
    let q = review(&r.repo, &["skip_releases"]);
    assert!(has(&q, "ADR-0002", "release"), "{q:#}");
    let q = review(&r.repo, &["skip_whitespace"]);
    assert!(has(&q, "ADR-0001", "space"), "{q:#}");
    // A lock file's lines say nothing of the record: the echo rule keeps it quiet too.
    let q = review(&r.repo, &["skip_generated"]);
    assert!(!has(&q, "ADR-0001", "lock"), "{q:#}");
    let q = review(&r.repo, &["skip_generated", "skip_unechoed"]);
    assert!(has(&q, "ADR-0001", "lock"), "{q:#}");
    let q = review(&r.repo, &["record_edit_cites"]);
    let adr5 = decision(&q, "ADR-0005").expect("ADR-0005");
    assert_eq!(adr5["cited"], false, "{q:#}");
    let q = review(&r.repo, &["once_per_branch"]);
    assert_eq!(
        decision(&q, "ADR-0001").expect("ADR-0001")["repeats"],
        json!([])
    );
}

#[test]
fn the_commits_one_merge_brought_in_are_one_branch_whoever_made_them() {
    let repo = decisions();
    let base = repo.head();
    repo.branch("feature");
    repo.write("src/auth/login.py", "def login(): return 1\n");
    let ana = repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Shorten the login");
    repo.write("src/auth/token.py", "def token(): return 1\n");
    let bo = repo.commit_at("2025-03-02T10:00:00Z", "Bo", "Refresh tokens");
    repo.checkout("main");
    repo.write("src/pay/charge.py", "def charge(): return 1\n");
    repo.commit_at("2025-03-03T10:00:00Z", "Cy", "Charge more");
    repo.merge_no_ff("feature", "2025-03-04T10:00:00Z", "Cy", "Merge feature");
    // Cy's next commit on the first-parent line is a branch of its own.
    repo.write("src/auth/login.py", "def login(): return 2\n");
    let cy = repo.commit_at("2025-03-05T10:00:00Z", "Cy", "Login again");
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let q = run.json()["query"].clone();
    let short = |sha: &str| repo.git(&["rev-parse", "--short", sha]).trim().to_string();
    let adr1 = decision(&q, "ADR-0001").expect("ADR-0001");
    assert_eq!(
        adr1["repeats"],
        json!([{"sha": short(&bo), "first": short(&ana)}]),
        "{q:#}"
    );
    assert!(commits(&q, "ADR-0001").contains(&short(&cy)), "{q:#}");
}

/// A rebase rewrites a branch's commits in one second: they share their committer date. The
/// branch's first commit is the oldest by ancestry, whatever order the walk lists them in.
#[test]
fn commits_made_in_one_second_repeat_the_oldest_by_ancestry() {
    let repo = decisions();
    let base = repo.head();
    repo.branch("feature");
    let mut shas = Vec::new();
    for (i, rel) in [
        "src/auth/login.py",
        "src/auth/token.py",
        "src/auth/login.py",
    ]
    .iter()
    .enumerate()
    {
        repo.write(rel, &format!("def f(): return {i}\n"));
        shas.push(repo.commit_at("2025-03-01T10:00:00Z", "Ana", &format!("Step {i}")));
    }
    let run = repo.run(&["review", &format!("{base}..HEAD"), "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let q = run.json()["query"].clone();
    let short = |sha: &str| repo.git(&["rev-parse", "--short", sha]).trim().to_string();
    let mut repeats: Vec<(String, String)> = decision(&q, "ADR-0001").expect("ADR-0001")["repeats"]
        .as_array()
        .expect("repeats")
        .iter()
        .map(|r| (r["sha"].to_string(), r["first"].to_string()))
        .collect();
    repeats.sort();
    let quoted = |i: usize| format!("\"{}\"", short(&shas[i]));
    let mut want = vec![(quoted(1), quoted(0)), (quoted(2), quoted(0))];
    want.sort();
    assert_eq!(repeats, want, "{q:#}");
}

/// A pull request squashed into one commit (its subject ends `(#N)`, as GitHub writes it) was a
/// branch of its own: the hook warned on it afresh, so `review` marks no repeat for it, though
/// the same author made the commit before. Without the numbers, the run is one branch.
#[test]
fn a_squashed_pull_request_is_a_branch_of_its_own() {
    for (first, second, repeats) in [
        ("Shorten the login (#12)", "Refresh tokens (#13)", 0),
        ("Shorten the login", "Refresh tokens", 1),
    ] {
        let repo = decisions();
        repo.branch("feature");
        repo.write("src/auth/login.py", "def login(): return 1\n");
        repo.commit_at("2025-02-03T10:00:00Z", "Ana", first);
        repo.write("src/auth/token.py", "def token(): return 1\n");
        repo.commit_at("2025-02-04T10:00:00Z", "Ana", second);
        let q = review(&repo, &[]);
        let adr1 = decision(&q, "ADR-0001").expect("ADR-0001");
        assert_eq!(
            adr1["commits"].as_array().expect("commits").len(),
            2,
            "{q:#}"
        );
        assert_eq!(
            adr1["repeats"].as_array().map_or(0, Vec::len),
            repeats,
            "{first} / {second}: {q:#}"
        );
    }
}
