//! Objects read straight from the pack files, each reader with a cache of decoded delta bases
//! (ADR-0005).
//!
//! gix decodes a deltified object by inflating its whole chain down to a full base and caches
//! only the object asked for, never the bases decoded on the way; a history walk asks for each
//! version of a tree in an order the chains do not follow, so it decodes the same chain links
//! again and again (on git/git about 3.5 per tree). Like git's delta base cache, this reader
//! keeps every tree it decodes, the intermediate ones too, so each link of a chain is inflated
//! and applied about once. Anything it cannot read (a loose object, an alternate, an odd entry)
//! goes to gix's object store, which reads it or says what is wrong.

use super::loose::{Found, Loose};
use super::ring::{Ring, Slot};
use gix::hash::oid;
use gix::objs::Kind;
use gix::odb::pack;
use std::cell::RefCell;

/// The repository's pack files, opened once (when first needed) and shared by every reader
/// (one mapping each: the pages a walk touches count once in its memory); a reader made with
/// [`Reader::releasing`] maps the pack files (not their indexes) itself.
pub(super) struct Packs {
    bundles: std::sync::OnceLock<Vec<Option<pack::Bundle>>>,
    /// The `.idx` files found when the packs were first opened.
    paths: std::sync::OnceLock<Vec<std::path::PathBuf>>,
    objects: std::path::PathBuf,
    hash: gix::hash::Kind,
    /// How many more objects are looked for as loose files first (see [`Packs::open`]).
    loose_first: std::sync::atomic::AtomicUsize,
}

impl Packs {
    /// Every `objects/pack/*.idx` with its pack, opened when an object is first looked for in
    /// them; one that does not open is left to gix. The first `loose_first` objects asked for
    /// are looked for as loose files before that: the few commits an index refresh walks were
    /// mostly just made, and opening a pack index reads all of its offsets (on a 20,000-commit
    /// history, a tenth of the work of a `why` after a new commit).
    pub(super) fn open(repo: &gix::ThreadSafeRepository, loose_first: usize) -> Packs {
        Packs {
            bundles: std::sync::OnceLock::new(),
            paths: std::sync::OnceLock::new(),
            objects: repo.objects_dir().to_path_buf(),
            hash: repo.to_thread_local().object_hash(),
            loose_first: loose_first.into(),
        }
    }

    fn bundles(&self) -> &[Option<pack::Bundle>] {
        self.bundles.get_or_init(|| self.open_bundles())
    }

    /// Unmaps the shared packs (the next read maps them again): the pages the walk touched no
    /// longer count in the process's memory while the diffs run.
    pub(super) fn release(&mut self) {
        self.bundles = std::sync::OnceLock::new();
    }

    /// Every `objects/pack/*.idx` with its pack, mapped now; `None` for one that does not
    /// open (left to gix). The list of packs is read once: a reader mapping them again
    /// ([`Reader::release`]) finds each at the same place, so its cache's keys (the pack's
    /// place, the offset) still name the same bytes, even if a repack ran meanwhile (a pack's
    /// name is its content's checksum; one gone since is left to gix).
    fn open_bundles(&self) -> Vec<Option<pack::Bundle>> {
        let paths = self.paths.get_or_init(|| pack_indexes(&self.objects));
        paths
            .iter()
            .map(|p| pack::Bundle::at(p, self.hash).ok())
            .collect()
    }

