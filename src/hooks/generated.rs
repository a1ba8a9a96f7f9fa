//! Lock, generated and vendored files (docs/hooks.md, ADR-0008 as amended 2026-12-05): a change
//! to them alone is no change a reader wants a decision named for (`skip_generated`).

/// File names that are lock files, whatever their folder.
const LOCK_FILES: &[&str] = &[
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "Cargo.lock",
    "go.sum",
    "poetry.lock",
    "Gemfile.lock",
    "composer.lock",
    "Pipfile.lock",
    "uv.lock",
    "mix.lock",
    "flake.lock",
];

/// Folders whose files are built or copied in, never written by hand.
const GENERATED_FOLDERS: &[&str] = &["dist", "vendor", "node_modules"];

/// The root's `.gitattributes`, as far as `linguist-generated` and `linguist-vendored` go.
#[derive(Debug, Default)]
pub struct Attributes {
    /// In file order: the pattern, whether it is matched against the whole path (it has a `/`)
    /// or the file name, and what it sets (`Some(false)` unsets).
    lines: Vec<(globset::GlobMatcher, bool, Option<bool>)>,
}

impl Attributes {
    /// Reads a `.gitattributes` text: `PATTERN attr…` lines, `#` comments. A pattern git would
    /// take but the glob syntax cannot is skipped.
    pub fn parse(text: &str) -> Attributes {
        let mut lines = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let Some(pattern) = words.next() else {
                continue;
            };
            let mut set = None;
            for attr in words {
                let (negated, name) = match attr.strip_prefix(['-', '!']) {
                    Some(name) => (true, name),
                    None => (false, attr),
                };
                let (name, value) = name.split_once('=').unwrap_or((name, "true"));
                if name == "linguist-generated" || name == "linguist-vendored" {
                    set = Some(!negated && value != "false");
                }
            }
            let Some(set) = set else {
                continue;
            };
            let anchored = pattern.trim_end_matches('/').contains('/');
            let pattern = pattern.trim_start_matches('/');
            let glob = globset::GlobBuilder::new(pattern)
                .literal_separator(true)
                .build();
            if let Ok(glob) = glob {
                lines.push((glob.compile_matcher(), anchored, Some(set)));
            }
        }
        Attributes { lines }
    }

    /// Whether the root-relative `path` is marked generated or vendored (the last line that
    /// says so either way wins, as in git).
    pub fn generated(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        self.lines
            .iter()
            .rev()
            .find(|(glob, anchored, _)| glob.is_match(if *anchored { path } else { name }))
            .and_then(|(_, _, set)| *set)
            .unwrap_or(false)
    }
}

/// Whether `path` is a lock file, under a `dist/`, `vendor/` or `node_modules/` folder, or
/// marked `linguist-generated` / `linguist-vendored` in `attributes`.
pub fn is_generated(path: &str, attributes: &Attributes) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or("");
    name.ends_with(".lock")
        || LOCK_FILES.contains(&name)
        || parts.iter().any(|p| GENERATED_FOLDERS.contains(p))
        || attributes.generated(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_generated_and_vendored_paths() {
        let attrs = Attributes::parse(
            "# built\n*.pb.go linguist-generated\n/api/gen/** linguist-generated=true\nthird_party/** linguist-vendored\napi/gen/keep.go -linguist-generated\n",
        );
        for p in [
            "Cargo.lock",
            "web/package-lock.json",
            "go.sum",
            "dist/app.js",
            "app/vendor/lib.rb",
            "proto/x.pb.go",
            "api/gen/a/b.go",
            "third_party/z.c",
        ] {
            assert!(is_generated(p, &attrs), "{p}");
        }
        for p in [
            "src/lock.rs",
            "api/gen/keep.go",
            "distant/a.js",
            "src/main.go",
        ] {
            assert!(!is_generated(p, &attrs), "{p}");
        }
    }
}
