//! The redb index (docs/indexing.md, ADR-0006) through the binary, a file per subject:
//! - `differential`: a scripted history where after every step each query's stdout and exit code
//!   with the index equal those of `--no-index`, byte for byte;
//! - `memo`: the racy-file rule, and the stored scan memo answering only while what it read holds;
//! - `status`: `index --status --json`;
//! - `no_index`: `--no-index` and repository-less folders leave no index behind;
//! - `migration`: a version-1 index fixture taken through the migration path, and a shallow clone
//!   deepened;
//! - `pending`: a few new commits kept beside the index until written in;
//! - `history_memo`: what the stored commits gave the last answer, read back after a commit;
//! - `durable`: a first build beside and renamed, the seal after the sync, damage under a
//!   matching seal;
//! - `freshness`: what a warm answer checks to know nothing changed, and what waits for git's
//!   index (ADR-0016);
//! - `warm_folders`: a warm answer lists no folder of the work tree it does not need (issue 41);
//! - `repo_open`: HEAD, the git dir and git's index read without gix's open, and every shape of
//!   HEAD read as git reads it (issue 41).
//!
//! Here: what several of them share (the comparison with `--no-index`, the queries it is made on,
//! the records they write).

mod differential;
mod durable;
mod freshness;
mod history_memo;
mod memo;
pub(crate) mod migration;
mod no_index;
mod pending;
mod repo_open;
mod since;
mod status;
mod warm_folders;

use crate::env::{no_index, Run};
use crate::fixture::adr;
use crate::git::GitRepo;
use std::time::Duration;

/// A record file changed this close to the index's write is parsed again (ADR-0006); waiting a
/// bit longer makes the index trust, and serve, what it cached.
const PAST_RACY_WINDOW: Duration = Duration::from_millis(2_100);

/// Asserts that `query` answers the same with the index as with `--no-index` (stdout byte for
/// byte, exit code), and that the indexed run really used the index (nothing on stderr: no
/// "answered from a scan", no rebuild). Returns the `--no-index` run.
fn assert_same(repo: &GitRepo, step: &str, query: &[&str]) -> Run {
    let indexed = repo.run(query);
    let scanned = repo.run(&no_index(query));
    compare(step, query, &indexed, &scanned);
    scanned
}

fn compare(step: &str, query: &[&str], indexed: &Run, scanned: &Run) {
    let what = format!("step `{step}`, query `{}`", query.join(" "));
    assert!(
        indexed.stderr_but_absent_paths().is_empty(),
        "{what}: the indexed run said something on stderr (it should have used a healthy index):\n{}",
        indexed.stderr
    );
    assert_eq!(
        indexed.stderr, scanned.stderr,
        "{what}: a path asked about is said alike both ways"
    );
    assert!(
        matches!(scanned.code, Some(0 | 1)),
        "{what}: --no-index failed with exit {:?}:\n{}",
        scanned.code,
        scanned.stderr
    );
    if indexed.stdout != scanned.stdout || indexed.code != scanned.code {
        panic!(
            "{what}: the index answered differently from --no-index\n\
             exit codes: indexed {:?} vs --no-index {:?}\n\
             --- indexed stdout ---\n{}\n--- --no-index stdout ---\n{}\n--- indexed stderr ---\n{}",
            indexed.code,
            scanned.code,
            indexed.stdout(),
            scanned.stdout(),
            indexed.stderr
        );
    }
}

const GOVERNED: &str = "src/auth/token.rs";
const UNGOVERNED: &str = "src/other/util.rs";

/// The queries compared after every step.
const QUERIES: &[&[&str]] = &[
    &["check", "--git", "--json"],
    &["why", GOVERNED, "--git", "--json"],
    &["why", UNGOVERNED, "--json"],
    &["record", "ADR-0001", "--git", "--json"],
    &["check", "--json"],
];

const ADR1: &str = "docs/adr/0001-use-tokens.md";
const ADR2: &str = "docs/adr/0002-login-form.md";
const ADR3: &str = "docs/adr/0003-billing.md";

/// ADR-0001 (tokens, dated 2025-03-02) governing `src/auth/`, ADR-0002 (the login form)
/// governing `src/auth/login.rs`, and the two files under `src/auth/`.
fn write_auth_records(repo: &GitRepo) -> &GitRepo {
    repo.write(ADR1, &tokens_adr("Authentication lives in `src/auth/`."))
        .write(
            ADR2,
            &adr(
                2,
                "Login form",
                "Accepted",
                None,
                "The form is `src/auth/login.rs`.",
            ),
        )
        .write("src/auth/login.rs", "fn login() {}\n")
        .write("src/auth/token.rs", "fn token() {}\n")
}

/// ADR-0001, accepted, dated 2025-03-02, governing `src/auth/`.
fn write_tokens_record(repo: &GitRepo) -> &GitRepo {
    repo.write(ADR1, &tokens_adr("In `src/auth/`."))
}

/// ADR-0001's text: "Use tokens", accepted, dated 2025-03-02, with `body`.
fn tokens_adr(body: &str) -> String {
    adr(1, "Use tokens", "Accepted", Some("2025-03-02"), body)
}
