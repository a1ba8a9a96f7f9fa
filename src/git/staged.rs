//! The staged changes of a commit in the making: HEAD's tree against the index git commits from,
//! read in process (docs/hooks.md, ADR-0008). Inside a commit hook that index is the one git
//! names in `GIT_INDEX_FILE` (`git commit -a` and `git commit PATH…` stage into a temporary one);
//! elsewhere it is the worktree's own (a linked worktree has its own).

use super::index_raw::Entry;
use super::packed::Plain;
use super::repo::Repo;
use super::HistoryError;
use crate::util::one_line;
use std::cmp::Ordering;
use std::path::Path;

/// A path whose staged content differs from the commit's base, and the blob that says what it
/// declares (ADR-0009): the staged one, or for a deleted file the one it had; `None` for a
/// link or a sparse folder (never read for markers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedPath {
    pub path: String,
    pub blob: Option<[u8; 20]>,
    /// The file's blob in the commit's base, when it was a file there.
    pub old: Option<[u8; 20]>,
}

/// [`staged_changes`]' paths alone.
pub fn staged_paths(
    repo: &Repo,
    index: Option<&Path>,
    base: Option<[u8; 20]>,
) -> Result<Vec<String>, HistoryError> {
    Ok(staged_changes(repo, index, base)?
        .into_iter()
        .map(|s| s.path)
        .collect())
}

/// The paths whose staged content differs from the tree of the commit `base` (HEAD's parent for
/// an amend, else HEAD; `None`, an unborn HEAD or a root commit's parent, is the empty tree):
/// added, modified (content or mode) and deleted files, relative to the root (paths outside it
/// dropped), sorted, each once. `index` is the index file to read (`None`: the one git uses
/// here, which honours `GIT_INDEX_FILE` in this process). A missing index stages nothing.
pub fn staged_changes(
    repo: &Repo,
    index: Option<&Path>,
    base: Option<[u8; 20]>,
) -> Result<Vec<StagedPath>, HistoryError> {
    Ok(staged_with_index(repo, index, base)?.0)
}

/// The index a commit is made from, as [`staged_with_index`] read it: its bytes, read again
/// in place when a rule asks what it tracks (gix decodes them only where `index_raw` cannot).
pub struct StagedIndex {
    path: std::path::PathBuf,
    bytes: Vec<u8>,
    /// gix's decoding, kept when the comparison needed it already.
    file: std::sync::OnceLock<Option<gix::index::File>>,
    /// Where the root sits in the work tree (`Repo::prefix`).
    prefix: String,
}

/// gix's decoding of the index at `path`: the trailing checksum is git's to keep right (not
/// hashed again), and one thread (asking how many cores there are reads cgroup files).
pub(super) fn decode(path: &Path) -> Result<gix::index::File, String> {
    let options = gix::index::decode::Options {
        thread_limit: Some(1),
        ..Default::default()
    };
    // Built with SHA-1 only (ADR-0011).
    gix::index::File::at(path, gix::hash::Kind::Sha1, true, options).map_err(|e| e.to_string())
}

impl StagedIndex {
    /// `read` of its entries, as the comparison read them.
    fn with_entries<R>(&self, read: impl FnOnce(&[Entry]) -> R) -> Option<R> {
        if let Some(entries) = super::index_raw::parse_entries(&self.bytes) {
            return Some(read(&entries));
        }
        let file = self.file.get_or_init(|| decode(&self.path).ok()).as_ref()?;
        Some(read(&entries_of(file)))
    }

    /// The paths of the regular files (not links) it tracks under the root, root-relative, in
    /// path order, each once: what `git::tracked` lists of this index (which may be
    /// `GIT_INDEX_FILE`'s: what the commit will hold), without each file's state.
    pub fn file_paths(&self) -> Vec<String> {
        self.file_list().iter().map(str::to_string).collect()
    }

