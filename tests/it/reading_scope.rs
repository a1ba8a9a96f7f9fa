//! Declared scope (docs/scope.md) and "gone means it was there" (docs/reading.md): a record that declares
//! what it governs in its frontmatter governs exactly that, in `why`, drift, the checks and the
//! index; a missing path the history never had is `governed-path-unknown`.

use crate::env::{no_index, Run};
use crate::fixture::{assert_corpus, copy_fixture, findings_of, record};
use crate::git::GitRepo;
use serde_json::Value;

const SCOPE: &str = "reading/declared-scope";

fn why(run: &Run) -> Vec<(String, Vec<String>)> {
    let doc = run.json();
    doc["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| {
            let matches = d["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            (d["id"].as_str().unwrap().to_string(), matches)
        })
        .collect()
}

fn ids(answer: &[(String, Vec<String>)]) -> Vec<&str> {
    answer.iter().map(|(id, _)| id.as_str()).collect()
}

#[test]
fn a_declared_scope_is_the_records_scope() {
    assert_corpus(SCOPE);
    let doc = crate::fixture::json(SCOPE);
    // Patterns as written, in order, negations included.
    assert_eq!(
        record(&doc, "ADR-0001")["governs"],
        serde_json::json!(["src/auth/", "!src/auth/generated/"])
    );
    assert_eq!(
        record(&doc, "ADR-0002")["governs"],
        serde_json::json!([
            "pkg/adapters/catalog-*/**",
            "!pkg/adapters/catalog-legacy/**"
        ])
    );
    // ADR-0007 governs the same pattern as ADR-0002 and ADR-0006 but names them as related:
    // no overlap to report (ADR-0002 and ADR-0006 do not, and overlap).
    assert!(findings_of(&doc, "overlapping-governance", "ADR-0007").is_empty());
    // The prose of ADR-0001 names `src/billing/` and `lib/legacy-auth/`: mentions only.
    assert!(findings_of(&doc, "governed-path-gone", "ADR-0001").is_empty());
}

/// adrkit warns of an `affects` overlap while a record is proposed, so two accepted records
/// that share an `affects:` pattern were read together already (ADR-0020): no finding. A
/// record declaring `governs:` on the same path is still an overlap.
#[test]
fn accepted_adrkit_records_sharing_an_affects_pattern_are_no_overlap() {
    const KIT: &str = "reading/adrkit-overlap";
    assert_corpus(KIT);
    let doc = crate::fixture::json(KIT);
    let overlaps: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "overlapping-governance")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(overlaps.len(), 1, "{overlaps:?}");
    assert!(
        overlaps[0].contains("ADR-0002 and ADR-0004") && overlaps[0].contains("index.ts"),
        "{overlaps:?}"
    );
    // `package.json` (ADR-0001, ADR-0002) and `packages/core/**` (ADR-0001, ADR-0003) are
    // shared only by `affects:` records: not named in any finding.
    assert!(
        overlaps.iter().all(|m| !m.contains("package.json")),
        "{overlaps:?}"
    );
    // Where each record's scope comes from, in the JSON.
    assert_eq!(record(&doc, "ADR-0001")["declared_in"], "affects");
    assert_eq!(record(&doc, "ADR-0004")["declared_in"], "governs");
    let scope = crate::fixture::json(SCOPE);
    assert_eq!(record(&scope, "ADR-0002")["declared_in"], "affects");
    assert_eq!(record(&scope, "ADR-0006")["declared_in"], "governs");
}

#[test]
fn why_follows_a_declared_scope() {
    let fixture = copy_fixture(SCOPE);
    let ask = |path: &str| why(&fixture.run_json(&["why", path]));
    // A negation excludes, the last matching entry wins.
    assert_eq!(ids(&ask("src/auth/generated/client.rs")), ["ADR-0005"]);
    assert_eq!(ids(&ask("src/auth/login.rs")), ["ADR-0001", "ADR-0005"]);
    // A path the prose names in passing is not governed.
    assert!(ask("src/billing/invoice.rs").is_empty());
    // A glob is never widened to its folder; it meets a folder through the files under it.
    assert!(ask("pkg/adapters/http/src/index.ts").is_empty());
    assert!(ask("pkg/adapters/http").is_empty());
    assert_eq!(
        ask("pkg/adapters"),
        [
            (
                "ADR-0002".to_string(),
                vec!["pkg/adapters/catalog-*/**".to_string()]
            ),
            (
                "ADR-0006".to_string(),
                vec!["pkg/adapters/catalog-*/**".to_string()]
            ),
            (
                "ADR-0007".to_string(),
                vec!["pkg/adapters/catalog-*/**".to_string()]
            ),
        ]
    );
    assert_eq!(
        ids(&ask("pkg/adapters/catalog-legacy")),
        ["ADR-0006", "ADR-0007"]
    );
    assert_eq!(
        ids(&ask("pkg/adapters/catalog-aws/src/index.ts")),
        ["ADR-0002", "ADR-0006", "ADR-0007"]
    );
    assert_eq!(ids(&ask("proto")), ["ADR-0003"]);
    assert_eq!(
        ids(&ask("src/auth/session.proto")),
        ["ADR-0001", "ADR-0003", "ADR-0005"]
    );
}

