//! What a file's change is, by its content before and after (docs/hooks.md, ADR-0008): only
//! whitespace, only whole comment lines, only version strings, or anything else; and the
//! version strings a commit's subject or a line holds. `hooks::quiet` asks.

/// The length of a version string at the start of `bytes` (`v1.2`, `1.2.3-SNAPSHOT`), with at
/// least `dots` dots; 0 when there is none.
fn version_at(bytes: &[u8], dots: usize) -> usize {
    let mut i = usize::from(bytes.first() == Some(&b'v'));
    let digits = |mut i: usize| {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let Some(mut end) = digits(i) else {
        return 0;
    };
    let mut seen = 0;
    while end < bytes.len() && bytes[end] == b'.' {
        match digits(end + 1) {
            Some(next) => {
                end = next;
                seen += 1;
            }
            None => break,
        }
    }
    if seen < dots {
        return 0;
    }
    i = end;
    if i + 1 < bytes.len()
        && matches!(bytes[i], b'-' | b'+')
        && bytes[i + 1].is_ascii_alphanumeric()
    {
        i += 1;
        while i < bytes.len()
            && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'.' | b'-'))
        {
            i += 1;
        }
        end = i;
    }
    end
}

/// `text` with each version string (at least `dots` dots) replaced by `\0`; a version starts
/// where no letter or digit comes before it.
pub(super) fn versioned(text: &str, dots: usize) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < bytes.len() {
        let starts = (bytes[i].is_ascii_digit() || bytes[i] == b'v')
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
        let len = if starts {
            version_at(&bytes[i..], dots)
        } else {
            0
        };
        if len > 0 {
            out.push_str(&text[last..i]);
            out.push('\u{0}');
            i += len;
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// How many version strings `text` holds.
pub(super) fn versions_in(text: &str, dots: usize) -> usize {
    versioned(text, dots).matches('\u{0}').count()
}

/// What a file's change is, by its content before and after (`None`: it did not exist).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Only whitespace differs.
    Whitespace,
    /// Every changed line is a whole comment line or blank (`hooks::comments`).
    Comments,
    /// Every changed line differs only in version strings.
    VersionOnly,
    /// Anything else.
    Other,
}

/// A line with its version strings blanked: any `1.2`-like one on a line (or in a file) that
/// says `version`, else only `1.2.3`-like ones (so `timeout = 1.5` → `2.5` is not a version).
fn unversioned(line: &str, versioned_file: bool, go: bool) -> String {
    let loose = versioned_file || line.to_ascii_lowercase().contains("version");
    let line = undigested(&versioned(line, if loose { 1 } else { 2 }));
    if go {
        go_majors(&line)
    } else {
        line
    }
}

/// `text` with each Go module path's major version (`/v9/` in
/// `github.com/celestiaorg/celestia-app/v9/x/mint`, `/v10"`) replaced by `\0`: a module's
/// next major version changes every import of it (celestia-app's "prepare for app version 10";
/// a commit doing only that is a version bump).
fn go_majors(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut last) = (0, 0);
    while i + 2 < bytes.len() {
        if bytes[i] == b'/' && bytes[i + 1] == b'v' {
            let digits = bytes[i + 2..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let end = i + 2 + digits;
            // A module path starts with a host (`github.com/…`): `/api/v1/` is no module's.
            let start = bytes[..i]
                .iter()
                .rposition(|b| matches!(b, b'"' | b'`' | b' ' | b'\t'))
                .map_or(0, |p| p + 1);
            let host = bytes[start..i].split(|b| *b == b'/').next();
            if digits > 0
                && host.is_some_and(|h| h.contains(&b'.'))
                && bytes
                    .get(end)
                    .is_none_or(|b| matches!(b, b'/' | b'"' | b'`'))
            {
                out.push_str(&text[last..i + 1]);
                out.push('\u{0}');
                last = end;
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// `text` with each run of 40 or more hexadecimal digits (a content digest pinned beside a
/// version, `prom/prometheus:v3.12.0@sha256:69f5…`, or a commit an action is pinned to)
/// replaced by `\0`.
fn undigested(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut last) = (0, 0);
    while i < bytes.len() {
        let run = bytes[i..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        let bounded = (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes
                .get(i + run)
                .is_none_or(|b| !b.is_ascii_alphanumeric());
        if run >= 40 && bounded {
            out.push_str(&text[last..i]);
            out.push('\u{0}');
            last = i + run;
        }
        i += run.max(1);
    }
    out.push_str(&text[last..]);
    out
}

/// The shape of a change of `path` from `old` to `new`.
pub fn shape(path: &str, old: Option<&[u8]>, new: Option<&[u8]>) -> Shape {
    let (Some(old), Some(new)) = (old, new) else {
        return Shape::Other;
    };
    if old == new {
        return Shape::Other;
    }
    let squeeze = |b: &[u8]| -> Vec<u8> {
        b.iter()
            .copied()
            .filter(|c| !c.is_ascii_whitespace())
            .collect()
    };
    if squeeze(old) == squeeze(new) {
        return Shape::Whitespace;
    }
    let (Ok(old), Ok(new)) = (std::str::from_utf8(old), std::str::from_utf8(new)) else {
        return Shape::Other;
    };
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let front = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let back = a[front..]
        .iter()
        .rev()
        .zip(b[front..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[front..a.len() - back], &b[front..b.len() - back]);
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let versioned_file = name.contains("version");
    let go = name.ends_with(".go") || name == "go.mod";
    let versions_only = !a.is_empty()
        && a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| unversioned(x, versioned_file, go) == unversioned(y, versioned_file, go));
    if versions_only {
        Shape::VersionOnly
    } else if super::comments::comment_only(path, a, b) {
        Shape::Comments
    } else {
        Shape::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_changes() {
        let s = |old: &str, new: &str| shape("a/x", Some(old.as_bytes()), Some(new.as_bytes()));
        assert_eq!(s("a = 1\n", "a  =  1\n\n"), Shape::Whitespace);
        assert_eq!(
            s(
                "{\n  \"version\": \"0.8.0\",\n}\n",
                "{\n  \"version\": \"0.8.1\",\n}\n"
            ),
            Shape::VersionOnly
        );
        assert_eq!(
            s(
                "<version>1.2-SNAPSHOT</version>\n",
                "<version>1.3-SNAPSHOT</version>\n"
            ),
            Shape::VersionOnly
        );
        assert_eq!(
            s("\"lodash\": \"^4.17.20\"\n", "\"lodash\": \"^4.17.21\"\n"),
            Shape::VersionOnly
        );
        // A digest pinned beside the version changes with it.
        let image = |v: &str, d: char| {
            format!(
                "image: prom/prometheus:{v}@sha256:{}\n",
                d.to_string().repeat(64)
            )
        };
        assert_eq!(
            s(&image("v3.11.1", 'a'), &image("v3.12.0", 'b')),
            Shape::VersionOnly
        );
        let pin = |d: char| format!("uses: actions/checkout@{} # v4\n", d.to_string().repeat(40));
        assert_eq!(s(&pin('a'), &pin('c')), Shape::VersionOnly);
        // A Go module's next major version, in its imports and its go.mod.
        let go =
            |f: &str, old: &str, new: &str| shape(f, Some(old.as_bytes()), Some(new.as_bytes()));
        assert_eq!(
            go(
                "x/mint/abci.go",
                "import \"github.com/celestiaorg/celestia-app/v9/x/mint/types\"\n",
                "import \"github.com/celestiaorg/celestia-app/v10/x/mint/types\"\n"
            ),
            Shape::VersionOnly
        );
        assert_eq!(
            go(
                "go.mod",
                "module github.com/a/b/v9\n",
                "module github.com/a/b/v10\n"
            ),
            Shape::VersionOnly
        );
        // Only in Go, and only a path's major version: an API's is a change.
        assert_eq!(
            go(
                "client.py",
                "URL = \"/api/v1/users\"\n",
                "URL = \"/api/v2/users\"\n"
            ),
            Shape::Other
        );
        assert_eq!(
            go("x/mint/abci.go", "x := \"/vault\"\n", "x := \"/vault2\"\n"),
            Shape::Other
        );
        assert_eq!(
            go(
                "api/routes.go",
                "r.Get(\"/api/v1/users\", h)\n",
                "r.Get(\"/api/v2/users\", h)\n"
            ),
            Shape::Other
        );
        // A short hex word is no digest.
        assert_eq!(s("color = aabbcc\n", "color = ddeeff\n"), Shape::Other);
        assert_eq!(s("timeout = 1.5\n", "timeout = 2.5\n"), Shape::Other);
        assert_eq!(s("a = 1\n", "a = 2\n"), Shape::Other);
        assert_eq!(shape("x", None, Some(b"a")), Shape::Other);
    }
}
