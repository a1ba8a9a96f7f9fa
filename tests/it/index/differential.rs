//! The differential suite: a scripted history (commits citing and not, record edits in the work
//! tree, renames, branches, resets), where after every step each query's stdout and exit code with
//! the index equal those of `--no-index`, byte for byte.

use super::{
    assert_same, compare, write_auth_records, ADR1, ADR2, ADR3, PAST_RACY_WINDOW, QUERIES,
};
use crate::env::Run;
use crate::fixture::{adr, column, record};
use crate::git::GitRepo;
use serde_json::Value;

/// A scripted history, compared after every step.
struct Script {
    repo: GitRepo,
    steps: usize,
}

impl Script {
    /// Compares every query after the step `name`, each indexed run right before its
    /// `--no-index` twin, then the full check once more (warm). The order of the queries
    /// alternates between steps, so queries without `--git` sometimes refresh first.
    /// Returns the `--no-index` JSON of each query, in [`QUERIES`] order.
    fn step(&mut self, name: &str) -> Vec<Value> {
        self.steps += 1;
        let mut order: Vec<usize> = (0..QUERIES.len()).collect();
        if self.steps.is_multiple_of(2) {
            order.reverse();
        }
        let mut scanned: Vec<Option<Run>> = (0..QUERIES.len()).map(|_| None).collect();
        for &i in &order {
            scanned[i] = Some(assert_same(&self.repo, name, QUERIES[i]));
        }
        let warm = self.repo.run(QUERIES[0]);
        compare(
            &format!("{name} (warm)"),
            QUERIES[0],
            &warm,
            scanned[0].as_ref().expect("compared"),
        );
        assert!(
            self.repo.index_file().is_file(),
            "step `{name}`: the queries left no index at {}",
            self.repo.index_file().display()
        );
        scanned
            .into_iter()
            .map(|o| {
                let o = o.expect("compared");
                o.json()
            })
            .collect()
    }
}

