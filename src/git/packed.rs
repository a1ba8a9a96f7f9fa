//! A few objects read from the pack files without opening gix (issue 41): a commit hook reads
//! HEAD's trees along the staged paths and a blob or two, and after a clone, a `git gc`, or in
//! any folder no commit has touched since, those are packed. gix's object store opens a pack
//! index by checking its whole table of offsets (on git/git, 1.4 MB read and 4.7 M
//! instructions, a third of the hook's work) and reads the repository's configuration first.
//! Here an index is read where a lookup needs it: its fan-out, the ids of one fan-out bucket
//! and one offset, each read bounded by the file's size; an object up to 16 KiB read is hashed
//! to check it is the one asked for. Only version 2 indexes of SHA-1 ids are read; anything else (another version, an alternate, an object not found, an entry
//! that does not decode) is left to gix, so every error stays gix's.

use gix::objs::Kind;
use gix::odb::pack;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// Bytes of a SHA-1 id.
const ID: usize = 20;
/// An index's header: the signature and the version.
const HEADER: u64 = 8;
/// The fan-out table: 256 counts.
const FANOUT: u64 = 256 * 4;
/// Objects up to this size are hashed to check they are the one asked for.
const CHECKED_BYTES: usize = 16 * 1024;

/// The pack files of one object store, each opened on first need.
pub struct Packed {
    dir: PathBuf,
    packs: OnceCell<Vec<Pack>>,
    inflate: std::cell::RefCell<gix::zlib::Inflate>,
}

/// One pack: its index, read in place, and its data, mapped on first need.
struct Pack {
    idx: std::fs::File,
    /// The objects before each first byte's bucket ends (the fan-out).
    fanout: Box<[u32; 256]>,
    idx_len: u64,
    pack: PathBuf,
    data: OnceCell<Option<pack::data::File>>,
}

impl Packed {
    /// The packs under the `objects` folder `dir`.
    pub fn at(dir: &Path) -> Packed {
        Packed {
            dir: dir.to_path_buf(),
            packs: OnceCell::new(),
            inflate: Default::default(),
        }
    }

    fn packs(&self) -> &[Pack] {
        self.packs.get_or_init(|| {
            super::packs::pack_indexes(&self.dir)
                .iter()
                .filter_map(|p| Pack::open(p))
                .collect()
        })
    }

    /// The object `id`, its data into `out`: `None` when it is not in these packs as a
    /// version 2 index names it, or does not decode here (gix then reads it, or says what is
    /// wrong).
    pub fn read(&self, id: &gix::oid, out: &mut Vec<u8>) -> Option<Kind> {
        self.read_within(id, out, u64::MAX)
    }

    /// [`Packed::read`] of an object no larger than `limit` bytes (its size read from the
    /// entries' headers first, nothing inflated past them); `None` for a larger one.
    pub fn read_within(&self, id: &gix::oid, out: &mut Vec<u8>, limit: u64) -> Option<Kind> {
        if id.as_bytes().len() != ID {
            return None;
        }
        let packs = self.packs();
        let (pack, offset) = packs
            .iter()
            .find_map(|p| p.offset_of(id.as_bytes()).map(|o| (p, o)))?;
        let data = pack.data()?;
        let entry = data.entry(offset).ok()?;
        // A base named by its id (a delta against an object elsewhere in the same pack).
        let resolve = |base: &gix::oid, _: &mut Vec<u8>| {
            Ok(pack
                .offset_of(base.as_bytes())
                .and_then(|o| data.entry(o).ok())
                .map(pack::data::decode::entry::ResolvedBase::InPack))
        };
        let mut inflate = self.inflate.borrow_mut();
        if limit != u64::MAX {
            let by_id = |base: &gix::oid| {
                Ok(pack
                    .offset_of(base.as_bytes())
                    .and_then(|o| data.entry(o).ok())
                    .map(pack::data::decode::header::ResolvedBase::InPack))
            };
            let header = data
                .decode_header(entry.clone(), &mut inflate, &by_id)
                .ok()?;
            if header.object_size > limit {
                return None;
            }
        }
        let outcome = data
            .decode_entry(entry, out, &mut inflate, &resolve, &mut pack::cache::Never)
            .ok()?;
        out.truncate(outcome.object_size.try_into().ok()?);
        // An index damaged where no size check looks (an offset pointing to another object)
        // would give another object's bytes. Trees and commits, and blobs as small, must hash
        // to `id`; a larger blob is trusted as git and gix trust a pack's index (hashing an
        // 80 KB blob cost as much as the check of the index's offsets this module spares).
        if out.len() <= CHECKED_BYTES {
            let hashed = gix::objs::compute_hash(gix::hash::Kind::Sha1, outcome.kind, out).ok()?;
            if hashed.as_ref() != id {
                return None;
            }
        }
        Some(outcome.kind)
    }
}

