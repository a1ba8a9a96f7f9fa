//! Links into a forge's view of code (ADR-0017): the tracked path a `…/blob/REF/path` link
//! names, when it links into this repository.

use super::names::{Entry, Names};
use crate::text::terms::key;

/// The repository's name and the path after the branch of a link into a forge's code
/// (`https://github.com/o/name/blob/main/a/b.rs` → `name`, `a/b.rs`).
pub fn link_parts(url: &str) -> Option<(&str, &str)> {
    let (_, after) = url.split_once("://")?;
    let mut parts = after.splitn(4, '/');
    let (_host, _owner, name, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let rest = rest.strip_prefix("-/").unwrap_or(rest);
    let rest = rest
        .strip_prefix("blob/")
        .or_else(|| rest.strip_prefix("tree/"))?;
    let (_branch, path) = rest.split_once('/')?;
    Some((name.strip_suffix(".git").unwrap_or(name), path))
}

/// Whether a link into a forge's code names a release (`…/tree/0.3.0/…`, `…/blob/v1.2/…`): a
/// view of the code as it was then, on purpose, not a path that should still be there.
pub fn links_a_release(url: &str) -> bool {
    let Some((_, after)) = url.split_once("://") else {
        return false;
    };
    let rest = after.splitn(4, '/').nth(3).unwrap_or("");
    let rest = rest.strip_prefix("-/").unwrap_or(rest);
    let Some(rest) = rest
        .strip_prefix("blob/")
        .or_else(|| rest.strip_prefix("tree/"))
    else {
        return false;
    };
    let reference = rest.split('/').next().unwrap_or("");
    let version = reference.strip_prefix('v').unwrap_or(reference);
    let mut parts = version.split('.');
    parts.clone().count() >= 2
        && parts
            .next()
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

impl Names {
    /// The tracked file or folder a link into a forge's view of code names: `path`, or `path`
    /// without its first one or two segments (the rest of a branch's name, `release/1.2`).
    pub(super) fn linked(&self, url: &str) -> Vec<&Entry> {
        // `https://host/owner/name/blob/REF/path`: the repository's name, then the path.
        let Some((name, path)) = link_parts(url) else {
            return Vec::new();
        };
        if self
            .home
            .as_deref()
            .is_some_and(|home| !name.eq_ignore_ascii_case(home))
        {
            return Vec::new();
        }
        let mut rest = path;
        for _ in 0..3 {
            let leaf = rest.rsplit('/').next().unwrap_or(rest);
            // A file of the top level (`README.md`) may be any repository's: a link names a
            // path here only with a folder in it.
            if rest.contains('/') {
                let found: Vec<&Entry> = self
                    .by_key
                    .get(&key(leaf))
                    .into_iter()
                    .flatten()
                    .map(|&n| &self.entries[n as usize])
                    .filter(|e| e.path.strip_suffix('/').unwrap_or(&e.path) == rest)
                    .collect();
                if !found.is_empty() {
                    return found;
                }
            }
            match rest.split_once('/') {
                Some((_, after)) => rest = after,
                None => break,
            }
        }
        Vec::new()
    }
}
