//! `context PATH…`: the current decisions governing the paths in their own words, within a
//! budget, for an agent about to edit them (docs/agents.md; ADR-0014). Each path is a `why`
//! question of the same session (the index brought up to date once); the records' files are
//! read for their words, and what is kept is measured on the Markdown `output` renders.

use super::{Answer, Ask, Progress, Session};
use crate::model::{
    tokens, Commit, ContextDecision, ContextPack, ContextSection, HistoryLine, Omitted, Query,
    Record, Report, Status,
};
use crate::output::context::Measure;
use crate::text::sections::{self, Part, Section};

/// The budget when none is given, in tokens (characters/4).
pub const DEFAULT_BUDGET: usize = 2000;
/// A section is cut short only when at least this many of its characters still fit; else it
/// is left out whole.
const SHORTEST_CUT: usize = 120;

impl Session {
    /// The context pack for `paths`, within `budget` tokens.
    pub fn context(
        &mut self,
        paths: &[String],
        budget: usize,
        progress: Progress,
    ) -> super::Result<Answer> {
        let mut asked = Vec::new();
        let mut diagnostics = Vec::new();
        let mut scanned = false;
        let mut report: Option<Report> = None;
        // Each decision once: (id, the asked paths, matches, declarations), in `why`'s order.
        let mut found: Vec<Found> = Vec::new();
        // The records that only mention an asked path, each once (docs/mentions.md).
        let mut mentions: Vec<crate::model::MentionedBy> = Vec::new();
        // The records related to an asked path, each once, as `why` ranked them
        // (docs/related.md).
        let mut related: Vec<crate::model::Related> = Vec::new();
        // The rules that apply to each asked path (docs/rules.md).
        let mut rules: Vec<crate::model::PathRules> = Vec::new();
        // The asked paths that are a record's own file (docs/agents.md).
        let mut record_files: Vec<crate::model::RecordFile> = Vec::new();
        for path in paths {
            let answer = self.answer(&Ask::Why(path.clone()), progress)?;
            scanned |= answer.scanned;
            for d in answer.diagnostics {
                if !diagnostics.contains(&d) {
                    diagnostics.push(d);
                }
            }
            let mut part = answer.report;
            let Some(Query::Why {
                why,
                decisions,
                mentioned_by,
                related: path_related,
                rules: path_rules,
                record_of,
                ..
            }) = part.query.take()
            else {
                continue;
            };
            if let Some(r) = record_of {
                record_files.push(crate::model::RecordFile {
                    path: why.clone(),
                    id: r.id,
                    title: r.title,
                    status: r.status,
                });
            }
            for r in path_related {
                if !related.iter().any(|k| k.id == r.id) {
                    related.push(r);
                }
            }
            for m in mentioned_by {
                if !mentions.contains(&m) {
                    mentions.push(m);
                }
            }
            for d in decisions {
                let at = match found.iter().position(|f| f.id == d.id) {
                    Some(at) => at,
                    None => {
                        found.push(Found {
                            id: d.id.clone(),
                            current: d.current,
                            ..Found::default()
                        });
                        found.len() - 1
                    }
                };
                let f = &mut found[at];
                push_new(&mut f.paths, why.clone());
                for m in d.matches {
                    push_new(&mut f.matches, m);
                }
                for decl in d.declared_by.into_iter().flatten() {
                    push_new(&mut f.declared_by, format!("{}:{}", decl.path, decl.line));
                }
            }
            if !path_rules.is_empty() && !rules.iter().any(|r| r.path == why) {
                rules.push(crate::model::PathRules {
                    path: why.clone(),
                    rules: path_rules,
                });
            }
            push_new(&mut asked, why);
            report = Some(match report.take() {
                None => part,
                Some(mut all) => {
                    for r in part.records {
                        if !all.records.iter().any(|k| k.id == r.id && k.path == r.path) {
                            all.records.push(r);
                        }
                    }
                    for f in part.findings {
                        push_new(&mut all.findings, f);
                    }
                    for n in part.notes {
                        push_new(&mut all.notes, n);
                    }
                    all
                }
            });
        }
        let mut report = report.unwrap_or_else(|| Report {
            root: self.root().display().to_string(),
            records: Vec::new(),
            docs: Vec::new(),
            findings: Vec::new(),
            notes: Vec::new(),
            query: None,
            rules: Vec::new(),
        });
        crate::checks::sort(&mut report.findings);
        let record_of = |id: &str| report.records.iter().find(|r| r.id == id);
        let mut pack = ContextPack {
            paths: asked,
            budget,
            used: 0,
            decisions: Vec::new(),
            history: Vec::new(),
            mentioned_by: mentions,
            // A record governing one asked path is not related to the others.
            related: related
                .into_iter()
                .filter(|r| !found.iter().any(|f| f.id == r.id))
                .collect(),
            rules,
            record_files,
        };
        let mut words: Vec<Vec<Candidate>> = Vec::new();
        for f in &found {
            let Some(r) = record_of(&f.id) else { continue };
            if f.current {
                let (decision, candidates) = self.decision(r, f, &mut diagnostics);
                pack.decisions.push(decision);
                words.push(candidates);
            } else {
                pack.history.push(history_line(r, &report.records));
            }
        }
        fit(&mut pack, words);
        report.query = Some(Query::Context { context: pack });
        Ok(Answer {
            report,
            diagnostics,
            scanned,
        })
    }

