//! One commit's tree against its parent's, reading only what differs (ADR-0005).

use super::diff::{CommitDiff, Job};
use super::packs::Reader;
use super::renames::pair_renames;
use super::HistoryError;
use crate::util::one_line;
use gix::ObjectId;

/// Diffs a commit's tree against its parent's, as `gix::diff::tree` with its recorder would,
/// reading only what differs: the entries two trees share at their start and at their end are
/// skipped as bytes (one compare each), never parsed, and a subtree with the same id is not
/// entered. A commit changes a few files in trees of hundreds of entries, so most of each tree
/// is never parsed (on git/git this was about half of the walk's time).
pub(super) struct Differ<'r> {
    objects: &'r Reader<'r>,
    hash: gix::hash::Kind,
    /// The two trees compared at each depth, and their ids (`None`: empty, or not known to
    /// hold a tree).
    trees: Vec<[Vec<u8>; 2]>,
    held: Vec<[Option<ObjectId>; 2]>,
    /// The folder being compared, `a/b/`.
    path: Vec<u8>,
    /// Each file changed: its path, what happened, its new id (the old one when deleted) and,
    /// when modified, its old id.
    changes: Vec<(String, Side, ObjectId, Option<ObjectId>)>,
    /// Whether a commit that may add a record keeps its sizes ([`CommitDiff::sizes`]).
    sizes: bool,
}

/// What happened to a file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Deleted,
    Added,
    Modified,
}

impl<'r> Differ<'r> {
    pub(super) fn new(objects: &'r Reader<'r>, hash: gix::hash::Kind, sizes: bool) -> Self {
        Differ {
            objects,
            hash,
            trees: Vec::new(),
            held: Vec::new(),
            path: Vec::new(),
            changes: Vec::new(),
            sizes,
        }
    }

    pub(super) fn diff(&mut self, job: &Job) -> Result<CommitDiff, HistoryError> {
        self.path.clear();
        self.changes.clear();
        self.trees_at(0, job.parent_tree.as_deref(), Some(&job.tree))
            .map_err(|message| HistoryError::Diff {
                sha: job.sha.to_string(),
                message: one_line(&message),
            })?;
        let sized = self.sizes
            && super::sizes_told(
                self.changes.len(),
                self.changes
                    .iter()
                    .any(|(p, side, _, _)| *side == Side::Added && super::may_be_record(p)),
            );
        let mut sizes: Vec<(String, u32)> = Vec::new();
        let mut blob = Vec::new();
        if sized {
            for (path, side, oid, old) in &self.changes {
                let (before, after) = match side {
                    Side::Added => (None, Some(oid)),
                    Side::Deleted => (Some(oid), None),
                    Side::Modified => (old.as_ref(), Some(oid)),
                };
                let size = self
                    .blob_size(before, &mut blob)
                    .abs_diff(self.blob_size(after, &mut blob))
                    .min(u64::from(u32::MAX)) as u32;
                sizes.push((path.clone(), size));
            }
            sizes.sort_unstable();
            sizes.dedup_by(|a, b| a.0 == b.0);
        }
        let mut paths = Vec::with_capacity(self.changes.len());
        let mut added_md: Vec<(String, ObjectId)> = Vec::new();
        let mut deleted_md: Vec<(String, ObjectId)> = Vec::new();
        for (path, side, oid, _) in self.changes.drain(..) {
            if path.ends_with(".md") || path.ends_with(".rst") {
                match side {
                    Side::Added => added_md.push((path.clone(), oid)),
                    Side::Deleted => deleted_md.push((path.clone(), oid)),
                    Side::Modified => {}
                }
            }
            paths.push(path);
        }
        paths.sort_unstable();
        paths.dedup();
        let renames = pair_renames(deleted_md, added_md);
        Ok(CommitDiff {
            index: job.index,
            paths,
            renames,
            sizes: sizes.into_iter().map(|(_, n)| n).collect(),
        })
    }

