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
/// is plainly not a path (spaces, URLs, options, ids) or would leave the root.
/// `dir/*` and `dir/**` become `dir/` (the trailing `/` marks a folder).
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
    let s = s.strip_prefix("./").unwrap_or(s);
    let s = s.strip_prefix('/').unwrap_or(s);
    let mut parts = Vec::new();
    let mut glob = false;
    for part in s.split('/') {
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
    Some(if glob || s.ends_with('/') {
        format!("{joined}/")
    } else {
        joined
    })
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
    fn cleans_code_spans() {
        assert_eq!(clean_code_path("src/auth/*").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("src/auth/**").as_deref(), Some("src/auth/"));
        assert_eq!(clean_code_path("./src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(clean_code_path("cargo build"), None);
        assert_eq!(clean_code_path("../etc/passwd"), None);
        assert_eq!(clean_code_path("https://x.y/z"), None);
    }
}
