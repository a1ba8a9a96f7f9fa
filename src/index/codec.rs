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

/// Serializes a byte field, borrowed or owned, as [`Bytes`] (`#[serde(serialize_with = ...)]`),
/// to be read in place as `&[u8]`.
pub fn as_bytes<B: AsRef<[u8]>, S: serde::Serializer>(bytes: &B, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes.as_ref())
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

/// Calls `$decode($bytes, config)` with the standard config bounded by what `$bytes` can hold:
/// a string or byte run claims its length before it is read, so a length no value of these
/// bytes could have (a damaged file, or one of another layout read as this one) is an error,
/// never an allocation of that size (ADR-0011). What a value claims is its strings' and byte
/// runs' lengths, at most the bytes it is decoded from; four times that, at least 1 MiB.
macro_rules! bounded {
    ($decode:path, $bytes:expr) => {{
        let bytes = $bytes;
        let need = bytes.len().saturating_mul(4).max(1 << 20);
        let standard = bincode::config::standard();
        if need <= 1 << 20 {
            $decode(bytes, standard.with_limit::<{ 1 << 20 }>())
        } else if need <= 1 << 24 {
            $decode(bytes, standard.with_limit::<{ 1 << 24 }>())
        } else if need <= 1 << 28 {
            $decode(bytes, standard.with_limit::<{ 1 << 28 }>())
        } else {
            $decode(bytes, standard.with_limit::<{ usize::MAX >> 1 }>())
        }
    }};
}

/// Decodes a value that borrows its strings from `bytes`.
pub fn decode_borrowed<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    bounded!(bincode::serde::borrow_decode_from_slice, bytes)
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}

/// Decodes one value that borrows its strings from the start of `bytes`, and says how many
/// bytes it took: values written one after another are read one at a time, with no list of
/// them made first.
pub fn decode_borrowed_prefix<'a, T: serde::Deserialize<'a>>(
    bytes: &'a [u8],
) -> Result<(T, usize), DecodeError> {
    bounded!(bincode::serde::borrow_decode_from_slice, bytes)
        .map_err(|e| DecodeError(e.to_string()))
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    bounded!(bincode::serde::decode_from_slice, bytes)
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}

/// The time of a stored commit's metadata (`schema::StoredMetaTime`: a 20-byte id, then the
/// time), read from its first bytes without a decoder: the index reads it for every entry of a
/// governed path to leave out commits older than a record (a fifth of a warm `why --git` on a
/// long history went to decoding the id byte by byte). Standard bincode: the id's 20 bytes as
/// they are, then the time as a zigzag varint.
pub fn meta_time(bytes: &[u8]) -> Result<i64, DecodeError> {
    let mut r = Reader(bytes.get(20..).ok_or_else(|| short("its time"))?);
    r.time()
}

/// A stored commit's id and time, then (asked for only if the commit is kept) the rest of its
/// metadata, read in place by hand rather than by serde (a third of reading an answer's
/// commits went to decoding them field by field: the id byte by byte, each string through a
/// visitor). The same bytes, the same values and the same errors as `decode_borrowed` of a
/// `schema::StoredMetaRef` (a test holds them together); a value with bytes left over decodes,
/// as bincode's does.
pub struct MetaReader<'a> {
    pub id: [u8; 20],
    pub time: i64,
    rest: Reader<'a>,
}

/// A commit's metadata as [`MetaReader::rest`] reads it: author, subject, mentions, merge.
pub struct MetaRest<'a> {
    pub author: &'a str,
    pub subject: &'a str,
    pub mentions: Vec<&'a str>,
    pub is_merge: bool,
}

impl<'a> MetaReader<'a> {
    pub fn new(bytes: &'a [u8]) -> Result<MetaReader<'a>, DecodeError> {
        let (id, rest) = bytes
            .split_first_chunk::<20>()
            .ok_or_else(|| short("its id"))?;
        let mut rest = Reader(rest);
        let time = rest.time()?;
        Ok(MetaReader {
            id: *id,
            time,
            rest,
        })
    }

    pub fn rest(mut self) -> Result<MetaRest<'a>, DecodeError> {
        let author = self.rest.str()?;
        let subject = self.rest.str()?;
        let count = self.rest.len()?;
        // Each mention takes a byte at least: a count past what is left is damage, not a
        // reason to reserve.
        let mut mentions = Vec::with_capacity(count.min(self.rest.0.len()));
        for _ in 0..count {
            mentions.push(self.rest.str()?);
        }
        let is_merge = match self.rest.take(1)? {
            [0] => false,
            [1] => true,
            [b] => return Err(DecodeError(format!("a commit's merge flag is {b}"))),
            _ => return Err(short("its merge flag")),
        };
        Ok(MetaRest {
            author,
            subject,
            mentions,
            is_merge,
        })
    }
}

