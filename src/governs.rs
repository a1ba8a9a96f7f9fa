//! The one place that decides whether a path is governed (ADR-0002, ADR-0007).
//!
//! A governed entry is a [`Pattern`]: a path (a file, or a folder written without its slash),
//! a folder (written with it), or a gitignore-style glob. A record's entries together are its
//! [`Scope`]: a declared scope may negate (`!pkg/gen/`), and within one record the last
//! matching entry wins (docs/scope.md). This module says what an entry matches, what a `why`
//! question meets, and the literal prefix every path it matches starts with (so a sorted table,
//! a redb range or a `BTreeMap`, is read from there on and no further).
//!
//! `why`, drift, the index and the hooks all call this; none of them decides it again.

mod folders;
mod simple;

pub use folders::FolderFilter;

use globset::{GlobBuilder, GlobMatcher};
use simple::SimpleGlob;

/// A glob, ready to match: most by [`SimpleGlob`], the others compiled by globset.
#[derive(Debug, Clone)]
pub enum Matcher {
    Simple(SimpleGlob),
    Compiled(GlobMatcher),
}

impl Matcher {
    pub fn is_match(&self, path: &str) -> bool {
        match self {
            Matcher::Simple(s) => s.is_match(path),
            Matcher::Compiled(m) => m.is_match(path),
        }
    }
}

/// A governed entry, as a record names it (`src/auth/`, `src/main.rs`, `pkg/*/api/**`), all
/// paths relative to the root, `/`-separated.
#[derive(Debug, Clone)]
pub enum Pattern<'a> {
    /// A path written without a trailing `/`: the file itself, or everything under it when it
    /// is a folder.
    Path(&'a str),
    /// A folder, written with its trailing `/`: everything under it.
    Folder(&'a str),
    /// A glob: a path it matches, and everything under a folder it matches (gitignore's
    /// rule). A glob with no `/` but a trailing one matches at any depth, as in gitignore. It is
    /// never widened to its folder: `pkg/adapters/catalog-*` is not `pkg/adapters/`.
    Glob {
        text: &'a str,
        /// The literal folder part before the first glob character, up to its last `/`.
        prefix: &'a str,
        /// Compiled on first use (a warm answer meets most records' globs only through their
        /// literal prefix, issue 41); `None` when the text is not a valid glob: it then
        /// matches nothing.
        matcher: std::sync::OnceLock<Option<Matcher>>,
    },
}

/// Whether `text` has a glob character in it.
pub fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

/// The literal text every path the (not negated) entry `entry` matches starts with, as
/// [`Pattern::range_prefix`] says, found without compiling a glob: the entry itself, or a glob's
/// folder part before its first glob character.
pub fn literal_prefix(entry: &str) -> &str {
    match entry.find(['*', '?', '[', '{']) {
        Some(first) => entry[..first].rfind('/').map_or("", |i| &entry[..=i]),
        None => entry,
    }
}

impl<'a> Pattern<'a> {
    pub fn new(entry: &'a str) -> Pattern<'a> {
        if is_glob(entry) {
            Pattern::Glob {
                text: entry,
                prefix: literal_prefix(entry),
                matcher: std::sync::OnceLock::new(),
            }
        } else if entry.ends_with('/') {
            Pattern::Folder(entry)
        } else {
            Pattern::Path(entry)
        }
    }

    /// The entry as written.
    pub fn as_str(&self) -> &'a str {
        match self {
            Pattern::Path(t) | Pattern::Folder(t) => t,
            Pattern::Glob { text, .. } => text,
        }
    }

    /// Whether this is a glob (which names no one path).
    pub fn is_glob(&self) -> bool {
        matches!(self, Pattern::Glob { .. })
    }

    /// Whether the file at `path` (root-relative) is governed by this entry: the path itself,
    /// anything under the folder, or what the glob matches (and anything under a folder it
    /// matches).
    pub fn matches(&self, path: &str) -> bool {
        let under = |folder: &str| {
            path.strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        match self {
            Pattern::Path(p) => path == *p || under(p),
            Pattern::Folder(folder) => path.starts_with(folder),
            Pattern::Glob {
                text,
                prefix,
                matcher,
            } => {
                if !path.starts_with(prefix) {
                    return false;
                }
                if everything_under(text, prefix) {
                    // `folder/**`, answered without compiling it (a warm answer meets many):
                    // a path below the folder whose first name there is not hidden.
                    let rest = path.trim_end_matches('/').get(prefix.len()..).unwrap_or("");
                    let first = rest.split('/').next().unwrap_or("");
                    return !first.is_empty() && !first.starts_with('.');
                }
                let Some(m) = matcher.get_or_init(|| glob_matcher(text)) else {
                    return false;
                };
                // As in adrkit's ADR-0009: `*` and `**` do not match a name starting with `.`
                // unless the pattern names the dot (`.github/**`, `**/.*rc`).
                let dots = |p: &str| p.split('/').filter(|c| c.starts_with('.')).count();
                let named = dots(text);
                std::iter::successors(Some(path.trim_end_matches('/')), |p| {
                    p.rsplit_once('/').map(|(parent, _)| parent)
                })
                .any(|p| m.is_match(p) && dots(p) <= named)
            }
        }
    }

    /// Whether this entry names the file `path` itself rather than reaching it through a
    /// folder: the path written out, or a glob whose last part names files (`*.md`, `spec.md`,
    /// `packages/*/package.json`) and matches it. A folder, `site/**` or `src/*` names no file.
    pub fn names_file(&self, path: &str) -> bool {
        match self {
            Pattern::Path(p) => *p == path,
            Pattern::Folder(_) => false,
            Pattern::Glob { text, matcher, .. } => {
                let last = text.rsplit('/').next().unwrap_or(text);
                last.chars().any(|c| c != '*')
                    && matcher
                        .get_or_init(|| glob_matcher(text))
                        .as_ref()
                        .is_some_and(|m| m.is_match(path))
            }
        }
    }

    /// Whether this entry governs the folder or file `path` itself: it matches it, or it is
    /// that very folder.
    fn covers(&self, path: &str) -> bool {
        path.is_empty() || self.as_str().trim_end_matches('/') == path || self.matches(path)
    }

    /// The path this entry names when it names one (not a glob), without its trailing `/`,
    /// when that lies strictly inside `folder` (`""` is the root).
    fn inside(&self, folder: &str) -> Option<&'a str> {
        let named = match self {
            Pattern::Path(p) => p,
            Pattern::Folder(f) => f.trim_end_matches('/'),
            Pattern::Glob { .. } => return None,
        };
        let inside = folder.is_empty()
            || named
                .strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/'));
        inside.then_some(named)
    }

    /// The literal text every path this entry matches starts with: read a sorted table from
    /// here, and stop at the first key that does not start with it.
    pub fn range_prefix(&self) -> &'a str {
        match self {
            Pattern::Path(t) | Pattern::Folder(t) => t,
            Pattern::Glob { prefix, .. } => prefix,
        }
    }
}

