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
#[derive(Debug, Clone, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Finding {
    pub severity: Severity,
    pub code: FindingCode,
    /// The id the finding is about.
    pub record: String,
    /// The file to edit to fix it (the record, the successor, the guide, the source file).
    pub path: String,
    pub message: String,
    /// The line in `path` it is at, when it is at one (a rule's findings: docs/rules.md).
    // Read by the schema (not required); the written form is `Serialize` below.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The rule line as written, for a rule's finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What a broken import rule's import resolved to (a path or `pkg:NAME`), or the
    /// dependency a manifest declares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// Written as the reference has it, `line`, `rule` and `target` only when there are any (so a
/// finding of another check reads as it always did); the index's binary encoding writes every
/// field, as it reads them back in order.
impl Serialize for Finding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let all = !s.is_human_readable();
        let mut st = s.serialize_struct("Finding", 8)?;
        st.serialize_field("severity", &self.severity)?;
        st.serialize_field("code", &self.code)?;
        st.serialize_field("record", &self.record)?;
        st.serialize_field("path", &self.path)?;
        st.serialize_field("message", &self.message)?;
        if all || self.line.is_some() {
            st.serialize_field("line", &self.line)?;
        }
        if all || self.rule.is_some() {
            st.serialize_field("rule", &self.rule)?;
        }
        if all || self.target.is_some() {
            st.serialize_field("target", &self.target)?;
        }
        st.end()
    }
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
            line: None,
            rule: None,
            target: None,
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
    /// a current record's rule is broken at a line of the code (docs/rules.md).
    RuleViolated,
    /// a line of a record's `context-graph` block that is not a rule.
    RuleInvalid,
    /// a current record's `except` that allows nothing today.
    StaleException,
    /// a current record supersedes one with rules and has no `context-graph` block.
    RulesDropped,
}

impl FindingCode {
    /// Every code, in the order docs/reading.md lists them.
    pub const ALL: [FindingCode; 23] = [
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
        FindingCode::RuleViolated,
        FindingCode::RuleInvalid,
        FindingCode::StaleException,
        FindingCode::RulesDropped,
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
            FindingCode::RuleViolated => "rule-violated",
            FindingCode::RuleInvalid => "rule-invalid",
            FindingCode::StaleException => "stale-exception",
            FindingCode::RulesDropped => "rules-dropped",
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
            FindingCode::RuleViolated => Severity::Problem,
            FindingCode::RuleInvalid => Severity::Problem,
            FindingCode::StaleException => Severity::Warning,
            FindingCode::RulesDropped => Severity::Warning,
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

/// The fix for a missing path that is code: the decision died, or the code went elsewhere.
pub const CODE_FIX: &str = "deprecate the record if the decision died, or find where the code went";
/// The fix for a missing path that is a document the record points at: a link to correct.
pub const DOCUMENT_FIX: &str = "correct the path or link, or drop it if the page is gone";

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