fn short(what: &str) -> DecodeError {
    DecodeError(format!("a commit's metadata ends before {what}"))
}

/// Standard bincode read by hand: varints (a byte up to 250, else a tag for 2, 4 or 8
/// little-endian bytes), strings as a length and their bytes.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.0.len() < n {
            return Err(short("its end"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let tag = self.take(1)?[0];
        let wide = |r: &mut Self, n: usize| -> Result<u64, DecodeError> {
            let mut out = [0u8; 8];
            out[..n].copy_from_slice(r.take(n)?);
            Ok(u64::from_le_bytes(out))
        };
        match tag {
            0..=250 => Ok(u64::from(tag)),
            251 => wide(self, 2),
            252 => wide(self, 4),
            253 => wide(self, 8),
            _ => Err(DecodeError(format!("a varint has tag {tag}"))),
        }
    }

    fn time(&mut self) -> Result<i64, DecodeError> {
        let zigzag = self.varint()?;
        Ok((zigzag >> 1) as i64 ^ -((zigzag & 1) as i64))
    }

    fn len(&mut self) -> Result<usize, DecodeError> {
        usize::try_from(self.varint()?).map_err(|_| DecodeError("a length past usize".into()))
    }

    fn str(&mut self) -> Result<&'a str, DecodeError> {
        let n = self.len()?;
        let bytes = self.take(n)?;
        std::str::from_utf8(bytes).map_err(|e| DecodeError(e.to_string()))
    }
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

    #[test]
    fn the_meta_reader_reads_what_serde_reads_and_fails_where_it_fails() {
        use crate::index::schema::StoredMetaRef;
        let long = "é".repeat(200); // 400 bytes: a length of three bytes
        let many: Vec<String> = (0..300).map(|i| format!("ADR-{i:04}")).collect();
        let metas = [
            ("", "", vec![], false, 0i64),
            (
                "Ann",
                "A subject",
                vec!["ADR-0001".to_string()],
                true,
                1_700_000_000,
            ),
            ("Zo\u{eb}", long.as_str(), many, false, -40_000),
        ];
        for (author, subject, mentions, is_merge, time) in metas {
            let meta = StoredMeta {
                id: [9; 20],
                time,
                author: author.to_string(),
                subject: subject.to_string(),
                mentions,
                is_merge,
            };
            let bytes = encode(&meta);
            let serde: StoredMetaRef = decode_borrowed(&bytes).expect("serde decodes");
            let read = MetaReader::new(&bytes).expect("reads");
            assert_eq!((read.id, read.time), (serde.id, serde.time));
            let rest = read.rest().expect("reads the rest");
            assert_eq!(
                (rest.author, rest.subject, &rest.mentions, rest.is_merge),
                (serde.author, serde.subject, &serde.mentions, serde.is_merge)
            );
            // Cut anywhere: both fail.
            for end in 0..bytes.len() {
                let cut = &bytes[..end];
                let by_hand = MetaReader::new(cut).and_then(MetaReader::rest);
                assert!(by_hand.is_err(), "cut at {end} of {}", bytes.len());
                assert!(decode_borrowed::<StoredMetaRef>(cut).is_err());
            }
            // A merge flag that is neither 0 nor 1, and a string that is not UTF-8.
            let mut flag = bytes.clone();
            *flag.last_mut().expect("a flag") = 2;
            assert!(MetaReader::new(&flag).and_then(MetaReader::rest).is_err());
            assert!(decode_borrowed::<StoredMetaRef>(&flag).is_err());
        }
        let mut bad = encode(&StoredMeta {
            id: [1; 20],
            time: 5,
            author: "Ann".into(),
            subject: "x".into(),
            mentions: vec![],
            is_merge: false,
        });
        let at = bad.iter().position(|&b| b == b'A').expect("the author");
        bad[at] = 0xff;
        assert!(MetaReader::new(&bad).and_then(MetaReader::rest).is_err());
        assert!(decode_borrowed::<StoredMetaRef>(&bad).is_err());
    }
}
