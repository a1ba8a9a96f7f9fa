//! Where records and guides are (docs/reading.md): record folders other tools name (adr-tools'
//! `.adr-dir`, log4brains' `.log4brains.yml`), records in parts, and what is not a guide
//! (change logs, test fixtures, a guide that already cites the successor).

use crate::fixture::{assert_corpus, copy_fixture, json, record_at};

const CORPUS: &str = "reading/tools-parts-guides";

#[test]
fn folders_parts_and_guides_are_read_as_a_careful_reader_would() {
    assert_corpus(CORPUS);
}

#[test]
fn record_folders_named_by_adr_tools_and_log4brains_are_read() {
    let doc = json(CORPUS);
    assert_eq!(
        record_at(&doc, "src/adr/0002-record-decisions-with-log4brains.md")["supersedes"],
        serde_json::json!(["ADR-0001"])
    );
    record_at(
        &doc,
        "packages/api/decisions-log/20240611-use-a-job-queue.md",
    );
}

#[test]
fn a_chapter_beside_its_record_is_neither_a_record_nor_a_citation() {
    let doc = json(CORPUS);
    let r = record_at(&doc, "docs/adr/0003-split-the-monolith.md");
    assert_eq!(r["cites"], serde_json::json!([]), "{r:#}");
    assert_eq!(r["governs"], serde_json::json!([]), "{r:#}");
    // With --docs naming only the record folder, the same.
    let fixture = copy_fixture(CORPUS);
    let out = fixture.run_json(&["check", "--docs", "docs/adr"]);
    out.assert_code(0);
    let paths: Vec<String> = out.json()["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "docs/adr/0003-split-the-monolith.md",
            "docs/adr/0004-cite-both.md",
            "docs/adr/0005-cite-the-old-one.md"
        ]
    );
}

/// A document that declares its own status (a spec, a plan of its own time) is not a guide, and
/// a record that cites the successor too was written knowing the newer decision: neither is
/// left behind by a superseded record.
#[test]
fn a_spec_with_its_own_status_and_a_record_citing_the_successor_too_are_not_flagged() {
    let doc = json(CORPUS);
    let flagged: Vec<(String, String)> = crate::fixture::finding_list(&doc)
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        !flagged.iter().any(|(_, p)| p == "docs/specs/jobs.md"),
        "{flagged:?}"
    );
    assert!(
        !flagged
            .iter()
            .any(|(_, p)| p == "docs/adr/0004-cite-both.md"),
        "{flagged:?}"
    );
    assert!(flagged.contains(&(
        "cites-superseded".to_string(),
        "docs/adr/0005-cite-the-old-one.md".to_string()
    )));
}

/// flux2's and the Kubernetes enhancement proposals' layout: each record is the `README.md` of a
/// folder of its own named by its number (`rfcs/0001-authorization/README.md`).
fn own_folder_root() -> crate::fixture::Fixture {
    let f = crate::fixture::empty_root();
    let files: [(&str, &str); 8] = [
        (
            "rfcs/README.md",
            "# Flux RFCs\n\nThe index of every RFC: [RFC-0001](0001-authorization/README.md).\n",
        ),
        (
            "rfcs/RFC-0000/README.md",
            "# RFC-NNNN Title\n\n**Status:** provisional\n\n## Summary\n\nx\n",
        ),
        (
            "rfcs/0001-authorization/README.md",
            "# RFC-0001 Memorandum on Flux Authorization\n\n**Status:** implemented\n\n\
             **Creation date:** 2021-11-02\n\n## Summary\n\nHow Flux decides what is allowed.\n",
        ),
        (
            "rfcs/0002-helm-oci/README.md",
            "# RFC-0002 Flux OCI support for Helm\n\n**Status:** implemented\n\n\
             **Creation date:** 2022-03-30\n\n## Summary\n\nBuilds on \
             [the authorization memo](../0001-authorization/) and changes `internal/oci/`.\n",
        ),
        (
            "rfcs/0002-helm-oci/notes.md",
            "# Notes\n\nStatus: draft\n\nA chapter of RFC-0002, not a record.\n",
        ),
        (
            "rfcs/0002-helm-oci/diagram.md",
            "# 7. A diagram's caption\n\nStatus: Accepted\n",
        ),
        ("internal/oci/client.go", "package oci\n"),
        (
            "docs/design/overview/README.md",
            "# Overview\n\nStatus: Accepted\n\nNot numbered: a guide to the designs.\n",
        ),
    ];
    for (rel, text) in files {
        f.write(rel, text.as_bytes());
    }
    f
}

