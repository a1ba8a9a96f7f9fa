//! The ranking of related records (docs/related.md): each record's evidence weighed and summed,
//! records under [`MIN_SCORE`] dropped, the rest by score (highest first), ties by id, at most
//! [`MAX_SHOWN`], and none under half the first's score: where the evidence falls off, the
//! list ends (readers judged 89% of the first records shown right, 56% of the second and
//! third, 5 of 12 of those under half the first's score; issue 36).

use super::{Candidate, Weighed};
use crate::model::{Evidence, Related};

/// At most this many related records are shown.
pub const MAX_SHOWN: usize = 3;
/// A record needs at least this score: a name written as code, a title word no other title
/// has, or anything stronger; a bare distinctive name or a title word two titles share needs
/// more evidence beside it.
pub const MIN_SCORE: u32 = 2;

/// The order evidence is listed in: the strongest kinds first.
fn kind_order(e: &Evidence) -> u8 {
    match e {
        Evidence::Link { .. } => 0,
        Evidence::Cited { .. } => 1,
        Evidence::Introduced { .. } => 2,
        Evidence::Name { .. } => 3,
        Evidence::Words { .. } => 4,
        Evidence::Text { .. } => 5,
    }
}

pub fn rank(candidates: &[Candidate], found: Vec<Weighed>) -> Vec<Related> {
    let mut by: Vec<(u32, Vec<Evidence>)> = vec![(0, Vec::new()); candidates.len()];
    for w in found {
        if let Some((score, evidence)) = by.get_mut(w.at) {
            *score += w.weight;
            evidence.push(w.evidence);
        }
    }
    let mut out: Vec<Related> = candidates
        .iter()
        .zip(by)
        .filter(|(_, (score, _))| *score >= MIN_SCORE)
        .map(|(c, (score, mut evidence))| {
            evidence.sort_by_key(kind_order);
            Related {
                id: c.id.clone(),
                status: c.status,
                score,
                evidence,
                title: c.title.clone(),
            }
        })
        .collect();
    out.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.id.cmp(&b.id)));
    // Records sharing an id are one decision: its best-weighed record stands for it.
    let mut seen = std::collections::HashSet::new();
    out.retain(|r| seen.insert(r.id.clone()));
    out.truncate(MAX_SHOWN);
    let first = out.first().map_or(0, |r| r.score);
    out.retain(|r| 2 * r.score >= first);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;

    fn ranked(scores: &[u32]) -> Vec<(String, u32)> {
        let candidates: Vec<Candidate> = (0..scores.len())
            .map(|i| Candidate {
                id: format!("ADR-{i}"),
                status: Status::Accepted,
                title: format!("Title {i}"),
                path: format!("docs/adr/{i}.md"),
                names_code: false,
            })
            .collect();
        let found = scores
            .iter()
            .enumerate()
            .map(|(at, &weight)| Weighed {
                at,
                evidence: Evidence::Cited { commits: weight },
                weight,
            })
            .collect();
        rank(&candidates, found)
            .into_iter()
            .map(|r| (r.id, r.score))
            .collect()
    }

    #[test]
    fn the_list_ends_where_the_score_falls_under_half_the_first() {
        assert_eq!(ranked(&[5, 2]), [("ADR-0".to_string(), 5)]);
        assert_eq!(ranked(&[4, 2]).len(), 2);
        assert_eq!(ranked(&[2, 5, 5, 3]).len(), 3);
        assert_eq!(ranked(&[7, 3, 1]).len(), 1);
        assert_eq!(ranked(&[1]).len(), 0);
    }
}
