//! What `why PATH`'s related records read of the history (docs/related.md, ADR-0017): the
//! commits that changed PATH itself, and each record file's first commit with its size. Built
//! from a full walk here, and from the index's tables by `index`: the same data either way, so
//! an indexed answer equals a fresh scan.

use super::data::{canonical_order, CommitMeta, Sha, WalkedCommit};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A commit of more files than this is not focused: a sweeping commit, an import or a
/// reformatting says nothing about any one of its files (docs/related.md).
pub const FOCUSED_FILES: usize = 36;

/// Whether a commit's diff keeps how many bytes each file changed by: a focused commit that
/// adds a file a record may be (`.md`, `.rst`). The `introduced` evidence reads them: the
/// commit that added a record says little of a file it changed by a line among thousands.
pub fn sizes_told(files: usize, adds_a_document: bool) -> bool {
    adds_a_document && files <= FOCUSED_FILES
}

/// Whether a path's name is one a record's file may have (docs/reading.md).
pub fn may_be_record(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".rst")
}

/// The history one `why PATH` needs for its related records.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathHistory {
    /// How many commits HEAD reaches: commit ids are abbreviated by it alone.
    pub total_commits: usize,
    /// The non-merge commits HEAD reaches whose diff changed PATH (the file itself), in
    /// canonical order.
    pub touching: Vec<Touching>,
    /// Record file (root-relative) → the commit that added it: the oldest non-merge commit
    /// HEAD reaches that changed it, or a name it had before a rename. The index leaves out
    /// a record no focused commit changing PATH changed (none of its names among their
    /// files): its first commit gives no evidence, and says nothing of how many records a
    /// commit that does give some added.
    pub added: BTreeMap<String, Added>,
}

/// A commit that changed PATH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touching {
    pub meta: CommitMeta,
    /// How many files its diff changed, anywhere in the work tree; counted only for a commit
    /// whose message names an id (0 for the others: nothing asks).
    pub files: usize,
}

/// The commit that added a record file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub sha: Sha,
    pub time: i64,
    /// How many files its diff changed, anywhere in the work tree; counted only when it
    /// changed PATH (0 otherwise: nothing asks).
    pub files: usize,
    /// Whether it changed PATH too.
    pub with_path: bool,
    /// When it changed PATH and its diff kept its sizes ([`sizes_told`]): the bytes PATH
    /// grew or shrank by, and those of all its files together.
    pub path_bytes: Option<(u64, u64)>,
}

impl Added {
    /// Whether `self` comes after `other` in the canonical order (is older): the oldest of a
    /// file's commits is its first.
    pub fn is_older_than(&self, other: &Added) -> bool {
        let meta = |a: &Added| (a.time, a.sha);
        let (a, b) = (meta(self), meta(other));
        // canonical_order: newest first, ties by sha ascending; older is later.
        b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)) == Ordering::Greater
    }

    /// Keeps the older of `slot` and `candidate`.
    pub fn keep_oldest(slot: &mut Option<Added>, candidate: Added) {
        match slot {
            Some(kept) if !candidate.is_older_than(kept) => {}
            _ => *slot = Some(candidate),
        }
    }
}

/// A record file's names: `file` and, back through `renamed_from` (a name → the names it was
/// renamed from), every earlier one, each once; not a rename between two records' names
/// ([`one_record`]).
pub fn names_of(file: &str, renamed_from: &mut dyn FnMut(&str) -> Vec<String>) -> Vec<String> {
    let mut names = vec![file.to_string()];
    let mut at = 0;
    while at < names.len() {
        let to = names[at].clone();
        for from in renamed_from(&to) {
            if !names.contains(&from) && one_record(&from, &to) {
                names.push(from);
            }
        }
        at += 1;
    }
    names
}

/// Whether a rename of a record file keeps one record: the names are the same, or their
/// words (past the number or date, three letters or more) share one, or one has none. git
/// pairs a deleted record with a similar new one (the same template): elsa-core renumbered
/// `0005-tenant-deleted-event.md` to `0006-…` as `0005-token-centric-flowchart-…` was
/// added, and git saw `0005-tenant-deleted-event.md` renamed to the new record.
pub fn one_record(from: &str, to: &str) -> bool {
    fn words(path: &str) -> Vec<std::borrow::Cow<'_, str>> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        stem.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() >= 3 && !w.bytes().all(|b| b.is_ascii_digit()))
            // Lowered only when it has to be: a related answer asks this of every rename of
            // every record (issue 41).
            .map(|w| {
                match w
                    .bytes()
                    .any(|b| !b.is_ascii_lowercase() && !b.is_ascii_digit())
                {
                    true => std::borrow::Cow::Owned(w.to_lowercase()),
                    false => std::borrow::Cow::Borrowed(w),
                }
            })
            // The kind every record's name may carry (`adr-0005-x`) tells none apart.
            .filter(|w| !matches!(w.as_ref(), "adr" | "rfc" | "kep" | "gep" | "sip"))
            .collect()
    }
    let (a, b) = (words(from), words(to));
    a.is_empty() || b.is_empty() || a.iter().any(|w| b.contains(w))
}

