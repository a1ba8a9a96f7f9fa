//! Decoded objects by their place in the packs, their bytes in one buffer used as a ring
//! (ADR-0005).

use gix::objs::Kind;
use std::collections::{HashMap, VecDeque};

pub(super) type Key = (u32, u64);

/// Where a cached object's bytes are in the ring.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    start: usize,
    len: usize,
}

/// Decoded objects by pack and offset, their bytes in one buffer used as a ring: a new object
/// goes after the newest and overwrites the oldest. One allocation for the whole cache, so a
/// long walk does not fragment the heap with objects of every size (measured on git/git: an
/// allocation per object left about 80 MiB of freed memory in the process).
pub(super) struct Ring {
    buf: Vec<u8>,
    map: HashMap<Key, (Kind, Slot), foldhash::fast::RandomState>,
    /// Cached objects, oldest first.
    order: VecDeque<(Key, Slot)>,
    /// Where the next object goes.
    head: usize,
}

impl Ring {
    pub(super) fn new(cap: usize) -> Self {
        Ring {
            // Zeroed: pages are taken from the system as the ring reaches them.
            buf: vec![0; cap],
            map: HashMap::default(),
            order: VecDeque::new(),
            head: 0,
        }
    }

    pub(super) fn bytes(&self, slot: Slot) -> &[u8] {
        &self.buf[slot.start..slot.start + slot.len]
    }

    pub(super) fn get(&self, p: u32, offset: u64) -> Option<(Kind, Slot)> {
        self.map.get(&(p, offset)).copied()
    }

    /// Where an object of `len` bytes would go now; `None` when it is empty (nothing to save)
    /// or bigger than a quarter of the ring (kept out, so that it cannot flush the cache).
    pub(super) fn place(&self, len: usize) -> Option<Slot> {
        if len == 0 || len > self.buf.len() / 4 {
            return None;
        }
        let start = if self.head + len > self.buf.len() {
            0
        } else {
            self.head
        };
        Some(Slot { start, len })
    }

    /// Makes room for an object of `len` bytes where [`Ring::place`] says, dropping the
    /// oldest objects it overwrites; the caller writes its bytes ([`Ring::bytes_mut`]) and then
    /// [`Ring::commit`]s it. Room never committed (a decode that failed) holds no object.
    pub(super) fn reserve(&mut self, len: usize) -> Option<Slot> {
        let slot = self.place(len)?;
        if slot.start != self.head {
            // Wrap: what lies between the head and the end is the oldest; drop it.
            while let Some(&(_, old)) = self.order.front() {
                if old.start < self.head {
                    break;
                }
                self.evict();
            }
            self.head = 0;
        }
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
        self.head += len;
        Some(slot)
    }

    /// The bytes of a reserved slot, to write.
    pub(super) fn bytes_mut(&mut self, slot: Slot) -> &mut [u8] {
        &mut self.buf[slot.start..slot.start + slot.len]
    }

    /// The bytes of `base` to read and of `slot` to write, when the two do not overlap.
    pub(super) fn split(&mut self, base: Slot, slot: Slot) -> Option<(&[u8], &mut [u8])> {
        if base.start + base.len <= slot.start {
            let (before, after) = self.buf.split_at_mut(slot.start);
            Some((
                &before[base.start..base.start + base.len],
                &mut after[..slot.len],
            ))
        } else if slot.start + slot.len <= base.start {
            let (before, after) = self.buf.split_at_mut(base.start);
            Some((
                &after[..base.len],
                &mut before[slot.start..slot.start + slot.len],
            ))
        } else {
            None
        }
    }

    /// Whether `a` and `b` share a byte.
    pub(super) fn overlap(a: Slot, b: Slot) -> bool {
        a.start < b.start + b.len && b.start < a.start + a.len
    }

    /// The object written into the reserved `slot` is the one at `offset` in pack `p`.
    pub(super) fn commit(&mut self, p: u32, offset: u64, kind: Kind, slot: Slot) {
        self.map.insert((p, offset), (kind, slot));
        self.order.push_back(((p, offset), slot));
    }

    /// Copies `data` in as the object at `offset` in pack `p` ([`Ring::reserve`],
    /// [`Ring::commit`]); `None` when it is kept out.
    pub(super) fn put(&mut self, p: u32, offset: u64, kind: Kind, data: &[u8]) -> Option<Slot> {
        let slot = self.reserve(data.len())?;
        self.bytes_mut(slot).copy_from_slice(data);
        self.commit(p, offset, kind, slot);
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
