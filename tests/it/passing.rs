//! Paths a record names in passing do not govern; they are its code mentions, so `why` still
//! shows them (docs/reading.md, "Named in passing"; ADR-0017; issue 36). Each phrase in a
//! record of its own, and counter-examples that still govern.

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2024-03-01T10:00:00Z";

/// A record with this decision text, in `docs/adr`.
fn record(n: u32, title: &str, body: &str) -> (String, String) {
    (
        format!(
            "docs/adr/{n:04}-{}.md",
            title.to_lowercase().replace(' ', "-")
        ),
        format!("# {n}. {title}\n\nStatus: accepted\n\n{body}\n"),
    )
}

/// (record number, phrase, its decision text, the path it names in passing).
const PHRASES: &[(u32, &str, &str, &str)] = &[
    (1, "e.g.", "## Decision\n\nHandlers stay thin, e.g. `web/orders.go`.", "web/orders.go"),
    (2, "for example", "## Decision\n\nRetries back off, for example in `jobs/retry.py`.", "jobs/retry.py"),
    (3, "such as", "## Decision\n\nShared helpers such as `lib/strings.rs` stay small.", "lib/strings.rs"),
    (4, "similar to", "## Decision\n\nThe new ledger is similar to `billing/ledger.rb`.", "billing/ledger.rb"),
    (5, "as in", "## Decision\n\nSessions expire after an hour, as in `auth/session.go`.", "auth/session.go"),
    (6, "like", "## Decision\n\nA queue like `queue/mailer.py` keeps its own retries.", "queue/mailer.py"),
    (7, "reuses the existing", "## Decision\n\nThe store reuses the existing [`cache`](../../cache) module.", "cache/"),
    (8, "the existing", "## Decision\n\nExports keep the existing `export/csv.rb` format.", "export/csv.rb"),
    (9, "see", "## Decision\n\nWe pin the pool size. See `tools/bench.sh` for the numbers.", "tools/bench.sh"),
    (10, "read … first", "## Decision\n\nNew hires read `onboarding/setup.txt` first.", "onboarding/setup.txt"),
    (11, "described in", "## Decision\n\nPayments follow the flow described in `flows/payment.yaml`.", "flows/payment.yaml"),
    (12, "documented in", "## Decision\n\nRate limits are as documented in [the limits page](../limits.md).", "docs/limits.md"),
    (13, "possessive", "## Decision\n\nThe installer adds entries to `package.json`'s `scripts` section.", "package.json"),
    (14, "documentation in Context", "## Context\n\nUsers follow [the user guide](../user/guide.md).\n\n## Decision\n\nWe keep one guide.", "docs/user/guide.md"),
    (15, "documentation in References", "## Decision\n\nWe keep one guide.\n\n## References\n\n- [Handbook](../../handbook/)", "handbook/"),
    (16, "an alternative", "## Decision\n\nWe push events.\n\n## Alternatives\n\n- Polling from `poll/loop.go` every minute.", "poll/loop.go"),
    (17, "an option not chosen", "## Considered Options\n\n* Keep `store/files.go`\n* Use `store/pg.go`\n\n## Decision Outcome\n\nChosen option: \"Use `store/pg.go`\", because it scales.", "store/files.go"),
    (18, "an exception", "## Decision\n\nWe use workspaces. Code on the default one is listed as an exception.\n\n## Exceptions\n\n* `infra/github`", "infra/github/"),
    (20, "files of a kind", "## Decision\n\nEach release updates the `Cargo.toml` files of the crates.", "Cargo.toml"),
    (21, "each one's", "## Decision\n\nSettings move out of each module's `build.gradle.kts` file into one plugin.", "build.gradle.kts"),
    (22, "linked in References", "## Decision\n\nBlocks are made lazily.\n\n## References\n\n- [Block manager implementation](../../block)", "block/"),
    (23, "the individual", "## Decision\n\nTeams keep their tags in the individual `project.json`.", "project.json"),
    (24, "where dependencies go", "## Decision\n\nWe vendor the client and add its dependencies to `pyproject.toml`.", "pyproject.toml"),
    (25, "etc.", "## Decision\n\nThe filter skips code changes in `lib/`, `tools/gen.py`, etc.", "tools/gen.py"),
    (26, "a labelled scenario", "## Decision\n\nPreviews build only for submissions.\n\n**Scenario 1**: a PR modifies `lib/compile.hs`.", "lib/compile.hs"),
    (27, "relative to", "## Decision\n\nThe port maps each module. File paths are relative to `web/`.", "web/"),
    (28, "the same … as", "## Decision\n\nThe new package has the same API and exports as `packages/web/`.", "packages/web/"),
    (29, "their", "## Decision\n\nFunctions in development use a `replace` directive in their `go.mod`.", "go.mod"),
    (35, "your", "## Decision\n\nAdopters add the hook to your `lefthook.yml` by hand.", "lefthook.yml"),
    (36, "the user's", "## Decision\n\nThe extension never writes the user's `settings.json`.", "settings.json"),
    (38, "anywhere under", "## Decision\n\nThe new type is not referenced anywhere under `shared/` yet.", "shared/"),
    (19, "out of scope", "## Decision\n\nEvery job retries.\n\n## Out of scope\n\n- The cron in `ops/cron.sh` keeps its own schedule.", "ops/cron.sh"),
];

