//! `graph` and `report --html`: which records and relations a picture shows (docs/pictures.md;
//! ADR-0015). The picture is data (`model::Graph`); `output::graph` and `output::html` draw it.

use super::pick::find_id;
use super::{Answer, Ask, Error, Result, Session};
use crate::model::{Edge, EdgeKind, Graph, Node, NodeKind, Record, Status};
use crate::text::ids;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// What a picture shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    /// `--focus ID|PATH`: only the neighbourhood of a record, or of the decisions governing a
    /// path.
    pub focus: Option<String>,
    /// `--depth N`: how many edges away from the focus (1 unless given).
    pub depth: Option<usize>,
    /// `--all`: superseded and deprecated records too.
    pub all: bool,
    /// `--governs`: the paths each current record governs, as nodes.
    pub governs: bool,
}

/// A picture and the full check it was drawn from.
#[derive(Debug, Clone)]
pub struct Pictured {
    pub graph: Graph,
    pub answer: Answer,
}

/// Answers the full check, then picks what `shown` asks for. An unknown record id is an error;
/// a path governed by no decision gives an empty picture.
pub fn picture(session: &mut Session, shown: &Shown) -> Result<Pictured> {
    let answer = session.answer(&Ask::Check, None)?;
    let seeds = match &shown.focus {
        None => None,
        Some(focus) => Some(focus_ids(session, &answer.report.records, focus)?),
    };
    let graph = draw(
        &answer.report.records,
        seeds.as_deref(),
        shown.depth.unwrap_or(1),
        shown.all,
        shown.governs,
    );
    Ok(Pictured { graph, answer })
}

/// The records a `--focus` starts from: the record it names, or the decisions governing it as
/// a path (an input that reads as an id but names no record is an unknown record).
fn focus_ids(session: &mut Session, records: &[Record], focus: &str) -> Result<Vec<String>> {
    match find_id(records, focus) {
        Ok(id) => return Ok(vec![id]),
        Err(e)
            if Error::is_unknown_record(&e) && ids::normalise_query_id(focus.trim()).is_none() => {}
        Err(e) => return Err(e),
    }
    let why = session.answer(&Ask::Why(focus.to_string()), None)?;
    Ok(match why.report.query {
        Some(crate::model::Query::Why { decisions, .. }) => {
            decisions.into_iter().map(|d| d.id).collect()
        }
        _ => Vec::new(),
    })
}

/// Hidden from a picture unless `--all` or focused.
fn hidden(status: Status) -> bool {
    matches!(status, Status::Superseded | Status::Deprecated)
}

/// The picture of `records`: every relation between two known records once (a pair that
/// supersedes or amends is not also drawn as citing), then the records shown: the
/// neighbourhood of `seeds` within `depth` edges when focused (any status), else every record
/// but the superseded and deprecated (unless `all`).
pub fn draw(
    records: &[Record],
    seeds: Option<&[String]>,
    depth: usize,
    all: bool,
    governs: bool,
) -> Graph {
    let mut first: HashMap<&str, &Record> = HashMap::with_capacity(records.len());
    let mut order: Vec<&Record> = Vec::with_capacity(records.len());
    for r in records {
        if !first.contains_key(r.id.as_str()) {
            first.insert(r.id.as_str(), r);
            order.push(r);
        }
    }
    // Each pair once, with its strongest relation (supersedes, then amends, then cites).
    let mut kinds: BTreeMap<(&str, &str), EdgeKind> = BTreeMap::new();
    let mut put = |from: &str, to: &str, kind: EdgeKind| {
        let key = |id: &str| first.get_key_value(id).map(|(k, _)| *k);
        if let (Some(f), Some(t)) = (key(from), key(to)) {
            if f != t {
                let e = kinds.entry((f, t)).or_insert(kind);
                *e = (*e).min(kind);
            }
        }
    };
    for r in &order {
        r.supersedes
            .iter()
            .for_each(|s| put(&r.id, s, EdgeKind::Supersedes));
        r.superseded_by
            .iter()
            .for_each(|s| put(s, &r.id, EdgeKind::Supersedes));
        r.amends
            .iter()
            .for_each(|a| put(&r.id, a, EdgeKind::Amends));
        r.cites.iter().for_each(|c| put(&r.id, c, EdgeKind::Cites));
    }
    // Nor a citation back along a stronger edge (a superseded record naming its successor).
    let strong: BTreeSet<(&str, &str)> = kinds
        .iter()
        .filter(|(_, k)| **k != EdgeKind::Cites)
        .map(|(p, _)| *p)
        .collect();
    kinds.retain(|(a, b), k| *k != EdgeKind::Cites || !strong.contains(&(*b, *a)));

    let shown: BTreeSet<&str> = match seeds {
        Some(seeds) => neighbourhood(&kinds, seeds, depth),
        None => order
            .iter()
            .filter(|r| all || !hidden(r.status))
            .map(|r| r.id.as_str())
            .collect(),
    };
    let mut graph = Graph::default();
    for r in &order {
        if shown.contains(r.id.as_str()) {
            graph.nodes.push(Node {
                id: r.id.clone(),
                title: r.title.clone(),
                status: Some(r.status),
                path: r.path.clone(),
                kind: NodeKind::Record,
            });
        }
    }
    for ((from, to), kind) in &kinds {
        if shown.contains(from) && shown.contains(to) {
            graph.edges.push(Edge {
                from: from.to_string(),
                to: to.to_string(),
                kind: *kind,
            });
        }
    }
    if governs {
        let mut paths: BTreeSet<&str> = BTreeSet::new();
        for r in &order {
            if shown.contains(r.id.as_str()) && r.status.is_current() {
                for g in &r.governs {
                    paths.insert(g);
                    graph.edges.push(Edge {
                        from: r.id.clone(),
                        to: g.clone(),
                        kind: EdgeKind::Governs,
                    });
                }
            }
        }
        for p in paths {
            graph.nodes.push(Node {
                id: p.to_string(),
                title: p.to_string(),
                status: None,
                path: p.to_string(),
                kind: NodeKind::Path,
            });
        }
    }
    graph.edges.sort();
    graph.edges.dedup();
    graph
}

