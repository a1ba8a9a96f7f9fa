//! One test per check of the reference (docs/reading.md codes, all but `dangling-marker`), each
//! on its own fixture under `fixtures/checks/<code>/` that also holds the near misses that must
//! not be reported. Each asserts code, severity, record and path of every finding.
//!
//! A file per family of checks, as in `src/checks/` (`supersession`, `paths`, `references`, `ids`,
//! `status`), and `findings` for what holds of every finding.

mod findings;
mod ids;
mod paths;
mod references;
mod status;
mod supersession;

use crate::fixture::*;

/// Asserts the fixture's findings are exactly `want` (code, severity, record, path).
fn assert_findings(corpus: &str, want: &[(&str, &str, &str, &str)]) {
    let j = json(corpus);
    assert_eq!(finding_rows(&j), rows(want), "findings of {corpus}");
}

fn assert_none(corpus: &str, code: &str, record: &str) {
    let j = json(corpus);
    assert!(
        !has_finding(&j, code, record),
        "{corpus}: unexpected {code} about {record}: {:#}",
        j["findings"]
    );
}