/// Records that name their subject: each still governs this path.
const GOVERNING: &[(u32, &str, &str)] = &[
    (
        30,
        "## Decision\n\nWe will move authentication into `src/auth/`.",
        "src/auth/",
    ),
    (
        31,
        "## Decision\n\n`src/sessions/` owns every session.",
        "src/sessions/",
    ),
    (
        32,
        "## Decision\n\nWe will replace the existing `src/legacy.rs` handler.",
        "src/legacy.rs",
    ),
    (
        33,
        "## Decision\n\nWe would like `src/core/` to own parsing.",
        "src/core/",
    ),
    (
        34,
        "## Decision\n\nWe write [the operations guide](../ops.md) and keep it current.",
        "docs/ops.md",
    ),
    (
        37,
        "## Decision\n\nTeams keep their build steps in `build.ninja`.",
        "build.ninja",
    ),
];

fn repo() -> GitRepo {
    let g = GitRepo::new();
    for (n, _, body, _) in PHRASES {
        let (path, text) = record(*n, &format!("Phrase {n}"), body);
        g.write(&path, &text);
    }
    for (n, body, _) in GOVERNING {
        let (path, text) = record(*n, &format!("Subject {n}"), body);
        g.write(&path, &text);
    }
    for (_, _, _, path) in PHRASES {
        if !path.ends_with('/') {
            g.write(path, "code\n");
        }
    }
    for (_, _, path) in GOVERNING {
        if !path.ends_with('/') {
            g.write(path, "code\n");
        }
    }
    for folder in [
        "cache/",
        "handbook/",
        "src/auth/",
        "src/sessions/",
        "src/core/",
        "infra/github/",
        "block/",
        "packages/web/",
        "shared/",
    ] {
        g.write(&format!("{folder}main.rs"), "code\n");
    }
    g.write("store/pg.go", "code\n");
    g.commit_at(DATE, "Ann", "initial");
    g
}

/// Each record's `governs` in the full check.
fn governs(g: &GitRepo) -> Vec<(String, Vec<String>)> {
    let run = g.run(&["check", "--json"]);
    let j: Value = run.json();
    j["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            let list = r["governs"].as_array().expect("governs");
            (
                r["id"].as_str().unwrap_or("").to_string(),
                list.iter()
                    .map(|p| p.as_str().unwrap_or("").to_string())
                    .collect(),
            )
        })
        .collect()
}

