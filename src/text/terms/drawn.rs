//! Names a diagram draws (ADR-0017): a Mermaid or PlantUML block in a record is no example
//! but the record's picture of the system, and a box or participant labelled with a
//! compound name (`D[ProcessingPipeline]`, `participant Cache as MemoryStore`) names that
//! piece of code as the prose would.

use super::{Kind, Term};
use regex::Regex;
use std::sync::OnceLock;

/// The compound names (CamelCase, two capitals or more) the diagrams among `all` (from line
/// `start`) label their boxes and participants with, each a [`Kind::Identifier`] at its first
/// line.
pub fn drawn(all: &[&str], start: usize) -> Vec<Term> {
    static LABEL: OnceLock<Regex> = OnceLock::new();
    let label = LABEL.get_or_init(|| {
        Regex::new(
            r#"(?:[\[({>]+"?([A-Za-z][A-Za-z0-9_]*)"?[\])}]+)|(?:^\s*(?:participant|actor|component|class|node)\s+(?:"[^"]*"|\S+)\s+as\s+"?([A-Za-z][A-Za-z0-9_]*)"?\s*$)|(?:^\s*(?:participant|component|class)\s+"?([A-Za-z][A-Za-z0-9_]*)"?\s*$)"#,
        )
        .expect("regex")
    });
    let mut out: Vec<Term> = Vec::new();
    let mut fence: Option<(char, usize, bool)> = None;
    for (i, line) in all.iter().enumerate().skip(start) {
        let t = line.trim_start();
        let run = |c: char| t.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n, diagram)) => {
                if run(c) >= n && t.trim_start_matches(c).trim().is_empty() {
                    fence = None;
                    continue;
                }
                if !diagram {
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
            None => {
                let (b, tl) = (run('`'), run('~'));
                let (c, n) = if b >= 3 { ('`', b) } else { ('~', tl) };
                if n >= 3 {
                    let info = t.trim_start_matches(c).trim().to_ascii_lowercase();
                    let diagram = ["mermaid", "plantuml", "puml"]
                        .iter()
                        .any(|d| info.starts_with(d))
                        || info.is_empty()
                            && all
                                .get(i + 1)
                                .is_some_and(|l| l.trim_start().starts_with("@startuml"));
                    fence = Some((c, n, diagram));
                }
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
        let got: Vec<(String, u32)> = drawn(&lines, 0)
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
