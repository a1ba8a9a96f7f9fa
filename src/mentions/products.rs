//! Products' names (ADR-0017): the folder or the tool's own file a capitalised name names
//! (`MySQL` → `mysql/`, `Lerna` → `lerna.json`).

use super::names::{Entry, Names};
use super::paths::in_tests;
use crate::text::terms::{key, product_key, Term};

impl Names {
    /// The entry a product's name names: the one file or folder (bar tests, documentation
    /// and the bulk) whose name begins with it as a whole part; a folder holding every other
    /// match stands for them (`lambda/` over `lambda/lambda_sync.py`).
    pub(super) fn product(&self, term: &Term) -> Vec<&Entry> {
        let k = key(product_key(&term.text));
        // A tool's own file lies at the top or directly in a package (`packages/web/`), not
        // in a folder of the top (`bin/rails`).
        let packages = &self.packages;
        let at_top = |path: &str| match path.rfind('/') {
            None => true,
            Some(at) => packages.contains(&path[..=at]),
        };
        let mut found: Vec<&Entry> = self
            .by_token
            .get(&k)
            .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
            .unwrap_or_default();
        // A folder whose name begins with the name (`mysql/`, `puffin/`), or a tool's own
        // file (`lerna.json`, `next.config.js`, `.eslintrc.js`); not a folder the name only
        // qualifies (`app-transition-postgresql/`) nor a file it is a word of
        // (`sqs_allow_sns_policy.tpl`).
        found.retain(|e| {
            (e.path.ends_with('/') || at_top(&e.path))
                && !self.most(e)
                && !e.path.to_ascii_lowercase().contains("test")
                && !in_tests(&e.path)
                && !self.bulk(e)
        });
        let folders: Vec<&Entry> = found
            .iter()
            .copied()
            .filter(|f| {
                f.path.ends_with('/') && found.iter().all(|e| e.path.starts_with(f.path.as_str()))
            })
            .collect();
        if let Some(top) = folders.into_iter().min_by_key(|f| f.path.len()) {
            return vec![top];
        }
        // The same file at the top and in packages (`.eslintrc.js`): the top one, which the
        // packages' copies extend.
        let leaf = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        if let Some(top) = found.iter().find(|e| !e.path.contains('/')) {
            if found.iter().all(|e| leaf(&e.path) == top.path) {
                return vec![*top];
            }
        }
        found
    }
}
