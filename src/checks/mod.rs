//! The checks of the reference, each finding with its stable code (CONTRACT.md §3, ADR-0002):
//! a pure function of the records and the guides' citations, one file per family. A
//! finding's `path` is the file to edit to fix it; its message names the fix.

mod ids;
mod paths;
mod references;
mod status;
mod supersession;

use crate::model::{DocCitations, Finding, FindingCode, Record, Status};
use std::collections::{HashMap, HashSet};

struct Corpus<'a> {
    records: &'a [Record],
    by_id: HashMap<&'a str, &'a Record>,
    /// The kinds of record the repository has: the prefixes (`ADR`, `RFC`, `DR`) of the
    /// formatted ids of its records.
    kinds: HashSet<&'a str>,
}

impl<'a> Corpus<'a> {
    fn new(records: &'a [Record]) -> Corpus<'a> {
        let mut by_id = HashMap::new();
        for r in records {
            by_id.entry(r.id.as_str()).or_insert(r);
        }
        let kinds = records.iter().filter_map(|r| kind_of(&r.id)).collect();
        Corpus {
            records,
            by_id,
            kinds,
        }
    }

    /// Whether the repository has records of the kind `id` names (an `RFC 2119` in a
    /// repository of ADRs names an IETF RFC, not a missing record).
    fn has_kind_of(&self, id: &str) -> bool {
        kind_of(id).is_some_and(|k| self.kinds.contains(k))
    }

    fn exists(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    fn get(&self, id: &str) -> Option<&'a Record> {
        self.by_id.get(id).copied()
    }

    /// Marked superseded, or named as superseded by an existing record.
    fn is_superseded(&self, r: &Record) -> bool {
        r.status == Status::Superseded || r.successors.iter().any(|s| self.exists(s))
    }
}

/// The prefix of a formatted id (`ADR-0007` → `ADR`); `None` for an id that is a file stem.
fn kind_of(id: &str) -> Option<&str> {
    crate::text::ids::number_of(id).and_then(|_| id.split_once('-').map(|(k, _)| k))
}

/// Every check over the records and the guides' citations, sorted: problems first, then by
/// record id, code and path.
pub fn run(records: &[Record], docs: &[DocCitations]) -> Vec<Finding> {
    let c = Corpus::new(records);
    let mut out = Vec::new();
    for r in records {
        supersession::supersession(&c, r, &mut out);
        paths::governed_paths(r, &mut out);
        references::references(&c, r, &mut out);
        status::status(r, &mut out);
    }
    ids::duplicate_ids(records, &mut out);
    supersession::cycles(&c, &mut out);
    paths::overlapping_governance(&c, &mut out);
    for doc in docs {
        for id in &doc.cites {
            if let Some(r) = c.get(id).filter(|r| c.is_superseded(r)) {
                let newer = supersession::successors_text(&c, r);
                out.push(Finding::new(
                FindingCode::DocCitesSuperseded,
                id,
                    &doc.path,
                    format!(
                        "{} cites {id}, which is superseded{newer}: update the guide, it may still teach the old decision",
                        doc.path
                    ),
                ));
            }
        }
    }
    out.sort_by(|a, b| {
        (a.severity, &a.record, a.code.as_str(), &a.path, &a.message).cmp(&(
            b.severity,
            &b.record,
            b.code.as_str(),
            &b.path,
            &b.message,
        ))
    });
    out.dedup();
    out
}
