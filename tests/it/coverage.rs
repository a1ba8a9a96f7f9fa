//! `coverage [--since DATE | --last N]` (docs/mentions.md, ADR-0017): the share of a window's
//! non-merge commits that change governed code, the hottest ungoverned folders with the
//! records mentioning them, the decisions changed most without a citation; the same answer
//! from the index and from `--no-index`; bad arguments exit 2.

use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::{json, Value};

/// Three records: ADR-0001 governs `src/auth/` (from 2025-01-01), ADR-0002 `src/pay/` (from
/// 2025-06-01) and mentions `InvoiceMailer` (`lib/billing/invoice_mailer.rb`), ADR-0003 is
/// superseded and names `src/legacy/`. Then, by hand:
///
/// | commit | date | changes | counted | governed |
/// |---|---|---|---|---|
/// | c0 | 2024-06-15 | everything | only by `--last` | yes (ADR-0001, before its date) |
/// | c1 | 2024-10-01 | `src/legacy/` | yes | no: its decision is superseded |
/// | c2 | 2025-02-01 | `src/auth/` | yes | ADR-0001, uncited |
/// | c3 | 2025-03-01 | `src/auth/` | yes | ADR-0001, cites it |
/// | c4 | 2025-04-01 | `lib/billing/` twice | yes | no |
/// | c5 | 2025-05-01 | `src/pay/` | yes | ADR-0002, before its date |
/// | c6 | 2025-07-01 | `src/pay/`, `lib/billing/` | yes | ADR-0002, uncited |
/// | c7 | 2025-08-01 | a record only | no | |
/// | c8 | 2025-08-15 | `tools/` (on a branch) | yes | no |
/// | merge | 2025-09-01 | | no (a merge) | |
///
/// HEAD is the merge (2025-09-01), so the default window starts on 2024-09-01: 7 commits
/// counted, 4 governed.
fn history() -> GitRepo {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-tokens.md",
        &adr(
            1,
            "Tokens expire after an hour",
            "Accepted",
            Some("2025-01-01"),
            "The code in `src/auth/` keeps tokens short-lived.",
        ),
    )
    .write(
        "docs/adr/0002-payments.md",
        &adr(
            2,
            "Payments go through one gateway",
            "Accepted",
            Some("2025-06-01"),
            "Supersedes ADR-0003.\n\nEverything in `src/pay/` calls the gateway. The InvoiceMailer sends receipts.",
        ),
    )
    .write(
        "docs/adr/0003-old-payments.md",
        &adr(
            3,
            "Payments by invoice",
            "Superseded by ADR-0002",
            Some("2024-06-01"),
            "The code in `src/legacy/` sends invoices.",
        ),
    )
    .write("src/auth/login.py", "v = 0\n")
    .write("src/pay/charge.py", "v = 0\n")
    .write("src/legacy/invoice.py", "v = 0\n")
    .write("lib/billing/invoice_mailer.rb", "class InvoiceMailer; end\n")
    .write("lib/billing/tax.rb", "v = 0\n")
    .write("tools/gen.sh", "echo 0\n");
    g.commit_at("2024-06-15T10:00:00Z", "Ann", "Initial");
    let step = |date: &str, message: &str, files: &[&str]| {
        for (i, f) in files.iter().enumerate() {
            g.write(f, &format!("v = {date} {i}\n"));
        }
        g.commit_at(date, "Ann", message);
    };
    step(
        "2024-10-01T10:00:00Z",
        "Touch legacy",
        &["src/legacy/invoice.py"],
    );
    step(
        "2025-02-01T10:00:00Z",
        "Shorten the login",
        &["src/auth/login.py"],
    );
    step(
        "2025-03-01T10:00:00Z",
        "Refresh tokens (ADR-0001)",
        &["src/auth/token.py"],
    );
    step(
        "2025-04-01T10:00:00Z",
        "Mail receipts",
        &["lib/billing/invoice_mailer.rb", "lib/billing/tax.rb"],
    );
    step("2025-05-01T10:00:00Z", "Charge", &["src/pay/charge.py"]);
    step(
        "2025-07-01T10:00:00Z",
        "Charge tax",
        &["src/pay/charge.py", "lib/billing/tax.rb"],
    );
    g.write(
        "docs/adr/0001-tokens.md",
        &adr(
            1,
            "Tokens expire after an hour",
            "Accepted",
            Some("2025-01-01"),
            "The code in `src/auth/` keeps tokens short-lived, and says why.",
        ),
    );
    g.commit_at("2025-08-01T10:00:00Z", "Ann", "Explain ADR-0001");
    g.branch("feature");
    step("2025-08-15T10:00:00Z", "Generate", &["tools/gen.sh"]);
    g.checkout("main");
    g.merge_no_ff("feature", "2025-09-01T10:00:00Z", "Ann", "Merge feature");
    g
}

