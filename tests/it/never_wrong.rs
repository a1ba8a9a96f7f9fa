//! Never a wrong answer (ADR-0011): a query racing `index --rebuild` (many rounds), a damaged
//! index file (many seeds), a full disk (a failpoint at every write site), a fresh clone and a
//! repository with no commits reported fresh, and FIFOs where the tool's side files belong.
//! Every answer equals the `--no-index` answer, byte for byte.

use crate::env::Run;
#[cfg(unix)]
use crate::fixture::mkfifo;
use crate::git::GitRepo;
use crate::index_faults::{assert_answer, garbage, generated, overwrite, truth, WHY};

/// `record` with history: the query that once listed the newest commit twice.
const RECORD: &[&str] = &["record", "ADR-0001", "--git", "--json"];

/// The failpoints variable (debug builds only; the tests' builds are).
const FAILPOINTS: &str = context_graph::util::faults::VAR;

/// A new commit on `src/d1/f1.rs` (governed by ADR-0001), round `i`.
fn new_commit(repo: &GitRepo, i: usize) {
    repo.write("src/d1/f1.rs", &format!("{i}\n"));
    repo.commit_at("2030-02-01T00:00:00Z", "Dev", &format!("Round {i}"));
}

/// Runs `query` while `index --rebuild` runs beside it; the rebuild must succeed.
fn beside_a_rebuild(repo: &GitRepo, query: &[&str]) -> Run {
    let rebuild = repo.spawn(&["index", "--rebuild"], &[]);
    let got = repo.run(query);
    let rebuilt = rebuild.finish();
    assert_eq!(
        rebuilt.code,
        Some(0),
        "index --rebuild: {}",
        rebuilt.describe()
    );
    got
}

#[test]
fn a_query_racing_a_rebuild_right_after_a_new_commit_answers_as_the_scan() {
    let repo = generated(40);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    for i in 0..100 {
        new_commit(&repo, i);
        let want = truth(&repo, RECORD);
        let got = beside_a_rebuild(&repo, RECORD);
        assert_answer(&format!("round {i}"), &got, &want);
    }
}

#[test]
fn a_query_racing_a_rebuild_with_nothing_new_answers_as_the_scan() {
    let repo = generated(40);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    let want = truth(&repo, RECORD);
    for i in 0..100 {
        let got = beside_a_rebuild(&repo, RECORD);
        assert_answer(&format!("round {i}"), &got, &want);
    }
}

/// `index --status --json` prints its document (exit 0) whatever the file holds.
fn assert_status_prints(repo: &GitRepo, what: &str) -> serde_json::Value {
    let out = repo.run(&["index", "--status", "--json"]);
    assert_eq!(out.code, Some(0), "{what}: {}", out.describe());
    let doc = out.json();
    assert!(doc["fresh"].is_boolean(), "{what}: {doc:#}");
    doc
}

#[test]
fn flipped_bytes_in_the_index_are_detected_for_every_seed() {
    let repo = generated(120);
    let want = truth(&repo, WHY);
    assert_answer("the first build", &repo.run(WHY), &want);
    let path = repo.index_file();
    let pristine = std::fs::read(&path).expect("the index");
    let len = pristine.len() as u64;
    for seed in 0..50u64 {
        std::fs::write(&path, &pristine).expect("restore the index");
        let at = garbage(64, seed);
        for k in 0..8 {
            let word = u64::from_le_bytes(at[k * 8..k * 8 + 8].try_into().expect("8 bytes"));
            let offset = word % len;
            let mut byte = [0u8];
            byte[0] = pristine[offset as usize] ^ (1 << (k % 8));
            overwrite(&path, offset, &byte);
        }
        let what = format!("seed {seed}");
        let status = assert_status_prints(&repo, &what);
        assert_eq!(
            status["fresh"], false,
            "{what}: a changed file is not vouched for"
        );
        let got = repo.run(WHY);
        assert_answer(&what, &got, &want);
        let again = repo.run(WHY);
        assert_answer(&format!("{what}, the query after"), &again, &want);
        assert!(again.stderr.is_empty(), "{what}: {}", again.stderr);
    }
}

#[test]
fn a_zeroed_page_or_a_truncated_file_is_rebuilt_and_status_always_prints() {
    let repo = generated(120);
    let want = truth(&repo, WHY);
    assert_answer("the first build", &repo.run(WHY), &want);
    let path = repo.index_file();
    let len = std::fs::metadata(&path).expect("the index").len();
    overwrite(&path, (len / 2) & !4095, &[0u8; 4096]);
    assert_status_prints(&repo, "a zeroed page");
    let got = repo.run(WHY);
    assert_answer("a zeroed page", &got, &want);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    assert_eq!(assert_status_prints(&repo, "rebuilt")["fresh"], true);

    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(300))
        .expect("truncate");
    assert_status_prints(&repo, "truncated");
    let indexed = repo.run(&["index"]);
    assert_eq!(indexed.code, Some(0), "{}", indexed.describe());
    assert!(indexed.stderr.contains("rebuilt"), "{}", indexed.stderr);
    assert_eq!(assert_status_prints(&repo, "after index")["fresh"], true);
    assert_answer("after the truncation", &repo.run(WHY), &want);
}

