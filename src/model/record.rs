//! A decision record as the report holds it: its fields, its normalised status, its commits and
//! drift, its code mentions, and what a query picks records by (ADR-0003). The answers' types
//! (`why.rs`, `context.rs`, `coverage.rs`, `hooks.rs`) build on these; `report.rs` only gathers
//! them (ADR-0007).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One decision record, every field decided (see `parse/` for how each is read).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Record {
    pub id: String,
    pub title: String,
    pub status: Status,
    /// The status as written (`""` when the record has none).
    pub status_text: String,
    pub date: Option<String>,
    /// Relative to the root, `/`-separated.
    pub path: String,
    pub supersedes: Vec<String>,
    pub superseded_by: Vec<String>,
    pub amends: Vec<String>,
    pub cites: Vec<String>,
    pub cited_by: Vec<String>,
    pub governs: Vec<String>,
    pub missing_paths: Vec<String>,
    pub commits: Vec<Commit>,
    pub drift: Option<Drift>,
    pub successors: Vec<String>,
    pub successors_only_claimed_by_successor: Vec<String>,
    pub moved: BTreeMap<String, Vec<String>>,
    /// Records this one says in its frontmatter it relates to (`relatesTo`, `related`): an
    /// explicit link between decisions, weaker than supersedes or amends.
    pub relates_to: Vec<String>,
    /// Tracked code its prose names without governing it (docs/mentions.md, ADR-0017).
    pub code_mentions: Vec<CodeMention>,
    /// The records of `cites` it names only as what its decision replaces ("to replace the
    /// queue described in ADR-3"): citations, not reliance, so a superseded one among them is
    /// no `cites-superseded` (docs/reading.md, ADR-0012).
    #[serde(default)]
    pub cites_replaced: Vec<String>,
    /// The frontmatter field that declares its scope (docs/scope.md): `"governs"`, adrkit's
    /// `"affects"`, or `null` when the paths its prose names govern (ADR-0020).
    #[serde(default)]
    pub declared_in: Option<String>,
    /// Paths it links into a forge's view of this repository's code (`…/blob/REF/path`) that
    /// are not there: a link made before the code moved. Where git shows one renamed, it is
    /// `governed-path-moved` naming the new path (docs/reading.md, "Renamed since").
    #[serde(default)]
    pub missing_links: Vec<String>,
    /// Of `missing_paths`, those it names only by a link from the site's root (`/docs/…`): a
    /// documentation site's page when the history never had the path, and then no finding
    /// (docs/reading.md, "A link from the site's root").
    #[serde(default)]
    pub site_links: Vec<String>,
}

/// One code mention of a record: the tracked path (a folder ends with `/`), the term as
/// written, its line, and how sure the match is (0 to 1). Never governs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CodeMention {
    pub path: String,
    pub term: String,
    pub line: u32,
    pub confidence: f64,
}

impl Eq for CodeMention {}

/// A [`CodeMention`] borrowed: from a record, or read in place from a stored memo (the same
/// bytes, issue 41).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct CodeMentionRef<'a> {
    pub path: &'a str,
    pub term: &'a str,
    pub line: u32,
    pub confidence: f64,
}

impl CodeMention {
    /// This mention, borrowed.
    pub fn as_ref(&self) -> CodeMentionRef<'_> {
        CodeMentionRef {
            path: &self.path,
            term: &self.term,
            line: self.line,
            confidence: self.confidence,
        }
    }
}

impl Record {
    /// A record with these fields and every list empty: no edges, no paths, no history.
    pub fn bare(id: &str, title: &str, status: Status, path: &str) -> Record {
        Record {
            id: id.into(),
            title: title.into(),
            status,
            status_text: status.as_str().into(),
            date: None,
            path: path.into(),
            supersedes: Vec::new(),
            superseded_by: Vec::new(),
            amends: Vec::new(),
            cites: Vec::new(),
            cited_by: Vec::new(),
            governs: Vec::new(),
            missing_paths: Vec::new(),
            commits: Vec::new(),
            drift: None,
            successors: Vec::new(),
            successors_only_claimed_by_successor: Vec::new(),
            moved: BTreeMap::new(),
            relates_to: Vec::new(),
            code_mentions: Vec::new(),
            cites_replaced: Vec::new(),
            declared_in: None,
            missing_links: Vec::new(),
            site_links: Vec::new(),
        }
    }
}

/// The normalised status (the reference's table).
#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Proposed,
    Accepted,
    Implemented,
    Rejected,
    Deprecated,
    Superseded,
    Unknown,
    Unrecognised,
}

