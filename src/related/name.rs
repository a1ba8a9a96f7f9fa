//! `name` evidence (docs/related.md): a code mention of the record names PATH itself (not a
//! folder above it: that is folder-level evidence), and the term is written as code (in
//! backticks, a compound identifier, a link or a command line) or is distinctive in the
//! repository (the code mentions of at most [`DISTINCTIVE_RECORDS`] records use it). A mention
//! of the folder a file is named for (`useApi/` for `useApi/useApi.ts`) names the file; when
//! PATH is a folder, a mention of a path inside it names it too, unless the mentions of more
//! than [`INSIDE_RECORDS`] records fall inside (a folder that broad tells nothing).

use crate::model::{Evidence, Pickable};
use crate::text::terms::key;
use std::collections::{HashMap, HashSet};

type Fast = foldhash::fast::FixedState;

/// A term is distinctive when the code mentions of at most this many records use it.
pub const DISTINCTIVE_RECORDS: usize = 2;
/// The weight of a name written as code, and of a distinctive one.
pub const AS_CODE: u32 = 2;
pub const DISTINCTIVE: u32 = 1;
/// At most this many records' mentions may fall inside PATH for them to name it.
pub const INSIDE_RECORDS: usize = 3;
/// A mention at or above this confidence was written as code (docs/mentions.md: 0.7 a word in
/// backticks, 0.9 a compound identifier, a link or a command line).
const CODE_CONFIDENCE: f64 = 0.65;

/// Whether `term` writes out `path` itself from the root (`` `lib/ai/AiService.java` ``,
/// `./lib/ai/AiService.java`): the record named this very file, in passing or not (a path
/// named in passing does not govern, and is the plainest evidence of a related record).
pub fn spelled_out(term: &str, path: &str) -> bool {
    let term = term.trim_start_matches("./").trim_start_matches('/');
    !path.is_empty() && !path.ends_with('/') && term == path
}

/// For each record (by its place in `records`) whose code mentions name `path`, its best
/// such mention as evidence and its weight.
pub fn evidence<R: Pickable>(records: &[R], path: &str) -> Vec<(usize, Evidence, u32)> {
    // How many records' mentions use each term: counted only when a mention that names PATH
    // is not written as code (most answers meet none; a warm answer's share, issue 41).
    let users: std::cell::OnceCell<HashMap<String, usize, Fast>> = std::cell::OnceCell::new();
    let users_of = |term: &str| {
        let users = users.get_or_init(|| {
            let mut users: HashMap<String, usize, Fast> = HashMap::default();
            for r in records {
                let terms: HashSet<String, Fast> = r.code_mentions().map(|m| key(m.term)).collect();
                for t in terms {
                    *users.entry(t).or_default() += 1;
                }
            }
            users
        });
        users.get(&key(term)).copied().unwrap_or(0)
    };
    let inside = |m: &str| m.starts_with(path) && m[path.len()..].starts_with('/');
    let within = records
        .iter()
        .filter(|r| r.code_mentions().any(|m| inside(m.path)))
        .count();
    // The folder PATH's file is named for: `useApi/` of `useApi/useApi.ts`.
    let named_for = path.rsplit_once('/').and_then(|(parent, name)| {
        let stem = name.split('.').next().unwrap_or(name);
        let folder = parent.rsplit('/').next().unwrap_or(parent);
        (!stem.is_empty() && key(folder) == key(stem)).then_some(parent)
    });
    let names = |m: &crate::model::CodeMentionRef| {
        let at = m.path.trim_end_matches('/');
        at == path || (within <= INSIDE_RECORDS && inside(at)) || named_for == Some(at)
    };
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let best = r
            .code_mentions()
            .filter(|m| names(m))
            .filter_map(|m| {
                let weight = if m.confidence >= CODE_CONFIDENCE || spelled_out(m.term, path) {
                    AS_CODE
                } else if users_of(m.term) <= DISTINCTIVE_RECORDS {
                    // A phrase of one record alone naming PATH itself ("Endpoint Picker"
                    // for `endpoint_picker.go`) tells as a name in code does. Not a path
                    // (named in passing as written, or from below the root with two
                    // candidates: ambiguous).
                    let own = users_of(m.term) == 1;
                    match own
                        && m.path.trim_end_matches('/') == path
                        && m.term.contains(' ')
                        && !m.term.contains('/')
                    {
                        true => AS_CODE,
                        false => DISTINCTIVE,
                    }
                } else {
                    return None;
                };
                Some((weight, m))
            })
            // The heaviest, then the first line.
            .min_by(|a, b| b.0.cmp(&a.0).then(a.1.line.cmp(&b.1.line)));
        if let Some((weight, m)) = best {
            let evidence = Evidence::Name {
                term: m.term.to_string(),
                line: m.line,
            };
            out.push((i, evidence, weight));
        }
    }
    out
}
