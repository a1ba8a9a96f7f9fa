//! What changed under each current decision, as a Markdown table: its commits since it was
//! decided, by whom, and whether they cite it (ADR-0005).

use super::*;

/// The authors with their counts, most first (the order drift gives them): the first
/// [`AUTHORS_SHOWN`], then "and N more", so a busy folder's hundred authors fit on one line.
pub(super) fn authors(d: &Drift) -> String {
    if d.authors.is_empty() {
        return "—".to_string();
    }
    let shown = d
        .authors
        .iter()
        .take(AUTHORS_SHOWN)
        .map(|a| format!("{} {}", cell(&md(&a.name)), a.commits))
        .collect::<Vec<_>>()
        .join(", ");
    match d.authors.len().saturating_sub(AUTHORS_SHOWN) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

pub(super) fn decided(d: &Drift) -> String {
    if d.since_from == "first-commit" {
        format!("{}*", d.since)
    } else {
        d.since.clone()
    }
}

/// "Code changed since each decision": current decisions whose governed code changed, most
/// changed first.
pub(super) fn drift_table(out: &mut String, records: &[Record]) {
    let mut rows: Vec<(&Record, &Drift)> = records
        .iter()
        .filter_map(|r| r.drift.as_ref().map(|d| (r, d)))
        .filter(|(_, d)| d.count > 0)
        .collect();
    if !records.iter().any(|r| r.drift.is_some()) {
        return;
    }
    out.push_str("## Code changed since each decision\n\n");
    if rows.is_empty() {
        out.push_str("No governed code has changed since its decision.\n\n");
        return;
    }
    rows.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.id.cmp(&b.0.id)));
    out.push_str("| ID | Title | Decided | Commits since | Not citing it | By | Last change | Record last edited |\n|---|---|---|---|---|---|---|---|\n");
    for (r, d) in rows.iter().take(DRIFT_ROWS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&md(&r.id)),
            cell(&md(&r.title)),
            decided(d),
            d.count,
            d.not_citing_record,
            authors(d),
            d.last_change.as_deref().unwrap_or("—"),
            d.record_last_edited.as_deref().unwrap_or("—")
        );
    }
    if rows.len() > DRIFT_ROWS {
        let _ = writeln!(
            out,
            "\n{} more in `--json`.",
            plural(rows.len() - DRIFT_ROWS, "decision", "decisions")
        );
    }
    if rows.iter().any(|(_, d)| d.since_from == "first-commit") {
        out.push_str(
            "\n`*` the record has no date: counted from when its file was first committed.\n",
        );
    }
    out.push('\n');
}

pub(super) fn changed_since_line(d: &Drift) -> String {
    if d.count == 0 {
        return format!("Changed since {}: no commits to its paths.", decided(d));
    }
    format!(
        "Changed since {}: {}, {} not citing it; last {} (by {}).",
        decided(d),
        plural(d.count, "commit", "commits"),
        d.not_citing_record,
        d.last_change.as_deref().unwrap_or("—"),
        authors(d)
    )
}
