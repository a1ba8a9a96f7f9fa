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
use gix::hash::oid;
use gix::objs::Kind;
use gix::odb::pack;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

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
                    self.current
                        .resize(usize::try_from(entry.decompressed_size).ok()?, 0);
                    data.decompress_entry(&entry, &mut self.inflate, &mut self.current)
                        .ok()?;
                    self.stats.links += 1;
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
            let base = match at {
                At::Cache(slot) => self.cache.bytes(slot),
                At::Current => &self.current,
            };
            apply_delta(base, &self.delta, &mut self.next)?;
            std::mem::swap(&mut self.current, &mut self.next);
            at = self.keep(kind, p, entry.pack_offset());
        }
        Some((kind, at))
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

/// Applies git's delta instructions to `base` into `out`; `None` on anything malformed.
fn apply_delta(base: &[u8], delta: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let mut d = delta;
    if delta_size(&mut d)? != base.len() {
        return None;
    }
    let size = delta_size(&mut d)?;
    out.clear();
    out.reserve(size);
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
            if out.len() + len > size {
                return None;
            }
            out.extend_from_slice(base.get(from..from.checked_add(len)?)?);
        } else if cmd != 0 {
            let len = usize::from(cmd);
            if out.len() + len > size || d.len() < len {
                return None;
            }
            let (literal, rest) = d.split_at(len);
            out.extend_from_slice(literal);
            d = rest;
        } else {
            return None;
        }
    }
    (out.len() == size).then_some(())
}

type Key = (u32, u64);

/// Where a cached object's bytes are in the ring.
#[derive(Clone, Copy)]
struct Slot {
    start: usize,
    len: usize,
}

/// Decoded objects by pack and offset, their bytes in one buffer used as a ring: a new object
/// goes after the newest and overwrites the oldest. One allocation for the whole cache, so a
/// long walk does not fragment the heap with objects of every size (measured on git/git: an
/// allocation per object left about 80 MiB of freed memory in the process).
struct Ring {
    buf: Vec<u8>,
    map: HashMap<Key, (Kind, Slot), foldhash::fast::RandomState>,
    /// Cached objects, oldest first.
    order: VecDeque<(Key, Slot)>,
    /// Where the next object goes.
    head: usize,
}

impl Ring {
    fn new(cap: usize) -> Self {
        Ring {
            // Zeroed: pages are taken from the system as the ring reaches them.
            buf: vec![0; cap],
            map: HashMap::default(),
            order: VecDeque::new(),
            head: 0,
        }
    }

    fn bytes(&self, slot: Slot) -> &[u8] {
        &self.buf[slot.start..slot.start + slot.len]
    }

    fn get(&self, p: u32, offset: u64) -> Option<(Kind, Slot)> {
        self.map.get(&(p, offset)).copied()
    }

    /// Copies `data` in, dropping the oldest objects it overwrites; `None` when it is empty
    /// (nothing to save) or bigger than a quarter of the ring (kept out, so that it cannot
    /// flush the cache).
    fn put(&mut self, p: u32, offset: u64, kind: Kind, data: &[u8]) -> Option<Slot> {
        let len = data.len();
        if len == 0 || len > self.buf.len() / 4 {
            return None;
        }
        if self.head + len > self.buf.len() {
            // Wrap: what lies between the head and the end is the oldest; drop it.
            while let Some(&(_, slot)) = self.order.front() {
                if slot.start < self.head {
                    break;
                }
                self.evict();
            }
            self.head = 0;
        }
        let slot = Slot {
            start: self.head,
            len,
        };
        // The previous lap's objects all start at or after the head, in order: drop each one
        // that starts inside the new slot. (An object ending at the slot's start is not "before
        // it": a test on where objects end stopped at an empty tree there, and kept the object
        // after it in the map while overwriting its bytes: loki's history read as corrupt.)
        while let Some(&(_, old)) = self.order.front() {
            if old.start < slot.start || old.start >= slot.start + len {
                break;
            }
            self.evict();
        }
        self.buf[slot.start..slot.start + len].copy_from_slice(data);
        self.head += len;
        self.map.insert((p, offset), (kind, slot));
        self.order.push_back(((p, offset), slot));
        Some(slot)
    }

    fn evict(&mut self) {
        if let Some((key, _)) = self.order.pop_front() {
            self.map.remove(&key);
        }
    }
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

    #[test]
    fn the_ring_overwrites_the_oldest_and_keeps_the_rest() {
        let mut ring = Ring::new(400);
        for offset in 0..4u8 {
            let slot = ring
                .put(0, u64::from(offset), Kind::Tree, &[offset; 100])
                .unwrap();
            assert_eq!(ring.bytes(slot), &[offset; 100]);
        }
        // Full: the fifth goes where the first was.
        ring.put(0, 4, Kind::Tree, &[4; 60]).unwrap();
        assert!(ring.get(0, 0).is_none());
        for offset in 1..5u8 {
            let (_, slot) = ring.get(0, u64::from(offset)).unwrap();
            assert_eq!(ring.bytes(slot)[0], offset);
        }
        // Past the end: it wraps, dropping what it overwrites and what lay behind the head.
        ring.put(0, 5, Kind::Tree, &[5; 100]).unwrap();
        ring.put(0, 6, Kind::Tree, &[6; 100]).unwrap();
        assert!(ring.get(0, 1).is_none() && ring.get(0, 2).is_none());
        for offset in 3..7u8 {
            let (_, slot) = ring.get(0, u64::from(offset)).unwrap();
            assert!(ring.bytes(slot).iter().all(|&b| b == offset));
        }
        assert!(
            ring.put(0, 7, Kind::Tree, &[7; 101]).is_none(),
            "over a quarter"
        );
        assert!(ring.put(0, 8, Kind::Tree, &[]).is_none(), "empty");
    }

    /// Every object the ring still answers for has the bytes it was given, whatever the sizes
    /// (empty ones among them: an empty tree cached at a slot's start once hid the overwrite
    /// of the object after it).
    #[test]
    fn the_ring_never_answers_with_overwritten_bytes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for cap in [64usize, 400, 1000] {
            let mut ring = Ring::new(cap);
            let mut given: HashMap<Key, Vec<u8>> = HashMap::new();
            for i in 0..4000u64 {
                let len = next(cap as u64 / 4 + 3) as usize;
                let data: Vec<u8> = (0..len).map(|j| (i as usize * 7 + j) as u8).collect();
                given.insert((0, i), data.clone());
                ring.put(0, i, Kind::Tree, &data);
                for (&(p, offset), bytes) in &given {
                    if let Some((_, slot)) = ring.get(p, offset) {
                        assert_eq!(ring.bytes(slot), &bytes[..], "ring of {cap}, step {i}");
                    }
                }
                given.retain(|&(p, offset), _| ring.get(p, offset).is_some());
            }
        }
    }
}
