//! Paths as text: lexical normalisation and confinement to the root, and whether a code span
//! names a path at all. Nothing here touches the file system; `fs::tree` decides what a path
//! is (ADR-0001).

/// Whether a folder's name says it holds documentation: `doc`, `docs`, `documentation`,
/// `wiki` or `handbook` (what a record names there is documents, docs/reading.md).
pub fn is_documentation_folder(name: &str) -> bool {
    matches!(name, "doc" | "docs" | "documentation" | "wiki" | "handbook")
}

/// The package a record's file lies in: its path before the documentation folder holding
/// it, when that is not at the root (`packages/gen-ai/` for
/// `packages/gen-ai/docs/adr/0009-x.md`); empty for the repository's own records
/// (`docs/adr/0001-x.md`, `adr/0001-x.md`).
pub fn record_home(record: &str) -> &str {
    let mut at = 0;
    for part in record.split('/') {
        if at > 0 && is_documentation_folder(part) {
            return &record[..at];
        }
        at += part.len() + 1;
        if at >= record.len() {
            break;
        }
    }
    ""
}

/// Normalises a root-relative path lexically: drops `.` and empty parts, applies `..`.
/// `None` when it would leave the root.
pub fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The characters a gitignore-style pattern reads as glob syntax.
pub const GLOB_CHARS: [char; 4] = ['*', '?', '[', '{'];

/// What a backslash escapes in a path written as a pattern or in backticks: the glob syntax,
/// the backslash itself, and a space.
const ESCAPED: [char; 8] = ['*', '?', '[', ']', '{', '}', '\\', ' '];

/// `path` (a literal path) as a gitignore-style pattern that matches only itself: when it has
/// a glob character, each glob character and backslash escaped (`src/star\*.py`); else as it
/// is, since a pattern with no glob character is a literal path already (ADR-0017).
pub fn escape_glob(path: &str) -> String {
    if !path.contains(GLOB_CHARS) {
        return path.to_string();
    }
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if c != ' ' && ESCAPED.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `path` (a literal path) as a `Governs:` line writes it in backticks: each glob character,
/// backslash and space escaped (`src/db/sp\ ace.py`), so [`clean_code_path`] reads it back as
/// that very path, not a glob or prose (ADR-0017).
pub fn escape_code_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if ESCAPED.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether `text` has a glob character no backslash escapes.
pub fn has_unescaped_glob(text: &str) -> bool {
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if GLOB_CHARS.contains(&c) {
            return true;
        }
        // Not escaping anything else: a backslash before another character stays.
    }
    false
}

/// `text` with its escapes read: a backslash before a glob character, a backslash or a space
/// is that character; before anything else it stays.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek().filter(|n| ESCAPED.contains(n)) {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Whether `s` has whitespace that no backslash escapes.
fn bare_whitespace(s: &str) -> bool {
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c.is_whitespace() {
            return true;
        }
    }
    false
}

