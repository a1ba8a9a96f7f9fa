//! The redb index under faults (docs/indexing.md, ADR-0006), through the binary: several
//! processes at once, an index held busy, a corrupted or truncated file, a build killed part
//! way, a newer schema version, and a git dir where the index cannot be written. Whatever
//! happens, every answer equals the `--no-index` answer, and nothing hangs.

use crate::env::{no_index, Run, Running, REPO_TIMEOUT};
use crate::git::{FastImport, GitRepo};
use redb::{ReadableDatabase, ReadableTableMetadata};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::schema;

/// The query most tests ask: a governed path, with history.
pub(crate) const WHY: &[&str] = &["why", "src/d1/f1.rs", "--git", "--json"];

/// The `--no-index` answer, which must succeed.
pub(crate) fn truth(repo: &GitRepo, query: &[&str]) -> Run {
    let out = repo.run(&no_index(query));
    assert_eq!(
        out.code,
        Some(0),
        "{query:?} --no-index failed:\n{}",
        out.stderr
    );
    out
}

pub(crate) fn assert_answer(what: &str, got: &Run, want: &Run) {
    assert_eq!(
        got.code, want.code,
        "{what}: exit code {:?} (--no-index: {:?})\nstderr:\n{}",
        got.code, want.code, got.stderr
    );
    assert!(
        got.stdout == want.stdout,
        "{what}: the answer differs from --no-index\n--- got ---\n{}\n--- --no-index ---\n{}\n--- stderr ---\n{}",
        got.stdout(),
        want.stdout(),
        got.stderr
    );
}

/// Status works, reports our schema, and the index holds HEAD.
fn assert_healthy(repo: &GitRepo, what: &str) {
    let s = repo.index_status();
    assert_eq!(s["schema_version"], schema::SCHEMA_VERSION, "{what}: {s:#}");
    assert_eq!(s["indexed_head"], repo.head().as_str(), "{what}: {s:#}");
    assert_eq!(s["head"], repo.head().as_str(), "{what}: {s:#}");
}

// ----- generated histories -----

/// A `git fast-import` stream of `n` commits on `main`, starting at step `from`: each touches
/// one to three of 100 files under `src/d0/` … `src/d19/`, every seventh cites ADR-0001, and a
/// two-commit side branch is merged every 50 commits. The first stream (`from == 0`) adds the
/// records and every file; a later one continues `main`.
///
/// Not `history::long_history_stream`: this one is about what the index stores (two records
/// that govern the files, citing messages, and a history extended in steps for the update
/// tests); that one is about what the walk sees (deletions, record renames, a README change on
/// each merge). Both write their stream with `FastImport`.
fn history_stream(from: usize, n: usize) -> String {
    let mut seed: u64 = 7 + from as u64;
    let mut rand = |m: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % m
    };
    let file = FastImport::file;
    let mut out = FastImport::new();
    let commit = |out: &mut FastImport,
                  branch: &str,
                  parent: &str,
                  merge: Option<usize>,
                  t: usize,
                  msg: &str,
                  changes: &[String]| {
        let reference = format!("refs/heads/{branch}");
        let parent = (!parent.is_empty()).then_some(parent);
        let time = 1_700_000_000 + t * 600;
        out.commit(
            &reference,
            "Dev <dev@example.com>",
            time,
            msg,
            parent,
            merge,
            changes,
        )
    };
    let mut t = from;
    let mut main = if from == 0 {
        let mut changes = vec![
            file(
                "docs/adr/0001-tokens.md",
                "# 1. Tokens\n\nStatus: Accepted\n\nDate: 2023-11-20\n\nThe code is `src/d1/`.\n",
            ),
            file(
                "docs/adr/0002-login.md",
                "# 2. Login\n\nStatus: Accepted\n\nThe form is `src/d1/f1.rs`, see ADR-0001.\n",
            ),
            file("README.md", "# Generated\n\nSee ADR-0002.\n"),
        ];
        for d in 0..20 {
            for f in 0..5 {
                changes.push(file(&format!("src/d{d}/f{f}.rs"), "0"));
            }
        }
        t += 1;
        commit(&mut out, "main", "", None, 0, "Start", &changes)
    } else {
        0
    };
    let parent_of = |m: usize| {
        if m == 0 {
            "refs/heads/main^0".to_string()
        } else {
            format!(":{m}")
        }
    };
    while t < from + n {
        if t % 50 == 25 && t + 3 <= from + n {
            let mut side = main;
            for _ in 0..2 {
                let path = format!("src/d{}/side.rs", rand(20));
                let body = t.to_string();
                side = commit(
                    &mut out,
                    "side",
                    &parent_of(side),
                    None,
                    t,
                    &format!("Side {t}"),
                    &[file(&path, &body)],
                );
                t += 1;
            }
            main = commit(
                &mut out,
                "main",
                &parent_of(main),
                Some(side),
                t,
                &format!("Merge side at {t} (ADR-0001)"),
                &[],
            );
            t += 1;
            continue;
        }
        let mut changes = Vec::new();
        for _ in 0..=rand(3) {
            let path = format!("src/d{}/f{}.rs", rand(20), rand(5));
            changes.push(file(&path, &format!("{t} {}", rand(1000))));
        }
        let msg = if t.is_multiple_of(7) {
            format!("Commit {t} for ADR-0001")
        } else {
            format!("Commit {t}")
        };
        main = commit(&mut out, "main", &parent_of(main), None, t, &msg, &changes);
        t += 1;
    }
    out.finish()
}

