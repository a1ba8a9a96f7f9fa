//! What the reader sees (issue 10): `why` gives its answer first, with each decision's problems
//! under it and one line counting its warnings with the command that lists them; the drift
//! authors are the top few with "and N more". `--json` keeps everything, as before.

use crate::fixture::{copy_fixture, empty_root, finding_list, findings_of, record, Fixture};
use crate::git::GitRepo;
use serde_json::json;

/// A decision's section of `why`'s Markdown: from its `## ID` heading to the next heading.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in:\n{text}"));
    let rest = &text[start + heading.len()..];
    let end = rest.find("\n#").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

fn markdown(f: &Fixture, args: &[&str]) -> String {
    let run = f.run_md(args);
    run.assert_code(0);
    assert!(
        !run.stdout.contains(&0x1b),
        "colour off a TTY: {}",
        run.describe()
    );
    run.stdout()
}

/// The command a "N warnings: `context-graph record ID`" line names, as arguments.
fn warnings_command(text: &str, count: &str) -> Vec<String> {
    let line = text
        .lines()
        .find(|l| l.contains(count))
        .unwrap_or_else(|| panic!("no line counting {count:?} in:\n{text}"));
    let command = line
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {line:?}"));
    let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    assert_eq!(words[0], "context-graph", "{line}");
    words[1..].to_vec()
}