/// The objects a commit hook reads without gix: each looked for among the loose objects
/// first (one zlib state for all), then in the packs.
pub struct Plain {
    pub loose: super::loose::Loose,
    pub packed: Packed,
}

impl Plain {
    /// The loose and packed objects of `repo`'s object store.
    pub fn of_repo(repo: &super::Repo) -> Result<Plain, super::HistoryError> {
        let dir = repo.objects_dir()?;
        Ok(Plain {
            packed: Packed::at(&dir),
            loose: super::loose::Loose::at(dir),
        })
    }

    /// The whole object `id` into `out`, loose or packed; `None` when neither reads it here
    /// (gix then reads it, or says what is wrong).
    pub fn read(&mut self, id: &gix::oid, out: &mut Vec<u8>) -> Option<Kind> {
        use super::loose::Found;
        match self.loose.read(id, out, u64::MAX, usize::MAX) {
            Found::Read(kind, _) => Some(kind),
            Found::NotHere | Found::TooLarge => self.packed.read(id, out),
        }
    }
}

impl Pack {
    /// A version 2 index at `path` beside its pack; `None` for anything else.
    fn open(path: &Path) -> Option<Pack> {
        let idx = std::fs::File::open(path).ok()?;
        let idx_len = idx.metadata().ok()?.len();
        let mut head = vec![0u8; (HEADER + FANOUT) as usize];
        read_at(&idx, &mut head, 0, idx_len)?;
        if head[..8] != [0xff, b't', b'O', b'c', 0, 0, 0, 2] {
            return None;
        }
        let mut fanout = Box::new([0u32; 256]);
        for (k, count) in fanout.iter_mut().enumerate() {
            let at = HEADER as usize + 4 * k;
            *count = u32::from_be_bytes(head[at..at + 4].try_into().ok()?);
        }
        // Counts never fall, and the table the last one sizes fits in the file.
        if fanout.windows(2).any(|w| w[0] > w[1])
            || HEADER + FANOUT + u64::from(fanout[255]) * (ID as u64 + 8) > idx_len
        {
            return None;
        }
        Some(Pack {
            idx,
            fanout,
            idx_len,
            pack: path.with_extension("pack"),
            data: OnceCell::new(),
        })
    }

    fn count(&self) -> u64 {
        u64::from(self.fanout[255])
    }

    /// Where in the pack the object `id` starts: its bucket's ids read and searched, then its
    /// offset (a large one from the table after the offsets).
    fn offset_of(&self, id: &[u8]) -> Option<u64> {
        let first = usize::from(id[0]);
        let from = if first == 0 {
            0
        } else {
            self.fanout[first - 1]
        };
        let to = self.fanout[first];
        if from >= to {
            return None;
        }
        let mut ids = vec![0u8; (to - from) as usize * ID];
        let ids_at = HEADER + FANOUT + u64::from(from) * ID as u64;
        read_at(&self.idx, &mut ids, ids_at, self.idx_len)?;
        let at = ids
            .chunks_exact(ID)
            .collect::<Vec<_>>()
            .binary_search(&id)
            .ok()?;
        let n = u64::from(from) + at as u64;
        // After the ids: a CRC for each, then a 4-byte offset for each.
        let mut word = [0u8; 4];
        let offsets_at = HEADER + FANOUT + self.count() * (ID as u64 + 4);
        read_at(&self.idx, &mut word, offsets_at + 4 * n, self.idx_len)?;
        let small = u32::from_be_bytes(word);
        if small & 0x8000_0000 == 0 {
            return Some(u64::from(small));
        }
        let mut large = [0u8; 8];
        let large_at = offsets_at + 4 * self.count() + 8 * u64::from(small & 0x7fff_ffff);
        read_at(&self.idx, &mut large, large_at, self.idx_len)?;
        Some(u64::from_be_bytes(large))
    }

    fn data(&self) -> Option<&pack::data::File> {
        self.data
            .get_or_init(|| pack::data::File::at(&self.pack, gix::hash::Kind::Sha1).ok())
            .as_ref()
    }
}