    /// [`file_paths`](Self::file_paths) in one text (the commit hook lists them for its folder
    /// rules; issue 41).
    pub fn file_list(&self) -> super::PathList {
        let prefix = self.prefix.as_bytes();
        let (mut bytes, mut ends) = (Vec::new(), Vec::new());
        self.with_entries(|entries| {
            let mut last: Option<&[u8]> = None;
            for e in entries.iter().filter(|e| is_file(e.mode)) {
                let Some(rel) = crate::util::under_prefix(e.path, prefix) else {
                    continue;
                };
                // A conflicted path shows once per stage.
                if e.stage != 0 && last == Some(rel) {
                    continue;
                }
                last = Some(rel);
                bytes.extend_from_slice(rel);
                ends.push(bytes.len());
            }
        });
        super::PathList::from_bytes(bytes, ends)
    }

    /// The blob it holds for the root-relative `rel`, when that is a file (ours, stage 2, in a
    /// conflict).
    pub fn blob(&self, rel: &str) -> Option<[u8; 20]> {
        let full = format!("{}{rel}", self.prefix);
        self.with_entries(|entries| {
            let at = entries.partition_point(|e| e.path < full.as_bytes());
            entries[at..]
                .iter()
                .take_while(|e| e.path == full.as_bytes())
                .find(|e| e.stage == 0 || e.stage == 2)
                .filter(|e| is_file(e.mode))
                .map(|e| e.id)
        })
        .flatten()
    }
}

