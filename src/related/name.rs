//! `name` evidence (docs/related.md): a code mention of the record names PATH itself (not a
//! folder above it: that is folder-level evidence), and the term is written as code (in
//! backticks, a compound identifier, a link or a command line) or is distinctive in the
//! repository (the code mentions of at most [`DISTINCTIVE_RECORDS`] records use it).

use crate::model::{Evidence, Pickable};
use crate::text::terms::key;
use std::collections::{HashMap, HashSet};

/// A term is distinctive when the code mentions of at most this many records use it.
pub const DISTINCTIVE_RECORDS: usize = 2;
/// The weight of a name written as code, and of a distinctive one.
pub const AS_CODE: u32 = 2;
pub const DISTINCTIVE: u32 = 1;
/// A mention at or above this confidence was written as code (docs/mentions.md: 0.7 a word in
/// backticks, 0.9 a compound identifier, a link or a command line).
const CODE_CONFIDENCE: f64 = 0.65;

/// For each record (by its place in `records`) whose code mentions name `path`, its best
/// such mention as evidence and its weight.
pub fn evidence<R: Pickable>(records: &[R], path: &str) -> Vec<(usize, Evidence, u32)> {
    // How many records' mentions use each term.
    let mut users: HashMap<String, usize> = HashMap::new();
    for r in records {
        let terms: HashSet<String> = r.code_mentions().iter().map(|m| key(&m.term)).collect();
        for t in terms {
            *users.entry(t).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let best = r
            .code_mentions()
            .iter()
            .filter(|m| m.path.trim_end_matches('/') == path)
            .filter_map(|m| {
                let weight = if m.confidence >= CODE_CONFIDENCE {
                    AS_CODE
                } else if users.get(&key(&m.term)).copied().unwrap_or(0) <= DISTINCTIVE_RECORDS {
                    DISTINCTIVE
                } else {
                    return None;
                };
                Some((weight, m))
            })
            // The heaviest, then the first line.
            .min_by(|a, b| b.0.cmp(&a.0).then(a.1.line.cmp(&b.1.line)));
        if let Some((weight, m)) = best {
            let evidence = Evidence::Name {
                term: m.term.clone(),
                line: m.line,
            };
            out.push((i, evidence, weight));
        }
    }
    out
}