/// Fills `buf` from `file` at `at`, when the bytes are all within its `len`.
fn read_at(file: &std::fs::File, buf: &mut [u8], at: u64, len: u64) -> Option<()> {
    if at.checked_add(buf.len() as u64)? > len {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, at).ok()
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = file;
        file.seek(SeekFrom::Start(at)).ok()?;
        file.read_exact(buf).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::testing::{git, has_git};
    use gix::objs::Find;

    /// A repository with a few commits, packed by git (`git gc`), a large file among them so
    /// some objects are deltas.
    fn packed_repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let git = |args: &[&str]| git(dir.path(), args, None);
        git(&["init", "-q", "-b", "main"]);
        for n in 0..6 {
            let mut text = String::new();
            for line in 0..800 {
                text.push_str(&format!("line {line} of a long file, version {}\n", n / 2));
            }
            text.push_str(&format!("and the end {n}\n"));
            std::fs::create_dir_all(dir.path().join(format!("src/m{}", n % 3))).unwrap();
            std::fs::write(dir.path().join("src/big.txt"), &text).unwrap();
            std::fs::write(
                dir.path().join(format!("src/m{}/f.rs", n % 3)),
                format!("// {n}\n"),
            )
            .unwrap();
            git(&["add", "-A"]);
            git(&["commit", "-q", "-m", &format!("Commit {n}")]);
        }
        git(&["gc", "-q", "--aggressive"]);
        dir
    }

    #[test]
    fn every_packed_object_reads_as_gix_reads_it() {
        if !has_git() {
            return;
        }
        let dir = packed_repo();
        let repo = gix::open(dir.path()).expect("gix opens it");
        let packed = Packed::at(&dir.path().join(".git/objects"));
        let mut ids = Vec::new();
        for id in repo.objects.iter().expect("objects listed").flatten() {
            ids.push(id);
        }
        assert!(
            ids.len() > 20,
            "the test repository has objects: {}",
            ids.len()
        );
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for id in &ids {
            let kind = packed
                .read(id, &mut ours)
                .expect("every packed object reads");
            let data = repo.objects.try_find(id, &mut theirs).unwrap().unwrap();
            assert_eq!(kind, data.kind, "{id}");
            assert_eq!(ours, data.data, "{id}");
            let within = packed.read_within(id, &mut ours, 1000);
            assert_eq!(
                within.is_some(),
                data.data.len() <= 1000,
                "{id}: the limit holds"
            );
        }
        let missing = gix::ObjectId::from_hex(b"0123456789012345678901234567890123456789").unwrap();
        assert!(packed.read(&missing, &mut ours).is_none());
    }

    #[test]
    fn a_damaged_index_reads_nothing_and_never_panics() {
        if !has_git() {
            return;
        }
        let dir = packed_repo();
        let objects = dir.path().join(".git/objects");
        let repo = gix::open(dir.path()).expect("gix opens it");
        let ids: Vec<gix::ObjectId> = repo.objects.iter().unwrap().flatten().collect();
        let idx = std::fs::read_dir(objects.join("pack"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "idx"))
            .expect("an index");
        let whole = std::fs::read(&idx).unwrap();
        // Cut short at many places, and with bytes flipped through it.
        let mut damaged: Vec<Vec<u8>> = (0..whole.len())
            .step_by(97)
            .map(|n| whole[..n].to_vec())
            .collect();
        for at in (0..whole.len()).step_by(61) {
            let mut bytes = whole.clone();
            bytes[at] ^= 0xff;
            damaged.push(bytes);
        }
        let truth: Vec<(gix::ObjectId, Kind, Vec<u8>)> = ids
            .iter()
            .map(|id| {
                let mut buf = Vec::new();
                let data = repo.objects.try_find(id, &mut buf).unwrap().unwrap();
                (*id, data.kind, data.data.to_vec())
            })
            .collect();
        let mut out = Vec::new();
        let mut read = 0;
        for bytes in damaged {
            let mut perms = std::fs::metadata(&idx).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&idx, perms).unwrap();
            std::fs::write(&idx, &bytes).unwrap();
            let packed = Packed::at(&objects);
            for (id, kind, data) in &truth {
                // Whatever it reads up to the checked size is the object asked for; a larger
                // blob is trusted as git trusts the index (never a panic either way).
                if let Some(got) = packed.read(id, &mut out) {
                    if out.len() <= CHECKED_BYTES {
                        assert_eq!((got, &out), (*kind, data), "{id}");
                    }
                    read += 1;
                }
            }
        }
        assert!(
            read > 0,
            "a flipped byte outside what a lookup reads leaves objects readable"
        );
    }
}
