//! Which folders may hold a file a glob matches (ADR-0016): a warm answer's check of a glob
//! that no tracked file matches walks only those.

use super::Matcher;

/// Which folders may hold a file a glob matches, told from the folder's path alone: a walk
/// looking for such a file lists those and no other (a warm answer's check of a glob that no
/// tracked file matches, ADR-0016). Cautious: a glob it cannot split by folder (`{a,b/c}`,
/// a class, an escape) or does not compile keeps every folder.
pub struct FolderFilter {
    /// The anchored glob's parts between `/`, each `None` for `**`; `None` keeps every folder.
    parts: Option<Vec<Option<Matcher>>>,
}

impl FolderFilter {
    /// The filter of the glob `text` (as written in a record).
    pub fn of(text: &str) -> FolderFilter {
        let bare = text.trim_end_matches('/');
        let anchored = if bare.contains('/') {
            bare.to_string()
        } else {
            format!("**/{bare}")
        };
        if anchored.contains(['{', '[', '\\']) {
            return FolderFilter { parts: None };
        }
        let parts = anchored
            .split('/')
            .map(|part| match part {
                "**" => Some(None),
                // A name of literal text and `*` is matched without compiling a regex (most
                // globs' parts, issue 41); a part holds no backslash (the glob keeps every
                // folder then), so escaping changes nothing.
                _ => Matcher::of(part).map(Some),
            })
            .collect();
        FolderFilter { parts }
    }

    /// Whether a file under the root-relative folder `dir` may match the glob: `dir`'s names
    /// can begin a path it matches, or `dir` is (under) a folder it matches.
    pub fn may_hold_under(&self, dir: &str) -> bool {
        let Some(parts) = &self.parts else {
            return true;
        };
        let names: Vec<&str> = dir.split('/').filter(|n| !n.is_empty()).collect();
        begins(parts, &names)
    }
}

/// Whether the folder names `names` can begin a path the glob `parts` match (every name
/// consumed), or a prefix of them matches it whole (all under it matches).
fn begins(parts: &[Option<Matcher>], names: &[&str]) -> bool {
    let (Some(part), Some(name)) = (parts.first(), names.first()) else {
        return true;
    };
    match part {
        None => begins(&parts[1..], names) || begins(parts, &names[1..]),
        Some(m) => m.is_match(name) && begins(&parts[1..], &names[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk for a glob's match lists only the folders that could begin one, and every
    /// folder under one the glob matches whole; a glob it cannot split keeps every folder.
    #[test]
    fn a_folder_filter_keeps_the_folders_a_match_may_lie_in() {
        let import = FolderFilter::of("pkg/adapters/import-*/**");
        for kept in [
            "pkg",
            "pkg/adapters",
            "pkg/adapters/import-csv",
            "pkg/adapters/import-csv/src/deep",
        ] {
            assert!(import.may_hold_under(kept), "{kept}");
        }
        for left in [
            "src",
            "pkg/core",
            "pkg/adapters/catalog-x",
            "pkg/adapters/catalog-x/import-y",
        ] {
            assert!(!import.may_hold_under(left), "{left}");
        }
        let deep = FolderFilter::of("specs/**/plan.md");
        assert!(deep.may_hold_under("specs/001/contracts/v2"));
        assert!(!deep.may_hold_under("pkg"));
        let anywhere = FolderFilter::of("*.proto");
        assert!(anywhere.may_hold_under("a/b/c"));
        let middle = FolderFilter::of("pkg/*/test/**");
        assert!(middle.may_hold_under("pkg/x/test/unit"));
        assert!(middle.may_hold_under("pkg/x"));
        assert!(!middle.may_hold_under("pkg/x/src"));
        for cautious in ["web/{a,b/c}/**", "lib/x[0-9]/**", "q\\?/**"] {
            assert!(
                FolderFilter::of(cautious).may_hold_under("other/place"),
                "{cautious}"
            );
        }
    }
}
