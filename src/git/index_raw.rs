//! git's index read in place for the commit hook (ADR-0018): its entries' paths, ids, modes and
//! stages, and its cache-tree, without decoding what the hook never reads (each entry's stat
//! data, the other extensions). Versions 2 and 3 only; a version 4 index (paths compressed), a
//! split index (`link`) or a sparse one (`sdir`), any extension git would require us to
//! understand, or anything malformed gives `None`, and gix reads the file instead.

use gix::index::extension::Tree;

/// One entry, as the staged comparison reads it.
pub(super) struct Entry<'a> {
    pub path: &'a [u8],
    pub id: [u8; 20],
    /// The mode as git writes it (`0o100644`, `0o120000`, `0o040000` for a sparse folder, …).
    pub mode: u32,
    /// 0 unconflicted, else the conflict stage.
    pub stage: u8,
    /// Added with `--intent-to-add`: not staged content.
    pub intent: bool,
}

/// The entries of the index file `bytes`, in its order, and its cache-tree's root.
pub(super) fn parse(bytes: &[u8]) -> Option<(Vec<Entry<'_>>, Option<Tree>)> {
    read(bytes, true)
}

/// The entries of the index file `bytes`, in its order, its cache-tree not decoded (listing
/// the files it tracks needs none): as [`parse`], but for a cache-tree it cannot read.
pub(super) fn parse_entries(bytes: &[u8]) -> Option<Vec<Entry<'_>>> {
    read(bytes, false).map(|(entries, _)| entries)
}

