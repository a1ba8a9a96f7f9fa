//! The index leaves out, without reading them, the stored commits numbered below the first
//! block of commit numbers whose latest time reaches a record's date (`KEY_TIME_BLOCKS`,
//! ADR-0006): the answer is the scan's, byte for byte, on a history long enough to have blocks
//! to leave out, where times do not follow the numbers.

use crate::git::{FastImport, GitRepo};
use redb::ReadableDatabase;

/// 700 commits on main, one file changed each, every ten minutes from 2023-11-14 22:13 UTC,
/// except commit 300, dated long after the others (a recent commit in an old block), and
/// commit 650, dated before the record (an old commit in a recent block). The record is dated
/// 2023-11-18 and governs `src/`.
fn history() -> GitRepo {
    let mut out = FastImport::new();
    let record = "# 1. Layout\n\nStatus: Accepted\n\nDate: 2023-11-18\n\nThe code is `src/`.\n";
    let mut parent: Option<String> = None;
    for t in 0..700usize {
        let time = match t {
            300 => 1_700_900_000,
            650 => 1_700_000_000,
            _ => 1_700_000_000 + t * 600,
        };
        let mut changes = vec![FastImport::file(
            &format!("src/d{}/f{}.rs", t % 7, t % 3),
            &t.to_string(),
        )];
        if t == 0 {
            changes.push(FastImport::file("docs/adr/0001-layout.md", record));
        }
        let mark = out.commit(
            "refs/heads/main",
            "Dev <dev@example.com>",
            time,
            &format!("Commit {t}"),
            parent.as_deref(),
            None,
            &changes,
        );
        parent = Some(format!(":{mark}"));
    }
    let repo = GitRepo::new();
    repo.fast_import(&out.finish());
    repo
}

#[test]
fn commits_older_than_a_record_are_left_out_by_block_and_the_answer_is_the_scans() {
    let repo = history();
    let indexed = repo.run(&["why", "src", "--git", "--json"]);
    assert_eq!(indexed.code, Some(0), "{}", indexed.describe());
    // The index keeps a block's latest time for each 256 commit numbers.
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_read().expect("read");
    let meta = txn
        .open_table(context_graph::index::schema::META)
        .expect("meta");
    let blocks: Vec<i64> = context_graph::index::codec::decode(
        meta.get(context_graph::index::schema::KEY_TIME_BLOCKS)
            .expect("read")
            .expect("the blocks are kept")
            .value(),
    )
    .expect("decode");
    drop((meta, txn, db));
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    assert_eq!(blocks[1], 1_700_900_000, "commit 300's time is its block's");

    let scanned = repo.run(&["why", "src", "--git", "--json", "--no-index"]);
    assert_eq!(indexed.stdout, scanned.stdout, "{}", indexed.describe());
    // Commit 300 counts (recent, though numbered in the second block); commit 650 does not.
    let doc = indexed.json();
    let text = doc.to_string();
    assert!(text.contains("Commit 300"), "commit 300 is in the drift");
    assert!(
        !text.contains("Commit 650\""),
        "commit 650 is older than the record"
    );
    assert!(text.contains("Commit 699"));
    // A query again, and the full check, answer as the scan does too.
    let again = repo.run(&["why", "src", "--git", "--json"]);
    assert_eq!(again.stdout, scanned.stdout);
    let check = repo.run(&["--git", "--json"]);
    let check_scan = repo.run(&["--git", "--json", "--no-index"]);
    assert_eq!(check.stdout, check_scan.stdout);
}
