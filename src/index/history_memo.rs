//! The history memo (ADR-0006, issue 17): what the stored commits gave the last answer's
//! history ([`Gathered`], read with no pending commit), kept in a file beside the index with
//! everything it was read from (the key). After a commit the new one is pending, the stored
//! ones are as they were, and the records are too: the answer reads this file back and adds
//! the pending commits, rather than reading a thousand commits' entries from redb again.
//!
//! The key is exact, not a digest: this build, the file's generation, the indexed HEAD, what
//! HEAD reaches, the time blocks, the work tree's prefix, every record's id, file, status,
//! date and governed paths, and every marker's declared files. The stored tables only grow
//! between rebuilds, and what is read of them is filtered by what HEAD reaches: the same key,
//! the same reading. A file that does not hold (another key, another build, cut short, not a
//! regular file) is read as no memo; a lost write is a miss.

use super::codec;
use super::read::{Declared, Found, Gathered};
use super::schema::{KEY_GENERATION, KEY_HEAD, KEY_REACH, KEY_TIME_BLOCKS};
use super::{Index, IndexError};
use crate::git::{CommitMeta, Sha};
use crate::model::Record;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Which build wrote a history memo: one from another build is not read.
const HISTORY_MADE_BY: &str = concat!(env!("CARGO_PKG_VERSION"), "/history-2");

/// Everything a reading of the stored commits depends on.
#[derive(Serialize)]
struct Key<'a> {
    made_by: &'a str,
    generation: Option<codec::Bytes<'a>>,
    head: Option<codec::Bytes<'a>>,
    reach: Option<codec::Bytes<'a>>,
    time_blocks: Option<codec::Bytes<'a>>,
    prefix: &'a str,
    /// Each record, in the answer's order.
    records: Vec<RecordKey<'a>>,
    /// Each declared id with its files.
    declared: Vec<(&'a str, Vec<&'a str>)>,
}

/// What a record's reading depends on: its id, file, whether it is current, its date and its
/// governed paths.
type RecordKey<'a> = (&'a str, &'a str, bool, Option<&'a str>, &'a [String]);

/// What the stored commits gave, as kept: each commit's number (its metadata, a [`KeptMeta`]
/// each, follows this head in the same order, read one at a time: a list of them decoded first
/// was 28 pages of fresh memory), each author once.
#[derive(Serialize, Deserialize)]
struct Kept<'a> {
    #[serde(borrow)]
    authors: Vec<&'a str>,
    numbers: Vec<u32>,
    #[serde(borrow)]
    by_path: Vec<(&'a str, Vec<u32>)>,
    #[serde(borrow)]
    renames: Vec<(u32, &'a str, &'a str)>,
    #[serde(borrow)]
    chains: Vec<Vec<&'a str>>,
}

#[derive(Serialize, Deserialize)]
struct KeptMeta<'a> {
    #[serde(serialize_with = "codec::as_bytes")]
    sha: &'a [u8],
    time: i64,
    author: u32,
    subject: &'a str,
    #[serde(borrow)]
    mentions: Vec<&'a str>,
    is_merge: bool,
}

/// A history memo to write: owned, so the answer goes on while it is written.
pub type HistoryMemoWrite = super::markers::SideFileWrite;

impl Index {
    /// The history memo's file beside the index.
    fn history_memo_path(&self) -> PathBuf {
        self.path.with_extension("history")
    }

    /// The key of a reading of the stored commits for `records` and `declared`, encoded.
    pub(super) fn history_key(
        &self,
        records: &[Record],
        declared: &Declared<'_>,
    ) -> Result<Vec<u8>, IndexError> {
        let [generation, head, reach, time_blocks] =
            self.metas([KEY_GENERATION, KEY_HEAD, KEY_REACH, KEY_TIME_BLOCKS])?;
        let key = Key {
            made_by: HISTORY_MADE_BY,
            generation: generation.as_deref().map(codec::Bytes),
            head: head.as_deref().map(codec::Bytes),
            reach: reach.as_deref().map(codec::Bytes),
            time_blocks: time_blocks.as_deref().map(codec::Bytes),
            prefix: &self.repo.prefix,
            records: records
                .iter()
                .map(|r| {
                    (
                        r.id.as_str(),
                        r.path.as_str(),
                        r.status.is_current(),
                        r.date.as_deref(),
                        r.governs.as_slice(),
                    )
                })
                .collect(),
            declared: declared
                .iter()
                .map(|(id, files)| (*id, files.iter().map(|(f, _)| *f).collect()))
                .collect(),
        };
        Ok(codec::encode(&key))
    }

