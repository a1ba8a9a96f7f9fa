//! Code mentions by Go functions, types over files named like them, vendored code and
//! controllers (docs/mentions.md, ADR-0017's seventh amendment; issue 20's eighth round).

use crate::git::GitRepo;
use crate::mentions_definitions::{named, pairs, repo, term_paths};
use serde_json::Value;

/// A Go module shaped like a Cosmos chain's: keepers, generated protobuf code, an interface
/// in `exported/`, a light client's file named like that interface, and a vendored dependency.
fn chain(record: &str) -> GitRepo {
    repo(&[
        ("docs/adr/0001-escrow.md", record),
        (
            "modules/transfer/keeper/escrow.go",
            "package keeper\n\nfunc NewTotalEscrowTracker(store Store) *Tracker {\n\treturn nil\n}\n",
        ),
        // A method: many types define one of the name (`UpdateClient`), so it names nothing.
        (
            "modules/client/keeper/client.go",
            "package keeper\n\nfunc (k *Keeper) UpdateClientState(ctx Context, id string) error {\n\treturn nil\n}\n",
        ),
        // Generated stubs define functions again: never the function meant.
        (
            "modules/transfer/types/tx.pb.go",
            "package types\n\nfunc RegisterMsgServiceHandler(s Server) {\n}\n\ntype MsgTransfer struct {\n}\n",
        ),
        // Two definitions of a function: ambiguous.
        ("modules/a/address.go", "package a\n\nfunc NewEscrowAddress() {}\n"),
        ("modules/b/address.go", "package b\n\nfunc NewEscrowAddress() {}\n"),
        // A function of two words: said as often as any method's name.
        ("modules/c/send.go", "package c\n\nfunc SendPacket() {}\n"),
        (
            "modules/core/exported/client.go",
            "package exported\n\ntype ClientMessage interface {\n\tClientType() string\n}\n",
        ),
        (
            "modules/light-clients/wasm/types/client_message.go",
            "package types\n\nfunc (m ClientMessage) ClientType() string { return \"wasm\" }\n",
        ),
        (
            "vendor/github.com/acme/user/user_id.go",
            "package user\n\ntype UserID string\n",
        ),
        ("go.mod", "module example.com/chain\n"),
    ])
}

#[test]
fn a_go_function_of_three_words_names_the_one_file_defining_it() {
    let g = chain(
        "# 1. Total escrow\n\nStatus: accepted\n\n## Decision\n\n\
         Build the tracker with `NewTotalEscrowTracker` whenever tokens move.\n\
         `UpdateClientState` emits the new event.\n\
         `RegisterMsgServiceHandler` is unchanged, and so are `NewEscrowAddress` and\n\
         `SendPacket`. The `MsgTransfer` message gains a memo.\n",
    );
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[(
            "NewTotalEscrowTracker",
            "modules/transfer/keeper/escrow.go"
        )]),
        "not a method, not generated code (`tx.pb.go`), not a name two files define or of two words"
    );
}

/// A Python package and a Rust crate whose functions lie in files of other names.
fn snake(record: &str) -> GitRepo {
    repo(&[
        ("docs/adr/0001-distributed-mode.md", record),
        (
            "wrangler/_utils.py",
            "from functools import partial\n\n\
             validate_distributed_kwargs = partial(_validate, unsupported=set())\n\n\
             class Engine:\n    def dispatch_on_engine(self, func):\n        return func\n",
        ),
        (
            "wrangler/_deps.py",
            "async def check_optional_dependency(module, name):\n    return module\n",
        ),
        (
            "crates/loader/src/paths.rs",
            "pub fn load_from_paths(paths: &[String]) -> Vec<String> {\n    paths.to_vec()\n}\n\n\
             fn read_file(path: &str) {}\n",
        ),
        // Two files defining a name: ambiguous.
        (
            "wrangler/a.py",
            "def merge_the_frames(a, b):\n    return a\n",
        ),
        (
            "wrangler/b.py",
            "def merge_the_frames(a, b):\n    return b\n",
        ),
        // A test defining it again is no definition.
        (
            "tests/test_utils.py",
            "def check_optional_dependency(m, n):\n    pass\n",
        ),
    ])
}

