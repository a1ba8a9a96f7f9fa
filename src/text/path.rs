//! Paths as text: lexical normalisation and confinement to the root, and whether a code span
//! names a path at all. Nothing here touches the file system; `fs::tree` decides what a path
//! is (ADR-0001).

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

/// A backticked text that may name a path: cleaned and made root-relative, or `None` when it
/// is plainly not a path (spaces, URLs, options, ids, placeholders, a bare word) or would leave
/// the root (CONTRACT.md §8). A line suffix (`:12`, `:12:4`, `#L10-L20`) is dropped; `dir/*` and
/// `dir/**` become `dir/` (the trailing `/` marks a folder), and a deeper glob keeps what comes
/// before it (`src/auth/*.rs` → `src/auth/`). One written from the root (`/api/v2/users`) keeps
/// its leading `/`: it names a path only if there is one (else it is a URL route).
pub fn clean_code_path(span: &str) -> Option<String> {
    let s = span.trim();
    if s.is_empty()
        || s.chars().any(|c| c.is_whitespace() || c.is_control())
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
    // A single word with no `/` and no `.` is a path only when written as a folder (`scripts/`).
    if !s.contains('/') && !s.contains('.') {
        return None;
    }
    let mut parts = Vec::new();
    let mut glob = false;
    for part in s.split('/') {
        if is_placeholder(part) {
            return None;
        }
        if part.contains(['*', '?', '[', '{']) {
            glob = true;
            break;
        }
        parts.push(part);
    }
    let joined = normalise(&parts.join("/"))?;
    if joined.is_empty() {
        return None;
    }
    let path = if glob || s.ends_with('/') {
        format!("{joined}/")
    } else {
        joined
    };
    Some(if rooted { format!("/{path}") } else { path })
}

/// `file.ts:12`, `file.ts:12:4`, `file.ts#L10-L20`, `file.ts#L10` → `file.ts`.
fn strip_line_suffix(s: &str) -> &str {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if let Some((head, tail)) = s.rsplit_once("#L") {
        let tail = tail.replace("-L", "-");
        if tail.split('-').all(digits) {
            return head;
        }
    }
    let mut out = s;
    for _ in 0..2 {
        match out.rsplit_once(':') {
            Some((head, tail)) if digits(tail) && !head.is_empty() => out = head,
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
    fn cleans_code_spans() {
        assert_eq!(clean_code_path("src/auth/*").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("src/auth/**").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("./src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(clean_code_path("cargo build"), None);
        assert_eq!(clean_code_path("../etc/passwd"), None);
        assert_eq!(clean_code_path("https://x.y/z"), None);
    }
}
