//! Rust resolution as rustc finds modules: a crate is a folder with a Cargo.toml `[package]`;
//! its roots are `src/lib.rs` (or `[lib] path`), `src/main.rs`, `src/bin/*`, `tests/*`,
//! `examples/*`, `benches/*` and `build.rs`. Module `a` of a root or `mod.rs` is `a.rs` or
//! `a/mod.rs` beside it; of `x.rs`, in `x/`. `crate::`, `self::`, `super::` and a module in
//! scope walk those files; the first segment that is no module file is an item of the last
//! file found. A workspace crate's name (`-` read as `_`) is its library root; any other first
//! segment is a crate outside the tree.

use super::tracked::{name, normalize, parent, Target, Tracked};
use super::{Import, ImportKind};
use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Crates {
    /// Crate folder → its library root file, if any ("" for a crate at the root).
    dirs: HashMap<String, Option<String>>,
    /// Crate name as code writes it (`-` read as `_`) → library root file.
    libs: HashMap<String, String>,
}

impl Crates {
    pub(super) fn new(tracked: &[String], read: &dyn Fn(&str) -> Option<Vec<u8>>) -> Crates {
        let mut crates = Crates::default();
        for path in tracked.iter().filter(|p| name(p) == "Cargo.toml") {
            let Some(manifest) = read(path)
                .and_then(|b| String::from_utf8(b).ok())
                .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
            else {
                continue;
            };
            let Some(package) = manifest.get("package").and_then(|p| p.as_table()) else {
                continue;
            };
            let dir = parent(path).to_string();
            let lib_path = manifest
                .get("lib")
                .and_then(|l| l.get("path"))
                .and_then(|p| p.as_str())
                .unwrap_or("src/lib.rs");
            let lib = normalize(&dir, lib_path).filter(|l| tracked.iter().any(|t| t == l));
            let crate_name = manifest
                .get("lib")
                .and_then(|l| l.get("name"))
                .or_else(|| package.get("name"))
                .and_then(|n| n.as_str())
                .map(|n| n.replace('-', "_"));
            if let (Some(n), Some(l)) = (crate_name, lib.clone()) {
                crates.libs.insert(n, l);
            }
            crates.dirs.insert(dir, lib);
        }
        crates
    }
}

impl Crates {
    pub(super) fn resolve(&self, t: &Tracked, from: &str, import: &Import) -> Target {
        match import.kind {
            ImportKind::ModDecl => {
                let dir = child_dir(from, self.rust_root(t, from).as_deref() == Some(from));
                return self
                    .module_child(t, &dir, &import.spec)
                    .map_or(Target::Unresolved, Target::File);
            }
            ImportKind::ModPath => {
                return normalize(parent(from), &import.spec)
                    .filter(|p| t.is_file(p))
                    .map_or(Target::Unresolved, Target::File);
            }
            ImportKind::ExternCrate => {
                return match self.libs.get(&import.spec) {
                    Some(lib) => Target::File(lib.clone()),
                    None => Target::Package(import.spec.clone()),
                };
            }
            _ => {}
        }
        let segments: Vec<&str> = import
            .spec
            .trim_start_matches("::")
            .split("::")
            .filter(|s| !s.is_empty() && *s != "*")
            .collect();
        let Some(first) = segments.first().copied() else {
            return Target::Unresolved;
        };
        let Some(root) = self.rust_root(t, from) else {
            return self.other_crate(t, first, &segments);
        };
        let mut path = module_path_of(&root, from);
        let rest = match first {
            "crate" => {
                path.clear();
                &segments[1..]
            }
            "self" | "super" => {
                let mut i = 0;
                while let Some(s) = segments.get(i).filter(|s| **s == "self" || **s == "super") {
                    if *s == "super" && path.pop().is_none() {
                        return Target::Unresolved;
                    }
                    i += 1;
                }
                &segments[i..]
            }
            _ if !import.spec.starts_with("::") && {
                let dir = child_dir(from, from == root);
                self.module_child(t, &dir, first).is_some()
            } =>
            {
                &segments[..]
            }
            _ => return self.other_crate(t, first, &segments),
        };
        path.extend(rest.iter().map(|s| s.to_string()));
        Target::File(self.module_file(t, &root, &path))
    }