/// A repository with a generated history of `n` commits.
pub(crate) fn generated(n: usize) -> GitRepo {
    let repo = GitRepo::new();
    repo.fast_import(&history_stream(0, n));
    repo
}

/// Adds `n` more commits on `main`, continuing from step `from`.
fn extend(repo: &GitRepo, from: usize, n: usize) {
    repo.fast_import(&history_stream(from, n));
}

// ----- concurrency -----

#[test]
fn several_processes_at_once_answer_like_a_scan_and_never_hang() {
    let repo = generated(800);
    let rounds: [(&str, &str); 3] = [
        ("a cold index", "3000"),
        ("after new commits and a record edit", "3000"),
        ("with no waiting (busy means a scan)", "0"),
    ];
    for (round, (what, wait)) in rounds.iter().enumerate() {
        match round {
            1 => {
                extend(&repo, 800, 40);
                repo.write(
                    "docs/adr/0002-login.md",
                    "# 2. Login\n\nStatus: Proposed\n\nThe form is `src/d1/f1.rs` and `src/d2/`.\n",
                );
            }
            2 => extend(&repo, 840, 40),
            _ => {}
        }
        let want = truth(&repo, WHY);
        let env = [("CONTEXT_GRAPH_INDEX_WAIT_MS", *wait)];
        let runs: Vec<Running> = (0..8)
            .map(|i| {
                if i % 4 == 3 {
                    repo.spawn(&["index"], &env)
                } else {
                    repo.spawn(WHY, &env)
                }
            })
            .collect();
        let deadline = Instant::now() + REPO_TIMEOUT;
        let outs: Vec<(String, Run)> = runs
            .into_iter()
            .map(|r| {
                let out = r.finish_by(deadline);
                out.assert_finished();
                (out.args.join(" "), out)
            })
            .collect();
        for (i, (cmd, out)) in outs.iter().enumerate() {
            let label = format!("{what}: process {i} ({cmd})");
            if cmd == "index" {
                // A busy index may make `index` give up; it must say so, never crash.
                assert!(
                    out.code == Some(0) || (out.code == Some(2) && out.stderr.contains("busy")),
                    "{label}: exit {:?}\n{}",
                    out.code,
                    out.stderr
                );
                assert!(
                    out.code == Some(0) || *wait == "0",
                    "{label}: gave up within the 3 s wait:\n{}",
                    out.stderr
                );
            } else {
                assert_answer(&label, out, &want);
            }
        }
        // The index is whole afterwards.
        let again = repo.run(WHY);
        assert_answer(&format!("{what}: the query after"), &again, &want);
        assert!(
            again.stderr.is_empty(),
            "{what}: the index is not healthy after the concurrent runs:\n{}",
            again.stderr
        );
        assert_healthy(&repo, what);
    }
}