fn coverage(g: &GitRepo, args: &[&str]) -> Value {
    let mut all = vec!["coverage"];
    all.extend(args);
    all.push("--json");
    let run = g.run(&all);
    run.assert_code(0);
    run.json()
}

#[test]
fn the_default_window_is_the_year_before_heads_commit_and_counts_by_hand() {
    let g = history();
    let doc = coverage(&g, &[]);
    let c = &doc["query"]["coverage"];
    assert_eq!(
        c["window"],
        json!({"from": "default", "since": "2024-09-01", "until": "2025-09-01", "last": null})
    );
    // c1, c2, c3, c4, c5, c6, c8: not c0 (before the window), c7 (a record only), the merge.
    assert_eq!(c["commits"], 7, "{c:#}");
    assert_eq!(c["governed_commits"], 4, "{c:#}");
    assert_eq!(c["share"], json!(0.5714));
}

#[test]
fn the_hottest_ungoverned_folders_name_the_records_that_mention_them() {
    let g = history();
    let c = coverage(&g, &[])["query"]["coverage"].clone();
    let rows: Vec<(String, u64, Value)> = c["ungoverned"]
        .as_array()
        .expect("ungoverned")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or("").to_string(),
                f["commits"].as_u64().unwrap_or(0),
                f["mentioned_by"].clone(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("lib/billing/".to_string(), 2, json!(["ADR-0002"])),
            // A superseded decision's code is ungoverned.
            ("src/legacy/".to_string(), 1, json!([])),
            ("tools/".to_string(), 1, json!([])),
        ]
    );
    assert_eq!(
        c["ungoverned"][0]["mentions"][0]["path"],
        "lib/billing/invoice_mailer.rb"
    );
    // The fix is printed, one `scope --add` away (docs/mentions.md shows this answer).
    let md = g.run(&["coverage"]);
    md.assert_code(0);
    assert_eq!(md.stdout(), MARKDOWN);
}

/// `coverage` on [`history`], as docs/mentions.md shows it.
const MARKDOWN: &str = "# Coverage

The 12 months before HEAD's commit (2024-09-01 to 2025-09-01): 7 commits counted (non-merge, changing a file outside the record folders).

**4 of 7 (57.1%)** change code a current decision governs.

## Hottest ungoverned folders

| Folder | Commits | Mentioned by |
|---|---|---|
| `lib/billing/` | 2 | ADR-0002 |
| `src/legacy/` | 1 | — |
| `tools/` | 1 | — |

To make the record that mentions a folder govern it:

```sh
context-graph scope ADR-0002 --add lib/billing/invoice_mailer.rb
```

## Decisions changed most without being cited

| Decision | Title | Since | Commits | Not citing it |
|---|---|---|---|---|
| ADR-0001 | Tokens expire after an hour | 2025-01-01 | 2 | 1 |
| ADR-0002 | Payments go through one gateway | 2025-06-01 | 1 | 1 |

";

#[test]
fn the_readme_shows_this_answer() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/mentions.md"))
        .expect("docs/mentions.md");
    let shown = format!(
        "````text\n{}````\n",
        MARKDOWN.trim_end_matches('\n').to_string() + "\n"
    );
    assert!(
        readme.contains(&shown),
        "the coverage example of docs/mentions.md is not the answer"
    );
}