    /// A workspace crate's module file, or a crate outside the tree.
    fn other_crate(&self, t: &Tracked, first: &str, segments: &[&str]) -> Target {
        match self.libs.get(first) {
            Some(lib) => {
                let path: Vec<String> = segments[1..].iter().map(|s| s.to_string()).collect();
                Target::File(self.module_file(t, lib, &path))
            }
            // `std`, `core`, `alloc` and every crate from a registry.
            None => Target::Package(first.to_string()),
        }
    }

    /// The crate root file `from` belongs to, by where it sits in its crate's folder.
    fn rust_root(&self, t: &Tracked, from: &str) -> Option<String> {
        let mut dir = parent(from);
        let (crate_dir, lib) = loop {
            if let Some(lib) = self.dirs.get(dir) {
                break (dir, lib);
            }
            if dir.is_empty() {
                return None;
            }
            dir = parent(dir);
        };
        let rel = from
            .strip_prefix(crate_dir)
            .map(|r| r.trim_start_matches('/'))
            .unwrap_or(from);
        let at = |p: &str| normalize(crate_dir, p).unwrap_or_default();
        let parts: Vec<&str> = rel.split('/').collect();
        let target_root = match parts.as_slice() {
            ["build.rs"] => Some(at("build.rs")),
            ["src", "bin", file] | ["tests" | "examples" | "benches", file] => {
                Some(at(&rel[..rel.len() - file.len()]) + "/" + file)
            }
            ["src", "bin", folder, ..] | ["tests" | "examples" | "benches", folder, ..] => {
                let top = if parts[0] == "src" {
                    "src/bin"
                } else {
                    parts[0]
                };
                Some(at(&format!("{top}/{folder}/main.rs")))
            }
            _ => None,
        };
        if let Some(root) = target_root.filter(|r| t.is_file(r)) {
            return Some(root);
        }
        let main = at("src/main.rs");
        if from == main {
            return Some(main);
        }
        lib.clone().or_else(|| t.is_file(&main).then_some(main))
    }

    /// Module `child` of the module whose children live in `dir`.
    fn module_child(&self, t: &Tracked, dir: &str, child: &str) -> Option<String> {
        let child = child.strip_prefix("r#").unwrap_or(child);
        [format!("{child}.rs"), format!("{child}/mod.rs")]
            .into_iter()
            .filter_map(|c| normalize(dir, &c))
            .find(|c| t.is_file(c))
    }

    /// The file of the deepest module of `path` below `root` that has one.
    fn module_file(&self, t: &Tracked, root: &str, path: &[String]) -> String {
        let mut file = root.to_string();
        for (i, segment) in path.iter().enumerate() {
            let dir = child_dir(&file, i == 0);
            match self.module_child(t, &dir, segment) {
                Some(next) => file = next,
                None => break,
            }
        }
        file
    }
}

/// The folder holding the child modules of module file `file`.
fn child_dir(file: &str, is_root: bool) -> String {
    if is_root || name(file) == "mod.rs" {
        parent(file).to_string()
    } else {
        file.strip_suffix(".rs").unwrap_or(file).to_string()
    }
}

/// The module path of `from` below `root` (empty for the root itself).
fn module_path_of(root: &str, from: &str) -> Vec<String> {
    if from == root {
        return Vec::new();
    }
    let base = parent(root);
    let rel = from
        .strip_prefix(base)
        .map(|r| r.trim_start_matches('/'))
        .unwrap_or(from);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut path: Vec<String> = rel.split('/').map(String::from).collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}