/// [`staged_changes`], and the index they were read from (`None` when there is none).
pub fn staged_with_index(
    repo: &Repo,
    index: Option<&Path>,
    base: Option<[u8; 20]>,
) -> Result<(Vec<StagedPath>, Option<StagedIndex>), HistoryError> {
    let path = index
        .map(Path::to_path_buf)
        .unwrap_or_else(|| repo.index_file().to_path_buf());
    let err = |what: &str, e: &dyn std::fmt::Display| {
        HistoryError::Staged(format!(
            "{what} {}: {}",
            path.display(),
            one_line(&e.to_string())
        ))
    };
    // Read in place (`index_raw`): what the comparison needs, not every entry's stat data
    // and every extension decoded (issue 41); gix reads what that cannot. A missing index
    // stages nothing.
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(e) => return Err(err("cannot read the index", &e)),
    };
    let mut decoded: Option<gix::index::File> = None;
    let (entries, cache) = match super::index_raw::parse(&bytes) {
        Some(read) => read,
        None => {
            let file = decoded.insert(decode(&path).map_err(|e| err("cannot read the index", &e))?);
            (entries_of(file), file.tree().cloned())
        }
    };
    let staged = |decoded: Option<gix::index::File>, bytes: Vec<u8>| StagedIndex {
        path: path.clone(),
        bytes,
        file: decoded
            .map(Some)
            .map(std::sync::OnceLock::from)
            .unwrap_or_default(),
        prefix: repo.prefix.clone(),
    };
    let mut theirs: Vec<BaseEntry> = Vec::new();
    // Folders the index's cache-tree says hold exactly what `base` has there: not compared.
    let mut same: Vec<Vec<u8>> = Vec::new();
    if let Some(base) = base {
        let id = gix::ObjectId::from_bytes_or_panic(&base);
        // HEAD's commit and trees are loose right after a commit: read with one zlib state,
        // gix opened only for what is not (issue 41).
        // What is not loose is often packed (after a clone or `git gc`, and in any folder no
        // commit has touched since): read without opening gix either (issue 41).
        let mut objects = Plain::of_repo(repo)?;
        let mut buf = Vec::new();
        let tree = match objects.read(&id, &mut buf) {
            Some(gix::object::Kind::Commit) => {
                gix::objs::CommitRefIter::from_bytes(&buf, id.kind())
                    .tree_id()
                    .ok()
            }
            _ => None,
        };
        let tree = match tree {
            Some(tree) => tree,
            None => repo
                .gix()?
                .find_commit(id)
                .and_then(|c| c.tree_id().map(|t| t.detach()))
                .map_err(|e| err("cannot read the tree to compare with", &e))?,
        };
        let mut walk = BaseWalk {
            gix: super::repo::LazyGix::of(repo),
            objects,
            out: &mut theirs,
            same: &mut same,
            buf,
        };
        walk.tree(tree, &mut Vec::new(), cache.as_ref())
            .map_err(|e| err("cannot read the tree to compare with", &e))?;
    }
    if same.iter().any(|p| p.is_empty()) {
        drop(entries);
        return Ok((Vec::new(), Some(staged(decoded, bytes))));
    }
    // The folders never nest (the walk stops at each), and the index is sorted: what is under
    // each folder is one run of entries, stepped over without looking at each.
    same.sort_unstable();
    let mut runs: Vec<&[Entry]> = Vec::new();
    let mut at = 0;
    for folder in &same {
        let start = at + gallop(&entries[at..], |e| e.path < folder.as_slice());
        let end = start + gallop(&entries[start..], |e| e.path.starts_with(folder));
        runs.push(&entries[at..start]);
        at = end;
    }
    runs.push(&entries[at..]);
    let ours: Vec<(&[u8], &Entry)> = runs
        .into_iter()
        .flatten()
        .filter(|e| !e.intent)
        .map(|e| (e.path, e))
        .collect();
    theirs.sort_by(|a, b| a.path.cmp(&b.path));

    let blob_of =
        |id: &[u8], file: bool| -> Option<[u8; 20]> { file.then(|| id.try_into().ok()).flatten() };
    let base_file = |k: gix::objs::tree::EntryKind| {
        matches!(
            k,
            gix::objs::tree::EntryKind::Blob | gix::objs::tree::EntryKind::BlobExecutable
        )
    };
    // Each changed path with its staged blob and its base's.
    type Blob = Option<[u8; 20]>;
    let mut changed: Vec<(&[u8], Blob, Blob)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < theirs.len() {
        let order = match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) => a.0.cmp(b.path.as_slice()),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                let e = ours[i].1;
                changed.push((ours[i].0, blob_of(&e.id, is_file(e.mode)), None));
                i += 1;
            }
            Ordering::Greater => {
                let b = &theirs[j];
                let old = blob_of(b.id.as_slice(), base_file(b.kind));
                changed.push((&b.path, old, old));
                j += 1;
            }
            Ordering::Equal => {
                let (a, b) = (ours[i].1, &theirs[j]);
                // A conflicted path (stages 1-3) is a change; so is new content or a new mode.
                if a.stage != 0 || a.id != b.id.as_slice() || kind_of(a.mode) != Some(b.kind) {
                    let old = blob_of(b.id.as_slice(), base_file(b.kind));
                    changed.push((ours[i].0, blob_of(&a.id, is_file(a.mode)), old));
                }
                i += 1;
                j += 1;
            }
        }
    }
    // A sparse index keeps a folder outside the sparse cone as one entry: what is under it is
    // not staged by this commit (git cannot change it without expanding the folder first).
    let sparse: Vec<&[u8]> = ours
        .iter()
        .filter(|(_, e)| e.mode == DIR)
        .map(|(p, _)| *p)
        .collect();
    let prefix = repo.prefix.as_bytes();
    let mut out: Vec<StagedPath> = changed
        .into_iter()
        .filter(|(p, _, _)| !sparse.iter().any(|dir| p.starts_with(dir)))
        .filter_map(|(p, blob, old)| crate::util::under_prefix(p, prefix).map(|p| (p, blob, old)))
        .map(|(p, blob, old)| StagedPath {
            path: String::from_utf8_lossy(p).into_owned(),
            blob,
            old,
        })
        .collect();
    // A conflicted path shows once per stage: the first (the lowest stage) stays.
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    drop(entries);
    Ok((out, Some(staged(decoded, bytes))))
}

/// The modes git writes in its index: a file, an executable, a link, a submodule, a sparse
/// folder.
const FILE: u32 = 0o100644;
const FILE_EXECUTABLE: u32 = 0o100755;
const DIR: u32 = 0o040000;

/// Whether an entry of `mode` is a regular file (executable or not).
fn is_file(mode: u32) -> bool {
    matches!(mode, FILE | FILE_EXECUTABLE)
}

/// What a tree would hold for an entry of `mode`.
fn kind_of(mode: u32) -> Option<gix::objs::tree::EntryKind> {
    use gix::objs::tree::EntryKind;
    match mode {
        FILE => Some(EntryKind::Blob),
        FILE_EXECUTABLE => Some(EntryKind::BlobExecutable),
        0o120000 => Some(EntryKind::Link),
        0o160000 => Some(EntryKind::Commit),
        DIR => Some(EntryKind::Tree),
        _ => None,
    }
}