#[test]
fn a_readme_in_a_numbered_folder_of_its_own_is_that_record() {
    let f = own_folder_root();
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    let doc = out.json();
    let paths = crate::fixture::record_paths(&doc);
    // Not the folder's index, nor the template, nor the parts beside a record's README, nor a
    // README in a folder without a number.
    assert_eq!(
        paths,
        [
            "rfcs/0001-authorization/README.md",
            "rfcs/0002-helm-oci/README.md"
        ]
    );
    let one = record_at(&doc, "rfcs/0001-authorization/README.md");
    assert_eq!(one["id"], "RFC-0001", "{one:#}");
    assert_eq!(one["title"], "Memorandum on Flux Authorization", "{one:#}");
    assert_eq!(one["status"], "implemented", "{one:#}");
    let two = record_at(&doc, "rfcs/0002-helm-oci/README.md");
    assert_eq!(two["id"], "RFC-0002", "{two:#}");
    // A link to the record's folder is a link to the record.
    assert_eq!(two["cites"], serde_json::json!(["RFC-0001"]), "{two:#}");
    assert_eq!(
        two["governs"],
        serde_json::json!(["internal/oci/"]),
        "{two:#}"
    );
    assert_eq!(
        crate::fixture::findings(&doc),
        Vec::<(String, String)>::new()
    );
    // And `why` answers from it.
    let why = f.run_json(&["why", "internal/oci/client.go"]);
    why.assert_code(0);
    let ids: Vec<String> = why.json()["query"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["RFC-0002"]);
}

#[test]
fn a_readme_directly_in_a_record_folder_is_still_not_a_record() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/adr/README.md",
        b"# 1. Looks like a record\n\nStatus: Accepted\n",
    );
    f.write(
        "docs/adr/0001-use-adrs.md",
        b"# 1. Use ADRs\n\nStatus: Accepted\n",
    );
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    assert_eq!(crate::fixture::ids(&out.json()), ["ADR-0001"]);
}

/// Kubernetes' enhancement proposals: `keps/sig-x/NNNN-name/README.md` beside a `kep.yaml`,
/// read with `--docs keps`.
#[test]
fn kep_folders_below_a_group_folder_are_records() {
    let f = crate::fixture::empty_root();
    f.write(
        "keps/sig-node/688-pod-overhead/README.md",
        b"# KEP-688: Pod Overhead\n\n## Summary\n\nAccount for the sandbox.\n",
    );
    f.write(
        "keps/sig-node/688-pod-overhead/kep.yaml",
        b"status: implemented\n",
    );
    f.write("keps/sig-node/README.md", b"# SIG Node KEPs\n");
    let out = f.run_json(&["check", "--docs", "keps"]);
    let doc = out.json();
    assert_eq!(
        crate::fixture::record_paths(&doc),
        ["keps/sig-node/688-pod-overhead/README.md"]
    );
    let r = record_at(&doc, "keps/sig-node/688-pod-overhead/README.md");
    // Its number is the folder's; "KEP" is no kind the reference knows, so the title keeps it.
    assert_eq!(r["id"], "DR-0688", "{r:#}");
    assert_eq!(r["title"], "KEP-688: Pod Overhead", "{r:#}");
}