fn id(n: u32) -> String {
    format!("ADR-{n:04}")
}

#[test]
fn each_phrase_makes_a_path_passing_not_governing_and_why_still_shows_it() {
    let g = repo();
    let all = governs(&g);
    for (n, phrase, _, path) in PHRASES {
        let own = all.iter().find(|(i, _)| *i == id(*n)).expect("record");
        assert!(
            !own.1.iter().any(|p| p == path),
            "{phrase}: {path} is named in passing, not governed: {all:?}"
        );
        let why = g.run(&["why", path, "--json"]);
        why.assert_finished();
        let q: Value = why.json();
        assert_eq!(
            q["query"]["decisions"],
            serde_json::json!([]),
            "{phrase}: nothing governs {path}: {q:#}"
        );
        let by = q["query"]["mentioned_by"].as_array().expect("mentioned_by");
        assert!(
            by.iter().any(|m| m["id"] == id(*n).as_str()),
            "{phrase}: {path} is mentioned by {}: {q:#}",
            id(*n)
        );
    }
}

#[test]
fn a_path_that_is_the_subject_of_the_decision_still_governs() {
    let g = repo();
    let all = governs(&g);
    for (n, _, path) in GOVERNING {
        let own = all.iter().find(|(i, _)| *i == id(*n)).expect("record");
        assert_eq!(own.1, vec![path.to_string()], "{all:?}");
    }
    // The chosen option's path governs; the one not chosen is a mention.
    let chosen = all.iter().find(|(i, _)| *i == id(17)).expect("record");
    assert_eq!(chosen.1, vec!["store/pg.go".to_string()], "{all:?}");
}

#[test]
fn a_passing_path_that_is_gone_is_no_finding() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-queues.md",
        "# 1. Queues\n\nStatus: accepted\n\n## Decision\n\nWe keep one queue per tenant, \
         similar to `queue/shared.rb`.\nThe queue lives in `queue/tenant.rb`.\n",
    );
    for name in ["tenant", "shared", "worker", "retry"] {
        g.write(&format!("queue/{name}.rb"), "code\n");
    }
    g.commit_at(DATE, "Ann", "initial");
    g.git(&["rm", "-q", "queue/shared.rb"]);
    g.commit_at("2024-03-02T10:00:00Z", "Ann", "Drop the shared queue");
    let findings = g.governed_path_findings();
    assert!(findings.is_empty(), "{findings:?}");
    let all = governs(&g);
    assert_eq!(all[0].1, vec!["queue/tenant.rb".to_string()], "{all:?}");
}

