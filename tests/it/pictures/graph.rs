//! `graph`: JSON `{nodes, edges}`, Mermaid, DOT, and what `--all`, `--focus`, `--depth` and
//! `--governs` show.

use super::{corpus, on_path, TITLE_2};
use crate::env::no_index;
use serde_json::Value;

fn ids(doc: &Value) -> Vec<String> {
    doc["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_string())
        .collect()
}

fn edges(doc: &Value) -> Vec<String> {
    doc["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| format!("{} {} {}", e["from"], e["kind"], e["to"]).replace('"', ""))
        .collect()
}

#[test]
fn json_shows_current_records_and_each_relation_once() {
    let f = corpus();
    let run = f.run_json(&["graph"]);
    run.assert_code(0);
    let doc = run.json();
    assert_eq!(ids(&doc), ["ADR-0002", "ADR-0003", "ADR-0005"]);
    assert_eq!(
        edges(&doc),
        ["ADR-0003 amends ADR-0002", "ADR-0005 cites ADR-0003"]
    );
    let node = &doc["nodes"][0];
    assert_eq!(node["title"], TITLE_2);
    assert_eq!(node["status"], "accepted");
    assert_eq!(node["path"], "docs/adr/0002-redis.md");
    // --format json is --json; and the index changes nothing.
    let plain = f.run_md(&["graph", "--format", "json"]);
    assert_eq!(plain.json(), doc);
    assert_eq!(f.run_json(&no_index(&["graph"])).json(), doc);
}

#[test]
fn all_shows_superseded_and_deprecated_records_and_governs_adds_paths() {
    let f = corpus();
    let doc = f.run_json(&["graph", "--all", "--governs"]).json();
    assert_eq!(
        ids(&doc),
        [
            "ADR-0001",
            "ADR-0002",
            "ADR-0003",
            "ADR-0004",
            "ADR-0005",
            "src/auth/"
        ]
    );
    assert_eq!(
        edges(&doc),
        [
            "ADR-0002 supersedes ADR-0001",
            "ADR-0002 governs src/auth/",
            "ADR-0003 amends ADR-0002",
            "ADR-0005 cites ADR-0003",
            "ADR-0005 cites ADR-0004",
        ]
    );
    let path = doc["nodes"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(path["kind"], "path");
    assert_eq!(path["status"], Value::Null);
}

#[test]
fn focus_keeps_the_neighbourhood_of_a_record_or_of_a_paths_decisions() {
    let f = corpus();
    let focus = |args: &[&str]| {
        let run = f.run_json(&[&["graph", "--focus"], args].concat());
        run.assert_code(0);
        ids(&run.json())
    };
    assert_eq!(focus(&["ADR-3"]), ["ADR-0002", "ADR-0003", "ADR-0005"]);
    assert_eq!(
        focus(&["3", "--depth", "2"]),
        ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"]
    );
    assert_eq!(focus(&["ADR-0004", "--depth", "0"]), ["ADR-0004"]);
    // A path: the decisions governing it (ADR-0002), then their neighbours of any status.
    assert_eq!(
        focus(&["src/auth/login.rs"]),
        ["ADR-0001", "ADR-0002", "ADR-0003"]
    );
    assert_eq!(focus(&["docs/nothing-governs-this"]), Vec::<String>::new());
}

#[test]
fn an_unknown_focus_or_a_path_outside_the_root_is_a_usage_error() {
    let f = corpus();
    let run = f.run_md(&["graph", "--focus", "ADR-0099"]);
    run.assert_usage_error();
    assert!(run.stderr.contains("ADR-0099"), "{}", run.describe());
    f.run_md(&["graph", "--focus", "/"]).assert_usage_error();
    // --depth means nothing without a focus.
    f.run_md(&["graph", "--depth", "2"]).assert_code(2);
}

#[test]
fn mermaid_is_a_fenced_flowchart_with_every_label_escaped() {
    let f = corpus();
    let run = f.run_md(&["graph", "--all", "--governs"]);
    run.assert_code(0);
    let text = run.stdout();
    assert!(text.starts_with("```mermaid\nflowchart LR\n"), "{text}");
    assert!(text.ends_with("```\n"), "{text}");
    for raw in ["<Redis>", "\"friends\""] {
        assert!(!text.contains(raw), "{raw} unescaped in:\n{text}");
    }
    assert!(
        text.contains(
            "&lt;Redis&gt; &amp; &quot;friends&quot; &lbrace;&lbrace;graph&rbrace;&rbrace;"
        ),
        "{text}"
    );
    // Every node defined once, every edge style its own.
    assert_eq!(text.matches("[\"ADR-").count(), 5, "{text}");
    for arrow in [
        "==>|supersedes|",
        "-.->|amends|",
        "-->|cites|",
        "--o|governs|",
    ] {
        assert!(text.contains(arrow), "{arrow} missing:\n{text}");
    }
}

/// Titles written to take over the picture: a Mermaid directive, a label closed early with a
/// statement after it, a Markdown string, and a DOT string closed early (issue 38, ADR-0015).
const HOSTILE_TITLES: [&str; 4] = [
    "%%{init: {'theme':'dark'}}%%",
    "\"]; n0-->n1; %% click n0 call alert(1)",
    "`**bold**` {{x}} #35; & <b>",
    "\"]; evil -> x; // \\\"",
];

/// The corpus with one record a hostile title each, `ADR-0006` on.
fn hostile_corpus() -> crate::fixture::Fixture {
    let f = corpus();
    for (i, title) in HOSTILE_TITLES.iter().enumerate() {
        let n = 6 + i as u32;
        f.write(
            &format!("docs/adr/{n:04}-hostile.md"),
            crate::fixture::adr(n, title, "Accepted", None, "Cites ADR-0002.").as_bytes(),
        );
    }
    f
}

#[test]
fn no_title_can_add_a_directive_or_a_statement_to_the_mermaid() {
    let f = hostile_corpus();
    let run = f.run_md(&["graph", "--all", "--governs"]);
    run.assert_code(0);
    let text = run.stdout();
    let labels: Vec<&str> = text.lines().filter(|l| l.starts_with("  n")).collect();
    for raw in ["%%", "{", "}", "'", "`", "-->n1;", "<b>"] {
        assert!(
            labels.iter().all(|l| !l.contains(raw)),
            "{raw} unescaped in:\n{text}"
        );
    }
    // Every line is one the renderer writes: the fence, the header, a node, an edge between
    // nodes it defined, a class.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["```mermaid", "flowchart LR"]);
    assert_eq!(lines.last(), Some(&"```"));
    let nodes = lines
        .iter()
        .filter(|l| l.starts_with("  n") && (l.ends_with("\"]") || l.ends_with("\")]")))
        .count();
    assert_eq!(nodes, 9 + 1, "nine records and a path:\n{text}");
    for line in &lines[2..lines.len() - 1] {
        let t = line.trim_start();
        let node = t.starts_with('n') && (t.ends_with("\"]") || t.ends_with("\")]"));
        let edge = t.split(' ').count() == 3 && t.starts_with('n');
        let class = t.starts_with("classDef ") || t.starts_with("class ");
        assert!(
            node || edge || class,
            "a line no renderer writes: {line}\n{text}"
        );
        if node {
            let inner = &t[t.find('"').unwrap() + 1..t.rfind('"').unwrap()];
            assert!(!inner.contains('"'), "{line}");
        }
    }
    assert!(
        text.contains("&percnt;&percnt;&lbrace;init: &lbrace;&apos;theme&apos;:&apos;dark&apos;&rbrace;&rbrace;&percnt;&percnt;"),
        "{text}"
    );
}

#[test]
fn no_title_can_add_a_statement_to_the_dot() {
    let f = hostile_corpus();
    let run = f.run_md(&["graph", "--format", "dot", "--all", "--governs"]);
    run.assert_code(0);
    let text = run.stdout();
    // A statement with each string literal written `S` (its escaped `\\` and `\"` read as
    // Graphviz reads them): what is left is the renderer's own, whatever the titles say.
    let shape = |line: &str| {
        let plain = line.replace("\\\\", "").replace("\\\"", "");
        let mut out = String::new();
        let mut inside = false;
        for c in plain.chars() {
            if c == '"' {
                if !inside {
                    out.push('S');
                }
                inside = !inside;
            } else if !inside {
                out.push(c);
            }
        }
        out
    };
    let statements: Vec<String> = text
        .lines()
        .filter(|l| l.contains("label="))
        .map(shape)
        .collect();
    let nodes = statements.iter().filter(|s| {
        ["box", "folder"]
            .iter()
            .any(|k| **s == format!("  S [label=S, shape={k}, fillcolor=S, color=S, tooltip=S];"))
    });
    assert_eq!(nodes.count(), 10, "nine records and a path:\n{text}");
    for s in &statements {
        let edge = [
            "style=bold",
            "style=dashed",
            "style=dotted",
            "color=S, arrowhead=odot",
        ]
        .iter()
        .any(|style| *s == format!("  S -> S [label=S, {style}];"));
        let node = s.starts_with("  S [label=S, shape=");
        assert!(edge || node, "a statement no renderer writes: {s}\n{text}");
    }
}

#[test]
fn dot_is_laid_out_by_graphviz_without_a_warning() {
    let f = corpus();
    let run = f.run_md(&["graph", "--format", "dot", "--all", "--governs"]);
    run.assert_code(0);
    let text = run.stdout();
    assert!(text.starts_with("digraph decisions {\n"), "{text}");
    assert!(text.contains("\"ADR-0002\" -> \"ADR-0001\" [label=\"supersedes\", style=bold];"));
    assert!(text.contains(r#"\"friends\""#), "{text}");
    let Some(dot) = on_path(&["dot"]) else {
        crate::skip::skipped("Graphviz's `dot` is not on PATH (apt-get install graphviz)");
        return;
    };
    let file = f.env.path().join("graph.dot");
    std::fs::write(&file, &text).expect("write the DOT");
    let out = f
        .command(dot)
        .args(["-Tsvg", "-o"])
        .arg(f.env.path().join("graph.svg"))
        .arg(&file)
        .output()
        .expect("run dot");
    assert!(out.status.success(), "dot failed: {out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "dot warned");
    let svg = std::fs::read_to_string(f.env.path().join("graph.svg"))
        .expect("read the SVG")
        .replace("&#45;", "-");
    for id in [
        "ADR-0001",
        "ADR-0002",
        "ADR-0003",
        "ADR-0004",
        "ADR-0005",
        "src/auth/",
    ] {
        assert!(svg.contains(id), "{id} not drawn");
    }
    assert!(
        svg.contains("&lt;Redis&gt;"),
        "the title as text in the SVG"
    );
}

/// Mermaid's own bundle (`mermaid.min.js` of the npm package `mermaid`, version 11): `MERMAID_JS`,
/// else where `.ci/run` unpacks it.
fn mermaid_js() -> Option<std::path::PathBuf> {
    std::env::var_os("MERMAID_JS")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            let home = std::env::var_os("HOME")?;
            Some(
                std::path::PathBuf::from(home)
                    .join(".cache/context-graph-ci/mermaid/package/dist/mermaid.min.js"),
            )
        })
        .filter(|p| p.is_file())
}

#[test]
fn mermaid_renders_the_graph_as_printed_with_each_title_as_written() {
    let (Some(browser), Some(js)) = (super::report::chromium(), mermaid_js()) else {
        crate::skip::skipped("needs chromium and Mermaid's bundle (npm pack mermaid@11 into ~/.cache/context-graph-ci/mermaid, or set MERMAID_JS)");
        return;
    };
    let f = corpus();
    f.write(
        "docs/adr/0006-hash.md",
        crate::fixture::adr(
            6,
            "Issue #12; #quot; & <b>not bold</b>",
            "Accepted",
            None,
            "Cites ADR-0002.",
        )
        .as_bytes(),
    );
    let run = f.run_md(&["graph", "--all", "--governs"]);
    run.assert_code(0);
    let text = run.stdout();
    let body = text
        .strip_prefix("```mermaid\n")
        .and_then(|t| t.strip_suffix("```\n"))
        .expect("a fenced block");
    // A page rendering the block with Mermaid (strict security, as GitHub uses), recording
    // success or the error, and the text of every node label.
    let page = format!(
        "<!DOCTYPE html><html><body><div id=\"out\"></div><script src=\"file://{}\"></script><script>\
         mermaid.initialize({{startOnLoad:false, securityLevel:'strict'}});\
         mermaid.render('g', {}).then(function(r){{var o=document.getElementById('out');o.innerHTML=r.svg;\
         var t=[].map.call(o.querySelectorAll('.nodeLabel'),function(e){{return e.textContent}});\
         document.body.setAttribute('data-labels',JSON.stringify(t));document.body.setAttribute('data-result','ok')}},\
         function(e){{document.body.setAttribute('data-result','error: '+String(e&&e.message||e))}});</script></body></html>",
        js.display(),
        serde_json::to_string(body).expect("a JSON string")
    );
    let file = f.env.path().join("mermaid.html");
    std::fs::write(&file, page).expect("write the page");
    let dom = super::report::browse(
        &f,
        &browser,
        &file,
        &["--virtual-time-budget=10000".into(), "--dump-dom".into()],
    );
    assert!(
        dom.stdout.contains("data-result=\"ok\""),
        "Mermaid did not render it:\n{text}\n{}",
        dom.stdout
    );
    let labels = dom
        .stdout
        .split("data-labels=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the labels")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let labels: Vec<String> = serde_json::from_str(&labels).expect("labels as JSON");
    for want in [
        format!("ADR-0002: {TITLE_2}"),
        "ADR-0006: Issue #12; #quot; & <b>not bold</b>".to_string(),
        "src/auth/".to_string(),
    ] {
        assert!(labels.contains(&want), "{want:?} not among {labels:#?}");
    }
}
