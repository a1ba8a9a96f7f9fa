//! Whole comment lines, by a file's language (docs/hooks.md, ADR-0008 as amended 2026-12-05):
//! a change that only adds, edits or removes comment lines changes nothing the code does, and
//! a reader does not want a decision named for it (`skip_whitespace`). Conservative: a line
//! inside a block comment that does not start with `*`, or a language not listed, is code.

/// The whole-line comment starts of the language of `path`, by its extension or name.
fn starts(path: &str) -> &'static [&'static str] {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    const C: &[&str] = &["//", "/*", "*/", "*"];
    const HASH: &[&str] = &["#"];
    const DASH: &[&str] = &["--"];
    if matches!(
        name.as_str(),
        "makefile" | "dockerfile" | "gemfile" | "rakefile"
    ) {
        return HASH;
    }
    match name.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "rs" | "go" | "java" | "kt" | "kts" | "scala" | "swift" | "c" | "h" | "cc" | "cpp"
        | "hpp" | "cs" | "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "dart" | "php" => C,
        "py" | "rb" | "sh" | "bash" | "zsh" | "yml" | "yaml" | "toml" | "tf" | "hcl" | "pl"
        | "r" | "ex" | "exs" | "cmake" | "nix" => HASH,
        "sql" | "hs" | "lua" | "elm" => DASH,
        _ => &[],
    }
}

/// Whether the changed lines `old` → `new` of `path` (the common lines before and after left
/// out) are all whole comment lines or blank, and some are comments.
pub fn comment_only(path: &str, old: &[&str], new: &[&str]) -> bool {
    let starts = starts(path);
    if starts.is_empty() {
        return false;
    }
    let comment = |l: &&str| {
        let t = l.trim_start();
        starts.iter().any(|s| t.starts_with(s))
    };
    let blank = |l: &&str| l.trim().is_empty();
    let all = old.iter().chain(new);
    all.clone().all(|l| comment(l) || blank(l)) && all.clone().any(comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_lines_by_language() {
        assert!(comment_only("a.ts", &["// old note"], &["// new note", ""]));
        assert!(comment_only("a.ts", &[], &["/**", " * Exported.", " */"]));
        assert!(comment_only("ci.yml", &["# pin it"], &[]));
        assert!(comment_only("q.sql", &["-- a"], &["-- b"]));
        assert!(!comment_only("a.ts", &["// old"], &["const a = 1; // new"]));
        assert!(!comment_only("x.c", &[], &["#include <x.h>"]));
        assert!(!comment_only("README", &["# a"], &["# b"]));
        assert!(!comment_only("a.py", &[""], &[""]));
    }
}
