//! The staged changes of a commit in the making: HEAD's tree against the index git commits from,
//! read in process (CONTRACT.md §5, ADR-0008). Inside a commit hook that index is the one git
//! names in `GIT_INDEX_FILE` (`git commit -a` and `git commit PATH…` stage into a temporary one);
//! elsewhere it is the worktree's own (a linked worktree has its own).

use super::loose::{Found, Loose};
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
    let local = repo.gix();
    let path = index
        .map(Path::to_path_buf)
        .unwrap_or_else(|| local.index_path());
    let err = |what: &str, e: &dyn std::fmt::Display| {
        HistoryError::Staged(format!(
            "{what} {}: {}",
            path.display(),
            one_line(&e.to_string())
        ))
    };
    // git's index read from its bytes when it is a plain one (version 2 or 3, only extensions
    // this reading can step over): only the entries outside the folders the cache-tree vouches
    // for are looked at, and nothing is decoded into structs first. Anything else (version 4,
    // a split or sparse index, an unreadable file) is gix's to read, errors included.
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(_) => Vec::new(),
    };
    let raw = RawIndex::parse(&bytes);
    let (decoded, decoded_nodes);
    let (entries, nodes) = match &raw {
        Some(raw) => (Entries::Raw(raw), raw.nodes.as_slice()),
        None => {
            if !path.exists() {
                return Ok(Vec::new());
            }
            // The index's trailing checksum is git's to keep right: not hashing the whole
            // file again saves a pass over it. One thread: a commit hook's index is read at
            // once, and asking how many cores there are reads cgroup files.
            let options = gix::index::decode::Options {
                thread_limit: Some(1),
                ..Default::default()
            };
            let file = gix::index::File::at(&path, local.object_hash(), true, options)
                .map_err(|e| err("cannot read the index", &e))?;
            decoded = Decoded::of(file);
            decoded_nodes = decoded.nodes();
            (Entries::Gix(&decoded), decoded_nodes.as_slice())
        }
    };
    let mut theirs: Vec<BaseEntry> = Vec::new();
    // Folders the index's cache-tree says hold exactly what `base` has there: not compared.
    let mut same: Vec<Vec<u8>> = Vec::new();
    if let Some(base) = base {
        let id = gix::ObjectId::from_bytes_or_panic(&base);
        // HEAD's commit and trees are loose right after a commit: read with one zlib state.
        let mut loose = Loose::new(&local);
        let mut buf = Vec::new();
        let tree = match loose.read(&id, &mut buf, u64::MAX, usize::MAX) {
            Found::Read(gix::object::Kind::Commit, _) => {
                gix::objs::CommitRefIter::from_bytes(&buf, id.kind())
                    .tree_id()
                    .ok()
            }
            _ => None,
        };
        let tree = match tree {
            Some(tree) => tree,
            None => local
                .find_commit(id)
                .and_then(|c| c.tree_id().map(|t| t.detach()))
                .map_err(|e| err("cannot read the tree to compare with", &e))?,
        };
        let mut walk = BaseWalk {
            objects: &local.objects,
            loose,
            nodes,
            out: &mut theirs,
            same: &mut same,
            buf,
        };
        let root = (!nodes.is_empty()).then_some(0);
        walk.tree(tree, &mut Vec::new(), root)
            .map_err(|e| err("cannot read the tree to compare with", &e))?;
    }
    if same.iter().any(|p| p.is_empty()) {
        return Ok(Vec::new());
    }
    // The folders never nest (the walk stops at each), and the index is sorted: what is under
    // each folder is one run of entries, stepped over without looking at each.
    same.sort_unstable();
    let count = entries.len();
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut at = 0;
    for folder in &same {
        let start = at + gallop(at, count, |k| entries.path(k) < folder.as_slice());
        let end = start + gallop(start, count, |k| entries.path(k).starts_with(folder));
        runs.push(at..start);
        at = end;
    }
    runs.push(at..count);
    let ours: Vec<Ent> = runs
        .into_iter()
        .flatten()
        .map(|k| entries.get(k))
        .filter(|e| !e.intent)
        .collect();
    theirs.sort_by(|a, b| a.path.cmp(&b.path));

    let blob_of = |id: &[u8; 20], file: bool| -> Option<[u8; 20]> { file.then_some(*id) };
    let is_file = |mode: u32| matches!(mode, 0o100644 | 0o100755);
    let base_file = |k: gix::objs::tree::EntryKind| {
        matches!(
            k,
            gix::objs::tree::EntryKind::Blob | gix::objs::tree::EntryKind::BlobExecutable
        )
    };
    let mut changed: Vec<(&[u8], Option<[u8; 20]>)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < theirs.len() {
        let order = match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) => a.path.cmp(b.path.as_slice()),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                let e = &ours[i];
                changed.push((e.path, blob_of(&e.id, is_file(e.mode))));
                i += 1;
            }
            Ordering::Greater => {
                let b = &theirs[j];
                let id: Option<[u8; 20]> = b.id.as_slice().try_into().ok();
                changed.push((&b.path, id.filter(|_| base_file(b.kind))));
                j += 1;
            }
            Ordering::Equal => {
                let (a, b) = (&ours[i], &theirs[j]);
                // A conflicted path (stages 1-3) is a change; so is new content or a new mode.
                if a.stage != 0
                    || a.id.as_slice() != b.id.as_slice()
                    || kind_of_mode(a.mode) != Some(b.kind)
                {
                    changed.push((a.path, blob_of(&a.id, is_file(a.mode))));
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
        .filter(|e| e.mode == 0o040000)
        .map(|e| e.path)
        .collect();
    let prefix = repo.prefix.as_bytes();
    let mut out: Vec<StagedPath> = changed
        .into_iter()
        .filter(|(p, _)| !sparse.iter().any(|dir| p.starts_with(dir)))
        .filter_map(|(p, blob)| p.strip_prefix(prefix).map(|p| (p, blob)))
        .map(|(p, blob)| StagedPath {
            path: String::from_utf8_lossy(p).into_owned(),
            blob,
        })
        .collect();
    // A conflicted path shows once per stage: the first (the lowest stage) stays.
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

/// How many of the items from `from` to `to` pass `pred` (given an item's index), which holds
/// for a first run of them and for none after it: found by doubling steps, then halving, so a
/// short run costs a few looks whatever follows it.
fn gallop(from: usize, to: usize, pred: impl Fn(usize) -> bool) -> usize {
    let len = to - from;
    let mut bound = 1;
    while bound <= len && pred(from + bound - 1) {
        bound *= 2;
    }
    let (mut low, mut high) = (bound / 2, bound.min(len));
    while low < high {
        let mid = low + (high - low) / 2;
        if pred(from + mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// An entry of git's index, as the staged diff reads it.
struct Ent<'a> {
    path: &'a [u8],
    id: [u8; 20],
    /// The mode as git writes it (`0o100644`, `0o120000`, …; `0o040000` for a sparse folder).
    mode: u32,
    /// 0, or 1-3 for a conflict's sides.
    stage: u8,
    /// Added with `git add -N`: not staged content.
    intent: bool,
}

/// The tree entry kind a mode of git's index stands for.
fn kind_of_mode(mode: u32) -> Option<gix::objs::tree::EntryKind> {
    use gix::objs::tree::EntryKind;
    match mode {
        0o100644 => Some(EntryKind::Blob),
        0o100755 => Some(EntryKind::BlobExecutable),
        0o120000 => Some(EntryKind::Link),
        0o160000 => Some(EntryKind::Commit),
        0o040000 => Some(EntryKind::Tree),
        _ => None,
    }
}

/// A node of the index's cache-tree, in the pre-order git writes them: its folder's name, the
/// tree id when the node is valid (it holds exactly the index's entries there), how many
/// subtrees it has and how many nodes it spans (itself and every node below it).
struct Node<'a> {
    name: &'a [u8],
    id: Option<[u8; 20]>,
    subtrees: usize,
    span: usize,
}

/// The children of node `at` of `nodes`, by index.
fn children(nodes: &[Node], at: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(nodes[at].subtrees);
    let mut next = at + 1;
    for _ in 0..nodes[at].subtrees {
        if next >= nodes.len() {
            break;
        }
        out.push(next);
        next += nodes[next].span.max(1);
    }
    out
}

/// git's index as found in its bytes (version 2 or 3): where each entry starts, and the
/// cache-tree's nodes.
struct RawIndex<'a> {
    bytes: &'a [u8],
    extended: bool,
    /// Where each entry starts, and where its name does and how long it is.
    starts: Vec<(u32, u32, u32)>,
    nodes: Vec<Node<'a>>,
}

impl<'a> RawIndex<'a> {
    /// The index in `bytes`, or `None` when this reading is not for it: not version 2 or 3,
    /// an extension that changes what the entries mean (a split index's `link`, a sparse
    /// index's `sdir`, any other required one), or anything out of place.
    fn parse(bytes: &'a [u8]) -> Option<RawIndex<'a>> {
        let be32 = |at: usize| -> Option<u32> {
            Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
        };
        if bytes.get(..4)? != b"DIRC" {
            return None;
        }
        let version = be32(4)?;
        if !(2..=3).contains(&version) {
            return None;
        }
        let count = be32(8)? as usize;
        // The trailing checksum (SHA-1).
        let end = bytes.len().checked_sub(20)?;
        // Each entry takes at least 64 bytes: a count no file this size can hold is no index.
        if count > end / 64 {
            return None;
        }
        let mut starts = Vec::with_capacity(count);
        let mut at = 12usize;
        for _ in 0..count {
            let flags = u16::from_be_bytes(bytes.get(at + 60..at + 62)?.try_into().ok()?);
            let extended = flags & 0x4000 != 0;
            if extended && version < 3 {
                return None;
            }
            let name_at = at + 62 + if extended { 2 } else { 0 };
            let name_len = match usize::from(flags & 0x0fff) {
                0x0fff => bytes.get(name_at..end)?.iter().position(|b| *b == 0)?,
                n => n,
            };
            if bytes.get(name_at + name_len) != Some(&0) {
                return None;
            }
            let start = u32::try_from(at).ok()?;
            starts.push((start, u32::try_from(name_at).ok()?, name_len as u32));
            // Padded with NULs to a multiple of eight bytes, at least one.
            at += (name_at - at + name_len + 8) & !7;
        }
        if at > end {
            return None;
        }
        let mut nodes = Vec::new();
        while at < end {
            let sig = bytes.get(at..at + 4)?;
            let size = be32(at + 4)? as usize;
            let data = bytes.get(at + 8..(at + 8).checked_add(size)?)?;
            if sig == b"TREE" {
                let mut pos = 0;
                if !data.is_empty() {
                    parse_tree(data, &mut pos, &mut nodes)?;
                }
            } else if !sig[0].is_ascii_uppercase() {
                return None;
            }
            at += 8 + size;
        }
        Some(RawIndex {
            bytes,
            extended: version >= 3,
            starts,
            nodes,
        })
    }

    fn path(&self, k: usize) -> &'a [u8] {
        let (_, name_at, len) = self.starts[k];
        &self.bytes[name_at as usize..(name_at + len) as usize]
    }

    fn flags(&self, at: usize) -> u16 {
        u16::from_be_bytes([self.bytes[at + 60], self.bytes[at + 61]])
    }

    fn get(&self, k: usize) -> Ent<'a> {
        let at = self.starts[k].0 as usize;
        let b = self.bytes;
        let flags = self.flags(at);
        let ext = if self.extended && flags & 0x4000 != 0 {
            u16::from_be_bytes([b[at + 62], b[at + 63]])
        } else {
            0
        };
        let mut id = [0u8; 20];
        id.copy_from_slice(&b[at + 40..at + 60]);
        Ent {
            path: self.path(k),
            id,
            mode: u32::from_be_bytes([b[at + 24], b[at + 25], b[at + 26], b[at + 27]]),
            stage: ((flags >> 12) & 3) as u8,
            intent: ext & 0x2000 != 0,
        }
    }
}

/// One cache-tree node and those below it, from `data` at `pos` (`name\0COUNT SUBTREES\n`, then
/// the tree id when COUNT is not -1), into `nodes`; returns its index.
fn parse_tree<'a>(data: &'a [u8], pos: &mut usize, nodes: &mut Vec<Node<'a>>) -> Option<usize> {
    let rest = data.get(*pos..)?;
    let nul = rest.iter().position(|b| *b == 0)?;
    let name = &rest[..nul];
    let line = &rest[nul + 1..];
    let eol = line.iter().position(|b| *b == b'\n')?;
    let (count, subtrees) = line[..eol].split_at(line[..eol].iter().position(|b| *b == b' ')?);
    // `-1` for a node that is not valid, else how many entries it covers.
    let valid = count != b"-1";
    let subtrees = decimal(&subtrees[1..])?;
    if valid {
        decimal(count)?;
    }
    *pos += nul + 1 + eol + 1;
    let id = if valid {
        let id: [u8; 20] = data.get(*pos..*pos + 20)?.try_into().ok()?;
        *pos += 20;
        Some(id)
    } else {
        None
    };
    let at = nodes.len();
    nodes.push(Node {
        name,
        id,
        subtrees,
        span: 1,
    });
    for _ in 0..subtrees {
        parse_tree(data, pos, nodes)?;
    }
    nodes[at].span = nodes.len() - at;
    Some(at)
}