/// Gateway API's layout: each proposal is the `index.md` of a folder of its own
/// (`geps/gep-713/index.md`, a documentation site's page), beside the site's `_index.md`
/// listing them, read with `--docs geps`.
#[test]
fn an_index_page_in_a_numbered_folder_of_its_own_is_that_record() {
    let f = crate::fixture::empty_root();
    f.write(
        "geps/_index.md",
        b"---\ntitle: \"GEPs\"\nweight: 10\n---\n\n# Enhancement proposals\n\nStatus: Accepted\n",
    );
    f.write(
        "geps/gep-713/index.md",
        b"---\ntitle: \"GEP-713: Policy Attachment\"\n---\n\n* Status: Memorandum\n\n\
          ## TL;DR\n\nOne object changes how others behave, through `apis/v1/policy.go`.\n",
    );
    f.write(
        "geps/gep-713/notes.md",
        b"# 1. Notes on the memorandum\n\nStatus: Accepted\n",
    );
    f.write(
        "geps/gep-1016/index.md",
        b"---\ntitle: \"GEP-1016: GRPCRoute\"\n---\n\n* Status: Standard\n\n\
          ## Goals\n\nRoute gRPC traffic, [after GEP-713](../gep-713/index.md).\n",
    );
    f.write("apis/v1/policy.go", b"package v1\n");
    let out = f.run_json(&["check", "--docs", "geps"]);
    out.assert_code(0);
    let doc = out.json();
    assert_eq!(
        crate::fixture::record_paths(&doc),
        ["geps/gep-1016/index.md", "geps/gep-713/index.md"]
    );
    let policy = record_at(&doc, "geps/gep-713/index.md");
    assert_eq!(policy["id"], "DR-0713", "{policy:#}");
    assert_eq!(policy["title"], "GEP-713: Policy Attachment", "{policy:#}");
    assert_eq!(policy["status"], "accepted", "a memorandum: {policy:#}");
    assert_eq!(policy["governs"], serde_json::json!(["apis/v1/policy.go"]));
    let grpc = record_at(&doc, "geps/gep-1016/index.md");
    assert_eq!(grpc["cites"], serde_json::json!(["DR-0713"]), "{grpc:#}");
    assert_eq!(grpc["status"], "implemented", "a standard: {grpc:#}");
    let why = f.run_json(&["why", "apis/v1/policy.go", "--docs", "geps"]);
    why.assert_code(0);
    assert_eq!(why.json()["query"]["decisions"][0]["id"], "DR-0713");
}

/// Windows Terminal's specs: each is numbered by the issue it answers, `#605 - Search`, as a
/// file of that name or as a folder holding `spec.md` (the record; a `design.md` beside it is
/// a part of it) or a file named as the folder.
#[test]
fn specs_numbered_by_their_issue_are_records_with_that_number() {
    let f = crate::fixture::empty_root();
    let files: [(&str, &str); 6] = [
        (
            "doc/specs/#605 - Search/design.md",
            "# Search: the design\n\nHow the buffer is searched.\n",
        ),
        (
            "doc/specs/#976 - VT52 escape sequences.md",
            "---\nauthor: someone\ncreated on: 2019-07-17\n---\n\n# VT52 Escape Sequences\n\nWhy.\n",
        ),
        (
            "doc/specs/#605 - Search/spec.md",
            "# Search in Terminal\n\nFind text in the buffer.\n",
        ),
        (
            "doc/specs/#1571 - New Tab Menu/#1571 - New Tab Menu.md",
            "# New Tab Menu Customization\n\nThe menu.\n",
        ),
        (
            "doc/specs/_issue#-title.md",
            "# [Feature title]\n\nStatus: Draft\n",
        ),
        ("src/buffer/search.cpp", "int search();\n"),
    ];
    for (rel, text) in files {
        f.write(rel, text.as_bytes());
    }
    let out = f.run_json(&["check", "--docs", "doc/specs"]);
    out.assert_code(0);
    let doc = out.json();
    let mut ids: Vec<(String, String)> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_string();
            (s("path"), s("id"))
        })
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            (
                "doc/specs/#1571 - New Tab Menu/#1571 - New Tab Menu.md",
                "DR-1571"
            ),
            ("doc/specs/#605 - Search/spec.md", "DR-0605"),
            ("doc/specs/#976 - VT52 escape sequences.md", "DR-0976"),
        ]
        .map(|(p, i)| (p.to_string(), i.to_string()))
    );
    assert_eq!(
        crate::fixture::findings(&doc)
            .iter()
            .filter(|(code, _)| code == "duplicate-id")
            .count(),
        0
    );
}