/// PATH's bytes changed and all files' together, from a diff's sorted `changes` and their
/// `sizes` (none kept: `None`).
pub fn path_bytes(changes: &[String], sizes: &[u32], path: &str) -> Option<(u64, u64)> {
    if sizes.len() != changes.len() {
        return None;
    }
    let at = changes.binary_search_by(|c| c.as_str().cmp(path)).ok()?;
    let all = sizes.iter().map(|&n| u64::from(n)).sum();
    Some((u64::from(sizes[at]), all))
}

impl PathHistory {
    /// From every commit HEAD reaches (`commits`, as walked, paths relative to the work tree
    /// top), for `path` and the `records`' files (both relative to the root, `prefix` the
    /// root's place in the work tree).
    pub fn of_walk(
        commits: &[WalkedCommit],
        prefix: &str,
        path: &str,
        records: &[&str],
    ) -> PathHistory {
        let full = format!("{prefix}{path}");
        // Each record file's earlier names, back through the renames HEAD reaches.
        let mut renamed: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for c in commits {
            for (from, to) in &c.renames {
                renamed.entry(to.as_str()).or_default().push(from.as_str());
            }
        }
        let mut wanted: BTreeMap<String, &str> = BTreeMap::new();
        for r in records {
            for name in names_of(&format!("{prefix}{r}"), &mut |to| {
                renamed
                    .get(to)
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(str::to_string)
                    .collect()
            }) {
                wanted.entry(name).or_insert(*r);
            }
        }
        let mut touching = Vec::new();
        let mut first: BTreeMap<&str, Option<Added>> = BTreeMap::new();
        let mut seen = std::collections::HashSet::new();
        for c in commits {
            if !seen.insert(c.id) || c.meta.is_merge {
                continue;
            }
            let with_path = c.changes.contains(&full);
            if with_path {
                touching.push(Touching {
                    meta: c.meta.clone(),
                    files: match c.meta.mentions.is_empty() {
                        true => 0,
                        false => c.changes.len(),
                    },
                });
            }
            for changed in &c.changes {
                if let Some(record) = wanted.get(changed) {
                    let candidate = Added {
                        sha: c.meta.sha,
                        time: c.meta.time,
                        files: if with_path { c.changes.len() } else { 0 },
                        with_path,
                        path_bytes: with_path
                            .then(|| path_bytes(&c.changes, &c.sizes, &full))
                            .flatten(),
                    };
                    Added::keep_oldest(first.entry(record).or_default(), candidate);
                }
            }
        }
        touching.sort_by(|a, b| canonical_order(&a.meta, &b.meta));
        PathHistory {
            total_commits: seen.len(),
            touching,
            added: first
                .into_iter()
                .filter_map(|(r, a)| a.map(|a| (r.to_string(), a)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rename_between_two_records_names_is_not_followed() {
        assert!(one_record(
            "adr/0005-tenant-deleted.md",
            "adr/0006-tenant-deleted.md"
        ));
        assert!(one_record(
            "adr/0005-tenant-deleted.md",
            "decisions/0005-tenant-deleted.md"
        ));
        assert!(one_record(
            "adr/0005-tenant-deleted.md",
            "adr/0005-deleted-tenants.md"
        ));
        assert!(
            one_record("adr/0005.md", "adr/0005-tenant-deleted.md"),
            "no words to tell"
        );
        assert!(!one_record(
            "adr/0005-tenant-deleted.md",
            "adr/0005-token-flowchart.md"
        ));
        assert!(!one_record("adr/adr-5-tenants.md", "adr/adr-5-tokens.md"));
        assert!(
            one_record("adr/ADR-0005-Tenants.md", "adr/0006-tenants.md"),
            "words compared in lower case"
        );
        assert!(one_record("adr/0005-Überblick.md", "adr/0006-überblick.md"));
        assert!(!one_record("ADR/0005-x-Kafka.md", "adr/0006-x-rabbit.md"));
        let renames = |to: &str| match to {
            "adr/0005-token-flowchart.md" => vec!["adr/0005-tenant-deleted.md".to_string()],
            "adr/0006-tenant-deleted.md" => vec!["adr/0005-tenant-deleted.md".to_string()],
            _ => Vec::new(),
        };
        assert_eq!(
            names_of("adr/0005-token-flowchart.md", &mut |to| renames(to)),
            ["adr/0005-token-flowchart.md"]
        );
        assert_eq!(
            names_of("adr/0006-tenant-deleted.md", &mut |to| renames(to)),
            ["adr/0006-tenant-deleted.md", "adr/0005-tenant-deleted.md"]
        );
    }
}
