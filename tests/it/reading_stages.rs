//! Proposals filed by stage (docs/reading.md, "Records in folders of their own"): oneTBB keeps
//! each RFC in a folder of its own inside a folder named for its status
//! (`rfcs/supported/assertion_handler/README.md`), the folder's name its id, sub-proposals beside
//! an umbrella's README, and one proposal at two stages. Each README is that proposal's record,
//! its status the folder's when it states none; a status folder's own README is its index.

use crate::fixture::{findings, record_at, record_paths};

fn staged_root() -> crate::fixture::Fixture {
    let f = crate::fixture::empty_root();
    let files: [(&str, &str); 9] = [
        (
            "rfcs/README.md",
            "# RFCs\n\nDesign documents, filed by stage.\n",
        ),
        (
            "rfcs/proposed/README.md",
            "# Design Documents for Proposed Features\n\nProposals with some consensus.\n",
        ),
        (
            "rfcs/archived/README.md",
            "# Archived Design Documents\n\nDocuments that were removed or never supported.\n",
        ),
        (
            "rfcs/supported/assertion_handler/README.md",
            "# Custom Assertion Handler\n\n## Introduction\n\nA handler set as \
             `std::set_terminate` is, declared in `oneapi/lib/global_control.h`.\n",
        ),
        (
            "rfcs/proposed/numa_support/README.md",
            "# NUMA support\n\n## Introduction\n\nAn umbrella for sub-proposals.\n",
        ),
        (
            "rfcs/proposed/numa_support/interleaved-allocation.md",
            "# API to allocate memory interleaved between NUMA nodes\n\n## Proposal\n\nA new \
             header.\n",
        ),
        (
            "rfcs/proposed/arena_waiting/readme.md",
            "# Waiting in an arena\n\n## Motivation\n\nThreads share and execute tasks.\n",
        ),
        (
            "rfcs/supported/arena_waiting/readme.md",
            "# Waiting in an arena\n\nThe parts of [the proposal](../../proposed/arena_waiting/readme.md) \
             that were implemented.\n",
        ),
        (
            "rfcs/experimental/fast_leave/README.md",
            "# Fast leave\n\nStatus: Rejected\n\n## Introduction\n\nIts own status wins.\n",
        ),
    ];
    for (rel, text) in files {
        f.write(rel, text.as_bytes());
    }
    f
}

#[test]
fn a_readme_in_a_folder_inside_a_status_folder_is_that_proposals_record() {
    let f = staged_root();
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    let doc = out.json();
    assert_eq!(
        record_paths(&doc),
        [
            "rfcs/experimental/fast_leave/README.md",
            "rfcs/proposed/arena_waiting/readme.md",
            "rfcs/proposed/numa_support/README.md",
            "rfcs/proposed/numa_support/interleaved-allocation.md",
            "rfcs/supported/arena_waiting/readme.md",
            "rfcs/supported/assertion_handler/README.md",
        ],
        "the status folders' own READMEs are indexes"
    );
    let handler = record_at(&doc, "rfcs/supported/assertion_handler/README.md");
    assert_eq!(handler["id"], "assertion_handler", "{handler:#}");
    assert_eq!(handler["title"], "Custom Assertion Handler", "{handler:#}");
    // The folder says the status the record does not.
    assert_eq!(handler["status"], "implemented", "{handler:#}");
    assert_eq!(handler["status_text"], "", "{handler:#}");
    let umbrella = record_at(&doc, "rfcs/proposed/numa_support/README.md");
    assert_eq!(umbrella["status"], "proposed", "{umbrella:#}");
    // A sub-proposal beside the umbrella's README stays a record of its own.
    let sub = record_at(&doc, "rfcs/proposed/numa_support/interleaved-allocation.md");
    assert_eq!(sub["status"], "proposed", "{sub:#}");
    // A status the record states wins over its folder's.
    let stated = record_at(&doc, "rfcs/experimental/fast_leave/README.md");
    assert_eq!(stated["status"], "rejected", "{stated:#}");
}

#[test]
fn one_proposal_at_two_stages_is_no_duplicate_id() {
    let f = staged_root();
    let doc = f.run_json(&["check"]).json();
    let proposed = record_at(&doc, "rfcs/proposed/arena_waiting/readme.md");
    let supported = record_at(&doc, "rfcs/supported/arena_waiting/readme.md");
    assert_eq!(proposed["id"], "arena_waiting");
    assert_eq!(supported["id"], "arena_waiting");
    assert_eq!(proposed["status"], "proposed");
    assert_eq!(supported["status"], "implemented");
    assert_eq!(findings(&doc), Vec::<(String, String)>::new());
    // A third record of the id, not filed by stage, is one: the layout does not explain it.
    f.write(
        "rfcs/arena_waiting.md",
        b"# The same name\n\nStatus: accepted\n",
    );
    let doc = f.run_json(&["check"]).json();
    assert!(
        findings(&doc)
            .iter()
            .any(|(code, _)| code == "duplicate-id"),
        "{:?}",
        findings(&doc)
    );
}

/// Proposals as files, and one kept in a folder of its own with its pictures
/// (nginx-gateway-fabric's `docs/proposals/control-data-plane-split/`), beside a folder of
/// images and a folder of several documents, each with a README.
#[test]
fn a_readme_alone_in_a_folder_inside_the_record_folder_is_that_proposals_record() {
    let f = crate::fixture::empty_root();
    let files: [(&str, &str); 7] = [
        (
            "docs/proposals/client-settings.md",
            "# Enhancement Proposal-1632: Client Settings Policy\n\n- Status: Implemented\n",
        ),
        (
            "docs/proposals/plane-split/README.md",
            "# Proposal-1508: Separation of control and data plane\n\n- Status: Completed\n",
        ),
        ("docs/proposals/plane-split/graph.png", "\u{89}PNG"),
        (
            "docs/proposals/images/README.md",
            "# Images\n\nThe pictures the proposals show.\n",
        ),
        (
            "docs/proposals/tracing/README.md",
            "# Tracing\n\nThe proposals about tracing.\n",
        ),
        (
            "docs/proposals/tracing/spans.md",
            "# Spans\n\n- Status: Proposed\n",
        ),
        (
            "docs/proposals/README.md",
            "# Proposals\n\nOne file each.\n",
        ),
    ];
    for (rel, text) in files {
        f.write(rel, text.as_bytes());
    }
    let doc = f.run_json(&["check", "--docs", "docs/proposals"]).json();
    assert_eq!(
        record_paths(&doc),
        [
            "docs/proposals/client-settings.md",
            "docs/proposals/plane-split/README.md",
            "docs/proposals/tracing/spans.md",
        ],
        "a folder of pictures, a folder holding other records and the record folder itself \
         have READMEs that are no record"
    );
    let split = record_at(&doc, "docs/proposals/plane-split/README.md");
    assert_eq!(split["id"], "plane-split", "{split:#}");
    assert_eq!(split["status"], "implemented", "{split:#}");
}