#[test]
fn a_snake_case_function_of_three_words_names_the_one_file_defining_it() {
    let g = snake(
        "# 1. Distributed mode\n\nStatus: accepted\n\n## Decision\n\n\
         The `validate_distributed_kwargs` annotation rejects unsupported arguments, and\n\
         `check_optional_dependency` says how to install what is missing. Paths load through\n\
         `load_from_paths()`. `merge_the_frames` is unchanged; `dispatch_on_engine` is a\n\
         method and `read_file` two words.\n",
    );
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[
            ("validate_distributed_kwargs", "wrangler/_utils.py"),
            ("check_optional_dependency", "wrangler/_deps.py"),
            ("load_from_paths", "crates/loader/src/paths.rs"),
        ]),
        "not a method, a name of two words, a name two files define, or a test"
    );
    // Named, not governed: `why` relates the record by the name.
    let q: Value = g
        .run(&["why", "crates/loader/src/paths.rs", "--json"])
        .json();
    assert_eq!(q["query"]["decisions"], serde_json::json!([]));
    assert_eq!(q["query"]["related"][0]["id"], "ADR-0001", "{q:#}");
}

#[test]
fn a_function_in_a_code_block_is_an_example() {
    let g = chain(
        "# 1. Trackers\n\nStatus: accepted\n\n## Decision\n\nAs below.\n\n\
         ```go\nt := NewTotalEscrowTracker(store)\n```\n",
    );
    assert_eq!(named(&g, "ADR-0001"), pairs(&[]));
}

#[test]
fn a_type_names_its_definition_over_a_file_named_like_it_that_does_not_define_it() {
    let g = chain(
        "# 1. Client messages\n\nStatus: accepted\n\n## Decision\n\n\
         Merge the headers into one `ClientMessage` interface.\n",
    );
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[("ClientMessage", "modules/core/exported/client.go")]),
        "the file named like the type only implements it"
    );
}

#[test]
fn vendored_code_is_never_mentioned() {
    let g = chain(
        "# 1. Users\n\nStatus: accepted\n\n## Decision\n\nRead the `UserID` from the header.\n",
    );
    assert_eq!(named(&g, "ADR-0001"), pairs(&[]));
    // Without the vendor folder the same name is this repository's own code.
    let own = repo(&[
        (
            "docs/adr/0001-users.md",
            "# 1. Users\n\nStatus: accepted\n\n## Decision\n\nRead the `UserID` from the header.\n",
        ),
        (
            "pkg/user/user_id.go",
            "package user\n\ntype UserID string\n",
        ),
    ]);
    assert_eq!(
        named(&own, "ADR-0001"),
        pairs(&[("UserID", "pkg/user/user_id.go")])
    );
}

/// The `(term, path)` of each code mention of the one record in `design/`, cert-manager's and
/// crossplane's record folder.
fn designed(g: &GitRepo) -> Vec<(String, String)> {
    let run = g.run(&["--docs", "design", "--json"]);
    run.assert_finished();
    let j: Value = run.json();
    term_paths(&j["records"][0])
}

/// A Kubernetes operator's tree: controllers in folders of their names below a folder of
/// controllers, a webhook of the same name beside them.
fn operator(record: &str) -> GitRepo {
    repo(&[
        ("design/usage.md", record),
        (
            "internal/controller/protection/usage/reconciler.go",
            "package usage\n",
        ),
        (
            "internal/webhook/protection/usage/handler.go",
            "package usage\n",
        ),
        (
            "pkg/controllers/node/health/controller.go",
            "package health\n",
        ),
        (
            "pkg/controller/certificates/trigger/trigger_controller.go",
            "package trigger\n",
        ),
        ("pkg/util/trigger/trigger.go", "package trigger\n"),
        // Deeper among the controllers: the other one of the name is meant.
        (
            "pkg/controller/topology/certificates/trigger/trigger.go",
            "package trigger\n",
        ),
        ("go.mod", "module example.com/operator\n"),
    ])
}

