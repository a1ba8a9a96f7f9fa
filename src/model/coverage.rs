//! `coverage [--since DATE | --last N]`: how much of the code that changed current decisions
//! govern (docs/mentions.md, ADR-0017). Field order here is the key order of `query.coverage`.

use super::why::MentionedBy;
use schemars::JsonSchema;
use serde::Serialize;

/// `query.coverage`.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Coverage {
    pub window: CoverageWindow,
    /// The non-merge commits of the window that change a file under the root outside the
    /// record folders.
    pub commits: usize,
    /// Those that change a file a current decision governs.
    pub governed_commits: usize,
    /// `governed_commits / commits`, rounded to four decimals; `null` when `commits` is 0.
    pub share: Option<f64>,
    /// The folders whose ungoverned files the most commits changed, most first (at most
    /// [`MAX_LISTED`]).
    pub ungoverned: Vec<UngovernedFolder>,
    /// The current decisions whose governed code the most commits changed without citing them,
    /// most first (at most [`MAX_LISTED`]).
    pub uncited: Vec<UncitedDecision>,
}

impl Eq for Coverage {}

/// How many folders and decisions `coverage` lists.
pub const MAX_LISTED: usize = 10;

/// Which commits were counted.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct CoverageWindow {
    /// `"default"` (the 12 months before HEAD's commit date), `"since"` or `"last"`.
    pub from: String,
    /// The first day counted (`YYYY-MM-DD`, UTC, from 00:00): as given or worked out; for
    /// `--last`, the day of the oldest commit counted (`null` when none was).
    pub since: Option<String>,
    /// The committer date of HEAD (`null` without commits).
    pub until: Option<String>,
    /// `--last N`: at most N commits were counted, newest first.
    pub last: Option<usize>,
}

/// A folder (at most two levels deep; a file at the top level stands for itself) whose
/// ungoverned files the window's commits changed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct UngovernedFolder {
    /// Root-relative; a folder ends with `/`.
    pub path: String,
    /// The commits that changed an ungoverned file in it.
    pub commits: usize,
    /// The current records whose code mentions name it, a folder above it or a path in it.
    pub mentioned_by: Vec<String>,
    /// Those mentions, one per record: `scope ID --add PATH` makes the record govern it.
    pub mentions: Vec<MentionedBy>,
}

/// A current decision whose governed code changed in the window.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct UncitedDecision {
    pub id: String,
    /// The commits that changed a path it governs, on or after `since`.
    pub commits: usize,
    /// Those whose message does not mention its id.
    pub not_citing: usize,
    /// The first day counted: the window's, or the record's date when later.
    pub since: Option<String>,
}
