//! What the git hooks and `review` return (docs/hooks.md, ADR-0008): the decisions a commit in
//! the making or a range of commits touches, whether they are cited, and what `install-hooks` and
//! `uninstall-hooks` did to each hook file. Data only: `output::hooks` renders it.

use super::record::Commit;
use schemars::JsonSchema;
use serde::Serialize;

/// A current decision whose governed paths a commit (or a range of commits) touches.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Governing {
    pub id: String,
    pub title: String,
    /// The record's file, relative to the root.
    #[serde(skip)]
    pub record: String,
    /// The touched paths it governs, relative to the root, sorted.
    pub paths: Vec<String>,
    /// Whether the message (a commit's), or some commit of the range (`review`), cites it.
    #[serde(skip)]
    pub cited: bool,
}

/// Why a commit hook left a commit alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// A merge is being concluded (`MERGE_HEAD`), or git says this message is a merge's or a
    /// squash's.
    Merge,
    /// A commit made by a rebase, cherry-pick or revert (their state in the git dir).
    Sequence,
    /// Git opens no editor for this message (`-m`, `-F`, `--no-edit`): no hint to add.
    NoEditor,
    /// The message already cites a decision it would name.
    AlreadyCited,
}

/// What a commit hook found: the staged paths and the current decisions governing them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StagedCheck {
    /// How many paths the staged changes touch.
    pub staged: usize,
    /// The current decisions governing staged paths, by id.
    pub decisions: Vec<Governing>,
    /// Set when the hook had nothing to do for this commit.
    pub skipped: Option<Skipped>,
    /// `git config context-graph.strict true`: an uncited commit is refused.
    pub strict: bool,
    /// What starts a comment line in this repository's commit messages (`#` unless configured).
    pub comment: String,
    /// Decisions whose staged paths a reader would not want warned about, and why: taken out
    /// of `decisions` (docs/hooks.md).
    pub quiet: Vec<(String, Quiet)>,
    /// For each decision quiet as [`Quiet::EchoedElsewhere`], the record file whose words the
    /// change shares most.
    pub like: Vec<(String, String)>,
    /// Uncited decisions an earlier commit of the branch already named (cited or was warned
    /// about), with that commit's short sha: one short line each, not the full warning.
    pub repeats: Vec<(String, String)>,
    /// The rules' violations the staged change adds (docs/rules.md): warned about whatever
    /// the message cites; strict mode refuses the commit.
    pub rules_added: Vec<AddedViolation>,
}

/// A place where a change breaks a current record's rule more than its base did (or, in
/// `review`'s `rules_removed`, where the base broke it more than the change does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AddedViolation {
    pub record: String,
    /// The rule as written.
    pub rule: String,
    pub path: String,
    pub line: u32,
    pub target: Option<String>,
    /// How many violations of the rule the file had before.
    pub was: usize,
}

impl StagedCheck {
    /// The decisions governing staged paths that the message does not cite: what the warning
    /// names. Citing one of them no longer silences the others (ADR-0008, amended 2026-12-06):
    /// a reader judged both such warnings on adrkit relevant.
    pub fn uncited(&self) -> Vec<&Governing> {
        if self.skipped.is_some() {
            return Vec::new();
        }
        self.decisions.iter().filter(|d| !d.cited).collect()
    }

    /// [`StagedCheck::uncited`] less the decisions the branch named before ([`StagedCheck::repeats`]):
    /// what the full warning names.
    pub fn warned(&self) -> Vec<&Governing> {
        let mut out = self.uncited();
        out.retain(|d| !self.repeats.iter().any(|(id, _)| *id == d.id));
        out
    }

    /// Strict mode refuses this commit: `context-graph.strict` is set and a full warning
    /// remains ([`StagedCheck::warned`]): a repeat of the branch is not refused again.
    pub fn refused(&self) -> bool {
        self.strict && (!self.warned().is_empty() || !self.rules_added.is_empty())
    }
}