/// A cache-tree node as [`Node`] holds it, its name owned: name, id, subtrees, span.
type OwnedNode = (Vec<u8>, Option<[u8; 20]>, usize, usize);

/// A decimal number written in ASCII digits, nothing else.
fn decimal(digits: &[u8]) -> Option<usize> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    digits.iter().try_fold(0usize, |n, d| {
        d.is_ascii_digit().then(|| n * 10 + usize::from(d - b'0'))
    })
}

/// gix's reading of the index (where [`RawIndex`] does not read it), in the same shapes.
struct Decoded {
    file: gix::index::File,
    /// The cache-tree's nodes, as [`Node`]s but owning their names.
    tree: Vec<OwnedNode>,
}

impl Decoded {
    fn of(file: gix::index::File) -> Decoded {
        fn flatten(t: &gix::index::extension::Tree, out: &mut Vec<OwnedNode>) {
            let at = out.len();
            let id = t.num_entries.and_then(|_| t.id.as_slice().try_into().ok());
            out.push((t.name.to_vec(), id, t.children.len(), 1));
            for child in &t.children {
                flatten(child, out);
            }
            out[at].3 = out.len() - at;
        }
        let mut tree = Vec::new();
        if let Some(root) = file.tree() {
            flatten(root, &mut tree);
        }
        Decoded { file, tree }
    }

