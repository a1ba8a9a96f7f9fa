//! What a crate's Cargo.toml puts in its extern prelude, the only crates a Rust 2018+ path may
//! start with (ADR-0022, amendment 2026-12-05): its `[dependencies]`, `[dev-dependencies]`,
//! `[build-dependencies]` and the same under `[target.'…']`, each by its key (`package = "…"`
//! renames keep the key; `foo.workspace = true` takes the rest from `[workspace.dependencies]`).

use super::tracked::normalize;
use toml::{Table, Value};

/// The dependency tables of a manifest (or of a `[target.'…']` table), old spellings included.
const TABLES: [&str; 5] = [
    "dependencies",
    "dev-dependencies",
    "dev_dependencies",
    "build-dependencies",
    "build_dependencies",
];

/// One declared dependency.
#[derive(Clone, Debug, Default)]
pub(super) struct Dep {
    /// The key it is declared under.
    pub key: String,
    /// `package = "…"`, when the key renames it.
    pub package: Option<String>,
    /// `path = "…"`, resolved against the declaring manifest's folder.
    pub path: Option<String>,
    /// `workspace = true`: the rest is in the workspace's `[workspace.dependencies]`.
    pub workspace: bool,
}

impl Dep {
    /// The package it names: `package`, else the key.
    pub fn package(&self) -> &str {
        self.package.as_deref().unwrap_or(&self.key)
    }

    /// Whether the key renames the package (code then writes the key, not the library name).
    pub fn renamed(&self) -> bool {
        self.package.as_deref().is_some_and(|p| p != self.key)
    }

    /// `self` completed by the workspace's entry of the same key, when it inherits one.
    pub fn inherit(&self, from: Option<&Dep>) -> Dep {
        match from.filter(|_| self.workspace) {
            Some(base) => Dep {
                key: self.key.clone(),
                package: self.package.clone().or_else(|| base.package.clone()),
                path: base.path.clone(),
                workspace: true,
            },
            None => self.clone(),
        }
    }
}

/// The dependencies `manifest` (in folder `dir`) declares, in every table and target.
pub(super) fn dependencies(manifest: &Table, dir: &str) -> Vec<Dep> {
    let mut out = Vec::new();
    let targets = manifest
        .get("target")
        .and_then(Value::as_table)
        .into_iter()
        .flat_map(|t| t.values().filter_map(Value::as_table));
    for table in std::iter::once(manifest).chain(targets) {
        for name in TABLES {
            if let Some(deps) = table.get(name).and_then(Value::as_table) {
                out.extend(deps.iter().map(|(k, v)| dep(k, v, dir)));
            }
        }
    }
    out
}

/// The `[workspace.dependencies]` of a workspace root manifest (in folder `dir`).
pub(super) fn workspace_dependencies(manifest: &Table, dir: &str) -> Vec<Dep> {
    manifest
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(Value::as_table)
        .map_or(Vec::new(), |deps| {
            deps.iter().map(|(k, v)| dep(k, v, dir)).collect()
        })
}

fn dep(key: &str, value: &Value, dir: &str) -> Dep {
    let field = |f: &str| value.get(f).and_then(Value::as_str).map(String::from);
    Dep {
        key: key.to_string(),
        package: field("package"),
        path: field("path").and_then(|p| normalize(dir, &p)),
        workspace: value.get("workspace").and_then(Value::as_bool) == Some(true),
    }
}