/// Runs `args` with the failpoint `site` failing from its `n`-th write on.
fn failing(repo: &GitRepo, args: &[&str], site: &str, n: usize) -> Run {
    repo.run_with(args, &[(FAILPOINTS, &format!("{site}={n}"))])
}

#[test]
fn a_full_disk_at_any_write_aborts_the_update_and_never_gives_a_wrong_answer() {
    let repo = generated(60);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    let sites: &[(&str, &[usize])] = &[
        ("redb", &[1, 3, 8, 21, 55]),
        ("file", &[1, 2]),
        ("rename", &[1]),
    ];
    let mut round = 0;
    for (site, counts) in sites {
        for &n in *counts {
            round += 1;
            let what = format!("`{site}` failing from write {n}");
            let before = repo.index_status();
            // `index` after new commits: exit 2 saying why, the last complete state kept.
            for k in 0..2 {
                new_commit(&repo, round * 100 + k);
            }
            let args: &[&str] = if *site == "rename" {
                &["index", "--rebuild"]
            } else {
                &["index"]
            };
            let out = failing(&repo, args, site, n);
            if out.code == Some(0) {
                // Past its writes: nothing failed (and nothing may be claimed otherwise).
                assert!(
                    n > 1,
                    "{what}: the first write cannot pass: {}",
                    out.describe()
                );
                continue;
            }
            assert_eq!(out.code, Some(2), "{what}: {}", out.describe());
            assert!(
                out.stderr.contains("no space left on device"),
                "{what}: `index` must say why: {}",
                out.stderr
            );
            let after = repo.index_status();
            assert!(
                after["indexed_head"] == before["indexed_head"]
                    || after["indexed_head"] == repo.head().as_str(),
                "{what}: neither the last complete state nor the new one: {after:#}"
            );
            // A query with the disk still full answers as the scan, with a note.
            let want = truth(&repo, RECORD);
            let got = failing(&repo, RECORD, site, 1);
            assert_answer(&format!("{what}: a query"), &got, &want);
            // The disk freed: the next query answers from a healthy index.
            let next = repo.run(RECORD);
            assert_answer(&format!("{what}: the query after"), &next, &want);
            assert_eq!(repo.run(&["index"]).code, Some(0), "{what}");
            assert_eq!(repo.index_status()["fresh"], true, "{what}");
        }
    }
    // A query that must write (a record changed) with the disk full: a note, the scan's answer.
    repo.write(
        "docs/adr/0002-login.md",
        "# 2. Login\n\nStatus: Proposed\n\nThe form is `src/d1/f1.rs`.\n",
    );
    let want = truth(&repo, RECORD);
    let got = failing(&repo, RECORD, "redb", 1);
    assert_answer("a query writing on a full disk", &got, &want);
    assert!(
        got.stderr.contains("answered from a scan"),
        "the failed write is said: {}",
        got.stderr
    );
}

#[test]
fn index_then_status_is_fresh_on_fresh_clones_and_without_commits() {
    let origin = generated(20);
    for i in 0..5 {
        let clone = origin.path().with_file_name(format!("clone{i}"));
        let out = origin
            .command("git")
            .args(["clone", "-q", "."])
            .arg(&clone)
            .output()
            .expect("git clone");
        assert!(out.status.success(), "{out:?}");
        let run = origin.env().run_in(&clone, ["index"]);
        assert_eq!(run.code, Some(0), "{}", run.describe());
        let status = origin.env().run_in(&clone, ["index", "--status", "--json"]);
        assert_eq!(
            status.json()["fresh"],
            true,
            "clone {i}: {}",
            status.describe()
        );
    }
    let empty = GitRepo::new();
    empty.write(
        "docs/adr/0001-a.md",
        "# 1. A\n\nStatus: Accepted\n\nIn `src/`.\n",
    );
    assert_eq!(empty.run(&["index"]).code, Some(0));
    assert_eq!(empty.index_status()["fresh"], true, "no commits");
}

