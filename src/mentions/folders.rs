//! Terms that name only a folder (ADR-0017): "the X directory", "the X component" (a crate, a
//! package, a module), "the X controller", and a value listed in backticks.

use super::names::{Entry, Names};
use super::paths::in_tests;
use crate::text::terms::{key, Term};

impl Names {
    /// The entries whose name has the key of `text`.
    fn keyed<'n>(&'n self, text: &str) -> impl Iterator<Item = &'n Entry> + 'n {
        self.by_key
            .get(&key(text))
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
    }

    /// Whether `e` is a folder of code a term may name: not hidden, not tests.
    fn is_code_folder(&self, e: &Entry) -> bool {
        e.path.ends_with('/')
            && !e.path.starts_with('.')
            && !in_tests(&e.path)
            && self.holds_code(e)
    }

    /// What a listed value in backticks names ([`Kind::Value`]): a top-level folder or a
    /// package of code of its name (`consumer/` for `` `consumer`, `receiver`, `processor` ``),
    /// never a file nor a folder deep in the tree.
    pub(super) fn value(&self, term: &Term) -> Vec<&Entry> {
        self.keyed(&term.text)
            .filter(|e| e.named && self.is_code_folder(e))
            .collect()
    }

    /// What a [`Kind::Controller`] names: the one folder of its name (or spelled by its two
    /// words, "Node Health" → `node/health/`) below a folder of controllers or reconcilers
    /// (`internal/controller/protection/usage/` for "the Usage controller"), holding code.
    pub(super) fn controller(&self, term: &Term) -> Vec<&Entry> {
        let mut found: Vec<&Entry> = self.keyed(&term.text).collect();
        if term.text.contains(' ') {
            found.extend(self.spelled(&term.text));
        }
        found.retain(|e| {
            let parts: Vec<&str> = e.path.trim_end_matches('/').split('/').collect();
            self.is_code_folder(e)
                && parts[..parts.len() - 1].iter().any(|p| {
                    matches!(
                        p.to_ascii_lowercase().as_str(),
                        "controller" | "controllers" | "reconciler" | "reconcilers"
                    )
                })
        });
        found.dedup_by(|a, b| a.path == b.path);
        // Of two controllers of the name, the one nearest the top of its folder of controllers
        // (`reconcilers/machineset/`, not `reconcilers/topology/machineset/`).
        let depth = |e: &Entry| e.path.matches('/').count();
        if let Some(least) = found.iter().map(|e| depth(e)).min() {
            found.retain(|e| depth(e) == least);
        }
        found
    }

    /// What a word the prose calls a component, a crate, a package or a module names
    /// ([`Kind::Unit`]): the one folder of its name holding a package's manifest or Go's code
    /// (`components/suggest/` for "the Suggest component"), bar tests and hidden folders.
    pub(super) fn unit(&self, term: &Term) -> Vec<&Entry> {
        self.keyed(&term.text)
            .filter(|e| e.unit && self.is_code_folder(e))
            .collect()
    }

    /// The folder "the X directory" names: the one folder of that name, bar hidden ones, tests
    /// and documentation.
    pub(super) fn folder(&self, term: &Term) -> Vec<&Entry> {
        self.keyed(&term.text)
            .filter(|e| self.is_code_folder(e))
            .collect()
    }
}