    /// What the stored commits gave when `key` was read last, if the memo is of that key.
    pub(super) fn read_history_memo(&self, key: &[u8]) -> Option<Gathered> {
        let bytes = crate::fs::read::read_side_file(&self.history_memo_path()).ok()?;
        let len = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let body = bytes.get(4..)?;
        if body.get(..len)? != key {
            return None;
        }
        let (kept, used): (Kept, usize) = codec::decode_borrowed_prefix(&body[len..]).ok()?;
        let mut rest = &body[len + used..];
        let mut found = Found::default();
        // Sized once: growing them was a sixth of reading the memo back.
        found.reserve(kept.numbers.len());
        let authors: Vec<std::sync::Arc<str>> =
            kept.authors.iter().map(|a| found.author(a)).collect();
        for &n in &kept.numbers {
            let (m, used): (KeptMeta, usize) = codec::decode_borrowed_prefix(rest).ok()?;
            rest = &rest[used..];
            let sha = Sha(m.sha.try_into().ok()?);
            found.insert(
                n,
                CommitMeta {
                    sha,
                    time: m.time,
                    author: authors.get(m.author as usize)?.clone(),
                    subject: m.subject.into(),
                    mentions: m.mentions.iter().map(|s| s.to_string()).collect(),
                    is_merge: m.is_merge,
                },
            );
        }
        let mut g = Gathered {
            found,
            ..Gathered::default()
        };
        g.by_path.map = kept
            .by_path
            .into_iter()
            .map(|(p, ns)| (p.to_string(), ns))
            .collect();
        g.renames = kept
            .renames
            .into_iter()
            .map(|(n, from, to)| (n, from.to_string(), to.to_string()))
            .collect();
        g.chains = kept
            .chains
            .into_iter()
            .map(|c| c.into_iter().map(str::to_string).collect())
            .collect();
        Some(g)
    }

    /// Keeps what the stored commits gave under `key`, for [`Index::take_history_memo_write`].
    pub(super) fn keep_history_memo(&mut self, key: Vec<u8>, g: &Gathered) {
        let mut authors: Vec<&str> = Vec::new();
        let mut author_of = std::collections::HashMap::new();
        let mut number_of = vec![0u32; g.found.metas.len()];
        for (&n, &slot) in &g.found.slots {
            number_of[slot as usize] = n;
        }
        // Kept in the answer's order, so that putting them in order again costs one pass.
        let all = &g.found.metas;
        let mut order: Vec<usize> = (0..all.len()).collect();
        order.sort_by(|&a, &b| crate::git::canonical_order(&all[a], &all[b]));
        let numbers = order.iter().map(|&slot| number_of[slot]).collect();
        let mut metas = Vec::new();
        for m in order.iter().map(|&slot| &all[slot]) {
            let author = *author_of.entry(&*m.author).or_insert_with(|| {
                authors.push(&m.author);
                authors.len() as u32 - 1
            });
            metas.extend(codec::encode(&KeptMeta {
                sha: &m.sha.0,
                time: m.time,
                author,
                subject: &m.subject,
                mentions: m.mentions.iter().map(String::as_str).collect(),
                is_merge: m.is_merge,
            }));
        }
        let kept = Kept {
            authors,
            numbers,
            by_path: g
                .by_path
                .map
                .iter()
                .map(|(p, ns)| (p.as_str(), ns.clone()))
                .collect(),
            renames: g
                .renames
                .iter()
                .map(|(n, from, to)| (*n, from.as_str(), to.as_str()))
                .collect(),
            chains: g
                .chains
                .iter()
                .map(|c| c.iter().map(String::as_str).collect())
                .collect(),
        };
        let head = codec::encode(&kept);
        let mut bytes = Vec::with_capacity(4 + key.len() + head.len() + metas.len());
        bytes.extend_from_slice(&(key.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&key);
        bytes.extend_from_slice(&head);
        bytes.extend_from_slice(&metas);
        self.history_memo_write = Some(HistoryMemoWrite {
            path: self.history_memo_path(),
            bytes,
        });
    }

    /// The history memo the last [`Index::history_for`] made, to be written beside the index.
    pub fn take_history_memo_write(&mut self) -> Option<HistoryMemoWrite> {
        self.history_memo_write.take()
    }
}