/// Why a commit touching paths a decision governs is not warned about (docs/hooks.md): one rule
/// each, each turned off by its `[hooks]` key in `.context-graph.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Quiet {
    /// Its author is a bot (`[bot]`, a name ending `-bot` or the word `bot`) (`skip_bots`).
    Bot,
    /// A release or version bump, by its subject (`skip_releases`).
    Release,
    /// Every changed line only changes version strings (`skip_releases`).
    VersionOnly,
    /// The decision's paths it touches are lock files, generated or vendored (`skip_generated`).
    Generated,
    /// The decision's paths it touches change only in whitespace (`skip_whitespace`).
    Whitespace,
    /// The decision's paths it touches are documentation pages it reaches only through a
    /// folder (`skip_doc_pages`).
    DocPages,
    /// The decision's paths it touches change only in whole comment lines (`skip_whitespace`).
    Comments,
    /// The decision's paths it touches are files many decisions govern, edited
    /// (`skip_shared_files`).
    SharedFiles,
    /// The decision's paths it touches are governed by a record the commit adds: it
    /// writes the decision it follows for them (`record_edit_covers`).
    OwnRecord,
    /// The record did not exist at that commit (`review` only).
    RecordMissing,
    /// The record was not current at that commit (`review` only).
    RecordNotCurrent,
    /// The lines it changes in the decision's paths, and its message, share next to nothing
    /// with the record's words (`skip_unechoed`).
    Unechoed,
    /// They share far more with another record's words than with this record's
    /// (`skip_unechoed`).
    EchoedElsewhere,
    /// The decision's paths it touches are files it reaches only through entries governing
    /// more than a thousand files (`skip_broad_folders`).
    BroadFolder,
    /// The decision is about where files live, and the commit makes no folder and empties none
    /// (`skip_layout_edits`).
    LayoutKept,
    /// The decision is about where files live, and each folder the commit makes is shaped as
    /// one beside it, the commit emptying none (`skip_layout_edits`).
    LayoutRepeated,
    /// The decision's paths it touches are files it adds, each beside files of its kind that
    /// its folder held before (`skip_added_alike`).
    AddedAlike,
    /// The decision's paths it touches are settings files, and no key it changes there is
    /// written in the record (`skip_other_settings`).
    OtherSettings,
    /// Every line it changes in the decision's paths swaps a word or two, none of them written
    /// in the record (`skip_renames`).
    Renamed,
}

impl Quiet {
    /// A reason the commit hook still says in one line (docs/hooks.md), so that the decision
    /// counts as named on the branch: files many decisions govern, files a record the commit
    /// adds governs, a change that shares next to nothing with the record or reads far more
    /// like another, files reached only through a folder of over 1,000 files, a decision about
    /// where files live and a commit that makes or empties no folder, or makes only folders
    /// shaped as one beside each, or files added beside others of their kind, or settings the
    /// record never names, or words swapped that it never writes.
    pub fn is_brief(self) -> bool {
        matches!(
            self,
            Quiet::SharedFiles
                | Quiet::OwnRecord
                | Quiet::Unechoed
                | Quiet::EchoedElsewhere
                | Quiet::BroadFolder
                | Quiet::LayoutKept
                | Quiet::LayoutRepeated
                | Quiet::AddedAlike
                | Quiet::OtherSettings
                | Quiet::Renamed
        )
    }

    /// What the reason says, for a reader.
    pub fn says(self) -> &'static str {
        match self {
            Quiet::Bot => "made by a bot",
            Quiet::Release => "a release or version bump",
            Quiet::VersionOnly => "only version strings change",
            Quiet::Generated => "only lock, generated or vendored files of it change",
            Quiet::Whitespace => "only whitespace of its files changes",
            Quiet::Comments => "only comments of its files change",
            Quiet::DocPages => "only documentation pages in its folders change",
            Quiet::SharedFiles => "only files that many decisions govern change",
            Quiet::OwnRecord => "a record the commit adds governs its files",
            Quiet::RecordMissing => "the record did not exist yet",
            Quiet::RecordNotCurrent => "the record was not current then",
            Quiet::Unechoed => "the change shares next to nothing with the record",
            Quiet::EchoedElsewhere => "the change reads far more like another record",
            Quiet::BroadFolder => "its files lie in a folder of over 1,000 files it governs whole",
            Quiet::LayoutKept => "it decides where files live, and no folder is made or emptied",
            Quiet::LayoutRepeated => {
                "it decides where files live, and each folder made is shaped as one beside it"
            }
            Quiet::AddedAlike => "it only adds files beside others of their kind",
            Quiet::OtherSettings => "it changes only settings the record never names",
            Quiet::Renamed => "it only swaps a word or two a line, none the record writes",
        }
    }
}

/// Which of the rules that keep a commit quiet apply (`[hooks]` in `.context-graph.toml`, each
/// on unless set to false; docs/configuration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuietRules {
    pub skip_bots: bool,
    pub skip_releases: bool,
    pub skip_generated: bool,
    pub skip_whitespace: bool,
    /// Documentation pages a decision reaches only through a folder don't count.
    pub skip_doc_pages: bool,
    /// An edit to a file three or more decisions govern doesn't count.
    pub skip_shared_files: bool,
    /// A commit that adds or edits a record's file cites that record.
    pub record_edit_cites: bool,
    /// A file that a record the commit adds governs doesn't count for other decisions.
    pub record_edit_covers: bool,
    /// A decision is warned about once per branch; later commits get a short line.
    pub once_per_branch: bool,
    /// A change sharing next to nothing with the record's words gets a short line.
    pub skip_unechoed: bool,
    /// Files reached only through an entry of more than a thousand files get a short line.
    pub skip_broad_folders: bool,
    /// A decision about where files live gets a short line for a commit that makes or empties
    /// no folder, or makes only folders shaped as one beside each.
    pub skip_layout_edits: bool,
    /// A commit that only adds files beside others of their kind gets a short line.
    pub skip_added_alike: bool,
    /// A change to settings files whose keys the record never names gets a short line.
    pub skip_other_settings: bool,
    /// A change that only swaps a word or two a line, none the record writes, gets a short line.
    pub skip_renames: bool,
}

