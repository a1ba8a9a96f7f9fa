//! Rust resolution as rustc finds modules: a crate is a folder with a Cargo.toml `[package]`;
//! its roots are `src/lib.rs` (or `[lib] path`), `src/main.rs`, `src/bin/*`, `tests/*`,
//! `examples/*`, `benches/*` and `build.rs`. Module `a` of a root or `mod.rs` is `a.rs` or
//! `a/mod.rs` beside it; of `x.rs`, in `x/`. `crate::`, `self::`, `super::` and a module in
//! scope walk those files; the first segment that is no module file is an item of the last
//! file found. Any other first segment is a crate only if the crate's extern prelude holds it
//! (its Cargo.toml's dependencies, the sysroot, its own library from its other targets): a
//! workspace crate's is its library root, any other a package; a name not in the prelude is
//! a name in scope, no edge (ADR-0022, amendment 2026-12-05).

use super::cargo;
use super::tracked::{name, normalize, parent, Target, Tracked};
use super::{Import, ImportKind};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// What a crate root's `extern crate` items add: (name code writes, crate it names).
type Externs = Arc<Vec<(String, String)>>;

/// The reader of tracked files (the crate roots whose `extern crate` items are read).
type Read<'r> = &'r dyn Fn(&str) -> Option<Vec<u8>>;

#[derive(Default)]
pub(super) struct Crates {
    /// Crate folder → its library root file, if any ("" for a crate at the root).
    dirs: HashMap<String, Option<String>>,
    /// Crate name as code writes it (`-` read as `_`) → library root file.
    libs: HashMap<String, String>,
    /// Crate folder → its extern prelude.
    preludes: HashMap<String, Prelude>,
    /// The files a `[[bin]]`, `[[test]]`, `[[bench]]` or `[[example]]` `path` names: roots.
    targets: HashSet<String>,
    /// Crate root file → what its `extern crate` items add to the prelude (see
    /// [`super::rust::extern_crates`]), read the first time a path misses the prelude.
    externs: Mutex<HashMap<String, Externs>>,
}

/// The crates a path in one crate may start with (ADR-0022, amendment 2026-12-05).
#[derive(Default)]
struct Prelude {
    /// Each declared dependency by the name code writes → the library root file of a workspace
    /// crate, `None` for a crate outside the tree.
    deps: HashMap<String, Option<String>>,
    /// The declared keys with `-` and `_` taken out: a registry package whose library is named
    /// otherwise (`md-5`'s `md5`) is not known from the manifest, and is taken for one of them.
    loose: HashSet<String>,
    /// The package's own library (name, root file), in the prelude of its other targets.
    own: Option<(String, String)>,
    /// Rust 2015 (no `edition`): a `use` path not starting with a crate is relative to the
    /// crate root.
    edition_2015: bool,
}

/// A crate's name as code writes it: `-` read as `_`.
fn code_name(name: &str) -> String {
    name.replace('-', "_")
}

/// The names, with `-` and `_` taken out, a registry package's library may have that its key
/// does not say: its own (`md-5`'s `md5`), or without an `-rs` suffix (`uddsketch-rs`'s
/// `uddsketch`). A vendor prefix (`sapling-renderdag`'s `renderdag`) is not guessed: most
/// prefixed packages keep it (`aws-config`'s `aws_config`), and a name in scope (`config`)
/// would read as a crate.
fn library_names(key: &str) -> Vec<String> {
    let mut out = vec![loose(key)];
    if let Some(stem) = code_name(key).strip_suffix("_rs") {
        out.push(loose(stem));
    }
    out
}

/// A name with `-` and `_` taken out, for [`Prelude::loose`].
fn loose(name: &str) -> String {
    name.chars().filter(|c| *c != '-' && *c != '_').collect()
}

/// The crates every crate may name without declaring them.
const SYSROOT: [&str; 5] = ["std", "core", "alloc", "proc_macro", "test"];

/// One manifest with a `[package]`, as read.
struct Package {
    dir: String,
    name: String,
    lib: Option<(String, String)>,
    deps: Vec<cargo::Dep>,
    /// `package.edition` as written: a string, or `{ workspace = true }` (`None` if absent).
    edition: Option<toml::Value>,
}