/// `part` with every escaped character left out: what is read as syntax in it.
fn syntax_of(part: &str) -> String {
    let mut out = String::new();
    let mut chars = part.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

/// A backticked text that may name a path: cleaned and made root-relative, or `None` when it
/// is plainly not a path (spaces, URLs, options, ids, placeholders, a bare word) or would leave
/// the root (docs/reading.md). A line suffix (`:12`, `:12:4`, `:10-20`, `#L10-L20`) is dropped; `dir/*` and
/// `dir/**` become `dir/` (the trailing `/` marks a folder), a deeper glob keeps what comes
/// before it (`src/auth/*.rs` → `src/auth/`), and a last part naming a family of names stays a
/// glob (`server/protocols/jmap*`, [`is_family`]). One written from the root (`/api/v2/users`) keeps
/// its leading `/`: it names a path only if there is one (else it is a URL route). A glob
/// character or space escaped with a backslash (`star\*.py`, `sp\ ace.py`, as `scope --add`
/// writes them) is that literal character of the path (ADR-0017).
pub fn clean_code_path(span: &str) -> Option<String> {
    let s = span.trim();
    if s.is_empty()
        || bare_whitespace(s)
        || s.chars().any(|c| c.is_control())
        || s.contains("://")
        || s.starts_with(['-', '$', '<', '@', '{', '(', '~'])
        || s.len() > 512
    {
        return None;
    }
    let s = strip_line_suffix(s);
    let s = s.strip_prefix("./").unwrap_or(s);
    let (rooted, s) = match s.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    // git's own folder is no code of the repository ("keeping `.git` out of the context").
    if s.split('/').next() == Some(".git") {
        return None;
    }
    // A single word with no `/` and no `.` is a path only when written as a folder (`scripts/`).
    if !s.contains('/') && !s.contains('.') {
        return None;
    }
    let mut parts = Vec::new();
    let mut glob = false;
    let mut family = None;
    let last = s.trim_end_matches('/').matches('/').count();
    for (at, part) in s.split('/').enumerate() {
        let syntax = syntax_of(part);
        if is_placeholder(&syntax) {
            return None;
        }
        if syntax.contains(GLOB_CHARS) {
            // A family of names in the last part (`server/protocols/jmap*`): those entries,
            // not the folder around them (docs/reading.md).
            if at == last && at > 0 && part == syntax && is_family(part) {
                family = Some(part);
            }
            glob = true;
            break;
        }
        parts.push(part);
    }
    let joined = normalise(&unescape(&parts.join("/")))?;
    if joined.is_empty() {
        return None;
    }
    if let Some(family) = family {
        let path = format!("{joined}/{family}");
        return Some(if rooted { format!("/{path}") } else { path });
    }
    let path = if glob || s.ends_with('/') {
        format!("{joined}/")
    } else {
        joined
    };
    Some(if rooted { format!("/{path}") } else { path })
}

/// A name's beginning, three characters or more of letters, digits, `-`, `_` or `.`, then one
/// `*` and maybe an extension (`jmap*`, `catalog-*`, `009-*`, `IAmAMessageScheduler*.cs`,
/// `test_*.py`): a family of names, not any name.
pub fn is_family(part: &str) -> bool {
    let Some((stem, rest)) = part.split_once('*') else {
        return false;
    };
    let extension = rest.is_empty()
        || rest
            .strip_prefix('.')
            .is_some_and(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_alphanumeric()));
    extension
        && stem.len() >= 3
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Whether `path`'s last part is a family of names ([`is_family`]), as [`clean_code_path`]
/// keeps it.
pub fn ends_in_family(path: &str) -> bool {
    let bare = path.trim_end_matches('/');
    bare.rsplit_once('/').is_some_and(|(head, last)| {
        !head.is_empty() && !head.contains(GLOB_CHARS) && is_family(last)
    })
}

/// The extensions of source code in a programming language (and of infrastructure's code).
#[rustfmt::skip]
const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "go", "py", "rb", "java", "kt", "kts", "scala", "groovy", "clj", "cljs", "cs", "fs",
    "vb", "ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "svelte", "c", "h", "cc", "cpp", "cxx",
    "hpp", "hh", "m", "mm", "swift", "php", "ex", "exs", "erl", "hrl", "hs", "ml", "mli", "elm",
    "dart", "lua", "pl", "pm", "r", "jl", "zig", "nim", "cr", "tf", "hcl", "sql", "proto",
    "rake", "ps1",
];

/// Whether `ext` (in lower case, no dot) is an extension of source code.
pub fn is_source_extension(ext: &str) -> bool {
    SOURCE_EXTENSIONS.contains(&ext)
}

/// The extensions of documentation pages.
const PAGE_EXTENSIONS: &[&str] = &["md", "mdx", "markdown", "rst", "adoc", "asciidoc"];

/// Whether `path` is a documentation page, by its extension (the hooks' pages, ADR-0008; a
/// missing document's fix, ADR-0002).
pub fn is_page(path: &str) -> bool {
    extension(path).is_some_and(|ext| PAGE_EXTENSIONS.contains(&ext.as_str()))
}