#[test]
fn why_shows_each_decisions_problems_under_it_and_counts_its_warnings() {
    let f = copy_fixture("reading/output-why");
    let text = markdown(&f, &["why", "src/auth/login.py"]);

    // The answer, then under each decision only its problems and a count of its warnings.
    let token = section(&text, "## ADR-0002: Token login (accepted)");
    assert!(token.contains("- Governs: `src/auth/`"), "{text}");
    assert!(
        token.contains("`governed-path-gone`") && token.contains("src/sso/handler.py"),
        "ADR-0002's problem sits under it:\n{text}"
    );
    assert!(
        token.contains("- 3 warnings: `context-graph record ADR-0002`"),
        "ADR-0002's warnings are counted under it:\n{text}"
    );
    let logging = section(&text, "## ADR-0005: Login logging (accepted)");
    assert!(
        !logging.contains("warning") && !logging.contains("Problem"),
        "a decision with no findings has no finding lines:\n{text}"
    );
    let history = section(&text, "## History");
    let old = history
        .split_once("- ADR-0001: Cookie sessions")
        .unwrap_or_else(|| panic!("no ADR-0001 in the history:\n{text}"))
        .1;
    assert!(
        old.contains("\n  - **Problem** `superseded-by-unknown`")
            && old.contains("\n  - 1 warning: `context-graph record ADR-0001`"),
        "a superseded decision's problem and warning count are nested under it:\n{text}"
    );

    // No warning is printed in full, and there are no trailing sections of every finding.
    for noise in [
        "unknown-reference",
        "cites-superseded",
        "ADR-0080",
        "ADR-0070",
        "## Problems",
        "## Warnings",
    ] {
        assert!(!text.contains(noise), "{noise:?} in `why`:\n{text}");
    }
    // The answer comes first: each problem appears after the decision it is about.
    assert!(text.find("governed-path-gone") > text.find("## ADR-0002"));
    assert!(text.find("superseded-by-unknown") > text.find("- ADR-0001"));

    // The command on the line lists the warnings it counted.
    for (count, id, expected) in [("3 warnings", "ADR-0002", 3), ("1 warning:", "ADR-0001", 1)] {
        let args = warnings_command(&text, count);
        assert_eq!(args, ["record", id]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let j = f.run_json(&args).json();
        let warnings = finding_list(&j)
            .iter()
            .filter(|w| w["severity"] == "warning")
            .count();
        assert_eq!(warnings, expected, "{j:#}");
        let listed = markdown(&f, &args);
        assert_eq!(
            listed_count(&listed, "unknown-reference") + listed_count(&listed, "cites-superseded"),
            expected,
            "`record {id}` lists the warnings `why` counted:\n{listed}"
        );
    }

    // The JSON is the same document as before: every finding about the matched records.
    let j = f.run_json(&["why", "src/auth/login.py"]).json();
    assert_eq!(
        j["query"],
        json!({"why": "src/auth/login.py", "decisions": [
            {"id": "ADR-0002", "status": "accepted", "current": true, "matches": ["src/auth/"]},
            {"id": "ADR-0005", "status": "accepted", "current": true, "matches": ["src/auth/login.py"]},
            {"id": "ADR-0001", "status": "superseded", "current": false, "matches": ["src/auth/"]},
        ], "mentioned_by": [], "related": []})
    );
    assert_eq!(finding_list(&j).len(), 6, "{j:#}");
    assert_eq!(findings_of(&j, "unknown-reference", "ADR-0002").len(), 2);
    assert_eq!(findings_of(&j, "cites-superseded", "ADR-0002").len(), 1);
    assert_eq!(findings_of(&j, "governed-path-gone", "ADR-0002").len(), 1);
    assert_eq!(
        findings_of(&j, "superseded-by-unknown", "ADR-0001").len(),
        1
    );
    assert_eq!(findings_of(&j, "unknown-reference", "ADR-0001").len(), 1);
}

#[test]
fn why_shows_each_of_two_records_sharing_an_id_with_its_problems_once() {
    let f = empty_root();
    f.write("src/pay/charge.py", b"def charge():\n    pass\n");
    f.write(
        "docs/adr/0002-card-payments.md",
        b"# 2. Card payments\n\nStatus: Accepted\n\nCharges live in `src/pay/`.\n",
    );
    f.write(
        "docs/adr/0002-retry-charges.md",
        b"# 2. Retry charges\n\nStatus: Accepted\n\n`src/pay/charge.py` retries twice.\n",
    );
    let text = markdown(&f, &["why", "src/pay/charge.py"]);
    let cards = section(&text, "## ADR-0002: Card payments (accepted)");
    assert!(
        cards.contains("- Record: `docs/adr/0002-card-payments.md`")
            && cards.contains("- Governs: `src/pay/`"),
        "{text}"
    );
    let retries = section(&text, "## ADR-0002: Retry charges (accepted)");
    assert!(
        retries.contains("- Record: `docs/adr/0002-retry-charges.md`")
            && retries.contains("- Governs: `src/pay/charge.py`"),
        "each decision shows its own record:\n{text}"
    );
    assert_eq!(
        text.matches("`duplicate-id`").count(),
        1,
        "the id's problem is shown once:\n{text}"
    );
}

/// ADR-0001 (2025-03-02) governs `src/auth/`; after it, six authors change that folder: Ana 4,
/// Ben 3, Cy 2, then Dee, Eve and Fay once each (ties by name).
fn busy_folder() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-tokens.md",
        "# 1. Use tokens\n\nStatus: Accepted\n\nDate: 2025-03-02\n\nThe code is in `src/auth/`.\n",
    )
    .write("src/auth/login.rs", "fn login() {}\n");
    repo.commit_at(
        "2025-03-01T10:00:00Z",
        "Old Hand",
        "Add auth and its decision",
    );
    let authors = [
        "Fay", "Ana", "Ben", "Eve", "Ana", "Cy", "Ben", "Dee", "Ana", "Cy", "Ben", "Ana",
    ];
    for (day, who) in authors.iter().enumerate() {
        repo.write(
            "src/auth/login.rs",
            &format!("fn login() {{ step({day}) }}\n"),
        );
        let date = format!("2025-04-{:02}T09:00:00Z", day + 1);
        repo.commit_at(&date, who, &format!("Change login, step {day}"));
    }
    repo
}