/// While `index` builds a long history, a query that may wait only 100 ms answers from a scan,
/// says the index is busy, and does not wait for the build. The build is held still at its
/// first write to the index (the debug builds' `stall` failpoint, noted in a trace the test
/// waits for), so the questions are asked while it holds the index however fast it would be.
#[test]
fn a_busy_index_makes_a_query_answer_from_a_scan_in_bounded_time() {
    let repo = generated(3000);
    let want_why = truth(&repo, WHY);
    let check: &[&str] = &["check", "--json"];
    let want_check = truth(&repo, check);
    let env = [("CONTEXT_GRAPH_INDEX_WAIT_MS", "100")];
    let trace = tempfile::tempdir().expect("trace folder");
    let stalled = trace.path().join("stall");
    std::fs::remove_file(repo.index_file()).ok();
    let mut indexer = repo.spawn(
        &["index"],
        &[
            (context_graph::util::faults::VAR, "redb=stall@1"),
            (
                context_graph::util::faults::TRACE_VAR,
                trace.path().to_str().expect("UTF-8"),
            ),
        ],
    );
    wait_for_stall(&mut indexer, &stalled);

    // Both questions asked at once, while the build holds the index; then it may go on.
    let why_running = repo.spawn(WHY, &env);
    let started = Instant::now();
    let quick = repo.run_with(check, &env);
    let took = started.elapsed();
    let why = why_running.finish();
    assert!(indexer.running(), "the build ended while it was held");
    std::fs::remove_file(&stalled).expect("let the build go on");
    assert_answer("check while indexing", &quick, &want_check);
    assert!(
        quick.stderr.contains("busy"),
        "a query asked while the build held the index did not say it was busy:\n{}",
        quick.stderr
    );
    assert_eq!(
        quick.stderr.lines().count(),
        1,
        "said once: {}",
        quick.stderr
    );
    // It gave up after its 100 ms, not waiting for the build.
    assert!(took < Duration::from_secs(30), "a busy query took {took:?}");
    assert_answer("why --git while indexing", &why, &want_why);
    assert!(
        why.stderr.contains("busy") && why.stderr.contains("scan"),
        "says the index is busy and it answered from a scan: {}",
        why.stderr
    );
    let built = indexer.finish();
    assert_eq!(built.code, Some(0), "index: {}", built.stderr);
    let after = repo.run(WHY);
    assert_answer("after the build", &after, &want_why);
    assert!(after.stderr.is_empty(), "{}", after.stderr);
}

