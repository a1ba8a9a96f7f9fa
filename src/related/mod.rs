//! `why PATH`'s related records (docs/related.md, ADR-0017): beyond the decisions governing
//! PATH, the records a reader would name for it, each with the evidence that put it there. One
//! file per kind of evidence, each a pure function from what the scan and the index already
//! hold (the records' code mentions and titles, PATH's own text, the commits that changed
//! PATH and each record's first commit) to weighed evidence; `rank` orders them. A related
//! record never governs: no finding, no drift, no hook warning.

mod cited;
mod introduced;
mod link;
mod name;
mod rank;
mod text;
mod title;
mod words;

pub use introduced::FOCUSED_FILES;
pub use rank::{MAX_SHOWN, MIN_SCORE};
pub use text::{echo, vocabulary, Vocabulary};

use crate::git::PathHistory;
use crate::model::{Decision, Evidence, Pickable, Related, Status};

/// A record that may be related to PATH: neither governing it nor PATH's own file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub id: String,
    pub status: Status,
    pub title: String,
    /// The record's file, relative to the root.
    pub path: String,
    /// Whether the record names code of its own: two paths or more it governs or mentions.
    /// Then the commit that added it tells of PATH only beside other evidence
    /// (`introduced::WEIGHT_NAMING`).
    pub names_code: bool,
}

/// One piece of evidence for the candidate at `at`, and its weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighed {
    pub at: usize,
    pub evidence: Evidence,
    pub weight: u32,
}

/// What `why PATH` found of its related records before the history is read: the candidates,
/// and the evidence the records and PATH's own text give (names, links, title words).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Partial {
    path: String,
    candidates: Vec<Candidate>,
    /// Every record's file, governing or not: the history says which of them a commit added.
    files: Vec<String>,
    found: Vec<Weighed>,
    /// By candidate, how much of the record PATH's text echoes (`text::Echo`); empty when
    /// PATH's text was not compared.
    echoes: Vec<f64>,
}

impl Partial {
    /// The candidates for `path` (root-relative) among `records`, those governing it
    /// (`decisions`) left out, with the evidence of names, of PATH's text (`text`: its bytes,
    /// when it is a readable file; compared with the records' words when `vocabulary`, made
    /// of `records`, is given) and of title words. Nothing for the root.
    pub fn new<R: Pickable>(
        records: &[R],
        path: &str,
        decisions: &[Decision],
        text: Option<&[u8]>,
        vocabulary: Option<&Vocabulary>,
    ) -> Partial {
        let path = path.trim_end_matches('/');
        if path.is_empty() {
            return Partial::default();
        }
        let mut candidates: Vec<Candidate> = Vec::new();
        // Each record's place among the candidates. Records sharing an id (each folder of a
        // repository numbering its own, as Open edX's apps do) are candidates each, weighed
        // on their own evidence; `rank` shows an id once.
        let mut place: Vec<Option<usize>> = Vec::with_capacity(records.len());
        for r in records {
            let out = decisions.iter().any(|d| d.id == r.id()) || r.path() == path;
            place.push((!out).then(|| {
                candidates.push(Candidate {
                    id: r.id().to_string(),
                    status: r.status(),
                    title: r.title().to_string(),
                    path: r.path().to_string(),
                    names_code: names_code(r),
                });
                candidates.len() - 1
            }));
        }
        let mut found = Vec::new();
        let by_record = |(i, evidence, weight): (usize, Evidence, u32)| {
            place[i].map(|at| Weighed {
                at,
                evidence,
                weight,
            })
        };
        found.extend(
            name::evidence(records, path)
                .into_iter()
                .filter_map(by_record),
        );
        found.extend(
            words::evidence(records, path)
                .into_iter()
                .filter_map(by_record),
        );
        let mut echoes = Vec::new();
        if let Some(text) = text {
            found.extend(link::evidence(text, path, &candidates));
            let echo = vocabulary.and_then(|v| text::echo(v, path, text));
            if let Some(echo) = echo {
                echoes = vec![0.0; candidates.len()];
                for (i, at) in place.iter().enumerate() {
                    if let (Some(at), Some(c)) = (at, echo.cosines.get(i)) {
                        echoes[*at] = *c;
                    }
                }
                found.extend(
                    echo.evidence
                        .into_iter()
                        .filter_map(|(i, evidence)| by_record((i, evidence, text::WEIGHT))),
                );
            }
        }
        let mut files: Vec<String> = records.iter().map(|r| r.path().to_string()).collect();
        files.sort_unstable();
        files.dedup();
        Partial {
            path: path.to_string(),
            candidates,
            files,
            found,
            echoes,
        }
    }

    /// The path asked about.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether the history could add anything: a path other than the root, and candidates.
    pub fn wants_history(&self) -> bool {
        !self.path.is_empty() && !self.candidates.is_empty()
    }

    /// Every record's file, whose first commits the history is asked for.
    pub fn record_files(&self) -> Vec<&str> {
        self.files.iter().map(String::as_str).collect()
    }

    /// The related records, ranked, with the history's evidence added (`history`: none
    /// outside git or before the first commit; `abbrev` the length commit ids are shown in).
    pub fn finish(mut self, history: Option<&PathHistory>, abbrev: usize) -> Vec<Related> {
        if let Some(history) = history {
            self.found
                .extend(cited::evidence(history, &self.candidates));
            self.found
                .extend(introduced::evidence(history, &self.candidates, abbrev));
        }
        self.unechoed();
        rank::rank(&self.candidates, self.found)
    }
}

impl Partial {
    /// Drops the evidence of each candidate shown only for a name or title words when PATH's
    /// text has next to nothing of the record (`text::ECHO`): a name many records write, or
    /// a title word in PATH's name, that the code never takes up.
    fn unechoed(&mut self) {
        if self.echoes.is_empty() {
            return;
        }
        let mut weak = vec![true; self.candidates.len()];
        for w in &self.found {
            let spelled = match &w.evidence {
                Evidence::Name { term, .. } => name::spelled_out(term, &self.path),
                _ => false,
            };
            if spelled || !matches!(w.evidence, Evidence::Name { .. } | Evidence::Words { .. }) {
                weak[w.at] = false;
            }
        }
        let echoes = &self.echoes;
        self.found
            .retain(|w| !weak[w.at] || echoes.get(w.at).is_some_and(|c| *c >= text::ECHO));
    }
}

/// Whether `r` names two paths of code or more, governed or mentioned.
fn names_code<R: Pickable>(r: &R) -> bool {
    let mut first: Option<&str> = None;
    for p in r.governs().chain(r.code_mentions().map(|m| m.path)) {
        match first {
            None => first = Some(p),
            Some(f) if f != p => return true,
            Some(_) => {}
        }
    }
    false
}
