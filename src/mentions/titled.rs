//! Names that are right (ADR-0017's amendment of 2026-12-05): a common word names only a
//! distinctive path, a method of a class (`AuthenticationController.AuthenticateUser`,
//! `Billing::Invoice#total`) names the class's file, and a product the title names ("Use Dex
//! for authentication") the one file or folder of its name.

use super::names::{Entry, Names};
use super::paths::{in_tests, is_source, leaf_stem, word_count};
use crate::text::terms::{key, product_key, singular, Term};

impl Names {
    /// Whether a path a common word written as code names (`` `cache` ``, `` `extension` ``)
    /// is distinctive: a source file, or a folder of code below the top (`pkg/cache/`). A
    /// top-level folder of the word is what the repository calls that concern as a whole, a
    /// data or licence file of the word (`licenses/postgresql.json`) no code at all.
    pub(super) fn distinctive(&self, e: &Entry) -> bool {
        let trimmed = e.path.trim_end_matches('/');
        let licence = trimmed
            .split('/')
            .any(|p| p.to_ascii_lowercase().starts_with("licen"));
        !licence
            && match e.path.ends_with('/') {
                true => trimmed.contains('/') && e.code > 0,
                false => is_source(&e.path),
            }
    }

    /// Whether `e` is a folder of code inside a folder of one of the kinds `nouns` (keys,
    /// singular) call it: `internal/backend/remote-state/pg/` for "the `pg` backend".
    pub(super) fn of_noun(&self, e: &Entry, nouns: &[String]) -> bool {
        let trimmed = e.path.trim_end_matches('/');
        let above = trimmed.rsplit_once('/').map_or("", |(a, _)| a);
        e.path.ends_with('/')
            && self.holds_code(e)
            && above
                .split('/')
                .any(|p| nouns.iter().any(|n| singular(&key(p)) == *n))
    }

    /// The source file of the class a method is written on (`AuthenticationController` of
    /// `AuthenticationController.AuthenticateUser`, `Invoice` of `Billing::Invoice#total`):
    /// the class's name a CamelCase name of two words or more, and a file named exactly so
    /// (`AuthenticationController.cs`, `authentication_controller.rb`). None: empty.
    pub(super) fn method_class(&self, text: &str) -> Vec<&Entry> {
        let parts: Vec<&str> = text
            .split([':', '.', '#'])
            .filter(|p| !p.is_empty())
            .collect();
        let [.., class, method] = parts.as_slice() else {
            return Vec::new();
        };
        // After `::` a capitalised name is a nested class or module (`ActiveStorage::Blob`,
        // Rails' own), not a method; after `.` it may be either (C#'s `Controller.Action`).
        let nested = text.contains("::") && method.starts_with(|c: char| c.is_ascii_uppercase());
        let camel = class.starts_with(|c: char| c.is_ascii_uppercase())
            && class.chars().all(|c| c.is_ascii_alphanumeric())
            && word_count(class) >= 2;
        if !camel || nested || !method.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Vec::new();
        }
        let k = key(class);
        self.by_key
            .get(&k)
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                !e.path.ends_with('/')
                    && is_source(&e.path)
                    && key(leaf_stem(&e.path)) == k
                    && !in_tests(&e.path)
            })
            .collect()
    }

    /// The files and folders whose last parts spell every one of `parts`, in order: the
    /// stem the last, each earlier one a folder above it (`hydra-node/src/Hydra/Ledger/Cardano.hs`
    /// of `Hydra.Ledger.Cardano`, `jobserver/models/common.py` of `jobserver.models.common`).
    pub(super) fn module_spelt(&self, parts: &[&str]) -> Vec<&Entry> {
        let Some((last, above_parts)) = parts.split_last() else {
            return Vec::new();
        };
        self.by_key
            .get(&key(last))
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                let mut above = e.path.trim_end_matches('/').rsplit('/').skip(1);
                leaf_stem(&e.path) == *last
                    && above_parts.iter().rev().all(|p| above.next() == Some(*p))
            })
            .collect()
    }

    /// What a product the record's title names (`Dex` of "Use Dex for authentication",
    /// `Gatekeeper` of "Adopt OPA Gatekeeper") names: the one file or folder of exactly its
    /// name, wherever it lies (`dex.tf`, `gatekeeper/`), bar hidden ones, tests and folders of
    /// no code; a folder holding every other match stands for them, a file whose folder holds
    /// every other one deeper is their entry point. Two or more else: nothing.
    pub(super) fn titled(&self, term: &Term) -> Vec<&Entry> {
        let k = key(product_key(&term.text));
        let mut found: Vec<&Entry> = self
            .by_key
            .get(&k)
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                key(leaf_stem(&e.path)) == k
                    && !e.path.starts_with('.')
                    && !e.path.contains("/.")
                    && !in_tests(&e.path)
                    && !self.bulk(e)
                    && !self.most(e)
                    && match e.path.ends_with('/') {
                        true => self.holds_code(e),
                        false => is_source(&e.path),
                    }
            })
            .collect();
        found.dedup_by(|a, b| a.path == b.path);
        if let Some(folder) = found
            .iter()
            .copied()
            .filter(|f| {
                f.path.ends_with('/') && found.iter().all(|e| e.path.starts_with(f.path.as_str()))
            })
            .min_by_key(|f| f.path.len())
        {
            return vec![folder];
        }
        // A file whose folder holds every other match is the entry point of the module
        // beneath it (`cluster/gatekeeper.tf` over `cluster/modules/gatekeeper/`).
        if let Some(file) = found
            .iter()
            .copied()
            .filter(|f| !f.path.ends_with('/'))
            .find(|f| {
                let folder = f.path.rsplit_once('/').map_or("", |(d, _)| d);
                found.iter().all(|e| {
                    e.path == f.path
                        || e.path.starts_with(&format!("{folder}/"))
                            && e.path.matches('/').count() > f.path.matches('/').count()
                })
            })
        {
            return vec![file];
        }
        if found.len() > 1 {
            found.clear();
        }
        found
    }
}
