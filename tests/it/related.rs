//! `why PATH`'s related records (docs/related.md, ADR-0017): one fixture of our own text with a
//! path for each kind of evidence (a citing commit, a focused commit that added a record and a
//! sweeping one that must not count, a comment naming a record, a title word in a file name and
//! a word many titles share, a name written as code), asserted through `why --json`, `why`'s
//! Markdown, `context` and the MCP tools, and the index against `--no-index`.

use crate::env::no_index;
use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::{json, Value};

/// The fixture, with the sha of the focused commit that added ADR-0002.
///
/// - 1: the meta record alone.
/// - 2 (3 files): ADR-0002 "Cache keys by tenant" with `src/cache/keys.rs` and
///   `src/cache/mod.rs`: a focused commit.
/// - 3 (50 files): ADR-0003 with 49 generated clients: not focused.
/// - 4: "per ADR-0002" changes `src/cache/keys.rs` only (not its sibling `mod.rs`).
/// - 5: ADR-0004 to ADR-0007 at once (no record is introduced by it), with
///   `src/BibtexStrings.java` (ADR-0004's title words), `src/cache_store.rs` ("cache" is in
///   three titles), `src/limits/RateLimiter.java` (named in ADR-0005 as code) and `src/w.rs`
///   (a marker declares ADR-0006, and a comment names it: it governs, so it is not related).
/// - 6, 7, 8: `src/hub.rs`, whose comment names ADR-0004 and ADR 5, then two commits citing
///   ADR-0003 change it; ADR-0007's title word "hub" is in its name too.
fn repo() -> (GitRepo, String) {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-record-architecture-decisions.md",
        &adr(
            1,
            "Record architecture decisions",
            "Accepted",
            Some("2025-01-01"),
            "## Decision\n\nWe keep decision records.",
        ),
    );
    repo.commit_at("2025-01-01T10:00:00Z", "Ann", "Start the records");
    repo.write(
        "docs/adr/0002-cache-keys-by-tenant.md",
        &adr(
            2,
            "Cache keys by tenant",
            "Accepted",
            Some("2025-01-02"),
            "## Decision\n\nEvery entry is keyed by its tenant.",
        ),
    );
    repo.write("src/cache/keys.rs", "pub fn key() {}\n");
    repo.write("src/cache/mod.rs", "pub mod keys;\n");
    let focused = repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Add the tenant cache");
    repo.write(
        "docs/adr/0003-generate-the-clients.md",
        &adr(
            3,
            "Generate the clients",
            "Accepted",
            Some("2025-01-03"),
            "## Decision\n\nClients are generated from the schema.",
        ),
    );
    for i in 0..49 {
        repo.write(
            &format!("src/gen/c{i}.rs"),
            &format!("pub fn c{i}() {{}}\n"),
        );
    }
    repo.commit_at(
        "2025-01-03T10:00:00Z",
        "Bob",
        "Import the generated clients",
    );
    repo.write(
        "src/cache/keys.rs",
        "pub fn key(tenant: u32) -> u32 { tenant }\n",
    );
    repo.commit_at(
        "2025-01-04T10:00:00Z",
        "Ann",
        "Keys take the tenant, per ADR-0002",
    );
    for (n, title, body) in [
        (4, "Parse BibTeX strings", "Strings are parsed whole."),
        (
            5,
            "Cache sessions in memory",
            "The `RateLimiter` reads the sessions from memory.",
        ),
        (6, "Cache tokens for an hour", "Tokens live an hour."),
        (
            7,
            "Route through the hub",
            "Every call goes through one place.",
        ),
    ] {
        let slug = title.to_lowercase().replace(' ', "-");
        repo.write(
            &format!("docs/adr/000{n}-{slug}.md"),
            &adr(
                n,
                title,
                "Accepted",
                Some("2025-01-05"),
                &format!("## Decision\n\n{body}"),
            ),
        );
    }
    repo.write("src/BibtexStrings.java", "class BibtexStrings {}\n");
    repo.write("src/cache_store.rs", "pub struct Store;\n");
    repo.write("src/limits/RateLimiter.java", "class RateLimiter {}\n");
    repo.write("src/w.rs", "// @adr 6\nfn w() {}\n// See ADR-0006\n");
    repo.commit_at("2025-01-05T10:00:00Z", "Cy", "Four more decisions");
    repo.write(
        "src/hub.rs",
        "// The hub.\nfn hub() {}\n// See ADR-0004 and ADR 5 before changing this.\n",
    );
    repo.commit_at("2025-01-06T10:00:00Z", "Ann", "Add the hub");
    repo.write(
        "src/hub.rs",
        "// The hub.\nfn hub() { call() }\n// See ADR-0004 and ADR 5 before changing this.\n",
    );
    repo.commit_at(
        "2025-01-07T10:00:00Z",
        "Bob",
        "The hub calls the clients (ADR-0003)",
    );
    repo.write(
        "src/hub.rs",
        "// The hub.\nfn hub() { retry(call) }\n// See ADR-0004 and ADR 5 before changing this.\n",
    );
    repo.commit_at(
        "2025-01-08T10:00:00Z",
        "Bob",
        "The hub retries the clients, ADR-0003",
    );
    (repo, focused)
}