/// Whether `path` is prose, where every line is text (a page, or plain `.txt`): a related
/// record's link is read on any of its lines, and said to be on a line, not a comment
/// (docs/related.md).
pub fn is_prose(path: &str) -> bool {
    is_page(path) || extension(path).is_some_and(|ext| ext == "txt")
}

/// A file name's extension, in lower case; `None` for a name with no stem before its dot.
pub fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty())
        .map(|(_, ext)| ext.to_ascii_lowercase())
}

/// `file.ts:12`, `file.ts:12:4`, `file.ts:10-20`, `file.ts#L10-L20`, `file.ts#L10`, `file.py::name` →
/// `file.ts`.
fn strip_line_suffix(s: &str) -> &str {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if let Some((head, tail)) = s.rsplit_once("#L") {
        let tail = tail.replace("-L", "-");
        if tail.split('-').all(digits) {
            return head;
        }
    }
    // `:12`, `:12:4`, and a range of lines `:465-479` (kuma's ADR-0105 cites code so).
    let range = |t: &str| match t.split_once('-') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(t),
    };
    // A symbol in the file: `jobserver/actions/rap.py::rap_status_update()`, a test's node id
    // (`tests/test_api.py::TestJobs::test_list`).
    if let Some((head, _)) = s.split_once("::") {
        let name = head.rsplit('/').next().unwrap_or(head);
        if name.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && !ext.is_empty() && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        }) {
            return head;
        }
    }
    let mut out = s;
    for _ in 0..2 {
        match out.rsplit_once(':') {
            Some((head, tail)) if range(tail) && !head.is_empty() => out = head,
            _ => break,
        }
    }
    out
}

