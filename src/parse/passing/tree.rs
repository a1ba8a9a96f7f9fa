//! A path listed under a folder in a nested Markdown list (docs/reading.md, "Named in passing"):
//! a tree of folders written as a list, each item's path relative to the item it is nested
//! in. pagopa/io-sign's "Project structure" lists each workspace's layout so:
//!
//! ```text
//! - `src/`
//!   - `app/` - application layer
//!   - `infra/` - infrastructure layer
//! ```
//!
//! and its `infra/` is `src/infra/`, not the repository's top-level `infra/` (its Terraform),
//! which every Terraform commit was warned about. Such a path is its parent's part: the parent
//! governs it when it is there, so the path itself is named in passing at its full path.

use crate::text::markdown::link_target;
use crate::text::path::clean_code_path;
use regex::Regex;
use std::sync::OnceLock;

/// The phrase a path listed so is passing by.
pub const LISTED_UNDER: &str = "listed under";

/// A list item's line: its indentation (a tab counts four) and where its text starts, after the
/// marker (`-`, `*`, `+`, `1.`, `1)`).
fn item(line: &str) -> Option<(usize, usize)> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let lead = &line[..line.len() - trimmed.len()];
    let indent = lead.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum();
    let after = if let Some(rest) = trimmed.strip_prefix(['-', '*', '+']) {
        rest
    } else {
        let digits = trimmed.len()
            - trimmed
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        if digits == 0 || digits > 3 {
            return None;
        }
        trimmed[digits..].strip_prefix(['.', ')'])?
    };
    let text = after.trim_start_matches(' ');
    if text.len() == after.len() {
        return None; // `-x` or `1.5` is no marker
    }
    Some((indent, line.len() - text.len()))
}

/// The path in the code span an item's text starts with, when it is a folder (`` `src/` ``),
/// without its trailing `/`.
fn leading_folder(line: &str, start: usize) -> Option<String> {
    let rest = line[start..].strip_prefix('`')?;
    let span = &rest[..rest.find('`')?];
    if !span.trim_end().ends_with('/') {
        return None;
    }
    clean_code_path(span).map(|p| p.trim_matches('/').to_string())
}

/// The folder the naming at byte `col` of line `row` of `lines` is listed under, as the list
/// composes it (`src/infra` for `infra/` nested in `src/`'s item; `a/b` for three levels): the
/// naming starts its item's text, and the items it is nested in each start with a folder.
/// `None` when it is no such item, or its parent item starts with no folder.
pub fn listed_under(lines: &[(usize, &str)], row: usize, col: usize) -> Option<String> {
    let (mut indent, start) = item(lines[row].1)?;
    if start != col {
        return None;
    }
    let mut folders: Vec<String> = Vec::new();
    for (_, line) in lines[..row].iter().rev() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((at, text)) = item(line) else {
            // A paragraph line at the margin ends the list; an indented one continues an item.
            if !line.starts_with([' ', '\t']) {
                break;
            }
            continue;
        };
        if at >= indent {
            continue;
        }
        match leading_folder(line, text) {
            Some(folder) => folders.push(folder),
            None => break,
        }
        indent = at;
        if at == 0 {
            break;
        }
    }
    if folders.is_empty() {
        return None;
    }
    folders.reverse();
    Some(folders.join("/"))
}

/// The folder a file name written alone at byte `at` of `text` lies in, when it is written
/// inside the parentheses right after that folder, on one line: jaeger's Grafana record says
/// "[`generate/`](../../monitoring/jaeger-mixin/generate/) (a standalone Go module — `main.go`,
/// `go.mod`, `go.sum` — …)", and its `go.mod` is that module's, not the repository's. The
/// folder as a code span is root-relative; as a link, relative to the record's `folder`.
/// Without its trailing `/`.
pub fn in_parentheses_after(text: &str, at: usize, folder: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?:`([^`\n]+/)`|\]\(\s*<?([^)\s>]+/)>?\))\s*$").expect("regex compiles")
    });
    let line = &text[text[..at].rfind('\n').map_or(0, |n| n + 1)..at];
    // The innermost parenthesis still open before the name.
    let mut depth = 0usize;
    let mut open = None;
    for (i, c) in line.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => {
                open = Some(i);
                break;
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    let m = re.captures(&line[..open?])?;
    let path = match (m.get(1), m.get(2)) {
        (Some(span), _) => clean_code_path(span.as_str())?,
        (None, Some(target)) => link_target(folder, target.as_str())?,
        _ => return None,
    };
    let path = path.trim_matches('/');
    (!path.is_empty()).then(|| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> Vec<(usize, &str)> {
        text.lines().enumerate().collect()
    }

    #[test]
    fn a_folder_nested_under_folders_is_their_subfolder() {
        let text = "Folder structure:\n\n- `src/`\n  - `app/` - application layer\n    - `use-cases/`\n  - `infra/` - infrastructure layer\n- `package.json`\n";
        let lines = numbered(text);
        assert_eq!(listed_under(&lines, 2, 2), None, "a top-level item");
        assert_eq!(listed_under(&lines, 3, 4).as_deref(), Some("src"));
        assert_eq!(listed_under(&lines, 4, 6).as_deref(), Some("src/app"));
        assert_eq!(listed_under(&lines, 5, 4).as_deref(), Some("src"));
        assert_eq!(listed_under(&lines, 6, 2), None);
    }

    #[test]
    fn only_a_leading_path_under_a_folder_item() {
        let text = "- Top-level folders:\n  - `apps/` - applications\n- `docs/`\n  - see `guides/` for more\n1. `lib/`\n   1. `core/`\n";
        let lines = numbered(text);
        // Its parent item starts with words, not a folder.
        assert_eq!(listed_under(&lines, 1, 4), None);
        // Not the item's leading code span.
        assert_eq!(listed_under(&lines, 3, 8), None);
        // Numbered lists nest too.
        assert_eq!(listed_under(&lines, 5, 6).as_deref(), Some("lib"));
    }

    #[test]
    fn a_paragraph_at_the_margin_ends_the_list() {
        let text = "- `src/`\n\nThe code:\n\n  - `app/`\n";
        let lines = numbered(text);
        assert_eq!(listed_under(&lines, 4, 4), None);
        // A file under a folder item is listed under it too.
        let text = "- `cmd/`\n  - `main.go`\n";
        assert_eq!(listed_under(&numbered(text), 1, 4).as_deref(), Some("cmd"));
    }

    #[test]
    fn a_name_in_parentheses_after_a_folder_is_in_it() {
        let text = "Holds [`generate/`](../../mixin/generate/) (a module — `main.go`, `go.mod`) and `go.sum`.\nAnd `cmd/` (with `main.go`), (`x.go`) alone, `lib/` then (`y.go`).";
        let at = |name: &str, nth: usize| text.match_indices(name).nth(nth).expect("there").0;
        let under = |name, nth| in_parentheses_after(text, at(name, nth), "docs/adr");
        assert_eq!(under("`go.mod`", 0).as_deref(), Some("mixin/generate"));
        assert_eq!(under("`main.go`", 0).as_deref(), Some("mixin/generate"));
        // After the parentheses close, and on the next line with a code span.
        assert_eq!(under("`go.sum`", 0), None);
        assert_eq!(under("`main.go`", 1).as_deref(), Some("cmd"));
        // Parentheses after no folder, or after words.
        assert_eq!(under("`x.go`", 0), None);
        assert_eq!(under("`y.go`", 0), None);
    }
}
