//! The records table of `report --html` (docs/pictures.md; ADR-0015): ids in numeric order,
//! titles and statuses as text a reader reads (a status as its word, the record's own words on
//! hover), fixed column widths, and a row per record that reads as a card on a phone.

use super::graph::colours;
use super::markup::{anchor, escape, id_order, plain};
use crate::model::{Record, Report};
use std::fmt::Write;

/// Governed paths shown in a row before the rest fold away under "N more".
const PATHS_SHOWN: usize = 3;

/// The table: a row per record, in [`id_order`].
pub fn records(report: &Report) -> String {
    let mut out = String::with_capacity(report.records.len() * 400 + 512);
    out.push_str("<table class=\"records\">\n<colgroup><col class=\"c-id\"><col class=\"c-title\"><col class=\"c-status\"><col class=\"c-date\"><col class=\"c-drift\"><col class=\"c-governs\"><col class=\"c-path\"></colgroup>\n<thead><tr><th>Id</th><th>Title</th><th>Status</th><th>Date</th><th>Drift</th><th>Governs</th><th class=\"path\">File</th></tr></thead>\n<tbody>\n");
    let mut rows: Vec<&Record> = report.records.iter().collect();
    rows.sort_by(|a, b| id_order(&a.id, &b.id));
    let mut seen = std::collections::HashSet::new();
    for r in rows {
        // A duplicate id's second row gets no anchor: the graph's node links to the first.
        let id_attr = if seen.insert(r.id.as_str()) {
            format!(" id=\"{}\"", anchor(&r.id))
        } else {
            String::new()
        };
        let (fill, stroke) = colours(Some(r.status));
        // The word; what the record says, when it says more, on hover.
        let said = plain(&r.status_text);
        let hover = if said.is_empty() || said.eq_ignore_ascii_case(r.status.as_str()) {
            String::new()
        } else {
            format!(" title=\"{}\"", escape(&said))
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
        let _ = writeln!(
            out,
            "<tr{id_attr} class=\"{status}\" data-id=\"{id}\"><td class=\"id\" data-label=\"Id\" title=\"{id}\">{id}</td><td data-label=\"Title\">{title}</td><td data-label=\"Status\"><span class=\"status\" style=\"background:{fill};border-color:{stroke}\"{hover}>{status}</span></td><td class=\"date\" data-label=\"Date\">{date}</td><td data-label=\"Drift\">{drift}</td><td data-label=\"Governs\">{governs}</td><td class=\"path\" data-label=\"File\"><code>{path}</code></td></tr>",
            status = r.status.as_str(),
            id = escape(&r.id),
            title = escape(&plain(&r.title)),
            date = r.date.as_deref().map(escape).unwrap_or_else(|| "—".into()),
            governs = governs(&r.governs),
            path = escape(&r.path),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// The first few governed paths; the rest under a `<details>` a reader opens (no script).
fn governs(paths: &[String]) -> String {
    let code = |g: &String| format!("<code>{}</code>", escape(g));
    let shown: Vec<String> = paths.iter().take(PATHS_SHOWN).map(code).collect();
    let mut out = shown.join(" ");
    if paths.len() > PATHS_SHOWN {
        let rest: Vec<String> = paths[PATHS_SHOWN..].iter().map(code).collect();
        let _ = write!(
            out,
            " <details><summary>{} more</summary>{}</details>",
            rest.len(),
            rest.join(" ")
        );
    }
    out
}
