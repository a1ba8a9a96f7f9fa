//! What a commit's staged change adds to the rules' violations (docs/rules.md, ADR-0021): the
//! current records' rules evaluated over the staged blobs of the changed files and over the
//! same files as the commit's base holds them. A violation already there is never warned
//! about; only a rule whose count grows in a file is.

use super::Session;
use crate::checks::rules::{evaluate_ruled, Files, RecordOutcome, Ruled};
use crate::git::{BlobReader, Repo, StagedIndex, StagedPath};
use crate::imports::Project;
use crate::index::governing::RuleFile;
use crate::model::AddedViolation;
use crate::scan::imports::ImportEdges;
use crate::scan::rules::IndexFiles;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The largest file a rule reads (as in a scan).
const MAX_FILE: u64 = 4 << 20;

/// The changed files as one side of the change holds them: `(path, blob)`.
struct Side {
    files: Vec<(String, [u8; 20])>,
    reader: Mutex<BlobReader>,
}

impl Files for Side {
    fn paths(&self) -> Option<Vec<String>> {
        Some(self.files.iter().map(|(p, _)| p.clone()).collect())
    }

    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let (_, blob) = self.files.iter().find(|(p, _)| p == path)?;
        let reader = crate::util::locked(&self.reader);
        let window = usize::try_from(MAX_FILE).unwrap_or(usize::MAX);
        let (bytes, longer) = reader.head(blob, window, MAX_FILE)?;
        (!longer).then_some(bytes)
    }
}

/// A current record with rules, read only as far as the commit needs: its id, status and
/// block (not its relations, mentions and paths, nor the regexes that find them).
struct RuledRecord {
    id: String,
    path: String,
    status: crate::model::Status,
    rules: crate::rules::RuleBlock,
}

/// The current records that carry rules, read from the record files now (their text as the
/// commit would leave them is what a person just wrote). With `known` (the commit hook's table
/// holding, ADR-0018: the record files are as the scan read them), only those files are read,
/// for their blocks alone, their ids and statuses the table's.
fn records_with_rules(session: &Session, known: Option<&[RuleFile]>) -> Vec<RuledRecord> {
    let root = session.root();
    if let Some(known) = known {
        return known
            .iter()
            .filter_map(|k| {
                let rules = block_of(
                    &crate::fs::read::read_file(root, &k.path, true).ok()?,
                    &k.path,
                )?;
                Some(RuledRecord {
                    id: k.id.clone(),
                    path: k.path.clone(),
                    status: k.status,
                    rules,
                })
            })
            .collect();
    }
    let Ok(reading) = crate::fs::discover::reading(root, &session.options().docs) else {
        return Vec::new();
    };
    let files = crate::fs::discover::list_records(root, &reading.folders).files;
    let mut out = Vec::new();
    for f in files.into_iter().filter(|f| !reading.excluded(&f.rel)) {
        let Ok(bytes) = crate::fs::read::read_file(root, &f.rel, f.link) else {
            continue;
        };
        let Some(rules) = block_of(&bytes, &f.rel) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let head = crate::parse::parse_head(&f.rel, text, reading.prefix_for(&f.rel));
        let mut status = head.status;
        if status == crate::model::Status::Unknown {
            if let Some(word) = reading.default_status(&f.rel) {
                status = crate::model::Status::from_text(word);
            }
        }
        if status.is_current() {
            out.push(RuledRecord {
                id: head.id,
                path: f.rel,
                status,
                rules,
            });
        }
    }
    out
}

/// The rules of the record file `rel` holding `bytes`, when it has any.
fn block_of(bytes: &[u8], rel: &str) -> Option<crate::rules::RuleBlock> {
    // Most records carry none: only those opening a block are read further.
    if !opens_a_block(bytes) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    crate::parse::read_rules(rel, text).filter(|b| !b.rules.is_empty())
}

/// Whether `bytes` may hold a `context-graph` block: the info string right after a fence of
/// backticks or tildes (the parse decides; this only spares the parse of every other record).
fn opens_a_block(bytes: &[u8]) -> bool {
    const INFO: &[u8] = b"context-graph";
    (0..bytes.len().saturating_sub(INFO.len() - 1)).any(|i| {
        bytes[i..].starts_with(INFO) && {
            let before = bytes[..i].iter().rev().skip_while(|b| **b == b' ');
            let fence: Vec<u8> = before.take(3).copied().collect();
            fence == b"```" || fence == b"~~~"
        }
    })
}

/// A violation's key: (record, rule, path, target).
type Key = (String, String, String, Option<String>);

fn key_of(o: &RecordOutcome, rule: &str, v: &crate::checks::rules::Violation) -> Key {
    (
        o.id.clone(),
        rule.to_string(),
        v.path.clone(),
        v.target.clone(),
    )
}