#[test]
fn every_answer_with_the_index_equals_the_scan_after_every_step() {
    let repo = GitRepo::new();
    write_auth_records(&repo)
        .write("src/billing/invoice.rs", "fn invoice() {}\n")
        .write("src/other/util.rs", "fn util() {}\n")
        .write("README.md", "# Project\n");
    repo.commit_at(
        "2025-03-01T10:00:00Z",
        "Ana",
        "Add auth, billing and two decisions",
    );
    let mut s = Script { repo, steps: 0 };
    s.step("initial commit");

    // New commits, citing and not.
    s.repo
        .write("src/auth/token.rs", "fn token() { check() }\n");
    s.repo.commit_at(
        "2025-03-03T09:00:00Z",
        "Ben",
        "Add token check for ADR-0001",
    );
    s.repo.write("src/auth/login.rs", "fn login() { form() }\n");
    s.repo
        .commit_at("2025-03-04T09:00:00Z", "Cy", "Tweak login");
    s.repo.write("src/other/util.rs", "fn util() { 1 }\n");
    s.repo.commit_at(
        "2025-03-05T09:00:00Z",
        "Ana",
        "Utility\n\nKeeps to adr 2 and to ADR-0001.",
    );
    s.repo.git(&["tag", "v1"]);
    let docs = s.step("commits citing and not citing");
    let adr1 = record(&docs[3], "ADR-0001");
    assert_eq!(
        column(&adr1["commits"], "subject"),
        ["Utility", "Add token check for ADR-0001"],
        "the commits citing ADR-0001 (the suite would be vacuous without them): {adr1:#}"
    );

    // Old enough that the index serves the records from its cache from now on.
    std::thread::sleep(PAST_RACY_WINDOW);
    s.step("records older than the racy window (served from the cache)");

    // Record edits in the working tree, uncommitted.
    s.repo.write(
        ADR1,
        &adr(
            1,
            "Use tokens",
            "Accepted",
            Some("2025-03-02"),
            "Authentication lives in `src/auth/`, sessions in `src/auth/session.rs`.\n\n\
             Billing checks tokens too: `src/billing/`.",
        ),
    );
    s.step("a record edited in the working tree");

    // An edit that keeps the size, right after an index write (the same second).
    let before = std::fs::read(s.repo.path().join(ADR2)).expect("read ADR-0002");
    let wrote = s.repo.run(&["record", "ADR-0002", "--json"]);
    assert_eq!(wrote.code, Some(0), "{}", wrote.stderr);
    assert!(wrote.json()["records"][0]["status"] == "accepted");
    s.repo.write(
        ADR2,
        &adr(
            2,
            "Login form",
            "Proposed",
            None,
            "The form is `src/auth/login.rs`.",
        ),
    );
    let after = std::fs::read(s.repo.path().join(ADR2)).expect("read ADR-0002");
    assert_eq!(before.len(), after.len(), "the edit keeps the size");
    assert_ne!(before, after);
    let proposed = s.repo.run(&["record", "ADR-0002", "--json"]);
    assert_eq!(
        proposed.json()["records"][0]["status"],
        "proposed",
        "a same-size edit right after the index wrote the record is seen"
    );
    s.step("a same-size record edit within the second of the index write");

    // New and deleted records in the working tree.
    s.repo.write(
        ADR3,
        &adr(
            3,
            "Billing",
            "Accepted",
            Some("2025-03-06"),
            "Invoices are `src/billing/invoice.rs`; see ADR-0001.",
        ),
    );
    s.step("a new record in the working tree");
    s.repo.remove(ADR2);
    s.step("a record deleted in the working tree");
    s.repo.commit_at(
        "2025-03-06T09:00:00Z",
        "Ben",
        "Billing decision ADR-0003, drop ADR-0002",
    );
    s.step("the record changes committed");

    // Governed files come and go in the working tree.
    s.repo
        .write("src/auth/session.rs", "fn session() {}\n")
        .write("src/billing/refund.rs", "fn refund() {}\n");
    s.step("new governed files (a missing path appears)");
    s.repo.remove("src/billing/invoice.rs");
    s.step("a governed file deleted");
    std::fs::rename(
        s.repo.path().join("src/billing"),
        s.repo.path().join("src/billings"),
    )
    .expect("move src/billing");
    s.step("a governed folder moved");
    s.repo
        .commit_at("2025-03-07T09:00:00Z", "Cy", "Move billing");
    s.step("the moves committed");

    // History rewritten.
    s.repo.reset_hard("HEAD~1");
    s.step("git reset --hard HEAD~1");
    s.repo.write("src/billing/refund.rs", "fn refund() {}\n");
    s.repo
        .commit_at("2025-03-08T09:00:00Z", "Cy", "Refund flow");
    s.step("a new commit after the reset");
    s.repo
        .write("src/billing/refund.rs", "fn refund() { invoice() }\n");
    s.repo.git(&["add", "-A"]);
    s.repo.git_at(
        "2025-03-09T09:00:00Z",
        "Cy",
        &[
            "commit",
            "-q",
            "--amend",
            "--no-verify",
            "-m",
            "Refund flow for ADR-0003",
        ],
    );
    s.step("git commit --amend");

    // A topic branch from before the refund, rebased onto main.
    s.repo.git(&["branch", "topic", "HEAD~1"]);
    s.repo.checkout("topic");
    s.repo
        .write("src/auth/token.rs", "fn token() { expire() }\n");
    s.repo
        .commit_at("2025-03-10T09:00:00Z", "Ben", "Token expiry (ADR-0001)");
    s.step("a branch switch to a new topic branch");
    s.repo
        .git_at("2025-03-11T09:00:00Z", "Ben", &["rebase", "-q", "main"]);
    s.step("a rebase onto main");
    s.repo.checkout("main");
    s.step("back on main");

    // An older tag and back.
    s.repo.checkout("v1");
    s.step("checkout of an older tag");
    s.repo.checkout("main");
    s.step("back on main after the tag");

    // A merge.
    s.repo.branch("feature");
    s.repo
        .write("src/auth/login.rs", "fn login() { form(); token() }\n");
    s.repo
        .commit_at("2025-03-12T09:00:00Z", "Ana", "Login uses tokens");
    s.repo
        .write("src/auth/token.rs", "fn token() { expire(); log() }\n");
    s.repo
        .commit_at("2025-03-13T09:00:00Z", "Ana", "Log tokens, ADR-0001");
    s.repo.checkout("main");
    s.repo.write("src/other/util.rs", "fn util() { 2 }\n");
    s.repo
        .commit_at("2025-03-13T10:00:00Z", "Cy", "Utility two");
    s.repo.merge_no_ff(
        "feature",
        "2025-03-14T09:00:00Z",
        "Cy",
        "Merge branch 'feature' (ADR-0003)",
    );
    let docs = s.step("a merge with --no-ff");
    let adr1 = record(&docs[3], "ADR-0001");
    assert!(
        column(&adr1["commits"], "subject").contains(&"Log tokens, ADR-0001".to_string()),
        "{adr1:#}"
    );

    // Guides citing records.
    s.repo
        .write("README.md", "# Project\n\nSee ADR-0001 and ADR-0003.\n")
        .write(
            "docs/guide/onboarding.md",
            "# Onboarding\n\nRead ADR-0002 first.\n",
        );
    s.step("a guide README citing records (uncommitted)");
    s.repo.commit_at("2025-03-15T09:00:00Z", "Ana", "Guides");
    s.step("the guides committed");
    std::thread::sleep(PAST_RACY_WINDOW);
    s.step("guides older than the racy window (served from the cache)");
    s.repo
        .write("README.md", "# Project\n\nSee ADR-0003 only.\n");
    s.step("a cached guide edited in the working tree");

    // A record renamed with git mv, then more history after the rename.
    s.repo.mv(ADR1, "docs/adr/0001-tokens.md");
    s.step("a record renamed with git mv (staged)");
    s.repo
        .commit_at("2025-03-16T09:00:00Z", "Ben", "Rename the tokens record");
    s.step("the rename committed");
    s.repo
        .write("src/auth/token.rs", "fn token() { rotate() }\n");
    s.repo
        .commit_at("2025-03-17T09:00:00Z", "Ben", "Rotate tokens per ADR-0001");
    let docs = s.step("a commit after the rename");
    let adr1 = record(&docs[3], "ADR-0001");
    assert_eq!(adr1["path"], "docs/adr/0001-tokens.md");
    assert!(
        column(&adr1["commits"], "subject").contains(&"Rotate tokens per ADR-0001".to_string()),
        "{adr1:#}"
    );
}

