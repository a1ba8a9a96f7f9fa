//! The checks of the reference, each finding with its stable code (CONTRACT.md §3, ADR-0002).
//!
//! A finding's `path` is the file to edit to fix it; its message names the fix.

use crate::model::{DocCitations, Finding, Record, Severity, Status};
use std::collections::{BTreeMap, BTreeSet, HashMap};

struct Corpus<'a> {
    records: &'a [Record],
    by_id: HashMap<&'a str, &'a Record>,
}

impl<'a> Corpus<'a> {
    fn new(records: &'a [Record]) -> Corpus<'a> {
        let mut by_id = HashMap::new();
        for r in records {
            by_id.entry(r.id.as_str()).or_insert(r);
        }
        Corpus { records, by_id }
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

fn finding(severity: Severity, code: &str, record: &str, path: &str, message: String) -> Finding {
    Finding {
        severity,
        code: code.to_string(),
        record: record.to_string(),
        path: path.to_string(),
        message,
    }
}

/// Every check over the records and the guides' citations, sorted: problems first, then by
/// record id, code and path.
pub fn run(records: &[Record], docs: &[DocCitations]) -> Vec<Finding> {
    let c = Corpus::new(records);
    let mut out = Vec::new();
    for r in records {
        supersession(&c, r, &mut out);
        governed_paths(r, &mut out);
        references(&c, r, &mut out);
        status(r, &mut out);
    }
    duplicate_ids(records, &mut out);
    cycles(&c, &mut out);
    overlapping_governance(&c, &mut out);
    for doc in docs {
        for id in &doc.cites {
            if let Some(r) = c.get(id).filter(|r| c.is_superseded(r)) {
                let newer = successors_text(&c, r);
                out.push(finding(
                    Severity::Warning,
                    "doc-cites-superseded",
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
        (a.severity, &a.record, &a.code, &a.path, &a.message)
            .cmp(&(b.severity, &b.record, &b.code, &b.path, &b.message))
    });
    out.dedup();
    out
}

fn successors_text(c: &Corpus, r: &Record) -> String {
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

fn supersession(c: &Corpus, r: &Record, out: &mut Vec<Finding>) {
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
        out.push(finding(
            Severity::Problem,
            "superseded-still-current",
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
            None => out.push(finding(
                Severity::Problem,
                "superseded-by-unknown",
                &r.id,
                &r.path,
                format!(
                    "{} says it is superseded by {s}, which doesn't exist: correct the id, or write the missing record",
                    r.id
                ),
            )),
            Some(succ) if !succ.supersedes.contains(&r.id) => out.push(finding(
                Severity::Warning,
                "successor-not-reciprocal",
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
        out.push(finding(
            Severity::Warning,
            "superseded-without-successor",
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
            out.push(finding(
                Severity::Warning,
                "supersedes-unknown",
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

fn governed_paths(r: &Record, out: &mut Vec<Finding>) {
    if !r.status.is_current() {
        return;
    }
    for m in &r.missing_paths {
        match r.moved.get(m) {
            Some(candidates) => out.push(finding(
                Severity::Warning,
                "governed-path-moved",
                &r.id,
                &r.path,
                format!(
                    "{} names `{m}`, which is gone; it may have moved to {}: update the path in the record",
                    r.id,
                    candidates
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
            None => out.push(finding(
                Severity::Problem,
                "governed-path-gone",
                &r.id,
                &r.path,
                format!(
                    "{} names `{m}`, which is gone with no close-named sibling: deprecate the record if the decision died, or find where the code went",
                    r.id
                ),
            )),
        }
    }
}

fn references(c: &Corpus, r: &Record, out: &mut Vec<Finding>) {
    for id in &r.cites {
        if r.supersedes.contains(id) || r.superseded_by.contains(id) {
            continue;
        }
        match c.get(id) {
            None => out.push(finding(
                Severity::Warning,
                "unknown-reference",
                &r.id,
                &r.path,
                format!(
                    "{} refers to {id}, which doesn't exist: correct it, or remove it",
                    r.id
                ),
            )),
            Some(cited) if r.status.is_current() && c.is_superseded(cited) => {
                if cited.successors.contains(&r.id) {
                    continue;
                }
                out.push(finding(
                    Severity::Warning,
                    "cites-superseded",
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

fn status(r: &Record, out: &mut Vec<Finding>) {
    match r.status {
        Status::Unknown => out.push(finding(
            Severity::Warning,
            "status-missing",
            &r.id,
            &r.path,
            format!("{} has no status: add a Status line", r.id),
        )),
        Status::Unrecognised => out.push(finding(
            Severity::Warning,
            "status-unrecognised",
            &r.id,
            &r.path,
            format!(
                "{} has the status \"{}\", which is not a known status word: correct the Status line (proposed, accepted, implemented, rejected, deprecated, superseded)",
                r.id, r.status_text
            ),
        )),
        _ => {}
    }
}

fn duplicate_ids(records: &[Record], out: &mut Vec<Finding>) {
    let mut by_id: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_id.entry(r.id.as_str()).or_default().push(r);
    }
    for (id, mut group) in by_id {
        group.sort_by(|a, b| a.path.cmp(&b.path));
        for extra in group.iter().skip(1) {
            out.push(finding(
                Severity::Problem,
                "duplicate-id",
                id,
                &extra.path,
                format!(
                    "{} and {} both have the id {id}: renumber one, and fix the references to it",
                    group[0].path, extra.path
                ),
            ));
        }
    }
}

/// Supersession cycles: strongly connected components of the "supersedes" graph.
fn cycles(c: &Corpus, out: &mut Vec<Finding>) {
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
        out.push(finding(
            Severity::Problem,
            "supersession-cycle",
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

fn related(a: &Record, b: &Record) -> bool {
    let names = |x: &Record, y: &Record| {
        x.supersedes.contains(&y.id) || x.amends.contains(&y.id) || x.superseded_by.contains(&y.id)
    };
    names(a, b) || names(b, a)
}

fn overlapping_governance(c: &Corpus, out: &mut Vec<Finding>) {
    let mut by_entry: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in c.records.iter().filter(|r| r.status.is_current()) {
        for g in &r.governs {
            by_entry.entry(g.as_str()).or_default().push(r);
        }
    }
    let mut pairs: BTreeMap<(&str, &str), (&Record, Vec<&str>)> = BTreeMap::new();
    for (entry, group) in &by_entry {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                if a.id == b.id || related(a, b) {
                    continue;
                }
                let (first, later) = if a.id <= b.id { (a, b) } else { (b, a) };
                pairs
                    .entry((first.id.as_str(), later.id.as_str()))
                    .or_insert_with(|| (later, Vec::new()))
                    .1
                    .push(entry);
            }
        }
    }
    for ((first, later_id), (later, shared)) in pairs {
        out.push(finding(
            Severity::Warning,
            "overlapping-governance",
            later_id,
            &later.path,
            format!(
                "{first} and {later_id} both govern {}, and neither supersedes nor amends the other: a person reads both and decides: supersede, amend, or narrow one's scope",
                shared
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
}