#[cfg(unix)]
#[test]
fn a_fifo_where_a_side_file_belongs_is_never_waited_on() {
    let repo = generated(30);
    assert_eq!(repo.run(&["index"]).code, Some(0));
    let dir = repo.index_file().with_file_name("");
    for name in ["index.pending", "index.staged", "index.seal"] {
        mkfifo(&dir.join(name));
        new_commit(&repo, name.len());
        let want = truth(&repo, RECORD);
        // The test environment's timeout fails a run that hangs.
        assert_answer(&format!("a FIFO at {name}"), &repo.run(RECORD), &want);
        assert_answer(
            &format!("a FIFO at {name}, again"),
            &repo.run(RECORD),
            &want,
        );
    }
    // With the hooks installed, a FIFO at `message-source` holds no commit.
    assert_eq!(repo.run(&["install-hooks"]).code, Some(0));
    mkfifo(&dir.join("message-source"));
    repo.write("src/d1/f1.rs", "hooked\n");
    repo.git(&["add", "-A"]);
    repo.git_at(
        "2030-03-01T00:00:00Z",
        "Dev",
        &["commit", "-q", "-m", "Hooked"],
    );
    let source = dir.join("message-source");
    assert!(
        std::fs::metadata(&source).is_ok_and(|m| m.is_file()),
        "the FIFO was replaced by the note"
    );
}

#[test]
fn nothing_outside_the_root_is_read() {
    let repo = GitRepo::new();
    let above = repo.path().parent().expect("a folder above the repository");
    // An ignore file above the repository (as `~/.ignore` would be) changes no answer.
    std::fs::write(above.join(".ignore"), "README.md\ndocs/\n").expect("write .ignore");
    std::fs::write(above.join(".gitignore"), "README.md\n").expect("write .gitignore");
    std::fs::write(above.join("outside.rs"), "fn outside() {}\n").expect("write a file");
    repo.write(
        "docs/adr/0001-t.md",
        "---\ngoverns:\n  - ../outside.rs\n  - ../absent.rs\n  - src/a.rs\n---\n# 1. T\n\nStatus: Accepted\n\nx\n",
    )
    .write("src/a.rs", "fn a() {}\n")
    .write("README.md", "# R\n\nSee ADR-0001.\n");
    repo.commit_at("2030-01-02T00:00:00Z", "Dev", "Start");
    let out = repo.run(&["record", "ADR-0001", "--json", "--no-index"]);
    let doc = out.json();
    let docs = doc["docs"].to_string();
    assert!(
        docs.contains("README.md"),
        "the guide above is counted: {doc:#}"
    );
    // A governed path climbing out of the root is outside, whether or not a file is there.
    let missing = doc["records"][0]["missing_paths"].to_string();
    assert!(
        missing.contains("../outside.rs") && missing.contains("../absent.rs"),
        "both are outside, unread: {missing}"
    );
}

#[test]
fn a_sparse_checkout_still_has_the_paths_git_tracks() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-b.md",
        "# 1. B\n\nStatus: Accepted\n\nThe code is `src/b/` and `src/b/y.rs`.\n",
    )
    .write("src/a/x.rs", "fn x() {}\n")
    .write("src/b/y.rs", "fn y() {}\n");
    repo.commit_at("2030-01-02T00:00:00Z", "Dev", "Start");
    repo.git(&["sparse-checkout", "set", "docs", "src/a"]);
    assert!(
        !repo.path().join("src/b/y.rs").exists(),
        "left out of the work tree"
    );
    for query in [
        &["check", "--json"][..],
        &["why", "src/b/y.rs", "--json"][..],
        &["check", "--git", "--json"][..],
    ] {
        let want = truth(&repo, query);
        let doc = want.json();
        assert!(
            !want.stdout().contains("governed-path-gone"),
            "{query:?}: a tracked path is there: {doc:#}"
        );
        assert_eq!(
            doc["records"][0]["missing_paths"],
            serde_json::json!([]),
            "{query:?}"
        );
        assert_answer(
            &format!("{query:?} with the index"),
            &repo.run(query),
            &want,
        );
    }
}

#[test]
fn many_records_governing_one_folder_are_one_finding_naming_them_all() {
    let repo = GitRepo::new();
    repo.write("src/shared/a.rs", "fn a() {}\n");
    for i in 1..=200 {
        repo.write(
            &format!("docs/adr/{i:04}-r.md"),
            // Declared: prose that names a folder more than three records name is common
            // ground and governs nothing (issue 36); a declared scope is the author's choice.
            &format!(
                "---\ngoverns:\n  - src/shared/\n---\n# {i}. R{i}\n\nStatus: Accepted\n\nThe code.\n"
            ),
        );
    }
    // Two more that amend each other and share another folder: linked, no finding there.
    repo.write("src/pair/b.rs", "fn b() {}\n")
        .write(
            "docs/adr/0201-p.md",
            "# 201. P\n\nStatus: Accepted\n\nThe code is `src/pair/`.\n",
        )
        .write(
            "docs/adr/0202-q.md",
            "# 202. Q\n\nStatus: Accepted\n\nAmends ADR-0201. The code is `src/pair/`.\n",
        );
    let out = repo.run(&["check", "--json", "--no-index"]);
    let doc = out.json();
    let overlaps: Vec<&serde_json::Value> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "overlapping-governance")
        .collect();
    assert_eq!(overlaps.len(), 1, "{overlaps:#?}");
    let message = overlaps[0]["message"].as_str().expect("a message");
    for i in 1..=200 {
        assert!(
            message.contains(&format!("ADR-{i:04}")),
            "ADR-{i:04}: {message}"
        );
    }
    assert!(!message.contains("ADR-0201"), "{message}");
    assert_eq!(overlaps[0]["record"], "ADR-0200");
}

