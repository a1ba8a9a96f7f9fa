//! What the index trusts of what it stored: the racy-file rule (a file changed this close to the
//! index's write is parsed again), and the scan memo, which answers every question as the scan
//! does and only while everything the scan read is unchanged.

use super::{assert_same, compare, write_auth_records, ADR1, ADR2, ADR3};
use crate::env::{no_index, Run};
use crate::fixture::adr;
use crate::git::GitRepo;
use redb::ReadableTable;
use std::path::Path;
use std::time::Duration;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::{codec, schema};
use context_graph::model::Record;

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
        let get = |meta: &redb::Table<&str, schema::Checked>, key: &str| -> Vec<u8> {
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
        // The named paths' folders too: they vouch for the paths in them (and a missing
        // path's deepest folder there for it).
        memo.parents.at_ns = later(memo.parents.at_ns);
        let mut report: schema::MemoReport =
            codec::decode(&get(&meta, schema::KEY_SCAN_MEMO_REPORT)).expect("decode its report");
        for bytes in report.records.iter_mut().filter(|_| title.is_some()) {
            let mut r: Record = codec::decode(bytes).expect("a record");
            r.title = title.unwrap_or_default().into();
            *bytes = codec::encode(&r);
        }
        for (key, value) in [
            (schema::KEY_SCAN_MEMO, codec::encode(&memo)),
            (schema::KEY_SCAN_MEMO_REPORT, codec::encode(&report)),
        ] {
            meta.insert(key, value.as_slice()).expect("write meta");
        }
        let mut walks = txn.open_table(schema::WALKS).expect("walks table");
        let mut walk: schema::WalkCache =
            codec::decode(&get(&walks, schema::KEY_GUIDE_WALK)).expect("decode the guide walk");
        walk.walk.started_ns = later(walk.walk.started_ns);
        walks
            .insert(schema::KEY_GUIDE_WALK, codec::encode(&walk).as_slice())
            .expect("write the walk");
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

/// Stores the memo with the first of `queries`, plants a mark in it, checks that every query
/// is answered from it (else a step proves nothing), and returns the planted index's bytes.
fn planted_before(repo: &GitRepo, step: &str, queries: &[&[&str]]) -> Vec<u8> {
    let stored = repo.run(queries[0]);
    assert!(stored.stderr.is_empty(), "{step}: {}", stored.stderr);
    plant_in_memo(repo);
    for query in queries {
        let titles = titles(&repo.run(query));
        assert!(
            !titles.is_empty() && titles.iter().all(|t| t == "PLANTED"),
            "{step}, {query:?}: the memo should answer before the change (else this proves nothing): {titles:?}",
        );
    }
    std::fs::read(repo.index_file()).expect("read the index")
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
            "In `src/auth/`, `src/gone/`, `src/legacy.rs`, `src/old/deep/x.rs`, `.gen/api/`, \
             `src/kept/x.rs` and `vendor/lib/x.rs`.",
        ),
    )
    .write(
        "docs/adr/archive/0005-archived.md",
        &adr(5, "Archived", "Deprecated", None, "Old."),
    )
    .write(".gen/README", "generated\n")
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
        // The guide walk skips hidden folders: only asking again sees this one. (A folder git
        // ignores names no governed path at all.)
        (
            "a missing folder appears in a hidden folder",
            vec![(".gen/api/client.rs", Some("\n".into()))],
        ),
        (
            "a missing folder appears",
            vec![("src/gone/mod.rs", Some("\n".into()))],
        ),
        // The missing folder itself is stamped: the ignore file makes the named path ignored,
        // and `src/`'s folder, vouching for the path no more, is not asked about ignores.
        (
            "a missing folder appears with an ignore file ignoring the named path",
            vec![("src/kept/.gitignore", Some("x.rs\n".into()))],
        ),
        // A missing top-level folder is not stamped: what it holds is no path of the
        // repository's, ignored or not, and it appearing changes the root.
        (
            "a missing top-level folder appears with an ignore file",
            vec![("vendor/.gitignore", Some("lib/\n".into()))],
        ),
        (
            "the named file appears in that top-level folder",
            vec![("vendor/lib/x.rs", Some("\n".into()))],
        ),
        (
            "a missing file appears with the folders above it",
            vec![("src/old/deep/x.rs", Some("\n".into()))],
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
        // Each query below starts from this planted index, so each meets the stale memo.
        let planted_index = planted_before(&repo, step, &queries);
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

/// A memo with hundreds of files to stat is checked on two threads: the record files and the
/// first guides on a spawned one, the other guides, folders and named paths on the calling
/// one (`scan::deps`, issue 41). A change on either side is seen, as in a small one.
#[test]
fn a_memo_checked_on_two_threads_sees_a_change_on_either() {
    let repo = GitRepo::new();
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "In `src/auth/`."),
    )
    .write(
        ADR2,
        &adr(2, "Login form", "Accepted", None, "See ADR-0001."),
    )
    .write("src/auth/token.rs", "fn token() {}\n");
    let guides = 360;
    for i in 0..guides {
        repo.write(
            &format!("docs/guides/g{i:03}.md"),
            "# A guide\n\nNothing cited.\n",
        );
    }
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let query: &[&str] = &["check", "--json"];
    let steps = [
        (
            "a record the spawned thread checks",
            ADR2.to_string(),
            adr(2, "Login form", "Deprecated", None, "Gone."),
        ),
        (
            "a guide the spawned thread checks",
            "docs/guides/g000.md".to_string(),
            "# A guide\n\nRead ADR-0001.\n".to_string(),
        ),
        (
            "a guide the calling thread checks",
            format!("docs/guides/g{:03}.md", guides - 1),
            "# A guide\n\nRead ADR-0002.\n".to_string(),
        ),
    ];
    for (step, path, text) in steps {
        let planted_index = planted_before(&repo, step, &[query]);
        repo.write(&path, &text);
        std::fs::write(repo.index_file(), &planted_index).expect("restore the index");
        assert_same(&repo, step, query);
    }
}