/// Waits until `process` stands still at its `stall` failpoint (its trace `stalled` is there).
fn wait_for_stall(process: &mut Running, stalled: &Path) {
    let waited = Instant::now();
    while !stalled.exists() {
        assert!(
            process.running() && waited.elapsed() < Duration::from_secs(60),
            "the build never reached the write it was to stand still at"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

// ----- a killed build -----

#[test]
fn a_build_killed_part_way_leaves_an_index_that_answers_right() {
    let repo = generated(3000);
    let want = truth(&repo, WHY);

    // A first build, killed part way: held at its second write to the index (the debug
    // builds' `stall` failpoint), however fast it would be, and killed there.
    let trace = tempfile::tempdir().expect("trace folder");
    let mut indexer = repo.spawn(
        &["index"],
        &[
            (context_graph::util::faults::VAR, "redb=stall@2"),
            (
                context_graph::util::faults::TRACE_VAR,
                trace.path().to_str().expect("UTF-8"),
            ),
        ],
    );
    wait_for_stall(&mut indexer, &trace.path().join("stall"));
    assert!(indexer.running(), "the build ended before it was killed");
    indexer.kill();
    let got = repo.run(WHY);
    assert_answer("the query after a killed first build", &got, &want);
    assert_healthy(&repo, "after a killed first build");
    let healthy = repo.run(WHY);
    assert_answer("the second query", &healthy, &want);
    assert!(healthy.stderr.is_empty(), "{}", healthy.stderr);

    // Updates on top of a complete index, killed at different points.
    let mut from = 3000;
    for delay in [300u64, 700] {
        extend(&repo, from, 1000);
        from += 1000;
        let want = truth(&repo, WHY);
        let indexer = repo.spawn(&["index"], &[]);
        std::thread::sleep(Duration::from_millis(delay));
        indexer.kill();
        let got = repo.run(WHY);
        assert_answer(
            &format!("the query after an update killed at {delay} ms"),
            &got,
            &want,
        );
        assert_healthy(&repo, &format!("after an update killed at {delay} ms"));
        let s = repo.index_status();
        let commits: u64 = repo
            .git(&["rev-list", "--count", "--all"])
            .trim()
            .parse()
            .expect("a count");
        assert_eq!(s["commits"], commits, "{s:#}");
    }
}

// ----- a damaged file -----

/// A small indexed repository, its `--no-index` answer, and the index file.
fn indexed_repo() -> (GitRepo, Run, PathBuf) {
    let repo = generated(200);
    let want = truth(&repo, WHY);
    let first = repo.run(WHY);
    assert_answer("the first indexed query", &first, &want);
    assert!(first.stderr.is_empty(), "{}", first.stderr);
    let path = repo.index_file();
    assert!(path.is_file());
    (repo, want, path)
}

/// After damaging the file: the next query answers right and says it rebuilt the index (or
/// answered from a scan); the one after uses a healthy index.
fn assert_recovers(repo: &GitRepo, want: &Run, damage: &str) {
    let got = repo.run(WHY);
    assert_answer(&format!("the query after {damage}"), &got, want);
    assert!(
        got.stderr.contains("rebuilt") || got.stderr.contains("scan"),
        "after {damage}, stderr should say the index was rebuilt (or the answer came from a \
         scan), but it said:\n{:?}",
        got.stderr
    );
    let next = repo.run(WHY);
    assert_answer(&format!("the second query after {damage}"), &next, want);
    assert!(
        next.stderr.is_empty(),
        "after {damage}, the second query should use a healthy index, but stderr said:\n{}",
        next.stderr
    );
    assert_healthy(repo, damage);
}

/// Deterministic garbage.
pub(crate) fn garbage(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 56) as u8
        })
        .collect()
}

pub(crate) fn overwrite(path: &Path, at: u64, bytes: &[u8]) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open the index");
    f.seek(SeekFrom::Start(at)).expect("seek");
    f.write_all(bytes).expect("write garbage");
}

#[test]
fn garbage_inside_the_file_is_detected_and_rebuilt() {
    let (repo, want, path) = indexed_repo();
    let len = std::fs::metadata(&path).unwrap().len();
    let mut at = 4096;
    while at + 512 < len {
        overwrite(&path, at, &garbage(512, at));
        at += 8192;
    }
    assert_recovers(&repo, &want, "garbage written over the file's pages");
}

#[test]
fn garbage_over_the_header_is_detected_and_rebuilt() {
    let (repo, want, path) = indexed_repo();
    overwrite(&path, 0, &garbage(4096, 1));
    assert_recovers(&repo, &want, "garbage written over the file's header");
}

#[test]
fn a_file_truncated_to_half_is_detected_and_rebuilt() {
    let (repo, want, path) = indexed_repo();
    let len = std::fs::metadata(&path).unwrap().len();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open");
    f.set_len(len / 2).expect("truncate");
    drop(f);
    assert_recovers(&repo, &want, "truncating the file to half");
}

#[test]
fn a_file_truncated_to_nothing_is_detected_and_rebuilt() {
    let (repo, want, path) = indexed_repo();
    std::fs::write(&path, b"").expect("truncate to 0 bytes");
    assert_recovers(&repo, &want, "truncating the file to 0 bytes");
}

// ----- a newer schema -----

