//! Markers and the index (docs/indexing.md, ADR-0009): every answer with the index equals
//! `--no-index` as marked files are added, moved, edited and deleted; a file git knows unchanged
//! is served by its blob id without being read; the schema step; and `fresh`.

use super::{assert_same, declared, records_repo};
use crate::git::GitRepo;
use redb::{ReadableDatabase, ReadableTable};

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::{codec, schema};

/// The questions compared after every step.
const QUERIES: &[&[&str]] = &[
    &["check", "--json"],
    &["check", "--git", "--json"],
    &["why", ".", "--json"],
    &["why", "src", "--json"],
    &["why", "src/sync/retry.ts", "--json"],
    &["why", "src/sync/retry.ts", "--git", "--json"],
    &["why", "lib/moved.ts", "--json"],
    &["record", "ADR-0002", "--json"],
    &["record", "ADR-0003", "--git", "--json"],
    &["why", "src/sync/retry.ts"],
];

/// Compares every question after the step `name`; returns what `why .` says markers declare
/// (from `--no-index`), each as `ID path:line`.
fn step(repo: &GitRepo, name: &str) -> Vec<String> {
    let mut whole = Vec::new();
    for q in QUERIES {
        let scanned = assert_same(repo, name, q);
        if *q == ["why", ".", "--json"] {
            whole = super::decisions(&scanned.json())
                .into_iter()
                .flat_map(|(id, _, places)| places.into_iter().map(move |p| format!("{id} {p}")))
                .collect();
        }
    }
    whole
}

#[test]
fn answers_equal_the_scan_as_marked_files_come_and_go() {
    let repo = records_repo();
    let none: Vec<String> = Vec::new();
    assert_eq!(step(&repo, "no markers"), none);
    repo.write("src/sync/retry.ts", "// @adr 3\nexport const tries = 1;\n");
    let first = ["ADR-0003 src/sync/retry.ts:1"];
    assert_eq!(step(&repo, "a marked file added, untracked"), first);
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Retry");
    assert_eq!(step(&repo, "the marked file committed"), first);
    let text = "// @adr 2, 99\nexport const tries = 1;\n";
    repo.write("src/sync/retry.ts", text);
    let edited = ["ADR-0002 src/sync/retry.ts:1"];
    assert_eq!(step(&repo, "its marker edited in the work tree"), edited);
    repo.git(&["add", "-A"]);
    assert_eq!(step(&repo, "the edit staged"), edited);
    repo.commit_at("2025-03-02T10:00:00Z", "Ben", "Point retry elsewhere");
    assert_eq!(step(&repo, "the edit committed"), edited);
    repo.mv("src/sync/retry.ts", "lib/moved.ts");
    let moved = ["ADR-0002 lib/moved.ts:1"];
    assert_eq!(step(&repo, "the marked file moved with git mv"), moved);
    repo.commit_at("2025-03-03T10:00:00Z", "Ben", "Move retry");
    assert_eq!(step(&repo, "the move committed"), moved);
    std::fs::rename(
        repo.path().join("lib/moved.ts"),
        repo.path().join("src/sync/retry.ts"),
    )
    .expect("move back in the work tree");
    assert_eq!(step(&repo, "moved back in the work tree only"), edited);
    repo.remove("src/sync/retry.ts");
    assert_eq!(
        step(&repo, "the marked file deleted in the work tree"),
        none
    );
    repo.commit_at("2025-03-04T10:00:00Z", "Cy", "Drop retry");
    assert_eq!(step(&repo, "the deletion committed"), none);
    repo.reset_hard("HEAD~2");
    let back = step(&repo, "git reset --hard back to the edited marker");
    assert_eq!(back, edited);
    repo.write("src/core/a.rs", "// @adr 1\n")
        .write("src/core/b.rs", "// @adr 4\n");
    repo.commit_at("2025-03-05T10:00:00Z", "Ana", "More markers");
    repo.branch("topic");
    repo.remove("src/core/b.rs");
    repo.write("src/sync/retry.ts", "// @adr 3\n");
    repo.commit_at("2025-03-06T10:00:00Z", "Ana", "Topic");
    assert_eq!(
        step(&repo, "a branch that changes markers"),
        ["ADR-0001 src/core/a.rs:1", "ADR-0003 src/sync/retry.ts:1"]
    );
    repo.checkout("main");
    assert_eq!(
        step(&repo, "back on main"),
        [
            "ADR-0001 src/core/a.rs:1",
            "ADR-0002 src/sync/retry.ts:1",
            "ADR-0004 src/core/b.rs:1"
        ]
    );
}

/// Rewrites the stored markers of `path` to say it declares `id`, keeping the blob id: what
/// only an answer served from the stored markers can show.
fn plant(repo: &GitRepo, path: &str, id: &str) {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_write().expect("write");
    {
        let mut table = txn.open_table(schema::MARKERS).expect("the markers table");
        let bytes = table
            .get(path)
            .expect("read")
            .unwrap_or_else(|| panic!("{path} is stored"))
            .value()
            .to_vec();
        let mut stored: schema::StoredMarkers = codec::decode(&bytes).expect("decode");
        stored.markers = vec![(1, id.to_string())];
        table
            .insert(path, codec::encode(&stored).as_slice())
            .expect("write");
    }
    txn.commit().expect("commit");
}

