//! The JSON document: the reference's shape plus CONTRACT.md §3, pretty-printed.

use crate::model::Report;
use serde::Serialize;

/// Any serialisable answer as pretty JSON with a trailing newline.
pub fn render<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("report serialises");
    s.push('\n');
    s
}

/// The report as JSON.
pub fn report(report: &Report) -> String {
    render(report)
}