#[test]
fn the_x_controller_names_the_folder_of_that_controller() {
    let g = operator(
        "# Protecting resources in use\n\n## Proposal\n\n#### Usage Controller\n\n\
         The Usage controller adds a finalizer.\n\
         The Node Health controller terminates broken nodes.\n\
         The `trigger` controller will not interfere.\n",
    );
    assert_eq!(
        designed(&g),
        pairs(&[
            ("Usage", "internal/controller/protection/usage/"),
            ("Node Health", "pkg/controllers/node/health/"),
            ("trigger", "pkg/controller/certificates/trigger/"),
        ]),
        "not the webhook's `usage/`, not `pkg/util/trigger/`, not the deeper `trigger/`"
    );
    // `why` on the controller's file names the record, as a mention.
    let why = g.run(&[
        "--docs",
        "design",
        "why",
        "internal/controller/protection/usage/reconciler.go",
        "--json",
    ]);
    why.assert_finished();
    let q: Value = why.json();
    assert_eq!(q["query"]["mentioned_by"][0]["term"], "Usage", "{q:#}");
    assert!(
        q["query"]["decisions"]
            .as_array()
            .is_some_and(|d| d.is_empty()),
        "{q:#}"
    );
}

#[test]
fn a_word_before_controller_said_in_passing_names_no_folder_elsewhere() {
    // "the main controller": a common word; "Helm controller": no folder of it.
    let g =
        operator("# Helm\n\n## Proposal\n\nThe Helm controller and the main controller stay.\n");
    assert_eq!(designed(&g), pairs(&[]));
}

#[test]
fn a_controller_named_by_a_title_word_or_the_records_words_is_named() {
    // The record titled "Generic Usage Type" says "the Usage controller": the noun makes the
    // title's word a controller's name (docs/mentions.md leaves out title words by
    // themselves). "trigger" is said by three records and more: the records' vocabulary,
    // which a controller's name still is.
    let mut files: Vec<(String, String)> = vec![(
        "design/usage.md".into(),
        "# Generic Usage Type\n\n## Proposal\n\n#### Usage Controller\n\n\
         The usage controller manages the usage relationship.\n\
         The `trigger` controller is untouched.\n"
            .into(),
    )];
    for n in 0..4 {
        files.push((
            format!("design/other{n}.md"),
            format!("# Other {n}\n\nA trigger fires usage of the trigger.\n"),
        ));
    }
    for (path, text) in [
        (
            "internal/controller/protection/usage/reconciler.go",
            "package usage\n",
        ),
        (
            "pkg/controller/certificates/trigger/trigger_controller.go",
            "package trigger\n",
        ),
        ("go.mod", "module example.com/operator\n"),
    ] {
        files.push((path.into(), text.into()));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let g = repo(&borrowed);
    let run = g.run(&["--docs", "design", "--json"]);
    run.assert_finished();
    let j: Value = run.json();
    let record = j["records"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["path"] == "design/usage.md"))
        .expect("design/usage.md is read");
    assert_eq!(record["title"], "Generic Usage Type", "{j:#}");
    assert_eq!(
        term_paths(record),
        pairs(&[
            ("Usage", "internal/controller/protection/usage/"),
            ("trigger", "pkg/controller/certificates/trigger/"),
        ]),
    );
}

