//! References: ids that name no record, and current records citing superseded ones.

use super::supersession::successors_text;
use super::Corpus;
use crate::model::{DocCitations, Finding, FindingCode, Record};

pub(super) fn references(c: &Corpus, r: &Record, out: &mut Vec<Finding>) {
    // A set, not a search of the lists per citation: a record may name thousands (ADR-0011).
    let related: std::collections::HashSet<&str> = r
        .supersedes
        .iter()
        .chain(&r.superseded_by)
        .map(String::as_str)
        .collect();
    for id in &r.cites {
        if related.contains(id.as_str()) {
            continue;
        }
        match c.get(id) {
            // A mention of a kind the repository has no records of names something else, and
            // so does a well-known IETF RFC in a repository of RFCs (docs/reading.md).
            None if !c.has_kind_of(id) || is_ietf_standard(id) => {}
            None => out.push(Finding::new(
                FindingCode::UnknownReference,
                &r.id,
                &r.path,
                format!(
                    "{} refers to {id}, which doesn't exist: correct it, or remove it",
                    r.id
                ),
            )),
            Some(cited) if r.status.is_current() && c.is_superseded(cited) => {
                // The record that superseded it, or one that cites a successor too (written
                // knowing the newer decision), is not left behind by it; nor is one that names
                // it only as what it replaces.
                let successors = c.successors_of(cited);
                if r.cites_replaced.contains(id)
                    || successors.contains(r.id.as_str())
                    || r.cites.iter().any(|id| successors.contains(id.as_str()))
                {
                    continue;
                }
                out.push(Finding::new(
                FindingCode::CitesSuperseded,
                &r.id,
                    &r.path,
                    format!(
                        "{} cites {id}, which has since been superseded{}: check the citing decision still holds against the newer one",
                        r.id,
                        successors_text(c, cited)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
}

/// The IETF RFCs software documents cite most (keywords, dates, URIs, UUIDs, mail, HTTP,
/// OAuth, JWT, JSON, TLS, semantic versioning's neighbours): `RFC 3339` in an RFC repository
/// whose own RFC 3339 doesn't exist names the standard, not a missing record.
const IETF_STANDARDS: &[u32] = &[
    791, 793, 1035, 1123, 1918, 2045, 2046, 2119, 2616, 2818, 3339, 3986, 3987, 4122, 4180, 4648,
    5280, 5321, 5322, 5789, 6125, 6455, 6570, 6749, 6750, 6838, 6901, 6902, 7159, 7230, 7231, 7232,
    7233, 7234, 7235, 7396, 7515, 7516, 7517, 7518, 7519, 7540, 7636, 8174, 8259, 8446, 8615, 9110,
    9111, 9112, 9113, 9114, 9562,
];

fn is_ietf_standard(id: &str) -> bool {
    id.strip_prefix("RFC-")
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| IETF_STANDARDS.contains(&n))
}

/// A guide that cites a superseded record may still teach the old decision: unless it also
/// cites a successor of it (or a successor's successor), and so already teaches the new one
/// (docs/reading.md).
pub(super) fn doc_citations(c: &Corpus, docs: &[DocCitations], out: &mut Vec<Finding>) {
    for doc in docs {
        for id in &doc.cites {
            let Some(r) = c.get(id).filter(|r| c.is_superseded(r)) else {
                continue;
            };
            if c.successors_of(r)
                .iter()
                .any(|s| doc.cites.iter().any(|cited| cited == s))
            {
                continue;
            }
            let newer = successors_text(c, r);
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
