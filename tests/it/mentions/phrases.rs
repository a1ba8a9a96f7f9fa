//! Code mentions by phrases, products, folders, commands and the records' vocabulary
//! (ADR-0017): which name a reader takes for which path, and how surely.

use super::*;

/// `(term, path, confidence)` of each code mention of the record `id`.
pub(super) fn mentions_sure(g: &GitRepo, id: &str) -> Vec<(String, String, f64)> {
    g.code_mentions(id)
        .iter()
        .map(|m| {
            (
                m["term"].as_str().unwrap_or("").to_string(),
                m["path"].as_str().unwrap_or("").to_string(),
                m["confidence"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect()
}

#[test]
fn rails_phrases_name_a_model_and_a_word_names_a_folder_in_app() {
    let g = repo(&[
        (
            "docs/adr/0003-worldwide-organisations.md",
            "# 3. Multi-part content for Worldwide Organisations\n\nStatus: Accepted\n\n## Context\n\nEach organisation has Worldwide Offices. Whitehall's custom validators check them, and\nthe Worldwide Offices page lists them.\nAlso: search, bulk republishing, and other features.\nWe set up the news story once.\n",
        ),
        ("app/models/worldwide_organisation.rb", "class WorldwideOrganisation; end\n"),
        ("app/models/worldwide_office.rb", "class WorldwideOffice; end\n"),
        ("app/models/news_story.rb", "class NewsStory; end\n"),
        ("app/models/bulk_republishing.rb", "class BulkRepublishing; end\n"),
        ("app/models/setup.rb", "class Setup; end\n"),
        (
            "app/views/admin/worldwide_organisations/index.html.erb",
            "<%= 1 %>\n",
        ),
        ("app/validators/govspeak_validator.rb", "class GovspeakValidator; end\n"),
        ("test/factories/worldwide_office.rb", "# factory\n"),
        ("Gemfile", "source 'https://rubygems.org'\n"),
    ]);
    assert_eq!(
        mentions_sure(&g, "ADR-0003"),
        [
            (
                "Worldwide Organisations".to_string(),
                "app/models/worldwide_organisation.rb".to_string(),
                0.6
            ),
            (
                "Worldwide Offices".to_string(),
                "app/models/worldwide_office.rb".to_string(),
                0.6
            ),
        ],
        "a phrase in the title or said twice names the singular model, not the plural views \
         folder nor the factory; a phrase said once (`bulk republishing`, `news story`) or \
         with a common word (`set up`) names nothing; the bare word `validators` names no \
         folder of `app/` (ADR-0017's amendment of 2026-12-05)"
    );
    // A phrase is a guess: `why` shows it, `scope --accept` does not take it.
    let why = json(
        &g,
        &["why", "app/models/worldwide_organisation.rb", "--no-index"],
    );
    assert_eq!(why["query"]["mentioned_by"][0]["id"], "ADR-0003");
    assert_eq!(
        why["query"]["mentioned_by"][0]["term"],
        "Worldwide Organisations"
    );
    assert_eq!(why["query"]["decisions"], serde_json::json!([]));
    let accept = g
        .run(&["scope", "ADR-0003", "--accept", "--dry-run", "--json"])
        .json();
    assert_eq!(
        accept["scope"]["added"],
        serde_json::json!([]),
        "{accept:#}"
    );
}

#[test]
fn terraform_snake_case_joined_phrases_and_a_family_of_projects() {
    let g = repo(&[
        (
            "docs/adr/0013-userdata.md",
            "# 13. Provisioning snippets\n\nStatus: Accepted\n\nEach node runs a user_data script. We provision an RDS instance per stack;\nevery RDS instance is private.\n",
        ),
        (
            "docs/adr/0014-launch-configs.md",
            "# 14. Launch configurations\n\nStatus: Accepted\n\nA launch configuration holds the user-data and the AMI.\n",
        ),
        (
            "docs/adr/0012-security-groups.md",
            "# 12. Security groups in Terraform\n\nStatus: Accepted\n\nSecurity groups are defined apart from their rules; each of the security groups in one file.\n",
        ),
        (
            "docs/adr/0020-admin-tools.md",
            "# 20. Admin tools\n\nStatus: Accepted\n\nThe admin tools run once; the admin tools are small.\n",
        ),
        ("terraform/userdata/00-base", "#!/bin/sh\n"),
        ("terraform/modules/aws/rds_instance/main.tf", "# rds\n"),
        ("terraform/modules/aws/alarms/rds/main.tf", "# alarms\n"),
        ("terraform/projects/infra-security-groups/main.tf", "# sg\n"),
        ("terraform/projects/infra-vpc/main.tf", "# vpc\n"),
        ("terraform/projects/infra-dns-zones/main.tf", "# dns\n"),
        ("terraform/projects/app-admin-tools/main.tf", "# admin\n"),
        ("terraform/projects/app-search/main.tf", "# search\n"),
    ]);
    assert_eq!(
        mentions_sure(&g, "ADR-0013"),
        [
            (
                "RDS instance".to_string(),
                "terraform/modules/aws/rds_instance/".to_string(),
                0.6
            ),
            ("user_data".to_string(), "terraform/userdata/".to_string(), 0.7),
        ],
        "`user_data` names `userdata/` joined (less sure); `RDS instance` the module, not the alarms"
    );
    assert_eq!(
        mentions(&g, "ADR-0014"),
        [],
        "hyphenated English is not a name joined: `user-data` is not `userdata/`"
    );
    assert_eq!(
        mentions(&g, "ADR-0012"),
        [(
            "Security groups".to_string(),
            "terraform/projects/infra-security-groups/".to_string()
        )],
        "three folders share `infra-`: a phrase names one by the rest of its name"
    );
    assert_eq!(
        mentions(&g, "ADR-0020"),
        [],
        "two folders sharing `app-` are no family"
    );
}

#[test]
fn a_name_written_as_code_wins_over_the_same_phrase_and_tests_are_not_named() {
    let g = repo(&[
        (
            "docs/adr/0008-blob-store.md",
            "# 8. Blob store\n\nStatus: Accepted\n\nThe blob store keeps bodies; the blob store is the BlobStore interface.\nThe retry budget is kept; the retry budget is small.\n\n```go\n// the event bus, the event bus\n```\n",
        ),
        ("go.mod", "module example.com/x\n"),
        ("blob/api/blob_store.go", "package api\n"),
        ("blob/api/blob_store_test.go", "package api\n"),
        ("integration-tests/retry_budget.go", "package it\n"),
        ("samples/retry_budget.go", "package samples\n"),
        ("events/event_bus.go", "package events\n"),
    ]);
    assert_eq!(
        mentions_sure(&g, "ADR-0008"),
        [(
            "BlobStore".to_string(),
            "blob/api/blob_store.go".to_string(),
            0.9
        )],
        "the identifier takes the path (and the confidence); a phrase never names a test or \
         sample file; a fenced block's phrases are examples"
    );
}

/// `(term, path)` of the mentions of `id`, sorted by path.
fn by_path(g: &GitRepo, id: &str) -> Vec<(String, String)> {
    let mut m = mentions(g, id);
    m.sort_by(|a, b| a.1.cmp(&b.1));
    m
}

#[test]
fn a_product_name_names_the_one_folder_or_tool_file_it_is_a_part_of() {
    let g = repo(&[
        (
            "docs/adr/0038-mysql.md",
            "# 38. Serve the wire protocol of MySQL\n\nStatus: Accepted\n\nClients of MySQL connect as they do today. Security stays as it is.\nPostgreSQL keeps its data; PostgreSQL is not moved.\n",
        ),
        (
            "docs/adr/0039-network.md",
            "# 39. Network\n\nStatus: Accepted\n\nThe security of the network matters. Security is reviewed. We use Simple Notification Service; Simple Notification Service is cheap. The Sns topic and the Sns queue, the Ast is parsed; the Ast is kept.\n",
        ),
        (
            "docs/adr/0040-monorepo.md",
            "# 40. A monorepo with Lerna\n\nStatus: Accepted\n\nPackages are linted by ESLint; ESLint runs before each commit.\n",
        ),
        ("src/servers/src/mysql/handler.rs", "// m\n"),
        ("src/servers/src/mysql/mod.rs", "// m\n"),
        ("terraform/projects/app-transition-postgresql/main.tf", "# db\n"),
        ("terraform/projects/infra-security/main.tf", "# sg\n"),
        ("terraform/policies/sqs_allow_sns_policy.tpl", "{}\n"),
        ("src/sql/src/ast.rs", "// ast\n"),
        ("terraform/modules/simple/main.tf", "# s\n"),
        ("lerna.json", "{}\n"),
        (".eslintrc.js", "module.exports = {};\n"),
        ("packages/ui/.eslintrc.js", "module.exports = {};\n"),
        ("packages/ui/package.json", "{}\n"),
    ]);
    assert_eq!(
        by_path(&g, "ADR-0038"),
        [("MySQL".to_string(), "src/servers/src/mysql/".to_string())],
        "the one folder whose name begins with the name stands for the files in it; \
         `PostgreSQL` only qualifies `app-transition-postgresql/`; `Security` is an ordinary \
         word another record writes in lower case"
    );
    assert_eq!(
        by_path(&g, "ADR-0039"),
        [],
        "a name is no word in the middle of a file's name (`sqs_allow_sns_policy.tpl`) nor \
         a file deep in the tree (`src/sql/src/ast.rs`); capitalised words side by side are \
         one longer name (`Simple Notification Service`)"
    );
    assert_eq!(
        by_path(&g, "ADR-0040"),
        [
            ("ESLint".to_string(), ".eslintrc.js".to_string()),
            ("Lerna".to_string(), "lerna.json".to_string()),
        ],
        "a tool's own file at the top (its packages' copies extend it); a title's name once"
    );
}

#[test]
fn the_x_directory_names_that_folder_and_a_title_word_names_nothing() {
    let mut files: Vec<(String, String)> = (0..30)
        .map(|n| {
            (
                format!("terraform/projects/p{n}/main.tf"),
                "# p\n".to_string(),
            )
        })
        .collect();
    files.extend([
        (
            "docs/adr/0010-layout.md".to_string(),
            "# 10. Terraform layout\n\nStatus: Accepted\n\nEach stack is a folder in the projects directory.\n".to_string(),
        ),
        (
            "docs/adr/0011-compaction.md".to_string(),
            "# 11. Table Compaction\n\nStatus: Accepted\n\nSmall files are merged in the background.\n".to_string(),
        ),
        (
            "docs/adr/0012-engine.md".to_string(),
            "# 12. The storage engine\n\nStatus: Accepted\n\nOne engine per region.\n".to_string(),
        ),
        ("src/mito/src/compaction/picker.rs".to_string(), "// c\n".to_string()),
        ("src/mito/src/engine/mod.rs".to_string(), "// e\n".to_string()),
        ("src/meta/src/engine/mod.rs".to_string(), "// e\n".to_string()),
    ]);
    let g = repo_owned(&files);
    assert_eq!(
        by_path(&g, "ADR-0010"),
        [("projects".to_string(), "terraform/projects/".to_string())],
        "a folder named as one, though it holds most of the repository"
    );
    assert_eq!(
        by_path(&g, "ADR-0011"),
        [],
        "the record's title words are not terms (docs/mentions.md), though one names a folder"
    );
    assert_eq!(
        by_path(&g, "ADR-0012"),
        [],
        "two folders named `engine`: ambiguous"
    );
}

#[test]
fn a_title_only_in_the_frontmatter_names_code_by_its_phrases() {
    let g = repo(&[
        (
            "docs/rfcs/2023-11-07-region-migration.md",
            "---\ntitle: Region Migration Procedure\ndate: 2023-11-07\n---\n\n# Summary\n\nMove regions between data nodes.\n",
        ),
        ("src/meta-srv/src/procedure/region_migration/manager.rs", "// m\n"),
        ("src/meta-srv/src/procedure/mod.rs", "// p\n"),
    ]);
    let j = json(&g, &[]);
    let m = &j["records"][0]["code_mentions"];
    let phrase = m
        .as_array()
        .expect("mentions")
        .iter()
        .find(|m| m["term"] == "Region Migration")
        .unwrap_or_else(|| panic!("{m:#}"));
    assert_eq!(
        phrase["path"],
        "src/meta-srv/src/procedure/region_migration/"
    );
    assert_eq!(phrase["line"], 2, "the frontmatter's title line");
}

#[test]
fn the_records_vocabulary_names_no_small_file_but_a_top_level_folder() {
    let mut files: Vec<(String, String)> = (1..=5)
        .map(|n| {
            (
                format!("docs/rfcs/000{n}-part-{n}.md"),
                format!(
                    "# {n}. Part {n}\n\nStatus: Accepted\n\nEvery time series has a `schema`; a time series \
                     is sent on the event bus, and the event bus keeps order.\n"
                ),
            )
        })
        .collect();
    files.extend([
        (
            "src/mito/src/memtable/time_series.rs".to_string(),
            "// t\n".to_string(),
        ),
        (
            "src/datatypes/src/schema/mod.rs".to_string(),
            "// s\n".to_string(),
        ),
        ("event-bus/pom.xml".to_string(), "<x/>\n".to_string()),
    ]);
    let g = repo_owned(&files);
    for n in 1..=5 {
        assert_eq!(
            by_path(&g, &format!("RFC-000{n}")),
            [("event bus".to_string(), "event-bus/".to_string())],
            "every record says `time series` and `schema`: the domain's words"
        );
    }
    // One record alone saying them names the code.
    let g = repo(&[
        (
            "docs/rfcs/0001-part.md",
            "# 1. Part\n\nStatus: Accepted\n\nEvery time series has a `schema`; a time series is kept.\n",
        ),
        ("src/mito/src/memtable/time_series.rs", "// t\n"),
        ("src/datatypes/src/schema/mod.rs", "// s\n"),
    ]);
    assert_eq!(
        by_path(&g, "RFC-0001"),
        [
            (
                "schema".to_string(),
                "src/datatypes/src/schema/".to_string()
            ),
            (
                "time series".to_string(),
                "src/mito/src/memtable/time_series.rs".to_string()
            ),
        ]
    );
}

#[test]
fn a_lower_case_word_in_backticks_names_a_folder_not_a_file_and_english_no_test() {
    let g = repo(&[
        (
            "docs/rfcs/0001-histograms.md",
            "# 1. Histograms\n\nStatus: Accepted\n\nThe `rate` function and `partition` rules; a `min-max` index.\nThe ADR slug is the id; each ADR slug is unique.\nA source is `prometheus` / `opentsdb` / `custom`.\n",
        ),
        ("src/servers/src/opentsdb/mod.rs", "// o\n"),
        ("src/function/src/scalars/math/rate.rs", "// r\n"),
        ("src/partition/src/lib.rs", "// p\n"),
        ("tests/cases/aggregate/min_max.sql", "select 1;\n"),
        ("packages/core/src/adr/domain/AdrSlug.ts", "export {};\n"),
    ]);
    assert_eq!(
        by_path(&g, "RFC-0001"),
        [
            (
                "ADR slug".to_string(),
                "packages/core/src/adr/domain/AdrSlug.ts".to_string()
            ),
            ("partition".to_string(), "src/partition/".to_string()),
        ],
        "`rate` is a function, not `rate.rs`; `min-max` is English, not a test case; a \
         record word in a phrase with another word names a tool's code; `opentsdb` is one \
         value of a list"
    );
}

#[test]
fn a_name_spelled_by_a_paths_last_parts_names_that_file_less_surely() {
    let g = repo(&[
        (
            "docs/rfcs/0001-ledger-rows.md",
            "# 1. Ledger rows\n\nStatus: Accepted\n\nEach `LedgerEntry` keeps its posting date, and the \
             ledger_cursor walks them.\n",
        ),
        ("crates/books/src/ledger/entry.rs", "pub struct LedgerEntry;\n"),
        ("crates/books/src/ledger/cursor.rs", "pub struct Cursor;\n"),
        ("crates/books/src/posting.rs", "pub struct Posting;\n"),
    ]);
    assert_eq!(
        mentions_sure(&g, "RFC-0001"),
        [
            (
                "ledger_cursor".to_string(),
                "crates/books/src/ledger/cursor.rs".to_string(),
                0.7
            ),
            (
                "LedgerEntry".to_string(),
                "crates/books/src/ledger/entry.rs".to_string(),
                0.7
            ),
        ],
        "the name's first word is the folder, the rest the file; below --accept's 0.8"
    );
    // `why` on the file lists the record.
    let w = json(&g, &["why", "crates/books/src/ledger/entry.rs"]);
    assert_eq!(w["query"]["mentioned_by"][0]["id"], "RFC-0001", "{w:#}");
}

#[test]
fn a_dotted_project_name_in_backticks_names_its_folder_not_a_tests_copy() {
    let g = repo(&[
        (
            "docs/decisions/0001-card-payments.md",
            "# 1. Card payments\n\nStatus: Accepted\n\nThe `Northwind.Payments.Stripe` package holds \
             the new gateway; it calls the vendor's `Stripe.Net.Client` and logs through \
             Northwind.Telemetry.Sink.\n",
        ),
        ("python/gateway/net/client.py", "# a client\n"),
        ("python/northwind/telemetry/sink.py", "# the Python port's sink\n"),
        ("dotnet/src/Payments/Payments.Stripe/Gateway.cs", "class Gateway {}\n"),
        ("dotnet/src/Payments/Payments.Stripe/Payments.Stripe.csproj", "<Project/>\n"),
        ("dotnet/src/IntegrationTests/Payments/Stripe/GatewayTests.cs", "class T {}\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0001"),
        [(
            "Northwind.Payments.Stripe".to_string(),
            "dotnet/src/Payments/Payments.Stripe/".to_string()
        )],
        "a capitalised last part is a name, not a file's extension; its last parts name the \
         project's folder before its last part names a folder of tests; a namespace in \
         backticks or a capitalised one in prose names no file by its last part alone \
         (`Stripe.Net.Client`, Northwind.Telemetry.Sink)"
    );
}

#[test]
fn a_type_many_records_name_is_not_spelled_by_a_paths_last_parts() {
    let mut files: Vec<(String, String)> = (1..=3)
        .map(|n| {
            (
                format!("docs/rfcs/000{n}-plan-{n}.md"),
                format!(
                    "# {n}. Plan {n}\n\nStatus: Accepted\n\nThe planner emits a `FrameScan` node.\n"
                ),
            )
        })
        .collect();
    files.push((
        "docs/rfcs/0004-rows.md".to_string(),
        "# 4. Rows\n\nStatus: Accepted\n\nA `RowBatch` is sent whole.\n".to_string(),
    ));
    files.extend([
        ("src/frame/scan.rs".to_string(), "// s\n".to_string()),
        ("src/row/batch.rs".to_string(), "// b\n".to_string()),
    ]);
    let g = repo_owned(&files);
    for n in 1..=3 {
        assert!(
            mentions(&g, &format!("RFC-000{n}")).is_empty(),
            "three records of four name `FrameScan`: a library's type, not `frame/scan.rs`"
        );
    }
    assert_eq!(
        mentions(&g, "RFC-0004"),
        [("RowBatch".to_string(), "src/row/batch.rs".to_string())]
    );
}

#[test]
fn a_command_in_backticks_names_the_subcommand_the_title_names() {
    let g = repo(&[
        (
            "docs/design/prune.md",
            "# Prune for tally\n\nStatus: Accepted\n\nA new `tally prune --older 30d` drops old \
             entries; `tally show` is unchanged, and `git gc prune` is not ours.\n",
        ),
        ("cli/src/commands/prune.rs", "// prune\n"),
        ("cli/src/commands/show.rs", "// show\n"),
        ("cli/src/commands/gc/prune.rs", "// gc\n"),
        ("cli/src/main.rs", "fn main() {}\n"),
    ]);
    assert_eq!(
        mentions_sure(&g, "prune"),
        [(
            "tally prune".to_string(),
            "cli/src/commands/prune.rs".to_string(),
            0.7
        )],
        "`tally show` is not in the title; `git gc prune`'s first subcommand is not either"
    );
}

#[test]
fn a_kebab_case_name_in_backticks_is_not_the_records_vocabulary() {
    let files: Vec<(String, String)> = (1..=3)
        .map(|n| {
            (
                format!("docs/rfcs/000{n}-step-{n}.md"),
                format!(
                    "# {n}. Step {n}\n\nStatus: Accepted\n\nThe `ledger-sync` worker and the \
                     reconcile pass run nightly; the reconcile pass is idempotent.\n"
                ),
            )
        })
        .chain([
            (
                "src/workers/ledger_sync/mod.rs".to_string(),
                "// l\n".to_string(),
            ),
            (
                "src/workers/reconcile_pass.rs".to_string(),
                "// r\n".to_string(),
            ),
        ])
        .collect();
    let g = repo_owned(&files);
    for n in 1..=3 {
        assert_eq!(
            by_path(&g, &format!("RFC-000{n}")),
            [(
                "ledger-sync".to_string(),
                "src/workers/ledger_sync/".to_string()
            )],
            "every record says both; the phrase is the domain's words, the code span is code"
        );
    }
}
