//! Paths as a user types them (docs/commands.md, "Ids and paths"; issue 36): a path asked
//! about that is neither tracked nor on disk is answered all the same (no decision governs
//! it), and said once on stderr, with the close name it may have meant.

use super::Session;
use crate::fs::root::query_path;
use crate::text::similar::edit_distance;
use std::path::Path;

impl Session {
    /// The note for a PATH asked about (as [`crate::fs::root::typed_path`] made it) when it is
    /// neither on disk nor tracked: `app/modles/asset.rb is neither tracked nor on disk (did
    /// you mean app/models/asset.rb?)`. `None` when it is either, or is refused anyway. One
    /// `stat` when it is on disk (the warm `why`, ADR-0016); git's index is read only for a
    /// path that is not.
    pub fn absent_note(&self, arg: &str) -> Option<String> {
        let rel = query_path(self.root(), arg).ok()?;
        let rel = rel.trim_end_matches('/');
        if rel.is_empty() || std::fs::symlink_metadata(self.root().join(rel)).is_ok() {
            return None;
        }
        if let Some(repo) = self.repository() {
            let listed = match crate::git::tracked_within(repo, rel) {
                Some(t) => !t.files.is_empty(),
                None => crate::git::tracked(repo).is_ok_and(|t| {
                    let folder = format!("{rel}/");
                    t.files
                        .iter()
                        .any(|f| f.path == rel || f.path.starts_with(&folder))
                }),
            };
            if listed {
                return None;
            }
        }
        let meant = close_path(self.root(), rel)
            .map(|m| format!(" (did you mean {m}?)"))
            .unwrap_or_default();
        Some(format!("{rel} is neither tracked nor on disk{meant}"))
    }
}

/// The path on disk closest to `rel`, segment by segment: each missing name replaced by the
/// one close name in its folder (`modles` → `models`). `None` when a segment has none or
/// several. A folder is listed only where a name is missing: a few `read_dir`s, no walk.
fn close_path(root: &Path, rel: &str) -> Option<String> {
    let mut at = String::new();
    for part in rel.split('/') {
        let here = if at.is_empty() {
            part.to_string()
        } else {
            format!("{at}/{part}")
        };
        if std::fs::symlink_metadata(root.join(&here)).is_ok() {
            at = here;
            continue;
        }
        let dir = if at.is_empty() {
            root.to_path_buf()
        } else {
            root.join(&at)
        };
        // A slip of a key or two: two edits for a name of five characters or more, else one.
        let limit = if part.chars().count() >= 5 { 2 } else { 1 };
        let wanted = part.to_lowercase();
        let mut close: Vec<(usize, String)> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n != ".git")
            .map(|n| (edit_distance(&n.to_lowercase(), &wanted), n))
            .filter(|(d, _)| *d <= limit)
            .collect();
        close.sort();
        let name = match close.as_slice() {
            [(_, only)] => only.clone(),
            [(a, best), (b, _), ..] if a < b => best.clone(),
            _ => return None,
        };
        at = if at.is_empty() {
            name
        } else {
            format!("{at}/{name}")
        };
    }
    Some(at)
}