#[test]
fn the_meta_record_does_not_govern_the_record_folder() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-record-architecture-decisions.md",
        "# 1. Record architecture decisions\n\nStatus: accepted\n\n## Decision\n\n\
         We will record architecture decisions in `docs/adr`, one file each.\n",
    );
    g.write(
        "docs/adr/0002-use-a-queue.md",
        "# 2. Use a queue\n\nStatus: accepted\n\n## Decision\n\nWe use `queue/`.\n",
    );
    g.write("queue/main.rs", "code\n");
    g.commit_at(DATE, "Ann", "initial");
    let all = governs(&g);
    assert!(all[0].1.is_empty(), "{all:?}");
    let why = g.run(&["why", "docs/adr/0002-use-a-queue.md", "--json"]);
    why.assert_finished();
    let q: Value = why.json();
    assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
    let findings = g.governed_path_findings();
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn a_record_with_declared_scope_keeps_its_prose_paths_as_mentions() {
    let g = GitRepo::new();
    g.write(
        "docs/decisions/ADR-0011-emit-schema.md",
        "---\nid: ADR-0011\ntitle: Emit the schema\nstatus: accepted\naffects:\n  - type: path\n    \
         pattern: packages/cli/**\n---\n\n# Emit the schema\n\n## Decision\n\nThe CLI calls \
         `packages/core/src/schema/emit.ts` and writes `packages/cli/out.ts`.\n",
    );
    g.write("packages/core/src/schema/emit.ts", "export {}\n");
    g.write("packages/cli/out.ts", "export {}\n");
    g.commit_at(DATE, "Ann", "initial");
    let mentions = g.code_mentions("ADR-0011");
    let paths: Vec<&str> = mentions
        .iter()
        .map(|m| m["path"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(paths, ["packages/core/src/schema/emit.ts"], "{mentions:?}");
    let why = g.run(&["why", "packages/core/src/schema/emit.ts", "--json"]);
    why.assert_finished();
    let q: Value = why.json();
    assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
    assert_eq!(q["query"]["mentioned_by"][0]["id"], "ADR-0011", "{q:#}");
    assert_eq!(
        q["query"]["mentioned_by"][0]["term"], "packages/core/src/schema/emit.ts",
        "{q:#}"
    );
}

/// The commit hook reads the same governance: a commit of a path a record names in passing is
/// not warned about; one of the path it is about is.
#[test]
fn the_commit_hook_warns_for_the_subject_not_for_a_path_named_in_passing() {
    use crate::hooks::{commit, install, ok};
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-retries.md",
        "# 1. Retries\n\nStatus: accepted\n\n## Decision\n\nJobs retry three times in \
         `jobs/retry.py`, similar to `web/client.py`.\n",
    );
    g.write("jobs/retry.py", "retries = 3\n");
    g.write("web/client.py", "retries = 3\n");
    g.commit_at(DATE, "Ann", "initial");
    install(&g);
    let quiet = ok(
        &commit(&g, "web/client.py", "retries = 4\n", "Tune the client"),
        "git commit",
    );
    assert!(!quiet.contains("ADR-0001"), "{quiet}");
    let warned = ok(
        &commit(&g, "jobs/retry.py", "retries = 4\n", "Tune the jobs"),
        "git commit",
    );
    assert!(warned.contains("governed by ADR-0001"), "{warned}");
}

/// A folder named right before a block listing the paths it gets is where they go: the listed
/// paths govern, the folder is a mention. A shared file the decision only registers its part in
/// ("register … in", "mirrored in", "new entries in") is a mention too. `review` then warns only
/// about the decision's own files.
#[test]
fn a_folder_listed_into_and_the_files_a_decision_registers_in_do_not_govern() {
    let g = GitRepo::new();
    let (path, text) = record(
        1,
        "Mini app monitoring",
        "## Decision\n\n\
         The analyzer lives in `oap/mini/analyzer.rs`.\n\nAdd under `e2e/cases/`:\n\n\
         ```\ne2e/cases/mini/e2e.yaml        # the workload\ne2e/cases/mini/expected/\n```\n\n\
         Register the two cases in `.ci/e2e.yaml` e2e matrix. Every default it changes must be \
         mirrored in `e2e/cases/storage/dump.yml`. Two new entries in `docs/menu.yml` under \
         \"Mobile\".",
    );
    g.write(&path, &text);
    for path in [
        "oap/mini/analyzer.rs",
        "e2e/cases/mini/e2e.yaml",
        "e2e/cases/mini/expected/out.yml",
        "e2e/cases/kafka/e2e.yaml",
        ".ci/e2e.yaml",
        "e2e/cases/storage/dump.yml",
        "docs/menu.yml",
    ] {
        g.write(path, "x\n");
    }
    g.commit_at(DATE, "Ann", "initial");
    let all = governs(&g);
    assert_eq!(
        all[0].1,
        [
            "e2e/cases/mini/e2e.yaml",
            "e2e/cases/mini/expected/",
            "oap/mini/analyzer.rs"
        ],
        "{all:?}"
    );
    for path in ["e2e/cases/kafka/e2e.yaml", ".ci/e2e.yaml", "docs/menu.yml"] {
        let q: Value = g.run(&["why", path, "--json"]).json();
        assert_eq!(
            q["query"]["decisions"],
            serde_json::json!([]),
            "{path}: {q:#}"
        );
    }
    // Another case, the matrix and the menu: nothing to cite; the decision's own case: cited.
    g.write("e2e/cases/kafka/e2e.yaml", "y\n")
        .write(".ci/e2e.yaml", "y\n")
        .write("docs/menu.yml", "y\n");
    g.commit_at("2024-03-02T10:00:00Z", "Bo", "Add the kafka case");
    g.write("e2e/cases/mini/e2e.yaml", "y\n");
    let mini = g.commit_at("2024-03-03T10:00:00Z", "Bo", "Tune the mini case");
    let review: Value = g.run(&["review", "HEAD~2..HEAD", "--json"]).json();
    let commits: Vec<&str> = review["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .flat_map(|d| d["commits"].as_array().unwrap().iter())
        .map(|c| c["sha"].as_str().unwrap())
        .collect();
    assert_eq!(commits.len(), 1, "{review:#}");
    assert!(mini.starts_with(commits[0]), "{review:#}");
}

/// A folder of one name written alone (`internal/`), where the record names a longer folder
/// ending in it (`cmd/app/internal/`), is that folder said short: it governs not the top-level
/// `internal/`, unless written as "the top-level `components/`".
#[test]
fn a_folder_said_short_is_the_longer_one_the_record_names() {
    let g = GitRepo::new();
    let (path, text) = record(
        1,
        "Public facades",
        "## Decision\n\nOnly code under `cmd/app/` can import `cmd/app/internal/`. The \
         top-level `components/` reaches it through `cmd/app/components/`. Config structs \
         remain in `internal/` and are not exposed.",
    );
    g.write(&path, &text);
    for file in [
        "cmd/app/internal/server.go",
        "cmd/app/components/facade.go",
        "components/facade.go",
        "internal/storage/store.go",
    ] {
        g.write(file, "package x\n");
    }
    g.commit_at(DATE, "Ann", "initial");
    let all = governs(&g);
    let (_, governed) = all
        .iter()
        .find(|(id, _)| id == "ADR-0001")
        .expect("ADR-0001");
    assert!(
        governed.contains(&"cmd/app/internal/".to_string()),
        "{governed:?}"
    );
    assert!(
        governed.contains(&"components/".to_string()),
        "{governed:?}"
    );
    assert!(!governed.contains(&"internal/".to_string()), "{governed:?}");
    let (decisions, _) = g.why_ids("internal/storage/store.go");
    assert!(decisions.is_empty(), "{decisions:?}");
    let (decisions, _) = g.why_ids("components/facade.go");
    assert_eq!(decisions, ["ADR-0001"]);
}

/// A folder listed under another in a nested list is that folder's subfolder, named in passing
/// at its full path: pagopa/io-sign's "Project structure" lists `infra/` under each workspace's
/// `src/`, and the repository's top-level `infra/` (Terraform) was governed by it.
#[test]
fn a_folder_listed_under_another_in_a_nested_list_is_its_subfolder() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-project-structure.md",
        "# 1. Project structure\n\nStatus: accepted\n\n## Decision\n\nTop-level folders:\n\n\
         - `apps/` - applications\n- `packages/` - shared modules\n\nEach workspace:\n\n\
         - `src/`\n  - `app/` - application layer\n    - `use-cases/`\n  \
         - `infra/` - infrastructure layer\n",
    )
    .write(
        "docs/adr/0002-services.md",
        "# 2. Services\n\nStatus: accepted\n\n## Decision\n\n- `services/`\n  - `billing/` - \
         invoices\n",
    )
    .write("infra/main.tf", "terraform {}\n")
    .write("apps/web/src/infra/http.ts", "code\n")
    .write("packages/core/index.ts", "code\n")
    .write("services/billing/main.go", "code\n")
    .write("billing/README.txt", "notes\n");
    g.commit_at(DATE, "Ann", "initial");
    let all = governs(&g);
    assert_eq!(
        all,
        vec![
            (id(1), vec!["apps/".to_string(), "packages/".to_string()]),
            (id(2), vec!["services/".to_string()]),
        ],
        "the nested items are their parents' parts"
    );
    let check: Value = g.run(&["check", "--json"]).json();
    assert_eq!(
        check["findings"],
        serde_json::json!([]),
        "a composed path that is nowhere is no finding: {check:#}"
    );
    // The top-level folders of the nested names are neither governed nor mentioned.
    for path in ["infra/main.tf", "billing/README.txt"] {
        let q: Value = g.run(&["why", path, "--json"]).json();
        assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
        assert_eq!(q["query"]["mentioned_by"], serde_json::json!([]), "{q:#}");
    }
    // The subfolder listed under its parent is governed through it.
    let q: Value = g.run(&["why", "services/billing/main.go", "--json"]).json();
    assert_eq!(q["query"]["decisions"][0]["id"], id(2), "{q:#}");
}