/// Two records, one declaring its scope, in a repository whose commits touch paths inside,
/// outside and excluded from it; and records naming paths that once were there and ones that
/// never were.
fn scoped_history() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-adapters.md",
        "---\ntitle: Catalog adapters\nstatus: accepted\ndate: 2025-03-01\ngoverns:\n  - \"pkg/adapters/catalog-*/**\"\n  - \"!pkg/adapters/catalog-legacy/**\"\n  - apps/web/\n---\n\n# Catalog adapters\n\nNot `pkg/adapters/http/`.\n",
    )
    .write(
        "docs/adr/0002-old-tool.md",
        "# 2. Keep the old tool\n\nStatus: Accepted\n\nDate: 2025-01-01\n\nIn `tools/old/run.sh` and `tools/never/run.sh`.\n",
    )
    .write("pkg/adapters/catalog-aws/a.ts", "1\n")
    .write("pkg/adapters/catalog-legacy/b.ts", "1\n")
    .write("pkg/adapters/http/c.ts", "1\n")
    .write("tools/old/run.sh", "1\n");
    repo.commit_at("2025-02-01T10:00:00Z", "Ana", "Start");
    for (i, path) in [
        "pkg/adapters/catalog-aws/a.ts",
        "pkg/adapters/catalog-legacy/b.ts",
        "pkg/adapters/http/c.ts",
    ]
    .iter()
    .enumerate()
    {
        repo.write(path, "2\n");
        repo.commit_at(
            &format!("2025-04-0{}T10:00:00Z", i + 1),
            "Ben",
            &format!("Change {path}"),
        );
    }
    repo.remove("tools/old/run.sh");
    repo.commit_at("2025-05-01T10:00:00Z", "Cy", "Drop the old tool");
    repo
}

#[test]
fn drift_counts_what_a_declared_scope_governs_with_and_without_the_index() {
    let repo = scoped_history();
    let args = ["record", "ADR-1", "--git", "--json"];
    let indexed = repo.run(&args);
    let scanned = repo.run(&no_index(&args));
    assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
    let doc = indexed.json();
    let drift = &doc["records"][0]["drift"];
    let subjects: Vec<&str> = drift["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        ["Change pkg/adapters/catalog-aws/a.ts"],
        "{drift:#}"
    );
}

#[test]
fn a_path_the_history_never_had_is_unknown_and_one_it_had_is_gone() {
    let repo = scoped_history();
    for args in [&["check", "--json"][..], &["check", "--json", "--git"]] {
        let indexed = repo.run(args);
        let scanned = repo.run(&no_index(args));
        assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
        assert_eq!(indexed.code, Some(1), "a gone path is still a problem");
        let doc: Value = indexed.json();
        let messages = |code: &str, id: &str| -> Vec<String> {
            findings_of(&doc, code, id)
                .iter()
                .map(|f| f["message"].as_str().unwrap().to_string())
                .collect()
        };
        // Declared, never there: a warning.
        let unknown = messages("governed-path-unknown", "ADR-0001");
        assert_eq!(unknown.len(), 1, "{doc:#}");
        assert!(unknown[0].contains("`apps/web/`, which this repository has never had"));
        assert!(messages("governed-path-gone", "ADR-0001").is_empty());
        // Named in prose: one was there and is gone (a problem), one never was.
        let gone = messages("governed-path-gone", "ADR-0002");
        assert_eq!(gone.len(), 1, "{doc:#}");
        assert!(gone[0].contains("`tools/old/run.sh`"));
        let unknown = messages("governed-path-unknown", "ADR-0002");
        assert_eq!(unknown.len(), 1, "{doc:#}");
        assert!(unknown[0].contains("`tools/never/run.sh`"));
        for f in findings_of(&doc, "governed-path-unknown", "ADR-0002") {
            assert_eq!(f["severity"], "warning");
        }
    }
}

#[test]
fn outside_git_a_missing_path_stays_gone() {
    let fixture = copy_fixture(SCOPE);
    let doc = fixture.run_json(&["check"]).json();
    assert_eq!(findings_of(&doc, "governed-path-gone", "ADR-0004").len(), 2);
    assert!(findings_of(&doc, "governed-path-unknown", "ADR-0004").is_empty());
}
