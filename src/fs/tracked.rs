//! What git tracks, as the paths records name are judged against it: a tracked file is never
//! ignored, whatever the ignore files say, as in git (`git check-ignore` agrees). Build output
//! a record names in passing is left out because git ignores it; a file someone added on
//! purpose is code (ADR-0002, ADR-0011). This layer does not read git: the layer above gives
//! the paths, read from git's index only when first asked.

use std::sync::OnceLock;

/// The reading of git's tracked paths (root-relative, `/`-separated), done once.
type Read = Box<dyn Fn() -> Vec<String> + Send + Sync>;

/// The paths git tracks under the root, read on first use.
pub struct TrackedPaths {
    read: Read,
    paths: OnceLock<Vec<String>>,
    /// File name → the tracked files bearing it (their places in the sorted paths), gathered
    /// when first asked.
    names: OnceLock<std::collections::HashMap<String, Vec<u32>>>,
}

impl TrackedPaths {
    /// The tracked paths `read` returns, read when first asked.
    pub fn new(read: impl Fn() -> Vec<String> + Send + Sync + 'static) -> TrackedPaths {
        TrackedPaths {
            read: Box::new(read),
            paths: OnceLock::new(),
            names: OnceLock::new(),
        }
    }

    /// How many tracked files are named `name` (their last part), in every folder.
    pub fn named(&self, name: &str) -> usize {
        self.bearing(name).len()
    }

    /// The tracked files whose path ends with `suffix` after a `/` (`oneapi/tbb/x.h` ends
    /// `include/oneapi/tbb/x.h`), not the one at the root, sorted.
    pub fn ending(&self, suffix: &str) -> Vec<String> {
        let name = suffix.rsplit('/').next().unwrap_or(suffix);
        let paths = self.paths();
        self.bearing(name)
            .iter()
            .map(|&i| paths[i as usize].as_str())
            .filter(|p| {
                p.strip_suffix(suffix)
                    .is_some_and(|above| above.ends_with('/'))
            })
            .map(str::to_string)
            .collect()
    }

    /// The places of the tracked files named `name`.
    fn bearing(&self, name: &str) -> &[u32] {
        let names = self.names.get_or_init(|| {
            let mut names: std::collections::HashMap<String, Vec<u32>> = Default::default();
            for (i, p) in self.paths().iter().enumerate() {
                let last = p.rsplit('/').next().unwrap_or(p);
                names.entry(last.to_string()).or_default().push(i as u32);
            }
            names
        });
        names.get(name).map_or(&[], Vec::as_slice)
    }

    fn paths(&self) -> &[String] {
        self.paths.get_or_init(|| {
            let mut paths = (self.read)();
            paths.sort();
            paths.dedup();
            paths
        })
    }

    /// Whether git tracks the file `rel`, or a file under the folder `rel` (trailing `/` or
    /// not).
    pub fn tracks(&self, rel: &str) -> bool {
        let bare = rel.trim_end_matches('/');
        if bare.is_empty() {
            return false;
        }
        let paths = self.paths();
        if paths.binary_search_by(|p| p.as_str().cmp(bare)).is_ok() {
            return true;
        }
        let folder = format!("{bare}/");
        let at = paths.partition_point(|p| p.as_str() < folder.as_str());
        paths.get(at).is_some_and(|p| p.starts_with(&folder))
    }

    /// The tracked files under `folder` (`""` is the root), root-relative and sorted.
    pub fn files_under(&self, folder: &str) -> Vec<String> {
        let paths = self.paths();
        let bare = folder.trim_end_matches('/');
        if bare.is_empty() {
            return paths.to_vec();
        }
        let folder = format!("{bare}/");
        let at = paths.partition_point(|p| p.as_str() < folder.as_str());
        paths[at..]
            .iter()
            .take_while(|p| p.starts_with(&folder))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_folders_holding_them_are_tracked() {
        let t = TrackedPaths::new(|| {
            vec![
                "build/keep.js".to_string(),
                "src/a.rs".to_string(),
                "src/b/c.rs".to_string(),
                "src-x/d.rs".to_string(),
            ]
        });
        assert!(t.tracks("build/keep.js"));
        assert!(t.tracks("build"));
        assert!(t.tracks("build/"));
        assert!(t.tracks("src/b"));
        assert!(!t.tracks("src/b/d.rs"));
        assert!(!t.tracks("bui"));
        assert!(!t.tracks(""));
        assert_eq!(t.files_under("src"), ["src/a.rs", "src/b/c.rs"]);
        assert_eq!(t.files_under("src/b/"), ["src/b/c.rs"]);
        assert_eq!(t.files_under("").len(), 4);
        assert!(t.files_under("nothing").is_empty());
    }
}
