//! The redb index (CONTRACT.md §4, ADR-0006) through the binary: a differential suite over a
//! scripted history, where after every step each query's stdout and exit code with the index
//! equal those of `--no-index`, byte for byte; `index --status --json`; `--no-index` and
//! repositories-less folders leave no index behind; the racy-file rule; and a version-1 index
//! fixture taken through the migration path.

use crate::env::{no_index, Run};
use crate::fixture::{adr, column, fixture_dir, record};
use crate::git::GitRepo;
use redb::{ReadableDatabase, ReadableTable, TableHandle};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::{codec, schema};
use context_graph::model::Record;

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
        indexed.stderr.is_empty(),
        "{what}: the indexed run said something on stderr (it should have used a healthy index):\n{}",
        indexed.stderr
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

// ----- the differential suite -----

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

// ----- the racy-file rule -----

/// A file's fingerprint as the index takes it (size, mtime, ctime, inode).
fn fingerprint_of(path: &Path) -> schema::Fingerprint {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).expect("stat the record");
    schema::Fingerprint {
        len: m.len(),
        mtime_ns: m.mtime() * 1_000_000_000 + m.mtime_nsec(),
        ctime_ns: m.ctime() * 1_000_000_000 + m.ctime_nsec(),
        ino: m.ino(),
    }
}

/// Rewrites the cached entry of `rel` so that its fingerprint is the file's current one and it
/// was stored `stored_after` after the file's last change: what a file system with coarse
/// timestamps shows after a same-size edit made right after the index read the file.
fn doctor_cached_record(repo: &GitRepo, rel: &str, stored_after: Duration) {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_write().expect("write");
    {
        let mut records = txn.open_table(schema::RECORDS).expect("records table");
        let bytes = records
            .get(rel)
            .expect("read records")
            .unwrap_or_else(|| panic!("{rel} is cached"))
            .value()
            .to_vec();
        let mut cached: schema::CachedRecord = codec::decode(&bytes).expect("decode");
        let fp = fingerprint_of(&repo.path().join(rel));
        cached.stamp = schema::Stamp { fp, digest: None };
        cached.stored_ns = fp.mtime_ns.max(fp.ctime_ns) + stored_after.as_nanos() as i64;
        records
            .insert(rel, codec::encode(&cached).as_slice())
            .expect("write the entry");
    }
    txn.commit().expect("commit");
}

/// On a file system whose timestamps are coarser than the time between the index's read and a
/// same-size edit, the file's fingerprint does not change. The index must not trust a file
/// changed that close to when it stored it (the racy-file rule).
#[test]
fn a_same_size_edit_that_leaves_the_fingerprint_alone_is_not_answered_stale() {
    let repo = GitRepo::new();
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write("src/auth/token.rs", "fn token() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Add auth");
    let query: &[&str] = &["record", "ADR-0001", "--json"];
    let first = repo.run(query);
    assert_eq!(first.json()["records"][0]["status"], "accepted");
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Proposed", None, "In `src/auth/`."),
    );
    let truth = repo.run(&no_index(query));
    assert_eq!(truth.json()["records"][0]["status"], "proposed");

    // The control: a collision stored long after the change is trusted, which shows the
    // doctored fingerprint is the one the index compares.
    doctor_cached_record(&repo, ADR1, Duration::from_secs(10));
    let trusted = repo.run(query);
    assert_eq!(
        trusted.json()["records"][0]["status"],
        "accepted",
        "the doctored entry should collide with the file (else this test proves nothing)"
    );

    // Stored half a second after the change: within the clock's resolution, so parsed again.
    doctor_cached_record(&repo, ADR1, Duration::from_millis(500));
    let racy = repo.run(query);
    compare("racy same-size edit", query, &racy, &truth);
}

/// ADR-0001, accepted, dated 2025-03-02, governing `src/auth/`.
fn write_tokens_record(repo: &GitRepo) -> &GitRepo {
    repo.write(ADR1, &tokens_adr("In `src/auth/`."))
}

