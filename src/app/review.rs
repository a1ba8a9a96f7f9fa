//! `review [RANGE]` (docs/hooks.md, ADR-0008): the commit hook's question asked of commits
//! already made, for CI where hooks may not have run. For each current decision whose governed
//! paths the range's non-merge commits touch: the touched paths, the commits touching them, and
//! whether any commit of the range cites it.

use super::error::{Error, Result};
use super::{quiet, Ask, Session};
use crate::git::{self, RangeCommit, Repo};
use crate::governs::Scope;
use crate::hooks;
use crate::model::{
    Commit, PullRequestMerge, Query, QuietCommit, Repeat, Report, ReviewDecision, ReviewQuery,
};
use crate::scan;
use crate::text::date::utc_date;
use std::collections::BTreeSet;

/// A reviewed range.
#[derive(Debug, Clone)]
pub struct Reviewed {
    /// The usual document: `records` narrowed to the decisions the range touches, the findings
    /// about them, and `query` the review.
    pub report: Report,
    /// `git config context-graph.strict true`.
    pub strict_config: bool,
    pub diagnostics: Vec<String>,
}

/// The range's text, base and head. `BASE..HEAD` (either side may be left out for HEAD),
/// `BASE...HEAD` (from their merge base), or a lone `BASE` (to HEAD); no range: the current
/// branch's upstream to HEAD.
fn resolve(repo: &Repo, range: Option<&str>) -> Result<(String, [u8; 20], [u8; 20])> {
    let side = |rev: &str| -> Result<[u8; 20]> {
        let rev = if rev.is_empty() { "HEAD" } else { rev };
        repo.resolve_commit(rev).map_err(|e| match e {
            // CI checks out one commit unless asked for more.
            git::HistoryError::Range(m) if repo.shallow => git::HistoryError::Range(format!(
                "{m} (this is a shallow clone: fetch the history the range needs, e.g. \
                 `fetch-depth: 0` in actions/checkout)"
            ))
            .into(),
            e => e.into(),
        })
    };
    let Some(range) = range else {
        let Some(upstream) = repo.upstream()? else {
            let what = match repo.gix().ok().and_then(|g| g.head_name().ok().flatten()) {
                Some(name) => format!("the branch {} has no upstream", name.shorten()),
                None => "HEAD is not on a branch".to_string(),
            };
            return Err(Error::NoRange(what));
        };
        let short = upstream
            .strip_prefix("refs/remotes/")
            .or_else(|| upstream.strip_prefix("refs/heads/"))
            .unwrap_or(&upstream);
        return Ok((format!("{short}..HEAD"), side(&upstream)?, side("HEAD")?));
    };
    if let Some((a, b)) = range.split_once("...") {
        let (one, two) = (side(a)?, side(b)?);
        let base = repo.merge_base(one, two)?.ok_or_else(|| {
            git::HistoryError::Range(format!("{range}: the two sides have no common ancestor"))
        })?;
        return Ok((range.to_string(), base, two));
    }
    if let Some((a, b)) = range.split_once("..") {
        return Ok((range.to_string(), side(a)?, side(b)?));
    }
    Ok((format!("{range}..HEAD"), side(range)?, side("HEAD")?))
}

/// A commit of the range as the JSON shows it, with whether it cites `id`.
fn commit_json(c: &RangeCommit, id: &str) -> Commit {
    Commit {
        sha: c.short.clone(),
        date: utc_date(c.meta.time).into(),
        author: c.meta.author.clone(),
        subject: c.meta.subject.clone(),
        cites_record: Some(hooks::cites(&c.message, id)),
    }
}

