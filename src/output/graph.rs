//! `graph`'s formats: Mermaid (a fenced block GitHub renders as printed), Graphviz DOT, and
//! the JSON `{nodes, edges}` (docs/pictures.md; ADR-0015). One palette for every picture,
//! `report --html` included.

use crate::model::{EdgeKind, Graph, Node, NodeKind, Status};
use std::fmt::Write as _;

/// A status's fill and border colour.
pub fn colours(status: Option<Status>) -> (&'static str, &'static str) {
    match status {
        Some(Status::Accepted | Status::Implemented) => ("#d9f2dd", "#2e7d32"),
        Some(Status::Proposed) => ("#fff4cc", "#a07800"),
        Some(Status::Superseded) => ("#e6e6e6", "#757575"),
        Some(Status::Deprecated) => ("#eee3d6", "#8d6e63"),
        Some(Status::Rejected) => ("#fbe0e0", "#c62828"),
        Some(Status::Unknown | Status::Unrecognised) => ("#ffffff", "#5c6bc0"),
        None => ("#e8f1fb", "#1565c0"),
    }
}

/// The class (Mermaid) or status word (DOT legend) of a node.
fn class(node: &Node) -> &'static str {
    match node.status {
        Some(s) => s.as_str(),
        None => "governed",
    }
}

/// A label's text on one line: control characters escaped as `output::escape` does.
fn one_line(text: &str) -> String {
    super::escape(text)
}

/// The node's label: the id and title of a record, the path of a path.
fn label(node: &Node) -> String {
    match node.kind {
        NodeKind::Record if !node.title.is_empty() => format!("{}: {}", node.id, node.title),
        _ => node.id.clone(),
    }
}

/// A label's text for a quoted Mermaid label, on one line: `"`, `<`, `>` and `&` as HTML
/// entities (a raw `<b>` would be read as markup, `"` would end the label), `#` as `&num;`
/// (Mermaid reads `#name;` as its own entity), and what Mermaid reads before it parses the
/// diagram, wherever it stands, as named entities too: `%` (a `%%{init: …}%%` directive
/// rewrites the whole diagram), `{`, `}`, `'`, `;` and `` ` `` (a label in backticks is
/// Markdown). A title can never change the diagram (ADR-0015); named entities, not numeric
/// ones, which Mermaid would read as its own `#35;` codes. Tested by rendering with Mermaid
/// itself in a browser (`tests/it/pictures/graph.rs`).
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '#' => out.push_str("&num;"),
            '%' => out.push_str("&percnt;"),
            '{' => out.push_str("&lbrace;"),
            '}' => out.push_str("&rbrace;"),
            '\'' => out.push_str("&apos;"),
            ';' => out.push_str("&semi;"),
            '`' => out.push_str("&grave;"),
            c => out.push(c),
        }
    }
    out
}

/// A fenced `mermaid` block: a left-to-right flowchart, nodes coloured by status, edges
/// `supersedes` thick, `amends` dashed, `cites` plain, `governs` with a circle end.
pub fn mermaid(graph: &Graph) -> String {
    let mut out = String::from("```mermaid\nflowchart LR\n");
    let index = |id: &str| graph.nodes.iter().position(|n| n.id == id);
    for (i, n) in graph.nodes.iter().enumerate() {
        let text = mermaid_text(&label(n));
        match n.kind {
            NodeKind::Record => writeln!(out, "  n{i}[\"{text}\"]"),
            NodeKind::Path => writeln!(out, "  n{i}[(\"{text}\")]"),
        }
        .expect("writing to a String");
    }
    for e in &graph.edges {
        let (Some(a), Some(b)) = (index(&e.from), index(&e.to)) else {
            continue;
        };
        let arrow = match e.kind {
            EdgeKind::Supersedes => "==>",
            EdgeKind::Amends => "-.->",
            EdgeKind::Cites => "-->",
            EdgeKind::Governs => "--o",
        };
        writeln!(out, "  n{a} {arrow}|{}| n{b}", e.kind.as_str()).expect("writing to a String");
    }
    let mut classes: Vec<(&str, Vec<usize>, Option<Status>)> = Vec::new();
    for (i, n) in graph.nodes.iter().enumerate() {
        match classes.iter_mut().find(|(c, _, _)| *c == class(n)) {
            Some((_, members, _)) => members.push(i),
            None => classes.push((class(n), vec![i], n.status)),
        }
    }
    for (name, members, status) in classes {
        let (fill, stroke) = colours(status);
        let members: Vec<String> = members.iter().map(|i| format!("n{i}")).collect();
        writeln!(
            out,
            "  classDef {name} fill:{fill},stroke:{stroke},color:#1a1a1a"
        )
        .expect("writing to a String");
        writeln!(out, "  class {} {name}", members.join(",")).expect("writing to a String");
    }
    out.push_str("```\n");
    out
}

