//! Code mentions by how records name code they do not spell as a path (docs/mentions.md,
//! ADR-0017's sixth amendment): a type by the source file defining it, a name first said bare
//! and later written as code, modules listed in backticks, "the X component", and names in a
//! fenced code block (examples: never terms).

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2025-03-05T10:00:00Z";

/// A repository holding `files`, committed.
pub(crate) fn repo(files: &[(&str, &str)]) -> GitRepo {
    let g = GitRepo::new();
    for (path, body) in files {
        g.write(path, body);
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

/// `(term, path, line, confidence)` of each code mention of the record `id`.
fn mentions(g: &GitRepo, id: &str) -> Vec<(String, String, u64, f64)> {
    g.code_mentions(id)
        .iter()
        .map(|m| {
            (
                m["term"].as_str().unwrap_or("").to_string(),
                m["path"].as_str().unwrap_or("").to_string(),
                m["line"].as_u64().unwrap_or(0),
                m["confidence"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

/// The `(term, path)` of each of a record's `code_mentions` (a record of `--json`'s).
pub(crate) fn term_paths(record: &Value) -> Vec<(String, String)> {
    record["code_mentions"]
        .as_array()
        .expect("code_mentions")
        .iter()
        .map(|m| {
            let text = |k: &str| m[k].as_str().unwrap_or("").to_string();
            (text("term"), text("path"))
        })
        .collect()
}

/// The `(term, path)` pairs of [`mentions`].
pub(crate) fn named(g: &GitRepo, id: &str) -> Vec<(String, String)> {
    mentions(g, id)
        .into_iter()
        .map(|(t, p, _, _)| (t, p))
        .collect()
}

pub(crate) fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A Go and Rust tree whose types lie in files of other names.
fn typed(record: &str) -> GitRepo {
    repo(&[
        ("docs/adr/0001-controllers.md", record),
        (
            "scraper/internal/controller/generated_config.go",
            "package controller\n\ntype ControllerConfig struct {\n\tInterval int\n}\n",
        ),
        // An alias only names another package's type.
        (
            "scraper/generated_config.go",
            "package scraper\n\ntype ControllerConfig = controller.ControllerConfig\n",
        ),
        (
            "nodebuilder/node.go",
            "package nodebuilder\n\n// Node is the node.\ntype Node struct {\n}\n",
        ),
        // A folder named by the name that holds another thing.
        (
            "nodebuilder/node/type.go",
            "package node\n\ntype Type int\n",
        ),
        // Defined in a file named for something else: a helper of that thing.
        ("src/helpers.rs", "pub struct Registry {}\n"),
        // Defined only by a test helper and a test.
        (
            "internal/sprockettest/fake.go",
            "package sprockettest\n\ntype Sprocket struct{}\n",
        ),
        ("src/ledger.rs", "pub struct Ledger {\n    n: u32,\n}\n"),
        ("src/shelves/store.rs", "pub struct Shelf {}\n"),
        // Defined inside a code block of the record only.
        ("src/gadget.rs", "pub struct Gadget {}\n"),
        // Twice: no one file is the type's.
        ("a/widget.rs", "pub struct Widget {}\n"),
        ("b/widget.rs", "pub struct Widget {}\n"),
    ])
}

#[test]
fn a_type_names_the_one_source_file_that_defines_it() {
    let g = typed(
        "# 1. Controllers\n\nStatus: Accepted\n\n\
         Modify `ControllerConfig` to support a timer.\n\
         The `Node` is central: every service registers on the `Node`.\n\
         The `Registry` keeps them, and the `Sprocket` turns, the `Sprocket` stops.\n\
         The `Ledger` counts; the `Ledger` is kept. We put it on the `Shelf`.\n\
         Each `Widget` draws; the `Widget` is drawn.\n",
    );
    let got = mentions(&g, "ADR-0001");
    assert_eq!(
        got.iter()
            .map(|(t, p, _, _)| (t.clone(), p.clone()))
            .collect::<Vec<_>>(),
        pairs(&[
            (
                "ControllerConfig",
                "scraper/internal/controller/generated_config.go"
            ),
            ("Node", "nodebuilder/node.go"),
            ("Ledger", "src/ledger.rs"),
        ]),
        "the struct, not the alias; the file defining `Node`, not the folder `node/`; \
         not a type defined in a file named for something else, nor by tests' helpers; \
         a single word written as code once is said in passing; two definitions: none"
    );
    assert!(
        got.iter().all(|(_, _, _, c)| *c < 0.8),
        "a definition is a guess, below --accept: {got:?}"
    );
    // `why` on the file lists the record.
    let run = g.run(&["why", "nodebuilder/node.go", "--json"]);
    run.assert_finished();
    let j: Value = run.json();
    let ids: Vec<&str> = j["query"]["mentioned_by"]
        .as_array()
        .expect("mentioned_by")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert_eq!(ids, ["ADR-0001"]);
}

#[test]
fn a_type_in_a_fenced_code_block_is_an_example() {
    let g = typed(
        "# 1. Controllers\n\nStatus: Accepted\n\nWe add a gadget.\n\n\
         ```rust\nlet g = Gadget::new();\nlet l: Ledger = Ledger::open();\n```\n",
    );
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[]),
        "names only in a fenced code block are the example's, whatever the tree defines"
    );
}

#[test]
fn a_type_the_prose_calls_a_type_names_its_definition() {
    let g = repo(&[
        (
            "docs/rfcs/0001-configuration-values.md",
            "# 1. Configuration values\n\nStatus: Accepted\n\n\
             Go has no Optional type in its library; we add an Optional type.\n",
        ),
        (
            "config/configoptional/optional.go",
            "package configoptional\n\ntype Optional[T any] struct {\n\tvalue T\n}\n",
        ),
    ]);
    assert_eq!(
        named(&g, "RFC-0001"),
        pairs(&[("Optional", "config/configoptional/optional.go")])
    );
}

/// A tree of Go modules and Rust crates.
fn modules(record: &str) -> GitRepo {
    repo(&[
        ("docs/rfcs/0001-profiles.md", record),
        ("consumer/go.mod", "module example.com/consumer\n"),
        ("consumer/consumer.go", "package consumer\n"),
        ("receiver/go.mod", "module example.com/receiver\n"),
        ("receiver/receiver.go", "package receiver\n"),
        ("pkg/metrics/histogram/histogram.go", "package histogram\n"),
        ("internal/widgets/widgets.go", "package widgets\n"),
        (
            "components/suggest/Cargo.toml",
            "[package]\nname = \"suggest\"\n",
        ),
        ("components/suggest/src/lib.rs", "pub fn s() {}\n"),
        ("a/python/Cargo.toml", "[package]\nname = \"python\"\n"),
        ("a/python/src/lib.rs", "pub fn p() {}\n"),
        ("x/places/Cargo.toml", "[package]\nname = \"places\"\n"),
        ("x/places/src/lib.rs", "pub fn p() {}\n"),
        ("y/places/Cargo.toml", "[package]\nname = \"places\"\n"),
        ("y/places/src/lib.rs", "pub fn p() {}\n"),
    ])
}

#[test]
fn listed_modules_components_and_names_written_as_code_later() {
    let g = modules(
        "# 1. Profiles\n\nStatus: Accepted\n\n\
         Add profiles to `consumer`, `receiver`, `histogram` and `processor`.\n\
         The widgets move.\n\
         Later the `widgets` package keeps them.\n\
         The Suggest component indexes them; the Python package and the places crate do not.\n",
    );
    let got = mentions(&g, "RFC-0001");
    let terms: Vec<(String, String)> = got
        .iter()
        .map(|(t, p, _, _)| (t.clone(), p.clone()))
        .collect();
    assert_eq!(
        terms,
        pairs(&[
            ("consumer", "consumer/"),
            ("receiver", "receiver/"),
            ("widgets", "internal/widgets/"),
            ("Suggest", "components/suggest/"),
        ]),
        "listed modules name top-level modules only (not `pkg/metrics/histogram/`); a name \
         said bare, then in backticks, is read as code; a component names its crate; a \
         language's name and a name of two crates name nothing"
    );
    let widgets = got.iter().find(|m| m.0 == "widgets").expect("widgets");
    assert_eq!(widgets.2, 7, "the line where it is written as code");
}

/// Kubernetes' generated clients (`clientset/`, `listers/`, `informers/`,
/// `applyconfiguration/`) spell every kind's name: the kind is its type's definition in the
/// API package, never a generated client of it.
#[test]
fn a_kind_names_its_api_type_not_the_clients_generated_from_it() {
    let g = repo(&[
        (
            "docs/adr/0001-grpc-routes.md",
            "# 1. Route gRPC traffic\n\nStatus: Accepted\n\nAdd an idiomatic `GRPCRoute` \
             resource: a `GRPCRoute` matches on service and method.\n",
        ),
        (
            "apis/v1/grpcroute_types.go",
            "package v1\n\ntype GRPCRoute struct {\n\tSpec GRPCRouteSpec\n}\n",
        ),
        (
            "applyconfiguration/apis/v1/grpcroute.go",
            "// Code generated by applyconfiguration-gen. DO NOT EDIT.\npackage v1\n",
        ),
        (
            "pkg/client/clientset/versioned/typed/apis/v1/grpcroute.go",
            "// Code generated by client-gen. DO NOT EDIT.\npackage v1\n",
        ),
        (
            "pkg/client/listers/apis/v1/grpcroute.go",
            "// Code generated by lister-gen. DO NOT EDIT.\npackage v1\n",
        ),
        (
            "pkg/client/informers/externalversions/apis/v1/grpcroute.go",
            "package v1\n",
        ),
    ]);
    let found: Vec<(String, String)> = mentions(&g, "ADR-0001")
        .into_iter()
        .map(|(term, path, _, _)| (term, path))
        .collect();
    assert_eq!(
        found,
        [(
            "GRPCRoute".to_string(),
            "apis/v1/grpcroute_types.go".to_string()
        )]
    );
}

/// What lies beside the code is named by no word of the prose: tests (a test's own file, a
/// `ut_` folder), samples, the licenses kept for dependencies and an editor's settings.
#[test]
fn tests_samples_licenses_and_editor_settings_are_not_named() {
    let g = repo(&[
        (
            "docs/adr/0001-conpty.md",
            "# 1. Pseudo consoles\n\nStatus: Accepted\n\nThe `ConPTY` host reads the user's \
             `settings.json`; no `ScreenBufferTests` change, as in kube-scheduler and \
             kube-scheduler's queue. The `Renderer` draws the buffer.\n",
        ),
        ("samples/ConPTY/EchoCon.cpp", "int main();\n"),
        (".vscode/settings.json", "{}\n"),
        ("src/host/ut_host/ScreenBufferTests.cpp", "void t();\n"),
        ("licenses/k8s.io/kube-scheduler/LICENSE", "Apache\n"),
        ("src/renderer/Renderer.cpp", "class Renderer {};\n"),
    ]);
    let mut found: Vec<(String, String)> = mentions(&g, "ADR-0001")
        .into_iter()
        .map(|(term, path, _, _)| (term, path))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [("Renderer".to_string(), "src/renderer/".to_string())]
    );
}

/// An acronym's plural is no name (`APIs` is not `apis/`), and a top-level `conformance/`
/// is a test suite (Gateway API's), while a deeper one may be a module of that name
/// (volcano's scheduler plugin).
#[test]
fn an_acronyms_plural_and_a_conformance_suite_are_not_named() {
    let suite = repo(&[
        (
            "docs/adr/0001-routes.md",
            "# 1. Route matching\n\nStatus: Accepted\n\nKubernetes APIs and mesh APIs both \
             match routes; conformance tests will cover it, and conformance levels say how.\n",
        ),
        ("apis/v1/route.go", "package v1\n"),
        ("conformance/suite.go", "package conformance\n"),
    ]);
    assert_eq!(mentions(&suite, "ADR-0001"), []);
    let plugin = repo(&[
        (
            "docs/adr/0001-conformance.md",
            "# 1. Protect critical pods\n\nStatus: Accepted\n\nThe `conformance` plugin \
             keeps critical pods from eviction.\n",
        ),
        (
            "pkg/scheduler/plugins/conformance/conformance.go",
            "package conformance\n",
        ),
    ]);
    let found: Vec<String> = mentions(&plugin, "ADR-0001")
        .into_iter()
        .map(|(_, path, _, _)| path)
        .collect();
    assert_eq!(found, ["pkg/scheduler/plugins/conformance/"]);
}

/// A Kubernetes operator's tree: the API types in `apis/` (kubebuilder's `*_types.go`), the
/// controller's own types of the same names in `internal/graph/`, and a `Secret` wrapper.
fn operator(record: &str) -> GitRepo {
    repo(&[
        ("docs/adr/0001-widget-policies.md", record),
        (
            "apis/v1alpha1/widgetpolicy_types.go",
            "package v1alpha1\n\ntype WidgetPolicy struct {\n\tSpec WidgetPolicySpec\n}\n",
        ),
        (
            "internal/graph/widgetpolicy.go",
            "package graph\n\n// WidgetPolicy is the policy as the graph holds it.\ntype WidgetPolicy struct {\n}\n",
        ),
        (
            "apis/v1alpha1/gadgetfilter_types.go",
            "package v1alpha1\n\ntype GadgetFilter struct {\n}\n",
        ),
        (
            "internal/graph/secrets.go",
            "package graph\n\ntype Secret struct {\n}\n",
        ),
    ])
}

#[test]
fn a_kind_a_manifest_shows_names_the_file_of_its_api_type() {
    let g = operator(
        "# 1. Widget policies\n\nStatus: Accepted\n\nUsers attach a policy to their gateways.\n\n\
         ```yaml\napiVersion: example.org/v1alpha1\nkind: GadgetFilter\nspec:\n  secretRef:\n    kind: Secret\n```\n\n\
         The `WidgetPolicy` API holds the settings, and the `WidgetPolicy` is read on each change.\n",
    );
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[
            ("GadgetFilter", "apis/v1alpha1/gadgetfilter_types.go"),
            ("WidgetPolicy", "apis/v1alpha1/widgetpolicy_types.go"),
        ]),
        "a kind shown in a manifest names the file defining it; of two files defining \
         `WidgetPolicy`, its types file is the definition; a one-word kind is the platform's"
    );
}