    /// Whether `id` is to be looked for as a loose object first: while the budget lasts.
    fn loose_first(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.loose_first
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// The `pack/*.idx` files under the `objects` folder `objects`, sorted (so that every run
/// reads them in the same order); none when the folder does not list.
pub(super) fn pack_indexes(objects: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(objects.join("pack"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "idx"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

/// How hard a reader works: `links / served` is the average number of pack entries (delta
/// links and full bases) decoded per object served, 1 when each object's base is cached.
#[derive(Default, Clone, Copy)]
pub(super) struct ReadStats {
    pub(super) links: u64,
    pub(super) served: u64,
}

/// One thread's reader: [`gix::objs::Find`] over the packs, with its own cache.
pub(super) struct Reader<'a> {
    packs: &'a Packs,
    /// This reader's own mappings of the pack files ([`Reader::releasing`]), by the place of
    /// their index among the shared ones; `None` inside: not mapped now. Without it the reader
    /// reads the shared ones. (The indexes stay shared: every lookup reads them.)
    own: Option<RefCell<Option<Vec<Option<pack::data::File>>>>>,
    fallback: &'a gix::Repository,
    state: RefCell<State>,
    /// The loose objects, read with one inflater (made when the first is asked for).
    loose: RefCell<Option<Loose>>,
}

struct State {
    cache: Ring,
    inflate: gix::zlib::Inflate,
    /// Delta instructions, inflated.
    delta: Vec<u8>,
    /// The object decoded last and the one being decoded (when not in the cache).
    current: Vec<u8>,
    next: Vec<u8>,
    /// The delta entries between the object asked for and its cached or full base.
    chain: Vec<pack::data::Entry>,
    stats: ReadStats,
}

/// Where the object decoded last is.
#[derive(Clone, Copy)]
enum At {
    Cache(Slot),
    Current,
}

/// Longest delta chain followed (git writes at most 4095 links); beyond it, gix reads.
const MAX_CHAIN: usize = 10_000;

impl<'a> Reader<'a> {
    /// A reader keeping up to `cache_bytes` of decoded trees; what is not in `packs` is read
    /// from `fallback`.
    pub(super) fn new(packs: &'a Packs, fallback: &'a gix::Repository, cache_bytes: usize) -> Self {
        Reader {
            packs,
            own: None,
            fallback,
            state: RefCell::new(State {
                cache: Ring::new(cache_bytes),
                inflate: Default::default(),
                delta: Vec::new(),
                current: Vec::new(),
                next: Vec::new(),
                chain: Vec::new(),
                stats: ReadStats::default(),
            }),
            loose: RefCell::new(None),
        }
    }

    /// A reader like [`Reader::new`] that maps the pack files itself, so that
    /// [`Reader::release`] can unmap them. A mapped page counts in the process's memory (its
    /// peak RSS) from the first read of it until the mapping goes, though the system keeps it
    /// in its page cache either way: a full walk of git/git touched 240 MiB of its pack that
    /// way (ADR-0006).
    pub(super) fn releasing(
        packs: &'a Packs,
        fallback: &'a gix::Repository,
        cache_bytes: usize,
    ) -> Self {
        Reader {
            own: Some(RefCell::new(None)),
            ..Reader::new(packs, fallback, cache_bytes)
        }
    }

    /// Unmaps this reader's own mappings of the pack files (the next read maps them again);
    /// the decoded objects it caches stay. Nothing for a reader of the shared ones.
    pub(super) fn release(&self) {
        if let Some(own) = &self.own {
            *own.borrow_mut() = None;
        }
    }

    pub(super) fn stats(&self) -> ReadStats {
        self.state.borrow().stats
    }

    /// Reads the loose object `id` into `out` with one inflater for all of them
    /// ([`super::loose`]; gix sets up a new one, window and all, for every loose object: the
    /// most of reading the few a refresh after a commit walks, issue 17). `None` when there is
    /// no such file or it does not read as one here: gix then reads it, or says what is wrong.
    fn read_loose(&self, id: &oid, out: &mut Vec<u8>) -> Option<Kind> {
        let mut loose = self.loose.borrow_mut();
        let loose = loose.get_or_insert_with(|| Loose::new(self.fallback));
        match loose.read(id, out, u64::MAX, usize::MAX) {
            Found::Read(kind, _) => Some(kind),
            Found::NotHere | Found::TooLarge => None,
        }
    }

    /// Reads `id` from the packs into `out`; `None` when it is not there or not readable here.
    fn read(&self, id: &oid, out: &mut Vec<u8>) -> Option<Kind> {
        let bundles = self.packs.bundles();
        let (bundle, p, offset) = bundles.iter().enumerate().find_map(|(p, b)| {
            let b = b.as_ref()?;
            super::find_id::lookup(&b.index, id)
                .map(|i| (b, p as u32, b.index.pack_offset_at_index(i)))
        })?;
        let mut own = self.own.as_ref().map(RefCell::borrow_mut);
        let data = match own.as_deref_mut() {
            Some(mapped) => mapped
                .get_or_insert_with(|| {
                    // Each pack file mapped again at its index's place (one gone since, after
                    // a repack, is left to gix: a pack's name is its content's checksum).
                    let hash = self.packs.hash;
                    bundles
                        .iter()
                        .map(|b| pack::data::File::at(b.as_ref()?.pack.path(), hash).ok())
                        .collect()
                })
                .get(p as usize)?
                .as_ref()?,
            None => &bundle.pack,
        };
        let state = &mut *self.state.borrow_mut();
        let (kind, at) = state.decode(&bundle.index, data, p, offset)?;
        state.stats.served += 1;
        out.clear();
        out.extend_from_slice(match at {
            At::Cache(slot) => state.cache.bytes(slot),
            At::Current => &state.current,
        });
        Some(kind)
    }
}

impl State {
    /// The object at `offset` in pack `p`: from the cache, or its chain followed down to a
    /// cached or full base and applied back up, every tree on the way cached.
    fn decode(
        &mut self,
        index: &pack::index::File,
        data: &pack::data::File,
        p: u32,
        offset: u64,
    ) -> Option<(Kind, At)> {
        self.chain.clear();
        let mut offset = offset;
        let (kind, mut at) = loop {
            if let Some((kind, slot)) = self.cache.get(p, offset) {
                break (kind, At::Cache(slot));
            }
            let entry = data.entry(offset).ok()?;
            offset = match entry.header {
                pack::data::entry::Header::OfsDelta { base_distance } => {
                    entry.checked_base_pack_offset(base_distance)?
                }
                pack::data::entry::Header::RefDelta { base_id } => {
                    let i = super::find_id::lookup(index, &base_id)?;
                    index.pack_offset_at_index(i)
                }
                header => {
                    let kind = header.as_kind()?;
                    let size = usize::try_from(entry.decompressed_size).ok()?;
                    self.stats.links += 1;
                    // A tree the cache keeps is inflated where it is kept, not copied there.
                    let kept = (kind == Kind::Tree).then(|| self.cache.reserve(size));
                    if let Some(slot) = kept.flatten() {
                        data.decompress_entry(
                            &entry,
                            &mut self.inflate,
                            self.cache.bytes_mut(slot),
                        )
                        .ok()?;
                        self.cache.commit(p, offset, kind, slot);
                        break (kind, At::Cache(slot));
                    }
                    self.current.resize(size, 0);
                    data.decompress_entry(&entry, &mut self.inflate, &mut self.current)
                        .ok()?;
                    break (kind, self.keep(kind, p, offset));
                }
            };
            self.chain.push(entry);
            if self.chain.len() > MAX_CHAIN {
                return None;
            }
        };
        while let Some(entry) = self.chain.pop() {
            let size = usize::try_from(entry.decompressed_size).ok()?;
            self.delta.resize(size, 0);
            data.decompress_entry(&entry, &mut self.inflate, &mut self.delta)
                .ok()?;
            self.stats.links += 1;
            at = self.apply(kind, p, entry.pack_offset(), at)?;
        }
        Some((kind, at))
    }

    /// Applies the delta in `self.delta` to the object at `at`: a tree the cache keeps is
    /// written where it is kept, unless that is where its base is; anything else into
    /// `current`, and kept from there.
    fn apply(&mut self, kind: Kind, p: u32, offset: u64, at: At) -> Option<At> {
        let (base_size, size, instructions) = delta_header(&self.delta)?;
        let base_slot = match at {
            At::Cache(slot) => Some(slot),
            At::Current => None,
        };
        let clear = |slot: Slot| base_slot.is_none_or(|base| !Ring::overlap(base, slot));
        if kind == Kind::Tree && self.cache.place(size).is_some_and(clear) {
            let slot = self.cache.reserve(size)?;
            let (base, out) = match base_slot {
                Some(base) => self.cache.split(base, slot)?,
                None => (&self.current[..], self.cache.bytes_mut(slot)),
            };
            if base.len() != base_size {
                return None;
            }
            apply_delta_into(base, instructions, out)?;
            self.cache.commit(p, offset, kind, slot);
            return Some(At::Cache(slot));
        }
        let base = match at {
            At::Cache(slot) => self.cache.bytes(slot),
            At::Current => &self.current,
        };
        apply_delta(base, &self.delta, &mut self.next)?;
        std::mem::swap(&mut self.current, &mut self.next);
        Some(self.keep(kind, p, offset))
    }

    /// Caches `current` (a tree) and says where it is now.
    fn keep(&mut self, kind: Kind, p: u32, offset: u64) -> At {
        if kind != Kind::Tree {
            return At::Current;
        }
        match self.cache.put(p, offset, kind, &self.current) {
            Some(slot) => At::Cache(slot),
            None => At::Current,
        }
    }
}

impl gix::objs::Find for Reader<'_> {
    fn try_find<'b>(
        &self,
        id: &oid,
        buffer: &'b mut Vec<u8>,
    ) -> gix::error::Result<Option<gix::objs::Data<'b>>> {
        if self.packs.loose_first() {
            if let Some(kind) = self.read_loose(id, buffer) {
                return Ok(Some(gix::objs::Data::new(buffer, kind, self.packs.hash)));
            }
        }
        match self.read(id, buffer) {
            Some(kind) => Ok(Some(gix::objs::Data::new(buffer, kind, self.packs.hash))),
            None => self.fallback.objects.try_find(id, buffer),
        }
    }
}

/// A size in a delta header: 7 bits a byte, least significant first.
fn delta_size(d: &mut &[u8]) -> Option<usize> {
    let mut size = 0usize;
    let mut shift = 0;
    loop {
        let (&b, rest) = d.split_first()?;
        *d = rest;
        size |= usize::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(size);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

/// A delta's header: the sizes of its base and of its result, and its instructions.
fn delta_header(delta: &[u8]) -> Option<(usize, usize, &[u8])> {
    let mut d = delta;
    let base = delta_size(&mut d)?;
    let size = delta_size(&mut d)?;
    Some((base, size, d))
}

/// Applies git's delta instructions to `base` into `out`; `None` on anything malformed.
fn apply_delta(base: &[u8], delta: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let (base_size, size, instructions) = delta_header(delta)?;
    if base_size != base.len() {
        return None;
    }
    out.clear();
    out.resize(size, 0);
    apply_delta_into(base, instructions, out)
}

/// Applies a delta's `instructions` to `base`, filling `out` (the result's size) exactly;
/// `None` on anything malformed.
fn apply_delta_into(base: &[u8], instructions: &[u8], out: &mut [u8]) -> Option<()> {
    let mut d = instructions;
    let mut at = 0usize;
    while let Some((&cmd, rest)) = d.split_first() {
        d = rest;
        if cmd & 0x80 != 0 {
            let mut from = 0usize;
            let mut len = 0usize;
            for i in 0..4 {
                if cmd & (1 << i) != 0 {
                    let (&b, rest) = d.split_first()?;
                    d = rest;
                    from |= usize::from(b) << (8 * i);
                }
            }
            for i in 0..3 {
                if cmd & (0x10 << i) != 0 {
                    let (&b, rest) = d.split_first()?;
                    d = rest;
                    len |= usize::from(b) << (8 * i);
                }
            }
            if len == 0 {
                len = 0x10000;
            }
            out.get_mut(at..at.checked_add(len)?)?
                .copy_from_slice(base.get(from..from.checked_add(len)?)?);
            at += len;
        } else if cmd != 0 {
            let len = usize::from(cmd);
            if d.len() < len {
                return None;
            }
            let (literal, rest) = d.split_at(len);
            out.get_mut(at..at + len)?.copy_from_slice(literal);
            at += len;
            d = rest;
        } else {
            return None;
        }
    }
    (at == out.len()).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_copies_and_inserts() {
        let base = b"hello, world";
        let apply = |base: &[u8], delta: &[u8]| {
            let mut out = Vec::new();
            apply_delta(base, delta, &mut out).map(|()| out)
        };
        // base size 12, result size 12; copy 7 bytes from 0, insert "there".
        let mut delta = vec![12, 12, 0x80 | 0x10, 7, 5];
        delta.extend_from_slice(b"there");
        assert_eq!(apply(base, &delta).as_deref(), Some(&b"hello, there"[..]));
        // A wrong base size, a copy past the base, a zero command: refused.
        assert_eq!(apply(b"short", &delta), None);
        assert_eq!(apply(base, &[12, 20, 0x80 | 0x01 | 0x10, 10, 20]), None);
        assert_eq!(apply(base, &[12, 1, 0]), None);
    }

    /// Every object of a repository whose trees are deltas of each other reads as gix reads
    /// it, in any order, whatever the cache's size: trees inflated and deltas applied where
    /// the cache keeps them, next to their bases or wrapping around over them.
    #[test]
    fn every_object_reads_as_gix_reads_it_with_caches_of_every_size() {
        use gix::objs::Find;
        let Some(dir) = crate::git::testing::new_repo() else {
            return;
        };
        let git = |args: &[&str]| crate::git::testing::git(dir.path(), args, None);
        for i in 0..60 {
            let folder = dir.path().join(format!("src/m{}/deep{}", i % 5, i % 2));
            std::fs::create_dir_all(&folder).unwrap();
            for f in 0..8 {
                std::fs::write(
                    folder.join(format!("file-with-a-long-name-{f}")),
                    format!("{i}{f}\n"),
                )
                .unwrap();
            }
            git(&["add", "-A"]);
            git(&["commit", "-q", "-m", &format!("c{i}")]);
        }
        git(&["gc", "-q", "--aggressive"]);
        let sync = gix::ThreadSafeRepository::open(dir.path()).unwrap();
        let repo = sync.to_thread_local();
        let idx = pack_indexes(&dir.path().join(".git/objects"));
        let index = pack::index::File::at(&idx[0], gix::hash::Kind::Sha1).unwrap();
        let mut ids: Vec<gix::ObjectId> = (0..index.num_objects())
            .map(|i| index.oid_at_index(i).to_owned())
            .collect();
        let mut trees = 0;
        for cap in [512, 4096, 1 << 20] {
            for order in 0..2 {
                if order == 1 {
                    ids.reverse();
                }
                let packs = Packs::open(&sync, 0);
                let reader = Reader::new(&packs, &repo, cap);
                let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                for id in &ids {
                    let a = reader.try_find(id, &mut ours).unwrap().unwrap();
                    let b = repo.objects.try_find(id, &mut theirs).unwrap().unwrap();
                    assert_eq!((a.kind, a.data), (b.kind, b.data), "{id}, a cache of {cap}");
                    trees += usize::from(a.kind == Kind::Tree);
                }
                // Read here, not by gix.
                assert!(reader.stats().links > 0);
            }
        }
        assert!(trees > 300, "{trees} trees read");
    }
}