    /// The cache-tree's nodes.
    fn nodes(&self) -> Vec<Node<'_>> {
        self.tree
            .iter()
            .map(|(name, id, subtrees, span)| Node {
                name,
                id: *id,
                subtrees: *subtrees,
                span: *span,
            })
            .collect()
    }
}

/// The index's entries, from either reading.
enum Entries<'a> {
    Raw(&'a RawIndex<'a>),
    Gix(&'a Decoded),
}

impl<'a> Entries<'a> {
    fn len(&self) -> usize {
        match self {
            Entries::Raw(raw) => raw.starts.len(),
            Entries::Gix(d) => d.file.entries().len(),
        }
    }

    fn path(&self, k: usize) -> &'a [u8] {
        match self {
            Entries::Raw(raw) => raw.path(k),
            Entries::Gix(d) => d.file.entries()[k].path(&d.file).as_ref(),
        }
    }

    fn get(&self, k: usize) -> Ent<'a> {
        match self {
            Entries::Raw(raw) => raw.get(k),
            Entries::Gix(d) => {
                let e = &d.file.entries()[k];
                Ent {
                    path: self.path(k),
                    id: e.id.as_slice().try_into().unwrap_or([0; 20]),
                    mode: e.mode.bits(),
                    stage: e.stage_raw() as u8,
                    intent: e.flags.intersects(
                        gix::index::entry::Flags::INTENT_TO_ADD | gix::index::entry::Flags::REMOVE,
                    ),
                }
            }
        }
    }
}

