//! The facts `hooks::quiet` judges, read from git for the commit hook and `review`
//! (docs/hooks.md, ADR-0008 as amended 2026-12-05): who made a commit, what its changed files
//! held before and after, whether a record existed and was current at a commit (memoised by
//! the record folder's tree), and which commits make one branch. The rules themselves live in
//! `hooks::quiet`.

use crate::git::{RangeCommit, Repo};
use crate::governs::Scope;
use crate::hooks::quiet::{self, Attributes, Change, Decision, Facts};
use crate::hooks::{self};
use crate::model::{Quiet, QuietRules, Record};
use crate::text::ids::Prefix;
use crate::text::marker::Markers;
use folders::StagedFolders;
use std::collections::HashMap;
use std::path::Path;

/// What a changed file held before and after (`None`: absent, or too large to read).
type Held = (Option<Vec<u8>>, Option<Vec<u8>>);

/// A changed file larger than this is judged by its path alone (never whitespace-only).
const MAX_BLOB: u64 = 1 << 20;

/// How many of the branch's commits the commit hook reads, newest first (ADR-0008: never the
/// history unbounded).
pub const BRANCH_CAP: usize = 200;

mod echoes;
mod folders;
mod order;
mod sizes;
pub use echoes::Echoes;
pub use order::{branches, oldest_first};
pub use sizes::Sizes;

/// `hooks::quiet::judge` of a change to a decision's paths, its words compared with those of
/// the record file `record` (`echoes`); for [`Quiet::EchoedElsewhere`], with the record file
/// whose words the change shares most.
fn judged(
    (rules, facts): (&QuietRules, &Facts),
    governed: (&[Change], Decision),
    rest: &mut dyn FnMut() -> bool,
    (echoes, record): (&Echoes, &str),
) -> Option<(Quiet, Option<String>)> {
    let mut like = None;
    let quiet = {
        let mut echo = |text: &[u8]| {
            let (echoed, best) = echoes.echoed(record, text)?;
            like = Some(best);
            Some(echoed)
        };
        quiet::judge(rules, facts, governed, rest, &mut echo)?
    };
    Some((quiet, like.filter(|_| quiet == Quiet::EchoedElsewhere)))
}

/// The rules as `.context-graph.toml` sets them.
pub fn rules_of(config: Option<&crate::fs::config::Config>) -> QuietRules {
    config.map(|c| c.quiet).unwrap_or_default()
}

/// The root's `.gitattributes` (none: nothing marked).
pub fn attributes(root: &Path) -> Attributes {
    crate::fs::read::read_regular(&root.join(".gitattributes"))
        .ok()
        .map(|b| Attributes::parse(&String::from_utf8_lossy(&b)))
        .unwrap_or_default()
}

/// The paths of a decision's touched paths that count less on their own: documentation pages
/// it reaches only through a folder (`hooks::pages`), and files many decisions govern
/// (`hooks::shared`).
#[derive(Debug, Default)]
pub struct Aside<'p> {
    pub pages: Vec<&'p str>,
    pub shared: Vec<&'p str>,
    /// Files a record the commit adds governs, for another decision (`hooks::written`).
    pub written: Vec<&'p str>,
    /// Files it reaches only through entries of over a thousand files (`hooks::broad`).
    pub broad: Vec<&'p str>,
}

impl<'p> Aside<'p> {
    /// What `record`'s decision (whose entries make `scopes`) sets aside of `hit`, the paths
    /// it governs; `shared` lists the files many decisions govern, `written` the files records
    /// the commit writes govern (`hooks::written`); `sizes` counts the files an entry governs.
    pub fn of(
        id: &str,
        scopes: &[Scope],
        hit: &[&'p str],
        markers: &Markers,
        (shared, written): (&[String], &[(String, String)]),
        sizes: &Sizes,
    ) -> Aside<'p> {
        let pick = |keep: &dyn Fn(&str) -> bool| hit.iter().copied().filter(|p| keep(p)).collect();
        Aside {
            pages: pick(&|p| hooks::pages::folder_page(id, scopes, p, markers)),
            shared: pick(&|p| shared.binary_search_by(|s| s.as_str().cmp(p)).is_ok()),
            written: pick(&|p| hooks::written::written_by_other(written, id, p)),
            broad: pick(&|p| {
                hooks::broad::broad_folder(id, scopes, p, markers, &|e| sizes.files_of(e))
            }),
        }
    }
}

