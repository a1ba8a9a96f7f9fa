//! Values in the index are encoded here and only here (bincode 2, standard config), so the
//! encoding could switch (to postcard, say) by changing this one module and the schema version.

use serde::de::DeserializeOwned;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
#[error("an index value does not decode: {0}")]
pub struct DecodeError(String);

pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("plain data always encodes")
}

/// Bytes encoded as one run (serde writes a slice or a `Vec<u8>` element by element); the
/// same encoding, so a `&[u8]` or `Vec<u8>` decodes it.
pub struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// Serializes a borrowed byte field as [`Bytes`] (`#[serde(serialize_with = ...)]`).
pub fn as_bytes<S: serde::Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

/// Serializes a list of byte strings each as [`Bytes`].
pub fn each_as_bytes<S: serde::Serializer>(items: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(items.len()))?;
    for item in items {
        seq.serialize_element(&Bytes(item))?;
    }
    seq.end()
}

/// Decodes a value that borrows its strings from `bytes`.
pub fn decode_borrowed<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    bincode::serde::borrow_decode_from_slice(bytes, bincode::config::standard())
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    bincode::serde::decode_from_slice(bytes, bincode::config::standard())
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}

/// The time of a stored commit's metadata (`schema::StoredMetaTime`: a 20-byte id, then the
/// time), read from its first bytes without a decoder: the index reads it for every entry of a
/// governed path to leave out commits older than a record (a fifth of a warm `why --git` on a
/// long history went to decoding the id byte by byte). Standard bincode: the id's 20 bytes as
/// they are, then the time as a zigzag varint.
pub fn meta_time(bytes: &[u8]) -> Result<i64, DecodeError> {
    let short = || DecodeError("a commit's metadata ends before its time".to_string());
    let rest = bytes.get(20..).ok_or_else(short)?;
    let (&tag, rest) = rest.split_first().ok_or_else(short)?;
    let wide = |n: usize| -> Result<u64, DecodeError> {
        let b = rest.get(..n).ok_or_else(short)?;
        let mut out = [0u8; 8];
        out[..n].copy_from_slice(b);
        Ok(u64::from_le_bytes(out))
    };
    let zigzag = match tag {
        0..=250 => u64::from(tag),
        251 => wide(2)?,
        252 => wide(4)?,
        253 => wide(8)?,
        _ => return Err(DecodeError(format!("a commit's time has varint tag {tag}"))),
    };
    Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::schema::{StoredMeta, StoredMetaTime};

    #[test]
    fn bytes_encode_as_a_vec_of_bytes_does_and_decode_back() {
        for raw in [
            Vec::new(),
            vec![0u8, 1, 255],
            (0..=255u8).cycle().take(700).collect(),
        ] {
            let fast = encode(&Bytes(&raw));
            assert_eq!(fast, encode(&raw), "the same encoding as serde's");
            assert_eq!(decode::<Vec<u8>>(&fast).unwrap(), raw);
            assert_eq!(decode_borrowed::<&[u8]>(&fast).unwrap(), raw.as_slice());
        }
        #[derive(serde::Serialize)]
        struct Each {
            #[serde(serialize_with = "each_as_bytes")]
            items: Vec<Vec<u8>>,
        }
        let items = vec![vec![7u8; 300], Vec::new(), vec![1, 2]];
        let fast = encode(&Each {
            items: items.clone(),
        });
        assert_eq!(fast, encode(&(items.clone(),)));
        assert_eq!(decode_borrowed::<(Vec<&[u8]>,)>(&fast).unwrap().0, items);
    }

    #[test]
    fn meta_time_reads_what_bincode_wrote() {
        let times = [
            0i64,
            1,
            -1,
            125,
            126,
            -126,
            40_000,
            -40_000,
            1_700_000_000,
            -1_700_000_000,
            4_000_000_000,
            i64::MAX,
            i64::MIN,
        ];
        for time in times {
            let bytes = encode(&StoredMeta {
                id: [7; 20],
                time,
                author: "Ann".to_string(),
                subject: "A subject".to_string(),
                mentions: vec!["ADR-0001".to_string()],
                is_merge: false,
            });
            assert_eq!(meta_time(&bytes).expect("decodes"), time, "{time}");
            let decoded: StoredMetaTime = decode_borrowed(&bytes).expect("serde decodes");
            assert_eq!(decoded.time, time);
            // Cut inside the time: an error, not a wrong time.
            let end = 21
                + usize::from(bytes[20] > 250)
                    * [2, 4, 8][usize::from(bytes[20].saturating_sub(251)).min(2)];
            if end > 21 {
                assert!(meta_time(&bytes[..end - 1]).is_err(), "{time}");
            }
        }
        assert!(meta_time(&[0; 10]).is_err());
    }
}
