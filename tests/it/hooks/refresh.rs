//! The refresh hooks: after commit, merge, checkout, amend, rebase and cherry-pick the index is
//! fresh with no query run in between; during a rebase only post-rewrite refreshes.

use super::{commit, decisions, git, install, ok};
use crate::env::BIN;
use crate::fixture::adr;
use crate::git::GitRepo;

/// `index --status --json` says the index is fresh at HEAD (after `what`).
fn assert_fresh(repo: &GitRepo, what: &str) {
    let status = repo.index_status();
    assert_eq!(status["fresh"], true, "after {what}: {status:#}");
    assert_eq!(
        status["indexed_head"].as_str(),
        Some(repo.head().as_str()),
        "after {what}: {status:#}"
    );
}

#[test]
fn the_index_is_fresh_after_every_git_operation_without_a_query() {
    let repo = decisions();
    let start = repo.head();
    install(&repo);
    assert!(!repo.index_file().exists(), "no query has built it");

    ok(
        &commit(&repo, "src/auth/login.py", "a = 1\n", "Login (ADR-0001)"),
        "commit",
    );
    assert_fresh(&repo, "a commit");
    // A new record, committed: the status compares a file written a moment ago by content.
    repo.write(
        "docs/adr/0005-queues.md",
        &adr(
            5,
            "Queues",
            "Accepted",
            Some("2025-03-01"),
            "The code in `src/free.py` queues.",
        ),
    );
    ok(
        &commit(&repo, "src/free.py", "b = 1\n", "Queue (ADR-0005)"),
        "commit of a record",
    );
    assert_fresh(&repo, "a commit adding a record");
    let records = repo.index_status()["records"].as_u64();
    assert_eq!(records, Some(5), "the new record is indexed");

    ok(
        &git(&repo, &["checkout", "-q", "-b", "topic"], &[]),
        "checkout -b",
    );
    assert_fresh(&repo, "checkout -b");
    ok(
        &commit(&repo, "src/pay/charge.py", "c = 1\n", "Charge (ADR-0002)"),
        "topic commit",
    );
    let picked = repo.head();
    ok(
        &commit(&repo, "src/auth/token.py", "d = 1\n", "Token (ADR-0001)"),
        "topic commit",
    );
    ok(&git(&repo, &["checkout", "-q", "main"], &[]), "checkout");
    assert_fresh(&repo, "a checkout");

    ok(
        &commit(&repo, "README.md", "# New\n", "Docs"),
        "main commit",
    );
    ok(
        &git(
            &repo,
            &["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"],
            &[],
        ),
        "merge",
    );
    assert_fresh(&repo, "a merge");

    ok(
        &git(
            &repo,
            &["commit", "-q", "--amend", "-m", "Merge topic, amended"],
            &[],
        ),
        "amend",
    );
    assert_fresh(&repo, "an amend");

    ok(
        &git(&repo, &["checkout", "-q", "-b", "again", "main~1"], &[]),
        "checkout -b again",
    );
    ok(
        &commit(&repo, "src/old/config.py", "e = 1\n", "Old config"),
        "again commit",
    );
    ok(
        &commit(&repo, "src/legacy/invoice.py", "f = 1\n", "Invoice"),
        "again commit",
    );
    ok(&git(&repo, &["rebase", "-q", "main"], &[]), "rebase");
    assert_fresh(&repo, "a rebase");

    ok(
        &git(
            &repo,
            &["checkout", "-q", "-b", "picks", start.as_str()],
            &[],
        ),
        "checkout -b picks",
    );
    assert_fresh(&repo, "a checkout of an older commit");
    ok(
        &git(&repo, &["cherry-pick", picked.as_str()], &[]),
        "cherry-pick",
    );
    assert_fresh(&repo, "a cherry-pick");

    // And the index answers as a scan does.
    let indexed = repo.run(&["why", "src/auth", "--json", "--git"]);
    let scanned = repo.run(&["why", "src/auth", "--json", "--git", "--no-index"]);
    assert_eq!(indexed.stdout, scanned.stdout);
}

#[test]
fn during_a_rebase_only_post_rewrite_refreshes() {
    let repo = decisions();
    // A rebase in progress, as git leaves it between picks.
    std::fs::create_dir(repo.path().join(".git/rebase-merge")).expect("mkdir");
    for (hook, args) in [
        ("post-commit", vec![]),
        ("post-checkout", vec!["0", "1", "1"]),
    ] {
        let mut all = vec!["hook", hook];
        all.extend(args);
        let run = repo.run(&all);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (Some(0), ""),
            "{}",
            run.describe()
        );
        assert!(
            !repo.index_file().exists(),
            "{hook} did nothing during the rebase"
        );
    }
    let run = repo.run(&["hook", "post-rewrite", "rebase"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(0), ""),
        "{}",
        run.describe()
    );
    assert!(repo.index_file().exists(), "post-rewrite refreshed");
    assert_fresh(&repo, "post-rewrite");
    // Outside a rebase, post-commit refreshes quietly too.
    std::fs::remove_dir(repo.path().join(".git/rebase-merge")).expect("rmdir");
    std::fs::remove_file(repo.index_file()).expect("drop the index");
    let run = repo.run(&["hook", "post-commit"]);
    assert_eq!(
        (run.code, run.stdout.as_slice(), run.stderr.as_str()),
        (Some(0), &b""[..], "")
    );
    assert_fresh(&repo, "post-commit");
}