/// The change of `path` from what it `held` before to after, as `hooks::quiet` judges it, with
/// what `aside` says of it.
fn change<'c>(path: &'c str, held: &'c Held, aside: &Aside) -> Change<'c> {
    Change {
        path,
        folder_page: aside.pages.contains(&path),
        shared: aside.shared.contains(&path),
        written: aside.written.contains(&path),
        broad: aside.broad.contains(&path),
        old: held.0.as_deref(),
        new: held.1.as_deref(),
    }
}

/// Reads what git holds for the judgement, memoising what commits share.
pub struct Judge<'a> {
    pub repo: &'a Repo,
    /// The records' words, for `skip_unechoed`.
    pub echoes: Echoes,
    /// The files each governed entry matches, for `skip_broad_folders`.
    pub sizes: Sizes<'a>,
    trees: crate::git::TreeReader,
    pub rules: QuietRules,
    pub attributes: Attributes,
    /// (commit, record folder) → that folder's tree id at the commit.
    folders: HashMap<([u8; 20], String), Option<[u8; 20]>>,
    /// (record folder's tree id, record path) → whether the record was quiet there, and why.
    records: HashMap<(Option<[u8; 20]>, String), Option<Quiet>>,
    /// The root and `--docs`, and the record folders they make, found when first asked.
    place: (std::path::PathBuf, Vec<String>),
    record_folders: std::sync::OnceLock<Vec<String>>,
}