/// The records within `depth` edges (either direction) of `seeds`.
fn neighbourhood<'a>(
    kinds: &BTreeMap<(&'a str, &'a str), EdgeKind>,
    seeds: &'a [String],
    depth: usize,
) -> BTreeSet<&'a str> {
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    for (a, b) in kinds.keys() {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default().push(a);
    }
    let mut seen: BTreeSet<&str> = seeds.iter().map(String::as_str).collect();
    let mut queue: VecDeque<(&str, usize)> = seeds.iter().map(|s| (s.as_str(), 0)).collect();
    while let Some((id, d)) = queue.pop_front() {
        if d == depth {
            continue;
        }
        for n in next.get(id).into_iter().flatten() {
            if seen.insert(n) {
                queue.push_back((n, d + 1));
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, status: Status) -> Record {
        Record::bare(
            id,
            &format!("Title of {id}"),
            status,
            &format!("docs/{id}.md"),
        )
    }

    /// 1 superseded by 2; 3 amends 2 and cites 2; 4 cites 3; 5 deprecated, cited by 4; 6 alone.
    fn records() -> Vec<Record> {
        let mut r1 = rec("ADR-0001", Status::Superseded);
        r1.superseded_by = vec!["ADR-0002".into()];
        r1.cites = vec!["ADR-0002".into()];
        let mut r2 = rec("ADR-0002", Status::Accepted);
        r2.supersedes = vec!["ADR-0001".into()];
        r2.cites = vec!["ADR-0001".into(), "ADR-0099".into()];
        r2.governs = vec!["src/a/".into()];
        let mut r3 = rec("ADR-0003", Status::Accepted);
        r3.amends = vec!["ADR-0002".into()];
        r3.cites = vec!["ADR-0002".into()];
        r3.governs = vec!["src/b.rs".into(), "src/a/".into()];
        let mut r4 = rec("ADR-0004", Status::Proposed);
        r4.cites = vec!["ADR-0003".into(), "ADR-0005".into()];
        r4.governs = vec!["src/c/".into()];
        let r5 = rec("ADR-0005", Status::Deprecated);
        let r6 = rec("ADR-0006", Status::Accepted);
        vec![r1, r2, r3, r4, r5, r6]
    }

    fn edges(g: &Graph) -> Vec<String> {
        g.edges
            .iter()
            .map(|e| format!("{} {} {}", e.from, e.kind.as_str(), e.to))
            .collect()
    }

    fn ids(g: &Graph) -> Vec<&str> {
        g.nodes.iter().map(|n| n.id.as_str()).collect()
    }

    #[test]
    fn each_pair_is_drawn_once_with_its_strongest_relation() {
        let g = draw(&records(), None, 1, true, false);
        assert_eq!(
            edges(&g),
            [
                "ADR-0002 supersedes ADR-0001",
                "ADR-0003 amends ADR-0002",
                "ADR-0004 cites ADR-0003",
                "ADR-0004 cites ADR-0005",
            ]
        );
        assert_eq!(ids(&g).len(), 6);
    }

    #[test]
    fn superseded_and_deprecated_records_are_hidden_unless_all() {
        let g = draw(&records(), None, 1, false, false);
        assert_eq!(ids(&g), ["ADR-0002", "ADR-0003", "ADR-0004", "ADR-0006"]);
        assert!(!edges(&g)
            .iter()
            .any(|e| e.contains("0001") || e.contains("0005")));
    }

    #[test]
    fn a_focus_keeps_its_neighbourhood_of_any_status() {
        let recs = records();
        let seed = ["ADR-0002".to_string()];
        assert_eq!(
            ids(&draw(&recs, Some(&seed), 1, false, false)),
            ["ADR-0001", "ADR-0002", "ADR-0003"]
        );
        assert_eq!(
            ids(&draw(&recs, Some(&seed), 2, false, false)),
            ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]
        );
        assert_eq!(
            ids(&draw(&recs, Some(&seed), 0, false, false)),
            ["ADR-0002"]
        );
    }

    #[test]
    fn governs_adds_the_paths_of_current_records_only() {
        let g = draw(&records(), None, 1, false, true);
        let paths: Vec<&str> = g
            .nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Path)
            .map(|n| n.id.as_str())
            .collect();
        // ADR-0004 is proposed: its src/c/ is not drawn.
        assert_eq!(paths, ["src/a/", "src/b.rs"]);
        let governs: Vec<String> = edges(&g)
            .into_iter()
            .filter(|e| e.contains("governs"))
            .collect();
        assert_eq!(
            governs,
            [
                "ADR-0002 governs src/a/",
                "ADR-0003 governs src/a/",
                "ADR-0003 governs src/b.rs"
            ]
        );
    }
}
