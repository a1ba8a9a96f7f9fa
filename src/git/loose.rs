//! Loose objects read with one zlib state for all of them (issue 17): gix's object store makes
//! a new one for every object it reads, which costs a commit hook more than inflating the few
//! small trees and the blob it reads (right after a commit, HEAD's commit and trees are loose).
//! Whatever is not a plain loose object here (packed, in an alternate, unreadable) is left to
//! gix, so every answer and every error stays gix's.

use std::path::PathBuf;

/// What [`Loose::read`] found.
pub enum Found {
    /// Not a loose object that could be read here: ask gix's object store.
    NotHere,
    /// A loose object larger than the limit given: not inflated.
    TooLarge,
    /// A loose object of that kind and size, its data (or the first bytes asked for) in the
    /// buffer given.
    Read(gix::object::Kind, u64),
}

/// The loose objects of one object store, read with one zlib state.
pub struct Loose {
    /// The store's `objects` folder.
    dir: PathBuf,
    inflate: gix::zlib::Inflate,
    /// The compressed object last read.
    raw: Vec<u8>,
}

/// Room for a loose object's header (`commit 18446744073709551615\0` and then some).
const HEADER: usize = 64;

impl Loose {
    /// The loose objects of `repo`'s object store.
    pub fn new(repo: &gix::Repository) -> Loose {
        Loose::at(repo.objects.store_ref().path().to_path_buf())
    }

    /// The loose objects under the `objects` folder `dir`.
    pub(super) fn at(dir: PathBuf) -> Loose {
        Loose {
            dir,
            inflate: gix::zlib::Inflate::default(),
            raw: Vec::new(),
        }
    }

    /// The loose object `id`, its data into `out` unless it is larger than `limit` bytes; only
    /// its first `keep` bytes are inflated.
    pub fn read(&mut self, id: &gix::oid, out: &mut Vec<u8>, limit: u64, keep: usize) -> Found {
        self.read_inner(id, out, limit, keep)
            .unwrap_or(Found::NotHere)
    }

    fn read_inner(
        &mut self,
        id: &gix::oid,
        out: &mut Vec<u8>,
        limit: u64,
        keep: usize,
    ) -> Option<Found> {
        let hex = id.to_hex().to_string();
        let mut path = self.dir.clone();
        path.push(&hex[..2]);
        path.push(&hex[2..]);
        use std::io::Read;
        let mut file = std::fs::File::open(&path).ok()?;
        self.raw.clear();
        file.read_to_end(&mut self.raw).ok()?;
        if self.raw.is_empty() {
            return None;
        }
        self.inflate.reset();
        let mut header = [0u8; HEADER];
        let (status, used_in, written) = self.inflate.prefix(&self.raw, &mut header).ok()?;
        if status == gix::zlib::Status::BufError {
            return None;
        }
        let (kind, size, header_size) = gix::objs::decode::loose_header(&header[..written]).ok()?;
        if size > limit {
            return Some(Found::TooLarge);
        }
        // zlib inflates at most about 1,032 to 1: a header saying more is not believed (gix
        // reads the object and says what is wrong) rather than given its memory.
        if size > (self.raw.len() as u64).saturating_mul(1032) {
            return None;
        }
        let full = size;
        let size = usize::try_from(size).ok()?;
        let held = written.checked_sub(header_size)?;
        if held > size || (status == gix::zlib::Status::StreamEnd && held != size) {
            return None;
        }
        // What is asked for: the whole object, or its first `keep` bytes.
        let size = size.min(keep.max(held));
        if status == gix::zlib::Status::StreamEnd || held == size {
            out.clear();
            out.extend_from_slice(&header[header_size..written]);
        } else {
            let n = self
                .inflate
                .rest(
                    &self.raw[used_in..],
                    &header[..written],
                    header_size,
                    out,
                    size,
                )
                .ok()?;
            if n != size {
                return None;
            }
        }
        Some(Found::Read(kind, full))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Writes `raw` (header and data), compressed, as the loose object named `hex`.
    fn put(dir: &std::path::Path, hex: &str, raw: &[u8]) {
        let mut z =
            gix::zlib::stream::deflate::Write::new(Vec::new(), gix::zlib::Compression::DEFAULT);
        z.write_all(raw).unwrap();
        z.flush().unwrap();
        let folder = dir.join(&hex[..2]);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(&hex[2..]), z.into_inner()).unwrap();
    }

    fn id(hex: &str) -> gix::ObjectId {
        gix::ObjectId::from_hex(hex.as_bytes()).unwrap()
    }

    #[test]
    fn a_header_claiming_more_than_zlib_can_inflate_is_left_to_gix() {
        let tmp = tempfile::tempdir().unwrap();
        let (good, bad) = (
            "1111111111111111111111111111111111111111",
            "2222222222222222222222222222222222222222",
        );
        put(tmp.path(), good, b"blob 3\0abc");
        // 100 GB claimed by a file of a few bytes: not believed, nor allocated.
        put(tmp.path(), bad, b"blob 100000000000\0abc");
        let mut loose = Loose::at(tmp.path().to_path_buf());
        let mut out = Vec::new();
        match loose.read(&id(good), &mut out, u64::MAX, usize::MAX) {
            Found::Read(kind, size) => {
                assert_eq!((kind, size), (gix::object::Kind::Blob, 3));
                assert_eq!(out, b"abc");
            }
            _ => panic!("a plain loose blob is read here"),
        }
        assert!(matches!(
            loose.read(&id(good), &mut out, 2, usize::MAX),
            Found::TooLarge
        ));
        assert!(matches!(
            loose.read(&id(bad), &mut out, u64::MAX, usize::MAX),
            Found::NotHere
        ));
    }
}