/// The commits of `touching` (indices into `commits`) that repeat a decision on their branch
/// (`branches`, per commit): an older commit of the same branch (by `order`, oldest first)
/// touched it too, or cites it (`names`), and it does not cite it itself. Each with the
/// branch's first such commit.
fn repeats_of(
    commits: &[RangeCommit],
    (branches, order): (&[usize], &[usize]),
    (touching, briefed): (&[usize], &[usize]),
    names: impl Fn(usize) -> bool,
) -> Vec<Repeat> {
    let mut first: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for &i in order {
        let named = touching.contains(&i) || briefed.contains(&i) || names(i);
        if commits[i].meta.is_merge || !named {
            continue;
        }
        first.entry(branches[i]).or_insert(i);
    }
    touching
        .iter()
        .filter_map(|&i| {
            let f = *first.get(&branches[i])?;
            // A commit citing it is no repeat: it names the decision itself.
            (f != i && !names(i)).then(|| Repeat {
                sha: commits[i].short.clone(),
                first: commits[f].short.clone(),
            })
        })
        .collect()
}

/// `review [RANGE]`.
pub fn review(session: &mut Session, range: Option<&str>) -> Result<Reviewed> {
    let repo = session
        .repository()
        .cloned()
        .ok_or_else(|| Error::not_in_git(session.root()))?;
    let (label, base, mut head) = resolve(&repo, range)?;
    // A pull request's CI checks out GitHub's synthetic merge of it into its base: the pull
    // request's own commits are those its head (the merge's second parent) adds to the base.
    let pull_request = repo.pull_request_merge(head).map(|(reference, pr_head)| {
        let merge = git::sha_hex(&head);
        head = pr_head;
        PullRequestMerge { reference, merge }
    });
    let commits = git::walk_range(&repo, base, head)?;
    let answer = session.answer(&Ask::Check, None)?;
    let mut report = answer.report;

    // What the touched files declare, as the work tree has them (in CI, the range's head).
    let touched: BTreeSet<&str> = commits
        .iter()
        .filter(|c| !c.meta.is_merge)
        .flat_map(|c| c.changes.iter().map(String::as_str))
        .collect();
    let touched: Vec<&str> = touched.into_iter().collect();
    let markers = scan::markers_for(session.root(), &touched);
    // What the range changes in the rules' violations, in the files it touches (ADR-0021).
    let (rules_added, rules_removed) =
        super::hook_rules::range(session, &repo, base, head, &touched);

    // Each commit judged as a reader would (docs/hooks.md): quiet commits are listed with why,
    // against the records as they stood at that commit; repeats of a branch are marked.
    let rules = quiet::rules_of(session.config());
    let docs = &session.options().docs;
    let mut judge = quiet::Judge::new(&repo, rules, session.root(), docs);
    let branches = quiet::branches(&commits, head);
    let order = quiet::oldest_first(&commits);
    // Files many decisions govern, among those the range touches (docs/hooks.md).
    let touched_paths: Vec<String> = touched.iter().map(|p| p.to_string()).collect();
    let shared =
        hooks::shared::shared_paths(&hooks::governing(&report.records, &touched_paths, &markers));
    // Per commit, the files a record it adds governs (`hooks::written`): once, not per record.
    let written: Vec<Vec<(String, String)>> = commits
        .iter()
        .map(|c| judge.written(c, &report.records, &markers))
        .collect();
    // Per commit, what it writes into record files, where it may cite (`record_edit_cites`).
    let wrote: Vec<Vec<(String, String)>> =
        commits.iter().map(|c| judge.records_written(c)).collect();
    let mut quiet_commits: Vec<QuietCommit> = Vec::new();
    let mut decisions: Vec<ReviewDecision> = Vec::new();
    for r in report
        .records
        .iter()
        .filter(|r| r.status.is_current() && (!r.governs.is_empty() || !markers.is_empty()))
    {
        let scope = Scope::new(&r.governs);
        let mut paths = BTreeSet::new();
        let mut touching = Vec::new();
        // Quiet commits the hook still names the decision to in one line.
        let mut briefed = Vec::new();
        let record_edit_cites = judge.rules.record_edit_cites;
        let edits = |i: usize| {
            record_edit_cites && commits[i].changes.contains(&r.path)
                || hooks::written::written_cites(&wrote[i], &r.path, &r.id)
        };
        for (i, c) in commits.iter().enumerate().filter(|(_, c)| !c.meta.is_merge) {
            let hit: Vec<&str> = c
                .changes
                .iter()
                .filter(|p| hooks::governs_path(r, &scope, p, &markers))
                .map(String::as_str)
                .collect();
            if hit.is_empty() {
                continue;
            }
            let cites = hooks::cites(&c.message, &r.id) || edits(i);
            let aside = quiet::Aside::of(
                &r.id,
                std::slice::from_ref(&scope),
                &hit,
                &markers,
                (&shared, &written[i]),
                &judge.sizes,
            );
            let reason = match judge.record_then(c, r) {
                Some(q) => Some((q, None)),
                None if cites => None,
                None => judge.commit(c, r, &hit, &aside),
            };
            if let Some((reason, like)) = reason {
                if reason.is_brief() {
                    briefed.push(i);
                }
                quiet_commits.push(QuietCommit {
                    sha: c.short.clone(),
                    author: c.meta.author.to_string(),
                    subject: c.meta.subject.to_string(),
                    decision: r.id.clone(),
                    reason,
                    like,
                });
                continue;
            }
            paths.extend(
                quiet::counted_paths(&judge, &hit, &aside)
                    .into_iter()
                    .map(str::to_string),
            );
            touching.push(i);
        }
        if touching.is_empty() {
            continue;
        }
        let cited = commits
            .iter()
            .enumerate()
            .any(|(i, c)| hooks::cites(&c.message, &r.id) || edits(i));
        let json = |i: usize| {
            let mut j = commit_json(&commits[i], &r.id);
            j.cites_record = Some(j.cites_record == Some(true) || edits(i));
            j
        };
        let repeats = if judge.rules.once_per_branch {
            repeats_of(&commits, (&branches, &order), (&touching, &briefed), |i| {
                hooks::cites(&commits[i].message, &r.id) || edits(i)
            })
        } else {
            Vec::new()
        };
        match decisions.iter_mut().find(|d| d.id == r.id) {
            // Two records sharing an id are one decision.
            Some(d) => {
                if !d.records.contains(&r.path) {
                    d.records.push(r.path.clone());
                }
                d.paths.extend(paths);
                d.paths.sort();
                d.paths.dedup();
                for i in touching {
                    let json = json(i);
                    if !d.commits.iter().any(|k| k.sha == json.sha) {
                        d.commits.push(json);
                    }
                }
                for rep in repeats {
                    if !d.repeats.contains(&rep) {
                        d.repeats.push(rep);
                    }
                }
            }
            None => decisions.push(ReviewDecision {
                id: r.id.clone(),
                title: r.title.clone(),
                records: vec![r.path.clone()],
                paths: paths.into_iter().collect(),
                commits: touching.iter().map(|&i| json(i)).collect(),
                cited,
                repeats,
            }),
        }
    }
    decisions.sort_by(|a, b| a.id.cmp(&b.id));
    let uncited: Vec<String> = decisions
        .iter()
        .filter(|d| !d.cited)
        .map(|d| d.id.clone())
        .collect();
    // The records of those decisions and the findings about them (as `why` narrows).
    let ids: BTreeSet<&str> = decisions.iter().map(|d| d.id.as_str()).collect();
    report.records.retain(|r| ids.contains(r.id.as_str()));
    report.findings.retain(|f| ids.contains(f.record.as_str()));
    report.query = Some(Query::Review(ReviewQuery {
        review: label,
        base: git::sha_hex(&base),
        head: git::sha_hex(&head),
        commits: commits.len(),
        decisions,
        uncited,
        quiet: quiet_commits,
        pull_request,
        rules_added,
        rules_removed,
    }));
    Ok(Reviewed {
        report,
        strict_config: repo
            .config_bool("context-graph.strict")
            .or_else(|| session.config().and_then(|c| c.strict))
            .unwrap_or(false),
        diagnostics: answer.diagnostics,
    })
}