#[test]
fn a_sha256_repository_answers_without_history_and_says_so_once() {
    let repo = GitRepo::empty_folder();
    repo.git(&["init", "-q", "-b", "main", "--object-format=sha256", "."]);
    repo.git(&["config", "user.name", "Fixture"]);
    repo.git(&["config", "user.email", "fixture@example.com"]);
    repo.git(&["config", "commit.gpgsign", "false"]);
    repo.write(
        "docs/adr/0001-a.md",
        "# 1. A\n\nStatus: Accepted\n\nThe code is `src/`.\n",
    )
    .write("src/a.rs", "fn a() {}\n");
    repo.commit_at("2030-01-02T00:00:00Z", "Dev", "Start, ADR-0001");
    assert_eq!(repo.run(&["check", "--no-index"]).code, Some(0));
    assert_eq!(repo.run(&["check"]).code, Some(0));
    for query in [
        &["check", "--git", "--json"][..],
        &["why", "src/a.rs", "--git", "--json"][..],
        &["record", "ADR-0001", "--git", "--json"][..],
    ] {
        let out = repo.run(query);
        assert_eq!(out.code, Some(0), "{query:?}: {}", out.describe());
        let notes = out.json()["notes"].to_string();
        assert_eq!(notes.matches("SHA-256").count(), 1, "{query:?}: {notes}");
    }
}

/// What a SHA-256 repository (`git init --object-format=sha256`) is told: every command that
/// needs git's objects refuses in one line saying why (exit 2), the hooks go on without
/// context-graph saying so, and a query answers from the records alone and says once that it
/// had no history (issue 38, ADR-0011).
#[test]
fn a_sha256_repository_is_named_as_unsupported_by_every_command_that_needs_git() {
    const SAID: &str = "uses SHA-256 object ids, which context-graph does not support yet";
    let repo = GitRepo::empty_folder();
    repo.git(&["init", "-q", "-b", "main", "--object-format=sha256", "."]);
    repo.git(&["config", "user.name", "Fixture"]);
    repo.git(&["config", "user.email", "fixture@example.com"]);
    repo.git(&["config", "commit.gpgsign", "false"]);
    repo.write(
        "docs/adr/0001-a.md",
        "# 1. A\n\nStatus: Accepted\n\nThe code is `src/`.\n",
    )
    .write("src/a.rs", "fn a() {}\n");
    repo.commit_at("2030-01-02T00:00:00Z", "Dev", "Start, ADR-0001");
    for args in [
        &["review"][..],
        &["review", "HEAD~0"][..],
        &["coverage"][..],
        &["install-hooks"][..],
        &["uninstall-hooks"][..],
        &["index"][..],
        &["index", "--status"][..],
        &["scope", "ADR-0001", "--add", "src/a.rs"][..],
    ] {
        let run = repo.run(args);
        run.assert_usage_error();
        assert!(run.stderr.contains(SAID), "{args:?}: {}", run.describe());
        assert!(
            !run.stderr.contains("not in a git work tree"),
            "{args:?}: {}",
            run.describe()
        );
    }
    assert!(
        !repo.path().join(".git/hooks/pre-commit").exists(),
        "no hook written"
    );
    // A hook never blocks a commit: it says why it went on without context-graph.
    let hook = repo.run(&["hook", "pre-commit"]);
    hook.assert_code(0);
    assert!(hook.stderr.contains(SAID), "{}", hook.describe());
    // The queries answer from the records, and say once, on stderr, that history was not read.
    for args in [
        &["why", "src/a.rs"][..],
        &["check"][..],
        &["record", "ADR-0001"][..],
        &["context", "src/a.rs"][..],
    ] {
        let run = repo.run(args);
        run.assert_code(0);
        assert!(
            run.stdout().contains("ADR-0001"),
            "{args:?}: {}",
            run.describe()
        );
        assert_eq!(
            run.stderr.matches(SAID).count(),
            1,
            "{args:?}: {}",
            run.describe()
        );
    }
    // Checks that read no git say nothing of it.
    let run = repo.run(&["check", "--no-index"]);
    run.assert_code(0);
    assert_eq!(run.stderr, "", "{}", run.describe());
}