/// The names in the index's folder that note a refresh in flight.
fn in_flight(repo: &GitRepo) -> Vec<String> {
    let dir = repo.index_file().parent().expect("a folder").to_path_buf();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the index's folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("refreshing."))
        .collect();
    names.sort();
    names
}

#[test]
fn a_hooks_refresh_goes_on_after_git_and_status_waits_for_it() {
    let repo = decisions();
    install(&repo);
    // The first commit builds the index's folder, with the hook waited for; from then on the
    // refresh goes on after git returns.
    for (i, message) in ["One (ADR-0001)", "Two (ADR-0001)", "Three"]
        .iter()
        .enumerate()
    {
        ok(
            &commit(&repo, "src/auth/login.py", &format!("a = {i}\n"), message),
            "commit",
        );
        assert_fresh(&repo, message);
        assert_eq!(in_flight(&repo), Vec::<String>::new(), "after {message}");
    }
    let log = repo.index_file().with_file_name("hooks.log");
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(logged, "", "no refresh failed");

    // A note naming a refresh still running holds the status until it is done (a stand-in
    // whose arguments read `hook post-commit`, as a refresh's do).
    let mut running = std::process::Command::new("sh")
        .args(["-c", "sleep 0.5; :", "hook", "post-commit"])
        .spawn()
        .expect("start sh");
    let note = repo
        .index_file()
        .with_file_name(format!("refreshing.{}", running.id()));
    std::fs::write(&note, "").expect("write the note");
    assert_fresh(&repo, "a refresh in flight");
    assert!(
        running.try_wait().expect("try_wait").is_some(),
        "the status waited for the refresh in flight"
    );
    // A note whose process is gone counts for nothing, and goes; so does one whose pid another
    // program has now (on Linux, where its arguments can be read).
    std::fs::write(&note, "").expect("write the note again");
    assert_fresh(&repo, "a refresh that is gone");
    assert!(!note.exists(), "the note of a gone refresh is removed");
    if std::path::Path::new("/proc/self/cmdline").exists() {
        let mut other = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("start sleep");
        let note = note.with_file_name(format!("refreshing.{}", other.id()));
        std::fs::write(&note, "").expect("write a note naming another program");
        assert_fresh(&repo, "a note naming another program");
        let still = other.try_wait().expect("try_wait").is_none();
        let _ = other.kill();
        let _ = other.wait();
        assert!(still, "the status did not wait for another program");
        assert!(!note.exists(), "a note naming another program is removed");
    }
}

#[test]
fn a_background_refresh_that_fails_says_so_in_hooks_log() {
    let repo = decisions();
    install(&repo);
    ok(
        &commit(&repo, "src/auth/login.py", "a = 1\n", "One (ADR-0001)"),
        "commit",
    );
    assert_fresh(&repo, "the first commit");
    // An index of a newer schema: every refresh of ours refuses it.
    let path = repo.index_file();
    {
        let db = redb::Database::create(&path).expect("open the index");
        let txn = db.begin_write().expect("write");
        {
            let mut meta = txn
                .open_table(context_graph::index::schema::META)
                .expect("meta");
            meta.insert(
                context_graph::index::schema::KEY_VERSION,
                99u32.to_le_bytes().as_slice(),
            )
            .expect("set the version");
        }
        txn.commit().expect("commit");
    }
    let before = repo.head();
    let out = commit(&repo, "src/auth/login.py", "a = 2\n", "Two (ADR-0001)");
    let err = ok(&out, "commit with a refresh that fails");
    assert_ne!(repo.head(), before, "the commit is made");
    assert!(
        !err.contains("post-commit"),
        "nothing on git's stderr: {err}"
    );
    // The status waits for the refresh, then the log holds its one line.
    let _ = repo.run(&["index", "--status", "--json"]);
    let log = std::fs::read_to_string(path.with_file_name("hooks.log")).expect("hooks.log");
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(
        log.starts_with("context-graph: the post-commit hook went on without context-graph: ")
            && log.contains("newer"),
        "{log}"
    );
}

/// post-commit's background refresh waits until the git that ran the hook (named in
/// `CONTEXT_GRAPH_AFTER` by the script) has exited, then refreshes (issue 17): here run as the
/// script runs it, naming as its git a stand-in that lasts until its input closes.
#[cfg(target_os = "linux")]
#[test]
fn a_background_refresh_waits_for_the_git_that_ran_it() {
    use std::process::Stdio;
    let repo = decisions();
    install(&repo);
    ok(
        &commit(&repo, "src/auth/login.py", "a = 1\n", "One (ADR-0001)"),
        "commit",
    );
    assert_fresh(&repo, "the first commit");
    // A commit no hook of ours sees.
    let none = repo.path().join(".git").join("no-hooks");
    std::fs::create_dir_all(&none).expect("an empty hooks folder");
    repo.write("src/auth/login.py", "a = 2\n");
    repo.git(&["add", "src/auth/login.py"]);
    let hooks = format!("core.hooksPath={}", none.display());
    repo.git(&["-c", &hooks, "commit", "-q", "-m", "Two (ADR-0001)"]);

    let mut git = std::process::Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start the stand-in");
    let mut refresh = repo
        .command(BIN)
        .args(["hook", "post-commit"])
        .env("CONTEXT_GRAPH_AFTER", git.id().to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the refresh");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let waited = refresh.try_wait().expect("try_wait").is_none();
    drop(git.stdin.take());
    let _ = git.wait();
    let done = refresh.wait().expect("wait for the refresh");
    assert!(waited, "the refresh waited for its git");
    assert!(done.success(), "{done:?}");
    assert_fresh(&repo, "the refresh after its git");
}
