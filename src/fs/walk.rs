//! The guide walk: `.md` files outside the record folders, with what `.gitignore` and the
//! other ignore files say honoured (ADR-0001).

use super::discover::{rel_of, Found};
use super::root::work_tree_top;
use std::path::{Path, PathBuf};

/// The guides a walk found, and the folders it walked (so a cache can tell, from their
/// modification times alone, that a new walk would find the same).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuideWalk {
    pub files: Vec<Found>,
    /// Root-relative folders walked (`""` is the root).
    pub dirs: Vec<String>,
}

/// The ignore files a guide walk honours besides those inside the walked folders: the root's
/// ancestors' `.gitignore`/`.ignore` and the repository's `info/exclude`.
pub fn outer_ignore_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in root.ancestors().skip(1) {
        out.push(dir.join(".gitignore"));
        out.push(dir.join(".ignore"));
    }
    if let Some(top) = work_tree_top(root) {
        out.push(top.join(".git").join("info").join("exclude"));
    }
    out
}

/// Guides: `.md` files outside the record folders (hidden folders and what `.gitignore`
/// ignores left out), root-relative and sorted.
pub fn guide_walk(root: &Path, folders: &[String]) -> GuideWalk {
    let mut out = GuideWalk::default();
    let record_dirs: Vec<PathBuf> = folders.iter().map(|f| root.join(f)).collect();
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .filter_entry(move |e| {
            if !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let name = e.file_name().to_str().unwrap_or("");
            !matches!(name, "target" | "node_modules") && !record_dirs.iter().any(|d| d == e.path())
        })
        .build();
    for entry in walker.flatten() {
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let rel = rel_of(root, entry.path());
        if file_type.is_dir() {
            out.dirs.push(rel);
            continue;
        }
        if !(file_type.is_file() || file_type.is_symlink()) {
            continue;
        }
        if !rel.to_ascii_lowercase().ends_with(".md") {
            continue;
        }
        let in_records = folders.iter().any(|f| rel.starts_with(&format!("{f}/")));
        if !in_records {
            out.files.push(Found {
                rel,
                link: file_type.is_symlink(),
            });
        }
    }
    out.files.sort();
    out.dirs.sort();
    out
}
