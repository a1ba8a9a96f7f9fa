//! Checking the rules records carry (ADR-0021, docs/rules.md): each rule of each record that
//! is not superseded or rejected, over what the repository holds now. The files' text comes
//! from a [`Files`] (what git's index holds for each tracked file, in a scan), the imports
//! from an [`Edges`] provider, whoever reads them: this evaluation does not know how.
//!
//! Only current records enforce: their violations, their rules that do not parse and their
//! exceptions that allow nothing are findings. A proposed record's outcome is only shown.

mod imports;
mod manifests;
mod text;

pub use imports::{evaluate_imports, pkg_matches};
pub use manifests::{declarations, is_manifest, Declaration};

use crate::model::{Finding, FindingCode, Status};
use crate::parse::ParsedRecord;
use crate::rules::{Except, Rule, RuleBlock, RuleKind, Target};

/// The files a rule reads: the tracked ones, and what each holds.
pub trait Files: Sync {
    /// Every tracked file, root-relative, in path order; `None` when what is tracked is not
    /// known (outside git: then the rules that read files are not checked, and said so).
    fn paths(&self) -> Option<Vec<String>>;
    /// What `path` holds (`None`: not a file the rules can read, or too large).
    fn read(&self, path: &str) -> Option<Vec<u8>>;
    /// The blob id git holds for `path`, when these files are git's: what the imports read
    /// from it are kept by in the index (ADR-0021). `None`: read every time.
    fn blob(&self, _path: &str) -> Option<[u8; 20]> {
        None
    }
}

/// The imports an import rule is evaluated over.
pub trait Edges: Sync {
    /// Every import of the files `wanted` accepts that `keep` keeps (the edges some rule could
    /// find broken: the others are dropped as read); `None` when imports are not read here
    /// (then import rules are not checked, and said so).
    fn edges(
        &self,
        wanted: &dyn Fn(&str) -> bool,
        keep: &(dyn Fn(&crate::rules::Edge) -> bool + Sync),
    ) -> Option<Vec<crate::rules::Edge>>;
}

/// One place a rule is broken.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    pub path: String,
    pub line: u32,
    /// For an import, what it resolved to (a path or `pkg:NAME`); for a dependency, the
    /// name as declared.
    pub target: Option<String>,
}

/// What one rule found.
#[derive(Debug, Clone)]
pub struct RuleOutcome {
    pub rule: Rule,
    /// `false` when what it needs was not read (imports, outside git).
    pub checked: bool,
    /// What it found, less what an `except` allows, in path and line order.
    pub violations: Vec<Violation>,
}

/// What one record's rules found.
#[derive(Debug, Clone)]
pub struct RecordOutcome {
    pub id: String,
    pub path: String,
    pub status: Status,
    pub rules: Vec<RuleOutcome>,
    /// Its exceptions that allowed nothing (only when every rule was checked).
    pub stale: Vec<Except>,
}

impl RecordOutcome {
    /// Whether its rules are enforced: a current record's (ADR-0021).
    pub fn enforces(&self) -> bool {
        self.status.is_current()
    }
}

/// Whether a record's rules are looked at: not when it is superseded, rejected or deprecated.
fn shown(status: Status) -> bool {
    status.is_current() || status == Status::Proposed || status == Status::Unknown
}

/// What evaluation needs of a record: its id, file, status and rules.
#[derive(Debug, Clone, Copy)]
pub struct Ruled<'a> {
    pub id: &'a str,
    pub path: &'a str,
    pub status: Status,
    pub rules: &'a RuleBlock,
}

impl<'a> Ruled<'a> {
    /// A parsed record's, when it has a block.
    pub fn of(p: &'a ParsedRecord) -> Option<Ruled<'a>> {
        Some(Ruled {
            id: &p.id,
            path: &p.path,
            status: p.status,
            rules: p.rules.as_ref()?,
        })
    }
}

/// Every rule of every record that has rules and is current or proposed, checked.
pub fn evaluate(
    parsed: &[ParsedRecord],
    files: &dyn Files,
    edges: &dyn Edges,
) -> Vec<RecordOutcome> {
    let ruled: Vec<Ruled> = parsed.iter().filter_map(Ruled::of).collect();
    evaluate_ruled(&ruled, files, edges)
}

/// The same, over records read only as far as their rules.
pub fn evaluate_ruled(
    records: &[Ruled],
    files: &dyn Files,
    edges: &dyn Edges,
) -> Vec<RecordOutcome> {
    let with_rules: Vec<&Ruled> = records
        .iter()
        .filter(|p| shown(p.status))
        .filter(|p| !p.rules.rules.is_empty())
        .collect();
    if with_rules.is_empty() {
        return Vec::new();
    }
    // The tracked paths, for the rules that read files: only when one does.
    let reads_files = with_rules.iter().flat_map(|p| &p.rules.rules).any(|r| {
        matches!(
            r.kind,
            RuleKind::ForbidText { .. } | RuleKind::ForbidDependency { .. }
        )
    });
    let paths = if reads_files { files.paths() } else { None };
    // The imports, read once for every import rule of every record.
    let import_rules: Vec<&Rule> = with_rules
        .iter()
        .flat_map(|p| &p.rules.rules)
        .filter(|r| is_import(&r.kind))
        .collect();
    let edges = if import_rules.is_empty() {
        Some(Vec::new())
    } else {
        let wanted = |path: &str| import_rules.iter().any(|r| imports::wants(&r.kind, path));
        let keep =
            |e: &crate::rules::Edge| import_rules.iter().any(|r| imports::breaks(&r.kind, e));
        edges.edges(&wanted, &keep)
    };
    let mut out = Vec::new();
    for p in with_rules {
        let block = p.rules;
        let mut used = vec![false; block.excepts.len()];
        let mut all_checked = true;
        let mut rules = Vec::new();
        for rule in &block.rules {
            let found = match &rule.kind {
                RuleKind::ForbidText { regex, within } => paths
                    .as_ref()
                    .map(|paths| text::forbid_text(regex, within, paths, files)),
                RuleKind::ForbidDependency { name, within } => paths.as_ref().map(|paths| {
                    manifests::forbid_dependency(name, within.as_deref(), paths, files)
                }),
                kind => edges.as_ref().map(|e| evaluate_imports(kind, e)),
            };
            let checked = found.is_some();
            all_checked &= checked;
            let mut violations: Vec<Violation> = found
                .unwrap_or_default()
                .into_iter()
                .filter(|v| {
                    let allowed: Vec<usize> = block
                        .excepts
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| allows(e, v))
                        .map(|(i, _)| i)
                        .collect();
                    for i in &allowed {
                        used[*i] = true;
                    }
                    allowed.is_empty()
                })
                .collect();
            violations.sort();
            violations.dedup();
            rules.push(RuleOutcome {
                rule: rule.clone(),
                checked,
                violations,
            });
        }
        let stale = if all_checked {
            block
                .excepts
                .iter()
                .zip(&used)
                .filter(|(_, u)| !**u)
                .map(|(e, _)| e.clone())
                .collect()
        } else {
            Vec::new()
        };
        out.push(RecordOutcome {
            id: p.id.to_string(),
            path: p.path.to_string(),
            status: p.status,
            rules,
            stale,
        });
    }
    out
}