/// Whether the glob `text`, whose literal folder part is `prefix`, is that folder then `**`
/// alone (`packages/cli/**`): everything below the folder but hidden names, which
/// [`Pattern::matches`] answers without compiling it.
fn everything_under(text: &str, prefix: &str) -> bool {
    !prefix.is_empty()
        && !text.contains('\\')
        && text.trim_end_matches('/').strip_prefix(prefix) == Some("**")
}

/// A gitignore-style glob: `*` and `?` stay within a folder, `**` crosses folders; a pattern
/// with no `/` before its end matches at any depth. A backslash escapes a glob character: a
/// pattern whose glob characters are all escaped (`q\?.py`, as `scope --add` writes a literal
/// path) is that one path, from the root as a plain path is (ADR-0017).
fn glob_matcher(text: &str) -> Option<Matcher> {
    let bare = text.trim_end_matches('/');
    let anchored = if bare.contains('/') || !crate::text::path::has_unescaped_glob(bare) {
        bare.to_string()
    } else {
        format!("**/{bare}")
    };
    Matcher::of(&anchored)
}

impl Matcher {
    /// The anchored glob `anchored` (`*` within a name, a backslash escaping), matched part by
    /// part when it is simple, else compiled by globset; `None` when it does not compile.
    fn of(anchored: &str) -> Option<Matcher> {
        if let Some(simple) = SimpleGlob::of(anchored) {
            return Some(Matcher::Simple(simple));
        }
        GlobBuilder::new(anchored)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .ok()
            .map(|g| Matcher::Compiled(g.compile_matcher()))
    }
}

/// A record's governed entries, in order: each a pattern, negated when written `!pattern`.
/// A path is governed when the last entry matching it is not negated.
#[derive(Debug, Clone)]
pub struct Scope<'a> {
    entries: Vec<(bool, Pattern<'a>)>,
}