/// Counts of violations by (record, rule, path, target).
fn counts(outcomes: &[RecordOutcome]) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for o in outcomes {
        for r in &o.rules {
            for v in &r.violations {
                let key = key_of(o, &r.rule.text, v);
                *out.entry(key).or_insert(0) += 1;
            }
        }
    }
    out
}

/// The violations the staged `changes` add: in each changed file, each rule whose violations
/// there outnumber the base's, with the staged ones listed.
/// `staged` is the index the changes were read from: imports resolve against what it tracks
/// (what the commit will hold), else against what git's index tracks.
pub(super) fn added(
    session: &Session,
    repo: &Repo,
    (changes, staged): (&[StagedPath], Option<std::sync::Arc<StagedIndex>>),
    known: Option<&[RuleFile]>,
) -> Vec<AddedViolation> {
    let records = records_with_rules(session, known);
    if records.is_empty() {
        return Vec::new();
    }
    let side = |pick: fn(&StagedPath) -> Option<[u8; 20]>| Side {
        files: changes
            .iter()
            .filter_map(|c| pick(c).map(|b| (c.path.clone(), b)))
            .collect(),
        reader: Mutex::new(BlobReader::loose_first(repo)),
    };
    let tree = match staged {
        Some(index) => IndexFiles::staged(repo, index),
        None => IndexFiles::of(repo),
    };
    diff(
        &records,
        &tree,
        (&side(|c| c.old), &side(|c| c.blob)),
        false,
    )
    .0
}

/// What a range changes in the rules' violations, in the files `paths` (those its commits
/// touch): `(added at head, removed from base)`.
pub(super) fn range(
    session: &Session,
    repo: &Repo,
    base: [u8; 20],
    head: [u8; 20],
    paths: &[&str],
) -> (Vec<AddedViolation>, Vec<AddedViolation>) {
    let records = records_with_rules(session, None);
    if records.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let trees = repo.tree_reader();
    let side = |at: [u8; 20]| Side {
        files: paths
            .iter()
            .filter_map(|p| trees.entry_at(at, p).map(|b| (p.to_string(), b)))
            .collect(),
        reader: Mutex::new(BlobReader::new(repo)),
    };
    let tree = IndexFiles::of(repo);
    diff(&records, &tree, (&side(base), &side(head)), true)
}

/// `(added, removed)`: the places of `after` where a rule's violations in a file outnumber
/// `before`'s, and the places of `before` where they outnumber `after`'s. Imports resolve
/// against `tree`, the tracked files as git's index holds them. Without `removed` (the commit
/// hook, which warns only of what a change adds), `before` is not read when `after` breaks
/// no rule: nothing can be added then (most commits).
fn diff(
    records: &[RuledRecord],
    tree: &IndexFiles,
    (before, after): (&Side, &Side),
    removed: bool,
) -> (Vec<AddedViolation>, Vec<AddedViolation>) {
    let records: Vec<Ruled> = records
        .iter()
        .map(|r| Ruled {
            id: &r.id,
            path: &r.path,
            status: r.status,
            rules: &r.rules,
        })
        .collect();
    // One tree both sides resolve against, its resolvers built once.
    let tracked = tree.paths();
    let read = |p: &str| tree.read(p);
    let project = tracked.as_deref().map(|t| Project::new(t, &read));
    let is = outcomes(&records, after, project.as_ref(), tree);
    let is_counts = counts(&is);
    if !removed && is_counts.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let was = outcomes(&records, before, project.as_ref(), tree);
    (grown(&is, &counts(&was)), grown(&was, &is_counts))
}

/// What the rules find on one side: its imports resolved by `project`, else against `tree`.
fn outcomes<'a>(
    records: &[Ruled],
    side: &'a Side,
    project: Option<&'a Project<'a>>,
    tree: &'a IndexFiles,
) -> Vec<RecordOutcome> {
    match project {
        Some(project) => evaluate_ruled(records, side, &ImportEdges::over(side, project)),
        None => evaluate_ruled(records, side, &ImportEdges::new(side, tree)),
    }
}

/// The violations of `side` in each (record, rule, file, target) that `other` has fewer of.
fn grown(side: &[RecordOutcome], other: &BTreeMap<Key, usize>) -> Vec<AddedViolation> {
    let mine = counts(side);
    let mut out = Vec::new();
    for o in side {
        for r in &o.rules {
            for v in &r.violations {
                let key = key_of(o, &r.rule.text, v);
                let theirs = other.get(&key).copied().unwrap_or(0);
                if mine.get(&key).copied().unwrap_or(0) > theirs {
                    out.push(AddedViolation {
                        record: o.id.clone(),
                        rule: r.rule.text.clone(),
                        path: v.path.clone(),
                        line: v.line,
                        target: v.target.clone(),
                        was: theirs,
                    });
                }
            }
        }
    }
    out
}