    /// The size of blob `id` in bytes (none, or one that does not read: 0), read into `buf`.
    fn blob_size(&self, id: Option<&ObjectId>, buf: &mut Vec<u8>) -> u64 {
        use gix::objs::Find;
        let Some(id) = id else {
            return 0;
        };
        match self.objects.try_find(id, buf) {
            Ok(Some(data)) => data.data.len() as u64,
            _ => 0,
        }
    }

    /// Compares the trees `old` and `new` (`None`: empty) of the folder `self.path`.
    fn trees_at(
        &mut self,
        depth: usize,
        old: Option<&gix::hash::oid>,
        new: Option<&gix::hash::oid>,
    ) -> Result<(), String> {
        if self.trees.len() <= depth {
            self.trees.push(Default::default());
            self.held.push([None, None]);
        }
        let [mut old_buf, mut new_buf] = std::mem::take(&mut self.trees[depth]);
        let [mut old_held, mut new_held] = std::mem::take(&mut self.held[depth]);
        // Diffing a run of commits newest first, a commit's tree is the one its newer child
        // compared as old, at every depth where both changed (oldest first, the other way
        // round): its bytes are here already (at the top, every time), so they are not read
        // and copied again.
        let (old_here, new_here) = (old_held.as_deref(), new_held.as_deref());
        if (new.is_some() && new == old_here && new != new_here)
            || (old.is_some() && old == new_here && old != old_here)
        {
            std::mem::swap(&mut old_buf, &mut new_buf);
            std::mem::swap(&mut old_held, &mut new_held);
        }
        let result = self
            .load(old, &mut old_buf, old_held.as_deref())
            .and_then(|()| self.load(new, &mut new_buf, new_held.as_deref()))
            .and_then(|()| self.compare(depth, &old_buf, &new_buf));
        self.trees[depth] = [old_buf, new_buf];
        // What a failed read left in the buffers is not known.
        self.held[depth] = match result {
            Ok(()) => [old.map(ToOwned::to_owned), new.map(ToOwned::to_owned)],
            Err(_) => [None, None],
        };
        result
    }

    /// Reads the tree `id` (`None`: empty) into `buf`, unless `buf` holds it already (`held`).
    fn load(
        &self,
        id: Option<&gix::hash::oid>,
        buf: &mut Vec<u8>,
        held: Option<&gix::hash::oid>,
    ) -> Result<(), String> {
        let Some(id) = id else {
            buf.clear();
            return Ok(());
        };
        if held == Some(id) {
            return Ok(());
        }
        use gix::objs::Find;
        let kind = match self.objects.try_find(id, buf) {
            Ok(Some(data)) => data.kind,
            Ok(None) => return Err(format!("tree {id} could not be found")),
            Err(e) => return Err(e.to_string()),
        };
        if kind != gix::objs::Kind::Tree {
            return Err(format!("object {id} is a {kind}, not a tree"));
        }
        Ok(())
    }