/// The index reads a governed path's commits only from the record's date on; drift counts from
/// the first second of that day (UTC), so a commit at 00:00:00 counts and one a second before
/// does not, with the index as without it. A record without a date counts from its file's
/// first commit: its paths are read in full.
#[test]
fn the_index_reads_drift_from_the_first_second_of_the_records_date() {
    let repo = GitRepo::new();
    repo.write("src/auth/token.rs", "1\n")
        .write("src/billing/pay.rs", "1\n")
        .commit_at("2025-02-01T10:00:00Z", "Old", "Old code");
    super::write_tokens_record(&repo).commit_at("2025-02-15T10:00:00Z", "Ana", "Add ADR-0001");
    repo.write("src/auth/token.rs", "2\n").commit_at(
        "2025-03-01T23:59:59Z",
        "Eve",
        "The second before",
    );
    repo.write("src/auth/token.rs", "3\n")
        .commit_at("2025-03-02T00:00:00Z", "Ana", "At midnight");
    repo.write("src/billing/pay.rs", "2\n").commit_at(
        "2025-03-02T10:00:00Z",
        "Ben",
        "Billing before its record",
    );
    repo.write(
        ADR3,
        &adr(3, "Billing", "Accepted", None, "In `src/billing/`."),
    )
    .commit_at("2025-03-03T08:00:00Z", "Ana", "Add ADR-0003");
    repo.write("src/auth/token.rs", "4\n")
        .write("src/billing/pay.rs", "3\n")
        .commit_at("2025-03-04T12:00:00Z", "Bob", "Later");
    let auth = ["why", super::GOVERNED, "--git", "--json"];
    let billing = ["why", "src/billing/pay.rs", "--git", "--json"];
    repo.run(&auth);
    std::thread::sleep(PAST_RACY_WINDOW);
    let subjects =
        |docs: &Value, id: &str| column(&record(docs, id)["drift"]["commits"], "subject");
    let docs = assert_same(&repo, "a dated record", &auth).json();
    assert_eq!(subjects(&docs, "ADR-0001"), ["Later", "At midnight"]);
    let docs = assert_same(&repo, "a record without a date", &billing).json();
    assert_eq!(subjects(&docs, "ADR-0003"), ["Later"]);
}
