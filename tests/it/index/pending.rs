//! Pending commits: a few new commits on top of the indexed HEAD are kept in a small file beside
//! the index, until more than 32, a reset or `index` write them in.

use super::{assert_same, write_tokens_record, PAST_RACY_WINDOW};
use crate::git::GitRepo;
use redb::ReadableDatabase;
use std::path::PathBuf;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::schema;

/// The HEAD stored in the index file itself (not counting pending commits).
fn stored_head(repo: &GitRepo) -> String {
    // Read only: a write open would change the file behind the tool's seal (ADR-0011).
    let db = redb::ReadOnlyDatabase::open(repo.index_file()).expect("open the index");
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
