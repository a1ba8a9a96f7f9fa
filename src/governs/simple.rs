//! Globs of literal names, `*` within a name and `**` as a whole name, matched without
//! compiling a regex: what records' globs almost always are (`packages/*/test/**`,
//! `specs/**/spec.md`). A warm `why` met three such globs on adrkit and compiled each, a
//! twentieth of its instructions (issue 41). Anything else (`?`, classes, braces, escapes,
//! `**` inside a name) is left to globset, whose meaning this keeps exactly (`literal_separator`:
//! `*` stays within a name; `**/` is any number of folders, `/**` at the end one name or more).

/// A glob split at `/`, each part a name pattern or `None` for `**`.
#[derive(Debug, Clone)]
pub struct SimpleGlob {
    parts: Vec<Option<String>>,
}

impl SimpleGlob {
    /// The glob `anchored` (rooted, as globset is given it), when it is simple.
    pub fn of(anchored: &str) -> Option<SimpleGlob> {
        if anchored.contains(['?', '[', ']', '{', '}', '\\']) {
            return None;
        }
        let mut parts = Vec::new();
        for part in anchored.split('/') {
            match part {
                "**" => parts.push(None),
                p if p.contains("**") => return None,
                p => parts.push(Some(p.to_string())),
            }
        }
        Some(SimpleGlob { parts })
    }

    pub fn is_match(&self, path: &str) -> bool {
        if let [None] = self.parts.as_slice() {
            return true;
        }
        let names: Vec<&str> = path.split('/').collect();
        parts_match(&self.parts, &names, true)
    }
}

/// Whether `names` match `parts`; `first`: `parts` begins the glob (a `**` ending it then
/// needs a name after the rest).
fn parts_match(parts: &[Option<String>], names: &[&str], first: bool) -> bool {
    match parts.split_first() {
        None => names.is_empty(),
        // `/**` at the end: one name or more.
        Some((None, [])) if !first => !names.is_empty(),
        // `**/` at the start or `/**/` inside: any number of names, none included.
        Some((None, rest)) => (0..=names.len()).any(|k| parts_match(rest, &names[k..], false)),
        Some((Some(p), rest)) => names
            .split_first()
            .is_some_and(|(n, more)| name_match(p, n) && parts_match(rest, more, false)),
    }
}

/// Whether `name` matches the name pattern `pattern`, whose `*` matches any run of
/// characters (within the name).
fn name_match(pattern: &str, name: &str) -> bool {
    let mut pieces = pattern.split('*');
    let head = pieces.next().unwrap_or("");
    let Some(mut rest) = name.strip_prefix(head) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((tail, middle)) = pieces.split_last() else {
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= tail.len() && rest.ends_with(tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use globset::GlobBuilder;

    /// Every pattern against every path, as globset answers.
    #[test]
    fn matches_as_globset_does() {
        let patterns = [
            "**",
            "**/spec.md",
            "**/*.md",
            "specs/**/spec.md",
            "specs/**",
            "packages/*/package.json",
            "packages/*/test/**",
            "packages/adapters/catalog-*/**",
            "packages/*",
            "*",
            "*.md",
            "a/*b*c/d",
            "a/**/b/**/c",
            "a*",
            "*a",
            "a/*/*",
            "**/a/**",
            "x/**/**/y",
            ".github/workflows/**",
            "**/.*rc",
        ];
        let paths = [
            "",
            "a",
            "b",
            "a/b",
            "a/b/c",
            "a/x/b/y/c",
            "a/b/c/d",
            "abc",
            "aXbYc",
            "a/XbYc/d",
            "a/bc/d",
            "a/cb/d",
            "spec.md",
            "specs/spec.md",
            "specs/x/spec.md",
            "specs/x/y/spec.md",
            "specs/x/tasks.md",
            "specs",
            "packages/cli/package.json",
            "packages/cli/x/package.json",
            "packages/cli/test/a.ts",
            "packages/cli/test",
            "packages/adapters/catalog-x/src/a.ts",
            "packages/adapters/catalog-",
            "packages/adapters/catalog-/a",
            "x/y",
            "x/a/y",
            "x/a/b/y",
            "b/a/c",
            ".github/workflows/ci.yml",
            "src/.eslintrc",
            "README.md",
            "docs/a.md",
        ];
        for p in patterns {
            let simple = SimpleGlob::of(p).expect("simple");
            let globset = GlobBuilder::new(p)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .unwrap()
                .compile_matcher();
            for path in paths {
                assert_eq!(
                    simple.is_match(path),
                    globset.is_match(path),
                    "{p} against {path:?}"
                );
            }
        }
    }

    #[test]
    fn others_are_left_to_globset() {
        for p in ["a?.md", "[ab].md", "{a,b}/c", "a\\*b", "a**/b", "a/b**"] {
            assert!(SimpleGlob::of(p).is_none(), "{p}");
        }
    }
}
