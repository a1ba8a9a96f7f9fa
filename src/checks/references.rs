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
            // A mention of a kind the repository has no records of names something else.
            None if !c.has_kind_of(id) => {}
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
                // knowing the newer decision), is not left behind by it.
                let successors = c.successors_of(cited);
                if successors.contains(r.id.as_str())
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

/// A guide that cites a superseded record may still teach the old decision: unless it also
/// cites a successor of it (or a successor's successor), and so already teaches the new one
/// (CONTRACT.md §8).
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
