//! The history as plain data: commits, their canonical order, per-path commit lists and the
//! renames of record files. What `drift.rs` computes from and the index stores; no gix here
//! (ADR-0005).

use crate::governs::Pattern;
use std::cmp::Ordering as CmpOrdering;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A commit id, kept as its 20 bytes and written out as hex only where an answer shows it
/// (writing each commit's 40 hex characters into a string of its own was an eighth of reading
/// an answer's commits from the index). Ordered as its hex is (byte order is hex order), and
/// encoded as that hex, so what was written before reads back the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Sha(pub [u8; 20]);

impl Sha {
    /// The first 20 bytes of an object id's bytes (a SHA-1 id is all of them).
    pub fn from_bytes(bytes: &[u8]) -> Sha {
        let mut out = [0u8; 20];
        let n = bytes.len().min(20);
        out[..n].copy_from_slice(&bytes[..n]);
        Sha(out)
    }

    /// The first `len` hex characters (all 40 when `len` is longer).
    pub fn abbrev(&self, len: usize) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        // Only the characters kept, straight into the string (an answer abbreviates a
        // thousand shas: encoding all 40 and checking them as UTF-8 was a third of its drift).
        let len = len.min(40);
        let mut out = String::with_capacity(len);
        for at in 0..len {
            let byte = self.0[at / 2];
            let nibble = if at % 2 == 0 { byte >> 4 } else { byte & 15 };
            out.push(char::from(HEX[usize::from(nibble)]));
        }
        out
    }

    /// From 40 hex characters (either case); `None` for anything else.
    pub fn parse(hex: &str) -> Option<Sha> {
        let bytes = hex.as_bytes();
        if bytes.len() != 40 {
            return None;
        }
        let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
        let mut out = [0u8; 20];
        for (byte, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Sha(out))
    }
}

impl std::fmt::Display for Sha {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&sha_hex(&self.0))
    }
}

impl serde::Serialize for Sha {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&sha_hex(&self.0))
    }
}

impl<'de> serde::Deserialize<'de> for Sha {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Sha, D::Error> {
        let hex = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Sha::parse(&hex).ok_or_else(|| serde::de::Error::custom("a commit id is not 40 hex digits"))
    }
}

/// One commit reachable from HEAD.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommitMeta {
    /// Its id.
    pub sha: Sha,
    /// Committer time, seconds since the epoch (UTC).
    pub time: i64,
    /// Author name.
    pub author: Arc<str>,
    /// First line of the message.
    pub subject: Arc<str>,
    /// The formatted ids the whole message mentions (`ids::mentioned_ids`).
    pub mentions: Vec<String>,
    /// More than one parent (a shallow boundary commit has none).
    pub is_merge: bool,
}

impl CommitMeta {
    /// A commit's metadata from what git stores: its id, committer time, author name, whole
    /// message and number of parents.
    pub fn of(sha: Sha, time: i64, author: Arc<str>, message: &str, parents: usize) -> Self {
        CommitMeta {
            sha,
            time,
            author,
            subject: message.lines().next().unwrap_or("").trim().into(),
            mentions: crate::text::ids::mentioned_ids(message),
            is_merge: parents > 1,
        }
    }
}

/// The canonical order of commits: committer time descending (newest first), ties broken by
/// full sha ascending. It does not depend on how the history was walked, so a sparse
/// [`HistoryData`] lists its commits in the same relative order as the full one.
pub fn canonical_order(a: &CommitMeta, b: &CommitMeta) -> CmpOrdering {
    b.time.cmp(&a.time).then_with(|| a.sha.cmp(&b.sha))
}

/// A 20-byte object id as 40 lowercase hex characters.
pub fn sha_hex(id: &[u8; 20]) -> String {
    Sha(*id).abbrev(40)
}

/// A `.md` file renamed by a commit, paths relative to the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// Index into [`HistoryData::commits`].
    pub commit: u32,
    pub from: String,
    pub to: String,
}

/// What drift and citing commits are computed from: the whole history of HEAD ([`load`]), or a
/// sparse part of it (built by the index) holding at least the commits that touch the paths in
/// question or mention the ids in question. Both give the same answers (`drift::fill`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryData {
    /// Full hex id of HEAD.
    pub head: String,
    /// The repository is a shallow clone: history stops at its boundary.
    pub shallow: bool,
    /// How many commits HEAD reaches, whether or not `commits` holds them all. Sha abbreviations
    /// depend on it alone.
    pub total_commits: usize,
    /// Commits reachable from HEAD, in canonical order ([`canonical_order`]: newest first, ties
    /// by sha).
    pub commits: Vec<CommitMeta>,
    /// File path (relative to the root, `/`-separated) → indices into `commits` of the non-merge
    /// commits whose diff against their first parent added, modified or deleted it; ascending,
    /// which is newest first. A sorted map, so a folder is one range scan ([`HistoryData::under`]).
    pub by_path: BTreeMap<String, Vec<u32>>,
    /// Renames of `.md` files seen in the walk, in commit order (newest first), then by new path.
    pub renames: Vec<Rename>,
}

