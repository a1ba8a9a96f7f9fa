//! Where an object is in a pack index, found by interpolation (ADR-0005).
//!
//! Object ids are hashes, spread evenly over their range, so the place of an id among an
//! index's sorted ids is about its value's place in that range: a guess from the first eight
//! bytes lands within a few entries, where a bisection of the fan-out bucket reads about
//! eleven of them on git/git, each a cache miss and a call to compare twenty bytes (in a
//! build, a tenth of the work on the generated history). After a few guesses it bisects, so
//! ids that are not spread evenly (a crafted pack) cost no more than a bisection.

use gix::hash::oid;
use gix::odb::pack;
use std::cmp::Ordering;

/// Guesses before bisecting.
const GUESSES: u32 = 4;

/// The first eight bytes of `id` as a number, in the ids' order.
fn key(id: &oid) -> u64 {
    let bytes = id.as_bytes();
    let mut first = [0u8; 8];
    let n = bytes.len().min(8);
    first[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(first)
}

/// The entry of `id` in `index`, as [`pack::index::File::lookup`] finds it.
pub(super) fn lookup(index: &pack::index::File, id: &oid) -> Option<u32> {
    search(index.num_objects(), id, |i| index.oid_at_index(i))
}

/// The entry `i` in `0..n` whose id, as `id_at` gives it, is `id`; the ids are sorted.
fn search<'a>(n: u32, id: &oid, id_at: impl Fn(u32) -> &'a oid) -> Option<u32> {
    let want = key(id);
    // Every entry before `lo` is less than `id` and every one from `hi` on is greater; the
    // keys of the entries just outside, as far as known, bound `want`.
    let (mut lo, mut hi) = (0u32, n);
    let (mut lo_key, mut hi_key) = (0u64, u64::MAX);
    let mut guesses = 0;
    while lo < hi {
        let span = hi - lo;
        let mid = if guesses < GUESSES && hi_key > lo_key {
            guesses += 1;
            let into = u128::from(want.saturating_sub(lo_key)) * u128::from(span)
                / (u128::from(hi_key - lo_key) + 1);
            lo + (into as u32).min(span - 1)
        } else {
            lo + span / 2
        };
        let at = id_at(mid);
        match id.cmp(at) {
            Ordering::Equal => return Some(mid),
            Ordering::Less => {
                hi = mid;
                hi_key = key(at);
            }
            Ordering::Greater => {
                lo = mid + 1;
                lo_key = key(at);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use gix::ObjectId;

    fn id(bytes: [u8; 20]) -> ObjectId {
        ObjectId::from_bytes_or_panic(&bytes)
    }

    /// Finds what a plain scan finds, for ids in and not in the list, however they are spread.
    fn agrees(ids: &mut Vec<ObjectId>, probes: &[ObjectId]) {
        ids.sort();
        ids.dedup();
        let n = ids.len() as u32;
        for probe in ids.iter().chain(probes) {
            let want = ids.iter().position(|i| i == probe).map(|p| p as u32);
            let calls = std::cell::Cell::new(0u32);
            let got = search(n, probe, |i| {
                calls.set(calls.get() + 1);
                &ids[i as usize]
            });
            assert_eq!(got, want, "{probe} among {n}");
            // Never worse than the guesses and a bisection of the whole list.
            assert!(calls.get() <= GUESSES + 1 + u32::BITS - n.leading_zeros());
        }
    }

    #[test]
    fn ids_spread_evenly_and_bunched_are_found_or_not() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut random = |n: usize| -> Vec<ObjectId> {
            (0..n)
                .map(|_| {
                    let mut b = [0u8; 20];
                    for chunk in b.chunks_mut(8) {
                        let v = next().to_be_bytes();
                        chunk.copy_from_slice(&v[..chunk.len()]);
                    }
                    id(b)
                })
                .collect()
        };
        let probes = random(200);
        for n in [0, 1, 2, 3, 50, 5000] {
            agrees(&mut random(n), &probes);
        }
        // Bunched: ids sharing their first eight bytes, or all near one end, or the extremes.
        let mut bunched: Vec<ObjectId> = (0..300u32)
            .map(|i| {
                let mut b = [0u8; 20];
                b[16..].copy_from_slice(&i.to_be_bytes());
                id(b)
            })
            .collect();
        bunched.push(id([0xff; 20]));
        bunched.push(id([0; 20]));
        let mut near = bunched.clone();
        near.extend((0..300u32).map(|i| {
            let mut b = [0xff; 20];
            b[8..12].copy_from_slice(&i.to_be_bytes());
            id(b)
        }));
        agrees(&mut bunched, &probes);
        agrees(&mut near, &probes);
    }

    /// Every object of a real pack is found where gix finds it; ids not in it are not.
    #[test]
    fn every_object_of_a_packed_repository_is_where_gix_says() {
        let Some(dir) = crate::git::testing::new_repo() else {
            return;
        };
        let git = |args: &[&str]| crate::git::testing::git(dir.path(), args, None);
        for i in 0..40 {
            std::fs::write(dir.path().join(format!("f{}", i % 7)), format!("{i}\n")).unwrap();
            git(&["add", "-A"]);
            git(&["commit", "-q", "-m", &format!("c{i}")]);
        }
        git(&["gc", "-q"]);
        let idx = super::super::packs::pack_indexes(&dir.path().join(".git/objects"));
        assert_eq!(idx.len(), 1);
        let index = pack::index::File::at(&idx[0], gix::hash::Kind::Sha1).unwrap();
        assert!(index.num_objects() > 100);
        for i in 0..index.num_objects() {
            let id = index.oid_at_index(i);
            assert_eq!(lookup(&index, id), Some(i));
            let mut other = id.to_owned();
            other.as_mut_slice()[19] ^= 1;
            assert_eq!(lookup(&index, &other), index.lookup(other));
        }
    }
}