fn is_import(kind: &RuleKind) -> bool {
    matches!(
        kind,
        RuleKind::ForbidImport { .. } | RuleKind::OnlyImport { .. } | RuleKind::Independent { .. }
    )
}

/// Whether the exception `e` allows the violation `v`: in its path, and, for an edge, to its
/// target.
fn allows(e: &Except, v: &Violation) -> bool {
    if !imports::matches(&e.path, &v.path) {
        return false;
    }
    match (&e.target, &v.target) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(Target::Files(p)), Some(t)) => !t.starts_with("pkg:") && imports::matches(p, t),
        (Some(Target::Package(n)), Some(t)) => t
            .strip_prefix("pkg:")
            .is_some_and(|name| pkg_matches(n, name)),
    }
}

/// The findings of the rules: `rule-violated` for each violation of a current record's rule,
/// `rule-invalid` for each line of a current or proposed record's block that does not parse,
/// `stale-exception` for a current record's exception that allows nothing, and
/// `rules-dropped` for a current record that supersedes one with rules and has no block.
pub fn findings(parsed: &[ParsedRecord], outcomes: &[RecordOutcome]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parsed.iter().filter(|p| shown(p.status)) {
        for bad in p.rules.iter().flat_map(|b| &b.invalid) {
            let mut f = Finding::new(
                FindingCode::RuleInvalid,
                &p.id,
                &p.path,
                format!(
                    "{}:{}: `{}` is not a rule: {}",
                    p.path, bad.line, bad.text, bad.why
                ),
            );
            f.line = Some(bad.line);
            f.rule = Some(bad.text.clone());
            out.push(f);
        }
    }
    for o in outcomes.iter().filter(|o| o.enforces()) {
        for r in &o.rules {
            for v in &r.violations {
                let to = match &v.target {
                    Some(t) => format!(" ({t})"),
                    None => String::new(),
                };
                let mut f = Finding::new(
                    FindingCode::RuleViolated,
                    &o.id,
                    &v.path,
                    format!(
                        "{}:{}{to} breaks {}'s rule `{}`: change the code, or add `except {}: REASON` to the record",
                        v.path, v.line, o.id, r.rule.text, v.path
                    ),
                );
                f.line = Some(v.line);
                f.rule = Some(r.rule.text.clone());
                f.target = v.target.clone();
                out.push(f);
            }
        }
        for e in &o.stale {
            let mut f = Finding::new(
                FindingCode::StaleException,
                &o.id,
                &o.path,
                format!(
                    "{}:{}: `{}` allows nothing today: remove it",
                    o.path, e.line, e.text
                ),
            );
            f.line = Some(e.line);
            f.rule = Some(e.text.clone());
            out.push(f);
        }
    }
    rules_dropped(parsed, &mut out);
    out
}

/// `rules-dropped`: a current record that supersedes a record with rules, and has no
/// `context-graph` block of its own (a block of comments says they were dropped on purpose).
fn rules_dropped(parsed: &[ParsedRecord], out: &mut Vec<Finding>) {
    for p in parsed
        .iter()
        .filter(|p| p.status.is_current() && p.rules.is_none())
    {
        for old in &p.supersedes {
            let crate::parse::Ref::Id(id) = old else {
                continue;
            };
            let had = parsed
                .iter()
                .any(|q| q.id == *id && q.rules.as_ref().is_some_and(|b| !b.rules.is_empty()));
            if had {
                out.push(Finding::new(
                    FindingCode::RulesDropped,
                    &p.id,
                    &p.path,
                    format!(
                        "{} supersedes {id}, which had rules, and has no `context-graph` block: carry the rules over, or say they are dropped with a block of comments",
                        p.id
                    ),
                ));
            }
        }
    }
}