    /// A merge of two sorted trees: entries only in `old` are deleted, only in `new` added,
    /// in both with another id (or kind of mode) modified; folders are compared in turn.
    fn compare(&mut self, depth: usize, old: &[u8], new: &[u8]) -> Result<(), String> {
        let hash_len = self.hash.len_in_bytes();
        // Entries wholly inside the common start are the same in both (and end at the same
        // places): skip them.
        let same_start = common_prefix(old, new);
        let mut at = 0;
        while let Some(end) = entry_end(old, at, hash_len) {
            if end > same_start {
                break;
            }
            at = end;
        }
        let (mut o, mut n) = (at, at);
        let same_end = common_suffix(&old[o..], &new[n..]);
        loop {
            // What is left is the same in both (both sit at an entry's start): done.
            let (old_left, new_left) = (old.len() - o, new.len() - n);
            if old_left == new_left && old_left <= same_end {
                return Ok(());
            }
            let a = self.entry(old, o)?;
            let b = self.entry(new, n)?;
            match (a, b) {
                (Some((a, a_end)), Some((b, b_end))) => {
                    match gix::objs::tree::name_order(
                        a.filename,
                        a.mode.is_tree(),
                        b.filename,
                        b.mode.is_tree(),
                    ) {
                        std::cmp::Ordering::Equal => {
                            (o, n) = (a_end, b_end);
                            if a.mode.is_tree() && b.mode.is_tree() {
                                if a.oid != b.oid {
                                    self.folder(depth, a.filename, Some(a.oid), Some(b.oid))?;
                                }
                            } else if a.oid != b.oid || a.mode.kind() != b.mode.kind() {
                                // Old trees carry non-canonical modes (100664): the same blob
                                // with the same kind of mode is no change, as git sees it.
                                self.file(a.filename, Side::Modified, b.oid, Some(a.oid));
                            }
                        }
                        std::cmp::Ordering::Less => {
                            o = a_end;
                            self.one_side(depth, a, Side::Deleted)?;
                        }
                        std::cmp::Ordering::Greater => {
                            n = b_end;
                            self.one_side(depth, b, Side::Added)?;
                        }
                    }
                }
                (Some((a, a_end)), None) => {
                    o = a_end;
                    self.one_side(depth, a, Side::Deleted)?;
                }
                (None, Some((b, b_end))) => {
                    n = b_end;
                    self.one_side(depth, b, Side::Added)?;
                }
                (None, None) => return Ok(()),
            }
        }
    }

    /// The entry starting at `at` and where it ends; `None` at the end of the tree.
    fn entry<'t>(
        &self,
        tree: &'t [u8],
        at: usize,
    ) -> Result<Option<(gix::objs::tree::EntryRef<'t>, usize)>, String> {
        if at >= tree.len() {
            return Ok(None);
        }
        // Parsed from the rest of the tree, its end then read off the parser: one scan of the
        // name, not a search for its end first and a parse of the entry again (issue 41).
        let rest = &tree[at..];
        let mut entries = gix::objs::TreeRefIter::from_bytes(rest, self.hash);
        let entry = entries
            .next()
            .ok_or_else(|| "a tree entry is corrupt".to_string())?
            .map_err(|e| e.to_string())?;
        Ok(Some((entry, at + entries.offset_to_next_entry(rest))))
    }

    /// An entry only one side has: a file, or every file under a folder.
    fn one_side(
        &mut self,
        depth: usize,
        entry: gix::objs::tree::EntryRef<'_>,
        side: Side,
    ) -> Result<(), String> {
        if entry.mode.is_tree() {
            let (old, new) = match side {
                Side::Deleted => (Some(entry.oid), None),
                _ => (None, Some(entry.oid)),
            };
            self.folder(depth, entry.filename, old, new)
        } else {
            self.file(entry.filename, side, entry.oid, None);
            Ok(())
        }
    }

    fn folder(
        &mut self,
        depth: usize,
        name: &[u8],
        old: Option<&gix::hash::oid>,
        new: Option<&gix::hash::oid>,
    ) -> Result<(), String> {
        let len = self.path.len();
        self.path.extend_from_slice(name);
        self.path.push(b'/');
        let result = self.trees_at(depth + 1, old, new);
        self.path.truncate(len);
        result
    }

    fn file(
        &mut self,
        name: &[u8],
        side: Side,
        oid: &gix::hash::oid,
        old: Option<&gix::hash::oid>,
    ) {
        let mut path = Vec::with_capacity(self.path.len() + name.len());
        path.extend_from_slice(&self.path);
        path.extend_from_slice(name);
        let path = String::from_utf8(path)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.changes
            .push((path, side, oid.to_owned(), old.map(ToOwned::to_owned)));
    }
}

