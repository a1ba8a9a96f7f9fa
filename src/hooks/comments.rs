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
pub fn comment_only<'a>(path: &str, old: &[&'a str], new: &[&'a str]) -> bool {
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
    if all.clone().all(|l| comment(l) || blank(l)) && all.clone().any(comment) {
        return true;
    }
    // Line by line, the same code with another comment after it (`if x { // typo fixed`).
    let marker = starts[0];
    let trailing = |l: &'a str| code_before_comment(l, marker);
    let code = |l: &'a str| trailing(l).unwrap_or(l.trim_end());
    old.len() == new.len()
        && old.iter().zip(new).any(|(o, n)| o != n)
        && old.iter().zip(new).all(|(o, n)| {
            o == n
                || (comment(o) || blank(o)) && (comment(n) || blank(n))
                || (trailing(o).is_some() || trailing(n).is_some()) && code(o) == code(n)
        })
}

/// The code of `line` before a comment that ends it (`marker`, after a space, outside any
/// string: an even number of `"` and `'` before it and no backtick), trimmed; `None` when no
/// comment ends the line or it cannot be told.
fn code_before_comment<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(at) = line[from..].find(marker).map(|i| i + from) {
        let code = &line[..at];
        let quotes = |q: char| code.matches(q).count().is_multiple_of(2);
        if code.ends_with([' ', '\t']) && quotes('"') && quotes('\'') && !code.contains('`') {
            let code = code.trim_end();
            return (!code.trim().is_empty()).then_some(code);
        }
        from = at + marker.len();
    }
    None
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
        // The same code with another comment after it.
        assert!(comment_only(
            "c.go",
            &["\tif based { // for bases sequencer"],
            &["\tif based { // for based sequencer"]
        ));
        assert!(comment_only("a.py", &["x = 1  # old"], &["x = 1  # new"]));
        assert!(!comment_only("c.go", &["a := 1 // n"], &["a := 2 // n"]));
        assert!(!comment_only(
            "c.go",
            &["u := \"http://a\" // n"],
            &["u := \"http://b\" // n"]
        ));
        assert!(!comment_only(
            "c.go",
            &["u := \"a // b\""],
            &["u := \"a // c\""]
        ));
        assert!(!comment_only(
            "c.go",
            &["f(x) // a", "g()"],
            &["f(x) // b", "h()"]
        ));
        assert!(comment_only(
            "c.go",
            &["f(x) // a", "g()", "// c"],
            &["f(x) // b", "g()", "// d"]
        ));
        assert!(comment_only("a.py", &["x = 1"], &["x = 1  # why"]));
        assert!(!comment_only("a.py", &["x = 1"], &["x = 2"]));
    }
}
