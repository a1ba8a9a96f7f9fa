//! Java and Kotlin resolution: `a.b.C` is `ROOT/a/b/C.java` (or `.kt`) under a source root
//! (`src/main/java`, `src/test/kotlin`, any `src/SET/java|kotlin`, a bare `src`, the root); a
//! nested class or a static member drops segments from the end until a class file matches; a
//! wildcard, or a Kotlin top-level function, is the package's folder. Classes and packages are
//! indexed once by their path below the root, so an import costs a lookup per segment.

use super::tracked::{parent, Target};
use super::{lang_of, Import, ImportKind, Lang};
use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Jvm {
    /// `a/b/C` (below a root, no extension) → the class files.
    classes: HashMap<String, Vec<String>>,
    /// `a/b` (below a root) → the folders holding that package's files.
    packages: HashMap<String, Vec<String>>,
}

impl Jvm {
    pub(super) fn new(tracked: &[String]) -> Jvm {
        let mut jvm = Jvm::default();
        let sources = tracked
            .iter()
            .filter(|p| matches!(lang_of(p), Some(Lang::Java | Lang::Kotlin)));
        for path in sources {
            let stem = path.rsplit_once('.').map_or(path.as_str(), |(s, _)| s);
            let mut dir = parent(path);
            loop {
                if dir.is_empty() || is_root(dir) {
                    let rel = if dir.is_empty() {
                        stem
                    } else {
                        &stem[dir.len() + 1..]
                    };
                    jvm.classes
                        .entry(rel.to_string())
                        .or_default()
                        .push(path.clone());
                    let folders = jvm.packages.entry(parent(rel).to_string()).or_default();
                    let folder = parent(path).to_string();
                    if !folders.contains(&folder) {
                        folders.push(folder);
                    }
                }
                if dir.is_empty() {
                    break;
                }
                dir = parent(dir);
            }
        }
        for list in jvm.classes.values_mut().chain(jvm.packages.values_mut()) {
            list.sort();
        }
        jvm
    }

    pub(super) fn resolve(&self, from: &str, import: &Import) -> Target {
        let segments: Vec<&str> = import.spec.split('.').filter(|s| !s.is_empty()).collect();
        if segments.is_empty() {
            return Target::Unresolved;
        }
        let wildcard = import.kind == ImportKind::Wildcard;
        if wildcard {
            if let Some(folder) = self.packages.get(&segments.join("/")) {
                return Target::File(nearest(folder, from));
            }
        } else {
            for end in (1..=segments.len()).rev() {
                let stem = segments[..end].join("/");
                if let Some(files) = self.classes.get(&stem) {
                    return Target::File(nearest(files, from));
                }
                if end < segments.len() {
                    if let Some(folders) = self.packages.get(&stem) {
                        return Target::File(nearest(folders, from));
                    }
                }
            }
        }
        let package: Vec<&str> = segments
            .iter()
            .take_while(|s| !s.starts_with(|c: char| c.is_ascii_uppercase()))
            .copied()
            .collect();
        let package = if package.is_empty() || wildcard || package.len() == segments.len() {
            segments.join(".")
        } else {
            package.join(".")
        };
        Target::Package(package)
    }
}

/// Of the candidates (sorted), the one sharing the longest leading path with `from`: the class
/// of the importing file's own module when several modules define it.
fn nearest(candidates: &[String], from: &str) -> String {
    let shared = |c: &String| {
        c.split('/')
            .zip(from.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut best = &candidates[0];
    for c in &candidates[1..] {
        if shared(c) > shared(best) {
            best = c;
        }
    }
    best.clone()
}

/// A Java/Kotlin source root by convention: `src/main/java`, `src/test/kotlin`, any
/// `src/SET/java|kotlin`, and a bare `src`.
fn is_root(dir: &str) -> bool {
    let parts: Vec<&str> = dir.rsplit('/').take(3).collect();
    match parts.as_slice() {
        [lang, _, "src", ..] => matches!(*lang, "java" | "kotlin"),
        ["src", ..] => true,
        _ => false,
    }
}