/// Where the tree entry starting at `at` ends (`mode SP name NUL id`): the first NUL ends the
/// name. `None` at the end or when the entry is cut short.
fn entry_end(tree: &[u8], at: usize, hash_len: usize) -> Option<usize> {
    use gix::bstr::ByteSlice;
    let nul = at + tree.get(at..)?.find_byte(0)?;
    let end = nul + 1 + hash_len;
    (end <= tree.len()).then_some(end)
}

/// How many bytes `a` and `b` share at their start.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many bytes `a` and `b` share at their end.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = n;
    while i >= 8 && a[i - 8..i] == b[i - 8..i] {
        i -= 8;
    }
    while i > 0 && a[i - 1] == b[i - 1] {
        i -= 1;
    }
    n - i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::packs::Packs;

    /// A run of commits diffed newest first, and oldest first, by one differ gives what a new
    /// differ gives each commit, and reads each commit's trees once, not twice.
    #[test]
    fn a_run_of_commits_reads_each_tree_once_and_diffs_as_one_at_a_time() {
        let Some(dir) = crate::git::testing::new_repo() else {
            return;
        };
        let git = |args: &[&str]| crate::git::testing::git(dir.path(), args, None);
        for i in 0..12 {
            let folder = dir.path().join(format!("src/m{}/deep", i % 3));
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join(format!("f{}", i % 2)), format!("{i}\n")).unwrap();
            if i == 7 {
                std::fs::remove_dir_all(dir.path().join("src/m1")).unwrap();
            }
            git(&["add", "-A"]);
            git(&["commit", "-q", "-m", &format!("c{i}")]);
        }
        git(&["gc", "-q"]);
        let sync = gix::ThreadSafeRepository::open(dir.path()).unwrap();
        let repo = sync.to_thread_local();
        let mut jobs = Vec::new();
        let mut at = repo.head_id().unwrap().detach();
        for index in 0.. {
            let commit = repo.find_commit(at).unwrap();
            let parent = commit.parent_ids().next().map(|p| p.detach());
            let parent_tree = parent.map(|p| repo.find_commit(p).unwrap().tree_id().unwrap());
            jobs.push(Job {
                index,
                sha: at,
                tree: commit.tree_id().unwrap().detach(),
                parent_tree: parent_tree.map(|t| t.detach()),
            });
            match parent {
                Some(p) => at = p,
                None => break,
            }
        }
        let packs = Packs::open(&sync, 0);
        let paths = |d: CommitDiff| d.paths;
        let one_at_a_time: Vec<Vec<String>> = jobs
            .iter()
            .map(|job| {
                let reader = Reader::new(&packs, &repo, 1 << 20);
                paths(
                    Differ::new(&reader, repo.object_hash(), false)
                        .diff(job)
                        .unwrap(),
                )
            })
            .collect();
        assert!(one_at_a_time.iter().all(|p| !p.is_empty()));
        for newest_first in [true, false] {
            let reader = Reader::new(&packs, &repo, 1 << 20);
            let mut differ = Differ::new(&reader, repo.object_hash(), false);
            let order: Vec<usize> = if newest_first {
                (0..jobs.len()).collect()
            } else {
                (0..jobs.len()).rev().collect()
            };
            for &i in &order {
                assert_eq!(paths(differ.diff(&jobs[i]).unwrap()), one_at_a_time[i]);
            }
            // Every diff reads its two root trees, and the changed `src/` and `src/mN/`
            // ones; a run shares each commit's with the next diff.
            let alone: u64 = jobs
                .iter()
                .map(|job| {
                    let reader = Reader::new(&packs, &repo, 1 << 20);
                    Differ::new(&reader, repo.object_hash(), false)
                        .diff(job)
                        .unwrap();
                    reader.stats().served
                })
                .sum();
            let served = reader.stats().served;
            assert!(
                served + jobs.len() as u64 - 1 <= alone,
                "{served} trees read in a run against {alone} one at a time"
            );
        }
    }
}
