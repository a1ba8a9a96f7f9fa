//! A durable index (ADR-0006, ADR-0011), through the binary: a first build is written beside
//! and renamed, so a full disk at any of its writes leaves no partial file and the answer still
//! comes from a scan; the seal is written only once the file is synced; and bytes changed under
//! a matching seal (bit rot, a write lost to a power cut) never give a wrong answer.

use crate::env::Run;
use crate::git::GitRepo;
use crate::index_faults::{assert_answer, generated, overwrite, truth, WHY};
use std::path::{Path, PathBuf};

/// The other query the damaged files are asked.
const CHECK: &[&str] = &["check", "--git", "--json"];

/// The failpoints variable (debug builds only; the tests' builds are).
const FAILPOINTS: &str = context_graph::util::faults::VAR;

fn failing(repo: &GitRepo, args: &[&str], site: &str, n: usize) -> Run {
    repo.run_with(args, &[(FAILPOINTS, &format!("{site}={n}"))])
}

/// The files in the index's folder, by name.
fn index_folder(repo: &GitRepo) -> Vec<String> {
    let dir = repo.index_file().parent().expect("a folder").to_path_buf();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn seal_file(repo: &GitRepo) -> PathBuf {
    repo.index_file().with_extension("seal")
}

#[test]
fn a_first_build_on_a_full_disk_leaves_no_partial_file_and_answers_from_a_scan() {
    let repo = generated(60);
    let want = truth(&repo, WHY);
    let sites: &[(&str, &[usize])] = &[
        ("redb", &[1, 2, 5, 20, 60]),
        ("rename", &[1]),
        ("sync", &[1, 2]),
    ];
    for (site, counts) in sites {
        for &n in *counts {
            let what = format!("a first build with `{site}` failing from write {n}");
            std::fs::remove_dir_all(repo.index_file().parent().unwrap()).ok();
            let got = failing(&repo, WHY, site, n);
            assert_answer(&what, &got, &want);
            let left = index_folder(&repo);
            if got.stderr.is_empty() {
                // Past its writes: nothing failed, and the index is in place, sealed.
                assert!(n > 1, "{what}: the first write cannot pass");
                assert!(repo.index_file().is_file(), "{what}: {left:?}");
                continue;
            }
            assert!(
                got.stderr.contains("no space left on device")
                    && got.stderr.contains("answered from a scan"),
                "{what}: says why, once: {}",
                got.stderr
            );
            assert!(
                !left
                    .iter()
                    .any(|f| f.starts_with("index.redb") || f == "index.seal"),
                "{what}: a partial index file was left behind: {left:?}"
            );
            // The disk freed: the next query builds the index and answers from it.
            let next = repo.run(WHY);
            assert_answer(&format!("{what}: the query after"), &next, &want);
            assert!(next.stderr.is_empty(), "{what}: {}", next.stderr);
            assert_eq!(repo.index_status()["fresh"], true, "{what}");
        }
    }
}

#[test]
fn an_update_whose_sync_fails_leaves_no_seal_vouching_for_it() {
    let repo = generated(60);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    assert!(seal_file(&repo).is_file(), "the build is sealed");
    repo.write("src/d1/f1.rs", "changed\n");
    repo.commit_at("2030-02-01T00:00:00Z", "Dev", "A change (ADR-0001)");
    let out = failing(&repo, &["index"], "sync", 1);
    assert_eq!(out.code, Some(2), "{}", out.describe());
    assert!(
        out.stderr.contains("no space left on device"),
        "{}",
        out.stderr
    );
    // Written but not known to be on the disk: nothing vouches for it.
    assert_eq!(repo.index_status()["fresh"], false);
    let want = truth(&repo, WHY);
    let got = repo.run(WHY);
    assert_answer("the query after a failed sync", &got, &want);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    assert_eq!(repo.index_status()["fresh"], true);
}

/// Writes the seal for the index file at `index` as it is now, as the tool writes it: a seal
/// that matches a file whose bytes changed without the tool (bit rot, a lost write).
fn reseal(index: &Path) {
    use std::os::unix::fs::MetadataExt;
    let seal = index.with_extension("seal");
    let text = std::fs::read_to_string(&seal).expect("a seal");
    let made_by = text.lines().next().expect("the seal's first line");
    let m = std::fs::metadata(index).expect("the index");
    let fresh = format!(
        "{made_by}\n{} {} {} {}\n",
        m.len(),
        m.mtime() * 1_000_000_000 + m.mtime_nsec(),
        m.ctime() * 1_000_000_000 + m.ctime_nsec(),
        m.ino()
    );
    std::fs::write(&seal, fresh).expect("write the seal");
}

/// Deterministic offsets in `0..len`.
fn offsets(seed: u64, n: usize, len: u64) -> Vec<u64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s % len
        })
        .collect()
}

/// The file's damage cases: each offset where ADR-0002 is spelled, its `A` read as `C` (what
/// a fault sweep once got back as an answer), then, seed by seed, four bits flipped among the
/// bytes in use (not zero: the pages that hold something).
fn damage_cases(pristine: &[u8], seeds: u64) -> Vec<Vec<(usize, u8)>> {
    let mut cases: Vec<Vec<(usize, u8)>> = pristine
        .windows(8)
        .enumerate()
        .filter(|(_, w)| *w == b"ADR-0002")
        .map(|(at, _)| vec![(at, b'C')])
        .collect();
    let used: Vec<usize> = (0..pristine.len()).filter(|&i| pristine[i] != 0).collect();
    for seed in 0..seeds {
        let flips = offsets(seed, 4, used.len() as u64)
            .into_iter()
            .enumerate()
            .map(|(k, i)| {
                let at = used[i as usize];
                (at, pristine[at] ^ (1 << (k % 8)))
            })
            .collect();
        cases.push(flips);
    }
    cases
}

#[test]
fn bytes_changed_under_a_matching_seal_never_give_a_wrong_answer() {
    let repo = generated(120);
    let want = truth(&repo, WHY);
    let want_check = truth(&repo, CHECK);
    assert_answer("the first build", &repo.run(WHY), &want);
    // Warm: the answer now comes from the stored memo and history.
    assert_answer("the warm query", &repo.run(WHY), &want);
    let path = repo.index_file();
    let pristine = std::fs::read(&path).expect("the index");
    let cases = damage_cases(&pristine, 80);
    assert!(cases.len() > 80, "ADR-0002 is spelled in the index");
    let mut caught = 0;
    for (case, flips) in cases.iter().enumerate() {
        // Back to the pristine file (a rebuild made another), then changed in place (the same
        // inode) and sealed as if the tool had left it so.
        std::fs::remove_file(&path).ok();
        std::fs::write(&path, &pristine).expect("restore the index");
        for &(at, byte) in flips {
            overwrite(&path, at as u64, &[byte]);
        }
        reseal(&path);
        let what = format!("case {case} ({flips:?})");
        // Every other case asks `check --git` (the whole history, every record).
        let (query, want) = match case % 2 {
            0 => (WHY, &want),
            _ => (CHECK, &want_check),
        };
        let got = repo.run(query);
        assert_answer(&what, &got, want);
        if !got.stderr.is_empty() {
            caught += 1;
            assert!(
                got.stderr.contains("damaged") || got.stderr.contains("scan"),
                "{what}: says what it found: {}",
                got.stderr
            );
        }
        let again = repo.run(query);
        assert_answer(&format!("{what}, the query after"), &again, want);
    }
    eprintln!(
        "{caught} of {} damaged files were caught while read",
        cases.len()
    );
}
