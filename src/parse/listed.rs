//! A folder a record names right before a fenced block listing paths under it, one a line
//! (docs/reading.md, "Named in passing"): "Add under `test/e2e-v2/cases/`:" and then the new
//! cases' files. The folder is where the paths go, not what the decision is about: the listed
//! paths are named (and govern, when they are there), and the folder is named in passing.
//! apache/skywalking's mini-program proposal governed every e2e case of the repository so.

use crate::text::markdown::code_spans;
use crate::text::path::clean_code_path;

/// The phrase a folder named so is passing by.
pub const WHERE: &str = "where the listed paths go";

/// A folder and the paths the block after it lists under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// As the graph meets it: root-relative, without its trailing `/`.
    pub folder: String,
    /// The line naming it (1-based).
    pub line: u32,
    /// The listed paths, as `clean_code_path` gives them.
    pub paths: Vec<String>,
}

/// Each folder written in backticks (with its trailing `/`) on a visible line whose next
/// lines, blank ones aside, open a fenced block whose every line that is not blank starts with
/// a path under that folder (a comment may follow it).
pub fn listed_under(visible: &[(usize, &str)], fenced: &[(usize, &str)]) -> Vec<Listed> {
    let mut out = Vec::new();
    for (at, (i, line)) in visible.iter().enumerate() {
        let folders: Vec<String> = code_spans(line)
            .into_iter()
            .filter(|s| s.trim().ends_with('/'))
            .filter_map(clean_code_path)
            .collect();
        if folders.is_empty() {
            continue;
        }
        // The block opens right after: only blank visible lines between (its fence line is in
        // neither list).
        let next_visible = visible[at + 1..]
            .iter()
            .find(|(_, l)| !l.trim().is_empty())
            .map(|(j, _)| *j);
        let Some(start) = fenced.iter().position(|(j, _)| *j > *i) else {
            continue;
        };
        let first = fenced[start].0;
        if first > i + 3 || next_visible.is_some_and(|j| j < first) {
            continue;
        }
        let block: Vec<&str> = fenced[start..]
            .iter()
            .enumerate()
            .take_while(|(k, (j, _))| *j == first + k)
            .map(|(_, (_, l))| *l)
            .filter(|l| !l.trim().is_empty())
            .collect();
        for folder in folders {
            let under = folder.trim_end_matches('/').to_string() + "/";
            let paths: Option<Vec<String>> = block
                .iter()
                .map(|l| {
                    let token = l.split_whitespace().next()?;
                    (token.starts_with(&under) && token.len() > under.len())
                        .then(|| clean_code_path(token))
                        .flatten()
                })
                .collect();
            if let Some(paths) = paths.filter(|p| !p.is_empty()) {
                out.push(Listed {
                    folder: folder.trim_end_matches('/').to_string(),
                    line: *i as u32 + 1,
                    paths,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    type Lines<'a> = Vec<(usize, &'a str)>;

    fn split(text: &str) -> (Lines<'_>, Lines<'_>) {
        let all: Vec<&str> = text.split('\n').collect();
        (
            crate::text::markdown::visible_lines(&all, 0),
            crate::text::markdown::fenced_lines(&all, 0),
        )
    }

    #[test]
    fn a_folder_before_a_block_listing_paths_under_it() {
        let text = "Add under `tests/cases/`:\n\n```\ntests/cases/mini/a.yaml   # the workload\ntests/cases/mini/expected/\n```\n\nThen register them.";
        let (visible, fenced) = split(text);
        assert_eq!(
            listed_under(&visible, &fenced),
            [Listed {
                folder: "tests/cases".into(),
                line: 1,
                paths: vec![
                    "tests/cases/mini/a.yaml".into(),
                    "tests/cases/mini/expected/".into()
                ],
            }]
        );
    }

    #[test]
    fn not_a_listing() {
        // A block of code, a block with another path, a block after other prose.
        for text in [
            "Add under `tests/cases/`:\n\n```\nrun(tests)\n```",
            "Add under `tests/cases/`:\n\n```\ntests/cases/a.yaml\nsrc/b.rs\n```",
            "Add under `tests/cases/`.\n\nSome prose.\n\n```\ntests/cases/a.yaml\n```",
            "Under `tests/cases` files:\n\n```\ntests/cases/a.yaml\n```",
        ] {
            let (visible, fenced) = split(text);
            assert!(listed_under(&visible, &fenced).is_empty(), "{text}");
        }
    }
}
