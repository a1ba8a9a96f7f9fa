//! Findings: what a check found, with a stable code and the severity that code always has
//! (docs/reading.md).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Problem,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Problem => "problem",
            Severity::Warning => "warning",
        }
    }
}

/// One finding of a check (docs/reading.md lists the codes).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Finding {
    pub severity: Severity,
    pub code: FindingCode,
    /// The id the finding is about.
    pub record: String,
    /// The file to edit to fix it (the record, the successor, the guide, the source file).
    pub path: String,
    pub message: String,
}

impl Finding {
    /// A finding with `code`'s severity.
    pub fn new(code: FindingCode, record: &str, path: &str, message: String) -> Finding {
        Finding {
            severity: code.severity(),
            code,
            record: record.to_string(),
            path: path.to_string(),
            message,
        }
    }
}

/// Every finding's stable code, as docs/reading.md lists them: the JSON writes it as
/// `superseded-still-current` and so on, and never renames one.
#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FindingCode {
    /// a superseded record still accepted, proposed or without status.
    SupersededStillCurrent,
    /// superseded by an id that doesn't exist.
    SupersededByUnknown,
    /// a current record names a path that is gone, no close sibling.
    GovernedPathGone,
    /// a current record names a path that has moved.
    GovernedPathMoved,
    /// a guide or README outside the record folders cites a superseded record.
    DocCitesSuperseded,
    /// two records share an id.
    DuplicateId,
    /// a supersession cycle.
    SupersessionCycle,
    /// "Superseded by X", but X doesn't say it supersedes this.
    SuccessorNotReciprocal,
    /// superseded, no successor named.
    SupersededWithoutSuccessor,
    /// supersedes an id that doesn't exist.
    SupersedesUnknown,
    /// a reference to an id that doesn't exist.
    UnknownReference,
    /// no status.
    StatusMissing,
    /// a status word it doesn't know.
    StatusUnrecognised,
    /// a current record cites one since superseded.
    CitesSuperseded,
    /// two current records govern the same path, neither supersedes nor amends the other.
    OverlappingGovernance,
    /// a source marker names a record that doesn't exist.
    DanglingMarker,
    /// a current record names a path this repository has never had.
    GovernedPathUnknown,
    /// a source marker names a superseded, deprecated or rejected record.
    StaleMarker,
    /// a link to a record file that doesn't exist in a record folder.
    LinkToMissingRecord,
}

impl FindingCode {
    /// Every code, in the order docs/reading.md lists them.
    pub const ALL: [FindingCode; 19] = [
        FindingCode::SupersededStillCurrent,
        FindingCode::SupersededByUnknown,
        FindingCode::GovernedPathGone,
        FindingCode::GovernedPathMoved,
        FindingCode::DocCitesSuperseded,
        FindingCode::DuplicateId,
        FindingCode::SupersessionCycle,
        FindingCode::SuccessorNotReciprocal,
        FindingCode::SupersededWithoutSuccessor,
        FindingCode::SupersedesUnknown,
        FindingCode::UnknownReference,
        FindingCode::StatusMissing,
        FindingCode::StatusUnrecognised,
        FindingCode::CitesSuperseded,
        FindingCode::OverlappingGovernance,
        FindingCode::DanglingMarker,
        FindingCode::GovernedPathUnknown,
        FindingCode::StaleMarker,
        FindingCode::LinkToMissingRecord,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::SupersededStillCurrent => "superseded-still-current",
            FindingCode::SupersededByUnknown => "superseded-by-unknown",
            FindingCode::GovernedPathGone => "governed-path-gone",
            FindingCode::GovernedPathMoved => "governed-path-moved",
            FindingCode::DocCitesSuperseded => "doc-cites-superseded",
            FindingCode::DuplicateId => "duplicate-id",
            FindingCode::SupersessionCycle => "supersession-cycle",
            FindingCode::SuccessorNotReciprocal => "successor-not-reciprocal",
            FindingCode::SupersededWithoutSuccessor => "superseded-without-successor",
            FindingCode::SupersedesUnknown => "supersedes-unknown",
            FindingCode::UnknownReference => "unknown-reference",
            FindingCode::StatusMissing => "status-missing",
            FindingCode::StatusUnrecognised => "status-unrecognised",
            FindingCode::CitesSuperseded => "cites-superseded",
            FindingCode::OverlappingGovernance => "overlapping-governance",
            FindingCode::DanglingMarker => "dangling-marker",
            FindingCode::GovernedPathUnknown => "governed-path-unknown",
            FindingCode::StaleMarker => "stale-marker",
            FindingCode::LinkToMissingRecord => "link-to-missing-record",
        }
    }

    /// The severity docs/reading.md gives this code.
    pub fn severity(self) -> Severity {
        match self {
            FindingCode::SupersededStillCurrent => Severity::Problem,
            FindingCode::SupersededByUnknown => Severity::Problem,
            FindingCode::GovernedPathGone => Severity::Problem,
            FindingCode::GovernedPathMoved => Severity::Warning,
            FindingCode::DocCitesSuperseded => Severity::Warning,
            FindingCode::DuplicateId => Severity::Problem,
            FindingCode::SupersessionCycle => Severity::Problem,
            FindingCode::SuccessorNotReciprocal => Severity::Warning,
            FindingCode::SupersededWithoutSuccessor => Severity::Warning,
            FindingCode::SupersedesUnknown => Severity::Warning,
            FindingCode::UnknownReference => Severity::Warning,
            FindingCode::StatusMissing => Severity::Warning,
            FindingCode::StatusUnrecognised => Severity::Warning,
            FindingCode::CitesSuperseded => Severity::Warning,
            FindingCode::OverlappingGovernance => Severity::Warning,
            FindingCode::DanglingMarker => Severity::Warning,
            FindingCode::GovernedPathUnknown => Severity::Warning,
            FindingCode::StaleMarker => Severity::Warning,
            FindingCode::LinkToMissingRecord => Severity::Warning,
        }
    }
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A link from a record to a record file that isn't there (docs/reading.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingRecordLink {
    /// The linking record's id and file.
    pub id: String,
    pub path: String,
    /// The link's target, root-relative.
    pub target: String,
    /// The existing record file with the closest name.
    pub closest: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_docs_reading_spells_them() {
        for code in FindingCode::ALL {
            let json = serde_json::to_string(&code).expect("a code serialises");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            let back: FindingCode = serde_json::from_str(&json).expect("and reads back");
            assert_eq!(back, code);
        }
    }
}
