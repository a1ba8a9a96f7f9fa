//! `text` evidence (docs/related.md, ADR-0017): the record whose words PATH's own text echoes
//! most, and by a margin, or the two it echoes alike and by a margin over the rest. Each record's words ([`crate::parse::words_of`]) weigh by how often
//! it writes them, how few records write them (a word more than a fifth of the records have
//! is left out) and how rare they are in code ([`rarity`]); PATH's words (its text and, three
//! times, its path) by how often it writes them and how rare they are in code. The two are
//! compared as a cosine; the record whose cosine is highest, at least [`MIN_COSINE`] and
//! [`MARGIN`] times the next record's, has the evidence; failing that, the first two have it
//! when the second's is at least [`MIN_COSINE`] and [`MARGIN`] times the third's (a record
//! and its successor; a file wiring two libraries, each a record's choice). A cosine under [`ECHO`] says PATH's
//! text has next to nothing of the record: a record shown only for a name or title words is
//! then not shown. A repository of fewer than [`MIN_RECORDS`] records is not compared.
//!
//! The records' side is made once a scan ([`vocabulary`]) and kept in the scan memo as one
//! run of bytes, read in place by a warm answer ([`Vocabulary::read`]).

use crate::model::Evidence;
use crate::text::code_words::{each_word, fnv, rarity, MAX_BYTES};
use std::collections::HashMap;

type Fast = foldhash::fast::FixedState;

/// The least cosine that tells.
pub const MIN_COSINE: f64 = 0.05;
/// How many times the next record's cosine the first must be (the second, the third's, for
/// the first two to have the evidence: on three sets of blind pairs, 12 more records a
/// reader named shown, and 18 of the 37 other records it added judged right; issue 36).
pub const MARGIN: f64 = 1.6;
/// Under this cosine, PATH's text has next to nothing of the record.
pub const ECHO: f64 = 0.02;
/// The weight of the evidence: enough alone (`rank::MIN_SCORE`).
pub const WEIGHT: u32 = 2;
/// A word more than this share of the records write tells none of them apart.
const SHARE_OF_RECORDS: f64 = 0.2;
/// PATH's path counts this many times its text's words.
const PATH_TIMES: u32 = 3;
/// At most this many shared words are shown.
const SHOWN: usize = 4;
/// The most words of a record looked up: its weightiest.
const KEPT: usize = 80;
/// Fewer records than this tell nothing of which words are a record's own (a fifth of them
/// is less than one record): no comparison.
pub const MIN_RECORDS: usize = 5;

/// The records' side of the comparison, for `records` (each its words, from
/// [`crate::parse::words_of`]), in the order the report holds them: one run of bytes (none
/// for more records than a posting can number). Each record's norm counts all its words;
/// only its [`KEPT`] weightiest are kept to be looked up, the rest adding little to a cosine
/// (issue 41: the bytes every warm answer reads).
///
/// The bytes, little-endian: the counts of records, terms and slots (`u32` each), the largest
/// weight (`f32`), each record's norm (`f32`), each term's end in the text and in the
/// postings (`u32` each; terms sorted), the slots (`u32`: one past a term's place, or 0; open
/// addressing over [`fnv`]), the postings (record `u16`, weight `u16` in 65,535ths of the
/// largest), and the terms' text.
pub fn vocabulary(records: &[&[(String, u32)]]) -> Vec<u8> {
    let n = records.len();
    if n > usize::from(u16::MAX) {
        return Vec::new();
    }
    let mut df: HashMap<&str, u32, Fast> = HashMap::default();
    for words in records {
        for (w, _) in words.iter() {
            *df.entry(w.as_str()).or_default() += 1;
        }
    }
    let most = (n as f64 * SHARE_OF_RECORDS).max(2.0);
    let mut postings: HashMap<&str, Vec<(u16, f64)>, Fast> = HashMap::default();
    let mut norms = vec![0f64; n];
    let mut largest = 0f64;
    for (i, words) in records.iter().enumerate() {
        let mut weighed: Vec<(&str, f64)> = words
            .iter()
            .filter(|(w, _)| f64::from(df[w.as_str()]) <= most)
            .map(|(w, c)| {
                let d = f64::from(df[w.as_str()]);
                let weight = (1.0 + f64::from(*c).ln()) * ((n as f64 + 1.0) / d).ln() * rarity(w);
                (w.as_str(), weight)
            })
            .collect();
        norms[i] = weighed.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
        weighed.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        for (w, weight) in weighed.into_iter().take(KEPT) {
            largest = largest.max(weight);
            postings.entry(w).or_default().push((i as u16, weight));
        }
    }
    let mut terms: Vec<(&str, Vec<(u16, f64)>)> = postings.into_iter().collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let slot_count = (2 * terms.len()).max(4).next_power_of_two();
    let mut slots = vec![0u32; slot_count];
    for (i, (w, _)) in terms.iter().enumerate() {
        let mut s = (fnv(w.as_bytes()) as usize) & (slot_count - 1);
        while slots[s] != 0 {
            s = (s + 1) & (slot_count - 1);
        }
        slots[s] = i as u32 + 1;
    }
    let mut out = Vec::new();
    put(&mut out, n as u32);
    put(&mut out, terms.len() as u32);
    put(&mut out, slot_count as u32);
    out.extend_from_slice(&(largest as f32).to_le_bytes());
    for norm in norms {
        out.extend_from_slice(&(norm as f32).to_le_bytes());
    }
    let (mut text_at, mut post_at) = (0u32, 0u32);
    for (w, p) in &terms {
        text_at += w.len() as u32;
        put(&mut out, text_at);
        post_at += p.len() as u32;
        put(&mut out, post_at);
    }
    for s in slots {
        put(&mut out, s);
    }
    for (_, p) in &terms {
        for (i, weight) in p {
            out.extend_from_slice(&i.to_le_bytes());
            let q = (weight / largest * f64::from(u16::MAX)).round() as u16;
            out.extend_from_slice(&q.to_le_bytes());
        }
    }
    for (w, _) in &terms {
        out.extend_from_slice(w.as_bytes());
    }
    out
}

fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// [`vocabulary`]'s bytes, read in place.
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary<'a> {
    bytes: &'a [u8],
    records: usize,
    terms: usize,
    /// How many slots its index has: a power of two, more than `terms`.
    slots: usize,
    /// A posting's weight is in 65,535ths of this.
    largest: f64,
}

impl<'a> Vocabulary<'a> {
    /// `None` when the bytes are not a vocabulary of `records` records (none kept, or damaged).
    pub fn read(bytes: &'a [u8], records: usize) -> Option<Vocabulary<'a>> {
        let v = Vocabulary {
            bytes,
            records: u32_at(bytes, 0)? as usize,
            terms: u32_at(bytes, 4)? as usize,
            slots: u32_at(bytes, 8)? as usize,
            largest: f64::from(f32_at(bytes, 12)?),
        };
        let shaped = v.slots.is_power_of_two() && v.slots > v.terms && v.largest.is_finite();
        (v.records == records && shaped && bytes.len() == v.end()).then_some(v)
    }

    fn norms_at(&self) -> usize {
        16
    }
    // Saturating: the counts are read from bytes, and a damaged count must not overflow.
    fn terms_at(&self) -> usize {
        self.norms_at()
            .saturating_add(self.records.saturating_mul(4))
    }
    fn slots_at(&self) -> usize {
        self.terms_at().saturating_add(self.terms.saturating_mul(8))
    }
    fn postings_at(&self) -> usize {
        self.slots_at().saturating_add(self.slots.saturating_mul(4))
    }
    /// Where the term at `at` ends, in the text (`0`) or the postings (`1`); 0 before the
    /// first.
    fn term_end(&self, at: usize, which: usize) -> Option<usize> {
        match at {
            0 => Some(0),
            at => {
                u32_at(self.bytes, self.terms_at() + 8 * (at - 1) + 4 * which).map(|v| v as usize)
            }
        }
    }
    fn strings_at(&self) -> usize {
        let entries = self.term_end(self.terms, 1).unwrap_or(u32::MAX as usize);
        self.postings_at()
            .saturating_add(4usize.saturating_mul(entries))
    }
    /// Where the bytes end: past the last term's text.
    fn end(&self) -> usize {
        let text = self.term_end(self.terms, 0).unwrap_or(u32::MAX as usize);
        self.strings_at().saturating_add(text)
    }

    fn norm(&self, record: usize) -> f64 {
        f32_at(self.bytes, self.norms_at() + 4 * record).map_or(0.0, f64::from)
    }

    /// The term at `at` (of `self.terms`) and its postings' range.
    fn term(&self, at: usize) -> Option<(&'a [u8], usize, usize)> {
        let (t0, t1) = (self.term_end(at, 0)?, self.term_end(at + 1, 0)?);
        let (p0, p1) = (self.term_end(at, 1)?, self.term_end(at + 1, 1)?);
        let strings = self.strings_at();
        let text = self
            .bytes
            .get(strings.checked_add(t0)?..strings.checked_add(t1)?)?;
        Some((text, p0, p1))
    }

    /// Where `word`'s postings are, found through the slots (each slot probed once at most).
    fn find(&self, word: &str) -> Option<(usize, usize)> {
        let mask = self.slots - 1;
        let mut s = (fnv(word.as_bytes()) as usize) & mask;
        for _ in 0..self.slots {
            let at = (u32_at(self.bytes, self.slots_at() + 4 * s)? as usize).checked_sub(1)?;
            let (w, p0, p1) = self.term(at)?;
            if w == word.as_bytes() {
                return Some((p0, p1));
            }
            s = (s + 1) & mask;
        }
        None
    }

    /// The postings of `word`: each record that writes it and its weight there.
    fn postings(&self, word: &str) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (p0, p1) = self.find(word).unwrap_or((0, 0));
        let at = self.postings_at();
        let scale = self.largest / f64::from(u16::MAX);
        (p0..p1).filter_map(move |k| {
            let record = usize::from(u16_at(self.bytes, at + 4 * k)?);
            let weight = f64::from(u16_at(self.bytes, at + 4 * k + 2)?) * scale;
            (record < self.records).then_some((record, weight))
        })
    }
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    let b: [u8; 2] = bytes.get(at..at.checked_add(2)?)?.try_into().ok()?;
    Some(u16::from_le_bytes(b))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

fn f32_at(bytes: &[u8], at: usize) -> Option<f32> {
    u32_at(bytes, at).map(f32::from_bits)
}

/// What PATH's text echoes of each record: its cosine with each (by the record's place in
/// the vocabulary), and the record with the evidence, if one has it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Echo {
    pub cosines: Vec<f64>,
    /// The records with the evidence: their places and the evidence of each.
    pub evidence: Vec<(usize, Evidence)>,
}

