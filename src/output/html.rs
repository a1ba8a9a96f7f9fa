//! `report --html`: one self-contained page (no network, no external file, readable without
//! JavaScript): the graph as inline SVG laid out by `layout`, the records table and the
//! findings grouped by code (docs/pictures.md; ADR-0015). The page, its style and its filtering
//! script are files under `templates/`, built into the binary as the hook scripts are.

use super::graph::colours;
use super::layout::{self, Layout, NODE_H, NODE_W};
use crate::model::{EdgeKind, FindingCode, Graph, NodeKind, Report, Severity, Status};
use std::fmt::Write;

const PAGE: &str = include_str!("../../templates/report.html");
const CSS: &str = include_str!("../../templates/report.css");
const JS: &str = include_str!("../../templates/report.js");

/// Text for HTML (element content and quoted attribute values alike): control characters
/// escaped as `output::escape` writes them, then `&`, `<`, `>`, `"` and `'`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in super::escape(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `id` attribute of a record's row: letters, digits, `-` and `_` kept, anything else
/// written as `_` and its code, so no id can break out of the attribute or collide with
/// another's.
pub fn anchor(id: &str) -> String {
    let mut out = String::from("rec-");
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            let _ = write!(out, "_{:x}_", c as u32);
        }
    }
    out
}

/// The page for a full check's report and its picture (every record, `--all`).
pub fn report(report: &Report, graph: &Graph) -> String {
    let root_name = report
        .root
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let title = format!("Decisions of {root_name}");
    fill(
        PAGE,
        &[
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("title", escape(&title)),
            ("css", CSS.to_string()),
            ("js", JS.to_string()),
            ("summary", summary(report, graph)),
            ("legend", legend()),
            ("graph", svg(graph, &layout::layered(graph))),
            ("records", records(report)),
            ("findings", findings(report)),
        ],
    )
}

