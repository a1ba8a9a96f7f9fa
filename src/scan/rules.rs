//! The rules records carry, checked in a scan (ADR-0021, docs/rules.md): the tracked files
//! read as git's index holds them (the staged content, as a commit would record it; never an
//! untracked or unstaged file), through `checks::rules`.

use crate::checks::rules::{self, Edges, Files, RecordOutcome};
use crate::git::{BlobReader, Repo, StagedIndex, Tracked};
use crate::model::{Finding, RecordRules, RuleResult, RuleViolation};
use crate::parse::ParsedRecord;
use crate::scan::imports::{ImportCache, ImportEdges, ImportsRead};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The largest file a rule reads (a larger one is data, not code).
const MAX_FILE: u64 = 4 << 20;

/// The tracked files under a root, read from git's index and object store.
pub struct IndexFiles {
    listed: Listed,
    reader: Option<Mutex<BlobReader>>,
    /// The root in the work tree, where a file is read first (see [`Files::read`] below).
    root: Option<std::path::PathBuf>,
}

/// Where [`IndexFiles`] finds the tracked files.
enum Listed {
    /// Nothing known outside git.
    None,
    /// What git's index tracks, as `git::tracked` read it.
    Tracked(Arc<Tracked>),
    /// The index a commit is made from, as the commit hook read it: asked for the few paths
    /// the staged files' imports name, each file's state never decoded (docs/benchmarks.md).
    Staged(Arc<StagedIndex>),
}

impl IndexFiles {
    /// The files git's index tracks under `root`; nothing known outside git.
    pub fn at(root: &Path) -> IndexFiles {
        match crate::git::open(root) {
            Ok(Some(repo)) => IndexFiles::of(&repo),
            _ => IndexFiles {
                listed: Listed::None,
                reader: None,
                root: None,
            },
        }
    }

    pub fn of(repo: &Repo) -> IndexFiles {
        let listed = crate::git::tracked(repo)
            .ok()
            .map_or(Listed::None, Listed::Tracked);
        IndexFiles::in_repo(repo, listed)
    }

    /// The files `index` (the commit's, already read) tracks, their blobs read from `repo`'s
    /// objects.
    pub fn staged(repo: &Repo, index: Arc<StagedIndex>) -> IndexFiles {
        IndexFiles::in_repo(repo, Listed::Staged(index))
    }

    fn in_repo(repo: &Repo, listed: Listed) -> IndexFiles {
        IndexFiles {
            listed,
            reader: Some(Mutex::new(BlobReader::new(repo))),
            root: Some(repo.workdir.join(&repo.prefix)),
        }
    }
}

impl Files for IndexFiles {
    fn paths(&self) -> Option<Vec<String>> {
        match &self.listed {
            Listed::None => None,
            Listed::Tracked(t) => Some(
                t.files
                    .iter()
                    .filter(|f| !f.link)
                    .map(|f| f.path.clone())
                    .collect(),
            ),
            Listed::Staged(index) => Some(index.file_paths()),
        }
    }

    /// What git's index holds for `path`: the work tree's file when its bytes hash to the
    /// staged blob (the same bytes, read without inflating git's packs into memory: a rule over
    /// every file of a large repository touched a third of its packs, ADR-0021), else the blob.
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let blob = self.blob(path)?;
        if let Some(bytes) = self
            .root
            .as_ref()
            .and_then(|root| crate::fs::read::read_file(root, path, false).ok())
            .filter(|bytes| crate::git::blob_id(bytes) == Some(blob))
        {
            return (bytes.len() as u64 <= MAX_FILE).then_some(bytes);
        }
        let reader = crate::util::locked(self.reader.as_ref()?);
        let window = usize::try_from(MAX_FILE).unwrap_or(usize::MAX);
        let (bytes, longer) = reader.head(&blob, window, MAX_FILE)?;
        (!longer).then_some(bytes)
    }

    fn blob(&self, path: &str) -> Option<[u8; 20]> {
        match &self.listed {
            Listed::None => None,
            Listed::Tracked(t) => {
                let at = t
                    .files
                    .binary_search_by(|f| f.path.as_str().cmp(path))
                    .ok()?;
                Some(t.files[at].blob)
            }
            Listed::Staged(index) => index.blob(path),
        }
    }
}

/// Each record's outcome, the findings, and the notes.
pub type Checked = (Vec<RecordOutcome>, Vec<Finding>, Vec<String>);

/// What the records' rules find under `root`: each record's outcome, the findings, and the
/// notes (rules not checked, and why). With `cache` (the index's, ADR-0021), each file's
/// imports are asked of it first by blob id; what was read is returned for it to keep.
pub fn check(
    root: &Path,
    parsed: &[ParsedRecord],
    cache: Option<&dyn ImportCache>,
) -> (Checked, Option<ImportsRead>) {
    // No record carries a block (most repositories): git's index is not even opened.
    if !parsed.iter().any(|p| p.rules.is_some()) {
        return ((Vec::new(), Vec::new(), Vec::new()), None);
    }
    let files = IndexFiles::at(root);
    let edges = match cache {
        Some(cache) => ImportEdges::cached(&files, &files, cache),
        None => ImportEdges::new(&files, &files),
    };
    let found = check_with(parsed, &files, &edges);
    (found, cache.map(|_| edges.taken()))
}

/// [`check`] over any files and imports.
pub fn check_with(parsed: &[ParsedRecord], files: &dyn Files, edges: &dyn Edges) -> Checked {
    if !parsed.iter().any(|p| p.rules.is_some()) {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let outcomes = rules::evaluate(parsed, files, edges);
    let findings = rules::findings(parsed, &outcomes);
    let unchecked: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.enforces())
        .flat_map(|o| o.rules.iter().filter(|r| !r.checked))
        .map(|r| r.rule.text.as_str())
        .collect();
    let mut notes = Vec::new();
    if let Some(first) = unchecked.first() {
        notes.push(format!(
            "{} rule{} not checked (`{first}`{}): files are read only in a git repository (docs/rules.md)",
            unchecked.len(),
            if unchecked.len() == 1 { "" } else { "s" },
            if unchecked.len() > 1 { ", …" } else { "" }
        ));
    }
    (outcomes, findings, notes)
}

/// Each record's outcome as the report keeps it.
pub fn kept(outcomes: &[RecordOutcome]) -> Vec<RecordRules> {
    outcomes
        .iter()
        .map(|o| RecordRules {
            id: o.id.clone(),
            path: o.path.clone(),
            enforced: o.enforces(),
            rules: o
                .rules
                .iter()
                .map(|r| RuleResult {
                    line: r.rule.line,
                    rule: r.rule.text.clone(),
                    checked: r.checked,
                    violations: r
                        .violations
                        .iter()
                        .map(|v| RuleViolation {
                            path: v.path.clone(),
                            line: v.line,
                            target: v.target.clone(),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}