fn stored_paths(repo: &GitRepo) -> Vec<String> {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_read().expect("read");
    let table = txn.open_table(schema::MARKERS).expect("the markers table");
    table
        .iter()
        .expect("iterate")
        .map(|e| e.expect("an entry").0.value().to_string())
        .collect()
}

#[test]
fn a_file_git_knows_unchanged_is_served_by_its_blob_id_and_an_edited_one_is_read() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 1\n")
        .write("src/b.rs", "// @adr 3\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Markers");
    // git's index must vouch for the files: not racily clean (written in the second it was).
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(&["update-index", "--refresh"]);
    repo.run(&["index"]);
    assert!(
        stored_paths(&repo).iter().any(|p| p == "src/a.rs"),
        "{:?}",
        stored_paths(&repo)
    );
    plant(&repo, "src/a.rs", "ADR-0012");
    assert_eq!(
        declared(&repo, "src"),
        [
            ("ADR-0003".to_string(), vec!["src/b.rs:1".to_string()]),
            ("ADR-0012".to_string(), vec!["src/a.rs:1".to_string()]),
        ],
        "the unchanged file is served from the index, not read"
    );
    // Edited in the work tree (its state no longer what git's index recorded): read again.
    repo.write("src/a.rs", "// @adr 1\n\n");
    assert_eq!(
        declared(&repo, "src"),
        [
            ("ADR-0001".to_string(), vec!["src/a.rs:1".to_string()]),
            ("ADR-0003".to_string(), vec!["src/b.rs:1".to_string()]),
        ]
    );
    assert_same(&repo, "an edited file", &["why", "src", "--json"]);
    // A file gone from git's index is dropped from the stored markers by a full scan.
    repo.git(&["rm", "-q", "--cached", "src/b.rs"]);
    repo.remove("src/b.rs");
    assert_same(&repo, "a file removed", &["check", "--json"]);
    assert!(
        !stored_paths(&repo).iter().any(|p| p == "src/b.rs"),
        "{:?}",
        stored_paths(&repo)
    );
}

#[test]
fn an_index_of_schema_5_is_migrated_and_answers_as_the_scan() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 2\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "A marker");
    repo.run(&["index"]);
    // Take the file back to schema 5: unchecked values, no markers table, version 5.
    crate::index::migration::to_schema_6(&repo.index_file());
    {
        type Plain = redb::TableDefinition<'static, &'static str, &'static [u8]>;
        let db = redb::Database::create(repo.index_file()).expect("open the index");
        let txn = db.begin_write().expect("write");
        txn.delete_table(Plain::new("markers"))
            .expect("drop the markers table");
        {
            let mut meta = txn.open_table(Plain::new("meta")).expect("meta");
            meta.insert(schema::KEY_VERSION, 5u32.to_le_bytes().as_slice())
                .expect("version 5");
        }
        txn.commit().expect("commit");
    }
    let status = repo.index_status();
    assert_eq!(status["schema_version"], 5, "{status:#}");
    assert_eq!(status["fresh"], false, "{status:#}");
    assert_same(&repo, "migrated from schema 5", &["check", "--json"]);
    assert_eq!(
        repo.index_status()["schema_version"],
        schema::SCHEMA_VERSION
    );
    assert!(stored_paths(&repo).iter().any(|p| p == "src/a.rs"));
}

#[test]
fn after_index_a_query_writes_nothing_and_a_new_blob_is_read_once() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "A marker");
    std::thread::sleep(std::time::Duration::from_millis(2100));
    repo.git(&["update-index", "--refresh"]);
    let out = repo.run(&["index"]);
    assert_eq!(out.code, Some(0), "{}", out.describe());
    assert_eq!(repo.index_status()["fresh"], true);
    // Everything a query needs is kept: asking writes nothing.
    let before = std::fs::read(repo.index_file()).expect("the index");
    for q in [
        &["check", "--json"][..],
        &["check", "--git", "--json"],
        &["why", "src/a.rs", "--git", "--json"],
        &["why", "src", "--json"],
        &["record", "ADR-0001", "--git", "--json"],
    ] {
        assert_same(&repo, "after index", q);
    }
    assert!(
        std::fs::read(repo.index_file()).expect("the index") == before,
        "a query right after `index` changed the index"
    );
    // A new blob staged: read once, then served.
    repo.write("src/a.rs", "// @adr 2\n");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    repo.git(&["add", "src/a.rs"]);
    let check = assert_same(&repo, "staged", &["check", "--json"]);
    assert_eq!(
        super::findings_of(&check.json(), "stale-marker").len(),
        1,
        "the staged blob's marker, not the stored one's"
    );
    let kept = std::fs::read(repo.index_file()).expect("the index");
    assert!(kept != before, "the new blob's markers were not kept");
    assert_same(&repo, "staged, asked again", &["check", "--json"]);
    assert!(std::fs::read(repo.index_file()).expect("the index") == kept);
}