impl<'a> Judge<'a> {
    pub fn new(repo: &'a Repo, rules: QuietRules, root: &Path, docs: &[String]) -> Judge<'a> {
        Judge {
            repo,
            trees: repo.tree_reader(),
            rules,
            attributes: attributes(root),
            echoes: Echoes::new(root, docs),
            sizes: Sizes::new(repo),
            folders: HashMap::new(),
            records: HashMap::new(),
            place: (root.to_path_buf(), docs.to_vec()),
            record_folders: std::sync::OnceLock::new(),
        }
    }

    /// The record folders, as discovery finds them (none when it cannot).
    pub fn record_folders(&self) -> &[String] {
        self.record_folders.get_or_init(|| {
            crate::fs::discover::record_folders(&self.place.0, &self.place.1).unwrap_or_default()
        })
    }

    /// What commit `c` writes into record files, each with its path
    /// (`hooks::written::lines_written`): where it may cite a decision its message does not.
    pub fn records_written(&self, c: &RangeCommit) -> Vec<(String, String)> {
        if !self.rules.record_edit_cites || c.changes.iter().all(|p| !maybe_record(p)) {
            return Vec::new();
        }
        let folders = self.record_folders();
        c.changes
            .iter()
            .filter(|p| hooks::written::is_record_file(p, folders))
            .filter_map(|p| {
                let new = self.content(Some(&c.id), p);
                let old = self.content(c.parents.first(), p);
                let text = hooks::written::lines_written(old.as_deref(), new.as_deref());
                (!text.is_empty()).then(|| (p.clone(), text))
            })
            .collect()
    }

    /// What the file at `path` held in `commit`'s tree.
    fn content(&self, commit: Option<&[u8; 20]>, path: &str) -> Option<Vec<u8>> {
        let blob = self.trees.entry_at(*commit?, path)?;
        self.trees.blob(blob, MAX_BLOB)
    }

    /// The changed paths of `c` that a record it adds governs, with that record's id
    /// (`hooks::written`).
    pub fn written(
        &self,
        c: &RangeCommit,
        records: &[Record],
        markers: &Markers,
    ) -> Vec<(String, String)> {
        let parent = c.parents.first();
        let mut added = |p: &str| parent.is_none_or(|id| self.trees.entry_at(*id, p).is_none());
        hooks::written::written_paths(records, &c.changes, &mut added, markers)
    }

    /// Whether the commit `c` of a range is quiet about `record`'s decision, whose governed
    /// paths it changes (`governed`; `aside` what counts less of them), by
    /// `hooks::quiet::judge`; for [`Quiet::EchoedElsewhere`], with the record file whose words
    /// the change shares most.
    pub fn commit(
        &self,
        c: &RangeCommit,
        record: &Record,
        governed: &[&str],
        aside: &Aside,
    ) -> Option<(Quiet, Option<String>)> {
        let facts = Facts {
            author: &c.meta.author,
            email: &c.email,
            message: &c.message,
            attributes: &self.attributes,
        };
        if let Some(q) = quiet::commit_quiet(&self.rules, &facts) {
            return Some((q, None));
        }
        let parent = c.parents.first();
        let read = |p: &str| (self.content(parent, p), self.content(Some(&c.id), p));
        let held: Vec<(&str, Held)> = governed.iter().map(|p| (*p, read(p))).collect();
        let changes: Vec<Change> = held
            .iter()
            .map(|(path, held)| change(path, held, aside))
            .collect();
        let mut rest = || {
            c.changes
                .iter()
                .filter(|p| !governed.contains(&p.as_str()))
                .all(|p| {
                    let held = read(p);
                    quiet::versions_only(
                        &self.rules,
                        &change(p, &held, &Aside::default()),
                        &self.attributes,
                    )
                })
        };
        let decision = Decision {
            title: &record.title,
            folders: &mut || self.folders(c),
            added_alike: &mut |paths| self.added_alike(c, paths),
            writes_any: &mut |names| self.echoes.writes_any(&record.path, names),
        };
        judged(
            (&self.rules, &facts),
            (&changes, decision),
            &mut rest,
            (&self.echoes, &record.path),
        )
    }

    /// Whether `record` did not exist, or was not current, at commit `c` (its file as that
    /// commit's tree has it): the commit is judged against the records as they stood then.
    pub fn record_then(&mut self, c: &RangeCommit, record: &Record) -> Option<Quiet> {
        let folder = record
            .path
            .rsplit_once('/')
            .map(|(f, _)| f)
            .unwrap_or("")
            .to_string();
        let trees = &self.trees;
        let tree = *self
            .folders
            .entry((c.id, folder.clone()))
            .or_insert_with(|| trees.entry_at(c.id, &folder));
        let key = (tree, record.path.clone());
        if let Some(found) = self.records.get(&key) {
            return *found;
        }
        let found = match self.content(Some(&c.id), &record.path) {
            None => Some(Quiet::RecordMissing),
            Some(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let head =
                    crate::parse::parse_head(&record.path, &text, Prefix::for_folder(&folder));
                (!head.status.is_current()).then_some(Quiet::RecordNotCurrent)
            }
        };
        self.records.insert(key, found);
        found
    }
}

/// Whether commit `c` touched one of the paths `record` governs (by its entries, or a marker in
/// `markers`) without being quiet about it, or cites it (in its message, or in `wrote`, what
/// it writes into records: [`Judge::records_written`]): it named the decision on its branch.
/// `records` are all the records, for the files many decisions govern.
pub fn names(
    judge: &Judge,
    (c, wrote): (&RangeCommit, &[(String, String)]),
    (record, records): (&Record, &[Record]),
    markers: &Markers,
) -> bool {
    if hooks::cites(&c.message, &record.id)
        || (judge.rules.record_edit_cites && c.changes.contains(&record.path))
        || hooks::written::written_cites(wrote, &record.path, &record.id)
    {
        return true;
    }
    let scope = Scope::new(&record.governs);
    let hit: Vec<&str> = c
        .changes
        .iter()
        .filter(|p| hooks::governs_path(record, &scope, p, markers))
        .map(String::as_str)
        .collect();
    if hit.is_empty() {
        return false;
    }
    let shared = hooks::shared::shared_paths(&hooks::governing(records, &c.changes, markers));
    let written = judge.written(c, records, markers);
    let aside = Aside::of(
        &record.id,
        &[scope],
        &hit,
        markers,
        (&shared, &written),
        &judge.sizes,
    );
    judge
        .commit(c, record, &hit, &aside)
        .is_none_or(|(q, _)| q.is_brief())
}

/// Whether `path` lies in the folder `folder` (root-relative, no trailing `/`).
fn is_in(path: &str, folder: &str) -> bool {
    path.strip_prefix(folder)
        .is_some_and(|r| r.starts_with('/'))
}

/// The paths of `hit` that count toward a warning: a lock, generated or vendored file, or a
/// path `aside` sets aside, beside governed source is left out (when something is left).
pub fn counted_paths<'p>(judge: &Judge, hit: &[&'p str], aside: &Aside) -> Vec<&'p str> {
    let rules = &judge.rules;
    let left: Vec<&str> = hit
        .iter()
        .copied()
        .filter(|p| !(rules.skip_generated && quiet::is_generated(p, &judge.attributes)))
        .filter(|p| !(rules.skip_doc_pages && aside.pages.contains(p)))
        .filter(|p| !(rules.skip_shared_files && aside.shared.contains(p)))
        .filter(|p| !(rules.record_edit_covers && aside.written.contains(p)))
        .collect();
    if left.is_empty() {
        hit.to_vec()
    } else {
        left
    }
}