/// The [`Echo`] of `text` (PATH's bytes; `path` root-relative) against `vocabulary`; `None`
/// for a binary file.
pub fn echo(vocabulary: &Vocabulary, path: &str, text: &[u8]) -> Option<Echo> {
    if vocabulary.records < MIN_RECORDS {
        return None;
    }
    let text = &text[..text.len().min(MAX_BYTES)];
    if text[..text.len().min(8000)].contains(&0) {
        return None;
    }
    // Each word's count and the first way it was written.
    let mut counts: HashMap<String, (u32, String), Fast> = HashMap::default();
    for (bytes, times) in [(text, 1), (path.as_bytes(), PATH_TIMES)] {
        each_word(bytes, |w, written| match counts.get_mut(w) {
            Some((n, _)) => *n += times,
            None => {
                counts.insert(w.to_string(), (times, written.to_string()));
            }
        });
    }
    let mut dots = vec![0f64; vocabulary.records];
    let mut norm = 0f64;
    let mut weights: Vec<(&str, f64)> = Vec::with_capacity(counts.len());
    for (w, (c, _)) in &counts {
        let weight = (1.0 + f64::from(*c).ln()) * rarity(w);
        norm += weight * weight;
        weights.push((w, weight));
        for (record, v) in vocabulary.postings(w) {
            dots[record] += weight * v;
        }
    }
    let norm = norm.sqrt();
    let cosines: Vec<f64> = dots
        .iter()
        .enumerate()
        .map(|(i, dot)| match norm * vocabulary.norm(i) {
            d if d > 0.0 => dot / d,
            _ => 0.0,
        })
        .collect();
    let mut order: Vec<usize> = (0..cosines.len()).collect();
    order.sort_by(|a, b| cosines[*b].total_cmp(&cosines[*a]).then(a.cmp(b)));
    let nth = |k: usize| order.get(k).map_or(0.0, |&i| cosines[i]);
    let (best, next, third) = (nth(0), nth(1), nth(2));
    // The first record, when it stands out; else the first two, when PATH echoes both alike
    // and both stand out from the third (a record and its successor, a file wiring two
    // libraries each a record chose).
    let leading = if best >= MIN_COSINE && best >= MARGIN * next {
        1
    } else if next >= MIN_COSINE && next >= MARGIN * third {
        2
    } else {
        0
    };
    let evidence = order
        .iter()
        .take(leading)
        .map(|&i| {
            let mut shared: Vec<(f64, &str)> = weights
                .iter()
                .filter_map(|(w, weight)| {
                    let v = vocabulary.postings(w).find(|(r, _)| *r == i)?.1;
                    Some((weight * v, counts[*w].1.as_str()))
                })
                .collect();
            shared.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            let words = shared
                .into_iter()
                .take(SHOWN)
                .map(|(_, w)| w.to_string())
                .collect();
            (i, Evidence::Text { words })
        })
        .collect();
    Some(Echo { cosines, evidence })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::words_of;

    fn vocab(texts: &[&str]) -> Vec<u8> {
        let words: Vec<Vec<(String, u32)>> = texts.iter().map(|t| words_of("a.md", t)).collect();
        let refs: Vec<&[(String, u32)]> = words.iter().map(Vec::as_slice).collect();
        vocabulary(&refs)
    }

    const RECORDS: &[&str] = &[
        "# Cache sessions\n\nSessions are kept in memory.",
        "# Sign the releases\n\nEvery release is signed.",
        "# Retry the uploads\n\nAn upload is retried three times.",
        "# Watch the library folder\n\nWe poll the directory with a file alteration monitor \
         and its observer.",
        "# Store chats in MVStore\n\nChat history is kept in an MVStore file.",
        "# Use Velocity for templates\n\nPrompts are rendered from Velocity templates.",
        "# Use picocli\n\nThe command line is parsed by picocli.",
        "# Log with tinylog\n\nLogging goes through tinylog.",
    ];

    #[test]
    fn the_record_a_file_echoes_has_the_evidence() {
        let bytes = vocab(RECORDS);
        let v = Vocabulary::read(&bytes, RECORDS.len()).unwrap();
        let code = b"class DirectoryMonitor { FileAlterationObserver observer; \
                     void poll() { monitor.start(); } }";
        let echo = echo(&v, "src/gui/util/DirectoryMonitor.java", code).unwrap();
        let [(at, evidence)] = echo.evidence.as_slice() else {
            panic!("{:?}", echo.evidence)
        };
        assert_eq!(*at, 3);
        let Evidence::Text { words } = evidence else {
            panic!("{evidence:?}")
        };
        assert!(words.contains(&"monitor".to_string()), "{words:?}");
        assert!(echo.cosines[4] < ECHO);
    }

    #[test]
    fn too_few_records_are_not_compared() {
        let bytes = vocab(&RECORDS[..MIN_RECORDS - 1]);
        let v = Vocabulary::read(&bytes, MIN_RECORDS - 1).unwrap();
        assert!(echo(&v, "Poller.java", b"monitor observer directory").is_none());
    }

    #[test]
    fn a_file_echoing_two_records_alike_gives_both_the_evidence() {
        let bytes = vocab(RECORDS);
        let v = Vocabulary::read(&bytes, RECORDS.len()).unwrap();
        let code = b"render(velocityTemplate); parse(picocliCommand);";
        let echo = echo(&v, "src/Main.java", code).unwrap();
        let mut places: Vec<usize> = echo.evidence.iter().map(|(at, _)| *at).collect();
        places.sort_unstable();
        assert_eq!(places, [5, 6]);
    }

    #[test]
    fn a_file_echoing_three_records_alike_gives_no_evidence() {
        let bytes = vocab(RECORDS);
        let v = Vocabulary::read(&bytes, RECORDS.len()).unwrap();
        let code = b"render(velocityTemplate); parse(picocliCommand); log(tinylogLogger);";
        assert_eq!(echo(&v, "src/Main.java", code).unwrap().evidence, []);
    }

    #[test]
    fn damaged_or_foreign_bytes_are_no_vocabulary() {
        let bytes = vocab(RECORDS);
        assert!(Vocabulary::read(&bytes, RECORDS.len() + 1).is_none());
        assert!(Vocabulary::read(&bytes[..bytes.len() - 3], RECORDS.len()).is_none());
        assert!(Vocabulary::read(&[], 0).is_none());
        // Any bytes at all: read or not, never a panic.
        for cut in 0..bytes.len() {
            if let Some(v) = Vocabulary::read(&bytes[..cut], RECORDS.len()) {
                let _ = echo(&v, "a.rs", b"monitor observer directory");
            }
        }
    }

    #[test]
    fn a_binary_file_has_no_echo() {
        let bytes = vocab(RECORDS);
        let v = Vocabulary::read(&bytes, RECORDS.len()).unwrap();
        assert!(echo(&v, "a.bin", b"monitor\0observer").is_none());
    }
}