/// gix's entries as the comparison reads them (an index `index_raw` does not read).
pub(super) fn entries_of(file: &gix::index::File) -> Vec<Entry<'_>> {
    use gix::index::entry::Flags;
    file.entries()
        .iter()
        .map(|e| Entry {
            path: e.path(file).as_ref(),
            id: e.id.as_slice().try_into().unwrap_or([0; 20]),
            mode: e.mode.bits(),
            stage: e.stage_raw() as u8,
            intent: e.flags.intersects(Flags::INTENT_TO_ADD | Flags::REMOVE),
        })
        .collect()
}

/// How many items at the start of `items` pass `pred`, which holds for a first run of them and
/// for none after it: found by doubling steps, then halving, so a short run costs a few looks
/// whatever follows it.
fn gallop<T>(items: &[T], pred: impl Fn(&T) -> bool) -> usize {
    let mut bound = 1;
    while bound <= items.len() && pred(&items[bound - 1]) {
        bound *= 2;
    }
    let low = bound / 2;
    let high = bound.min(items.len());
    low + items[low..high].partition_point(pred)
}

/// A file of the tree compared with: its path from the top of the work tree, id and kind.
struct BaseEntry {
    path: Vec<u8>,
    id: gix::ObjectId,
    kind: gix::objs::tree::EntryKind,
}

/// The files of a tree, leaving out the folders the index's cache-tree vouches for.
struct BaseWalk<'a> {
    /// gix's handle, opened for the first tree that is not loose.
    gix: super::repo::LazyGix,
    objects: Plain,
    out: &'a mut Vec<BaseEntry>,
    same: &'a mut Vec<Vec<u8>>,
    buf: Vec<u8>,
}

impl BaseWalk<'_> {
    /// The tree `id` at `prefix` (`""` or `a/b/`), beside `cache`, the cache-tree's node for
    /// the same folder: a valid node with the same id means the index holds this very tree.
    fn tree(
        &mut self,
        id: gix::ObjectId,
        prefix: &mut Vec<u8>,
        cache: Option<&gix::index::extension::Tree>,
    ) -> Result<(), String> {
        use gix::objs::FindExt;
        if cache.is_some_and(|c| c.num_entries.is_some() && c.id == id) {
            self.same.push(prefix.clone());
            return Ok(());
        }
        // This tree's bytes stay put while its subtrees are read (into `self.buf`).
        let mut data = std::mem::take(&mut self.buf);
        let tree = match self.objects.read(&id, &mut data) {
            Some(gix::object::Kind::Tree) => gix::objs::TreeRefIter::from_bytes(&data, id.kind()),
            _ => {
                let objects = &self.gix.get()?.objects;
                objects
                    .find_tree_iter(&id, &mut data)
                    .map_err(|e| format!("tree {id}: {e}"))?
            }
        };
        // The cache-tree's children by name, to find each subtree's in one search (git keeps
        // them in its own order, shorter names first).
        let mut children: Vec<&gix::index::extension::Tree> = cache
            .map(|c| c.children.iter().collect())
            .unwrap_or_default();
        children.sort_unstable_by(|a, b| a.name[..].cmp(&b.name[..]));
        for entry in tree.filter_map(Result::ok) {
            let name: &[u8] = entry.filename.as_ref();
            let at = prefix.len();
            prefix.extend_from_slice(name);
            if entry.mode.is_tree() {
                prefix.push(b'/');
                let child = children
                    .binary_search_by(|t| t.name[..].cmp(name))
                    .ok()
                    .map(|k| children[k]);
                self.tree(entry.oid.to_owned(), prefix, child)?;
            } else {
                self.out.push(BaseEntry {
                    path: prefix.clone(),
                    id: entry.oid.to_owned(),
                    kind: entry.mode.kind(),
                });
            }
            prefix.truncate(at);
        }
        self.buf = data;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::gallop;

    #[test]
    fn gallop_finds_where_a_run_ends() {
        for len in 0..40usize {
            let items: Vec<usize> = (0..len).collect();
            for cut in 0..=len {
                assert_eq!(gallop(&items, |&i| i < cut), cut, "len {len} cut {cut}");
            }
        }
    }
}