/// Who makes the commit in the making: git exports the author to its hooks
/// (`GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`); else the configured user.
fn author(repo: &Repo) -> (String, String) {
    let get = |var: &str, key: &str| {
        std::env::var(var)
            .ok()
            .or_else(|| repo.config_string(key))
            .unwrap_or_default()
    };
    (
        get("GIT_AUTHOR_NAME", "user.name"),
        get("GIT_AUTHOR_EMAIL", "user.email"),
    )
}

/// What the commit hook read of a commit in the making: the records, the staged changes and
/// what the staged files declare.
pub type Staged<'a> = (&'a [Record], &'a [crate::git::StagedPath], &'a Markers);

/// The index the commit is made from, as the commit hook read it.
pub type Index = std::sync::Arc<crate::git::StagedIndex>;

/// The commit hook's part: each decision of `check` judged for the staged changes (with the
/// message, when the hook has one; comment lines left out). A commit adding or editing a
/// record's file cites it; a quiet decision moves to `check.quiet`. With `branch` (commit-msg:
/// HEAD, and whether the commit amends it), an uncited decision an earlier commit of the
/// branch named is a repeat.
pub fn settle_staged(
    session: &super::Session,
    repo: &Repo,
    message: Option<&str>,
    (staged, table, index): (Staged, Option<Vec<u8>>, Option<Index>),
    check: &mut crate::model::StagedCheck,
    branch: Option<([u8; 20], bool)>,
) {
    if check.decisions.is_empty() {
        return;
    }
    let (records, changes, markers) = staged;
    let docs = &session.options().docs;
    let mut judge = Judge::new(repo, rules_of(session.config()), session.root(), docs);
    if let Some(table) = table {
        judge.echoes.use_table(table);
    }
    // The folders' files are counted in the index the commit is made from, read once.
    if let Some(index) = index {
        judge.sizes = Sizes::staged(index);
    }
    let message = message.map(|m| {
        m.lines()
            .filter(|l| !l.starts_with(check.comment.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    });
    let message = message.as_deref();
    let rules = judge.rules;
    let (name, email) = author(judge.repo);
    let facts = Facts {
        author: &name,
        email: &email,
        message: message.unwrap_or(""),
        attributes: &judge.attributes,
    };
    let reader = crate::git::BlobReader::loose_first(judge.repo);
    let read = |id: Option<[u8; 20]>| {
        id.and_then(|id| reader.head(&id, MAX_BLOB as usize, MAX_BLOB))
            .map(|(b, _)| b)
    };
    let mut held: HashMap<String, Held> = HashMap::new();
    let mut content = |c: &crate::git::StagedPath| {
        held.entry(c.path.clone())
            .or_insert_with(|| {
                // A deleted file's blob is the one it had: after, it holds nothing.
                let new = if c.blob == c.old { None } else { read(c.blob) };
                (read(c.old), new)
            })
            .clone()
    };
    // A commit adding or editing a record cites it, and what it writes into records cites too.
    if rules.record_edit_cites {
        let mut wrote = Vec::new();
        if changes.iter().any(|c| maybe_record(&c.path)) {
            let folders = judge.record_folders().to_vec();
            for c in changes.iter() {
                if hooks::written::is_record_file(&c.path, &folders) {
                    let (old, new) = content(c);
                    let text = hooks::written::lines_written(old.as_deref(), new.as_deref());
                    wrote.push((c.path.clone(), text));
                }
            }
        }
        for d in &mut check.decisions {
            d.cited |= changes.iter().any(|c| c.path == d.record)
                || hooks::written::written_cites(&wrote, &d.record, &d.id);
        }
    }
    let shared = hooks::shared::shared_paths(&check.decisions);
    let staged: Vec<String> = changes.iter().map(|c| c.path.clone()).collect();
    // Added: no blob in the base; removed: the blob it had is all it declares.
    let added: Vec<&str> = changes
        .iter()
        .filter(|c| c.old.is_none())
        .map(|c| c.path.as_str())
        .collect();
    let removed: Vec<&str> = changes
        .iter()
        .filter(|c| c.old.is_some() && c.blob == c.old)
        .map(|c| c.path.as_str())
        .collect();
    let is_added = |p: &str| added.contains(&p);
    let written = hooks::written::written_paths(records, &staged, &mut |p| is_added(p), markers);
    let view = StagedFolders {
        sizes: &judge.sizes,
        added: &added,
        removed: &removed,
    };
    let mut kept = Vec::new();
    for d in std::mem::take(&mut check.decisions) {
        let mine: Vec<_> = changes
            .iter()
            .filter(|c| d.paths.contains(&c.path))
            .collect();
        let held_mine: Vec<_> = mine.iter().map(|c| (c.path.as_str(), content(c))).collect();
        let scopes: Vec<Scope> = records
            .iter()
            .filter(|r| r.id == d.id)
            .map(|r| Scope::new(&r.governs))
            .collect();
        let hit: Vec<&str> = d.paths.iter().map(String::as_str).collect();
        let aside = Aside::of(
            &d.id,
            &scopes,
            &hit,
            markers,
            (&shared, &written),
            &judge.sizes,
        );
        let governed: Vec<Change> = held_mine
            .iter()
            .map(|(path, held)| change(path, held, &aside))
            .collect();
        let mut rest = || {
            changes
                .iter()
                .filter(|c| !d.paths.contains(&c.path))
                .all(|c| {
                    let held = content(c);
                    let c = change(&c.path, &held, &Aside::default());
                    quiet::versions_only(&rules, &c, &judge.attributes)
                })
        };
        let decision = Decision {
            title: &d.title,
            folders: &mut || hooks::layout::folders(&added, &removed, &view),
            added_alike: &mut |paths| hooks::layout::added_alike(paths, &is_added, &view),
            writes_any: &mut |names| judge.echoes.writes_any(&d.record, names),
        };
        let quiet = judged(
            (&rules, &facts),
            (&governed, decision),
            &mut rest,
            (&judge.echoes, &d.record),
        );
        match quiet {
            Some((q, like)) if !d.cited => {
                if let Some(like) = like {
                    check.like.push((d.id.clone(), like));
                }
                check.quiet.push((d.id.clone(), q))
            }
            _ => {
                let paths = counted_paths(&judge, &hit, &aside)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                kept.push(crate::model::Governing { paths, ..d })
            }
        }
    }
    check.decisions = kept;
    let Some((head, amends)) = branch.filter(|_| rules.once_per_branch) else {
        return;
    };
    let uncited: Vec<String> = check.uncited().iter().map(|d| d.id.clone()).collect();
    if uncited.is_empty() {
        return;
    }
    let Some(base) = judge.repo.branch_base() else {
        return;
    };
    let Ok(mut branch) = crate::git::walk_branch(judge.repo, base, head, BRANCH_CAP) else {
        return;
    };
    branch
        .commits
        .retain(|c| !(c.meta.is_merge || amends && c.id == head));
    let mut left: Vec<(&str, Vec<&Record>)> = uncited
        .iter()
        .map(|id| {
            let mine = records
                .iter()
                .filter(|r| r.id == *id && r.status.is_current())
                .collect();
            (id.as_str(), mine)
        })
        .collect();
    let mut first: HashMap<&str, usize> = HashMap::new();
    // Oldest first, each commit's files read only while a decision is still to be found: a
    // branch names its decisions in its first commits, mostly.
    for i in oldest_first(&branch.commits) {
        if left.is_empty() {
            break;
        }
        if branch.diff(judge.repo, i).is_err() {
            return;
        }
        let c = &branch.commits[i];
        // Read once per commit, whichever decisions are still to be found.
        let wrote = judge.records_written(c);
        left.retain(|(id, mine)| {
            let named = mine
                .iter()
                .any(|r| names(&judge, (c, &wrote), (r, records), markers));
            if named {
                first.insert(id, i);
            }
            !named
        });
    }
    for id in &uncited {
        if let Some(&i) = first.get(id.as_str()) {
            check
                .repeats
                .push((id.clone(), branch.short(judge.repo, i)));
        }
    }
}

/// Whether `path` could be a record file (a Markdown or reStructuredText file): asked before
/// the record folders are looked for.
fn maybe_record(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".rst")
}
