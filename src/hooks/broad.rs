//! Files a decision reaches only through a folder too large to be its subject (docs/hooks.md,
//! ADR-0008 as amended 2026-12-07): odh-dashboard's record on module federation names the host
//! application, "Main dashboard application (`frontend/`)", 2,778 files, and every fix in them
//! was warned about. A decision that governs a part of the system that large is about the part;
//! a change inside it says nothing of the decision by being there. A file an entry names
//! itself, or that declares the decision by a marker, still counts.

use crate::governs::{Pattern, Scope};
use crate::text::marker::Markers;

/// More files than this under one entry, and the entry is a part of the system, not the
/// subject of a change inside it. Of the full warnings readers judged on seventeen repositories
/// (docs/corpora.md, "Commit warnings, ninth pass"), none relevant came through an entry of
/// more than 329 files; the 15 that came through entries of 1,005 to 2,778 were 8 irrelevant
/// and 7 weak.
pub const BROAD: usize = 1000;

/// Whether the decision `id`, whose governed entries make `scopes` (one per record of the id),
/// reaches `path` only through entries that each govern more than [`BROAD`] tracked files
/// (`files(entry)` counts them): no entry names the file, and it declares no marker of it.
pub fn broad_folder(
    id: &str,
    scopes: &[Scope],
    path: &str,
    markers: &Markers,
    files: &dyn Fn(&Pattern) -> usize,
) -> bool {
    if markers.declares(path, id) || scopes.iter().any(|s| s.names_file(path)) {
        return false;
    }
    let mut through = scopes
        .iter()
        .flat_map(Scope::positives)
        .filter(|e| e.matches(path))
        .peekable();
    through.peek().is_some() && through.all(|e| files(e) > BROAD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_through_entries_of_more_than_a_thousand_files() {
        let none = Markers::default();
        let files = |e: &Pattern| match e.as_str() {
            "frontend/" => 2778,
            "frontend/src/federation/" => 40,
            _ => 12,
        };
        let host = Scope::new(["frontend/"]);
        let broad = |scope: &Scope, path| {
            broad_folder("ADR-2", std::slice::from_ref(scope), path, &none, &files)
        };
        assert!(broad(&host, "frontend/src/app.tsx"));
        // A narrower entry of the same decision governs it too: it counts.
        let both = Scope::new(["frontend/", "frontend/src/federation/"]);
        assert!(!broad(&both, "frontend/src/federation/host.ts"));
        assert!(broad(&both, "frontend/src/app.tsx"));
        // A file the record names counts, though it lies in the large folder.
        let named = Scope::new(["frontend/", "frontend/webpack.config.js"]);
        assert!(!broad(&named, "frontend/webpack.config.js"));
        // A small folder counts; a path not governed is not broad.
        let small = Scope::new(["src/pay/"]);
        assert!(!broad(&small, "src/pay/gateway.rs"));
        assert!(!broad(&host, "docs/a.md"));
    }
}