/// [`parse`], the cache-tree decoded only when `tree` asks.
fn read(bytes: &[u8], tree: bool) -> Option<(Vec<Entry<'_>>, Option<Tree>)> {
    let body = bytes.len().checked_sub(20)?;
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = be32(bytes, 4)?;
    if !(2..=3).contains(&version) {
        return None;
    }
    let count = be32(bytes, 8)? as usize;
    let mut entries = Vec::with_capacity(count.min(body / 62));
    let mut at = 12;
    for _ in 0..count {
        let mode = be32(bytes, at + 24)?;
        let id: [u8; 20] = bytes.get(at + 40..at + 60)?.try_into().ok()?;
        let flags = u16::from_be_bytes(bytes.get(at + 60..at + 62)?.try_into().ok()?);
        let mut path_at = at + 62;
        let mut intent = false;
        if flags & 0x4000 != 0 {
            if version < 3 {
                return None;
            }
            let extended = u16::from_be_bytes(bytes.get(at + 62..at + 64)?.try_into().ok()?);
            intent = extended & 0x2000 != 0;
            path_at += 2;
        }
        let len = match usize::from(flags & 0x0fff) {
            0x0fff => bytes.get(path_at..body)?.iter().position(|&b| b == 0)?,
            n => n,
        };
        let path = bytes.get(path_at..path_at + len)?;
        // The entry is padded with one to eight NULs to a multiple of eight bytes.
        let end = at + ((path_at - at + len + 8) & !7);
        if end > body {
            return None;
        }
        entries.push(Entry {
            path,
            id,
            mode,
            stage: ((flags >> 12) & 3) as u8,
            intent,
        });
        at = end;
    }
    let mut cache = None;
    while at < body {
        let signature = bytes.get(at..at + 4)?;
        let size = be32(bytes, at + 4)? as usize;
        let data = bytes.get(at + 8..(at + 8).checked_add(size)?)?;
        match signature {
            b"TREE" if tree => cache = Some(cache_tree(data)?),
            // Optional extensions start with a capital letter; a required one we cannot read.
            s if !s[0].is_ascii_uppercase() => return None,
            _ => {}
        }
        at += 8 + size;
    }
    (at == body).then_some((entries, cache))
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The cache-tree extension: each node's name, entry count (`-1` when invalid), subtree count
/// and, when valid, its id, parents before their subtrees.
fn cache_tree(data: &[u8]) -> Option<Tree> {
    let mut at = 0;
    let root = node(data, &mut at, 0)?;
    (at == data.len()).then_some(root)
}

fn node(data: &[u8], at: &mut usize, depth: usize) -> Option<Tree> {
    if depth > 4096 {
        return None;
    }
    let nul = data.get(*at..)?.iter().position(|&b| b == 0)?;
    let name = &data[*at..*at + nul];
    *at += nul + 1;
    let line = data.get(*at..)?.iter().position(|&b| b == b'\n')?;
    let counts = std::str::from_utf8(&data[*at..*at + line]).ok()?;
    *at += line + 1;
    let (entries, subtrees) = counts.split_once(' ')?;
    let entries: i64 = entries.parse().ok()?;
    let subtrees: usize = subtrees.parse().ok()?;
    let (num_entries, id) = if entries >= 0 {
        let id = gix::ObjectId::from_bytes_or_panic(data.get(*at..*at + 20)?);
        *at += 20;
        (Some(u32::try_from(entries).ok()?), id)
    } else {
        (None, gix::ObjectId::null(gix::hash::Kind::Sha1))
    };
    let mut children = Vec::with_capacity(subtrees.min(data.len()));
    for _ in 0..subtrees {
        children.push(node(data, at, depth + 1)?);
    }
    Some(Tree {
        name: name.into(),
        id,
        num_entries,
        children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::testing::git;
    use std::path::Path;

    fn same_tree(a: &Tree, b: &Tree) {
        assert_eq!((&a.name[..], a.num_entries), (&b.name[..], b.num_entries));
        if a.num_entries.is_some() {
            assert_eq!(a.id, b.id);
        }
        assert_eq!(a.children.len(), b.children.len());
        for (x, y) in a.children.iter().zip(&b.children) {
            same_tree(x, y);
        }
    }

    /// What this reads of the index git writes is what gix reads of it.
    fn agrees_with_gix(index: &Path) {
        let bytes = std::fs::read(index).unwrap();
        let (entries, tree) = parse(&bytes).expect("read in place");
        let file = super::super::staged::decode(index).unwrap();
        let theirs = super::super::staged::entries_of(&file);
        assert_eq!(entries.len(), theirs.len());
        for (a, b) in entries.iter().zip(&theirs) {
            assert_eq!(
                (a.path, a.id, a.mode, a.stage, a.intent),
                (b.path, b.id, b.mode, b.stage, b.intent)
            );
        }
        match (&tree, file.tree()) {
            (Some(a), Some(b)) => same_tree(a, b),
            (a, b) => assert_eq!(a.is_some(), b.is_some()),
        }
    }

    #[test]
    fn an_index_git_writes_reads_as_gix_reads_it_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        git(d, &["init", "-q", "-b", "main"], None);
        std::fs::create_dir_all(d.join("src/deep")).unwrap();
        std::fs::write(d.join("a.txt"), "a\n").unwrap();
        std::fs::write(d.join("src/b.rs"), "b\n").unwrap();
        std::fs::write(d.join("src/deep/c.sh"), "c\n").unwrap();
        let long = format!("src/{}/{}.txt", "m".repeat(200), "n".repeat(201));
        std::fs::create_dir_all(d.join(&long).parent().unwrap()).unwrap();
        std::fs::write(d.join(&long), "long\n").unwrap();
        git(d, &["add", "-A"], None);
        git(d, &["update-index", "--chmod=+x", "src/deep/c.sh"], None);
        git(d, &["commit", "-q", "-m", "one"], None);
        std::fs::write(d.join("src/b.rs"), "b2\n").unwrap();
        std::fs::write(d.join("new.txt"), "new\n").unwrap();
        git(d, &["add", "src/b.rs"], None);
        git(d, &["add", "-N", "new.txt"], None);
        let blob = "78981922613b2afb6025042ff6bd878ac1994e85";
        let conflict = format!("100644 {blob} 1\tboth.txt\n100644 {blob} 2\tboth.txt\n");
        git(d, &["update-index", "--index-info"], Some(&conflict));
        let index = d.join(".git/index");
        assert_eq!(&std::fs::read(&index).unwrap()[4..8], &[0, 0, 0, 3]);
        agrees_with_gix(&index);
        let bytes = std::fs::read(&index).unwrap();
        let (entries, tree) = parse(&bytes).unwrap();
        assert!(entries.iter().any(|e| e.intent && e.path == b"new.txt"));
        assert!(entries
            .iter()
            .any(|e| e.stage == 2 && e.path == b"both.txt"));
        assert!(entries.iter().any(|e| e.path == long.as_bytes()));
        assert!(entries.iter().any(|e| e.mode == 0o100755));
        assert!(
            tree.is_some_and(|t| t.num_entries.is_none()),
            "src/ changed: invalid"
        );
        git(d, &["update-index", "--index-version", "4"], None);
        assert!(
            parse(&std::fs::read(&index).unwrap()).is_none(),
            "v4: gix's"
        );
        git(d, &["update-index", "--index-version", "2"], None);
        git(d, &["rm", "-q", "--cached", "new.txt"], None);
        git(d, &["update-index", "--split-index"], None);
        assert!(
            parse(&std::fs::read(&index).unwrap()).is_none(),
            "split: gix's"
        );
        let mut cut = std::fs::read(&index).unwrap();
        cut.truncate(40);
        assert!(parse(&cut).is_none());
    }
}
