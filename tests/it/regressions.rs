//! Bugs found in review (issue 9), each shown through the binary: each test failed before its
//! fix.

use crate::env::{no_index, Run, TestEnv};
use crate::fixture::adr;
use crate::git::GitRepo;
use redb::ReadableTable;
use serde_json::Value;
use std::time::Duration;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::index::{codec, schema};

const ADR1: &str = "docs/adr/0001-use-tokens.md";
const ADR2: &str = "docs/adr/0002-use-sessions.md";

/// `args` answered with the index and with `--no-index`: the same bytes and exit code, and
/// nothing on stderr from the indexed run. Returns the JSON.
fn same_both_ways(repo: &GitRepo, args: &[&str]) -> Value {
    let indexed = repo.run(args);
    let scanned = repo.run(&no_index(args));
    assert!(
        indexed.stderr_but_absent_paths().is_empty(),
        "{}",
        indexed.describe()
    );
    assert_eq!(
        indexed.stdout(),
        scanned.stdout(),
        "the index answered differently from --no-index"
    );
    assert_eq!(indexed.code, scanned.code);
    indexed.json()
}

/// The guides the full check says cite a superseded record.
fn flagged_guides(doc: &Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "doc-cites-superseded")
        .map(|f| f["path"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// ADR-0001 superseded by ADR-0002, and guides under `notes/` and `guides/` citing ADR-0001:
/// each guide the walk reads is flagged.
fn superseded_and_cited(repo: &GitRepo) {
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Superseded by ADR-0002", None, "Tokens."),
    )
    .write(
        ADR2,
        &adr(2, "Use sessions", "Accepted", None, "Supersedes ADR-0001."),
    )
    .write("notes/guide.md", "# Guide\n\nWe follow ADR-0001.\n")
    .write("guides/howto.md", "# How to\n\nSee ADR-0001.\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Records and guides");
    // Past the racy window: what the index stores now is trusted by its times alone, so only
    // a stamp of the ignore file itself can tell it changed.
    std::thread::sleep(PAST_RACY_WINDOW);
}

/// Two seconds after a change, a file's times are trusted (see `fs::fingerprint::RACY_NS`).
const PAST_RACY_WINDOW: Duration = Duration::from_millis(2_100);

#[test]
fn the_global_excludes_file_changes_the_indexed_answer_as_it_changes_a_scan() {
    let repo = GitRepo::new();
    superseded_and_cited(&repo);
    let args = ["check", "--json"];
    let doc = same_both_ways(&repo, &args);
    assert_eq!(flagged_guides(&doc), ["guides/howto.md", "notes/guide.md"]);

    // `$XDG_CONFIG_HOME/git/ignore`, git's default global excludes file.
    let xdg_ignore = repo.env().config_home().join("git").join("ignore");
    std::fs::create_dir_all(xdg_ignore.parent().unwrap()).unwrap();
    std::fs::write(&xdg_ignore, "notes/\n").unwrap();
    let doc = same_both_ways(&repo, &args);
    assert_eq!(flagged_guides(&doc), ["guides/howto.md"]);

    // `core.excludesFile` in `~/.gitconfig` names another file, which takes its place.
    let excludes = repo.env().home().join("my-excludes");
    std::fs::write(&excludes, "guides/\n").unwrap();
    std::fs::write(
        repo.env().home().join(".gitconfig"),
        format!("[core]\n\texcludesFile = {}\n", excludes.display()),
    )
    .unwrap();
    let doc = same_both_ways(&repo, &args);
    assert_eq!(flagged_guides(&doc), ["notes/guide.md"]);

    // And that file's own content, edited.
    std::fs::write(&excludes, "guides/\nnotes/\n").unwrap();
    let doc = same_both_ways(&repo, &args);
    assert!(flagged_guides(&doc).is_empty(), "{doc:#}");
}

#[test]
fn a_linked_worktrees_common_info_exclude_changes_the_indexed_answer() {
    let repo = GitRepo::new();
    superseded_and_cited(&repo);
    let linked = repo.linked_worktree("linked", "side");
    std::thread::sleep(PAST_RACY_WINDOW); // its checkout's files, likewise
    let args = ["check", "--json"];
    let in_linked = |args: &[&str]| -> Run {
        let run = repo.env().run_in(&linked, args);
        run.assert_finished();
        run
    };
    let first = in_linked(&args);
    assert_eq!(
        flagged_guides(&first.json()),
        ["guides/howto.md", "notes/guide.md"]
    );
    // The linked worktree's excludes are the main repository's `info/exclude`.
    let exclude = repo.path().join(".git").join("info").join("exclude");
    std::fs::create_dir_all(exclude.parent().unwrap()).unwrap();
    std::fs::write(&exclude, "notes/\n").unwrap();
    let indexed = in_linked(&args);
    let scanned = in_linked(&no_index(&args));
    assert!(indexed.stderr.is_empty(), "{}", indexed.describe());
    assert_eq!(indexed.stdout(), scanned.stdout());
    assert_eq!(flagged_guides(&indexed.json()), ["guides/howto.md"]);
}

#[test]
#[cfg(unix)]
fn a_record_folder_that_links_out_of_the_root_is_not_read() {
    let env = TestEnv::new();
    let root = env.path().join("repo");
    let outside = env.path().join("elsewhere");
    std::fs::create_dir_all(root.join("docs/decisions")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("0009-not-ours.md"),
        adr(9, "Not ours", "Accepted", None, "Another tree's."),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, root.join("docs/adr")).unwrap();
    std::fs::write(
        root.join("docs/decisions/0001-ours.md"),
        adr(1, "Ours", "Accepted", None, "This tree's."),
    )
    .unwrap();
    let out = env.run_json(&root, &["check"]);
    out.assert_code(0);
    let doc = out.json();
    let ids: Vec<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ADR-0001"], "{doc:#}");
    let notes = doc["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n == "docs/adr: a link that leaves the root, not read"),
        "{notes:?}"
    );
    // Named with --docs, it is not read either.
    let out = env.run_json(&root, &["check", "--docs", "docs/adr"]);
    out.assert_usage_error();
    assert!(out.stderr.contains("no decision records"), "{}", out.stderr);
}

#[test]
fn readme_and_index_in_any_case_are_not_records() {
    let env = TestEnv::new();
    let root = env.path().join("repo");
    std::fs::create_dir_all(root.join("docs/adr")).unwrap();
    for name in ["readme.md", "Index.md", "ReadMe.MD", "INDEX.md"] {
        std::fs::write(
            root.join("docs/adr").join(name),
            "# 5. A list\n\nStatus: x\n",
        )
        .unwrap();
    }
    std::fs::write(
        root.join("docs/adr/0001-one.md"),
        adr(1, "One", "Accepted", None, "One."),
    )
    .unwrap();
    let out = env.run_json(&root, &["check"]);
    out.assert_code(0);
    let doc = out.json();
    let paths: Vec<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["docs/adr/0001-one.md"], "{doc:#}");
}

#[test]
fn a_bare_number_names_only_records_with_formatted_ids() {
    let env = TestEnv::new();
    let root = env.path().join("repo");
    std::fs::create_dir_all(root.join("docs/adr")).unwrap();
    std::fs::write(
        root.join("docs/adr/0002-two.md"),
        adr(2, "Two", "Accepted", None, "Two."),
    )
    .unwrap();
    // No number in its name or heading: its id is its file stem.
    std::fs::write(
        root.join("docs/adr/release-2.md"),
        "# Release two\n\nStatus: Accepted\n",
    )
    .unwrap();
    let out = env.run_json(&root, &["record", "2"]);
    out.assert_code(0);
    assert_eq!(out.json()["query"]["record"], "ADR-0002");
    let out = env.run_json(&root, &["record", "release-2"]);
    out.assert_code(0);
    assert_eq!(out.json()["query"]["record"], "release-2");
}

#[test]
fn two_questions_at_once_are_a_usage_error() {
    let env = TestEnv::new();
    let root = env.path().join("repo");
    std::fs::create_dir_all(root.join("docs/adr")).unwrap();
    std::fs::write(
        root.join("docs/adr/0002-two.md"),
        adr(2, "Two", "Accepted", None, "In `src/`."),
    )
    .unwrap();
    let root = root.to_str().unwrap();
    for args in [
        &["--why", "src", "record", "ADR-2"][..],
        &["--record", "2", "why", "src"],
        &["--why", "src", "check"],
        &["--record", "2", "index"],
    ] {
        let mut all = args.to_vec();
        all.extend(["--root", root]);
        let out = env.run(&all);
        out.assert_usage_error();
        assert!(out.stdout.is_empty(), "{}", out.describe());
    }
}

/// Replaces the cached parse of `rel` with one titled `PLANTED` (its stamp kept, so it would be
/// served), drops the scan memo (so a scan runs and consults the parses), and stores the scope
/// with `parser` as the version of the parser that made them.
fn plant_parse(repo: &GitRepo, rel: &str, parser: u32) {
    let db = redb::Database::create(repo.index_file()).expect("open the index");
    let txn = db.begin_write().expect("write");
    {
        let mut records = txn.open_table(schema::RECORDS).expect("records");
        let bytes = records.get(rel).unwrap().expect("cached").value().to_vec();
        let mut cached: schema::CachedRecord = codec::decode(&bytes).expect("decode");
        cached.parsed.title = "PLANTED".into();
        records
            .insert(rel, codec::encode(&cached).as_slice())
            .unwrap();
        let mut meta = txn.open_table(schema::META).expect("meta");
        let mut scope: schema::Scope =
            codec::decode(meta.get(schema::KEY_SCOPE).unwrap().unwrap().value()).unwrap();
        scope.parser = parser;
        meta.insert(schema::KEY_SCOPE, codec::encode(&scope).as_slice())
            .unwrap();
        for key in [schema::KEY_SCAN_MEMO, schema::KEY_SCAN_MEMO_REPORT] {
            meta.remove(key).unwrap();
        }
    }
    txn.commit().expect("commit");
}

#[test]
fn cached_parses_from_another_parser_are_not_served() {
    let repo = GitRepo::new();
    repo.write(ADR1, &adr(1, "Use tokens", "Accepted", None, "Tokens."));
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "A record");
    let ours = context_graph::parse::cache_version();
    let title = |repo: &GitRepo| -> String {
        let out = repo.run(&["record", "ADR-1", "--json"]);
        out.assert_code(0);
        out.json()["records"][0]["title"]
            .as_str()
            .unwrap()
            .to_string()
    };
    repo.run(&["index"]).assert_code(0);
    // Planted under this build's parser, the parse is served: the plant works.
    plant_parse(&repo, ADR1, ours);
    assert_eq!(title(&repo), "PLANTED");
    // Planted under another parser's version, it is dropped and the file read again.
    repo.run(&["index", "--rebuild"]).assert_code(0);
    plant_parse(&repo, ADR1, ours + 1);
    assert_eq!(title(&repo), "Use tokens");
    // The history was kept: the index holds its commit still.
    assert_eq!(repo.index_status()["commits"], 1);
}

