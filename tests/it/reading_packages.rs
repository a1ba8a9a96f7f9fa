//! Records as monorepos and small teams write them (docs/reading.md, docs/mentions.md,
//! docs/related.md; ADR-0001, ADR-0017): a package's records name that package's code, a
//! diagram's boxes name code, `` API `v3` `` names the version's folder, "Implementation:" in
//! a Links section governs, a heading copied from the first record leaves the file's name to
//! say what the record is about, and `0009 - Title` is titled "Title". Through the binary.

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2025-03-01T10:00:00Z";

/// The folder of the monorepo's records, which discovery does not look in by itself.
const GEN_AI: &str = "packages/gen-ai/docs/adr";

/// The folders to pass: gen-ai's when the repository has it.
fn docs(g: &GitRepo) -> Vec<&'static str> {
    match g.path().join(GEN_AI).is_dir() {
        true => vec!["--docs", GEN_AI],
        false => vec![],
    }
}

fn mentioned(g: &GitRepo, id: &str) -> Vec<String> {
    record(g, id)["code_mentions"]
        .as_array()
        .expect("code_mentions")
        .iter()
        .map(|m| m["path"].as_str().unwrap_or("").to_string())
        .collect()
}

fn related(g: &GitRepo, path: &str) -> Vec<(String, Value)> {
    let mut args = vec!["why", path, "--json"];
    args.extend(docs(g));
    let q: Value = g.run(&args).json();
    crate::related::without_text(&q["query"]["related"])
        .as_array()
        .expect("related")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap_or("").to_string(),
                r["evidence"].clone(),
            )
        })
        .collect()
}

/// The ids of `why PATH`'s related records, in order.
fn related_ids(g: &GitRepo, path: &str) -> Vec<String> {
    related(g, path).into_iter().map(|(id, _)| id).collect()
}