/// A DOT string literal: `"` and `\` escaped, control characters as `output::escape` writes
/// them (their backslash escaped in turn, so Graphviz prints them and reads no escape).
fn dot_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in one_line(text).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Graphviz digraph: records as rounded boxes filled by status, paths as folders; edges
/// `supersedes` bold, `amends` dashed, `cites` dotted, `governs` grey.
pub fn dot(graph: &Graph) -> String {
    let mut out = String::from(
        "digraph decisions {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    for n in &graph.nodes {
        let (fill, stroke) = colours(n.status);
        let shape = match n.kind {
            NodeKind::Record => "box",
            NodeKind::Path => "folder",
        };
        writeln!(
            out,
            "  {} [label={}, shape={shape}, fillcolor=\"{fill}\", color=\"{stroke}\", tooltip={}];",
            dot_string(&n.id),
            dot_string(&label(n)),
            dot_string(&format!("{} ({})", n.path, class(n)))
        )
        .expect("writing to a String");
    }
    for e in &graph.edges {
        let style = match e.kind {
            EdgeKind::Supersedes => "style=bold",
            EdgeKind::Amends => "style=dashed",
            EdgeKind::Cites => "style=dotted",
            EdgeKind::Governs => "color=\"#90a4ae\", arrowhead=odot",
        };
        writeln!(
            out,
            "  {} -> {} [label=\"{}\", {style}];",
            dot_string(&e.from),
            dot_string(&e.to),
            e.kind.as_str()
        )
        .expect("writing to a String");
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Edge;

    fn graph() -> Graph {
        Graph {
            nodes: vec![
                Node {
                    id: "ADR-0001".into(),
                    title: "Use \"quotes\" <b>; [x] {y} | z \\ #1\n".into(),
                    status: Some(Status::Superseded),
                    path: "docs/adr/0001.md".into(),
                    kind: NodeKind::Record,
                },
                Node {
                    id: "ADR-0002".into(),
                    title: "Plain".into(),
                    status: Some(Status::Accepted),
                    path: "docs/adr/0002.md".into(),
                    kind: NodeKind::Record,
                },
                Node {
                    id: "src/a/".into(),
                    title: "src/a/".into(),
                    status: None,
                    path: "src/a/".into(),
                    kind: NodeKind::Path,
                },
            ],
            edges: vec![
                Edge {
                    from: "ADR-0002".into(),
                    to: "ADR-0001".into(),
                    kind: EdgeKind::Supersedes,
                },
                Edge {
                    from: "ADR-0002".into(),
                    to: "src/a/".into(),
                    kind: EdgeKind::Governs,
                },
            ],
        }
    }

    #[test]
    fn mermaid_labels_hold_no_character_that_ends_them() {
        let m = mermaid(&graph());
        let line = m.lines().find(|l| l.contains("n0[")).expect("node 0");
        let inner = &line[line.find("[\"").unwrap() + 2..line.rfind("\"]").unwrap()];
        for c in ['"', '<', '>', '\n'] {
            assert!(!inner.contains(c), "{c:?} in {inner}");
        }
        assert_eq!(
            inner,
            "ADR-0001: Use &quot;quotes&quot; &lt;b&gt;&semi; [x] &lbrace;y&rbrace; | z \\ &num;1\\n"
        );
        assert!(m.starts_with("```mermaid\nflowchart LR\n") && m.ends_with("```\n"));
        assert!(m.contains("  n1 ==>|supersedes| n0\n"), "{m}");
        assert!(m.contains("  n1 --o|governs| n2\n"), "{m}");
        assert!(m.contains("class n1 accepted"), "{m}");
    }

    #[test]
    fn dot_strings_escape_quotes_and_backslashes() {
        let d = dot(&graph());
        assert!(
            d.contains(r#"label="ADR-0001: Use \"quotes\" <b>; [x] {y} | z \\ #1\\n""#),
            "{d}"
        );
        assert!(d.contains(r#""ADR-0002" -> "ADR-0001" [label="supersedes", style=bold];"#));
        assert!(d.contains("shape=folder"), "{d}");
    }
}
