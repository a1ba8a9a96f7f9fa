//! A stored value with a checksum of its own (schema 7, ADR-0011): redb checks its pages'
//! checksums only when asked to check the whole file (done when the seal does not match), not
//! on a read, so a byte changed under a matching seal (bit rot, a write lost to a power cut)
//! would be read as it is: `CDR-0002` for `ADR-0002`. Each value is kept with a 32-bit checksum
//! of its bytes, verified whenever it is read; a value that fails is damage, reported by a
//! panic that the index's readers catch ([`super::catch_damage`]): the answer comes from a
//! scan and the file is rebuilt.

use redb::{TypeName, Value};

/// A byte string kept with its checksum: written as the bytes then the checksum (4 bytes,
/// little-endian), read back as the bytes alone once the checksum holds.
#[derive(Debug)]
pub struct Checked;

/// The panic a value failing its checksum raises (see [`is_damage`]).
#[derive(Debug)]
pub struct Damaged;

/// Whether a panic's payload is a value failing its checksum: damage, caught and handled.
pub fn is_damage(payload: &(dyn std::any::Any + Send)) -> bool {
    payload.is::<Damaged>()
}

/// The checksum of `bytes`: deterministic (the same on every machine and build), a word at a
/// time. Each step is a bijection of the running state for a given word, so one changed word
/// always changes the state; the final mix spreads it over the 32 bits kept.
pub fn checksum(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |h: u64, w: u64| {
        let h = (h ^ w).wrapping_mul(K);
        h ^ (h >> 32)
    };
    let mut h = (bytes.len() as u64).wrapping_mul(K) ^ 0x243F_6A88_85A3_08D3;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = step(h, u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        h = step(h, u64::from_le_bytes(last));
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h ^ (h >> 32)) as u32
}

/// `bytes` followed by their checksum.
pub fn with_checksum(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 4);
    out.extend_from_slice(bytes);
    out.extend_from_slice(&checksum(bytes).to_le_bytes());
    out
}

/// The bytes of a stored value whose checksum holds; `None` for a damaged one.
pub fn verified(data: &[u8]) -> Option<&[u8]> {
    let split = data.len().checked_sub(4)?;
    let (bytes, sum) = data.split_at(split);
    (sum == checksum(bytes).to_le_bytes()).then_some(bytes)
}

impl Value for Checked {
    type SelfType<'a>
        = &'a [u8]
    where
        Self: 'a;
    type AsBytes<'a>
        = Vec<u8>
    where
        Self: 'a;

    fn fixed_width() -> Option<usize> {
        None
    }

    fn from_bytes<'a>(data: &'a [u8]) -> &'a [u8]
    where
        Self: 'a,
    {
        match verified(data) {
            Some(bytes) => bytes,
            None => std::panic::panic_any(Damaged),
        }
    }

    fn as_bytes<'a, 'b: 'a>(value: &'a &'b [u8]) -> Vec<u8>
    where
        Self: 'b,
    {
        with_checksum(value)
    }

    fn type_name() -> TypeName {
        TypeName::new("context_graph::Checked/1")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flipped_bit_of_a_value_or_its_checksum_is_seen() {
        for len in [0usize, 1, 7, 8, 9, 20, 63, 64, 65, 200] {
            let value: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let stored = with_checksum(&value);
            assert_eq!(verified(&stored), Some(value.as_slice()), "len {len}");
            for at in 0..stored.len() {
                for bit in 0..8 {
                    let mut damaged = stored.clone();
                    damaged[at] ^= 1 << bit;
                    assert_eq!(verified(&damaged), None, "len {len}, byte {at}, bit {bit}");
                }
            }
        }
        assert_eq!(verified(&[1, 2, 3]), None, "shorter than a checksum");
    }

    #[test]
    fn the_checksum_is_the_same_on_every_build() {
        // Stored in files: a change here is a new schema, not a new build.
        assert_eq!(checksum(b"ADR-0002"), 0xE7B9_CA8C);
        assert_ne!(checksum(b"CDR-0002"), checksum(b"ADR-0002"));
    }
}