fn record(g: &GitRepo, id: &str) -> Value {
    let mut args = vec!["--json"];
    args.extend(docs(g));
    let j: Value = g.run(&args).json();
    j["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))
        .clone()
}

/// Two packages with the same layout; the records are gen-ai's.
fn monorepo() -> GitRepo {
    let g = GitRepo::new();
    for pkg in ["gen-ai", "maas"] {
        g.write(
            &format!("packages/{pkg}/bff/internal/api/app.go"),
            "package api\n",
        );
        g.write(
            &format!("packages/{pkg}/bff/internal/cache/memory_store.go"),
            "package cache\n",
        );
        g.write(
            &format!("packages/{pkg}/bff/internal/cache/token_cache.go"),
            "package cache\n",
        );
    }
    g.write(
        "packages/gen-ai/docs/adr/0009-maas-service-autodiscovery.md",
        "# 0009 - MaaS Service Autodiscovery\n\nStatus: accepted\n\n## Decision\n\n\
         The BFF discovers the cluster domain at startup.\n\n## Links\n\n\
         * [Implementation] See `internal/api/app.go` (startup)\n",
    );
    g.write(
        "packages/gen-ai/docs/adr/0008-caching-strategy.md",
        "# 0008 - Caching strategy\n\nStatus: accepted\n\n## Decision\n\n\
         Responses are kept by the `TokenCache` for five minutes.\n",
    );
    g.commit_at(DATE, "Ann", "initial");
    g
}

#[test]
fn a_package_record_names_its_own_package_code() {
    let g = monorepo();
    // `internal/api/app.go` ends two files; written in gen-ai's record, it is gen-ai's.
    assert_eq!(
        mentioned(&g, "ADR-0009"),
        ["packages/gen-ai/bff/internal/api/app.go"]
    );
    // `TokenCache` names a file in each package: gen-ai's.
    assert_eq!(
        mentioned(&g, "ADR-0008"),
        ["packages/gen-ai/bff/internal/cache/token_cache.go"]
    );
    assert_eq!(
        related_ids(&g, "packages/gen-ai/bff/internal/api/app.go"),
        ["ADR-0009"]
    );
    assert!(related(&g, "packages/maas/bff/internal/api/app.go").is_empty());
}

#[test]
fn a_number_and_a_dash_before_the_title_are_not_the_title() {
    let g = monorepo();
    assert_eq!(
        record(&g, "ADR-0009")["title"],
        "MaaS Service Autodiscovery"
    );
    assert_eq!(record(&g, "ADR-0008")["title"], "Caching strategy");
}

#[test]
fn an_implementation_item_of_a_links_section_governs() {
    let g = GitRepo::new();
    g.write("pkg/config/config.go", "package config\n");
    g.write("pkg/api/api.go", "package api\n");
    g.write("example/config.yaml", "port: 1\n");
    g.write("cmd/main.go", "package main\n");
    g.write("pkg/flags/flags.go", "package flags\n");
    g.write("pkg/fallback/fallback.go", "package fallback\n");
    g.write(
        "docs/adr/0002-configuration.md",
        "# 2. Configuration\n\nStatus: accepted\n\n## Decision\n\nDefaults, a file, then \
         the environment.\n\n## Links\n\n- Implementation: `pkg/config/config.go`\n\
         - Command-line parsing: `cmd/main.go`\n- Example: `example/config.yaml`\n\
         - Related: `pkg/api/api.go`\n- [Flag handling](../../pkg/flags/flags.go)\n\
         - Existing pattern: `Fallback` in `pkg/fallback/`\n",
    );
    g.commit_at(DATE, "Ann", "initial");
    let r = record(&g, "ADR-0002");
    assert_eq!(
        r["governs"],
        serde_json::json!(["cmd/main.go", "pkg/config/config.go"])
    );
    // The other items of the section still only point: an example, a related file, a link
    // to read more. Mentions, not governed.
    let mentions = mentioned(&g, "ADR-0002");
    for pointed in [
        "example/config.yaml",
        "pkg/api/api.go",
        "pkg/flags/flags.go",
        "pkg/fallback/",
    ] {
        assert!(
            mentions.contains(&pointed.to_string()),
            "{pointed}: {mentions:?}"
        );
    }
    assert!(!mentions.contains(&"pkg/config/config.go".to_string()));
}

#[test]
fn a_diagram_names_the_code_its_boxes_carry() {
    let g = GitRepo::new();
    g.write(
        "analysis/src/main/kotlin/pipeline/processing/ProcessingPipeline.kt",
        "class ProcessingPipeline\n",
    );
    g.write("analysis/src/main/kotlin/Main.kt", "fun main() {}\n");
    g.write(
        "visualization/src/app/adapter/ProjectNodeConverter.ts",
        "export class ProjectNodeConverter {}\n",
    );
    g.write(
        "doc/architecture/decisions/0004-use-a-clear-dataflow.md",
        "# 4. Use a clear dataflow\n\nStatus: accepted\n\n## Decision\n\n\
         The analysis runs as follows:\n\n```mermaid\ngraph\n    A[Command Line]-->B[Main]\n\
         \x20   B --> D[ProcessingPipeline]\n```\n\nA loaded file is converted:\n\n\
         ```mermaid\nsequenceDiagram\n    participant C as ProjectNodeConverter\n```\n\n\
         ```text\nX[NotDrawnHere]\n```\n",
    );
    g.commit_at(DATE, "Ann", "initial");
    assert_eq!(
        mentioned(&g, "ADR-0004"),
        [
            "analysis/src/main/kotlin/pipeline/processing/ProcessingPipeline.kt",
            "visualization/src/app/adapter/ProjectNodeConverter.ts",
        ]
    );
    assert_eq!(
        related_ids(&g, "visualization/src/app/adapter/ProjectNodeConverter.ts"),
        ["ADR-0004"]
    );
}

#[test]
fn a_version_in_backticks_names_the_folder_of_that_version() {
    let g = GitRepo::new();
    for v in ["v2", "v3"] {
        g.write(
            &format!("src/main/scala/web/api/{v}/Routes.scala"),
            "object Routes\n",
        );
    }
    g.write(
        "src/test/scala/web/api/v3/RoutesSpec.scala",
        "object RoutesSpec\n",
    );
    g.write("src/main/scala/web/store/v3/Store.scala", "object Store\n");
    g.write(
        "docs/adr/ADR-0009-api-v3.md",
        "# ADR-009: API `v3` for client-optimized endpoints\n\nStatus: accepted\n\n\
         ## Decision\n\nWe will build a new v3 API beside v2.\n",
    );
    g.commit_at(DATE, "Ann", "initial");
    assert_eq!(mentioned(&g, "ADR-0009"), ["src/main/scala/web/api/v3/"]);
    assert_eq!(related_ids(&g, "src/main/scala/web/api/v3/"), ["ADR-0009"]);
}

#[test]
fn a_heading_copied_from_the_first_record_leaves_the_name_to_speak() {
    let g = GitRepo::new();
    g.write(
        "src/Services/DqtApi/DqtApiClient.cs",
        "class DqtApiClient {}\n",
    );
    g.write("src/Services/Mail/MailClient.cs", "class MailClient {}\n");
    let first = "# 1. Record architecture decisions\n\nDate: 2021-12-13\n\n## Status\n\n\
                 Accepted\n\n## Context\n\n";
    g.write(
        "docs/adr/0001-record-architecture-decisions.md",
        &format!("{first}We record decisions.\n"),
    );
    g.write(
        "docs/adr/0003-use-existing-DQT-API.md",
        &format!("{first}We will call the existing service for teacher records.\n"),
    );
    g.commit_at(DATE, "Ann", "initial");
    let got = related(&g, "src/Services/DqtApi/DqtApiClient.cs");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "ADR-0003");
    assert_eq!(got[0].1[0]["kind"], "words");
    assert_eq!(got[0].1[0]["file_name"], true);
    // The first record's own name is its title: nothing of it in the mail client.
    assert!(related(&g, "src/Services/Mail/MailClient.cs").is_empty());
    let md = g.run(&["why", "src/Services/DqtApi/DqtApiClient.cs"]);
    let out = md.stdout();
    assert!(out.contains("file name words `dqt`"), "{out}");
}