/// Reads, changes and writes back the stored walk for untracked files.
fn doctor_walk(repo: &GitRepo, change: impl FnOnce(&mut context_graph::scan::SourceWalk)) {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_write().expect("write");
    {
        let mut meta = txn.open_table(schema::WALKS).expect("walks");
        let bytes = meta
            .get(schema::KEY_SOURCE_WALK)
            .expect("read")
            .expect("a stored walk")
            .value()
            .to_vec();
        let mut walk: context_graph::scan::SourceWalk = codec::decode(&bytes).expect("decode");
        change(&mut walk);
        meta.insert(schema::KEY_SOURCE_WALK, codec::encode(&walk).as_slice())
            .expect("write");
    }
    txn.commit().expect("commit");
}

#[test]
fn the_walk_for_untracked_files_is_kept_while_its_folders_ignore_files_and_git_index_hold() {
    let repo = records_repo();
    repo.write(".gitignore", "*.tmp\n")
        .write("src/ghost.tmp", "// @adr 12\n")
        .write("src/kept.rs", "// @adr 1\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Ignore tmp files");
    repo.write("src/new.rs", "// @adr 3\n");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_same(&repo, "stored", &["check", "--json"]);
    // Plant an ignored file in the stored walk: only an answer served from it shows it.
    doctor_walk(&repo, |w| {
        w.walk.files.push(context_graph::fs::Found {
            rel: "src/ghost.tmp".into(),
            link: false,
        });
        w.walk.files.sort();
    });
    assert_eq!(
        declared(&repo, "."),
        [
            ("ADR-0001".to_string(), vec!["src/kept.rs:1".to_string()]),
            ("ADR-0003".to_string(), vec!["src/new.rs:1".to_string()]),
            ("ADR-0012".to_string(), vec!["src/ghost.tmp:1".to_string()]),
        ],
        "the stored walk is served while nothing it depended on changed"
    );
    // An ignore file changed: walked again.
    repo.write(".gitignore", "*.tmp\n*.bak\n");
    assert_same(&repo, "an ignore file edited", &["why", ".", "--json"]);
    doctor_walk(&repo, |w| {
        w.walk.files.push(context_graph::fs::Found {
            rel: "src/ghost.tmp".into(),
            link: false,
        });
        w.walk.files.sort();
    });
    // git's index changed (a file no longer tracked, still there): walked again.
    repo.git(&["rm", "-q", "--cached", "src/kept.rs"]);
    assert_same(&repo, "a file untracked", &["why", ".", "--json"]);
    assert_eq!(
        declared(&repo, "."),
        [
            ("ADR-0001".to_string(), vec!["src/kept.rs:1".to_string()]),
            ("ADR-0003".to_string(), vec!["src/new.rs:1".to_string()]),
        ]
    );
    // A new untracked file: its folder changed, walked again.
    repo.write("src/later.rs", "// @adr 12\n");
    assert_same(&repo, "a new untracked file", &["check", "--json"]);
    assert_eq!(declared(&repo, "src/later.rs").len(), 1);
}

#[test]
fn what_git_index_declares_is_kept_by_its_checksum() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 3\nfn a() {}\n")
        .write("src/b.rs", "fn b() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "a and b");
    let q = ["record", "ADR-0003", "--git", "--json"];
    let drift = |repo: &GitRepo| -> Vec<String> {
        let doc = super::json(repo, &q[..3]);
        crate::fixture::column(
            &crate::fixture::record(&doc, "ADR-0003")["drift"]["commits"],
            "subject",
        )
    };
    assert_same(&repo, "stored", &q);
    assert_eq!(drift(&repo), ["a and b"]);
    // Plant another file in the stored answer: only an answer served from it counts it.
    repo.write("src/b.rs", "fn b() { 2 }\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ben", "b only");
    assert_same(&repo, "a new commit", &q);
    {
        let file = repo.index_file().with_extension("staged");
        let bytes = std::fs::read(&file).expect("the staged file beside the index");
        let (mut head, blobs): (schema::StagedHead, Vec<u8>) =
            codec::decode(&bytes).expect("decode");
        head.markers
            .files
            .push(context_graph::text::marker::FileMarkers {
                path: "src/b.rs".into(),
                markers: vec![context_graph::text::marker::Marker {
                    line: 1,
                    id: "ADR-0003".into(),
                }],
            });
        std::fs::write(&file, codec::encode(&(head, blobs))).expect("write it back");
    }
    assert_eq!(
        drift(&repo),
        ["b only", "a and b"],
        "the stored answer is served while git's index has the same checksum"
    );
    // git's index changes: found again, from the blobs.
    repo.write("src/c.rs", "fn c() {}\n");
    repo.git(&["add", "src/c.rs"]);
    assert_same(&repo, "git's index changed", &q);
    assert_eq!(drift(&repo), ["a and b"]);
}