impl<'a> Scope<'a> {
    pub fn new<S: AsRef<str> + ?Sized + 'a>(entries: impl IntoIterator<Item = &'a S>) -> Scope<'a> {
        Scope {
            entries: entries
                .into_iter()
                .map(|e| {
                    let e = e.as_ref();
                    match e.strip_prefix('!') {
                        Some(negated) => (true, Pattern::new(negated)),
                        None => (false, Pattern::new(e)),
                    }
                })
                .collect(),
        }
    }

    /// The entries that govern (not negations), in order.
    pub fn positives(&self) -> impl Iterator<Item = &Pattern<'a>> {
        self.entries.iter().filter(|(neg, _)| !neg).map(|(_, p)| p)
    }

    /// Whether the file at `path` is governed: the last entry that matches it is not a negation.
    pub fn governs(&self, path: &str) -> bool {
        self.last_covering(path, Pattern::matches)
    }

    /// Whether `path` is governed and an entry governing it names the file itself
    /// ([`Pattern::names_file`]), not only a folder or a `**` glob it lies under.
    pub fn names_file(&self, path: &str) -> bool {
        self.governs(path) && self.positives().any(|p| p.names_file(path))
    }

    fn last_covering(&self, path: &str, test: impl Fn(&Pattern<'a>, &str) -> bool) -> bool {
        self.entries
            .iter()
            .rev()
            .find(|(_, p)| test(p, path))
            .is_some_and(|(neg, _)| !neg)
    }

    /// `why PATH` (docs/reading.md, docs/scope.md): the entries that govern PATH (it is the path, or under
    /// a folder or glob it names) or a path inside PATH, where no later negation excludes it; in
    /// order. `""` is the root. A glob meets PATH inside it through the files under PATH:
    /// `files_under(PATH)` lists them (root-relative), asked only when a glob needs them.
    pub fn meets(
        &self,
        path: &str,
        files_under: &mut dyn FnMut(&str) -> Vec<String>,
    ) -> Vec<&'a str> {
        let mut files: Option<Vec<String>> = None;
        let mut out = Vec::new();
        for (i, (neg, p)) in self.entries.iter().enumerate() {
            if *neg {
                continue;
            }
            // Governs PATH itself, unless a later entry excludes it.
            let later = &self.entries[i + 1..];
            let excluded = |q: &str| {
                later
                    .iter()
                    .rev()
                    .find(|(_, later)| later.covers(q))
                    .is_some_and(|(neg, _)| *neg)
            };
            let hit = if !path.is_empty() && p.covers(path) {
                !excluded(path)
            } else if let Some(named) = p.inside(path) {
                !excluded(named)
            } else if p.is_glob() {
                let files = files.get_or_insert_with(|| files_under(path));
                files.iter().any(|f| p.matches(f) && !excluded(f))
            } else {
                path.is_empty()
            };
            if hit {
                out.push(p.as_str());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the compiled glob says of `path` for `text`, by the rule [`Pattern::matches`]
    /// applies to every glob (hidden names only where the pattern names one).
    fn compiled(text: &str, path: &str) -> bool {
        let m = glob_matcher(text).expect("a valid glob");
        let dots = |p: &str| p.split('/').filter(|c| c.starts_with('.')).count();
        std::iter::successors(Some(path.trim_end_matches('/')), |p| {
            p.rsplit_once('/').map(|(parent, _)| parent)
        })
        .any(|p| m.is_match(p) && dots(p) <= dots(text))
    }

    proptest::proptest! {
        /// `folder/**` answered without compiling it says what the compiled glob says.
        #[test]
        fn everything_under_a_folder_is_what_the_glob_matches(
            folder in proptest::sample::select(vec!["pkg/cli/", ".github/", "a/.b/", "x/"]),
            path in r"(\.?[ab][ab.]?(/\.?[ab][ab.]?){0,3}/?)?",
            slash in proptest::bool::ANY,
        ) {
            let text = format!("{folder}**{}", if slash { "/" } else { "" });
            let path = format!("{folder}{path}");
            let pattern = Pattern::new(&text);
            proptest::prop_assert!(pattern.is_glob());
            proptest::prop_assert_eq!(pattern.matches(&path), compiled(&text, &path), "{} {}", text, path);
        }
    }

    #[test]
    fn the_literal_prefix_is_the_patterns_range_prefix() {
        for entry in [
            "src/auth/",
            "src/main.rs",
            "src",
            "pkg/*/api/**",
            "**/*.rs",
            "*.md",
            "docs/adr/00[0-9]*.md",
            "web/{a,b}/",
            "lib/x?.py",
        ] {
            assert_eq!(
                literal_prefix(entry),
                Pattern::new(entry).range_prefix(),
                "{entry}"
            );
        }
        assert_eq!(literal_prefix("pkg/*/api/**"), "pkg/");
        assert_eq!(literal_prefix("*.md"), "");
    }

    #[test]
    fn stars_skip_dot_names_unless_the_pattern_names_the_dot() {
        let m = |entry: &str, path: &str| Pattern::new(entry).matches(path);
        assert!(!m("**", ".github/workflows/ci.yml"));
        assert!(!m("src/**", "src/.cache/x"));
        assert!(!m("*", ".envrc"));
        assert!(m("src/**", "src/lib.rs"));
        assert!(m(".github/**", ".github/workflows/ci.yml"));
        assert!(m("**/.*rc", "web/.eslintrc"));
    }

    fn none(_: &str) -> Vec<String> {
        Vec::new()
    }

    #[test]
    fn paths_and_folders_match_themselves_and_what_is_under_them() {
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
        let plain = Pattern::new("src/auth");
        assert!(
            plain.matches("src/auth/login.py"),
            "a folder written without its slash"
        );
        assert!(!plain.matches("src/authz/x.py"));
        assert_eq!(folder.range_prefix(), "src/auth/");
        assert_eq!(file.range_prefix(), "src/auth.py");
    }

    #[test]
    fn why_meets_entries_above_and_below() {
        let m = |entry: &str, path: &str| !Scope::new([entry]).meets(path, &mut none).is_empty();
        assert!(m("src/auth/", "src/auth"));
        assert!(m("src/auth/", "src/auth/login.py"));
        assert!(m("src/auth/login.py", "src/auth"));
        assert!(m("src/auth/login.py", "src/auth/login.py"));
        assert!(m("src/auth/", ""));
        assert!(!m("src/auth/", "src/authz"));
        assert!(!m("src/auth.py", "src/auth.py.bak"));
        assert!(m("pkg/*/api/**", "pkg/x/api/y.go"));
        assert!(!m("pkg/*/api/**", "pkg"), "no file under pkg/ matches");
        assert!(!m("pkg/*/api/**", "lib"));
    }

    #[test]
    fn a_glob_meets_a_folder_through_the_files_under_it() {
        let scope = Scope::new(["pkg/*/api/**"]);
        let mut files = |folder: &str| -> Vec<String> {
            assert_eq!(folder, "pkg");
            vec!["pkg/x/api/a.go".into(), "pkg/x/cmd/b.go".into()]
        };
        assert_eq!(scope.meets("pkg", &mut files), ["pkg/*/api/**"]);
        let mut other = |_: &str| vec!["pkg/x/cmd/b.go".to_string()];
        assert!(scope.meets("pkg", &mut other).is_empty());
    }

    #[test]
    fn the_last_matching_entry_wins() {
        let scope = Scope::new(["src/", "!src/gen/", "src/gen/keep.rs"]);
        assert!(scope.governs("src/a.rs"));
        assert!(!scope.governs("src/gen/b.rs"));
        assert!(scope.governs("src/gen/keep.rs"));
        assert_eq!(scope.meets("src/a.rs", &mut none), ["src/"]);
        assert!(scope.meets("src/gen/b.rs", &mut none).is_empty());
        assert!(scope
            .meets("src/gen", &mut none)
            .contains(&"src/gen/keep.rs"));
        assert_eq!(scope.meets("src", &mut none), ["src/", "src/gen/keep.rs"]);
        let globs = Scope::new(["**/*.proto", "!vendor/**"]);
        assert!(globs.governs("api/a.proto"));
        assert!(!globs.governs("vendor/x/a.proto"));
        assert_eq!(globs.positives().count(), 1);
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

    #[test]
    fn an_escaped_glob_character_is_the_paths_own() {
        let m = |entry: &str, path: &str| Scope::new([entry]).governs(path);
        assert!(m("src/db/star\\*.py", "src/db/star*.py"));
        assert!(!m("src/db/star\\*.py", "src/db/starfoo.py"));
        assert!(!m("src/db/star\\*.py", "src/db/other.py"));
        assert!(m("q\\?.py", "q?.py"));
        assert!(!m("q\\?.py", "qa.py"));
        assert!(
            !m("q\\?.py", "sub/q?.py"),
            "a literal path is from the root"
        );
        assert!(m("app/\\[id\\].ts", "app/[id].ts"));
        assert!(!m("app/\\[id\\].ts", "app/i.ts"));
        assert!(m("app/\\[id\\]/", "app/[id]/page.ts"));
    }

    #[test]
    fn an_entry_names_a_file_or_reaches_it_through_a_folder() {
        let names = |entries: &[&str], path: &str| Scope::new(entries).names_file(path);
        assert!(names(&["site/index.md"], "site/index.md"));
        assert!(names(&["specs/**/spec.md"], "specs/010/spec.md"));
        assert!(names(&["docs/*.md"], "docs/a.md"));
        assert!(names(
            &["packages/*/package.json"],
            "packages/cli/package.json"
        ));
        assert!(!names(&["site/**"], "site/src/docs/commands.mdx"));
        assert!(!names(&["site/*"], "site/index.md"));
        assert!(!names(&["site/"], "site/index.md"));
        assert!(!names(&["site"], "site/index.md"));
        // Named, but a later negation takes it out of the scope.
        assert!(!names(&["docs/a.md", "!docs/"], "docs/a.md"));
    }
}