impl Crates {
    pub(super) fn new(tracked: &[String], read: &dyn Fn(&str) -> Option<Vec<u8>>) -> Crates {
        let mut crates = Crates::default();
        let mut packages = Vec::new();
        // Workspace folder → its `[workspace.dependencies]` by key.
        let mut workspaces: HashMap<String, HashMap<String, cargo::Dep>> = HashMap::new();
        // Workspace folder → its `[workspace.package] edition`.
        let mut editions: HashMap<String, String> = HashMap::new();
        for path in tracked.iter().filter(|p| name(p) == "Cargo.toml") {
            let Some(manifest) = read(path)
                .and_then(|b| String::from_utf8(b).ok())
                .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
            else {
                continue;
            };
            let dir = parent(path).to_string();
            if let Some(edition) = manifest
                .get("workspace")
                .and_then(|w| w.get("package"))
                .and_then(|p| p.get("edition"))
                .and_then(|e| e.as_str())
            {
                editions.insert(dir.clone(), edition.to_string());
            }
            if manifest.contains_key("workspace") {
                let deps = cargo::workspace_dependencies(&manifest, &dir);
                let by_key = deps.into_iter().map(|d| (d.key.clone(), d)).collect();
                workspaces.insert(dir.clone(), by_key);
            }
            let Some(package) = manifest.get("package").and_then(|p| p.as_table()) else {
                continue;
            };
            let lib_path = manifest
                .get("lib")
                .and_then(|l| l.get("path"))
                .and_then(|p| p.as_str())
                .unwrap_or("src/lib.rs");
            let lib = normalize(&dir, lib_path).filter(|l| tracked.iter().any(|t| t == l));
            let package_name = package.get("name").and_then(|n| n.as_str());
            let crate_name = manifest
                .get("lib")
                .and_then(|l| l.get("name"))
                .and_then(|n| n.as_str())
                .or(package_name)
                .map(code_name);
            if let (Some(n), Some(l)) = (crate_name.clone(), lib.clone()) {
                crates.libs.insert(n.clone(), l.clone());
            }
            crates.dirs.insert(dir.clone(), lib.clone());
            for kind in ["bin", "test", "bench", "example"] {
                let declared = manifest.get(kind).and_then(|k| k.as_array());
                for target in declared.into_iter().flatten() {
                    let path = target.get("path").and_then(|p| p.as_str());
                    if let Some(file) = path.and_then(|p| normalize(&dir, p)) {
                        crates.targets.insert(file);
                    }
                }
            }
            packages.push(Package {
                deps: cargo::dependencies(&manifest, &dir),
                name: package_name.unwrap_or_default().to_string(),
                lib: crate_name.zip(lib),
                edition: package.get("edition").cloned(),
                dir,
            });
        }
        let by_name: HashMap<&str, &Package> =
            packages.iter().map(|p| (p.name.as_str(), p)).collect();
        let by_dir: HashMap<&str, &Package> =
            packages.iter().map(|p| (p.dir.as_str(), p)).collect();
        for package in &packages {
            let workspace = ancestors(&package.dir).find_map(|d| workspaces.get(d));
            let edition = match &package.edition {
                Some(toml::Value::String(e)) => Some(e.as_str()),
                Some(_) => {
                    ancestors(&package.dir).find_map(|d| editions.get(d).map(String::as_str))
                }
                None => None,
            };
            let mut prelude = Prelude {
                own: package.lib.clone(),
                edition_2015: edition.is_none_or(|e| e == "2015"),
                ..Prelude::default()
            };
            for dep in &package.deps {
                let dep = dep.inherit(workspace.and_then(|w| w.get(&dep.key)));
                let local = match &dep.path {
                    Some(path) => by_dir.get(path.as_str()),
                    None => by_name.get(dep.package()),
                };
                let lib = local.and_then(|l| l.lib.clone());
                let written = match &lib {
                    Some((lib_name, _)) if !dep.renamed() => lib_name.clone(),
                    _ => code_name(&dep.key),
                };
                if lib.is_none() {
                    prelude.loose.extend(library_names(&dep.key));
                }
                prelude.deps.insert(written, lib.map(|(_, file)| file));
            }
            crates.preludes.insert(package.dir.clone(), prelude);
        }
        crates
    }
}

/// `dir` and each folder above it, up to the root ("").
fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(dir), |d| (!d.is_empty()).then(|| parent(d)))
}

impl Crates {
    pub(super) fn resolve(&self, t: &Tracked, read: Read, from: &str, import: &Import) -> Target {
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
            // `extern crate self as me;`: the crate itself, its root.
            ImportKind::ExternCrate if import.spec == "self" => {
                return self
                    .rust_root(t, from)
                    .map_or(Target::Unresolved, Target::File);
            }
            ImportKind::ExternCrate => {
                let declared = self.prelude(from).and_then(|p| p.deps.get(&import.spec));
                if let Some(Some(lib)) = declared {
                    return Target::File(lib.clone());
                }
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
            return self.other_crate(t, read, from, None, &segments);
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
            _ => return self.other_crate(t, read, from, Some(&root), &segments),
        };
        path.extend(rest.iter().map(|s| s.to_string()));
        Target::File(self.module_file(t, &root, &path))
    }

