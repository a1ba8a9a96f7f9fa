//! Ids: two records sharing one.

use super::{assert_findings, assert_none};
use crate::fixture::*;

#[test]
fn duplicate_id() {
    let c = "checks/duplicate-id";
    assert_findings(
        c,
        &[
            (
                "duplicate-id",
                "problem",
                "ADR-0002",
                "docs/adr/0002-use-b.md",
            ),
            (
                "duplicate-id",
                "problem",
                "ADR-0003",
                "docs/adr/three-again.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn duplicate_id_keeps_both_records() {
    let j = json("checks/duplicate-id");
    let twos = records(&j).iter().filter(|r| r["id"] == "ADR-0002").count();
    assert_eq!(twos, 2, "{:?}", ids(&j));
    assert_none("checks/duplicate-id", "duplicate-id", "ADR-0001");
}
