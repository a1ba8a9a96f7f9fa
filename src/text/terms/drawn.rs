//! Names a diagram draws (ADR-0017): a Mermaid or PlantUML block in a record is no example
//! but the record's picture of the system, and a box or participant labelled with a
//! compound name (`D[ProcessingPipeline]`, `participant Cache as MemoryStore`) names that
//! piece of code as the prose would.

use super::{Kind, Term};
use regex::Regex;
use std::sync::OnceLock;

/// The compound names (CamelCase, two capitals or more) the diagrams among `fenced` (the
/// lines of fenced blocks: block, line number, info string, line; as
/// `text::markdown::fenced_blocks` gives them) label their boxes and participants with, each a
/// [`Kind::Identifier`] at its first line.
pub fn drawn(fenced: &[(usize, usize, &str, &str)]) -> Vec<Term> {
    static LABEL: OnceLock<Regex> = OnceLock::new();
    let label = LABEL.get_or_init(|| {
        Regex::new(
            r#"(?:[\[({>]+"?([A-Za-z][A-Za-z0-9_]*)"?[\])}]+)|(?:^\s*(?:participant|actor|component|class|node)\s+(?:"[^"]*"|\S+)\s+as\s+"?([A-Za-z][A-Za-z0-9_]*)"?\s*$)|(?:^\s*(?:participant|component|class)\s+"?([A-Za-z][A-Za-z0-9_]*)"?\s*$)"#,
        )
        .expect("regex")
    });
    // The blocks that are diagrams: by their info string, or PlantUML's own first line.
    let mut diagrams: Vec<usize> = Vec::new();
    for (at, &(block, _, info, line)) in fenced.iter().enumerate() {
        let first = at == 0 || fenced[at - 1].0 != block;
        let info = info.to_ascii_lowercase();
        let diagram = ["mermaid", "plantuml", "puml"]
            .iter()
            .any(|d| info.starts_with(d))
            || first && info.is_empty() && line.trim_start().starts_with("@startuml");
        if diagram && diagrams.last() != Some(&block) {
            diagrams.push(block);
        }
    }
    let mut out: Vec<Term> = Vec::new();
    for &(block, i, _, line) in fenced {
        if !diagrams.contains(&block) {
            continue;
        }
        for caps in label.captures_iter(line) {
            let Some(name) = caps.get(1).or(caps.get(2)).or(caps.get(3)) else {
                continue;
            };
            let name = name.as_str();
            if compound(name) && !out.iter().any(|k| k.text == name) {
                out.push(Term {
                    text: name.to_string(),
                    line: i as u32 + 1,
                    kind: Kind::Identifier,
                    nouns: Vec::new(),
                    coded: 0,
                });
            }
        }
    }
    out
}

/// A compound name: a capital first, two capitals or more each followed by a lower-case
/// letter (`ProcessingPipeline`, `MemoryStore`; not `BFF`, `K8s`, `Postgres`).
fn compound(name: &str) -> bool {
    let b = name.as_bytes();
    let humps = b
        .windows(2)
        .filter(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_lowercase())
        .count();
    name.len() >= 6 && b[0].is_ascii_uppercase() && humps >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_names_the_code_its_boxes_are_labelled_with() {
        let text = "# 4. Dataflow\n\n```mermaid\ngraph\n    A[Command Line]--1-->B[Main]\n    B --> D[ProcessingPipeline]\n    D --> E[(FileSystem)]\n```\n\n```mermaid\nsequenceDiagram\n    participant Cache as MemoryStore\n    participant BFF as BFF API\n```\n\n```text\nX[NotADiagram]\n```\n";
        let lines: Vec<&str> = text.lines().collect();
        let fenced = crate::text::markdown::fenced_blocks(&lines, 0);
        let got: Vec<(String, u32)> = drawn(&fenced)
            .into_iter()
            .map(|t| (t.text, t.line))
            .collect();
        assert_eq!(
            got,
            vec![
                ("ProcessingPipeline".to_string(), 6),
                ("FileSystem".to_string(), 7),
                ("MemoryStore".to_string(), 12),
            ]
        );
    }
}
