//! Governed paths: gone, moved, and two current records governing the same path.

use super::{assert_findings, assert_none};
use crate::fixture::*;

#[test]
fn governed_path_gone() {
    let c = "checks/governed-path-gone";
    assert_findings(
        c,
        &[
            (
                "governed-path-gone",
                "problem",
                "ADR-0001",
                "docs/adr/0001-current-record-path-gone.md",
            ),
            (
                "governed-path-gone",
                "problem",
                "ADR-0005",
                "docs/adr/0005-implemented-record-path-gone.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn governed_path_gone_not_for_records_that_are_not_current_or_paths_not_in_the_repo() {
    let c = "checks/governed-path-gone";
    assert_none(c, "governed-path-gone", "ADR-0002");
    assert_none(c, "governed-path-gone", "ADR-0003");
    assert_none(c, "governed-path-gone", "ADR-0004");
}

#[test]
fn governed_path_moved() {
    let c = "checks/governed-path-moved";
    assert_findings(
        c,
        &[
            (
                "governed-path-moved",
                "warning",
                "ADR-0001",
                "docs/adr/0001-ledger-sync.md",
            ),
            (
                "governed-path-moved",
                "warning",
                "ADR-0002",
                "docs/adr/0002-a-typo.md",
            ),
            (
                "governed-path-moved",
                "warning",
                "ADR-0003",
                "docs/adr/0003-case-differs.md",
            ),
            // Moved one folder down under the same name, beside a close-named sibling.
            (
                "governed-path-moved",
                "warning",
                "ADR-0005",
                "docs/adr/0005-moved-into-a-subfolder.md",
            ),
            // A file gone beside a folder whose name its own holds (`ledger_wire.proto`,
            // `ledger/`): no file became that folder.
            (
                "governed-path-gone",
                "problem",
                "ADR-0006",
                "docs/adr/0006-a-file-deleted-beside-a-folder.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn governed_path_moved_is_not_also_gone_and_not_for_deprecated_records() {
    let c = "checks/governed-path-moved";
    for id in ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"] {
        assert_none(c, "governed-path-gone", id);
    }
    assert_none(c, "governed-path-moved", "ADR-0004");
}

#[test]
fn overlapping_governance() {
    let c = "checks/overlapping-governance";
    assert_findings(
        c,
        &[
            (
                "overlapping-governance",
                "warning",
                "ADR-0002",
                "docs/adr/0002-another-auth-owner.md",
            ),
            (
                "overlapping-governance",
                "warning",
                "ADR-0008",
                "docs/adr/0008-api-accepted.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn overlapping_governance_not_for_nested_paths_amendments_or_proposals() {
    let c = "checks/overlapping-governance";
    for id in [
        "ADR-0001", "ADR-0003", "ADR-0004", "ADR-0005", "ADR-0006", "ADR-0007",
    ] {
        assert_none(c, "overlapping-governance", id);
    }
    // adr-tools: ADR-0004 amends ADR-0003 and both name services/catalog/db.py.
    assert_none("adr-tools", "overlapping-governance", "ADR-0004");
}
