//! `report --html` read at a glance (issue 39): no edge of the graph passes through a box it
//! does not connect, citations hidden behind a box to tick, the table in numeric id order with
//! statuses as words and titles as text, and `report` saying the file it wrote.

use crate::fixture::{adr, empty_root, Fixture};
use serde_json::Value;

/// The page `report --html` writes for `f` (with `args` before the command), checking the line
/// it prints.
fn page(f: &Fixture, args: &[&str], records: usize) -> String {
    let file = f.env.path().join("report.html");
    let path = file.to_str().expect("UTF-8 path");
    let mut all = args.to_vec();
    all.extend(["report", "--html", path]);
    let run = f.run_md(&all);
    run.assert_code(0);
    assert_eq!(
        run.stdout(),
        format!("wrote {path} ({records} records)\n"),
        "report says the file it wrote, on one line"
    );
    std::fs::read_to_string(&file).expect("the page was written")
}

/// A box of the SVG: its rectangle.
type Rect = (f64, f64, f64, f64);
/// An edge of the SVG: its title, and its segments' points (a line's two, a curve's four).
type Drawn = (String, Vec<Vec<(f64, f64)>>);

fn attr(tag: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let from = tag.find(&key).expect("the attribute") + key.len();
    tag[from..]
        .split('"')
        .next()
        .and_then(|v| v.parse().ok())
        .expect("a number")
}

/// The boxes and each edge's path (as its segments' points) of one `<svg>`.
fn shapes(svg: &str) -> (Vec<Rect>, Vec<Drawn>) {
    let rects = svg
        .split("<rect ")
        .skip(1)
        .map(|t| {
            let t = format!(" {t}");
            (
                attr(&t, "x"),
                attr(&t, "y"),
                attr(&t, "width"),
                attr(&t, "height"),
            )
        })
        .collect();
    let mut paths = Vec::new();
    for t in svg.split("<path class=\"edge ").skip(1) {
        let d = t.split(" d=\"").nth(1).and_then(|s| s.split('"').next());
        let title = t.split("<title>").nth(1).and_then(|s| s.split('<').next());
        let (Some(d), Some(title)) = (d, title) else {
            panic!("an edge without a path or a title: {t}")
        };
        // Each segment with its control points: M, then L (2 points) or C (4 points).
        let mut segments = Vec::new();
        let mut at = (0.0, 0.0);
        let mut words = d.split(' ');
        let point = |w: &str| {
            let (x, y) = w.split_once(',').expect("x,y");
            (x.parse::<f64>().expect("x"), y.parse::<f64>().expect("y"))
        };
        while let Some(w) = words.next() {
            match &w[..1] {
                "M" => at = point(&w[1..]),
                "L" => {
                    let to = point(&w[1..]);
                    segments.push(vec![at, to]);
                    at = to;
                }
                "C" => {
                    let c1 = point(&w[1..]);
                    let c2 = point(words.next().expect("c2"));
                    let to = point(words.next().expect("end"));
                    segments.push(vec![at, c1, c2, to]);
                    at = to;
                }
                other => panic!("unexpected path command {other} in {d}"),
            }
        }
        paths.push((title.to_string(), segments));
    }
    (rects, paths)
}

/// Every (edge, box) where an edge's path enters a box's inside: a segment (a line, or a curve
/// inside the hull of its control points) whose bounding rectangle meets no box's inside
/// cannot enter one.
fn crossings(svg: &str) -> Vec<String> {
    let (rects, paths) = shapes(svg);
    let mut found = Vec::new();
    for (title, segments) in &paths {
        for seg in segments {
            let xs = seg.iter().map(|p| p.0);
            let ys = seg.iter().map(|p| p.1);
            let (x0, x1) = (
                xs.clone().fold(f64::MAX, f64::min),
                xs.fold(f64::MIN, f64::max),
            );
            let (y0, y1) = (
                ys.clone().fold(f64::MAX, f64::min),
                ys.fold(f64::MIN, f64::max),
            );
            for &(bx, by, bw, bh) in &rects {
                let eps = 0.01;
                if x1 > bx + eps && x0 < bx + bw - eps && y1 > by + eps && y0 < by + bh - eps {
                    found.push(format!("{title} through the box at {bx},{by}"));
                }
            }
        }
    }
    found
}

/// The records of a graph as `graph --format json --all` prints it, written as adr-tools
/// records (`ADR-0001` …) whose bodies make the same relations.
fn from_graph(json: &str) -> (Fixture, usize, usize) {
    let doc: Value = serde_json::from_str(json).expect("JSON");
    let f = empty_root();
    let nodes = doc["nodes"].as_array().expect("nodes");
    let edges = doc["edges"].as_array().expect("edges");
    let number = |id: &str| -> u32 { id.trim_start_matches("ADR-").parse().expect("ADR-n") };
    for n in nodes {
        let id = n["id"].as_str().expect("id");
        let mut body = String::from("Context.\n");
        let mut status = match n["status"].as_str() {
            Some("proposed") => "Proposed".to_string(),
            _ => "Accepted".to_string(),
        };
        for e in edges {
            let (from, to) = (
                e["from"].as_str().expect("from"),
                e["to"].as_str().expect("to"),
            );
            match e["kind"].as_str().expect("kind") {
                "supersedes" if from == id => body.push_str(&format!("\nSupersedes {to}.\n")),
                "supersedes" if to == id => status = format!("Superseded by {from}"),
                "amends" if from == id => body.push_str(&format!("\nAmends {to}.\n")),
                "cites" if from == id => body.push_str(&format!("\nSee {to}.\n")),
                _ => {}
            }
        }
        let title = n["title"].as_str().expect("title");
        f.write(
            &format!("docs/adr/{:04}-record.md", number(id)),
            adr(number(id), title, &status, Some("2025-01-01"), &body).as_bytes(),
        );
    }
    (f, nodes.len(), edges.len())
}