fn schema_version(path: &Path) -> u32 {
    let db = redb::Database::create(path).expect("open the index");
    let txn = db.begin_read().expect("read");
    let meta = txn.open_table(schema::META).expect("meta");
    let v = meta
        .get(schema::KEY_VERSION)
        .expect("read the version")
        .expect("a version");
    u32::from_le_bytes(v.value()[..4].try_into().expect("four bytes"))
}

fn stored_commits(path: &Path) -> u64 {
    let db = redb::Database::create(path).expect("open the index");
    let txn = db.begin_read().expect("read");
    let commits = txn.open_table(schema::COMMITS).expect("commits");
    commits.len().expect("count")
}

#[test]
fn a_newer_schema_is_refused_clearly_and_left_alone() {
    let (repo, want, path) = indexed_repo();
    {
        let db = redb::Database::create(&path).expect("open the index");
        let txn = db.begin_write().expect("write");
        {
            let mut meta = txn.open_table(schema::META).expect("meta");
            meta.insert(schema::KEY_VERSION, 99u32.to_le_bytes().as_slice())
                .expect("set the version");
        }
        txn.commit().expect("commit");
    }
    let commits_before = stored_commits(&path);
    assert!(commits_before > 0);

    let got = repo.run(WHY);
    assert_answer("a query on a newer index", &got, &want);
    assert!(
        got.stderr.contains("99") && got.stderr.contains("newer"),
        "the message names the newer version: {:?}",
        got.stderr
    );
    assert_eq!(got.stderr.lines().count(), 1, "said once: {}", got.stderr);

    let plain = repo.run(&no_index(WHY));
    assert_answer("--no-index on a newer index", &plain, &want);
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);

    let index = repo.run(&["index"]);
    assert_eq!(
        index.code,
        Some(2),
        "`index` refuses a newer index: {}",
        index.stderr
    );
    assert!(
        index.stderr.contains("99") && index.stderr.contains("newer"),
        "{:?}",
        index.stderr
    );

    assert_eq!(schema_version(&path), 99, "the newer file was overwritten");
    assert_eq!(
        stored_commits(&path),
        commits_before,
        "the newer file's contents were changed"
    );
}

// ----- a git dir the index cannot be written in -----

fn assert_scans_and_says_so_once(repo: &GitRepo, what: &str) {
    for query in [
        WHY,
        &["check", "--json"][..],
        &["record", "ADR-0001", "--git", "--json"],
    ] {
        let want = truth(repo, query);
        let got = repo.run(query);
        assert_answer(&format!("{what}: {query:?}"), &got, &want);
        let notes: Vec<&str> = got.stderr.lines().collect();
        assert_eq!(
            notes.len(),
            1,
            "{what}: {query:?} says once that it answered from a scan: {:?}",
            got.stderr
        );
        assert!(notes[0].contains("scan"), "{what}: {:?}", notes[0]);
    }
}

#[test]
fn a_git_dir_where_the_index_cannot_be_made_answers_from_a_scan() {
    let repo = generated(100);
    let dir = repo.path().join(".git").join("context-graph");
    std::fs::remove_dir_all(&dir).ok();
    // A file where the folder should be: the folder can't be made, even by root.
    std::fs::write(&dir, b"not a folder").expect("write the blocker");
    assert_scans_and_says_so_once(&repo, "`.git/context-graph` is a file");
    assert_eq!(std::fs::read(&dir).unwrap(), b"not a folder");
}

#[test]
fn a_read_only_index_folder_answers_from_a_scan() {
    use std::os::unix::fs::PermissionsExt;
    let repo = generated(100);
    let dir = repo.path().join(".git").join("context-graph");
    std::fs::create_dir_all(&dir).expect("make the folder");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let probe = dir.join("probe");
    if std::fs::write(&probe, b"").is_ok() {
        // Root writes anyway: the file test above covers this case.
        std::fs::remove_file(&probe).ok();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).ok();
        crate::skip::skipped("permissions do not stop this user from writing");
        return;
    }
    assert_scans_and_says_so_once(&repo, "a read-only `.git/context-graph`");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).ok();
}
