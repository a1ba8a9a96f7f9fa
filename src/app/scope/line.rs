//! The `Governs:` line `scope --add` writes in a record without frontmatter scope (ADR-0017,
//! docs/mentions.md): the one line of backticked paths in its header, extended; else a new one
//! under its `Key: value` lines, under its status table, or under its title.

use crate::model::ScopeHunk as Hunk;
use crate::text::path::escape_code_path;

/// Whether a header line is `Key: value` (`Status: Accepted`, `- **Date**: …`): its list marker.
fn header_key(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let (marker, rest) = match t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        Some(r) => (&t[..2], r),
        None => ("", t),
    };
    let (key, _) = rest.split_once(':')?;
    let key = key.trim().trim_matches('*').trim();
    (!key.is_empty() && key.len() <= 30 && key.chars().all(|c| c.is_alphabetic() || c == ' '))
        .then_some(marker)
}

/// Whether a `Governs:` line holds code spans alone after its key (`Governs: `a/`, `b.rs``).
fn only_code_spans(line: &str) -> bool {
    let Some((_, rest)) = line.split_once(':') else {
        return false;
    };
    let rest = rest.trim().trim_start_matches('*').trim();
    let mut spans = 0;
    for part in rest.split(", ") {
        let part = part.trim();
        let inner = part.strip_prefix('`').and_then(|p| p.strip_suffix('`'));
        match inner {
            Some(i) if !i.is_empty() && !i.contains('`') => spans += 1,
            _ => return false,
        }
    }
    spans > 0
}

/// A `Governs:` line of backticked paths in the record's header: its last `Governs:` line
/// extended, else after its header's `Key: value` lines, else after its title.
pub(super) fn governs_line(lines: &[String], paths: &[String]) -> Hunk {
    let list: Vec<String> = paths
        .iter()
        .map(|p| format!("`{}`", escape_code_path(p)))
        .collect();
    let list = list.join(", ");
    let body = match lines.first().map(|l| l.trim_end()) {
        Some("---") => lines
            .iter()
            .skip(1)
            .position(|l| matches!(l.trim_end(), "---" | "..."))
            .map_or(0, |i| i + 2),
        _ => 0,
    };
    let title = lines
        .iter()
        .skip(body)
        .position(|l| l.starts_with("# "))
        .map(|i| i + body);
    let mut governs = lines.iter().enumerate().skip(body).filter(|(_, l)| {
        header_key(l).is_some()
            && l.trim_start()
                .trim_start_matches(['-', '*', ' '])
                .trim_start_matches('*')
                .to_ascii_lowercase()
                .starts_with("governs")
    });
    if let Some((i, l)) = governs.next_back() {
        // A line of backticked paths gains them: one `Governs:` line, however often paths are
        // added (issue 39); a line with more than paths on it is followed by another.
        if only_code_spans(l) {
            return Hunk {
                at: i + 1,
                old: vec![l.clone()],
                new: vec![format!("{}, {list}", l.trim_end())],
            };
        }
        let marker = header_key(l).unwrap_or("");
        return Hunk {
            at: i + 2,
            old: Vec::new(),
            new: vec![format!("{marker}Governs: {list}")],
        };
    }
    let start = title.map_or(body, |t| t + 1);
    let mut last_key = None;
    let mut table_end = None;
    for (i, l) in lines.iter().enumerate().skip(start) {
        if l.trim().is_empty() {
            continue;
        }
        if l.starts_with('#') {
            break;
        }
        // A status table heads the record (DependencyTrack's): the line goes under it.
        if l.trim_start().starts_with('|') && last_key.is_none() {
            table_end = Some(i);
            continue;
        }
        match header_key(l) {
            Some(marker) => last_key = Some((i, marker)),
            None => break,
        }
    }
    match (last_key, table_end) {
        (Some((i, marker)), _) => Hunk {
            at: i + 2,
            old: Vec::new(),
            new: vec![format!("{marker}Governs: {list}")],
        },
        (None, Some(t)) => Hunk {
            at: t + 2,
            old: Vec::new(),
            new: vec![String::new(), format!("Governs: {list}")],
        },
        (None, None) => {
            // After the title (and the blank line under it), a paragraph of its own.
            let at = match title {
                Some(t) if lines.get(t + 1).is_some_and(|l| l.trim().is_empty()) => t + 2,
                Some(t) => t + 1,
                None => body,
            };
            let mut new = Vec::new();
            if at > 0 && !lines[at - 1].trim().is_empty() {
                new.push(String::new());
            }
            new.push(format!("Governs: {list}"));
            new.push(String::new());
            Hunk {
                at: at + 1,
                old: Vec::new(),
                new,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::added;
    use super::super::Form;

    #[test]
    fn a_governs_line_goes_under_the_header_keeping_crlf() {
        let (t, f) = added(
            "# 1. T\r\n\r\nStatus: Accepted\r\nDate: 2024-01-01\r\n\r\n## Context\r\n",
            &["app/x.rb", "lib/y/"],
        );
        assert_eq!(
            t,
            "# 1. T\r\n\r\nStatus: Accepted\r\nDate: 2024-01-01\r\nGoverns: `app/x.rb`, `lib/y/`\r\n\r\n## Context\r\n"
        );
        assert_eq!(f, Form::GovernsLine);
        let (t, _) = added("# 1. T\n\n## Status\n\nAccepted\n", &["a.go"]);
        assert_eq!(t, "# 1. T\n\nGoverns: `a.go`\n\n## Status\n\nAccepted\n");
        let (t, _) = added("# T\n\nGoverns: `a/`\n\nText", &["b/"]);
        assert_eq!(t, "# T\n\nGoverns: `a/`, `b/`\n\nText");
        // More than paths on the line: another line under it.
        let (t, _) = added("# T\n\nGoverns: `a/` (the API)\n", &["b/"]);
        assert_eq!(t, "# T\n\nGoverns: `a/` (the API)\nGoverns: `b/`\n");
    }

    #[test]
    fn under_a_status_table_and_never_a_second_line() {
        let table = "| Status   | Date       |\n|:---------|:-----------|\n| Accepted | 2025-01-07 |\n\n## Context\n";
        let (t, _) = added(table, &["src/a/"]);
        assert_eq!(
            t,
            table.replace("|\n\n## Context", "|\n\nGoverns: `src/a/`\n\n## Context")
        );
        let (t2, _) = added(&t, &["src/b.rs"]);
        assert_eq!(t2, t.replace("`src/a/`", "`src/a/`, `src/b.rs`"));
    }
}
