//! The history memo (ADR-0006, issue 17): what the stored commits gave the last answer's
//! history, kept beside the index and read back while the stored commits and the records are
//! as they were. Every answer equals the scan's, whether the memo was read, made anew or left
//! aside; and it is made anew exactly when what it was read from changed.

use super::{assert_same, tokens_adr, write_tokens_record, ADR1, PAST_RACY_WINDOW};
use crate::fixture::adr;
use crate::git::GitRepo;
use std::path::PathBuf;

fn memo_file(repo: &GitRepo) -> PathBuf {
    repo.index_file().with_extension("history")
}

fn memo_bytes(repo: &GitRepo) -> Vec<u8> {
    std::fs::read(memo_file(repo)).expect("the history memo is kept beside the index")
}

/// The memo file's inode: a memo written again is a new file put in place.
#[cfg(unix)]
fn memo_inode(repo: &GitRepo) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(memo_file(repo))
        .expect("the history memo")
        .ino()
}

const QUERY: &[&str] = &["why", "src/auth", "--git", "--json"];

/// Commits `n` changes to the governed file, each answered the same as a scan.
fn commit_tokens(repo: &GitRepo, step: &str, day: u32, message: &str) -> String {
    repo.write("src/auth/token.rs", &format!("fn token() {{ {day} }}\n"));
    let sha = repo.commit_at(&format!("2025-04-{day:02}T10:00:00Z"), "Ben", message);
    assert_same(repo, step, QUERY);
    sha
}

#[test]
fn the_history_memo_is_read_after_a_commit_and_made_anew_when_its_reading_changed() {
    let repo = GitRepo::new();
    write_tokens_record(&repo)
        .write("src/auth/token.rs", "fn token() {}\n")
        .write(
            "docs/adr/0002-billing.md",
            &adr(
                2,
                "Billing",
                "Accepted",
                Some("2025-01-10"),
                "In `src/billing/`.",
            ),
        )
        .write("src/billing/pay.rs", "fn pay() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    for day in 1..=3 {
        repo.write("src/billing/pay.rs", &format!("fn pay() {{ {day} }}\n"));
        repo.commit_at(&format!("2025-03-1{day}T10:00:00Z"), "Cy", "Billing step");
    }
    assert_same(&repo, "first build", QUERY);
    std::thread::sleep(PAST_RACY_WINDOW);
    assert_same(&repo, "settled", QUERY);
    let kept = memo_bytes(&repo);
    #[cfg(unix)]
    let inode = memo_inode(&repo);

    // New commits stay pending: the stored ones are as they were, so the memo is read back
    // (not written again) and the pending commits are added to it.
    commit_tokens(&repo, "one pending commit", 1, "Tune tokens (ADR-0001)");
    commit_tokens(&repo, "two pending commits", 2, "Tune tokens again");
    let mentioning = repo.commit_at("2025-04-03T10:00:00Z", "Dee", "Note ADR-0002 only");
    assert_same(&repo, "a pending commit mentioning a record", QUERY);
    assert_eq!(
        memo_bytes(&repo),
        kept,
        "the memo changed though nothing it was read from did"
    );
    #[cfg(unix)]
    assert_eq!(
        memo_inode(&repo),
        inode,
        "the memo was written again though nothing it was read from changed"
    );
    let everything = &["check", "--git", "--json"];
    let answer = assert_same(&repo, "the full check", everything).json();
    let billing = answer["records"]
        .as_array()
        .expect("the records")
        .iter()
        .find(|r| r["id"] == "ADR-0002")
        .expect("ADR-0002");
    let commits: Vec<&str> = billing["commits"]
        .as_array()
        .expect("ADR-0002's commits")
        .iter()
        .map(|c| c["sha"].as_str().expect("a sha"))
        .collect();
    assert!(
        commits.iter().any(|s| mentioning.starts_with(s)),
        "the pending commit citing ADR-0002 is among its commits: {commits:?}"
    );

    // A record's date, its governed paths, a new record: each changes what is read, so the
    // memo is made anew, and the answers still equal the scan's.
    repo.write(
        ADR1,
        &adr(
            1,
            "Use tokens",
            "Accepted",
            Some("2025-04-02"),
            "In `src/auth/`.",
        ),
    );
    assert_same(&repo, "a record's date changed", QUERY);
    let dated = memo_bytes(&repo);
    assert_ne!(dated, kept, "a new date, a new memo");
    repo.write(ADR1, &tokens_adr("In `src/auth/` and `src/billing/`."));
    assert_same(&repo, "a record governs more", QUERY);
    assert_ne!(memo_bytes(&repo), dated, "new governed paths, a new memo");
    repo.write(
        "docs/adr/0003-ledger.md",
        &adr(3, "Ledger", "Accepted", None, "In `src/billing/`."),
    );
    assert_same(&repo, "a new record", QUERY);

    // A pending commit that renames a record file: its earlier name's stored commits are read
    // as they stand, memo or not.
    repo.mv(ADR1, "docs/adr/0001-tokens.md");
    repo.commit_at("2025-04-05T10:00:00Z", "Ana", "Rename the tokens record");
    assert_same(&repo, "a pending rename of a record", QUERY);
    assert_same(
        &repo,
        "asked again",
        &["record", "ADR-0001", "--git", "--json"],
    );
}

#[test]
fn a_damaged_or_foreign_history_memo_is_read_as_none() {
    let repo = GitRepo::new();
    write_tokens_record(&repo).write("src/auth/token.rs", "fn token() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    assert_same(&repo, "first build", QUERY);
    std::thread::sleep(PAST_RACY_WINDOW);
    assert_same(&repo, "settled", QUERY);
    let kept = memo_bytes(&repo);
    let file = memo_file(&repo);
    let damaged: [(&str, Vec<u8>); 4] = [
        ("empty", Vec::new()),
        ("cut short", kept[..kept.len() / 2].to_vec()),
        ("a key length past the end", {
            let mut b = kept.clone();
            b[..4].copy_from_slice(&u32::MAX.to_le_bytes());
            b
        }),
        ("the body's last byte changed", {
            let mut b = kept.clone();
            let last = b.len() - 1;
            b[last] ^= 0xff;
            b
        }),
    ];
    for (day, (what, bytes)) in (1..).zip(damaged) {
        std::fs::write(&file, &bytes).expect("write the memo");
        commit_tokens(&repo, what, day, "Tune tokens");
    }
    // A folder in its place is no memo either, and nothing waits on it.
    std::fs::remove_file(&file).expect("remove the memo");
    std::fs::create_dir(&file).expect("a folder in the memo's place");
    commit_tokens(&repo, "a folder in the memo's place", 9, "Tune tokens");
}
