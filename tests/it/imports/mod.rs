//! Imports read by a real parser and resolved as each language does (ADR-0022, docs/rules.md):
//! one file a language, each with fixtures of our own code holding comments and strings that
//! look like imports, and the grammars' loading.

mod go;
mod grammars;
mod js;
mod jvm;
mod oracle;
mod oracle_rules;
mod props;
mod python;
mod rust;
mod rust_prelude;
mod tsconfig_extends;

use context_graph::imports::{read_imports, ImportKind, Project, Target};
use std::collections::HashMap;

/// The imports of `text` at `path`: (line, spec, kind).
pub(super) fn read(path: &str, text: &str) -> Vec<(u32, String, ImportKind)> {
    read_imports(path, text.as_bytes())
        .into_iter()
        .map(|i| (i.line, i.spec, i.kind))
        .collect()
}

/// A tree of `files`: what every import of `from` resolves to, as (spec, target).
pub(super) fn resolved(files: &[(&str, &str)], from: &str) -> Vec<(String, Target)> {
    let tracked: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    let bodies: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|(p, b)| (p.to_string(), b.as_bytes().to_vec()))
        .collect();
    let read = |p: &str| bodies.get(p).cloned();
    let project = Project::new(&tracked, &read);
    let text = bodies.get(from).expect("the importing file is in the tree");
    read_imports(from, text)
        .into_iter()
        .map(|i| {
            let target = project.resolve(from, &i);
            (i.spec, target)
        })
        .collect()
}

pub(super) fn file(path: &str) -> Target {
    Target::File(path.to_string())
}

pub(super) fn package(name: &str) -> Target {
    Target::Package(name.to_string())
}

/// `(spec, target)` pairs as owned values, for comparing with [`resolved`].
pub(super) fn pairs(expected: &[(&str, Target)]) -> Vec<(String, Target)> {
    expected
        .iter()
        .map(|(s, t)| (s.to_string(), t.clone()))
        .collect()
}