/// The template with each `{{name}}` replaced, in one pass: a value is never read again for
/// placeholders, so a title holding `{{graph}}` stays text.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let size = template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>();
    let mut out = String::with_capacity(size);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| {
            let name = &after[..end];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (v, end))
        }) {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn summary(report: &Report, graph: &Graph) -> String {
    let current = report
        .records
        .iter()
        .filter(|r| r.status.is_current())
        .count();
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let (problems, warnings) = (count(Severity::Problem), count(Severity::Warning));
    let relations = graph
        .edges
        .iter()
        .filter(|e| e.kind != EdgeKind::Governs)
        .count();
    let mut out = String::from("<ul class=\"summary\">\n");
    let _ = writeln!(out, "<li>{} records</li>", report.records.len());
    let _ = writeln!(out, "<li>{current} current</li>");
    let _ = writeln!(out, "<li>{relations} relations</li>");
    let class = if problems > 0 {
        " class=\"problems\""
    } else {
        ""
    };
    let _ = writeln!(out, "<li{class}>{problems} problems</li>");
    let _ = writeln!(out, "<li>{warnings} warnings</li>");
    out.push_str("</ul>\n");
    out
}

const STATUSES: [Status; 7] = [
    Status::Accepted,
    Status::Proposed,
    Status::Superseded,
    Status::Deprecated,
    Status::Rejected,
    Status::Unknown,
    Status::Unrecognised,
];

fn legend() -> String {
    let mut out = String::from("<ul class=\"legend\">\n");
    for s in STATUSES {
        let (fill, stroke) = colours(Some(s));
        let _ = writeln!(
            out,
            "<li><span class=\"swatch\" style=\"background:{fill};border-color:{stroke}\"></span>{}</li>",
            s.as_str()
        );
    }
    for k in [EdgeKind::Supersedes, EdgeKind::Amends, EdgeKind::Cites] {
        let _ = writeln!(
            out,
            "<li><span class=\"line {0}\"></span>{0}</li>",
            k.as_str()
        );
    }
    out.push_str("</ul>\n");
    out
}

/// A title cut to fit a box: at most `max` characters, an ellipsis when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

fn svg(graph: &Graph, at: &Layout) -> String {
    let mut out = String::with_capacity(graph.nodes.len() * 420 + graph.edges.len() * 160 + 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-labelledby=\"graph-title\">",
        w = at.width,
        h = at.height
    );
    let _ = writeln!(
        out,
        "<title id=\"graph-title\">{} records and {} relations</title>",
        graph.nodes.len(),
        graph.edges.len()
    );
    out.push_str("<defs>");
    for k in [EdgeKind::Supersedes, EdgeKind::Amends, EdgeKind::Cites] {
        let _ = write!(
            out,
            "<marker id=\"arrow-{}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#455a64\"/></marker>",
            k.as_str()
        );
    }
    out.push_str("</defs>\n<g class=\"edges\">\n");
    let index: std::collections::HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    for e in &graph.edges {
        let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
            continue;
        };
        let ((ax, ay), (bx, by)) = (at.at[a], at.at[b]);
        let (x1, x2) = (ax + NODE_W / 2.0, bx + NODE_W / 2.0);
        let (y1, y2, bend) = if ay > by {
            (ay, by + NODE_H, (ay + by + NODE_H) / 2.0)
        } else if ay < by {
            (ay + NODE_H, by, (ay + NODE_H + by) / 2.0)
        } else {
            (ay, by, ay - layout::GAP_Y / 2.0)
        };
        let _ = writeln!(
            out,
            "<path class=\"edge {k}\" d=\"M{x1:.1},{y1:.1} C{x1:.1},{bend:.1} {x2:.1},{bend:.1} {x2:.1},{y2:.1}\" marker-end=\"url(#arrow-{k})\"><title>{} {k} {}</title></path>",
            escape(&e.from),
            escape(&e.to),
            k = e.kind.as_str()
        );
    }
    out.push_str("</g>\n<g class=\"nodes\">\n");
    if let Some(top) = at.unrelated_top {
        let _ = writeln!(
            out,
            "<text class=\"caption\" x=\"{:.0}\" y=\"{:.0}\">Records with no relation to another</text>",
            layout::MARGIN,
            top + 12.0
        );
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        if n.kind != NodeKind::Record {
            continue;
        }
        let (x, y) = at.at[i];
        let (fill, stroke) = colours(n.status);
        let status = n.status.map(Status::as_str).unwrap_or_default();
        let _ = writeln!(
            out,
            "<a class=\"node\" href=\"#{anchor}\" data-id=\"{id}\"><title>{id}: {title} ({status})</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\"/><text class=\"id\" x=\"{tx:.1}\" y=\"{y1:.1}\">{id}</text><text x=\"{tx:.1}\" y=\"{y2:.1}\">{short}</text></a>",
            anchor = anchor(&n.id),
            id = escape(&n.id),
            title = escape(&n.title),
            tx = x + 8.0,
            y1 = y + 18.0,
            y2 = y + 35.0,
            short = escape(&cut(&n.title, 24)),
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn records(report: &Report) -> String {
    let mut out = String::with_capacity(report.records.len() * 400 + 512);
    out.push_str("<table>\n<thead><tr><th>Id</th><th>Title</th><th>Status</th><th>Date</th><th>Drift</th><th>Governs</th><th class=\"path\">File</th></tr></thead>\n<tbody>\n");
    let mut seen = std::collections::HashSet::new();
    for r in &report.records {
        // A duplicate id's second row gets no anchor: the graph's node links to the first.
        let id_attr = if seen.insert(r.id.as_str()) {
            format!(" id=\"{}\"", anchor(&r.id))
        } else {
            String::new()
        };
        let (fill, stroke) = colours(Some(r.status));
        let status_text =
            if r.status_text.is_empty() || r.status_text.eq_ignore_ascii_case(r.status.as_str()) {
                r.status.as_str().to_string()
            } else {
                format!("{} ({})", r.status.as_str(), r.status_text)
            };
        let drift = match &r.drift {
            Some(d) => format!(
                "<span class=\"drift\">{} since {} ({} not citing it)</span>",
                d.count,
                escape(&d.since),
                d.not_citing_record
            ),
            None => "<span class=\"drift none\">—</span>".to_string(),
        };
        let governs: Vec<String> = r
            .governs
            .iter()
            .map(|g| format!("<code>{}</code>", escape(g)))
            .collect();
        let _ = writeln!(
            out,
            "<tr{id_attr} class=\"{status}\" data-id=\"{id}\"><td class=\"id\">{id}</td><td>{title}</td><td><span class=\"status\" style=\"background:{fill};border-color:{stroke}\">{status_text}</span></td><td>{date}</td><td>{drift}</td><td>{governs}</td><td class=\"path\"><code>{path}</code></td></tr>",
            status = r.status.as_str(),
            id = escape(&r.id),
            title = escape(&r.title),
            status_text = escape(&status_text),
            date = r.date.as_deref().map(escape).unwrap_or_else(|| "—".into()),
            governs = governs.join(" "),
            path = escape(&r.path),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn findings(report: &Report) -> String {
    if report.findings.is_empty() {
        return "<p>No findings.</p>\n".to_string();
    }
    let ids: std::collections::HashSet<&str> =
        report.records.iter().map(|r| r.id.as_str()).collect();
    let mut out = String::new();
    for code in FindingCode::ALL {
        let of: Vec<_> = report.findings.iter().filter(|f| f.code == code).collect();
        if of.is_empty() {
            continue;
        }
        let sev = code.severity().as_str();
        let _ = writeln!(
            out,
            "<div class=\"findings-group\" id=\"finding-{code}\"><h3><code>{code}</code> <span class=\"sev {sev}\">{sev}</span> ({})</h3>\n<ul>",
            of.len()
        );
        for f in of {
            // A link to the record's row, when there is one (a dangling id has none).
            let record = if ids.contains(f.record.as_str()) {
                format!(
                    "<a href=\"#{}\">{}</a>",
                    anchor(&f.record),
                    escape(&f.record)
                )
            } else {
                escape(&f.record)
            };
            let _ = writeln!(
                out,
                "<li>{record}: {} <code>{}</code></li>",
                escape(&f.message),
                escape(&f.path)
            );
        }
        out.push_str("</ul></div>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Finding, Record};

    fn hostile() -> Report {
        let mut r = Record::bare(
            "ADR-0001",
            "<script>alert(1)</script> & \"quotes\" 'x' {{graph}}",
            Status::Accepted,
            "docs/adr/0001-<img src=x>.md",
        );
        r.governs = vec!["src/<b>/".into()];
        Report {
            root: "/tmp/repo".into(),
            records: vec![r],
            docs: vec![],
            findings: vec![Finding::new(
                FindingCode::StatusMissing,
                "ADR-0001",
                "docs/adr/\"x\".md",
                "message <i>with</i> markup".into(),
            )],
            notes: vec![],
            query: None,
            rules: vec![],
        }
    }

    #[test]
    fn every_title_path_and_message_is_escaped() {
        let report = hostile();
        let graph = Graph {
            nodes: vec![crate::model::Node {
                id: "ADR-0001".into(),
                title: report.records[0].title.clone(),
                status: Some(Status::Accepted),
                path: report.records[0].path.clone(),
                kind: NodeKind::Record,
            }],
            edges: vec![],
        };
        let page = super::report(&report, &graph);
        for raw in [
            "<script>alert",
            "<img src=x>",
            "<b>/",
            "<i>with</i>",
            "\"quotes\"",
        ] {
            assert!(!page.contains(raw), "{raw} reached the page unescaped");
        }
        assert!(page.contains(
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;x&#39; {{graph}}"
        ));
        // One <script> element, the page's own.
        assert_eq!(page.matches("<script").count(), 1);
        assert!(
            !page.contains("http://") || page.matches("http://").count() == 1,
            "only the SVG namespace"
        );
    }

    #[test]
    fn anchors_keep_ids_apart() {
        assert_eq!(anchor("ADR-0001"), "rec-ADR-0001");
        assert_ne!(anchor("a b"), anchor("a_b"));
        assert!(!anchor("x\"><script>").contains('"'));
    }
}
