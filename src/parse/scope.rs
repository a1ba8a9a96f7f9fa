//! Declared scope (docs/scope.md): what a record says it governs in its frontmatter, instead
//! of leaving it to the paths its prose happens to name. `governs:` is a pattern or a list of
//! them; adrkit's `affects:` entries of `type: path` (`pattern`, `negate: true`) mean the same,
//! other `affects` types are ignored. A negation is written `!pattern`, as in `governs:`.

use crate::text::frontmatter::{Frontmatter, Value};

/// The patterns a record declares it governs, as written and in order (`!` marks a
/// negation); `None` when it declares none (its prose paths then govern, as the reference
/// says). A record with `affects:` entries of other types only declares an empty scope.
pub(super) fn declared_scope(fm: &Frontmatter) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut declared = false;
    if let Some(v) = fm.fields.get("governs") {
        declared = true;
        out.extend(v.items().into_iter().filter_map(pattern));
    }
    if let Some(v) = fm.fields.get("affects") {
        declared = true;
        match v {
            Value::Maps(maps) => {
                for m in maps {
                    if m.get("type").map(|t| t.trim()) != Some("path") {
                        continue;
                    }
                    let Some(p) = m.get("pattern").and_then(|p| pattern(p)) else {
                        continue;
                    };
                    let negate = m.get("negate").is_some_and(|n| n.trim() == "true");
                    out.push(if negate && !p.starts_with('!') {
                        format!("!{p}")
                    } else {
                        p
                    });
                }
            }
            // adrkit's rendered form: `path:packages/core/src/**`.
            other => out.extend(
                other
                    .items()
                    .into_iter()
                    .filter_map(|i| i.trim().strip_prefix("path:"))
                    .filter_map(pattern),
            ),
        }
    }
    declared.then_some(out)
}

/// Which frontmatter field declares the record's scope: `"governs"` (ours, also when both are
/// written) or `"affects"` (adrkit's), `None` when it declares none. adrkit checks an
/// `affects` overlap when a record is proposed, so its accepted records' overlaps were read
/// (docs/scope.md, ADR-0020).
pub(super) fn declared_in(fm: &Frontmatter) -> Option<String> {
    if fm.fields.contains_key("governs") {
        Some("governs".to_string())
    } else if fm.fields.contains_key("affects") {
        Some("affects".to_string())
    } else {
        None
    }
}

/// A pattern as written, trimmed, with a leading `./` or `/` dropped (patterns are relative
/// to the root); `None` when empty.
fn pattern(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '`');
    let (neg, rest) = match t.strip_prefix('!') {
        Some(r) => ("!", r),
        None => ("", t),
    };
    let rest = rest.strip_prefix("./").unwrap_or(rest);
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    (!rest.is_empty()).then(|| format!("{neg}{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::frontmatter::split;

    fn scope(fm: &str) -> Option<Vec<String>> {
        declared_scope(&split(&format!("---\n{fm}---\n# T\n")).0.unwrap())
    }

    #[test]
    fn governs_and_affects_declare_scope() {
        assert_eq!(scope("title: x\n"), None);
        assert_eq!(
            scope("governs: src/auth/\n"),
            Some(vec!["src/auth/".into()])
        );
        assert_eq!(
            scope("governs:\n  - ./src/\n  - \"!src/gen/\"\n  - \"**/*.proto\"\n"),
            Some(vec!["src/".into(), "!src/gen/".into(), "**/*.proto".into()])
        );
        assert_eq!(
            scope("affects:\n  - type: path\n    pattern: \"pkg/core/**\"\n  - type: doc\n    pattern: docs/x.md\n  - type: path\n    pattern: pkg/core/gen/\n    negate: true\n"),
            Some(vec!["pkg/core/**".into(), "!pkg/core/gen/".into()])
        );
        assert_eq!(
            scope("affects:\n  - type: issue\n    url: https://x/1\n"),
            Some(vec![])
        );
        assert_eq!(
            scope("affects: [\"path:pkg/cli/src/index.ts\", \"doc:README.md\"]\n"),
            Some(vec!["pkg/cli/src/index.ts".into()])
        );
    }
}
