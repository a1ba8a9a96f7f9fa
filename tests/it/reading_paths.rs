//! Paths that are not governed code (docs/reading.md): a line suffix, placeholders, URL routes,
//! footnote definitions, images, files in the record folders, what git ignores, and a bare word
//! that happens to match a top-level folder. None of them governs, none is missing.

use crate::env::no_index;
use crate::fixture::record;
use crate::git::GitRepo;
use serde_json::{json, Value};

const RECORD: &str = "docs/adr/0001-frontend-build.md";

fn repository() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        RECORD,
        "# 1. Build the frontend with one bundler\n\nStatus: Accepted\n\nDate: 2025-03-01\n\n\
## Context\n\n\
The entry point is `src/app.ts:12` (see also `src/app.ts#L10-L20` and `src/app.ts:3:7`).\n\
Each package keeps its code in `src/<name>/`; schemas live at `schema/v{major}/schema.json`.\n\
New records are `docs/adr/NNNN-title.md`. The API answers `/api/v2/users` and `/api/v2/{id}`.\n\
Build output goes to `dist/bundle.js`, which is not committed.\n\
The `version` field and the `scripts/` folder matter; `Makefile` does not.\n\
In another project the same lives in `other/project/src/main.rs`.\n\n\
![The build pipeline](images/pipeline.png)\n\n\
The diagram's source is [here](0001-pipeline.drawio).\n\n\
This follows common practice.[^1]\n\n\
[^1]: Existing examples of the pattern.\n",
    )
    .write("docs/adr/0001-pipeline.drawio", "<mxfile/>\n")
    .write("src/app.ts", "export {};\n")
    .write("scripts/build.sh", "#!/bin/sh\n")
    .write("version/README", "v\n")
    .write("api/README", "the api\n")
    .write(
        "Existing/README",
        "a folder that happens to share the footnote's word\n",
    )
    .write(".gitignore", "dist/\n")
    .write("dist/bundle.js", "built\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "The frontend build");
    repo
}

#[test]
fn paths_that_are_not_code_neither_govern_nor_go_missing() {
    let repo = repository();
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    let scanned = repo.run(&no_index(&args));
    assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
    indexed.assert_code(0);
    let doc: Value = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["scripts/", "src/app.ts"]), "{r:#}");
    assert_eq!(r["missing_paths"], json!([]), "{r:#}");
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}

#[test]
fn a_path_written_from_the_root_counts_when_it_is_there() {
    let repo = repository();
    repo.write(
        "docs/adr/0002-root-paths.md",
        "# 2. Paths from the root\n\nStatus: Accepted\n\nIn `/src/app.ts` and `/src/missing.ts`.\n",
    );
    let doc = repo.run(&["check", "--json", "--no-index"]).json();
    let r = record(&doc, "ADR-0002");
    assert_eq!(r["governs"], json!(["src/app.ts"]), "{r:#}");
    assert_eq!(r["missing_paths"], json!([]), "{r:#}");
}

#[test]
fn release_and_upgrade_notes_are_paperwork_not_code() {
    // kuma's zone-proxy record: "… the `defaultForbidMeshExternalServiceAccess` flag — see
    // UPGRADE.md" governed the notes every release adds to (issue 36).
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-zone-proxies.md",
        "# 1. Mesh-scoped zone proxies\n\nStatus: Accepted\n\n## Decision\n\n\
Remove the global zone proxies from `pkg/proxy/`; write the change in `UPGRADE.md`,\n\
`docs/RELEASE_NOTES.md`, `NEWS` and `UPGRADING.rst`.\n",
    )
    .write("pkg/proxy/zone.go", "package proxy\n")
    .write("UPGRADE.md", "# Upgrade\n")
    .write("docs/RELEASE_NOTES.md", "# Notes\n")
    .write("NEWS", "news\n")
    .write("UPGRADING.rst", "Upgrading\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Zone proxies");
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["pkg/proxy/"]), "{r:#}");
    repo.write("UPGRADE.md", "# Upgrade\n\n* ReferenceGrant is checked\n");
    repo.commit_at(
        "2025-03-03T10:00:00Z",
        "Ben",
        "Note the ReferenceGrant change",
    );
    let review: Value = repo.run(&["review", "HEAD~1..HEAD", "--json"]).json();
    assert_eq!(review["query"]["decisions"], json!([]), "{review:#}");
}