impl HistoryData {
    /// Whether a commit of this history touched a path `pattern` matches: the repository had
    /// such a path once (docs/reading.md).
    pub fn ever_had(&self, pattern: &Pattern) -> bool {
        self.under(pattern).next().is_some()
    }

    /// The newest commit (by index) that touched `path`, or, when no commit touched it as a
    /// file, a file in the folder it names: for a folder that is gone, the commit that deleted
    /// or moved the last of its files.
    pub fn newest_touching(&self, path: &str) -> Option<u32> {
        if let Some(list) = self.by_path.get(path) {
            return list.first().copied();
        }
        let folder = format!("{path}/");
        self.by_path
            .range(folder.clone()..)
            .take_while(|(p, _)| p.starts_with(&folder))
            .filter_map(|(_, list)| list.first().copied())
            .min()
    }

    /// The `(path, commit indices)` entries a governed entry matches (`governs`): one range
    /// scan from its literal prefix.
    pub fn under<'a>(
        &'a self,
        pattern: &'a Pattern<'a>,
    ) -> impl Iterator<Item = (&'a String, &'a Vec<u32>)> {
        let prefix = pattern.range_prefix();
        self.by_path
            .range(prefix.to_string()..)
            .take_while(move |(path, _)| path.starts_with(prefix))
            .filter(move |(path, _)| pattern.matches(path))
    }
}

/// What [`load`] found at the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The root is not inside a git work tree (or the repository is bare).
    NotARepo,
    /// The repository has no commits: an unborn HEAD.
    NoCommits,
    Ready(HistoryData),
}

/// One commit as the index stores it, as [`walk_new`] gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WalkedCommit {
    pub id: [u8; 20],
    /// Parents as git sees them: none for a root commit or a shallow boundary commit.
    pub parents: Vec<[u8; 20]>,
    pub meta: CommitMeta,
    /// Files the diff against the first parent (the empty tree for no parent) added, modified or
    /// deleted, relative to the WORK TREE top (not the root), sorted, each once. Empty for a
    /// merge commit.
    pub changes: Vec<String>,
    /// `.md` files renamed by this commit, `(from, to)`, relative to the work tree top, by `to`.
    pub renames: Vec<(String, String)>,
    /// How many bytes each of `changes` grew or shrank by, when the diff kept them
    /// ([`super::path_history::sizes_told`]); empty otherwise.
    pub sizes: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use gix::ObjectId;

    #[test]
    fn a_sha_is_written_as_git_writes_it() {
        let mut id = [0u8; 20];
        for (i, b) in id.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0xa5;
        }
        for id in [id, [0; 20], [255; 20]] {
            let git = ObjectId::from_bytes_or_panic(&id).to_string();
            assert_eq!(sha_hex(&id), git);
            let sha = Sha(id);
            assert_eq!(sha.to_string(), git);
            assert_eq!(sha.abbrev(9), git[..9]);
            assert_eq!(sha.abbrev(99), git);
            assert_eq!(Sha::parse(&git), Some(sha));
            assert_eq!(Sha::parse(&git.to_uppercase()), Some(sha));
            // Serialized as its hex, a string (as the id was before: a pending file written
            // then reads back).
            let json = serde_json::to_string(&sha).expect("serializes");
            assert_eq!(json, serde_json::to_string(&git).expect("serializes"));
            assert_eq!(serde_json::from_str::<Sha>(&json).ok(), Some(sha));
        }
        for bad in ["", "abc", &"g".repeat(40), &"0".repeat(41)] {
            assert_eq!(Sha::parse(bad), None, "{bad}");
        }
        // Ordered as the hex is.
        let (a, b) = (Sha([0x0f; 20]), Sha([0xf0; 20]));
        assert_eq!(a.cmp(&b), a.to_string().cmp(&b.to_string()));
    }

    #[test]
    fn folder_entries_are_range_scans() {
        let mut data = HistoryData::default();
        for (p, i) in [
            ("src/auth/a.rs", 0),
            ("src/auth/b/c.rs", 1),
            ("src/authz.rs", 2),
            ("src/auth", 3),
        ] {
            data.by_path.insert(p.to_string(), vec![i]);
        }
        let folder = Pattern::new("src/auth/");
        let under: Vec<&str> = data.under(&folder).map(|(p, _)| p.as_str()).collect();
        assert_eq!(under, ["src/auth/a.rs", "src/auth/b/c.rs"]);
        let file = Pattern::new("src/authz.rs");
        let file: Vec<&str> = data.under(&file).map(|(p, _)| p.as_str()).collect();
        assert_eq!(file, ["src/authz.rs"]);
    }
}