    /// A current decision's header, and its words as candidates for the budget.
    fn decision<'r>(
        &self,
        r: &'r Record,
        f: &Found,
        diagnostics: &mut Vec<String>,
    ) -> (ContextDecision, Vec<Candidate<'r>>) {
        let text = match record_text(self.root(), &r.path) {
            Ok(t) => {
                let t = crate::text::markdown::lf(&t);
                crate::text::rst::as_markdown(&r.path, &t).into_owned()
            }
            Err(e) => {
                diagnostics.push(format!("{}: {e}; its words are left out", r.path));
                String::new()
            }
        };
        let all = sections::sections(&text);
        let has_decision = all
            .iter()
            .any(|s| sections::part(&s.heading) == Part::Decision);
        let mut candidates: Vec<Candidate> = all
            .into_iter()
            .filter_map(|s| {
                let part = match sections::part(&s.heading) {
                    Part::Status => return None,
                    _ if s.heading.is_empty() && !has_decision => Part::Decision,
                    p => p,
                };
                Some(Candidate::Section(part, s))
            })
            .collect();
        // Referred to, not copied: the budget keeps a few of what may be thousands.
        let uncited: Option<Vec<&Commit>> = self.options().git.then(|| {
            r.drift
                .iter()
                .flat_map(|d| &d.commits)
                .filter(|c| c.cites_record == Some(false))
                .collect()
        });
        let uncited_left_out = uncited.as_ref().map(Vec::len);
        if let Some(commits) = uncited.filter(|c| !c.is_empty()) {
            candidates.push(Candidate::Commits(commits));
        }
        // Decision, consequences, context, then the commits, then the rest as written.
        candidates.sort_by_key(Candidate::rank);
        let decision = ContextDecision {
            id: r.id.clone(),
            title: r.title.clone(),
            status: r.status,
            date: r.date.clone(),
            path: r.path.clone(),
            governs: f.paths.clone(),
            matches: f.matches.clone(),
            declared_by: f.declared_by.clone(),
            sections: Vec::new(),
            omitted: Vec::new(),
            uncited_left_out,
            uncited_commits: uncited_left_out.map(|_| Vec::new()),
        };
        (decision, candidates)
    }
}

#[derive(Default)]
struct Found {
    id: String,
    current: bool,
    paths: Vec<String>,
    matches: Vec<String>,
    declared_by: Vec<String>,
}

fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// The largest `n` up to `most` for which `set(pack, n)` leaves a pack that `fits`, found by
/// halving (what `set` keeps grows with `n`); the pack is left `set` to it. An `n` that
/// `too_many` rules out is taken as not fitting without being set.
fn longest_fitting(
    pack: &mut ContextPack,
    most: usize,
    too_many: impl Fn(usize) -> bool,
    set: impl Fn(&mut ContextPack, usize),
    mut fits: impl FnMut(&ContextPack) -> bool,
) -> usize {
    let (mut lo, mut hi) = (0usize, most);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if too_many(mid) {
            hi = mid - 1;
            continue;
        }
        set(pack, mid);
        if fits(pack) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    set(pack, lo);
    lo
}

/// A piece of a decision's words the budget may keep.
enum Candidate<'r> {
    Section(Part, Section),
    Commits(Vec<&'r Commit>),
}

impl Candidate<'_> {
    fn rank(&self) -> u8 {
        match self {
            Candidate::Section(Part::Decision, _) => 0,
            Candidate::Section(Part::Consequences, _) => 1,
            Candidate::Section(Part::Context, _) => 2,
            Candidate::Commits(_) => 3,
            Candidate::Section(_, _) => 4,
        }
    }
}

