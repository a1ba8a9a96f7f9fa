//! The import rules (`forbid import`, `only import`, `independent`) over an edge list, however
//! it was made (docs/rules.md).

use super::Violation;
use crate::governs::Pattern;
use crate::rules::{Edge, EdgeTarget, RuleKind, Target};

/// Whether `name` (as an import names a package) is the package `want` or inside it: the same
/// name, or `want` followed by `/`, `.` or `::` (`lodash/fp`, `java.util.List`, `serde::de`).
pub fn pkg_matches(want: &str, name: &str) -> bool {
    name == want
        || name
            .strip_prefix(want)
            .is_some_and(|rest| rest.starts_with(['/', '.', ':']))
}

fn any(patterns: &[String], path: &str) -> bool {
    patterns.iter().any(|p| matches(p, path))
}

/// Whether the pattern `p` matches `path`, each pattern compiled once a process: a rule is
/// matched against every tracked path and every edge, and compiling it each time was most of
/// a warm check's time on 5,000 files (docs/benchmarks.md, `bench/rules.sh`). A pattern is
/// kept for the process's life: one per distinct text the records' rules write.
pub(super) fn matches(p: &str, path: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{OnceLock, RwLock};
    type Compiled = HashMap<&'static str, &'static Pattern<'static>>;
    static COMPILED: OnceLock<RwLock<Compiled>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(|| RwLock::new(HashMap::new()));
    let found = compiled
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(p)
        .copied();
    let pattern = match found {
        Some(pattern) => pattern,
        None => {
            let mut map = compiled.write().unwrap_or_else(|e| e.into_inner());
            match map.get(p) {
                Some(pattern) => *pattern,
                None => {
                    let text: &'static str = Box::leak(p.to_string().into_boxed_str());
                    let pattern: &'static Pattern<'static> =
                        Box::leak(Box::new(Pattern::new(text)));
                    map.insert(text, pattern);
                    pattern
                }
            }
        }
    };
    pattern.matches(path)
}

/// Whether the rule `kind` looks at the imports of `path`.
pub(super) fn wants(kind: &RuleKind, path: &str) -> bool {
    match kind {
        RuleKind::ForbidImport { from, .. } | RuleKind::OnlyImport { from, .. } => any(from, path),
        RuleKind::Independent { groups } => group_of(groups, path).is_some(),
        _ => false,
    }
}

/// The group of `path` under `independent`'s patterns: the pattern's index and, for one ending
/// in `/*`, the folder it names.
fn group_of(groups: &[String], path: &str) -> Option<(usize, String)> {
    groups
        .iter()
        .enumerate()
        .find_map(|(i, g)| match g.strip_suffix("/*") {
            Some(parent) => {
                let rest = if parent.is_empty() {
                    Some(path)
                } else {
                    path.strip_prefix(parent).and_then(|r| r.strip_prefix('/'))
                }?;
                let (folder, below) = rest.split_once('/')?;
                (!below.is_empty()).then(|| (i, format!("{parent}/{folder}")))
            }
            None => matches(g, path).then(|| (i, String::new())),
        })
}

fn violation(e: &Edge) -> Violation {
    Violation {
        path: e.from.clone(),
        line: e.line,
        target: Some(e.target.shown()),
    }
}

