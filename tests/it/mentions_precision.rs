//! Code mentions read as a careful reader reads them (docs/mentions.md, ADR-0017's fifth
//! amendment): the kind the prose gives a name, folders that hold code, a language's port,
//! dotted names, tables' headers, fixtures, a language's own types and names given "e.g.".

use crate::git::GitRepo;

const DATE: &str = "2025-03-05T10:00:00Z";

/// A repository holding `files`, committed.
fn repo(files: &[(String, String)]) -> GitRepo {
    let g = GitRepo::new();
    for (path, body) in files {
        g.write(path, body);
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

/// `files` as owned pairs.
fn owned(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// `(term, path)` of each code mention of the record `id`, in the order `check` lists them.
fn mentions(g: &GitRepo, id: &str) -> Vec<(String, String)> {
    g.code_mentions(id)
        .iter()
        .map(|m| {
            (
                m["term"].as_str().unwrap_or("").to_string(),
                m["path"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    owned(list)
}

/// A pipeline of sources and sinks, each with its internal events beside them.
fn pipeline(records: &[(&str, &str)]) -> GitRepo {
    let mut files = owned(records);
    files.extend(owned(&[
        ("src/sources/aws_s3/mod.rs", "// s3 source\n"),
        ("src/sinks/aws_s3/mod.rs", "// s3 sink\n"),
        ("src/sources/statsd/mod.rs", "// statsd source\n"),
        ("src/sinks/statsd/mod.rs", "// statsd sink\n"),
        ("src/internal_events/datadog_traces.rs", "// events\n"),
        ("src/sinks/datadog/traces/mod.rs", "// traces sink\n"),
        ("src/transforms/throttle/mod.rs", "// throttle\n"),
        ("src/internal_events/throttle/mod.rs", "// events\n"),
        ("distribution/helm/values.yaml", "a: 1\n"),
        (
            "distribution/kubernetes/vector-aggregator/values.yaml",
            "a: 1\n",
        ),
        ("Cargo.toml", "[package]\nname = \"p\"\n"),
    ]));
    repo(&files)
}

#[test]
fn the_kind_the_prose_gives_a_name_picks_the_folder_of_that_kind() {
    let g = pipeline(&[
        (
            "docs/rfcs/0001-ingest-objects.md",
            "# 1. Ingest objects\n\nStatus: Accepted\n\nA new `aws_s3` source reads objects.\n\
             The `datadog_traces` sink receives them; the `throttle` transform limits them.\n\
             The vector-aggregator Helm chart deploys it.\n",
        ),
        (
            "docs/rfcs/0002-surveyed-sinks.md",
            "# 2. Surveyed sinks\n\nStatus: Accepted\n\n| sink | encoding |\n| - | - |\n\
             | `statsd` | text |\n",
        ),
        (
            "docs/rfcs/0003-both-ways.md",
            "# 3. Both ways\n\nStatus: Accepted\n\nWe keep `aws_s3` as it is.\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "RFC-0001"),
        pairs(&[
            ("aws_s3", "src/sources/aws_s3/"),
            ("datadog_traces", "src/sinks/datadog/traces/"),
            ("throttle", "src/transforms/throttle/"),
            (
                "vector-aggregator",
                "distribution/kubernetes/vector-aggregator/"
            ),
        ]),
        "a source is in sources/, a sink's words are spelled in sinks/ (not its internal \
         events), a transform in transforms/; a capitalised word after a name is a product's \
         (`Helm`), no kind"
    );
    assert_eq!(
        mentions(&g, "RFC-0002"),
        pairs(&[("statsd", "src/sinks/statsd/")]),
        "a table's column headed `sink`: the one sink of two folders of the name"
    );
    assert_eq!(
        mentions(&g, "RFC-0003"),
        pairs(&[
            ("aws_s3", "src/sinks/aws_s3/"),
            ("aws_s3", "src/sources/aws_s3/"),
        ]),
        "no noun, no kind: both paths, as before"
    );
}

#[test]
fn a_bare_word_names_only_a_folder_that_holds_code() {
    let g = repo(&owned(&[
        (
            "docs/adr/0001-sampling.md",
            "# 1. Sampling\n\nStatus: Accepted\n\nA sampled `distribution`, as other `agents` \
             report it, is a `regression` for the `protocols` we serve.\n\
             The java directory keeps the old port.\nJava moved out; Java lives elsewhere.\n",
        ),
        ("distribution/helm/values.yaml", "a: 1\n"),
        ("distribution/debian/postinst.sh", "exit 0\n"),
        ("agents/README.md", "# Agents\n"),
        ("regression/cases/a.yaml", "a: 1\n"),
        ("java/README.md", "# Moved\n"),
        ("protocols/imap/Imap.java", "class Imap {}\n"),
        ("server/Main.java", "class Main {}\n"),
        ("server/Other.java", "class Other {}\n"),
        ("server/Third.java", "class Third {}\n"),
    ]));
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[("protocols", "protocols/")]),
        "packaging, documentation and data folders are named by English words, not as code, \
         even in backticks; a folder of a README alone is no code, even by a product's name"
    );
}

/// A repository of two language ports, `dotnet/` and `python/`.
fn ports(records: &[(&str, &str)]) -> GitRepo {
    let mut files = owned(records);
    files.extend(owned(&[
        (
            "dotnet/src/Billing/InvoiceTotal.cs",
            "class InvoiceTotal {}\n",
        ),
        ("dotnet/src/Billing/TaxRule.cs", "class TaxRule {}\n"),
        (
            "python/billing/retry_policy.py",
            "class RetryPolicy: pass\n",
        ),
        ("python/billing/tax_rule.py", "class TaxRule: pass\n"),
    ]));
    repo(&files)
}

#[test]
fn a_languages_port_is_named_only_by_a_record_about_that_language() {
    let g = ports(&[
        (
            "docs/decisions/0001-net-billing.md",
            "# 1. Billing in .NET\n\nStatus: Accepted\n\nThe .NET `InvoiceTotal` applies each \
             `TaxRule` and uses a `RetryPolicy`.\n",
        ),
        (
            "docs/decisions/0002-retries.md",
            "# 2. Retries\n\nStatus: Accepted\n\nIn Python the `RetryPolicy` backs off.\n",
        ),
        (
            "docs/decisions/0003-totals.md",
            "# 3. Totals\n\nStatus: Accepted\n\nThe `InvoiceTotal` sums each `TaxRule`, with \
             `RetryPolicy`.\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[
            ("InvoiceTotal", "dotnet/src/Billing/InvoiceTotal.cs"),
            ("TaxRule", "dotnet/src/Billing/TaxRule.cs"),
        ]),
        "a .NET record's class is not the Python port's file"
    );
    assert_eq!(
        mentions(&g, "ADR-0002"),
        pairs(&[("RetryPolicy", "python/billing/retry_policy.py")]),
        "a record naming Python names its code"
    );
    assert_eq!(
        mentions(&g, "ADR-0003"),
        pairs(&[
            ("InvoiceTotal", "dotnet/src/Billing/InvoiceTotal.cs"),
            ("TaxRule", "dotnet/src/Billing/TaxRule.cs"),
        ]),
        "a record naming no language is about the port most of its mentions are in"
    );
}

#[test]
fn one_port_alone_is_no_language_split() {
    let g = repo(&owned(&[
        (
            "docs/decisions/0001-retries.md",
            "# 1. Retries\n\nStatus: Accepted\n\nThe .NET client calls the `RetryPolicy`.\n",
        ),
        (
            "python/billing/retry_policy.py",
            "class RetryPolicy: pass\n",
        ),
        ("web/app.ts", "export {};\n"),
    ]));
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[("RetryPolicy", "python/billing/retry_policy.py")])
    );
}

#[test]
fn dotted_names_headers_fixtures_language_types_and_examples_name_no_code() {
    let g = repo(&owned(&[
        (
            "docs/decisions/0001-plugins.md",
            "# 1. Plugins\n\nStatus: Accepted\n\n\
             | Feature | `MongoStore` |\n|---|---|\n| search | yes |\n\n\
             The call fails at function.name in the reply; `Plugins.Memory` holds memory.\n\
             A `TaskTransform` keeps a `Vec` of events (e.g., `Billing_Totals`).\n\
             Later the `MongoStore` indexes them.\n",
        ),
        (
            "dotnet/src/Functions/FunctionName.cs",
            "class FunctionName {}\n",
        ),
        (
            "dotnet/src/Plugins/Plugins.Memory/TextMemory.cs",
            "class TextMemory {}\n",
        ),
        ("dotnet/src/Stores/MongoStore.cs", "class MongoStore {}\n"),
        ("tests/behavior/task_transform.yaml", "a: 1\n"),
        ("src/buffer/vec.rs", "// vec\n"),
        ("src/billing/billing_totals.rs", "// totals\n"),
    ]));
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[
            ("Plugins.Memory", "dotnet/src/Plugins/Plugins.Memory/"),
            ("MongoStore", "dotnet/src/Stores/MongoStore.cs"),
        ]),
        "`function.name` is a member, not `FunctionName.cs`; a header row labels columns \
         (the name counts where the body says it); a test's YAML is a fixture; `Vec` is the \
         language's; a name given \"e.g.\" is an example"
    );
}

#[test]
fn a_namespaced_project_folder_is_named_by_its_last_part_over_tests_and_samples() {
    let g = repo(&owned(&[
        (
            "docs/decisions/0001-connectors.md",
            "# 1. Connector versions\n\nStatus: Accepted\n\nThe `AzureOpenAI` connector \
             follows the SDK.\nSamples live in a `ChatPrompt` folder.\n",
        ),
        (
            "dotnet/src/Connectors/Connectors.AzureOpenAI/Client.cs",
            "class Client {}\n",
        ),
        (
            "dotnet/src/IntegrationTests/Connectors/AzureOpenAI/ClientTests.cs",
            "class ClientTests {}\n",
        ),
        (
            "dotnet/samples/Migration/AzureOpenAI/Program.cs",
            "class Program {}\n",
        ),
        ("prompt_template_samples/ChatPrompt/skprompt.txt", "Hello\n"),
        ("prompt_template_samples/ChatPrompt/config.json", "{}\n"),
    ]));
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[(
            "AzureOpenAI",
            "dotnet/src/Connectors/Connectors.AzureOpenAI/"
        )]),
        "the project, not its tests' or a sample's folder; a samples' folder of prompts \
         holds no code"
    );
}

#[test]
fn a_compound_name_of_the_folder_holding_the_bulk_of_the_code_names_the_project() {
    let mut files = owned(&[(
        "docs/decisions/0001-layout.md",
        "# 1. Layout\n\nStatus: Accepted\n\nThe `SemanticKernel` package and its \
         `BillingRules`.\n",
    )]);
    for n in 0..120 {
        files.push((
            format!("python/semantic_kernel/m{n}/f.py"),
            "x = 1\n".to_string(),
        ));
    }
    files.push((
        "python/semantic_kernel/billing_rules/rules.py".to_string(),
        "x = 1\n".to_string(),
    ));
    let g = repo(&files);
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[("BillingRules", "python/semantic_kernel/billing_rules/")])
    );
}