#[test]
fn a_quality_a_qualifier_or_a_program_is_no_controllers_name() {
    // "an external controller" is anyone's; "the managed reconciler" is a library's; "the
    // infrastructure machine controller" is a provider's, also when the qualifier ends the
    // line before; "the provider controller manager" is a program; a single word said once in
    // passing is context. "The Machine controller", said twice, is the one here.
    let g = repo(&[
        (
            "design/machines.md",
            "# Machine deletion hooks\n\n## Proposal\n\n\
             The field is set by an external controller.\n\
             The managed reconciler observes it.\n\
             Then the infrastructure machine controller creates claims, and the infrastructure\n\
             cluster controller waits. Deploy the provider controller manager.\n\
             The Machine controller drains the node; the Machine controller cordons it.\n\
             The lifecycle controller, said once in passing, is context.\n",
        ),
        (
            "pkg/controllers/nodeclaim/lifecycle/controller.go",
            "package lifecycle\n",
        ),
        ("controllers/external/tracker.go", "package external\n"),
        (
            "internal/controller/apiextensions/managed/reconciler.go",
            "package managed\n",
        ),
        ("core/reconcilers/machine/drain.go", "package machine\n"),
        ("core/reconcilers/cluster/reconcile.go", "package cluster\n"),
        (
            "internal/controller/rbac/provider/reconciler.go",
            "package provider\n",
        ),
        ("go.mod", "module example.com/operator\n"),
    ]);
    assert_eq!(
        designed(&g),
        pairs(&[("Machine", "core/reconcilers/machine/")]),
        "only the Machine controller"
    );
}

/// Proposals of a Kubernetes controller: one introduces the `ClientSettingsPolicy` API and
/// writes it throughout; three others name it once each, as the records' shared vocabulary.
fn policies() -> GitRepo {
    let mut files: Vec<(String, String)> = vec![
        (
            "docs/adr/0001-client-settings.md".into(),
            "# 1. Client settings\n\nStatus: accepted\n\n## Decision\n\n\
             Add the `ClientSettingsPolicy` API. A `ClientSettingsPolicy` targets a Gateway.\n\
             Each `ClientSettingsPolicy` sets body limits; a `ClientSettingsPolicy` on a route\n\
             wins over one on its Gateway. Two `ClientSettingsPolicy` objects never merge.\n"
                .into(),
        ),
        (
            "apis/v1alpha1/clientsettingspolicy_types.go".into(),
            "package v1alpha1\n\ntype ClientSettingsPolicy struct {\n\tSpec Spec\n}\n".into(),
        ),
        (
            "internal/graph/policies.go".into(),
            "package graph\n\nfunc build() {}\n".into(),
        ),
    ];
    for (n, topic) in [
        (2, "observability"),
        (3, "proxy-settings"),
        (4, "rate-limits"),
    ] {
        files.push((
            format!("docs/adr/000{n}-{topic}.md"),
            format!(
                "# {n}. {topic}\n\nStatus: accepted\n\n## Decision\n\n\
                 Like the `ClientSettingsPolicy`, this is an inherited policy.\n"
            ),
        ));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_str()))
        .collect();
    repo(&refs)
}

#[test]
fn a_type_many_records_name_names_its_definition_for_the_record_that_introduces_it() {
    let g = policies();
    assert_eq!(
        named(&g, "ADR-0001"),
        pairs(&[(
            "ClientSettingsPolicy",
            "apis/v1alpha1/clientsettingspolicy_types.go"
        )]),
        "the record writing it five times, over three times any other's count"
    );
    for other in ["ADR-0002", "ADR-0003", "ADR-0004"] {
        assert!(named(&g, other).is_empty(), "{other} names it in passing");
    }
    let q: Value = g
        .run(&[
            "why",
            "apis/v1alpha1/clientsettingspolicy_types.go",
            "--json",
        ])
        .json();
    let related = crate::related::without_text(&q["query"]["related"]);
    let related: Vec<&str> = related
        .as_array()
        .expect("related")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(related, ["ADR-0001"], "{q:#}");
}
