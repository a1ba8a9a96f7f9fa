//! The tracked paths of a tree, by path and by folder, what an import resolves to, and the
//! path arithmetic every language's resolution shares.

use super::{lang_of, Lang};
use std::collections::HashMap;
use std::sync::OnceLock;

/// What an import resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A tracked file; or, for a Go import and a Java/Kotlin wildcard (whose target is a
    /// package, that is a folder), the tracked folder's path, without a trailing slash.
    File(String),
    /// An external package as the language names it: an npm package (`react`, `@scope/name`),
    /// a crate, a Python top-level module, a Go import path, a Java package.
    Package(String),
    /// Inside the tree (relative, `crate::`, the Go module's own path) but no tracked file.
    Unresolved,
}

/// The tracked paths, sorted, and by folder when first asked. Borrowed, not copied: a commit
/// hook resolving one file's imports asks a few paths of thousands (docs/benchmarks.md).
pub(super) struct Tracked<'a> {
    sorted: Vec<&'a str>,
    /// Each folder's tracked files, directly in it ("" is the root), sorted.
    dirs: OnceLock<HashMap<&'a str, Vec<&'a str>>>,
}

impl<'a> Tracked<'a> {
    pub(super) fn new(tracked: &'a [String]) -> Tracked<'a> {
        let mut sorted: Vec<&str> = tracked.iter().map(String::as_str).collect();
        // Git's index lists them in this order already.
        if !sorted.is_sorted() {
            sorted.sort_unstable();
        }
        sorted.dedup();
        Tracked {
            sorted,
            dirs: OnceLock::new(),
        }
    }

    pub(super) fn is_file(&self, path: &str) -> bool {
        self.sorted.binary_search(&path).is_ok()
    }

    /// The tracked files directly in `dir`.
    pub(super) fn in_dir(&self, dir: &str) -> &[&'a str] {
        let dirs = self.dirs.get_or_init(|| {
            let mut dirs: HashMap<&str, Vec<&str>> = HashMap::new();
            for path in &self.sorted {
                dirs.entry(parent(path)).or_default().push(path);
            }
            dirs
        });
        dirs.get(dir).map_or(&[], Vec::as_slice)
    }

    /// Whether `dir` holds a tracked file of `lang` directly.
    pub(super) fn dir_has(&self, dir: &str, lang: Lang) -> bool {
        self.in_dir(dir).iter().any(|f| lang_of(f) == Some(lang))
    }
}

/// The folder of `path` ("" at the root).
pub(super) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The last segment of `path`.
pub(super) fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `dir` and `rest` joined, `.` and `..` applied; `None` above the root.
pub(super) fn normalize(dir: &str, rest: &str) -> Option<String> {
    if dir.is_empty() {
        return crate::text::path::normalise(rest);
    }
    crate::text::path::normalise(&format!("{dir}/{rest}"))
}

/// `dir` and a relative folder joined without normalising.
pub(super) fn join_dir(dir: &str, rest: &str) -> String {
    match (dir.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => dir.to_string(),
        (false, false) => format!("{dir}/{rest}"),
    }
}