#[test]
fn no_edge_passes_through_a_box_on_pages_shaped_like_adrkit_and_whitehall() {
    for (name, json) in [
        ("adrkit", include_str!("graphs/adrkit.json")),
        ("whitehall", include_str!("graphs/whitehall.json")),
    ] {
        let (f, records, relations) = from_graph(json);
        let html = page(&f, &[], records);
        let svgs: Vec<&str> = html.split("<svg ").skip(1).collect();
        assert_eq!(svgs.len(), 2, "{name}: chains first, then every relation");
        let (_, chains) = shapes(svgs[0]);
        let (_, all) = shapes(svgs[1]);
        assert!(
            chains.iter().all(|(t, _)| !t.contains(" cites ")),
            "{name}: no citation in the first view"
        );
        assert_eq!(all.len(), relations, "{name}: every relation drawn");
        for svg in &svgs {
            assert_eq!(crossings(svg), Vec::<String>::new(), "{name}");
        }
        // The citations are behind a box a reader ticks; CSS alone swaps the views.
        assert!(html.contains("<input type=\"checkbox\" id=\"show-cites\""));
        assert!(html.contains("#show-cites:checked ~ .graph.view-all { display: block; }"));
        // And every relation as text, supersessions first.
        let list = html
            .split("<details class=\"relations\">")
            .nth(1)
            .and_then(|l| l.split("</ul></details>").next())
            .expect("a list");
        let items: Vec<&str> = list.split("<li>").skip(1).collect();
        assert_eq!(items.len(), relations, "{name}: each relation a line");
        let first_cite = items.iter().position(|l| l.contains(" cites "));
        let last_chain = items.iter().rposition(|l| !l.contains(" cites "));
        assert!(
            first_cite > last_chain,
            "{name}: supersessions and amendments first"
        );
    }
}

#[test]
fn the_checker_sees_an_edge_drawn_through_a_box() {
    // A path from below one box to above it, straight through it: the checker must see it.
    let svg = "<rect x=\"10\" y=\"50\" width=\"184\" height=\"46\"/><path class=\"edge cites\" d=\"M100,120.0 C100,80 100,40 100,20\"><title>A cites B</title></path>";
    assert_eq!(crossings(svg).len(), 1);
}

/// Records shaped like vector's RFCs: numbered ids whose text order is not their number
/// order, a long dated id, Markdown in a title and a status.
fn rfcs() -> Fixture {
    let f = empty_root();
    f.write(
        "rfcs/2020-04-06-1858-adjust-limits.md",
        b"# RFC 1858 - Adjust limits\n\nSome words.\n",
    );
    f.write(
        "rfcs/2022-01-01-10298-rewrite-names.md",
        b"# RFC 10298 - Rewrite names\n\nSome words.\n",
    );
    f.write(
        "rfcs/2026-07-15-split-component-build-lifecycle-and-some-more-words.md",
        b"# RFC - Separate `validation` from build\n\nStatus: Superseded by [RFC-1858](./2020-04-06-1858-adjust-limits.md)\n",
    );
    f
}

#[test]
fn the_table_reads_as_text_in_numeric_id_order_with_fixed_widths() {
    let f = rfcs();
    let html = page(&f, &["--docs", "rfcs"], 3);
    let table = html
        .split("<table class=\"records\">")
        .nth(1)
        .expect("the table");
    let rows: Vec<&str> = table
        .split("<tr id=\"rec-")
        .skip(1)
        .map(|r| r.split('"').next().expect("an id"))
        .collect();
    let long = "2026-07-15-split-component-build-lifecycle-and-some-more-words";
    assert_eq!(
        rows,
        [long, "RFC-1858", "RFC-10298"],
        "ids in numeric order"
    );
    // The status as its word; what the record says on hover, as text.
    assert!(
        table.contains(">superseded</span>") && table.contains("title=\"Superseded by RFC-1858\""),
        "{table}"
    );
    assert!(!table.contains("superseded (") && !table.contains("]("));
    // The title as text: no backticks.
    assert!(table.contains("<td data-label=\"Title\">RFC - Separate validation from build</td>"));
    assert!(!table.contains('`'));
    // Fixed column widths: no long value squeezes the others.
    assert!(table.contains("<colgroup>") && html.contains("table-layout: fixed"));
    // The long id: cut in its box, whole on hover, wrapped in the table.
    let svg = html.split("<svg ").nth(1).expect("a graph");
    assert!(svg.contains(&format!("<title>{long}: ")));
    assert!(svg.contains(">2026-07-15-split-comp…</text>"), "{svg}");
    assert!(table.contains(&format!(
        "<td class=\"id\" data-label=\"Id\" title=\"{long}\">"
    )));
    // On a phone the graph keeps its size in a scrolled frame and each row reads as a card.
    assert!(html.contains(".graph svg { display: block; margin: 0 auto; max-width: none; }"));
    assert!(html.contains("table.records td::before { content: attr(data-label);"));
}