/// A file name written alone in parentheses right after a folder is that folder's file:
/// jaeger's Grafana record says "[`generate/`](…) (a standalone Go module — `main.go`,
/// `go.mod`, `go.sum` — …)", and the repository's own `go.mod` and `go.sum` were governed by
/// it. Written after the parentheses close, the name is the root's as before.
#[test]
fn a_file_named_in_parentheses_after_a_folder_is_that_folders() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-dashboards.md",
        "# 1. Dashboards generated in Go\n\nStatus: accepted\n\n## Decision\n\n\
         The generator lives in [`generate/`](../../mixin/generate/) (a standalone Go module: \
         `main.go`, `go.mod`), and `scripts/gen.sh` runs it.\n",
    )
    .write("mixin/generate/main.go", "package main\n")
    .write("mixin/generate/go.mod", "module gen\n")
    .write("go.mod", "module root\n")
    .write("main.go", "package main\n")
    .write("scripts/gen.sh", "go run ./mixin/generate\n");
    g.commit_at(DATE, "Ann", "initial");
    assert_eq!(
        governs(&g),
        vec![(
            id(1),
            vec!["mixin/generate/".to_string(), "scripts/gen.sh".to_string()]
        )],
        "the module's files, not the root's"
    );
    for root in ["go.mod", "main.go"] {
        let q: Value = g.run(&["why", root, "--json"]).json();
        assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
    }
    let q: Value = g.run(&["why", "mixin/generate/go.mod", "--json"]).json();
    assert_eq!(q["query"]["decisions"][0]["id"], id(1), "{q:#}");
}

/// A CI workflow a record says its check "runs in CI from" or is "run by" is where the check
/// plugs in, a mention: jaeger's Grafana record governed `ci-lint-checks.yaml` so, and a commit
/// installing Helm for another job there was warned about it.
#[test]
fn a_workflow_a_check_is_run_by_is_a_mention() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-dashboards.md",
        "# 1. Dashboards generated in Go\n\nStatus: accepted\n\n## Decision\n\n\
         The generator is `gen/main.go`. Its sync check runs in CI from \
         `.github/workflows/lint.yaml`.\n\n- Sync check: run by \
         [`lint.yaml`](../../.github/workflows/lint.yaml)\n",
    )
    .write("gen/main.go", "package main\n")
    .write(".github/workflows/lint.yaml", "on: push\n");
    g.commit_at(DATE, "Ann", "initial");
    assert_eq!(governs(&g), vec![(id(1), vec!["gen/main.go".to_string()])]);
    let q: Value = g
        .run(&["why", ".github/workflows/lint.yaml", "--json"])
        .json();
    assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
    assert_eq!(q["query"]["mentioned_by"][0]["id"], id(1), "{q:#}");
}
