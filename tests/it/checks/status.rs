//! Status: missing, or a word the reference does not know.

use super::{assert_findings, assert_none};
use crate::fixture::*;

#[test]
fn status_missing() {
    let c = "checks/status-missing";
    assert_findings(
        c,
        &[
            (
                "status-missing",
                "warning",
                "ADR-0001",
                "docs/adr/0001-no-status.md",
            ),
            (
                "status-missing",
                "warning",
                "ADR-0002",
                "docs/adr/0002-status-only-in-a-fence.md",
            ),
        ],
    );
    assert_corpus(c);
}

#[test]
fn status_unrecognised() {
    let c = "checks/status-unrecognised";
    assert_findings(
        c,
        &[(
            "status-unrecognised",
            "warning",
            "ADR-0001",
            "docs/adr/0001-pondering.md",
        )],
    );
    assert_corpus(c);
    assert_none(c, "status-missing", "ADR-0001");
}