/// Designs that open with a deeper heading (`## Title`) or a setext one are records, titled by
/// it; they are not guides (volcano's `docs/design/drf.md`).
#[test]
fn a_design_opening_with_a_second_level_heading_is_a_record() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/design/drf.md",
        b"## Dominant Resource Fairness (DRF)\n\n## Introduction\n\nShares by the dominant resource.\n",
    );
    f.write(
        "docs/design/cpu-throttle.md",
        b"CPU Throttle Feature Design\n===\n\nDesign Principles\n---\n\nThrottle.\n",
    );
    f.write("docs/design/notes.md", b"Some loose notes, no heading.\n");
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    let doc = out.json();
    assert_eq!(
        crate::fixture::record_paths(&doc),
        ["docs/design/cpu-throttle.md", "docs/design/drf.md"]
    );
    assert_eq!(
        record_at(&doc, "docs/design/drf.md")["title"],
        "Dominant Resource Fairness (DRF)"
    );
}

/// A record folder whose path names no kind (`docs/architecture`) holding `adr-027-x.md` files:
/// the records are ADRs, as their names and their authors say, so a commit citing "ADR-027"
/// cites one, and `new` numbers and names the next one the same way.
#[test]
fn records_named_adr_in_a_folder_that_names_no_kind_are_adrs() {
    let repo = crate::git::GitRepo::new();
    repo.write(
        "docs/architecture/adr-027-wasm-light-clients.md",
        "# ADR 027: Wasm light clients\n\n## Status\n\nAccepted\n\n## Decision\n\nWasm light clients live in `modules/light-clients/08-wasm/`.\n",
    );
    repo.write(
        "modules/light-clients/08-wasm/keeper.go",
        "package keeper\n",
    );
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Add the wasm client");
    let docs = ["--docs", "docs/architecture"];
    let check = repo.run(&["check", "--json", docs[0], docs[1]]);
    let ids: Vec<String> = check.json()["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["ADR-0027"]);

    repo.write(
        "modules/light-clients/08-wasm/keeper.go",
        "package keeper\n\n// v2\n",
    );
    repo.commit_at(
        "2025-03-02T10:00:00Z",
        "Ana",
        "Tidy the keeper\n\nPer ADR-027.",
    );
    let review = repo.run(&["review", "HEAD~1..HEAD", "--json", docs[0], docs[1]]);
    let decisions = review.json()["query"]["decisions"].clone();
    assert_eq!(decisions[0]["id"], "ADR-0027", "{decisions:#}");
    assert_eq!(review.json()["query"]["uncited"], serde_json::json!([]));

    let new = repo.run(&["new", "Pin the wasm VM", "--json", docs[0], docs[1]]);
    new.assert_code(0);
    let written = &new.json()["written"][0];
    assert_eq!(written["id"], "ADR-0028", "{written:#}");
    assert!(
        written["path"]
            .as_str()
            .unwrap()
            .starts_with("docs/architecture/adr-028-"),
        "{written:#}"
    );
}

/// A root whose `docs/adr/` holds one accepted record per (file name, title).
fn accepted_records(records: &[(&str, &str)]) -> crate::fixture::Fixture {
    let fixture = crate::fixture::empty_root();
    for (name, title) in records {
        fixture.write(
            &format!("docs/adr/{name}"),
            format!("# {title}\n\n## Status\n\nAccepted\n").as_bytes(),
        );
    }
    fixture
}

/// Dated names whose date ends at a `_` before the number (`2021-06-05_001-x.md`) are numbered
/// by that number, as `2021-06-05-001-x.md` would be: not all `ADR-2021`, duplicates of each other.
#[test]
fn a_date_ending_at_an_underscore_before_the_number_is_still_a_dated_name() {
    let fixture = accepted_records(&[
        ("2021-06-05_001-record-decisions.md", "Record decisions"),
        ("2021-06-06_002-reactive-core.md", "Reactive core"),
        (
            "2022-01-10_013-use-a-custom-prelude.md",
            "Use a custom prelude",
        ),
    ]);
    let run = fixture.run_json(&["check"]);
    run.assert_code(0);
    let doc = run.json();
    assert_eq!(
        crate::fixture::ids(&doc),
        ["ADR-0001", "ADR-0002", "ADR-0013"],
        "{doc:#}"
    );
    assert_eq!(
        record_at(&doc, "docs/adr/2021-06-06_002-reactive-core.md")["date"],
        "2021-06-06"
    );
}

/// Names dated with `_` between the parts (`2020_03_03_name.md`, Sylius's `adr/`) carry a
/// date, not the number 2020: each record is its own stem, dated by its name, and no two are
/// one `ADR-2020` (a false `duplicate-id`).
#[test]
fn a_date_written_with_underscores_is_a_date_not_a_number() {
    let fixture = accepted_records(&[
        ("2020_03_03_api_platform_integration.md", "API Platform"),
        ("2020_03_04_locale_resolving.md", "Locale resolving"),
    ]);
    let run = fixture.run_json(&["check"]);
    run.assert_code(0);
    let doc = run.json();
    assert_eq!(
        crate::fixture::ids(&doc),
        [
            "2020_03_03_api_platform_integration",
            "2020_03_04_locale_resolving"
        ],
        "{doc:#}"
    );
    assert_eq!(
        record_at(&doc, "docs/adr/2020_03_04_locale_resolving.md")["date"],
        "2020-03-04"
    );
    let codes: Vec<&str> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(!codes.contains(&"duplicate-id"), "{doc:#}");
}

/// mozilla/experimenter's MADR records: "Status: decided" is accepted, and "Status: Decision
/// proposed; accepting feedback" is proposed (the word after "Decision" decides).
#[test]
fn decided_is_accepted_and_a_leading_decision_word_is_skipped() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/adrs/0001-build-the-console-here.md",
        b"# Build the console here\n\n* Status: decided\n* Date: 2020-08-31\n",
    );
    f.write(
        "docs/adrs/0013-guardrail-versions.md",
        b"# Guardrail versions\n\n* Status: Decision proposed; accepting feedback\n",
    );
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    let doc = out.json();
    let status = |p: &str| record_at(&doc, p)["status"].as_str().unwrap().to_string();
    assert_eq!(
        status("docs/adrs/0001-build-the-console-here.md"),
        "accepted"
    );
    assert_eq!(status("docs/adrs/0013-guardrail-versions.md"), "proposed");
}

/// apache/skywalking's proposals: `SWIP-11.md` files, and one in a folder of its own named as
/// its kind (`SWIP-10/SWIP.md`): that record is SWIP-10, not "SWIP".
#[test]
fn a_file_named_as_the_kind_its_folder_numbers_is_that_record() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/swip/SWIP-10/SWIP.md",
        b"# SWIP-10 Support the gateway\n\nStatus: Accepted\n",
    );
    f.write(
        "docs/swip/SWIP-11.md",
        b"# SWIP-11 Support the app\n\nStatus: Accepted\n",
    );
    let out = f.run_json(&["check", "--docs", "docs/swip"]);
    out.assert_code(0);
    assert_eq!(crate::fixture::ids(&out.json()), ["SWIP-10", "SWIP-11"]);
    f.run_json(&["record", "SWIP-10", "--docs", "docs/swip"])
        .assert_code(0);
}
