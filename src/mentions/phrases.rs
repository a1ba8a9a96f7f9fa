//! Phrases (ADR-0017): the file or folder of as many words a phrase names, the title's phrase
//! run together, and a folder of a family by the rest of its name.

use super::names::{Entry, Names};
use super::paths::{in_tests, leaf_stem, word_count};
use crate::text::terms::{key, singular, Kind, Term};
use std::collections::HashMap;

impl Names {
    /// The entries a phrase names: files and folders of as many words, the last one's plural
    /// folded (`Worldwide Organisations` is `worldwide_organisation.rb`), else a folder of a
    /// family by the rest of its name (`security groups` is `infra-security-groups/`). Nothing
    /// with `test` in its path (`integration-tests/`, `ListMailboxes.test`): a concept names
    /// code. A folder wins over the same-named files inside it.
    pub(super) fn phrase(&self, term: &Term) -> Vec<&Entry> {
        let words = term.text.split(' ').count();
        let written = key(&term.text);
        let single = singular(&written);
        // The title's phrase is what the record is about: a folder named by its words run
        // together is that subject's package (`server/deeplinks/` of "Deep Links",
        // `plugins/util/nodelock/` of "Node Lock"). Any other phrase names only a path of as
        // many words (read: run together, phrases named unrelated files more often than not).
        let joined = |e: &Entry| {
            term.kind == Kind::TitlePhrase
                && words >= 2
                && e.path.ends_with('/')
                && word_count(leaf_stem(&e.path)) == 1
        };
        let of = |map: &HashMap<String, Vec<u32>>, k: &str, less: usize| -> Vec<&Entry> {
            map.get(k)
                .map(|ns| {
                    ns.iter()
                        .map(|&n| &self.entries[n as usize])
                        .filter(|e| {
                            let leaf = word_count(leaf_stem(&e.path));
                            leaf == words + less || (less == 0 && joined(e))
                        })
                        .filter(|e| {
                            !e.path.starts_with('.')
                                && !e.path.to_ascii_lowercase().contains("test")
                                && !in_tests(&e.path)
                                && !self.bulk(e)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut found = of(&self.by_key, &single, 0);
        if found.is_empty() && single != written {
            found = of(&self.by_key, &written, 0);
        }
        if found.is_empty() {
            found = of(&self.by_rest, &written, 1);
        }
        if found.is_empty() && single != written {
            found = of(&self.by_rest, &single, 1);
        }
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        found
    }
}