/// `why PATH --json`'s `query.related`, checked equal to `--no-index`'s.
/// The `text` evidence left out (`without_text`): these fixtures test the other kinds.
pub(crate) fn related(repo: &GitRepo, path: &str) -> Value {
    without_text(&related_with_text(repo, path))
}

/// `why PATH --json`'s `query.related` whole, checked equal to `--no-index`'s.
pub(crate) fn related_with_text(repo: &GitRepo, path: &str) -> Value {
    let indexed = repo.run(&["why", path, "--json"]);
    indexed.assert_code(0);
    let scanned = repo.run(&no_index(&["why", path, "--json"]));
    assert_eq!(
        indexed.stdout(),
        scanned.stdout(),
        "why {path}: the index answered differently from --no-index"
    );
    indexed.json()["query"]["related"].clone()
}

/// Each related record of `related` as "id kind+kind".
pub(crate) fn kinds(related: &Value) -> Vec<String> {
    related
        .as_array()
        .expect("related is a list")
        .iter()
        .map(|r| {
            let kinds: Vec<&str> = r["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["kind"].as_str().unwrap())
                .collect();
            format!("{} {}", r["id"].as_str().unwrap(), kinds.join("+"))
        })
        .collect()
}

/// `related` as it would be without the `text` evidence (docs/related.md): each record's
/// `text` evidence and its weight (2) taken away, and a record left under the least score
/// (2) dropped. The fixtures of the other kinds are a few lines of code each, which a record
/// of a few words is easily echoed by; `related_text.rs` tests the `text` evidence.
pub(crate) fn without_text(related: &Value) -> Value {
    let kept: Vec<Value> = related
        .as_array()
        .expect("related is a list")
        .iter()
        .filter_map(|r| {
            let mut r = r.clone();
            let evidence = r["evidence"].as_array().expect("evidence").clone();
            let other: Vec<Value> = evidence
                .iter()
                .filter(|e| e["kind"] != "text")
                .cloned()
                .collect();
            let score =
                r["score"].as_u64().expect("score") - 2 * (evidence.len() - other.len()) as u64;
            r["evidence"] = Value::Array(other);
            r["score"] = json!(score);
            (score >= 2).then_some(r)
        })
        .collect();
    Value::Array(kept)
}

fn ids(related: &Value) -> Vec<&str> {
    related
        .as_array()
        .expect("related is a list")
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

fn markdown(repo: &GitRepo, path: &str) -> String {
    let run = repo.run(&["why", path]);
    run.assert_code(0);
    run.stdout()
}

#[test]
fn cited_counts_the_commits_that_changed_the_file_itself() {
    let (repo, focused) = repo();
    let short = &focused[..7];
    assert_eq!(
        related(&repo, "src/cache/keys.rs"),
        json!([{"id": "ADR-0002", "status": "accepted", "score": 5, "evidence": [
            {"kind": "cited", "commits": 1},
            {"kind": "introduced", "commit": short},
            {"kind": "words", "words": ["key"]},
        ], "title": "Cache keys by tenant"}])
    );
    // The sibling the citing commit did not change: no `cited`.
    assert_eq!(
        related(&repo, "src/cache/mod.rs"),
        json!([{"id": "ADR-0002", "status": "accepted", "score": 2, "evidence": [
            {"kind": "introduced", "commit": short},
        ], "title": "Cache keys by tenant"}])
    );
    let text = markdown(&repo, "src/cache/keys.rs");
    assert!(
        text.contains(&format!(
            "## Related (not governing)\n\n- ADR-0002: Cache keys by tenant (accepted): cited by 1 commit that changed this file; added with this file in `{short}`; title words `key`"
        )),
        "{text}"
    );
    assert!(text.contains("No recorded decision governs"), "{text}");
}

#[test]
fn introduced_counts_a_focused_commit_and_not_a_sweeping_one() {
    let (repo, _) = repo();
    // ADR-0003 came with 49 generated files: a commit of 50 files says nothing of one.
    assert_eq!(related(&repo, "src/gen/c1.rs"), json!([]));
    let text = markdown(&repo, "src/gen/c1.rs");
    assert!(!text.contains("Related"), "{text}");
    // Four records added at once: none of them is introduced with the files beside them.
    let store = related(&repo, "src/cache_store.rs");
    assert_eq!(store, json!([]), "\"cache\" is in three titles");
}

#[test]
fn a_comment_naming_a_record_links_it_and_at_most_three_are_shown_ranked() {
    let (repo, _) = repo();
    let hub = related(&repo, "src/hub.rs");
    // ADR-0004 and ADR-0005 (5 each: a link), ADR-0003 (4: two citing commits); ADR-0007's
    // title word (2) is the fourth, left out.
    assert_eq!(ids(&hub), ["ADR-0004", "ADR-0005", "ADR-0003"], "{hub:#}");
    assert_eq!(
        hub[0]["evidence"],
        json!([{"kind": "link", "term": "ADR-0004", "line": 3}])
    );
    assert_eq!(
        hub[1]["evidence"],
        json!([{"kind": "link", "term": "ADR 5", "line": 3}])
    );
    assert_eq!(hub[2]["evidence"], json!([{"kind": "cited", "commits": 2}]));
    assert_eq!(
        hub.as_array()
            .unwrap()
            .iter()
            .map(|r| r["score"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [5, 5, 4]
    );
    let text = markdown(&repo, "src/hub.rs");
    assert!(
        text.contains(
            "- ADR-0004: Parse BibTeX strings (accepted): comment on line 3 says `ADR-0004`\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("- ADR-0003: Generate the clients (accepted): cited by 2 commits that changed this file\n"),
        "{text}"
    );
    assert!(!text.contains("ADR-0007"), "{text}");
}

#[test]
fn a_record_a_marker_declares_governs_and_is_never_related() {
    let (repo, _) = repo();
    let run = repo.run(&["why", "src/w.rs", "--json"]);
    run.assert_code(0);
    let query = &run.json()["query"];
    assert_eq!(query["decisions"][0]["id"], "ADR-0006", "{query:#}");
    assert!(!ids(&query["related"]).contains(&"ADR-0006"), "{query:#}");
    assert_eq!(related(&repo, "src/w.rs"), query["related"]);
}

#[test]
fn distinctive_title_words_in_the_file_name_relate_and_common_ones_do_not() {
    let (repo, _) = repo();
    assert_eq!(
        related(&repo, "src/BibtexStrings.java"),
        // Its title's phrase is a code mention of the file too: a phrase no other record
        // says, naming the file itself, weighs 2.
        json!([{"id": "ADR-0004", "status": "accepted", "score": 5, "evidence": [
            {"kind": "name", "term": "BibTeX strings", "line": 1},
            {"kind": "words", "words": ["bibtex", "string"]},
        ], "title": "Parse BibTeX strings"}])
    );
    // "cache" is in the titles of three records: it tells nothing.
    assert_eq!(related(&repo, "src/cache_store.rs"), json!([]));
    let text = markdown(&repo, "src/BibtexStrings.java");
    assert!(
        text.contains(
            "- ADR-0004: Parse BibTeX strings (accepted): named `BibTeX strings` on line 1; title words `bibtex`, `string`"
        ),
        "{text}"
    );
}

#[test]
fn a_name_written_as_code_relates_and_mentioned_by_keeps_its_meaning() {
    let (repo, _) = repo();
    let run = repo.run(&["why", "src/limits/RateLimiter.java", "--json"]);
    let query = &run.json()["query"];
    assert_eq!(query["mentioned_by"][0]["id"], "ADR-0005", "{query:#}");
    assert_eq!(
        related(&repo, "src/limits/RateLimiter.java"),
        json!([{"id": "ADR-0005", "status": "accepted", "score": 2, "evidence": [
            {"kind": "name", "term": "RateLimiter", "line": 9},
        ], "title": "Cache sessions in memory"}])
    );
    let text = markdown(&repo, "src/limits/RateLimiter.java");
    assert!(
        text.contains(
            "- ADR-0005: Cache sessions in memory (accepted): named `RateLimiter` on line 9"
        ),
        "{text}"
    );
}

#[test]
fn related_records_never_warn_and_never_count_in_a_check() {
    let (repo, _) = repo();
    let before = repo.run(&["check", "--json"]).json()["findings"].clone();
    // An uncited change to the hub, whose comment names ADR-0004 and ADR 5: they are related,
    // not governing, so the commit-msg hook names neither.
    repo.write(
        "src/hub.rs",
        "// The hub.\nfn hub() {}\n// See ADR-0004 and ADR 5 before changing this.\n",
    );
    repo.git(&["add", "-A"]);
    let file = repo.env().path().join("MSG");
    std::fs::write(&file, "Simplify the hub\n").expect("write the message");
    let hook = repo.run(&["hook", "commit-msg", file.to_str().expect("utf-8")]);
    assert_eq!((hook.code, hook.stderr.as_str()), (Some(0), ""));
    let after = repo.run(&["check", "--json"]).json()["findings"].clone();
    assert_eq!(before, after);
    // ... while a governed file's uncited change is warned about.
    repo.write("src/w.rs", "// @adr 6\nfn w() { 1 }\n");
    repo.git(&["add", "-A"]);
    let hook = repo.run(&["hook", "commit-msg", file.to_str().expect("utf-8")]);
    assert!(hook.stderr.contains("ADR-0006"), "{}", hook.stderr);
}

#[test]
fn context_carries_the_related_records_labelled() {
    let (repo, _) = repo();
    let run = repo.run(&["context", "src/hub.rs", "src/w.rs", "--json"]);
    run.assert_code(0);
    let pack = &run.json()["query"]["context"];
    // ADR-0006 governs src/w.rs: never related, though a comment in it names it.
    assert_eq!(
        ids(&pack["related"]),
        ["ADR-0004", "ADR-0005", "ADR-0003"],
        "{pack:#}"
    );
    assert_eq!(pack["decisions"][0]["id"], "ADR-0006", "{pack:#}");
    let text = repo.run(&["context", "src/hub.rs"]).stdout();
    assert!(
        text.contains("## Related (not governing)\n\n- ADR-0004: Parse BibTeX strings (accepted): comment on line 3 says `ADR-0004`\n"),
        "{text}"
    );
    let scanned = repo.run(&no_index(&["context", "src/hub.rs", "src/w.rs", "--json"]));
    assert_eq!(run.stdout(), scanned.stdout());
}

#[test]
fn the_mcp_tools_carry_the_related_records() {
    use rmcp::model::CallToolRequestParams;

    let (repo, _) = repo();
    crate::agents::with_rmcp_client(&repo, async |client| {
        for (tool, args, at) in [
            ("why", json!({"path": "src/hub.rs"}), "/query/related"),
            (
                "context",
                json!({"paths": ["src/hub.rs"]}),
                "/query/context/related",
            ),
        ] {
            let mut params = CallToolRequestParams::new(tool);
            params.arguments = args.as_object().cloned();
            let result = client.call_tool(params).await.expect("a tool answer");
            assert_ne!(result.is_error, Some(true), "{tool}");
            let text = result
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect::<String>();
            let doc: Value = serde_json::from_str(&text).expect("JSON");
            let shown = doc.pointer(at).unwrap_or_else(|| panic!("{tool}: {doc:#}"));
            assert_eq!(ids(shown), ["ADR-0004", "ADR-0005", "ADR-0003"], "{tool}");
        }
    });
}

/// A repository whose first commit holds the meta record alone.
pub(crate) fn started() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-record-architecture-decisions.md",
        &adr(
            1,
            "Record architecture decisions",
            "Accepted",
            None,
            "We keep records.",
        ),
    );
    repo.commit_at("2025-01-01T10:00:00Z", "Ann", "Start the records");
    repo
}

#[test]
fn a_rename_git_sees_between_two_records_does_not_give_one_the_others_first_commit() {
    let repo = started();
    // Records written from one long template: git pairs a deleted one with a new one.
    let template = "## Context\n\nThe team weighed the options at length.\n\n\
                    ## Consequences\n\nEvery service follows this from now on.\n"
        .repeat(8);
    let body = |title: &str| adr(2, title, "Accepted", None, &template);
    repo.write(
        "docs/adr/0002-tenant-deleted.md",
        &body("Tenant deleted event"),
    );
    repo.write("src/tenants/cleanup.rs", "pub fn cleanup() {}\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Clean up deleted tenants");
    // Renumbered elsewhere: git sees `0002-tenant-deleted.md` renamed to a new record.
    repo.remove("docs/adr/0002-tenant-deleted.md");
    repo.write("docs/adr/0002-token-flowchart.md", &body("Token flowchart"));
    repo.commit_at("2025-01-03T10:00:00Z", "Bob", "A flowchart decision");
    let shown = related(&repo, "src/tenants/cleanup.rs");
    assert!(
        !ids(&shown).contains(&"ADR-0002"),
        "the flowchart record was not added with the cleanup: {shown:#}"
    );
}

#[test]
fn a_record_added_with_a_file_changed_by_many_commits_since_is_still_introduced() {
    // Past 64 commits changing the file, the index reads every record's first commit rather
    // than the changes of those commits: the answer is the same either way.
    let repo = started();
    repo.write(
        "docs/adr/0002-throttle-the-exports.md",
        &adr(
            2,
            "Throttle the exports",
            "Accepted",
            None,
            "Exports are throttled.",
        ),
    );
    repo.write("src/export/run.rs", "pub fn run() {}\n");
    let added = repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Decide the export throttle");
    let want = json!([{"id": "ADR-0002", "status": "accepted", "score": 2, "evidence": [
        {"kind": "introduced", "commit": &added[..7]},
    ], "title": "Throttle the exports"}]);
    assert_eq!(related(&repo, "src/export/run.rs"), want);
    for i in 0..70 {
        repo.write("src/export/run.rs", &format!("pub fn run() {{ {i}; }}\n"));
        repo.commit_at(
            "2025-01-03T10:00:00Z",
            "Bob",
            &format!("Tune the export {i}"),
        );
    }
    assert_eq!(related(&repo, "src/export/run.rs"), want);
    let scan: Value = repo
        .run(&["why", "src/export/run.rs", "--json", "--no-index"])
        .json();
    assert_eq!(scan["query"]["related"], want);
}

#[test]
fn a_sweeping_commit_citing_a_record_does_not_relate_it_to_each_of_its_files() {
    let repo = two_records();
    for i in 0..40 {
        repo.write(&format!("src/mod{i}.rs"), "fn f() {}\n");
    }
    repo.commit_at(
        "2025-01-02T10:00:00Z",
        "Ann",
        "Grand refactoring (ADR-0001, ADR-0002)",
    );
    assert_eq!(related(&repo, "src/mod3.rs"), json!([]));
    repo.write("src/mod3.rs", "fn f() { log() }\n");
    repo.commit_at("2025-01-03T10:00:00Z", "Bob", "Log from mod3 (ADR-0002)");
    // One focused citing commit tells only beside other evidence (readers judged 9 of 13
    // such related records wrong); a second one relates the record.
    assert_eq!(related(&repo, "src/mod3.rs"), json!([]));
    repo.write("src/mod3.rs", "fn f() { log(); log() }\n");
    repo.commit_at(
        "2025-01-04T10:00:00Z",
        "Bob",
        "Log twice from mod3 (ADR-0002)",
    );
    assert_eq!(
        related(&repo, "src/mod3.rs"),
        json!([{"id": "ADR-0002", "status": "accepted", "score": 4, "evidence": [
            {"kind": "cited", "commits": 2},
        ], "title": "Log as JSON"}])
    );
}

#[test]
fn a_comment_linking_the_record_file_links_it() {
    let repo = two_records();
    repo.write(
        "src/out.py",
        "import sys\n\n# The format: see docs/adr/0002-log-as-json.md.\nprint('{}')\n",
    );
    repo.write("src/other.py", "x = 'docs/adr/0002-log-as-json.md'\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Bob", "Write the output");
    assert_eq!(
        related(&repo, "src/out.py"),
        json!([{"id": "ADR-0002", "status": "accepted", "score": 5, "evidence": [
            {"kind": "link", "term": "0002-log-as-json.md", "line": 3},
        ], "title": "Log as JSON"}])
    );
    // A string, not a comment.
    assert_eq!(related(&repo, "src/other.py"), json!([]));
}

/// In prose every line counts, and the Markdown says the line, not a comment: a guide, or a
/// record linking another (`why` on a record's own file).
#[test]
fn a_line_of_prose_linking_the_record_links_it_on_that_line() {
    let repo = two_records();
    repo.write(
        "docs/logging.md",
        "# Logging\n\nWe write JSON lines, as ADR-0002 decided.\n",
    );
    repo.commit_at("2025-01-02T10:00:00Z", "Bob", "Write the guide");
    assert_eq!(
        related(&repo, "docs/logging.md"),
        json!([{"id": "ADR-0002", "status": "accepted", "score": 5, "evidence": [
            {"kind": "link", "term": "ADR-0002", "line": 3},
        ], "title": "Log as JSON"}])
    );
    let text = markdown(&repo, "docs/logging.md");
    assert!(
        text.contains("- ADR-0002: Log as JSON (accepted): line 3 says `ADR-0002`\n"),
        "{text}"
    );
    assert!(!text.contains("comment on line"), "{text}");
    let pack = repo.run(&["context", "docs/logging.md"]);
    pack.assert_code(0);
    let pack = pack.stdout();
    assert!(pack.contains("line 3 says `ADR-0002`"), "{pack}");
    assert!(!pack.contains("comment on line"), "{pack}");
}

/// `why` on a record's own file names the decision it is, from the index and from a fresh
/// scan alike, and as the user types the path from the record's folder; another file has no
/// `record_of`.
#[test]
fn why_on_a_record_file_names_the_record_it_is() {
    let repo = two_records();
    let file = "docs/adr/0002-log-as-json.md";
    for extra in [&[][..], &["--no-index"][..]] {
        let run = repo.run(&[&["why", file, "--json"][..], extra].concat());
        run.assert_code(0);
        let query = &run.json()["query"];
        assert_eq!(
            query["record_of"],
            json!({"id": "ADR-0002", "title": "Log as JSON", "status": "accepted"}),
            "{extra:?}"
        );
        assert_eq!(query["decisions"], json!([]));
    }
    let text = markdown(&repo, file);
    assert!(
        text.contains(
            "`docs/adr/0002-log-as-json.md` is the record of ADR-0002: Log as JSON (accepted); `context-graph record ADR-0002` shows it whole.\n"
        ),
        "{text}"
    );
    let from_folder = repo.env().run_in(
        &repo.path().join("docs/adr"),
        ["why", "0002-log-as-json.md", "--json"],
    );
    from_folder.assert_code(0);
    assert_eq!(from_folder.json()["query"]["record_of"]["id"], "ADR-0002");
    // `context`, for an agent about to edit the record, says it too.
    let pack = repo.run(&["context", file]);
    pack.assert_code(0);
    assert!(
        pack.stdout().contains(
            "`docs/adr/0002-log-as-json.md` is the record of ADR-0002: Log as JSON (accepted).\n"
        ),
        "{}",
        pack.stdout()
    );
    let pack = repo.run(&["context", file, "--json"]);
    assert_eq!(
        pack.json()["query"]["context"]["record_files"],
        json!([{"path": file, "id": "ADR-0002", "title": "Log as JSON", "status": "accepted"}])
    );
    repo.write("src/out.py", "print('{}')\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Bob", "Write the output");
    let other = repo.run(&["why", "src/out.py", "--json"]);
    assert!(other.json()["query"].get("record_of").is_none());
    assert!(!markdown(&repo, "src/out.py").contains("is the record of"));
    let pack = repo.run(&["context", "src/out.py", "--json"]);
    assert!(pack.json()["query"]["context"]
        .get("record_files")
        .is_none());
}

/// A repository whose first commit holds two records: the meta record and "Log as JSON".
fn two_records() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-record-architecture-decisions.md",
        &adr(
            1,
            "Record architecture decisions",
            "Accepted",
            None,
            "We keep records.",
        ),
    );
    repo.write(
        "docs/adr/0002-log-as-json.md",
        &adr(
            2,
            "Log as JSON",
            "Accepted",
            None,
            "Every line is an object.",
        ),
    );
    repo.commit_at("2025-01-01T10:00:00Z", "Ann", "Start the records");
    repo
}

/// Two folders numbering their records each from 1 (Open edX's apps): the catalog app's
/// ADR-0001 names `copy_catalog`, a file of its app. Its evidence counts though the api app's
/// ADR-0001 comes first, and the id is shown once.
#[test]
fn records_sharing_an_id_are_weighed_each_on_their_own_evidence() {
    let repo = GitRepo::new();
    repo.write(
        "apps/api/docs/decisions/0001-use-django.md",
        &adr(1, "Use Django", "Accepted", Some("2025-01-01"), "We build on Django."),
    )
    .write(
        "apps/catalog/docs/decisions/0001-sync-all-catalog-data.md",
        &adr(
            1,
            "Sync all catalog data",
            "Accepted",
            Some("2025-01-02"),
            "## Decision\n\nThe copy_catalog script copies everything, in order.",
        ),
    )
    .write("apps/catalog/management/commands/copy_catalog.py", "def handle(): pass\n")
    .write(
        ".context-graph.toml",
        "[[folders]]\npath = \"apps/api/docs/decisions\"\n\n[[folders]]\npath = \"apps/catalog/docs/decisions\"\n",
    );
    repo.commit_at("2025-01-03T10:00:00Z", "Ann", "Start");
    let related = related(&repo, "apps/catalog/management/commands/copy_catalog.py");
    assert_eq!(ids(&related), ["ADR-0001"], "{related}");
    assert_eq!(related[0]["title"], "Sync all catalog data", "{related}");
    assert_eq!(related[0]["evidence"][0]["kind"], "name", "{related}");
}