#[test]
fn status_right_after_index_is_fresh_for_a_record_written_a_moment_ago() {
    let repo = GitRepo::new();
    repo.write(ADR1, &adr(1, "Use tokens", "Accepted", None, "Tokens."));
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "A record");
    repo.run(&["index"]).assert_code(0);
    // An edit, then `index` straight away: well inside the two-second racy window.
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "Tokens, now."),
    );
    std::thread::sleep(Duration::from_millis(100));
    repo.run(&["index"]).assert_code(0);
    let status = repo.index_status();
    assert_eq!(status["fresh"], true, "{status:#}");
    // And fresh means a query now changes nothing in the index.
    let before = std::fs::read(repo.index_file()).unwrap();
    let doc = same_both_ways(&repo, &["why", "src", "--json"]);
    assert_eq!(doc["query"]["why"], "src");
    assert_eq!(std::fs::read(repo.index_file()).unwrap(), before);
    assert_eq!(repo.index_status()["fresh"], true);
    // An edit after that is seen: not fresh, and the answer follows the file.
    repo.write(
        ADR1,
        &adr(1, "Use tokens", "Accepted", None, "Tokens, again."),
    );
    assert_eq!(repo.index_status()["fresh"], false);
    same_both_ways(&repo, &["check", "--json"]);
}

/// A first build killed before its first schema step leaves a redb file with no tables:
/// `index --status` reports nothing indexed (exit 0), a query answers and builds it.
#[test]
fn status_of_an_index_file_with_no_schema_yet_says_nothing_is_indexed() {
    let repo = GitRepo::new();
    repo.write(ADR1, &adr(1, "Use tokens", "Accepted", None, "Tokens."));
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "A record");
    let file = repo.index_file();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    drop(redb::Database::create(&file).expect("an empty redb file"));
    let status = repo.index_status();
    assert_eq!(status["fresh"], false, "{status:#}");
    assert_eq!(status["indexed_head"], Value::Null);
    assert_eq!(status["records"], 0);
    same_both_ways(&repo, &["check", "--json"]);
    repo.run(&["index"]).assert_code(0);
    assert_eq!(repo.index_status()["records"], 1);
}