impl Default for QuietRules {
    fn default() -> Self {
        QuietRules {
            skip_bots: true,
            skip_releases: true,
            skip_generated: true,
            skip_whitespace: true,
            skip_doc_pages: true,
            skip_shared_files: true,
            record_edit_cites: true,
            record_edit_covers: true,
            once_per_branch: true,
            skip_unechoed: true,
            skip_broad_folders: true,
            skip_layout_edits: true,
            skip_added_alike: true,
            skip_other_settings: true,
            skip_renames: true,
        }
    }
}

/// What was done to one hook file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HookAction {
    /// There was no such hook: written whole.
    Created,
    /// A shell hook of someone else's: our part added after its `#!` line; it still runs after.
    Added,
    /// A hook in another language: kept beside it (`NAME.before-context-graph`) and run by a
    /// small shell hook holding our part.
    Chained,
    /// Our part was there, from another binary or an older script: replaced.
    Updated,
    /// Our part was there as it would be written: nothing changed.
    Unchanged,
    /// A file that is not executable (git skips it): left alone, nothing installed.
    SkippedNotExecutable,
    /// Our part removed; the rest of the hook kept.
    Removed,
    /// Our part removed, and nothing else was left: the file deleted.
    Deleted,
    /// Our part removed, and the hook it chained put back in its place.
    Restored,
    /// No part of ours in this hook: nothing to remove.
    NotInstalled,
}

/// One hook file and what was done to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct HookFile {
    pub hook: String,
    pub path: String,
    pub action: HookAction,
}

/// A hooks manager that generates the hook files itself: writing into them would be undone (or
/// would undo it), so `install-hooks` says how to add context-graph there instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Manager {
    /// `husky` or `lefthook`.
    pub name: String,
    /// What gave it away: `core.hooksPath = .husky/_`, `lefthook.yml`.
    pub evidence: String,
}

/// What `install-hooks` or `uninstall-hooks` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct HooksReport {
    /// The hooks folder git uses (`git rev-parse --git-path hooks`).
    pub hooks_dir: String,
    /// `core.hooksPath` as configured, when it is.
    pub hooks_path: Option<String>,
    pub files: Vec<HookFile>,
    /// Set when a hooks manager owns the hooks folder: then nothing was written.
    pub managed_by: Option<Manager>,
}

/// `review`'s query: the decisions a range of commits touches (docs/hooks.md).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ReviewQuery {
    /// The range as asked (`BASE..HEAD`), or as found (the upstream of the branch).
    pub review: String,
    /// Full sha of the range's base.
    pub base: String,
    /// Full sha of the range's head.
    pub head: String,
    /// How many commits the range holds (merges included).
    pub commits: usize,
    pub decisions: Vec<ReviewDecision>,
    /// The ids of `decisions` no commit of the range cites.
    pub uncited: Vec<String>,
    /// The commits that touched a decision's paths but were not counted for it, and why
    /// (docs/hooks.md); one entry per commit and decision.
    pub quiet: Vec<QuietCommit>,
    /// When the head asked for was GitHub's synthetic merge of a pull request
    /// (`refs/pull/N/merge`): the pull request's own head was reviewed instead (`head`), and
    /// this names the merge set aside. `null` otherwise.
    pub pull_request: Option<PullRequestMerge>,
    /// The rules' violations the range adds (at the head) and removes (at the base), in the
    /// files it changes (docs/rules.md).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules_added: Vec<AddedViolation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules_removed: Vec<AddedViolation>,
}

/// GitHub's synthetic merge of a pull request into its base, set aside by `review`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct PullRequestMerge {
    /// The ref that names it: `refs/pull/N/merge` or `refs/remotes/pull/N/merge`.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Its full sha.
    pub merge: String,
}

/// A current decision whose governed paths the range's non-merge commits touch.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct ReviewDecision {
    pub id: String,
    pub title: String,
    /// The files of the records with this id whose governed paths the range touched: one,
    /// unless two records share the id (zebra's two ADR-0005s), then each (the title is the
    /// first's).
    pub records: Vec<String>,
    /// The touched paths it governs, sorted.
    pub paths: Vec<String>,
    /// The commits touching them, newest first, each with `cites_record`.
    pub commits: Vec<Commit>,
    /// Whether any commit of the range (merges included) mentions its id, or adds or edits its
    /// record.
    pub cited: bool,
    /// The commits of `commits` that repeat it on their branch: an earlier commit of the same
    /// branch already cited it or touched it (docs/hooks.md).
    pub repeats: Vec<Repeat>,
}

/// A commit of `review` that touched a decision its branch had named before.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Repeat {
    /// The repeating commit's short sha.
    pub sha: String,
    /// The branch's first commit that named the decision, short sha.
    pub first: String,
}

/// A commit `review` did not count for a decision, and why.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct QuietCommit {
    pub sha: String,
    pub author: String,
    pub subject: String,
    /// The decision whose governed paths it touched.
    pub decision: String,
    pub reason: Quiet,
    /// For `echoed-elsewhere`: the record file whose words the change shares most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub like: Option<String>,
}
