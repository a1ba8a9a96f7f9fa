//! Supersession: a superseded record still current, an unknown successor, cycles, successors on
//! one side only, superseded without a successor, superseding an unknown record.

use super::{assert_findings, assert_none};
use crate::fixture::*;

#[test]
fn superseded_still_current() {
    let c = "checks/superseded-still-current";
    assert_findings(
        c,
        &[
            (
                "superseded-still-current",
                "problem",
                "ADR-0001",
                "docs/adr/0001-accepted-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0003",
                "docs/adr/0003-no-status-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0005",
                "docs/adr/0005-proposed-with-a-successor.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0009",
                "docs/adr/0009-implemented-but-superseded.md",
            ),
            (
                "superseded-still-current",
                "problem",
                "ADR-0015",
                "docs/adr/0015-accepted-names-its-own-successor.md",
            ),
            (
                "status-missing",
                "warning",
                "ADR-0003",
                "docs/adr/0003-no-status-but-superseded.md",
            ),
            (
                "successor-not-reciprocal",
                "warning",
                "ADR-0015",
                "docs/adr/0016-silent-successor.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn superseded_still_current_not_for_deprecated_rejected_or_superseded_records() {
    let c = "checks/superseded-still-current";
    for id in ["ADR-0007", "ADR-0011", "ADR-0013"] {
        assert_none(c, "superseded-still-current", id);
    }
    // The successors themselves are current and fine.
    for id in ["ADR-0002", "ADR-0004", "ADR-0006", "ADR-0010", "ADR-0014"] {
        assert_none(c, "superseded-still-current", id);
    }
}

#[test]
fn superseded_by_unknown() {
    let c = "checks/superseded-by-unknown";
    assert_findings(
        c,
        &[(
            "superseded-by-unknown",
            "problem",
            "ADR-0001",
            "docs/adr/0001-points-at-a-missing-record.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn superseded_by_unknown_is_not_also_an_unknown_reference() {
    let c = "checks/superseded-by-unknown";
    assert_none(c, "unknown-reference", "ADR-0001");
    assert_none(c, "unknown-reference", "ADR-0099");
    assert_none(c, "superseded-without-successor", "ADR-0001");
}

#[test]
fn supersession_cycle() {
    let c = "checks/supersession-cycle";
    assert_findings(
        c,
        &[
            (
                "supersession-cycle",
                "problem",
                "ADR-0001",
                "docs/adr/0001-two-cycle-a.md",
            ),
            (
                "supersession-cycle",
                "problem",
                "ADR-0003",
                "docs/adr/0003-three-cycle-a.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn supersession_chain_is_not_a_cycle() {
    for id in ["ADR-0006", "ADR-0007", "ADR-0008"] {
        assert_none("checks/supersession-cycle", "supersession-cycle", id);
    }
}

#[test]
fn successor_not_reciprocal() {
    let c = "checks/successor-not-reciprocal";
    assert_findings(
        c,
        &[(
            "successor-not-reciprocal",
            "warning",
            "ADR-0001",
            "docs/adr/0002-the-silent-successor.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn successor_not_reciprocal_not_when_the_successor_says_supersedes() {
    assert_none(
        "checks/successor-not-reciprocal",
        "successor-not-reciprocal",
        "ADR-0003",
    );
}

#[test]
fn superseded_without_successor() {
    let c = "checks/superseded-without-successor";
    assert_findings(
        c,
        &[(
            "superseded-without-successor",
            "warning",
            "ADR-0001",
            "docs/adr/0001-superseded-by-nothing.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn superseded_without_successor_not_when_another_record_claims_it() {
    assert_none(
        "checks/superseded-without-successor",
        "superseded-without-successor",
        "ADR-0002",
    );
}

#[test]
fn supersedes_unknown() {
    let c = "checks/supersedes-unknown";
    assert_findings(
        c,
        &[(
            "supersedes-unknown",
            "warning",
            "ADR-0001",
            "docs/adr/0001-supersedes-a-missing-record.md",
        )],
    );
    assert_corpus(c);
}

#[test]
fn supersedes_unknown_is_not_also_an_unknown_reference() {
    let c = "checks/supersedes-unknown";
    assert_none(c, "unknown-reference", "ADR-0001");
    assert_none(c, "unknown-reference", "ADR-0042");
    assert_none(c, "supersedes-unknown", "ADR-0002");
}
