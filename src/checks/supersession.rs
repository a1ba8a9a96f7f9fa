//! Supersession: still-current superseded records, unknown or one-sided successors, and
//! cycles (the reference's checks; docs/reading.md).

use super::Corpus;
use crate::model::{Finding, FindingCode, Record, Status};
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(super) fn successors_text(c: &Corpus, r: &Record) -> String {
    let known: Vec<&str> = r
        .successors
        .iter()
        .filter(|s| c.exists(s))
        .map(String::as_str)
        .collect();
    if known.is_empty() {
        String::new()
    } else {
        format!(" by {}", known.join(", "))
    }
}

pub(super) fn supersession(c: &Corpus, r: &Record, out: &mut Vec<Finding>) {
    let live_successors: Vec<&str> = r
        .successors
        .iter()
        .filter(|s| c.exists(s))
        .map(String::as_str)
        .collect();
    let still_current = matches!(
        r.status,
        Status::Accepted | Status::Implemented | Status::Proposed | Status::Unknown
    );
    if still_current && !live_successors.is_empty() {
        let first = live_successors[0];
        let marked = if r.status == Status::Unknown {
            "has no status".to_string()
        } else {
            format!("is still marked {}", r.status.as_str())
        };
        out.push(Finding::new(
            FindingCode::SupersededStillCurrent,
            &r.id,
            &r.path,
            format!(
                "{} is superseded by {} but {marked}: set its Status to `Superseded by {first}`",
                r.id,
                live_successors.join(", ")
            ),
        ));
    }
    for s in &r.superseded_by {
        match c.get(s) {
            None => out.push(Finding::new(
                FindingCode::SupersededByUnknown,
                &r.id,
                &r.path,
                format!(
                    "{} says it is superseded by {s}, which doesn't exist: correct the id, or write the missing record",
                    r.id
                ),
            )),
            Some(succ) if !succ.supersedes.contains(&r.id) => out.push(Finding::new(
                FindingCode::SuccessorNotReciprocal,
                &r.id,
                &succ.path,
                format!(
                    "{} says it is superseded by {s}, but {s} doesn't say it supersedes {}: add \"Supersedes {}\" to {s}",
                    r.id, r.id, r.id
                ),
            )),
            Some(_) => {}
        }
    }
    if r.status == Status::Superseded && r.successors.is_empty() {
        out.push(Finding::new(
            FindingCode::SupersededWithoutSuccessor,
            &r.id,
            &r.path,
            format!(
                "{} is marked superseded but names no successor: name it (\"Superseded by <id>\")",
                r.id
            ),
        ));
    }
    for s in &r.supersedes {
        if !c.exists(s) {
            out.push(Finding::new(
                FindingCode::SupersedesUnknown,
                &r.id,
                &r.path,
                format!(
                    "{} supersedes {s}, which doesn't exist: correct the id",
                    r.id
                ),
            ));
        }
    }
}

/// Supersession cycles: strongly connected components of the "supersedes" graph.
pub(super) fn cycles(c: &Corpus, out: &mut Vec<Finding>) {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for r in c.records {
        for s in &r.supersedes {
            if c.exists(s) {
                edges.entry(&r.id).or_default().insert(s);
            }
        }
        for s in &r.superseded_by {
            if let Some(newer) = c.get(s) {
                edges.entry(&newer.id).or_default().insert(&r.id);
            }
        }
    }
    for component in strongly_connected(&edges) {
        if component.len() < 2 {
            continue;
        }
        let first = component[0];
        let path = c.get(first).map(|r| r.path.as_str()).unwrap_or("");
        out.push(Finding::new(
            FindingCode::SupersessionCycle,
            first,
            path,
            format!(
                "{} supersede each other in a cycle: break it, one record must be the current one",
                component.join(", ")
            ),
        ));
    }
}

/// Tarjan's algorithm, iterative; each component sorted.
fn strongly_connected<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut nodes: BTreeSet<&str> = edges.keys().copied().collect();
    for targets in edges.values() {
        nodes.extend(targets.iter().copied());
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut low: HashMap<&str, usize> = HashMap::new();
    let mut on_stack: BTreeSet<&str> = BTreeSet::new();
    let mut stack: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    let empty = BTreeSet::new();
    let mut next = 0;
    for &start in &nodes {
        if index.contains_key(start) {
            continue;
        }
        let mut work: Vec<(&str, Vec<&str>)> = Vec::new();
        index.insert(start, next);
        low.insert(start, next);
        next += 1;
        stack.push(start);
        on_stack.insert(start);
        work.push((
            start,
            edges.get(start).unwrap_or(&empty).iter().copied().collect(),
        ));
        while let Some((v, pending)) = work.last_mut() {
            let v = *v;
            if let Some(w) = pending.pop() {
                if !index.contains_key(w) {
                    index.insert(w, next);
                    low.insert(w, next);
                    next += 1;
                    stack.push(w);
                    on_stack.insert(w);
                    work.push((w, edges.get(w).unwrap_or(&empty).iter().copied().collect()));
                } else if on_stack.contains(w) {
                    let lw = index[w].min(low[v]);
                    low.insert(v, lw);
                }
            } else {
                work.pop();
                if let Some((parent, _)) = work.last() {
                    let lp = low[*parent].min(low[v]);
                    low.insert(parent, lp);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack.remove(w);
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    component.sort();
                    out.push(component);
                }
            }
        }
    }
    out
}