impl Status {
    /// The reference's status table; the first word decides. "pending" (awaiting a decision) is
    /// proposed; "superceded" (adr-tools' spelling) is superseded.
    pub fn from_text(text: &str) -> Status {
        // "Decision proposed; accepting feedback" (mozilla/experimenter): the word after a
        // leading "decision" decides.
        let mut words = text
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .peekable();
        if words.peek().is_some_and(|w| w == "decision") {
            words.next();
        }
        // "Partially implemented" (external-secrets' design documents): in force, and not all
        // done yet.
        if words
            .peek()
            .is_some_and(|w| w == "partially" || w == "partly")
        {
            words.next();
            return match Status::from_text(&words.collect::<Vec<_>>().join(" ")) {
                Status::Implemented => Status::Accepted,
                other => other,
            };
        }
        let mut word = words.next();
        // "In Review", "Under Review", "Under discussion" (cisagov/manage.get.gov): proposed.
        if matches!(word.as_deref(), Some("in" | "under"))
            && words.peek().is_some_and(|w| {
                matches!(
                    w.as_str(),
                    "review" | "discussion" | "consideration" | "progress"
                )
            })
        {
            word = Some("review".to_string());
        }
        match word.as_deref() {
            // "exploring", "ready" (for release), "released", "recommended" and "discontinued"
            // are the stages of Ember's RFC process.
            // "provisional", "implementable", "prototyping", "deferred" (not yet taken up),
            // "memorandum" (an agreement that ships no API), "experimental" and "standard"
            // (shipped in that release channel) are the stages of Kubernetes' and Gateway API's
            // enhancement proposals.
            Some(
                "proposed" | "draft" | "open" | "review" | "rfc" | "pending" | "exploring"
                | "provisional" | "implementable" | "prototyping" | "deferred" | "speculative",
            ) => Status::Proposed,
            // "Amended by ADR-0016", "Extended by ADR-0016" (eclipse-chariott's record 22): in
            // force, another record adds to it (its link is read as any link to a record).
            Some(
                "accepted" | "approved" | "agreed" | "adopted" | "active" | "ready" | "memorandum"
                | "decided" | "amended" | "extended",
            ) => Status::Accepted,
            Some(
                "implemented" | "done" | "shipped" | "released" | "recommended" | "experimental"
                | "standard" | "completed",
            ) => Status::Implemented,
            Some("rejected" | "declined" | "withdrawn" | "cancelled" | "canceled") => {
                Status::Rejected
            }
            // "Reverted" (a decision undone, home-assistant/architecture) and "Defunct"
            // (crossplane's designs no longer followed) are no longer in force.
            Some(
                "deprecated" | "retired" | "obsolete" | "reverted" | "discontinued" | "defunct",
            ) => Status::Deprecated,
            // "Superceded" is adr-tools' own spelling ("Superceded by [16. …]").
            Some("superseded" | "superceded" | "replaced") => Status::Superseded,
            _ => Status::Unrecognised,
        }
    }

    /// Accepted and implemented count as current.
    pub fn is_current(self) -> bool {
        matches!(self, Status::Accepted | Status::Implemented)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Proposed => "proposed",
            Status::Accepted => "accepted",
            Status::Implemented => "implemented",
            Status::Rejected => "rejected",
            Status::Deprecated => "deprecated",
            Status::Superseded => "superseded",
            Status::Unknown => "unknown",
            Status::Unrecognised => "unrecognised",
        }
    }
}

/// A commit as the JSON shows it, in `commits` and in `drift.commits`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Commit {
    pub sha: String,
    /// Committer date, `YYYY-MM-DD` in UTC.
    pub date: Arc<str>,
    pub author: Arc<str>,
    pub subject: Arc<str>,
    /// Only in `drift.commits`. (Skipped when `None`, so a stored scan, whose records have no
    /// commits yet, never holds one: see `index::ScanMemo`.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cites_record: Option<bool>,
}

/// Commits to a current record's governed paths since it was decided.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Drift {
    pub since: String,
    /// `"record"` or `"first-commit"`.
    pub since_from: String,
    pub count: usize,
    pub not_citing_record: usize,
    pub authors: Vec<AuthorCount>,
    pub last_change: Option<String>,
    pub record_last_edited: Option<String>,
    pub commits: Vec<Commit>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct AuthorCount {
    pub name: String,
    pub commits: usize,
}

/// What a query picks records by: a [`Record`], or a stored head of one (the index's scan
/// memo) whose record is decoded only when picked.
pub trait Pickable {
    fn id(&self) -> &str;
    fn status(&self) -> Status;
    fn governs(&self) -> impl Iterator<Item = &str>;
    /// Its code mentions (docs/mentions.md).
    fn code_mentions(&self) -> impl Iterator<Item = CodeMentionRef<'_>>;
    /// Its title (for related records' title words, docs/related.md).
    fn title(&self) -> &str;
    /// Its file, relative to the root.
    fn path(&self) -> &str;
}

impl Pickable for Record {
    fn id(&self) -> &str {
        &self.id
    }
    fn status(&self) -> Status {
        self.status
    }
    fn governs(&self) -> impl Iterator<Item = &str> {
        self.governs.iter().map(String::as_str)
    }
    fn code_mentions(&self) -> impl Iterator<Item = CodeMentionRef<'_>> {
        self.code_mentions.iter().map(CodeMention::as_ref)
    }
    fn title(&self) -> &str {
        &self.title
    }
    fn path(&self) -> &str {
        &self.path
    }
}

#[cfg(test)]
mod status_tests {
    use super::Status;

    #[test]
    fn a_partial_implementation_is_in_force() {
        assert_eq!(Status::from_text("partially implemented"), Status::Accepted);
        assert_eq!(Status::from_text("Partly done"), Status::Accepted);
        assert_eq!(Status::from_text("partially accepted"), Status::Accepted);
        assert_eq!(Status::from_text("partially"), Status::Unrecognised);
        assert_eq!(Status::from_text("Decision proposed"), Status::Proposed);
        assert_eq!(Status::from_text("Defunct"), Status::Deprecated);
        assert_eq!(
            Status::from_text("Speculative, revision 0.2"),
            Status::Proposed
        );
        assert_eq!(
            Status::from_text("Cancelled. Modern promises …"),
            Status::Rejected
        );
    }
}
