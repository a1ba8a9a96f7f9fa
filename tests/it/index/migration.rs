//! Index files made by older versions and histories whose depth changes: the version-1 index
//! fixture (fixtures/index/v1/README.md) taken through the migration path, and a shallow clone
//! deepened and unshallowed, each answered like a scan.

use super::{assert_same, write_auth_records, ADR2, QUERIES};
use crate::env::no_index;
use crate::fixture::{adr, column, fixture_dir, record};
use crate::git::GitRepo;
use redb::{ReadableDatabase, TableHandle};
use serde_json::Value;
use std::path::{Path, PathBuf};

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::schema;

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
    let version = context_graph::index::migrations::version(&db).expect("the version");
    (tables, version)
}

/// Takes a file of this schema back to schema 6's values: each checked value (schema 7) kept
/// without its checksum, `meta` too, the version 6. A file as an older build left it.
pub(crate) fn to_schema_6(path: &Path) {
    use redb::{ReadableTable, TableDefinition};
    type Plain<'a, K> = TableDefinition<'a, K, &'static [u8]>;
    let db = redb::Database::create(path).expect("open the index");
    let txn = db.begin_write().expect("write");
    for name in ["meta", "records", "guides", "markers", "walks"] {
        let checked: TableDefinition<&str, schema::Checked> = TableDefinition::new(name);
        let entries: Vec<(String, Vec<u8>)> = txn
            .open_table(checked)
            .expect("a checked table")
            .iter()
            .expect("read")
            .map(|e| {
                let (k, v) = e.expect("an entry");
                (k.value().to_string(), v.value().to_vec())
            })
            .collect();
        txn.delete_table(checked).expect("drop");
        let mut plain = txn.open_table(Plain::<&str>::new(name)).expect("a table");
        for (k, v) in &entries {
            plain.insert(k.as_str(), v.as_slice()).expect("insert");
        }
    }
    for name in ["commits", "commit_changes", "graph"] {
        let checked: TableDefinition<u32, schema::Checked> = TableDefinition::new(name);
        let entries: Vec<(u32, Vec<u8>)> = txn
            .open_table(checked)
            .expect("a checked table")
            .iter()
            .expect("read")
            .map(|e| {
                let (k, v) = e.expect("an entry");
                (k.value(), v.value().to_vec())
            })
            .collect();
        txn.delete_table(checked).expect("drop");
        let mut plain = txn.open_table(Plain::<u32>::new(name)).expect("a table");
        for (k, v) in &entries {
            plain.insert(*k, v.as_slice()).expect("insert");
        }
    }
    for name in ["paths", "mentions"] {
        let checked: TableDefinition<(&str, u32), schema::Checked> = TableDefinition::new(name);
        let entries: Vec<(String, u32, Vec<u8>)> = txn
            .open_table(checked)
            .expect("a checked table")
            .iter()
            .expect("read")
            .map(|e| {
                let (k, v) = e.expect("an entry");
                let (key, n) = k.value();
                (key.to_string(), n, v.value().to_vec())
            })
            .collect();
        txn.delete_table(checked).expect("drop");
        let mut plain = txn
            .open_table(Plain::<(&str, u32)>::new(name))
            .expect("a table");
        for (k, n, v) in &entries {
            plain
                .insert((k.as_str(), *n), v.as_slice())
                .expect("insert");
        }
    }
    txn.open_table(Plain::<&str>::new("meta"))
        .expect("meta")
        .insert(schema::KEY_VERSION, 6u32.to_le_bytes().as_slice())
        .expect("version 6");
    txn.commit().expect("commit");
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
/// `cargo test --test it -- --ignored --exact index::migration::make_the_v1_fixture_source`,
/// then `cargo run --example make_v1_index -- fixtures/index/v1/index.redb`.
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

/// Migrating walks the history once more, as schema 9 asks (each commit's sizes are read
/// from git, migrations/v9_change_sizes.rs), and then never again: `index` on the version-1
/// fixture adds every commit HEAD reaches, and the next `index` none.
#[test]
fn migrating_a_version_1_index_walks_the_history_once_for_its_sizes() {
    let repo = v1_repo();
    assert_eq!(repo.head(), expected_v1_head());
    let target = repo.index_file();
    std::fs::create_dir_all(target.parent().unwrap()).expect("make .git/context-graph");
    std::fs::copy(v1_dir().join("index.redb"), &target).expect("copy the fixture");
    let out = repo.run(&["index", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let summary: Value = out.json();
    let reached: u64 = repo
        .git(&["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .expect("a count");
    assert_eq!(summary["commits_added"], reached, "{summary:#}");
    let again: Value = repo.run(&["index", "--json"]).json();
    assert_eq!(again["commits_added"], 0, "{again:#}");
    assert_eq!(
        tables_and_version(&target).1,
        schema::SCHEMA_VERSION,
        "index migrated the file"
    );
    assert_same(&repo, "migrated", &["check", "--git", "--json"]);
}

#[test]
fn a_schema_6_index_gets_checked_values_and_answers_like_a_scan() {
    let repo = GitRepo::new();
    write_auth_records(&repo);
    repo.commit_at("2025-03-03T10:00:00Z", "Ana", "Tokens (ADR-0001)");
    assert_eq!(repo.run(&["index"]).code, Some(0));
    let target = repo.index_file();
    to_schema_6(&target);
    assert_eq!(tables_and_version(&target).1, 6);
    assert_eq!(repo.index_status()["schema_version"], 6);
    for query in QUERIES {
        let migrated = repo.run(query);
        assert!(
            !migrated.stderr.contains("scan") && !migrated.stderr.contains("rebuilt"),
            "{query:?}: the schema-6 file was not migrated but dropped or bypassed:\n{}",
            migrated.stderr
        );
        let scanned = repo.run(&no_index(query));
        assert_eq!(migrated.stdout(), scanned.stdout(), "{query:?}");
        assert_eq!(migrated.code, scanned.code, "{query:?}");
    }
    assert_eq!(tables_and_version(&target).1, schema::SCHEMA_VERSION);
    assert_eq!(
        repo.index_status()["schema_version"],
        schema::SCHEMA_VERSION
    );
}