/// ADR-0001's text: "Use tokens", accepted, dated 2025-03-02, with `body`.
fn tokens_adr(body: &str) -> String {
    adr(1, "Use tokens", "Accepted", Some("2025-03-02"), body)
}

// ----- index --status -----

/// The top-level keys of a JSON object, in the order printed.
fn printed_keys(out: &Run) -> Vec<String> {
    let doc = out.json();
    let text = out.stdout();
    let mut keys: Vec<(usize, String)> = doc
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| {
            let at = text
                .find(&format!("\n  \"{k}\":"))
                .unwrap_or_else(|| panic!("{k} at the top level of {text}"));
            (at, k.clone())
        })
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| k).collect()
}

const STATUS_KEYS: &[&str] = &[
    "path",
    "schema_version",
    "head",
    "indexed_head",
    "fresh",
    "records",
    "commits",
    "paths",
];

#[test]
fn status_reports_its_keys_and_freshness_without_updating() {
    let repo = GitRepo::new();
    write_tokens_record(&repo)
        .write(
            ADR2,
            &adr(2, "Login", "Accepted", None, "In `src/auth/login.rs`."),
        )
        .write("src/auth/login.rs", "1\n")
        .write("src/other/util.rs", "1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let written = Instant::now();
    repo.write("src/auth/login.rs", "2\n");
    let second = repo.commit_at("2025-03-02T10:00:00Z", "Ben", "Login for ADR-0001");

    // Before any query: no file, and status does not make one.
    let out = repo.run(&["index", "--status", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(printed_keys(&out), STATUS_KEYS, "{}", out.stdout());
    let before = out.json();
    assert_eq!(before["fresh"], false);
    assert_eq!(before["indexed_head"], Value::Null);
    assert_eq!(before["head"], second.as_str());
    assert!(
        !repo.index_file().exists(),
        "index --status created the index"
    );

    // Records are trusted only once older than the racy window.
    std::thread::sleep(PAST_RACY_WINDOW.saturating_sub(written.elapsed()));
    let q = repo.run(&["why", "src/auth/login.rs", "--git", "--json"]);
    assert_eq!(q.code, Some(0), "{}", q.stderr);
    let out = repo.run(&["index", "--status", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(printed_keys(&out), STATUS_KEYS, "{}", out.stdout());
    let s = out.json();
    assert_eq!(s["fresh"], true, "fresh after a --git query: {s:#}");
    assert_eq!(s["schema_version"], schema::SCHEMA_VERSION);
    assert_eq!(s["head"], second.as_str());
    assert_eq!(s["indexed_head"], second.as_str());
    assert_eq!(s["records"], 2);
    assert_eq!(s["commits"], 2);
    // The two records, src/auth/login.rs and src/other/util.rs.
    assert_eq!(s["paths"], 4, "{s:#}");
    let path = PathBuf::from(s["path"].as_str().expect("path is a string"));
    assert_eq!(
        path.canonicalize().expect("the index exists"),
        repo.index_file().canonicalize().unwrap()
    );

    // A new commit: stale, and status (twice) does not update it.
    repo.write("src/other/util.rs", "2\n");
    let third = repo.commit_at("2025-03-03T10:00:00Z", "Cy", "Utility");
    for round in 0..2 {
        let s = repo.index_status();
        assert_eq!(s["fresh"], false, "round {round}: {s:#}");
        assert_eq!(s["head"], third.as_str(), "round {round}");
        assert_eq!(s["indexed_head"], second.as_str(), "round {round}");
        assert_eq!(s["commits"], 2, "round {round}");
    }
    let q = repo.run(&["why", "src/auth/login.rs", "--git", "--json"]);
    assert_eq!(q.code, Some(0), "{}", q.stderr);
    let s = repo.index_status();
    assert_eq!(
        s["fresh"], true,
        "a --git query brings it up to date: {s:#}"
    );
    assert_eq!(s["indexed_head"], third.as_str());
    assert_eq!(s["commits"], 3);
}

// ----- no index where there should be none -----

#[test]
fn no_index_neither_reads_nor_writes_the_index() {
    let repo = GitRepo::new();
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write(GOVERNED, "1\n")
    .write(UNGOVERNED, "1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start for ADR-0001");
    let made = repo.run(&["check", "--git", "--json"]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert!(repo.index_file().is_file(), "a query made the index");

    std::fs::remove_file(repo.index_file()).expect("delete the index");
    for q in QUERIES {
        let out = repo.run(&no_index(q));
        assert_eq!(out.code, Some(0), "{q:?}: {}", out.stderr);
        assert!(out.stderr.is_empty(), "{q:?}: {}", out.stderr);
        assert!(
            !repo.index_file().exists(),
            "{q:?} --no-index created {}",
            repo.index_file().display()
        );
    }

    // Nor the folder.
    std::fs::remove_dir_all(repo.path().join(".git/context-graph")).expect("delete the folder");
    for q in QUERIES {
        repo.run(&no_index(q));
    }
    assert!(!repo.path().join(".git/context-graph").exists());
}

/// Every file or folder under `dir` whose name is `index.redb` or `context-graph`.
fn index_traces(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("list a folder").flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if name == "index.redb" || name == "context-graph" {
                out.push(path.clone());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(path);
            }
        }
    }
    out
}

#[test]
fn outside_a_git_repository_no_index_is_made() {
    let dir = GitRepo::empty_folder();
    dir.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write(GOVERNED, "1\n")
    .write(UNGOVERNED, "1\n");
    let top = dir
        .path()
        .parent()
        .expect("the temporary folder")
        .to_path_buf();
    for q in QUERIES {
        let indexed = dir.run(q);
        let scanned = dir.run(&no_index(q));
        assert_eq!(indexed.code, Some(0), "{q:?}: {}", indexed.stderr);
        assert_eq!(indexed.stdout, scanned.stdout, "{q:?}");
    }
    let out = dir.run(&["index"]);
    assert_ne!(
        out.code,
        Some(0),
        "`index` outside git has nothing to index"
    );
    let traces = index_traces(&top);
    assert!(traces.is_empty(), "an index outside git: {traces:?}");
}

// ----- the version-1 fixture -----

/// The version-1 index fixture (fixtures/index/v1/README.md).
fn v1_dir() -> PathBuf {
    fixture_dir("index/v1")
}

/// The small repository the version-1 fixture was made from (fixtures/index/v1/README.md):
/// pinned dates, names and configuration, so its shas are the same everywhere.
fn v1_repo() -> GitRepo {
    let repo = GitRepo::new();
    write_auth_records(&repo).write("src/other/util.rs", "fn util() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Add auth and two decisions");
    repo.write("src/auth/token.rs", "fn token() { check() }\n");
    repo.commit_at(
        "2025-03-03T09:00:00Z",
        "Ben",
        "Add token check for ADR-0001",
    );
    repo.branch("feature");
    repo.write("src/auth/login.rs", "fn login() { form() }\n");
    repo.commit_at(
        "2025-03-04T09:00:00Z",
        "Cy",
        "Tweak login\n\nKeeps to ADR-0002 and adr 1.",
    );
    repo.checkout("main");
    repo.write("src/other/util.rs", "fn util() { 1 }\n");
    repo.commit_at("2025-03-05T09:00:00Z", "Ana", "Utility");
    repo.merge_no_ff(
        "feature",
        "2025-03-06T09:00:00Z",
        "Cy",
        "Merge branch 'feature' (ADR-0001)",
    );
    repo.mv(ADR2, "docs/adr/0002-login.md");
    repo.commit_at("2025-03-07T09:00:00Z", "Ben", "Rename the login record");
    repo
}

fn expected_v1_head() -> String {
    std::fs::read_to_string(v1_dir().join("head.txt"))
        .expect("fixtures/index/v1/head.txt")
        .trim()
        .to_string()
}

/// The tables in an index file, and its recorded schema version.
fn tables_and_version(path: &Path) -> (Vec<String>, u32) {
    let db = redb::Database::create(path).expect("open the index");
    let txn = db.begin_read().expect("read");
    let tables = txn
        .list_tables()
        .expect("list tables")
        .map(|t| t.name().to_string())
        .collect();
    let meta = txn.open_table(schema::META).expect("meta");
    let version = meta
        .get(schema::KEY_VERSION)
        .expect("read the version")
        .map(|v| {
            let b = v.value();
            u32::from_le_bytes(b[..4].try_into().expect("four bytes"))
        })
        .expect("a version");
    (tables, version)
}

#[test]
fn a_version_1_index_is_migrated_and_answers_like_a_scan() {
    let repo = v1_repo();
    assert_eq!(
        repo.head(),
        expected_v1_head(),
        "the scripted repository is not the one the fixture was made from"
    );
    let commits: usize = repo
        .git(&["rev-list", "--count", "--all"])
        .trim()
        .parse()
        .expect("a count");
    let target = repo.index_file();
    std::fs::create_dir_all(target.parent().unwrap()).expect("make .git/context-graph");
    std::fs::copy(v1_dir().join("index.redb"), &target).expect("copy the fixture");

    let (tables, version) = tables_and_version(&target);
    assert_eq!(version, 1, "the fixture is a version-1 file");
    assert!(
        !tables.iter().any(|t| t == schema::MENTIONS.name()),
        "a version-1 file has no mentions table: {tables:?}"
    );

    // Status only looks.
    for round in 0..2 {
        let s = repo.index_status();
        assert_eq!(s["schema_version"], 1, "round {round}: {s:#}");
        assert_eq!(s["commits"], commits, "round {round}: {s:#}");
        assert_eq!(s["indexed_head"], expected_v1_head().as_str());
        assert_eq!(s["fresh"], false, "an old schema is not fresh: {s:#}");
    }
    assert_eq!(tables_and_version(&target).1, 1, "status migrated the file");

    // A query with --git migrates, and answers like a scan (the commits citing a record come
    // from the mentions the migration filled in).
    let query: &[&str] = &["record", "ADR-0001", "--git", "--json"];
    let migrated = repo.run(query);
    assert!(
        !migrated.stderr.contains("scan")
            && !migrated.stderr.contains("rebuilt")
            && !migrated.stderr.contains("damaged"),
        "the version-1 file was not migrated but dropped or bypassed:\n{}",
        migrated.stderr
    );
    let scanned = repo.run(&no_index(query));
    assert_eq!(
        migrated.stdout(),
        scanned.stdout(),
        "the migrated index answers like a scan"
    );
    assert_eq!(migrated.code, scanned.code);
    let adr1 = record(&scanned.json(), "ADR-0001").clone();
    assert_eq!(
        column(&adr1["commits"], "subject"),
        [
            "Merge branch 'feature' (ADR-0001)",
            "Tweak login",
            "Add token check for ADR-0001"
        ],
        "{adr1:#}"
    );

    let s = repo.index_status();
    assert_eq!(s["schema_version"], schema::SCHEMA_VERSION, "{s:#}");
    assert_eq!(
        s["commits"], commits,
        "the migration kept the commits: {s:#}"
    );
    let (tables, version) = tables_and_version(&target);
    assert_eq!(version, schema::SCHEMA_VERSION);
    assert!(tables.iter().any(|t| t == schema::MENTIONS.name()));

    for q in QUERIES {
        assert_same(&repo, "after the migration", q);
    }
    assert_same(
        &repo,
        "after the migration",
        &["record", "ADR-0002", "--git", "--json"],
    );
}

/// Remakes the version-1 fixture's current-version source (fixtures/index/v1/README.md):
/// `cargo test --test it -- --ignored --exact index::make_the_v1_fixture_source`, then
/// `cargo run --example make_v1_index -- fixtures/index/v1/index.redb`.
#[test]
#[ignore = "writes fixtures/index/v1: run by hand to remake the fixture"]
fn make_the_v1_fixture_source() {
    let repo = v1_repo();
    let out = repo.run(&["index"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        tables_and_version(&repo.index_file()).1,
        schema::SCHEMA_VERSION
    );
    std::fs::create_dir_all(v1_dir()).expect("make the fixture folder");
    std::fs::copy(repo.index_file(), v1_dir().join("index.redb")).expect("copy");
    std::fs::write(v1_dir().join("head.txt"), format!("{}\n", repo.head()))
        .expect("write head.txt");
}

/// A shallow clone's boundary commits are diffed against nothing; when `git fetch --deepen`
/// moves the boundary, the index must not keep what it indexed for them (ADR-0006).
#[test]
fn deepening_a_shallow_clone_is_answered_like_a_scan() {
    let origin = GitRepo::new();
    origin
        .write(
            "docs/adr/0001-auth.md",
            &adr(
                1,
                "Auth",
                "Accepted",
                Some("2025-01-01"),
                "We keep `src/auth/`.",
            ),
        )
        .write("src/auth/a.rs", "0\n");
    origin.commit_at("2025-01-02T10:00:00Z", "Ana", "Start");
    for i in 1..=6 {
        origin.write("src/auth/a.rs", &format!("{i}\n"));
        let message = if i % 2 == 0 {
            format!("Change {i} for ADR-0001")
        } else {
            format!("Change {i}")
        };
        origin.commit_at(&format!("2025-01-{:02}T10:00:00Z", i + 2), "Ben", &message);
    }
    let clone = origin.shallow_clone(2);
    let queries: [&[&str]; 2] = [
        &["check", "--git", "--json"],
        &["why", "src/auth/a.rs", "--git", "--json"],
    ];
    for q in queries {
        assert_same(&clone, "shallow", q);
    }
    let before = clone.run(&["record", "ADR-0001", "--git", "--json"]);
    clone.git(&["fetch", "-q", "--deepen", "3"]);
    for q in queries {
        assert_same(&clone, "deepened", q);
    }
    let after = assert_same(
        &clone,
        "deepened",
        &["record", "ADR-0001", "--git", "--json"],
    );
    assert_ne!(
        before.stdout, after.stdout,
        "deepening brings older commits into the drift"
    );
    clone.git(&["fetch", "-q", "--unshallow"]);
    for q in queries {
        assert_same(&clone, "unshallowed", q);
    }
}

/// Migrating keeps the history: `index` on the version-1 fixture adds no commit (a dropped or
/// misread history would be walked again).
#[test]
fn migrating_a_version_1_index_walks_nothing_again() {
    let repo = v1_repo();
    assert_eq!(repo.head(), expected_v1_head());
    let target = repo.index_file();
    std::fs::create_dir_all(target.parent().unwrap()).expect("make .git/context-graph");
    std::fs::copy(v1_dir().join("index.redb"), &target).expect("copy the fixture");
    let out = repo.run(&["index", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let summary: Value = serde_json::from_slice(&out.stdout).expect("index --json is JSON");
    assert_eq!(summary["commits_added"], 0, "{summary:#}");
    assert_eq!(
        tables_and_version(&target).1,
        schema::SCHEMA_VERSION,
        "index migrated the file"
    );
    assert_same(&repo, "migrated", &["check", "--git", "--json"]);
}

// ----- the scan memo -----

/// Marks the index's stored scan (ADR-0006) so that serving it shows: every record's title
/// becomes `PLANTED`, and the memo and the guide walk are made to look stored long after the
/// files last changed (so the racy-file rule does not set them aside). Only a query that
/// serves the memo can print `PLANTED`: no file says it.
fn plant_in_memo(repo: &GitRepo) {
    doctor_memo(repo, Some("PLANTED"));
}

/// Moves the stored scan memo's time a minute on, so every file it saw is settled and the memo
/// answers now (no wait past the racy window); with `title`, every record in it takes that
/// title too (so an answer shows whether the memo served it).
fn doctor_memo(repo: &GitRepo, title: Option<&str>) {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_write().expect("write");
    {
        let mut meta = txn.open_table(schema::META).expect("meta table");
        let get = |meta: &redb::Table<&str, &[u8]>, key: &str| -> Vec<u8> {
            meta.get(key)
                .expect("read meta")
                .unwrap_or_else(|| panic!("the index holds {key}"))
                .value()
                .to_vec()
        };
        let later = |ns: i64| ns + 60_000_000_000;
        let mut memo: schema::ScanMemo =
            codec::decode(&get(&meta, schema::KEY_SCAN_MEMO)).expect("decode the memo");
        memo.deps.started_ns = later(memo.deps.started_ns);
        memo.deps.walk.started_ns = later(memo.deps.walk.started_ns);
        let mut report: schema::MemoReport =
            codec::decode(&get(&meta, schema::KEY_SCAN_MEMO_REPORT)).expect("decode its report");
        for bytes in report.records.iter_mut().filter(|_| title.is_some()) {
            let mut r: Record = codec::decode(bytes).expect("a record");
            r.title = title.unwrap_or_default().into();
            *bytes = codec::encode(&r);
        }
        let mut walk: schema::WalkCache =
            codec::decode(&get(&meta, schema::KEY_GUIDE_WALK)).expect("decode the guide walk");
        walk.walk.started_ns = later(walk.walk.started_ns);
        for (key, value) in [
            (schema::KEY_SCAN_MEMO, codec::encode(&memo)),
            (schema::KEY_SCAN_MEMO_REPORT, codec::encode(&report)),
            (schema::KEY_GUIDE_WALK, codec::encode(&walk)),
        ] {
            meta.insert(key, value.as_slice()).expect("write meta");
        }
    }
    txn.commit().expect("commit");
}

/// The memo answers every question as the scan does: it picks records by their stored heads
/// and decodes only those, so each kind of question is asked (the full check, `why` above,
/// at and below governed entries and where nothing governs, `record` by id, number and in
/// error) while the memo holds, then again with a mark planted to show it served them.
#[test]
fn the_scan_memo_answers_every_question_as_the_scan_does() {
    let repo = GitRepo::new();
    write_auth_records(&repo)
        .write(
            ADR3,
            &adr(
                3,
                "Billing",
                "Superseded by ADR-0004",
                None,
                "In `src/billing/`.",
            ),
        )
        .write(
            "docs/adr/0004-billing-v2.md",
            &adr(
                4,
                "Billing v2",
                "Accepted",
                None,
                "Supersedes ADR-0003. In `src/billing/` and `src/auth/`.",
            ),
        )
        .write(
            "rfcs/0004-other.md",
            &adr(4, "Other four", "Proposed", None, "Cites ADR-0009."),
        )
        .write("src/billing/pay.rs", "fn pay() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let questions: Vec<Vec<&str>> = vec![
        vec!["check", "--json"],
        vec!["why", "src/auth", "--json"],
        vec!["why", "src/auth/login.rs", "--git", "--json"],
        vec!["why", "src", "--json"],
        vec!["why", "src/billing/pay.rs", "--json"],
        vec!["why", "README.md", "--json"],
        vec!["record", "ADR-0001", "--json"],
        vec!["record", "adr-2", "--git", "--json"],
        vec!["record", "3", "--json"],
    ];
    // Refused the same way: two records numbered 4, and no ADR-0099.
    let refusals: [&[&str]; 2] = [
        &["record", "4", "--json"],
        &["record", "ADR-0099", "--json"],
    ];
    let stored = repo.run(&["check", "--json"]);
    assert!(stored.stderr.is_empty(), "{}", stored.stderr);
    doctor_memo(&repo, None);
    for q in &questions {
        assert_same(&repo, "memo held", q);
    }
    for q in refusals {
        let (indexed, scanned) = (repo.run(q), repo.run(&no_index(q)));
        assert_eq!(indexed.code, Some(2), "{q:?}: {}", indexed.stderr);
        assert!(!indexed.stderr.is_empty());
        assert_eq!(
            (indexed.code, indexed.stdout, indexed.stderr),
            (scanned.code, scanned.stdout, scanned.stderr),
            "{q:?}"
        );
    }
    doctor_memo(&repo, Some("PLANTED"));
    for q in questions.iter().filter(|q| q[1] != "README.md") {
        let planted = repo.run(q);
        let titles = titles(&planted);
        assert!(
            !titles.is_empty() && titles.iter().all(|t| t == "PLANTED"),
            "{q:?}: the memo should have answered: {titles:?}"
        );
    }
}

fn titles(out: &Run) -> Vec<String> {
    out.json()["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["title"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The scan memo answers only while everything the scan depended on holds. Each step stores a
/// fresh memo (a query), plants a mark in it and shows the mark is served (so the memo really
/// answers), then changes one thing the scan depended on, and the next answer must be the
/// scan's again, byte for byte.
#[test]
fn the_scan_memo_answers_only_while_what_it_read_is_unchanged() {
    let repo = GitRepo::new();
    repo.write(
        ADR1,
        &adr(
            1,
            "Use tokens",
            "Accepted",
            None,
            "In `src/auth/`, `src/gone/`, `src/legacy.rs` and `gen/api/`.",
        ),
    )
    .write(
        "docs/adr/archive/0005-archived.md",
        &adr(5, "Archived", "Deprecated", None, "Old."),
    )
    .write(".gitignore", "gen/\n")
    .write("gen/README", "generated\n")
    .write(
        ADR2,
        &adr(2, "Login form", "Accepted", None, "See ADR-0001."),
    )
    .write("src/auth/token.rs", "fn token() {}\n")
    .write("docs/guide/intro.md", "Read ADR-0001 first.\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    // With --git the memo's answer gets its history while the memo is checked: it must be
    // dropped, and the scan's answer get its own, when the memo does not hold.
    let queries: [&[&str]; 3] = [
        &["check", "--json"],
        &["check", "--git", "--json"],
        &["record", "ADR-0001", "--git", "--json"],
    ];

    // Each step writes files (path, contents); `None` removes the file and its emptied folder.
    type Step<'a> = (&'a str, Vec<(&'a str, Option<String>)>);
    let steps: Vec<Step> = vec![
        // The guide walk skips ignored folders: only asking again sees this one.
        (
            "a missing folder appears in an ignored folder",
            vec![("gen/api/client.rs", Some("\n".into()))],
        ),
        (
            "a missing folder appears",
            vec![("src/gone/mod.rs", Some("\n".into()))],
        ),
        (
            "a close name appears beside a missing file",
            vec![("src/legacy_v2.rs", Some("\n".into()))],
        ),
        (
            "a governed folder goes away",
            vec![("src/auth/token.rs", None)],
        ),
        // Only the subfolder's own times change: the guide walk skips record folders.
        (
            "a new record file in a record subfolder",
            vec![(
                "docs/adr/archive/0006-also-archived.md",
                Some(adr(6, "Also archived", "Deprecated", None, "Older.")),
            )],
        ),
        (
            "a new record file",
            vec![(
                ADR3,
                Some(adr(3, "Billing", "Proposed", None, "Replaces ADR-0001.")),
            )],
        ),
        (
            "a guide is edited",
            vec![(
                "docs/guide/intro.md",
                Some("Read ADR-0002 first, now.\n".into()),
            )],
        ),
        (
            "a new guide",
            vec![("docs/guide/more/deep.md", Some("And ADR-0003.\n".into()))],
        ),
        (
            "a record is edited",
            vec![(
                ADR2,
                Some(adr(2, "Login form", "Deprecated", None, "Gone.")),
            )],
        ),
    ];
    for (step, change) in steps {
        let stored = repo.run(queries[0]);
        assert!(stored.stderr.is_empty(), "{step}: {}", stored.stderr);
        plant_in_memo(&repo);
        for query in queries {
            let planted = repo.run(query);
            let titles = titles(&planted);
            assert!(
                !titles.is_empty() && titles.iter().all(|t| t == "PLANTED"),
                "{step}, {query:?}: the memo should answer before the change (else this proves nothing): {titles:?}",
            );
        }
        // Each query below starts from this planted index, so each meets the stale memo.
        let planted_index = std::fs::read(repo.index_file()).expect("read the index");
        for (path, contents) in change {
            match contents {
                Some(text) => {
                    repo.write(path, &text);
                }
                None => {
                    repo.remove(path);
                    let folder = repo.path().join(path);
                    std::fs::remove_dir(folder.parent().expect("a folder")).expect("remove it");
                }
            }
        }
        // Equal to the scan, so no mark left.
        for query in queries {
            std::fs::write(repo.index_file(), &planted_index).expect("restore the index");
            assert_same(&repo, step, query);
        }
    }
}

// ----- pending commits -----

/// The HEAD stored in the index file itself (not counting pending commits).
fn stored_head(repo: &GitRepo) -> String {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_read().expect("read");
    let meta = txn.open_table(schema::META).expect("meta table");
    let head = meta
        .get(schema::KEY_HEAD)
        .expect("read meta")
        .expect("a head is stored")
        .value()
        .to_vec();
    head.iter().map(|b| format!("{b:02x}")).collect()
}

fn pending_file(repo: &GitRepo) -> PathBuf {
    repo.index_file().with_extension("pending")
}

/// A commit or two on top of the indexed HEAD are kept in a small file beside the index (no
/// redb write), answered from as much as stored ones; more than 32, a reset or `index` write
/// them into the file. Every answer equals the scan's.
#[test]
fn a_few_new_commits_are_kept_pending_until_many_or_index() {
    let repo = GitRepo::new();
    write_tokens_record(&repo).write("src/auth/token.rs", "fn token() {}\n");
    let first = repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let query: &[&str] = &["why", "src/auth", "--git", "--json"];
    assert_same(&repo, "first build", query);
    // Past the racy window, so the record is cached for good and status can call it fresh.
    std::thread::sleep(PAST_RACY_WINDOW);
    assert_same(&repo, "settled", query);
    assert_eq!(stored_head(&repo), first);
    assert!(!pending_file(&repo).exists());

    // One commit: pending, answered, reported fresh; the stored HEAD has not moved.
    repo.write("src/auth/token.rs", "fn token() { 1 }\n");
    let second = repo.commit_at("2025-03-03T10:00:00Z", "Ben", "Tune ADR-0001 tokens");
    assert_same(&repo, "one new commit", query);
    assert_eq!(
        stored_head(&repo),
        first,
        "one commit is not written into redb"
    );
    assert!(pending_file(&repo).exists());
    let st = repo.index_status();
    assert_eq!(st["indexed_head"], second.as_str());
    assert_eq!(st["fresh"], true);

    // Up to 32 pending; the 33rd new commit writes them all into redb.
    let mut last = second.clone();
    for i in 0..32 {
        repo.write("src/auth/token.rs", &format!("fn token() {{ {i} }}\n"));
        last = repo.commit_at(
            &format!("2025-04-{:02}T10:00:00Z", i % 28 + 1),
            "Cy",
            &format!("Step {i}"),
        );
        let stored = stored_head(&repo);
        if i < 31 {
            assert_eq!(stored, first, "step {i}: still pending");
        }
        assert_same(&repo, &format!("commit {i}"), query);
        if i == 31 {
            assert_eq!(stored_head(&repo), last, "the 33rd commit writes them in");
            assert!(!pending_file(&repo).exists());
        }
    }

    // A reset drops a pending commit that nothing reaches any more.
    repo.write("src/auth/token.rs", "fn token() { 99 }\n");
    repo.commit_at("2025-05-01T10:00:00Z", "Ana", "To be dropped");
    assert_same(&repo, "a new pending commit", query);
    assert_eq!(stored_head(&repo), last);
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    assert_same(&repo, "reset past the pending commit", query);
    assert_eq!(stored_head(&repo), last);

    // `index` writes pending commits in.
    repo.write("src/auth/token.rs", "fn token() { 100 }\n");
    let tip = repo.commit_at("2025-05-02T10:00:00Z", "Ben", "Last");
    assert_same(&repo, "pending again", query);
    assert!(pending_file(&repo).exists());
    let indexed = repo.run(&["index"]);
    assert_eq!(indexed.code, Some(0), "{}", indexed.stderr);
    assert_eq!(stored_head(&repo), tip);
    assert!(!pending_file(&repo).exists());
    assert_same(&repo, "after index", query);
}
