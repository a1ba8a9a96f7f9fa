//! Code mentions by command lines: a program's subcommand in backticks or in a shell block
//! names its file in the program's folder of commands (docs/mentions.md, ADR-0017's eighth
//! amendment; issue 20's ninth round).

use crate::git::GitRepo;
use crate::mentions_definitions::{named, pairs, repo};
use serde_json::Value;

/// A Go CLI laid out as cobra's are: one file per subcommand in `cmd/flux/`, and a program
/// of this repository's (`git`) that is not.
fn cli(record: &str) -> GitRepo {
    repo(&[
        ("rfcs/0003-oci/README.md", record),
        ("cmd/flux/main.go", "package main\n"),
        ("cmd/flux/push_artifact.go", "package main\n"),
        ("cmd/flux/push_artifact_test.go", "package main\n"),
        ("cmd/flux/create_source_oci.go", "package main\n"),
        ("cmd/flux/list.go", "package main\n"),
        ("cmd/flux/list_artifacts.go", "package main\n"),
        ("cmd/flux/trace.go", "package main\n"),
        ("cmd/flux/get.go", "package main\n"),
        ("internal/trace/trace.go", "package trace\n"),
        ("go.mod", "module example.com/flux\n"),
    ])
}

#[test]
fn a_command_line_names_its_subcommands_file_in_the_programs_folder() {
    let g = cli(
        "# RFC-0003 OCI artifacts\n\n**Status:** implemented\n\n## Proposal\n\n\
         Push with the CLI:\n\n\
         ```shell\n\
         $ flux push artifact oci://ghcr.io/org/app:v1 --path=./deploy\n\
         flux create source oci podinfo --url=oci://ghcr.io/podinfo\n\
         flux get externalartifact\n\
         git commit -m done\n\
         ```\n\n\
         The `flux trace` command shows where an object came from, and\n\
         `flux list artifacts oci://ghcr.io/org/app` lists them.\n",
    );
    assert_eq!(
        named(&g, "RFC-0003"),
        pairs(&[
            ("flux push artifact", "cmd/flux/push_artifact.go"),
            (
                "flux create source oci podinfo",
                "cmd/flux/create_source_oci.go"
            ),
            ("flux trace", "cmd/flux/trace.go"),
            ("flux list artifacts", "cmd/flux/list_artifacts.go"),
        ]),
        "an argument after the words (`podinfo`) is no subcommand; a command of several \
         words with no file of its own (`flux get externalartifact`) is not the group's \
         `get.go`; `git` has no folder of commands here; tests are not the command"
    );
    // `why` on the subcommand's file names the record, as a mention at its line.
    let why = g.run(&["why", "cmd/flux/push_artifact.go", "--json"]);
    why.assert_finished();
    let q: Value = why.json();
    let by = &q["query"]["mentioned_by"][0];
    assert_eq!(by["id"], "RFC-0003", "{q:#}");
    assert_eq!(by["term"], "flux push artifact", "{q:#}");
    assert_eq!(by["line"], 10, "{q:#}");
    assert!(
        q["query"]["decisions"]
            .as_array()
            .is_some_and(|d| d.is_empty()),
        "a mention never governs: {q:#}"
    );
}

/// A command of a program without a folder of commands, and code in a block that is not a
/// command line, name nothing.
#[test]
fn a_command_needs_the_programs_folder_of_commands() {
    let g = repo(&[
        (
            "docs/adr/0001-deploys.md",
            "# 1. Deploys\n\nStatus: accepted\n\n## Decision\n\n\
             ```sh\nkubectl apply config\nterraform plan deploy\n```\n\n\
             ```go\nfunc push artifact() {}\n```\n",
        ),
        ("tools/kubectl/apply_config.go", "package kubectl\n"),
        ("scripts/deploy/plan_deploy.sh", "#!/bin/sh\n"),
        ("go.mod", "module example.com/x\n"),
    ]);
    assert_eq!(named(&g, "ADR-0001"), pairs(&[]));
}