#[test]
fn the_decisions_changed_most_without_citation_count_from_their_date() {
    let g = history();
    let doc = coverage(&g, &[]);
    let c = &doc["query"]["coverage"];
    // ADR-0001: c2 (uncited) and c3 (cites it). ADR-0002: c6 only (c5 is before its date).
    // ADR-0003 is superseded: not a current decision, never listed.
    assert_eq!(
        c["uncited"],
        json!([
            {"id": "ADR-0001", "commits": 2, "not_citing": 1, "since": "2025-01-01"},
            {"id": "ADR-0002", "commits": 1, "not_citing": 1, "since": "2025-06-01"},
        ])
    );
    // The records the answer names, in full.
    let ids: Vec<&str> = doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["ADR-0001", "ADR-0002"]);
    let text = g.run(&["coverage"]).stdout();
    assert!(
        text.contains("| ADR-0001 | Tokens expire after an hour | 2025-01-01 | 2 | 1 |"),
        "{text}"
    );
}

#[test]
fn since_and_last_choose_the_window() {
    let g = history();
    let c = coverage(&g, &["--since", "2025-03-01"])["query"]["coverage"].clone();
    // c3, c4, c5, c6, c8; governed c3, c5, c6.
    assert_eq!(
        (&c["window"]["from"], &c["window"]["since"]),
        (&json!("since"), &json!("2025-03-01"))
    );
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(5), &json!(3))
    );
    assert_eq!(c["share"], json!(0.6));

    // The last two counted: c8 and c6 (c7 changed a record only; the merge is not counted).
    let c = coverage(&g, &["--last", "2"])["query"]["coverage"].clone();
    assert_eq!(
        c["window"],
        json!({"from": "last", "since": "2025-07-01", "until": "2025-09-01", "last": 2})
    );
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(2), &json!(1))
    );
    assert_eq!(c["share"], json!(0.5));

    // More than there are: every commit, c0 too (governed, but before ADR-0001's date).
    let c = coverage(&g, &["--last", "100"])["query"]["coverage"].clone();
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(8), &json!(5))
    );
    assert_eq!(c["window"]["since"], "2024-06-15");
    assert_eq!(c["uncited"][0]["commits"], 2);
}

#[test]
fn merges_are_not_counted() {
    let g = history();
    // Only the merge and c8 since 2025-08-02: c8 counts, the merge does not.
    let c = coverage(&g, &["--since", "2025-08-02"])["query"]["coverage"].clone();
    assert_eq!(c["commits"], 1, "{c:#}");
    assert_eq!(c["ungoverned"][0]["path"], "tools/");
}

#[test]
fn the_index_and_a_scan_give_the_same_bytes() {
    let g = history();
    for args in [
        vec!["coverage", "--json"],
        vec!["coverage", "--json", "--since", "2025-03-01"],
        vec!["coverage", "--json", "--last", "3"],
    ] {
        let cold = g.run(&args);
        cold.assert_code(0);
        let warm = g.run(&args);
        let mut scan_args = args.clone();
        scan_args.push("--no-index");
        let scan = g.run(&scan_args);
        scan.assert_code(0);
        assert_eq!(cold.stdout(), scan.stdout(), "{args:?} cold");
        assert_eq!(warm.stdout(), scan.stdout(), "{args:?} warm");
        cold.json();
    }
    // A new commit, kept beside the index (pending), counts as a stored one does.
    g.write("src/auth/login.py", "v = 9\n");
    g.commit_at("2025-09-02T10:00:00Z", "Ann", "Lengthen the login");
    let indexed = g.run(&["coverage", "--json"]);
    let scanned = g.run(&["coverage", "--json", "--no-index"]);
    assert_eq!(indexed.stdout(), scanned.stdout());
    let c = indexed.json()["query"]["coverage"].clone();
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(8), &json!(5))
    );
}

#[test]
fn bad_arguments_exit_2_naming_them() {
    let g = history();
    for (args, names) in [
        (vec!["coverage", "--since", "2025-13-01"], "--since"),
        (vec!["coverage", "--since", "yesterday"], "--since"),
        (vec!["coverage", "--last", "0"], "--last"),
        (vec!["coverage", "--last", "many"], "--last"),
        (
            vec!["coverage", "--last", "2", "--since", "2025-01-01"],
            "--since",
        ),
    ] {
        let run = g.run(&args);
        run.assert_code(2);
        assert!(run.stderr.contains(names), "{}", run.describe());
        assert!(run.stdout.is_empty(), "{}", run.describe());
    }
}