/// A file of the tree compared with: its path from the top of the work tree, id and kind.
struct BaseEntry {
    path: Vec<u8>,
    id: gix::ObjectId,
    kind: gix::objs::tree::EntryKind,
}

/// The files of a tree, leaving out the folders the index's cache-tree vouches for.
struct BaseWalk<'a, 'n, O> {
    objects: &'a O,
    loose: Loose,
    /// The index's cache-tree.
    nodes: &'a [Node<'n>],
    out: &'a mut Vec<BaseEntry>,
    same: &'a mut Vec<Vec<u8>>,
    buf: Vec<u8>,
}

impl<O: gix::objs::Find> BaseWalk<'_, '_, O> {
    /// The tree `id` at `prefix` (`""` or `a/b/`), beside `cache`, the cache-tree's node for
    /// the same folder: a valid node with the same id means the index holds this very tree.
    fn tree(
        &mut self,
        id: gix::ObjectId,
        prefix: &mut Vec<u8>,
        cache: Option<usize>,
    ) -> Result<(), String> {
        use gix::objs::FindExt;
        let node = cache.map(|k| &self.nodes[k]);
        if node.is_some_and(|n| n.id.is_some_and(|own| own.as_slice() == id.as_slice())) {
            self.same.push(prefix.clone());
            return Ok(());
        }
        // This tree's bytes stay put while its subtrees are read (into `self.buf`).
        let mut data = std::mem::take(&mut self.buf);
        let tree = match self.loose.read(&id, &mut data, u64::MAX, usize::MAX) {
            Found::Read(gix::object::Kind::Tree, _) => {
                gix::objs::TreeRefIter::from_bytes(&data, id.kind())
            }
            _ => self
                .objects
                .find_tree_iter(&id, &mut data)
                .map_err(|e| format!("tree {id}: {e}"))?,
        };
        // The cache-tree's children by name, to find each subtree's in one search (git keeps
        // them in its own order, shorter names first).
        let nodes = self.nodes;
        let mut kids: Vec<usize> = cache.map(|k| children(nodes, k)).unwrap_or_default();
        kids.sort_unstable_by(|a, b| nodes[*a].name.cmp(nodes[*b].name));
        for entry in tree.filter_map(Result::ok) {
            let name: &[u8] = entry.filename.as_ref();
            let at = prefix.len();
            prefix.extend_from_slice(name);
            if entry.mode.is_tree() {
                prefix.push(b'/');
                let child = kids
                    .binary_search_by(|k| nodes[*k].name.cmp(name))
                    .ok()
                    .map(|k| kids[k]);
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
            for from in 0..=len {
                for cut in from..=len {
                    assert_eq!(
                        gallop(from, len, |i| i < cut),
                        cut - from,
                        "len {len} from {from} cut {cut}"
                    );
                }
            }
        }
    }
}