/// Fills the pack's decisions with their words, most wanted first across every decision
/// (every decision's decision section before any one's context), each piece whole while it
/// fits, cut short at a line or word when only part fits, else named as left out. What is kept
/// is measured on the rendered Markdown ([`Measure`]: only the decision that changed is
/// rendered again).
fn fit(pack: &mut ContextPack, words: Vec<Vec<Candidate>>) {
    // Every section starts left out (named, with its size), so the note naming what was cut
    // is counted from the start; each is then taken in as far as it fits.
    // Within a rank the shortest go first, so what a short one leaves goes to a long one.
    let mut order: Vec<(u8, usize, usize, usize)> = Vec::new();
    for (d, candidates) in words.iter().enumerate() {
        for (i, c) in candidates.iter().enumerate() {
            let size = match c {
                Candidate::Section(_, s) => {
                    pack.decisions[d].omitted.push(Omitted {
                        heading: s.heading.clone(),
                        tokens: tokens(&s.text),
                    });
                    tokens(&s.text)
                }
                Candidate::Commits(all) => all.len(),
            };
            order.push((c.rank(), size, d, i));
        }
    }
    order.sort();
    // Which candidate each kept section is, to put them back in the candidates' order.
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); pack.decisions.len()];
    let mut measure = Measure::new(pack);
    for (n, &(rank, _, d, i)) in order.iter().enumerate() {
        // Pieces of the same rank share what is left: one decision's long section does not
        // crowd out the next one's.
        let same_rank_left = order[n..].iter().filter(|o| o.0 == rank).count();
        let before = measure.tokens();
        let limit = before + pack.budget.saturating_sub(before) / same_rank_left.max(1);
        // Only decision `d` changes while this piece is fitted.
        let mut fits = |pack: &ContextPack| {
            measure.redo(pack, d);
            measure.tokens() <= limit
        };
        match &words[d][i] {
            Candidate::Section(_, s) => {
                let at = pack.decisions[d]
                    .omitted
                    .iter()
                    .position(|o| o.heading == s.heading)
                    .unwrap_or(0);
                let omitted = pack.decisions[d].omitted.remove(at);
                pack.decisions[d].sections.push(ContextSection {
                    heading: s.heading.clone(),
                    text: s.text.clone(),
                    truncated: false,
                    tokens: omitted.tokens,
                });
                kept[d].push(i);
                if fits(pack) {
                    continue;
                }
                // The longest cut that fits, at a line or word end.
                let chars: Vec<(usize, char)> = s.text.char_indices().collect();
                let set = |pack: &mut ContextPack, n: usize| {
                    let end = chars.get(n).map_or(s.text.len(), |(b, _)| *b);
                    let kept = &s.text[..end];
                    let kept = match kept.rfind(['\n', ' ']) {
                        Some(cut) if cut > end / 2 => &kept[..cut],
                        _ => kept,
                    };
                    let last = pack.decisions[d].sections.last_mut().expect("just pushed");
                    last.text = kept.trim_end().to_string();
                    last.truncated = true;
                };
                let lo = longest_fitting(pack, chars.len(), |_| false, set, &mut fits);
                if lo < SHORTEST_CUT.min(chars.len()) || !fits(pack) {
                    pack.decisions[d].sections.pop();
                    kept[d].pop();
                    pack.decisions[d].omitted.insert(at, omitted);
                }
            }
            Candidate::Commits(all) => {
                // n commits' lines alone past the limit cannot fit: ruled out unrendered.
                let most = limit * 4;
                let lines = Measure::commit_lines(all, most);
                let too_many = |n: usize| lines.get(n).is_none_or(|&chars| chars > most);
                let set = |pack: &mut ContextPack, n: usize| {
                    pack.decisions[d].uncited_commits =
                        Some(all[..n].iter().map(|&c| c.clone()).collect());
                    pack.decisions[d].uncited_left_out = Some(all.len() - n);
                };
                longest_fitting(pack, all.len(), too_many, set, &mut fits);
            }
        }
        // The pack as the piece leaves it (the search's last probe may have been another).
        measure.redo(pack, d);
    }
    for (decision, kept) in pack.decisions.iter_mut().zip(kept) {
        let mut placed: Vec<(usize, ContextSection)> =
            kept.into_iter().zip(decision.sections.drain(..)).collect();
        placed.sort_by_key(|(i, _)| *i);
        decision.sections = placed.into_iter().map(|(_, s)| s).collect();
    }
    pack.used = tokens(&crate::output::context::pack(pack));
}

/// A decision that governs a path but is not current, in one line.
fn history_line(r: &Record, records: &[Record]) -> HistoryLine {
    let mut who = format!("{} ({}", r.id, r.title);
    if let Some(date) = &r.date {
        who.push_str(", ");
        who.push_str(date);
    }
    who.push(')');
    let successors: Vec<String> = if r.superseded_by.is_empty() {
        r.successors.clone()
    } else {
        r.superseded_by.clone()
    };
    let line = match r.status {
        Status::Superseded if !successors.is_empty() => {
            let by: Vec<String> = successors
                .iter()
                .map(|s| {
                    match records
                        .iter()
                        .find(|k| &k.id == s)
                        .and_then(|k| k.date.clone())
                    {
                        Some(date) => format!("{s} on {date}"),
                        None => s.clone(),
                    }
                })
                .collect();
            format!("{who} was superseded by {}", by.join(" and "))
        }
        Status::Superseded => format!("{who} was superseded"),
        Status::Deprecated => format!("{who} was deprecated"),
        Status::Rejected => format!("{who} was rejected"),
        Status::Proposed => format!("{who} is proposed, not decided"),
        _ if r.status_text.is_empty() => format!("{who} states no status"),
        _ => format!("{who} has the status \"{}\"", r.status_text),
    };
    HistoryLine {
        id: r.id.clone(),
        title: r.title.clone(),
        status: r.status,
        date: r.date.clone(),
        superseded_by: successors,
        line: format!("{line}."),
    }
}