/// The same decision, then three authors: Ana 2, Ben 1, Cy 1.
fn few_authors() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-tokens.md",
        "# 1. Use tokens\n\nStatus: Accepted\n\nDate: 2025-03-02\n\nThe code is in `src/auth/`.\n",
    )
    .write("src/auth/login.rs", "fn login() {}\n");
    repo.commit_at(
        "2025-03-01T10:00:00Z",
        "Old Hand",
        "Add auth and its decision",
    );
    for (day, who) in ["Ana", "Ben", "Cy", "Ana"].iter().enumerate() {
        repo.write(
            "src/auth/login.rs",
            &format!("fn login() {{ step({day}) }}\n"),
        );
        let date = format!("2025-04-{:02}T09:00:00Z", day + 1);
        repo.commit_at(&date, who, &format!("Change login, step {day}"));
    }
    repo
}

const TOP_THREE: &str = "Ana 4, Ben 3, Cy 2 and 3 more";

#[test]
fn drift_names_the_top_authors_and_counts_the_rest() {
    let repo = busy_folder();
    let md = |args: &[&str]| {
        let run = repo.run(args);
        run.assert_code(0);
        assert!(!run.stdout.contains(&0x1b), "{}", run.describe());
        run.stdout()
    };
    let quiet = |text: &str, what: &str| {
        for name in ["Dee", "Eve", "Fay"] {
            assert!(!text.contains(name), "{name} named in {what}:\n{text}");
        }
    };

    // `why`: the "Changed since" line.
    let why = md(&["why", "src/auth/login.rs", "--git"]);
    let line = why
        .lines()
        .find(|l| l.contains("Changed since"))
        .unwrap_or_else(|| panic!("no Changed since line:\n{why}"));
    assert!(line.ends_with(&format!("(by {TOP_THREE}).")), "{line}");
    quiet(&why, "`why`");

    // `record`: its drift heading (the commit list below it names each commit's author).
    let rec = md(&["record", "ADR-0001", "--git"]);
    let heading = rec
        .lines()
        .find(|l| l.starts_with("## Changed since"))
        .unwrap_or_else(|| panic!("no drift heading:\n{rec}"));
    assert!(heading.contains(&format!("(by {TOP_THREE})")), "{heading}");
    quiet(heading, "`record`'s drift heading");

    // The full check: the drift table's "By" column.
    let check = md(&["--git"]);
    let row = check
        .lines()
        .find(|l| l.starts_with("| ADR-0001 | Use tokens | 2025-03-02 |"))
        .unwrap_or_else(|| panic!("no drift row:\n{check}"));
    assert!(row.contains(&format!("| {TOP_THREE} |")), "{row}");
    quiet(&check, "the full check");

    // `--json` keeps every author.
    let out = repo.run(&["why", "src/auth/login.rs", "--git", "--json"]);
    let doc = out.json();
    assert_eq!(
        record(&doc, "ADR-0001")["drift"]["authors"],
        json!([
            {"name": "Ana", "commits": 4},
            {"name": "Ben", "commits": 3},
            {"name": "Cy", "commits": 2},
            {"name": "Dee", "commits": 1},
            {"name": "Eve", "commits": 1},
            {"name": "Fay", "commits": 1},
        ])
    );

    // Three authors or fewer are all named, with no "more".
    let few = few_authors();
    let run = few.run(&["why", "src/auth/login.rs", "--git"]);
    run.assert_code(0);
    let text = run.stdout();
    assert!(
        text.contains("(by Ana 2, Ben 1, Cy 1).") && !text.contains("more"),
        "{text}"
    );
}

/// How many findings of `code` a Markdown report lists: one for a line of its own, N for the
/// grouped line `- `code`: N …` (ADR-0012).
fn listed_count(report: &str, code: &str) -> usize {
    let grouped = format!("- `{code}`: ");
    match report
        .lines()
        .find_map(|l| l.strip_prefix(grouped.as_str()))
    {
        Some(rest) => rest
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0),
        None => report.matches(&format!("`{code}`")).count(),
    }
}