#[test]
fn a_range_of_lines_after_a_path_names_the_file() {
    // kumahq/kuma's ADR-0105 cites code as `pkg/dns/vips_allocator.go:360-361`: thirteen such
    // citations were "never had" findings for files that are there.
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-dns.md",
        "# 1. DNS\n\nStatus: Accepted\n\nDate: 2025-03-01\n\n## Decision\n\n\
The VIPs come from `pkg/dns/vips_allocator.go:360-361`.\n",
    )
    .write("pkg/dns/vips_allocator.go", "package dns\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "DNS");
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc: Value = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["pkg/dns/vips_allocator.go"]), "{r:#}");
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}

#[test]
fn a_link_from_the_site_root_to_a_path_never_here_is_the_sites_page() {
    // grafana/loki's record 2 ("Taking inspiration from [Grafana Mimir's implementation]
    // (/docs/mimir/latest/…/ruler/#remote)") links a page of the site its documents are
    // published to: `check` said the repository never had it (issue 36).
    let repo = GitRepo::new();
    repo.write("src/queue/worker.go", "package queue\n")
        .write("src/rules/eval.go", "package rules\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "The queue");
    repo.remove("src/queue/worker.go");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Drop the queue");
    repo.write(
        "docs/sources/lids/0002-remote-rules.md",
        "# 2. Remote rule evaluation\n\nStatus: Accepted\n\n## Decision\n\n\
As [the other product does](/docs/other/latest/ruler/#remote), rules in \
[the evaluator](/src/rules/eval.go) run remotely; [the queue](/src/queue/worker.go) is gone, \
and [the planner](../../../src/planner/) never came.\n",
    );
    repo.commit_at("2025-03-03T10:00:00Z", "Ben", "Remote rules");
    for args in [
        &["check", "--json", "--docs", "docs/sources/lids"][..],
        &["check", "--json", "--git", "--docs", "docs/sources/lids"],
    ] {
        let indexed = repo.run(args);
        assert_eq!(
            indexed.stdout(),
            repo.run(&no_index(args)).stdout(),
            "{}",
            indexed.stderr
        );
        let doc: Value = indexed.json();
        let r = record(&doc, "DR-0002");
        assert_eq!(r["governs"], json!(["src/rules/eval.go"]), "{r:#}");
        let found: Vec<(String, String)> = crate::fixture::finding_list(&doc)
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_string(),
                    f["message"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        // The site's page: nothing. A path from the root that was here: gone. A relative
        // path never here: unknown, as before.
        assert!(
            !found.iter().any(|(_, m)| m.contains("docs/other")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|(c, m)| c == "governed-path-gone" && m.contains("`src/queue/worker.go`")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|(c, m)| c == "governed-path-unknown" && m.contains("`src/planner`")),
            "{found:?}"
        );
    }
}

#[test]
fn a_symbol_in_a_file_git_itself_and_a_file_that_was_are_read_as_a_reader_does() {
    // Three records of issue 36's readings: opensafely-core/job-server names
    // `jobserver/actions/rap.py::rap_status_update()` (the file, at a function); zebra's
    // reproducible-builds record keeps "`.git` out of the context" (git's own folder, no code);
    // its test-architecture record says "the tests lived in a single file
    // (`zebrad/tests/acceptance.rs`)", which the decision split up.
    let repo = GitRepo::new();
    repo.write(
        "jobserver/actions/rap.py",
        "def rap_status_update(): pass\n",
    )
    .write("zebrad/tests/acceptance.rs", "#[test] fn all() {}\n")
    .write("docker/Dockerfile", "FROM scratch\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "The code");
    repo.remove("zebrad/tests/acceptance.rs");
    repo.write("zebrad/tests/unit/mod.rs", "#[test] fn one() {}\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Split the tests");
    repo.write(
        "docs/adr/0001-rap-status.md",
        "# 1. RAP status\n\nStatus: Accepted\n\n## Decision\n\n\
`jobserver/actions/rap.py::rap_status_update()` reads the status.\n",
    )
    .write(
        "docs/adr/0002-hermetic-builds.md",
        "# 2. Hermetic builds\n\nStatus: Accepted\n\n## Decision\n\n\
The build keeps `.git` out of the context of `docker/Dockerfile`.\n",
    )
    .write(
        "docs/adr/0003-test-modules.md",
        "# 3. Test modules\n\nStatus: Accepted\n\n## Context\n\n\
The integration tests lived in a single 4,440-line file (`zebrad/tests/acceptance.rs`).\n\n\
## Decision\n\nOne module a kind, under `zebrad/tests/unit/`.\n",
    );
    repo.commit_at("2025-03-03T10:00:00Z", "Ben", "Records");
    let args = ["check", "--json", "--git"];
    let indexed = repo.run(&args);
    assert_eq!(
        indexed.stdout(),
        repo.run(&no_index(&args)).stdout(),
        "{}",
        indexed.stderr
    );
    let doc: Value = indexed.json();
    assert_eq!(
        record(&doc, "ADR-0001")["governs"],
        json!(["jobserver/actions/rap.py"])
    );
    assert_eq!(
        record(&doc, "ADR-0002")["governs"],
        json!(["docker/Dockerfile"])
    );
    let tests = record(&doc, "ADR-0003");
    assert_eq!(tests["governs"], json!(["zebrad/tests/unit/"]), "{tests:#}");
    assert_eq!(tests["missing_paths"], json!([]), "{tests:#}");
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}

#[test]
fn a_missing_document_is_a_link_to_correct_not_a_decision_to_deprecate() {
    // hyades-apiserver's record 1 links `../design/workflow-state-tracking.md`, a note never
    // added; `check` said to deprecate the record if the decision died (issue 36).
    let repo = GitRepo::new();
    repo.write("src/queue.rs", "pub fn run() {}\n")
        .write("src/main.rs", "fn main() {}\n")
        .write("src/lib.rs", "pub mod queue;\n")
        .write(
        "docs/adr/0001-queue.md",
        "# 1. The queue\n\nStatus: Accepted\n\n## Decision\n\n\
`src/queue.rs` runs it, as [the state note](../design/state.md) and [the guide](../guide.rst) tell.\n",
    );
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "The queue");
    let doc: Value = repo.run(&["check", "--json"]).json();
    let fixes: Vec<String> = crate::fixture::findings_of(&doc, "governed-path-unknown", "ADR-0001")
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(fixes.len(), 2, "{:#}", doc["findings"]);
    assert!(
        fixes
            .iter()
            .all(|m| m.ends_with("correct the path or link, or drop it if the page is gone")),
        "{fixes:?}"
    );
    // Grouped, the fix they share is the same.
    let text = repo.run(&["check"]).stdout();
    assert!(
        text.contains("  - Fix: correct the path or link, or drop it if the page is gone"),
        "{text}"
    );
    // A missing file of code keeps the decision's question.
    repo.write(
        "docs/adr/0002-cache.md",
        "# 2. The cache\n\nStatus: Accepted\n\nIn `src/cache.rs`.\n",
    );
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "The cache");
    let doc: Value = repo.run(&["check", "--json"]).json();
    let code = crate::fixture::findings_of(&doc, "governed-path-unknown", "ADR-0002");
    assert!(
        code[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("deprecate the record if the decision died, or find where the code went"),
        "{code:?}"
    );
}