/// A part of a path that stands for one rather than naming it: `<name>`, `{id}`, `${VAR}`,
/// `NNNN`, `YYYY`, `…`, `...`.
fn is_placeholder(part: &str) -> bool {
    (part.contains('<') && part.contains('>'))
        || (part.contains('{') && part.contains('}'))
        || part.contains("${")
        || part.contains('…')
        || part.contains("...")
        || ["NNNN", "YYYY", "XXXX"].iter().any(|p| part.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_in_a_package_has_the_package_as_its_home() {
        assert_eq!(
            record_home("packages/gen-ai/docs/adr/0009-maas.md"),
            "packages/gen-ai/"
        );
        assert_eq!(record_home("docs/adr/0001-record.md"), "");
        assert_eq!(record_home("adr/0001-record.md"), "");
        assert_eq!(record_home("doc/architecture/decisions/0002-x.md"), "");
        assert_eq!(
            record_home("services/billing/doc/adr/0001-x.md"),
            "services/billing/"
        );
    }

    #[test]
    fn a_symbol_after_a_file_names_the_file() {
        for (span, file) in [
            (
                "jobserver/actions/rap.py::rap_status_update()",
                "jobserver/actions/rap.py",
            ),
            (
                "tests/test_api.py::TestJobs::test_list",
                "tests/test_api.py",
            ),
        ] {
            assert_eq!(clean_code_path(span).as_deref(), Some(file), "{span}");
        }
        assert_eq!(clean_code_path(".git"), None);
        assert_eq!(clean_code_path(".git/hooks/"), None);
        assert_eq!(
            clean_code_path(".github/workflows/ci.yml").as_deref(),
            Some(".github/workflows/ci.yml")
        );
        // A Rust path is no file.
        assert_eq!(strip_line_suffix("std::fs::read"), "std::fs::read");
        assert_eq!(strip_line_suffix("src/fs::read"), "src/fs::read");
    }

    #[test]
    fn normalises_and_confines() {
        assert_eq!(normalise("./a//b/../c").as_deref(), Some("a/c"));
        assert_eq!(normalise("../x"), None);
        assert_eq!(normalise("a/../../x"), None);
    }

    #[test]
    fn paths_that_are_not_code_are_not_paths() {
        assert_eq!(
            clean_code_path("src/app.ts:12").as_deref(),
            Some("src/app.ts")
        );
        assert_eq!(
            clean_code_path("src/app.ts:12:4").as_deref(),
            Some("src/app.ts")
        );
        assert_eq!(
            clean_code_path("src/app.ts#L10-L20").as_deref(),
            Some("src/app.ts")
        );
        assert_eq!(
            clean_code_path("src/app.ts#L10").as_deref(),
            Some("src/app.ts")
        );
        assert_eq!(
            clean_code_path("pkg/dns/vips_allocator.go:360-361").as_deref(),
            Some("pkg/dns/vips_allocator.go")
        );
        assert_eq!(
            clean_code_path("src/app.ts:10-").as_deref(),
            Some("src/app.ts:10-"),
            "not a range"
        );
        for placeholder in [
            "src/<name>/",
            "schema/v{major}/x.json",
            "docs/adr/NNNN-title.md",
            "logs/YYYY-MM-DD.log",
            "${HOME}/x",
            "src/…/x.rs",
        ] {
            assert_eq!(clean_code_path(placeholder), None, "{placeholder}");
        }
        assert_eq!(clean_code_path("version"), None);
        assert_eq!(clean_code_path("Makefile"), None);
        assert_eq!(clean_code_path("scripts/").as_deref(), Some("scripts/"));
        assert_eq!(
            clean_code_path("/api/v2/users").as_deref(),
            Some("/api/v2/users")
        );
        assert_eq!(clean_code_path("/api/v2/{id}"), None);
    }

    #[test]
    fn escaped_glob_characters_and_spaces_are_the_paths_own() {
        for path in [
            "src/db/star*.py",
            "src/q?.py",
            "src/db/sp ace.py",
            "app/[id]/page.tsx",
            "a/{x}.rs",
            "a\\b.rs",
        ] {
            assert_eq!(
                clean_code_path(&escape_code_path(path)).as_deref(),
                Some(path),
                "{path}"
            );
        }
        assert_eq!(escape_glob("src/a.rs"), "src/a.rs");
        assert_eq!(escape_glob("a\\b.rs"), "a\\b.rs");
        assert_eq!(escape_glob("src/star*.py"), "src/star\\*.py");
        assert_eq!(escape_glob("app/[id].ts"), "app/\\[id\\].ts");
        assert!(!has_unescaped_glob("src/star\\*.py"));
        assert!(has_unescaped_glob("src/*.py"));
        assert_eq!(clean_code_path("src/sp ace.py"), None);
        assert_eq!(clean_code_path("src/db/*.py").as_deref(), Some("src/db/"));
    }

    #[test]
    fn a_family_of_names_stays_a_glob() {
        for (span, path) in [
            ("server/protocols/jmap*", Some("server/protocols/jmap*")),
            (
                "packages/adapters/catalog-*",
                Some("packages/adapters/catalog-*"),
            ),
            ("specs/009-*/", Some("specs/009-*")),
            ("src/ab*", Some("src/")),
            ("src/auth/*.rs", Some("src/auth/")),
            ("src/jmap*/x.rs", Some("src/")),
            ("src/auth/test_*.py", Some("src/auth/test_*.py")),
            (
                "src/Paramore.Brighter/IAmAMessageScheduler*.cs",
                Some("src/Paramore.Brighter/IAmAMessageScheduler*.cs"),
            ),
            ("src/auth/*.rs", Some("src/auth/")),
            ("src/auth/ab*.tar.gz", Some("src/auth/")),
            ("jmap*", None),
            ("src/db/star\\*", Some("src/db/star*")),
        ] {
            assert_eq!(clean_code_path(span).as_deref(), path, "{span}");
        }
        assert!(ends_in_family("server/protocols/jmap*"));
        assert!(!ends_in_family("jmap*"));
        assert!(!ends_in_family("src/*/jmap*"));
        assert!(ends_in_family("src/db/star*.py"));
        assert!(!ends_in_family("src/db/*.py"));
    }

    #[test]
    fn cleans_code_spans() {
        assert_eq!(clean_code_path("src/auth/*").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("src/auth/**").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("./src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(clean_code_path("cargo build"), None);
        assert_eq!(clean_code_path("../etc/passwd"), None);
        assert_eq!(clean_code_path("https://x.y/z"), None);
    }
}