    /// A path starting with a crate: a workspace crate's module file, or a crate outside the
    /// tree. In a crate with a Cargo.toml only a crate of its extern prelude is one (the
    /// sysroot's, its dependencies, its own library from its other targets); any other first
    /// segment is a name in scope (from `use super::*`, an `include!`d module, a macro), no
    /// crate and no edge. `root` is the crate root `from` belongs to.
    fn other_crate(
        &self,
        t: &Tracked,
        read: Read,
        from: &str,
        root: Option<&str>,
        segments: &[&str],
    ) -> Target {
        let first = segments[0];
        let in_lib = |lib: &str| {
            let path: Vec<String> = segments[1..].iter().map(|s| s.to_string()).collect();
            Target::File(self.module_file(t, lib, &path))
        };
        let Some(prelude) = self.prelude(from) else {
            return match self.libs.get(first) {
                Some(lib) => in_lib(lib),
                // `std`, `core`, `alloc` and every crate from a registry.
                None => Target::Package(first.to_string()),
            };
        };
        match prelude.deps.get(first) {
            Some(Some(lib)) => return in_lib(lib),
            Some(None) => return Target::Package(first.to_string()),
            None => {}
        }
        if SYSROOT.contains(&first) || prelude.loose.contains(&loose(first)) {
            return Target::Package(first.to_string());
        }
        // A name an `extern crate` item of the crate root adds (`extern crate self as me;`).
        if let Some(krate) = root.and_then(|r| self.extern_crate(read, r, first)) {
            let own = prelude.own.as_ref().filter(|(name, _)| *name == krate);
            return match (krate.as_str(), root, own) {
                ("self", Some(root), _) => in_lib(root),
                (_, _, Some((_, lib))) => in_lib(lib),
                _ => match prelude.deps.get(&krate) {
                    Some(Some(lib)) => in_lib(lib),
                    _ => Target::Package(krate),
                },
            };
        }
        match (&prelude.own, root) {
            (Some((name, lib)), _) if name == first && !self.in_library(t, from, root, lib) => {
                in_lib(lib)
            }
            // Rust 2015: a module of the crate root (`use util::tidy` for `crate::util::tidy`).
            (_, Some(root)) if prelude.edition_2015 => {
                match self.module_child(t, &child_dir(root, true), first) {
                    Some(_) => {
                        let path: Vec<String> = segments.iter().map(|s| s.to_string()).collect();
                        Target::File(self.module_file(t, root, &path))
                    }
                    None => Target::Unresolved,
                }
            }
            _ => Target::Unresolved,
        }
    }

    /// Whether `from` surely belongs to its package's library `lib` (which does not see its
    /// own name): the root itself, or a file beside or below it in a crate with no
    /// `src/main.rs` whose modules could be there too. A module of a test, bench or example
    /// target that is not found from its root (`benches/x/mod.rs`) is not.
    fn in_library(&self, t: &Tracked, from: &str, root: Option<&str>, lib: &str) -> bool {
        if from == lib {
            return true;
        }
        let Some(dir) = self.crate_dir(from) else {
            return false;
        };
        let main = normalize(dir, "src/main.rs").unwrap_or_default();
        root == Some(lib) && !t.is_file(&main) && from.starts_with(&format!("{}/", parent(lib)))
    }

    /// The crate `name` names in the crate root file `root` by an `extern crate` item there.
    fn extern_crate(&self, read: Read, root: &str, name: &str) -> Option<String> {
        let known = {
            let externs = self.externs.lock().unwrap_or_else(|e| e.into_inner());
            externs.get(root).cloned()
        };
        let externs = known.unwrap_or_else(|| {
            let found = read(root)
                .filter(|b| b.len() <= super::MAX_BYTES)
                .map_or(Vec::new(), |b| super::rust::extern_crates(&b));
            let found = Arc::new(found);
            let mut externs = self.externs.lock().unwrap_or_else(|e| e.into_inner());
            externs.insert(root.to_string(), Arc::clone(&found));
            found
        });
        externs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, k)| k.clone())
    }

    /// The folder of the crate `from` sits in, by its nearest Cargo.toml with a `[package]`.
    fn crate_dir<'f>(&self, from: &'f str) -> Option<&'f str> {
        ancestors(parent(from)).find(|d| self.dirs.contains_key(*d))
    }

    /// The extern prelude of the crate `from` sits in.
    fn prelude(&self, from: &str) -> Option<&Prelude> {
        self.crate_dir(from).and_then(|d| self.preludes.get(d))
    }

    /// The crate root file `from` belongs to, by where it sits in its crate's folder.
    fn rust_root(&self, t: &Tracked, from: &str) -> Option<String> {
        let crate_dir = self.crate_dir(from)?;
        let lib = self.dirs.get(crate_dir)?;
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
        if self.targets.contains(from) {
            return Some(from.to_string());
        }
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
