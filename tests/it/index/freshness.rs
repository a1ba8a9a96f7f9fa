//! What a warm answer checks to know that nothing it read changed (ADR-0016): the records, the
//! record folders, the guides, the folders holding guides, the ignore files, and the set of
//! paths git's index tracks; not every folder of the tree. Each test shows what is seen at
//! once, what waits until git's index lists other paths, and that `--no-index` sees all of it.

use super::{assert_same, write_auth_records, ADR1, PAST_RACY_WINDOW};
use crate::env::{no_index, Run};
use crate::fixture::adr;
use crate::git::GitRepo;
use redb::ReadableDatabase;

use context_graph::index::{codec, schema};

/// The guides a full check lists (`docs`, by path).
fn guides(run: &Run) -> Vec<String> {
    run.json()["docs"]
        .as_array()
        .expect("docs")
        .iter()
        .map(|d| d["path"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The records a full check lists, by id.
fn ids(run: &Run) -> Vec<String> {
    run.json()["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["id"].as_str().unwrap_or("").to_string())
        .collect()
}

/// A repository with two records, a guide in `docs/guide/` and code under `src/`, committed;
/// the index built and its memo stored past the racy window, so it holds by stats alone.
fn settled_repo() -> GitRepo {
    let repo = GitRepo::new();
    write_auth_records(&repo)
        .write("docs/guide/intro.md", "Read ADR-0001 first.\n")
        .write("src/other/util.rs", "fn util() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    let built = repo.run(&["index"]);
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    std::thread::sleep(PAST_RACY_WINDOW);
    repo
}

/// The stored scan memo.
fn stored_memo(repo: &GitRepo) -> schema::ScanMemo {
    let db = redb::Database::open(repo.index_file()).expect("open the index");
    let txn = db.begin_read().expect("read");
    let meta = txn.open_table(schema::META).expect("meta table");
    let bytes = meta
        .get(schema::KEY_SCAN_MEMO)
        .expect("read meta")
        .expect("the index holds a memo")
        .value()
        .to_vec();
    codec::decode(&bytes).expect("decode the memo")
}

/// A new guide in a folder that holds no guide is not one of the memo's folders: the warm
/// answer goes on without it until git's index lists other paths (adding it does), while
/// `--no-index` sees it at once. A new guide beside an existing one is seen at once.
#[test]
fn a_new_untracked_guide_is_seen_beside_a_guide_and_elsewhere_once_git_index_lists_it() {
    let repo = settled_repo();
    let check = ["check", "--json"];
    let before = repo.run(&check);
    assert_eq!(guides(&before), vec!["docs/guide/intro.md".to_string()]);

    repo.write("notes/howto.md", "Follow ADR-0002.\n");
    let warm = repo.run(&check);
    assert!(warm.stderr.is_empty(), "{}", warm.stderr);
    assert_eq!(
        guides(&warm),
        guides(&before),
        "an untracked guide in a folder holding none waits for git's index (ADR-0016)"
    );
    let scanned = repo.run(&no_index(&check));
    assert!(
        guides(&scanned).contains(&"notes/howto.md".to_string()),
        "--no-index reads everything: {:?}",
        guides(&scanned)
    );
    repo.git(&["add", "notes/howto.md"]);
    assert_same(&repo, "the new guide staged", &check);
    assert!(guides(&repo.run(&check)).contains(&"notes/howto.md".to_string()));

    // Beside a guide: its folder's times changed, seen without git.
    repo.write("docs/guide/more.md", "And ADR-0002.\n");
    assert_same(&repo, "a new guide beside one", &check);
    assert!(guides(&repo.run(&check)).contains(&"docs/guide/more.md".to_string()));
}

/// Records are always read as they are: an edit, and a new record file in a record folder,
/// untracked, are seen by the next warm answer; so is an edit to a guide.
#[test]
fn a_record_edited_or_added_untracked_and_a_guide_edited_are_seen_at_once() {
    let repo = settled_repo();
    let check = ["check", "--json"];
    repo.write(
        "docs/adr/0003-billing.md",
        &adr(3, "Billing", "Proposed", None, "In `src/other/`."),
    );
    assert_same(&repo, "a new untracked record", &check);
    assert!(ids(&repo.run(&check)).contains(&"ADR-0003".to_string()));
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Deprecated", Some("2025-03-02"), "Gone."),
    );
    assert_same(&repo, "a record edited", &check);
    assert_same(&repo, "a record edited", &["why", "src/auth", "--json"]);
    repo.write("docs/guide/intro.md", "Read ADR-0003 first.\n");
    assert_same(&repo, "a guide edited", &check);
}

/// A staged change that adds paths (a new folder with a guide, from a checkout or `git add`)
/// changes the paths git's index tracks: the next warm answer scans again and sees it.
#[test]
fn new_tracked_paths_make_the_next_answer_scan_again() {
    let repo = settled_repo();
    let check = ["check", "--json"];
    repo.write("handbook/deep/page.md", "See ADR-0001.\n");
    repo.git(&["add", "handbook"]);
    assert_same(&repo, "a staged guide in a new folder", &check);
    assert!(guides(&repo.run(&check)).contains(&"handbook/deep/page.md".to_string()));
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Handbook");
    assert_same(&repo, "committed", &check);
}

/// The memo keeps only the folders holding a guide, not every folder walked; a check that
/// holds after the racy window stores it again with no digest left to read, and a new
/// checksum of git's index with the same paths is kept beside the index, so the next check
/// reads neither the files again nor git's whole index.
#[test]
fn the_memo_keeps_guide_folders_only_and_settles_once_found_holding() {
    let repo = GitRepo::new();
    write_auth_records(&repo)
        .write("docs/guide/intro.md", "Read ADR-0001 first.\n")
        .write("src/other/deep/util.rs", "fn util() {}\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    // Stored right after the files were written: every stamp keeps its digest.
    let built = repo.run(&["check", "--json"]);
    assert!(built.stderr.is_empty(), "{}", built.stderr);
    let memo = stored_memo(&repo);
    let dirs: Vec<&str> = memo
        .deps
        .walk
        .dirs
        .iter()
        .map(|(d, _)| d.as_str())
        .collect();
    assert_eq!(
        dirs,
        vec!["docs/guide"],
        "only the folder holding the guide"
    );
    assert!(
        memo.deps
            .files
            .iter()
            .any(|(_, s)| s.is_some_and(|s| s.digest.is_some())),
        "stored within 2 s of the writes, the records are stamped with their digests"
    );
    std::thread::sleep(PAST_RACY_WINDOW + std::time::Duration::from_millis(500));
    assert_same(&repo, "past the racy window", &["check", "--json"]);
    let settled = stored_memo(&repo);
    assert!(settled.deps.started_ns > memo.deps.started_ns);
    let digests: Vec<_> = settled
        .deps
        .files
        .iter()
        .chain(&settled.deps.guides)
        .filter(|(_, s)| s.is_some_and(|s| s.digest.is_some()))
        .collect();
    assert!(
        digests.is_empty(),
        "settled: no stamp is read by its digest any more (checked at {}, first stored at {}): {digests:?}",
        settled.deps.started_ns,
        memo.deps.started_ns
    );

    // A staged edit: git's index has a new checksum, the same paths.
    repo.write("src/other/deep/util.rs", "fn util() { 1 }\n");
    repo.git(&["add", "src/other/deep/util.rs"]);
    let names_file = repo.index_file().with_extension("names");
    repo.index_status();
    assert!(!names_file.exists(), "`index --status` writes nothing");
    assert_same(&repo, "a staged edit", &["why", "src/auth", "--json"]);
    let names = std::fs::read(&names_file).expect("names kept");
    let index = std::fs::read(repo.path().join(".git/index")).expect("git's index");
    assert_eq!(
        &names[..20],
        &index[index.len() - 20..],
        "the new checksum of git's index is kept as having the memo's paths"
    );
}

/// A tracked path that is not UTF-8 is left out of git's tracked files, and every other path
/// is still listed whole, before and after it in git's index (the paths are checked as UTF-8
/// all at once, then one by one when that fails: issue 17).
#[test]
fn a_tracked_path_that_is_not_utf8_is_left_out_and_the_rest_kept() {
    use std::os::unix::ffi::OsStrExt;
    let repo = GitRepo::new();
    repo.write("a/é.rs", "fn a() {}\n")
        .write("z/last.rs", "fn z() {}\n");
    let names = |repo: &GitRepo| -> Vec<String> {
        let opened = context_graph::git::open(repo.path())
            .expect("open the repository")
            .expect("a repository");
        let all = context_graph::git::tracked(&opened).expect("read git's index");
        all.files.iter().map(|f| f.path.clone()).collect()
    };
    repo.git(&["add", "-A"]);
    assert_eq!(names(&repo), ["a/é.rs", "z/last.rs"]);
    let odd = std::ffi::OsStr::from_bytes(b"m/\xff.rs");
    std::fs::create_dir_all(repo.path().join("m")).expect("a folder");
    std::fs::write(repo.path().join(odd), "x\n").expect("a file");
    repo.git(&["add", "-A"]);
    assert!(
        repo.git(&["ls-files", "--", "m"]).contains("m/"),
        "git tracks the file"
    );
    assert_eq!(names(&repo), ["a/é.rs", "z/last.rs"]);
}

/// A folder's tracked files read straight from git's index bytes are the files the full read
/// lists under it, with the same blob ids, states and flags: executable, link, staged for
/// intent-to-add, in a root below the work tree's top; so is the whole index read from its
/// bytes (issue 17) against gix's decoding; a split index and an index of format 4 are left
/// to gix.
#[test]
fn a_folder_read_from_git_index_bytes_lists_what_the_full_read_lists() {
    let repo = GitRepo::new();
    repo.write("app/src/a.rs", "fn a() {}\n")
        .write("app/src/deep/b.rs", "fn b() {}\n")
        .write("app/src-other/c.rs", "fn c() {}\n")
        .write("app/src.rs", "fn s() {}\n")
        .write("app/tool.sh", "#!/bin/sh\n")
        .write("top.md", "Top.\n");
    repo.git(&["add", "app/tool.sh"]);
    repo.chmod_x("app/tool.sh");
    std::os::unix::fs::symlink("a.rs", repo.path().join("app/src/link.rs")).expect("a link");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Start");
    repo.write("app/src/new.rs", "fn n() {}\n");
    repo.git(&["add", "-N", "app/src/new.rs"]);
    for root in [repo.path().to_path_buf(), repo.path().join("app")] {
        let opened = context_graph::git::open(&root)
            .expect("open the repository")
            .expect("a repository");
        let all = context_graph::git::tracked(&opened).expect("read git's index");
        let decoded = context_graph::git::tracked_decoded(&opened).expect("decode git's index");
        assert_eq!(
            *all, decoded,
            "the whole index read from its bytes is gix's reading"
        );
        assert!(all.files.len() >= 5, "{:?}", all.files);
        let all = decoded;
        let prefix = if root == repo.path() { "app/" } else { "" };
        for within in ["src", "tool.sh", "src/deep", "nothing"] {
            let within = format!("{prefix}{within}");
            let fast = context_graph::git::tracked_within(&opened, &within)
                .unwrap_or_else(|| panic!("{within}: read from the bytes"));
            let expected: Vec<_> = all
                .files
                .iter()
                .filter(|f| f.path == within || f.path.starts_with(&format!("{within}/")))
                .cloned()
                .collect();
            assert_eq!(fast.files, expected, "{within} under {}", root.display());
            assert_eq!(fast.checksum, all.checksum);
        }
    }
    let opened = context_graph::git::open(repo.path())
        .expect("open")
        .expect("a repository");
    let src = context_graph::git::tracked_within(&opened, "app/src").expect("src");
    assert!(src.files.iter().any(|f| f.link), "the link is listed");
    assert!(
        src.files
            .iter()
            .any(|f| f.path == "app/src/new.rs" && !f.trusted),
        "intent-to-add is not trusted"
    );
    repo.git(&["update-index", "--split-index"]);
    let split = context_graph::git::open(repo.path())
        .expect("open")
        .expect("a repository");
    assert!(
        context_graph::git::tracked_within(&split, "app/src").is_none(),
        "a split index's entries are in two files: read whole"
    );
    repo.git(&["update-index", "--no-split-index"]);
    repo.git(&["update-index", "--index-version", "4"]);
    let v4 = context_graph::git::open(repo.path())
        .expect("open")
        .expect("a repository");
    assert!(context_graph::git::tracked_within(&v4, "app/src").is_none());
    // A format-4 index is decoded by gix: the same files.
    let read = context_graph::git::tracked(&v4).expect("read a format-4 index");
    let decoded = context_graph::git::tracked_decoded(&v4).expect("decode it");
    assert_eq!(*read, decoded);
    assert!(read.files.iter().any(|f| f.path == "app/src/a.rs"));
}

/// The folders of the paths records name are stamped in the memo and, once settled, vouch for
/// the paths in them: a check stats `src/auth` once rather than each path in it (issue 17).
/// A named file removed, or a named folder renamed away, changes its folder's times, so each
/// is seen at once all the same, though git's index still lists it (an unstaged deletion).
#[test]
fn a_named_path_gone_from_a_vouching_folder_is_seen_at_once() {
    let repo = settled_repo();
    let check = ["check", "--json"];
    // Past the racy window: this check finds every path holding and restamps the folders.
    assert_same(&repo, "settled", &check);
    let memo = stored_memo(&repo);
    let folders: Vec<&str> = memo
        .parents
        .dirs
        .iter()
        .map(|(d, _, _)| d.as_str())
        .collect();
    assert!(
        folders.contains(&"src") && folders.contains(&"src/auth"),
        "{folders:?}"
    );
    for (folder, fp, paths) in &memo.parents.dirs {
        assert!(!paths.is_empty(), "{folder}");
        assert!(
            memo.parents.at_ns - fp.mtime_ns.max(fp.ctime_ns) > 2_000_000_000,
            "{folder}: restamped past the racy window, so it vouches"
        );
    }
    let before = repo.run(&check);
    assert!(before.stderr.is_empty(), "{}", before.stderr);

    std::fs::remove_file(repo.path().join("src/auth/login.rs")).expect("remove a named file");
    let gone = assert_same(&repo, "a named file removed", &check);
    assert_ne!(gone.stdout, before.stdout, "the missing file is reported");
    assert!(String::from_utf8_lossy(&gone.stdout).contains("src/auth/login.rs"));

    repo.write("src/auth/login.rs", "fn login() {}\n");
    std::thread::sleep(PAST_RACY_WINDOW);
    let back = assert_same(&repo, "put back", &check);
    assert_eq!(back.stdout, before.stdout);
    assert_same(&repo, "put back, settled again", &check);

    std::fs::rename(repo.path().join("src/auth"), repo.path().join("src/authn"))
        .expect("rename a named folder");
    let moved = assert_same(&repo, "a named folder renamed away", &check);
    assert_ne!(moved.stdout, before.stdout, "the moved folder is reported");
}
