//! Python resolution as the import system does it over a tree's source roots: `a.b` is
//! `ROOT/a/b.py` or `ROOT/a/b/__init__.py`; the roots are the repository's root, `src/`, and
//! every folder that holds a top-level package (a folder with `__init__.py` whose parent has
//! none). A relative import climbs from the importing file's package, one dot a level. `from
//! M import n` is the module `M.n` when there is one, else `M`. A top-level name no root holds
//! is an installed package.

use super::tracked::{parent, Target, Tracked};
use super::{Import, ImportKind};
use std::collections::{HashMap, HashSet};

#[derive(Default)]
pub(super) struct Py {
    /// Each top-level name (package or module) and the source roots that hold it (each with a
    /// trailing slash, "" for the root), longest first: only those are tried for an import.
    tops: HashMap<String, Vec<String>>,
}

impl Py {
    pub(super) fn new(tracked: &[String]) -> Py {
        let tracked_set: HashSet<&str> = tracked.iter().map(String::as_str).collect();
        let is_package = |dir: &str| tracked_set.contains(format!("{dir}/__init__.py").as_str());
        let mut roots: HashSet<String> = HashSet::new();
        roots.insert(String::new());
        if tracked
            .iter()
            .any(|p| p.starts_with("src/") && p.ends_with(".py"))
        {
            roots.insert("src/".to_string());
        }
        let mut found: Vec<&str> = tracked
            .iter()
            .filter(|p| p.ends_with("/__init__.py"))
            .map(|p| parent(parent(p)))
            .filter(|above| !above.is_empty() && !is_package(above))
            .collect();
        found.sort_unstable();
        found.dedup();
        // A folder inside another root is a namespace package of that root (`src/poetry/`
        // beside `src/poetry/json/`), not a root of its own.
        for above in found {
            let inside = roots
                .iter()
                .any(|r| !r.is_empty() && above.starts_with(r.as_str()));
            if !inside {
                roots.insert(format!("{above}/"));
            }
        }
        let mut tops: HashMap<String, Vec<String>> = HashMap::new();
        for path in tracked
            .iter()
            .filter(|p| p.ends_with(".py") || p.ends_with(".pyi"))
        {
            // Each root above the file: the file's folders, climbed.
            let mut dir = path.as_str();
            loop {
                dir = parent(dir);
                let root = if dir.is_empty() {
                    String::new()
                } else {
                    format!("{dir}/")
                };
                if roots.contains(&root) {
                    let rest = &path[root.len()..];
                    let top = rest.split('/').next().unwrap_or(rest);
                    let top = top
                        .strip_suffix(".py")
                        .or_else(|| top.strip_suffix(".pyi"))
                        .unwrap_or(top);
                    let held = tops.entry(top.to_string()).or_default();
                    if !held.contains(&root) {
                        held.push(root);
                    }
                }
                if dir.is_empty() {
                    break;
                }
            }
        }
        for held in tops.values_mut() {
            held.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        }
        Py { tops }
    }
}

impl Py {
    pub(super) fn resolve(&self, tracked: &Tracked, from: &str, import: &Import) -> Target {
        let spec = import.spec.as_str();
        let from_import = matches!(import.kind, ImportKind::From);
        let dots = spec.len() - spec.trim_start_matches('.').len();
        if dots > 0 {
            let mut package = parent(from).to_string();
            for _ in 1..dots {
                if package.is_empty() {
                    return Target::Unresolved;
                }
                package = parent(&package).to_string();
            }
            let segments: Vec<&str> = spec[dots..].split('.').filter(|s| !s.is_empty()).collect();
            let base = if package.is_empty() {
                String::new()
            } else {
                format!("{package}/")
            };
            return py_module(tracked, &base, &segments, from_import)
                .map_or(Target::Unresolved, Target::File);
        }
        let segments: Vec<&str> = spec.split('.').filter(|s| !s.is_empty()).collect();
        let Some(top) = segments.first() else {
            return Target::Unresolved;
        };
        let Some(roots) = self.tops.get(*top) else {
            return Target::Package((*top).to_string());
        };
        // The root holding the importing file first, then the others, longest first.
        let holding = roots.iter().filter(|r| from.starts_with(r.as_str()));
        let others = roots.iter().filter(|r| !from.starts_with(r.as_str()));
        for root in holding.chain(others) {
            if let Some(found) = py_module(tracked, root, &segments, from_import) {
                return Target::File(found);
            }
        }
        Target::Unresolved
    }
}

/// The file of module `segments` under `base` (a folder with a trailing slash, or ""): the
/// module itself, or (for `from M import n`, where n may be a name in M) its parent.
fn py_module(
    tracked: &Tracked,
    base: &str,
    segments: &[&str],
    from_import: bool,
) -> Option<String> {
    let module = |segments: &[&str]| -> Option<String> {
        let stem = format!("{base}{}", segments.join("/"));
        if segments.is_empty() {
            let init = format!("{base}__init__.py");
            return tracked.is_file(&init).then_some(init);
        }
        [
            format!("{stem}.py"),
            format!("{stem}/__init__.py"),
            format!("{stem}.pyi"),
            format!("{stem}/__init__.pyi"),
        ]
        .into_iter()
        .find(|c| tracked.is_file(c))
    };
    module(segments).or_else(|| {
        if from_import && !segments.is_empty() {
            module(&segments[..segments.len() - 1])
        } else {
            None
        }
    })
}