#[test]
fn no_commits_no_records_and_no_git() {
    // Records, but no commit yet: nothing to count, exit 0.
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-tokens.md",
        &adr(1, "Tokens", "Accepted", None, "In `src/auth/`."),
    );
    let c = coverage(&g, &[]);
    let q = &c["query"]["coverage"];
    assert_eq!(
        (&q["commits"], &q["governed_commits"], &q["share"]),
        (&json!(0), &json!(0), &Value::Null)
    );
    assert_eq!(q["window"]["until"], Value::Null);
    assert_eq!(q["ungoverned"], json!([]));
    assert_eq!(
        g.run(&["coverage", "--no-index", "--json"]).stdout(),
        g.run(&["coverage", "--json"]).stdout()
    );
    assert!(g
        .run(&["coverage"])
        .stdout()
        .contains("No commit to count."));

    // Commits but no records: exit 2, as every question.
    let g = GitRepo::new();
    g.write("src/a.py", "v = 1\n");
    g.commit_at("2025-01-01T10:00:00Z", "Ann", "Code");
    g.run(&["coverage"]).assert_usage_error();

    // Outside git: there is no history to count.
    let g = GitRepo::empty_folder();
    g.write(
        "docs/adr/0001-tokens.md",
        &adr(1, "Tokens", "Accepted", None, "In `src/auth/`."),
    );
    let run = g.run(&["coverage"]);
    run.assert_usage_error();
    assert!(
        run.stderr.contains("not in a git work tree"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_file_declaring_a_decision_by_a_marker_is_governed() {
    let g = history();
    g.write("tools/gen.sh", "#!/bin/sh\n# @adr 0001\necho 1\n");
    g.commit_at("2025-09-02T10:00:00Z", "Ann", "Declare the generator");
    let c = coverage(&g, &["--since", "2025-08-02"])["query"]["coverage"].clone();
    // c8 and the new commit both change `tools/gen.sh`, which declares ADR-0001.
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(2), &json!(2))
    );
    assert_eq!(c["ungoverned"], json!([]));
    let scanned = g.run(&["coverage", "--since", "2025-08-02", "--json", "--no-index"]);
    let indexed = g.run(&["coverage", "--since", "2025-08-02", "--json"]);
    assert_eq!(indexed.stdout(), scanned.stdout());
}

#[test]
fn with_root_below_the_top_only_its_files_count() {
    let g = GitRepo::new();
    g.write(
        "svc/docs/adr/0001-tokens.md",
        &adr(1, "Tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write("svc/src/auth/login.py", "v = 0\n")
    .write("svc/src/free.py", "v = 0\n")
    .write("other/x.py", "v = 0\n");
    g.commit_at("2025-01-01T10:00:00Z", "Ann", "Initial");
    g.write("svc/src/auth/login.py", "v = 1\n");
    g.commit_at("2025-02-01T10:00:00Z", "Ann", "Login");
    g.write("svc/src/free.py", "v = 1\n");
    g.commit_at("2025-03-01T10:00:00Z", "Ann", "Free");
    g.write("other/x.py", "v = 1\n");
    g.commit_at("2025-04-01T10:00:00Z", "Ann", "Elsewhere");
    let root = g.path().join("svc").display().to_string();
    let args = [
        "coverage",
        "--since",
        "2025-02-01",
        "--json",
        "--root",
        &root,
    ];
    let indexed = g.run(&args);
    indexed.assert_code(0);
    let mut scan_args = args.to_vec();
    scan_args.push("--no-index");
    assert_eq!(indexed.stdout(), g.run(&scan_args).stdout());
    let c = indexed.json()["query"]["coverage"].clone();
    // "Login" and "Free"; "Elsewhere" changes nothing under the root.
    assert_eq!(
        (&c["commits"], &c["governed_commits"]),
        (&json!(2), &json!(1))
    );
    assert_eq!(c["ungoverned"][0]["path"], "src/");
}