/// What the import rule `kind` finds among `edges`; nothing for a rule of another kind.
pub fn evaluate_imports(kind: &RuleKind, edges: &[Edge]) -> Vec<Violation> {
    let mut out: Vec<Violation> = edges
        .iter()
        .filter(|e| breaks(kind, e))
        .map(violation)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether the edge `e` breaks the import rule `kind` (each edge is judged alone: an edge that
/// breaks no rule can be dropped as soon as it is read).
pub fn breaks(kind: &RuleKind, e: &Edge) -> bool {
    match kind {
        RuleKind::ForbidImport { from, to } => {
            any(from, &e.from)
                && to.iter().any(|t| match (t, &e.target) {
                    (Target::Files(p), EdgeTarget::File(f)) => matches(p, f),
                    (Target::Package(n), EdgeTarget::Package(name)) => pkg_matches(n, name),
                    _ => false,
                })
        }
        RuleKind::OnlyImport { from, to } => {
            any(from, &e.from)
                && match &e.target {
                    EdgeTarget::File(f) => {
                        !any(from, f)
                            && !to.iter().any(|t| match t {
                                Target::Files(p) => matches(p, f),
                                Target::Package(_) => false,
                            })
                    }
                    EdgeTarget::Package(_) => false,
                }
        }
        RuleKind::Independent { groups } => match &e.target {
            EdgeTarget::File(f) => match (group_of(groups, &e.from), group_of(groups, f)) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            },
            EdgeTarget::Package(_) => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_line;

    fn kind(line: &str) -> RuleKind {
        match parse_line(line).expect("a rule") {
            crate::rules::Parsed::Rule(k) => k,
            other => panic!("{other:?}"),
        }
    }

    fn file(from: &str, line: u32, to: &str) -> Edge {
        Edge {
            from: from.into(),
            line,
            target: EdgeTarget::File(to.into()),
        }
    }

    fn pkg(from: &str, line: u32, to: &str) -> Edge {
        Edge {
            from: from.into(),
            line,
            target: EdgeTarget::Package(to.into()),
        }
    }

    fn found(line: &str, edges: &[Edge]) -> Vec<(String, u32, String)> {
        evaluate_imports(&kind(line), edges)
            .into_iter()
            .map(|v| (v.path, v.line, v.target.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn forbid_import_flags_files_and_packages_at_the_import() {
        let edges = [
            file("src/domain/order.rs", 3, "src/infra/db.rs"),
            file("src/domain/order.rs", 4, "src/domain/money.rs"),
            pkg("src/domain/user.rs", 7, "sqlx"),
            pkg("src/domain/user.rs", 8, "sqlxish"),
            pkg("src/domain/user.rs", 9, "sqlx::postgres"),
            file("src/app/run.rs", 1, "src/infra/db.rs"),
        ];
        assert_eq!(
            found(
                "forbid import src/domain/** -> src/infra/**, pkg:sqlx",
                &edges
            ),
            vec![
                ("src/domain/order.rs".into(), 3, "src/infra/db.rs".into()),
                ("src/domain/user.rs".into(), 7, "pkg:sqlx".into()),
                ("src/domain/user.rs".into(), 9, "pkg:sqlx::postgres".into()),
            ]
        );
    }

    #[test]
    fn only_import_allows_itself_and_its_targets_and_any_package() {
        let edges = [
            file("src/api/a.ts", 1, "src/api/b.ts"),
            file("src/api/a.ts", 2, "src/app/x.ts"),
            file("src/api/a.ts", 3, "src/infra/db.ts"),
            pkg("src/api/a.ts", 4, "express"),
            file("src/other.ts", 1, "src/infra/db.ts"),
        ];
        assert_eq!(
            found("only import src/api -> src/app/**, src/shared/**", &edges),
            vec![("src/api/a.ts".into(), 3, "src/infra/db.ts".into())]
        );
    }

    #[test]
    fn independent_groups_by_pattern_and_by_folder() {
        let edges = [
            file("services/a/main.go", 5, "services/b/api.go"),
            file("services/a/main.go", 6, "services/a/util.go"),
            file("services/a/main.go", 7, "lib/log.go"),
            file("src/billing/x.py", 2, "src/shipping/y.py"),
            file("src/billing/x.py", 3, "src/common/z.py"),
        ];
        assert_eq!(
            found("independent services/*", &edges),
            vec![("services/a/main.go".into(), 5, "services/b/api.go".into())]
        );
        assert_eq!(
            found("independent src/billing, src/shipping", &edges),
            vec![("src/billing/x.py".into(), 2, "src/shipping/y.py".into())]
        );
    }
}
