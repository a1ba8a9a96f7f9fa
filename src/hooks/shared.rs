//! Files many decisions govern (docs/hooks.md, ADR-0008 as amended 2026-12-05): a CI workflow,
//! the root manifest, a command-line entry point that three or more decisions each name. Such a
//! file changes for many reasons, and an edit to it alone names none of the decisions in
//! particular: a reader does not want each of them warned about (`skip_shared_files`). Adding
//! or deleting such a file still counts.

use crate::model::Governing;
use std::collections::HashMap;

/// How many decisions govern a file that is shared.
pub const SHARED_BY: usize = 3;

/// The paths that [`SHARED_BY`] or more of `decisions` (each with the paths it governs, one per
/// decision id, as `hooks::governing` gives them) govern.
pub fn shared_paths(decisions: &[Governing]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for d in decisions {
        for p in &d.paths {
            *count.entry(p.as_str()).or_default() += 1;
        }
    }
    let mut shared: Vec<String> = count
        .into_iter()
        .filter(|(_, n)| *n >= SHARED_BY)
        .map(|(p, _)| p.to_string())
        .collect();
    shared.sort();
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_three_decisions_govern_is_shared() {
        let d = |id: &str, paths: &[&str]| Governing {
            id: id.into(),
            title: String::new(),
            record: String::new(),
            paths: paths.iter().map(|p| p.to_string()).collect(),
            cited: false,
        };
        let decisions = [
            d("ADR-1", &["ci.yml", "src/a.rs"]),
            d("ADR-2", &["ci.yml", "src/a.rs"]),
            d("ADR-3", &["ci.yml"]),
        ];
        assert_eq!(shared_paths(&decisions), ["ci.yml"]);
    }
}
