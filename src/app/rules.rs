//! What `why` and `record` show of the rules records carry (ADR-0021, docs/rules.md), from
//! what the scan (or the index's memo of it) found: nothing here reads a file.

use crate::governs::Pattern;
use crate::model::{RecordRules, RuleResult, WhyRule, WhyViolation};
use crate::rules::{Parsed, RuleKind};

/// The current records' rules that apply to `path` (it is in what the rule reads), or that
/// find a violation in it, each with its violations in `path`.
pub fn for_path(all: &[RecordRules], path: &str) -> Vec<WhyRule> {
    let mut out = Vec::new();
    for r in all.iter().filter(|r| r.enforced) {
        for rule in &r.rules {
            let violations: Vec<WhyViolation> = rule
                .violations
                .iter()
                .filter(|v| v.path == path)
                .map(|v| WhyViolation {
                    line: v.line,
                    target: v.target.clone(),
                })
                .collect();
            if violations.is_empty() && !applies(&rule.rule, path) {
                continue;
            }
            out.push(WhyRule {
                id: r.id.clone(),
                rule: rule.rule.clone(),
                violations,
            });
        }
    }
    out
}

/// The rules of the record `id`, each with what it finds (a proposed record's: what it would).
pub fn of_record(all: &[RecordRules], id: &str) -> Vec<RuleResult> {
    all.iter()
        .filter(|r| r.id == id)
        .flat_map(|r| r.rules.iter().cloned())
        .collect()
}

/// Whether the rule written `text` reads `path`: a file its pattern names, a manifest it reads,
/// a file whose imports it looks at.
fn applies(text: &str, path: &str) -> bool {
    let Ok(Parsed::Rule(kind)) = crate::rules::parse_line(text) else {
        return false;
    };
    let any = |ps: &[String]| ps.iter().any(|p| Pattern::new(p).matches(path));
    match kind {
        RuleKind::ForbidText { within, .. } => Pattern::new(&within).matches(path),
        RuleKind::ForbidDependency { within, .. } => {
            crate::checks::rules::is_manifest(path)
                && within.is_none_or(|w| Pattern::new(&w).matches(path))
        }
        RuleKind::ForbidImport { from, .. } | RuleKind::OnlyImport { from, .. } => any(&from),
        RuleKind::Independent { groups } => groups
            .iter()
            .any(|g| Pattern::new(g.strip_suffix("/*").unwrap_or(g)).matches(path)),
    }
}
