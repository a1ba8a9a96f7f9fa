//! The one place that decides whether a path is governed (ADR-0007): a governed entry as a
//! [`Pattern`] (a file, a folder, or a gitignore-style glob), what it matches, what a `why`
//! question meets, and the literal prefix every path it matches starts with (so a sorted
//! table, a redb range or a `BTreeMap`, is read from there on and no further).
//!
//! `why`, drift, the index and the hooks all call this; none of them decides it again.

use globset::{GlobBuilder, GlobMatcher};

/// A governed entry, as a record names it (`src/auth/`, `src/main.rs`, `pkg/*/api/**`), all
/// paths relative to the root, `/`-separated.
#[derive(Debug, Clone)]
pub enum Pattern<'a> {
    /// A file: exactly this path.
    File(&'a str),
    /// A folder, written with its trailing `/`: everything under it.
    Folder(&'a str),
    /// A glob: a path it matches, and everything under a folder it matches (gitignore's
    /// rule). A glob with no `/` but a trailing one matches at any depth, as in gitignore.
    Glob {
        text: &'a str,
        /// The literal folder part before the first glob character, up to its last `/`.
        prefix: &'a str,
        /// `None` when the text is not a valid glob: it then matches nothing.
        matcher: Option<GlobMatcher>,
    },
}

/// Whether `text` has a glob character in it.
pub fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

impl<'a> Pattern<'a> {
    pub fn new(entry: &'a str) -> Pattern<'a> {
        if is_glob(entry) {
            let first = entry.find(['*', '?', '[', '{']).unwrap_or(entry.len());
            let prefix = entry[..first].rfind('/').map_or("", |i| &entry[..=i]);
            Pattern::Glob {
                text: entry,
                prefix,
                matcher: glob_matcher(entry),
            }
        } else if entry.ends_with('/') {
            Pattern::Folder(entry)
        } else {
            Pattern::File(entry)
        }
    }

    /// The entry as written.
    pub fn as_str(&self) -> &'a str {
        match self {
            Pattern::File(t) | Pattern::Folder(t) => t,
            Pattern::Glob { text, .. } => text,
        }
    }

    /// Whether `path` (a file's or a folder's) is governed by this entry: the file itself,
    /// anything under the folder, or what the glob matches (and anything under a folder it
    /// matches).
    pub fn matches(&self, path: &str) -> bool {
        match self {
            Pattern::File(file) => path == *file,
            Pattern::Folder(folder) => path.starts_with(folder),
            Pattern::Glob {
                prefix, matcher, ..
            } => {
                let Some(m) = matcher else { return false };
                path.starts_with(prefix)
                    && std::iter::successors(Some(path.trim_end_matches('/')), |p| {
                        p.rsplit_once('/').map(|(parent, _)| parent)
                    })
                    .any(|p| m.is_match(p))
            }
        }
    }

    /// `why PATH`'s question (CONTRACT.md §3): the entry governs PATH (it is PATH, or a
    /// folder above it), or governs something inside PATH. `""` is the root: every entry
    /// meets it. For a glob, "something inside" is answered from the glob's text alone: its
    /// literal prefix lies inside PATH.
    pub fn meets(&self, path: &str) -> bool {
        if path.is_empty() || self.as_str().trim_end_matches('/') == path || self.matches(path) {
            return true;
        }
        let inside = |inner: &str| {
            inner
                .strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        match self {
            Pattern::File(file) => inside(file),
            Pattern::Folder(folder) => inside(&folder[..folder.len() - 1]),
            Pattern::Glob { prefix, .. } => {
                let folder = prefix.trim_end_matches('/');
                folder == path || inside(folder)
            }
        }
    }

    /// The literal text every path this entry matches starts with: read a sorted table from
    /// here, and stop at the first key that does not start with it.
    pub fn range_prefix(&self) -> &'a str {
        match self {
            Pattern::File(t) | Pattern::Folder(t) => t,
            Pattern::Glob { prefix, .. } => prefix,
        }
    }
}

/// A gitignore-style glob: `*` and `?` stay within a folder, `**` crosses folders; a pattern
/// with no `/` before its end matches at any depth.
fn glob_matcher(text: &str) -> Option<GlobMatcher> {
    let bare = text.trim_end_matches('/');
    let anchored = if bare.contains('/') {
        bare.to_string()
    } else {
        format!("**/{bare}")
    };
    GlobBuilder::new(&anchored)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_folders_match_themselves_and_what_is_under_them() {
        let folder = Pattern::new("src/auth/");
        assert!(folder.matches("src/auth/login.py"));
        assert!(
            !folder.matches("src/auth"),
            "a file where the folder was is not under it"
        );
        assert!(!folder.matches("src/authz/x.py"));
        let file = Pattern::new("src/auth.py");
        assert!(file.matches("src/auth.py"));
        assert!(!file.matches("src/auth.py.bak"));
        assert_eq!(folder.range_prefix(), "src/auth/");
        assert_eq!(file.range_prefix(), "src/auth.py");
    }

    #[test]
    fn why_meets_entries_above_and_below() {
        let m = |entry: &str, path: &str| Pattern::new(entry).meets(path);
        assert!(m("src/auth/", "src/auth"));
        assert!(m("src/auth/", "src/auth/login.py"));
        assert!(m("src/auth/login.py", "src/auth"));
        assert!(m("src/auth/login.py", "src/auth/login.py"));
        assert!(m("src/auth/", ""));
        assert!(!m("src/auth/", "src/authz"));
        assert!(!m("src/auth.py", "src/auth.py.bak"));
        assert!(m("pkg/*/api/**", "pkg"));
        assert!(m("pkg/*/api/**", "pkg/x/api/y.go"));
        assert!(!m("pkg/*/api/**", "lib"));
    }

    #[test]
    fn globs_are_never_widened_to_their_folder() {
        let g = Pattern::new("pkg/adapters/catalog-*");
        assert!(g.matches("pkg/adapters/catalog-aws/src/a.ts"));
        assert!(g.matches("pkg/adapters/catalog-aws"));
        assert!(!g.matches("pkg/adapters/http/src/a.ts"));
        assert!(!g.matches("pkg/adapters"));
        assert_eq!(g.range_prefix(), "pkg/adapters/");
        let deep = Pattern::new("**/*.proto");
        assert!(deep.matches("a/b/c.proto"));
        assert!(deep.matches("c.proto"));
        assert!(!deep.matches("a/b/c.protox"));
        assert_eq!(deep.range_prefix(), "");
        let anywhere = Pattern::new("*.md");
        assert!(anywhere.matches("docs/x.md"));
        let star = Pattern::new("src/*.rs");
        assert!(star.matches("src/a.rs"));
        assert!(!star.matches("src/a/b.rs"));
        assert!(!Pattern::new("src/[").matches("src/["));
    }
}