/// The text of the record at the root-relative `rel`: only a regular file, never waited on,
/// never through a link out of the root (ADR-0011).
pub fn record_text(root: &std::path::Path, rel: &str) -> std::io::Result<String> {
    let bytes = crate::fs::read::read_in_root(root, rel)?;
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(id: &str) -> ContextDecision {
        ContextDecision {
            id: id.into(),
            title: format!("Title of {id}"),
            status: Status::Accepted,
            date: Some("2024-01-01".into()),
            path: format!("docs/adr/{id}.md"),
            governs: vec!["src/".into()],
            matches: vec!["src/".into()],
            declared_by: Vec::new(),
            sections: Vec::new(),
            omitted: Vec::new(),
            uncited_commits: None,
            uncited_left_out: None,
        }
    }

    fn section(heading: &str, words: usize) -> Candidate<'static> {
        let text = (0..words)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        Candidate::Section(
            sections::part(heading),
            Section {
                heading: heading.into(),
                text,
            },
        )
    }

    #[test]
    fn as_many_uncited_commits_as_fit_and_not_one_more() {
        let commits: Vec<Commit> = (0..2000)
            .map(|i| Commit {
                sha: format!("{i:09x}"),
                date: "2024-05-01".into(),
                author: format!("Author {}", i % 7).into(),
                subject: "a subject of some words ".repeat(1 + i % 5).into(),
                cites_record: Some(false),
            })
            .collect();
        for budget in [150, 400, 2000, 9000] {
            let mut pack = ContextPack {
                paths: vec!["src/".into()],
                budget,
                used: 0,
                decisions: vec![decision("ADR-0001")],
                history: Vec::new(),
                mentioned_by: Vec::new(),
                related: Vec::new(),
                rules: Vec::new(),
                record_files: Vec::new(),
            };
            pack.decisions[0].uncited_commits = Some(Vec::new());
            pack.decisions[0].uncited_left_out = Some(commits.len());
            let words = vec![vec![
                section("Decision", 30),
                Candidate::Commits(commits.iter().collect()),
            ]];
            fit(&mut pack, words);
            let shown = pack.decisions[0].uncited_commits.clone().unwrap();
            assert!(!shown.is_empty(), "{budget}");
            assert_eq!(shown[..], commits[..shown.len()], "{budget}");
            assert_eq!(
                pack.decisions[0].uncited_left_out,
                Some(commits.len() - shown.len())
            );
            assert!(pack.used <= budget, "{budget}: {}", pack.used);
            assert_eq!(pack.used, tokens(&crate::output::context::pack(&pack)));
            // One more would not have fitted.
            let mut more = pack.clone();
            more.decisions[0].uncited_commits = Some(commits[..shown.len() + 1].to_vec());
            more.decisions[0].uncited_left_out = Some(commits.len() - shown.len() - 1);
            let past = tokens(&crate::output::context::pack(&more));
            assert!(
                past > budget,
                "{budget}: {} more fits ({past})",
                shown.len() + 1
            );
        }
    }

    #[test]
    fn decisions_share_the_budget_and_every_decision_comes_before_any_context() {
        let mut pack = ContextPack {
            paths: vec!["src/".into()],
            budget: 400,
            used: 0,
            decisions: vec![decision("ADR-0001"), decision("ADR-0002")],
            history: Vec::new(),
            mentioned_by: Vec::new(),
            related: Vec::new(),
            rules: Vec::new(),
            record_files: Vec::new(),
        };
        let words = vec![
            vec![section("Context", 50), section("Decision", 400)],
            vec![section("Decision", 400), section("Context", 50)],
        ];
        fit(&mut pack, words);
        assert!(pack.used <= pack.budget, "{}", pack.used);
        assert_eq!(pack.used, tokens(&crate::output::context::pack(&pack)));
        for d in &pack.decisions {
            let kept: Vec<&str> = d.sections.iter().map(|s| s.heading.as_str()).collect();
            assert_eq!(kept, ["Decision"], "{}: {:?}", d.id, d.sections);
            assert!(d.sections[0].truncated);
            assert!(
                d.sections[0].text.len() > 300,
                "{}",
                d.sections[0].text.len()
            );
            assert_eq!(d.omitted[0].heading, "Context");
        }
    }
}
