// @adr 0009
//! Markers: a source file declaring a record that doesn't exist (`dangling-marker`), or one
//! that no longer holds (`stale-marker`: superseded, deprecated or rejected). Both are
//! warnings: a marker lives in a file the records do not own (docs/markers.md, ADR-0009).

use crate::model::{Finding, FindingCode, Record, Status};
use crate::text::marker::Markers;
use std::collections::HashMap;

/// The findings about `markers`. `known` says whether a record has an id; `records` must hold
/// every known record a marker names (the first of an id decides, as in the checks).
pub fn marker_findings(
    markers: &Markers,
    records: &[Record],
    known: &dyn Fn(&str) -> bool,
) -> Vec<Finding> {
    let mut by_id: HashMap<&str, &Record> = HashMap::new();
    for r in records {
        by_id.entry(r.id.as_str()).or_insert(r);
    }
    let mut out = Vec::new();
    for file in &markers.files {
        for m in &file.markers {
            let place = format!("`{}:{}`", file.path, m.line);
            if !known(&m.id) {
                out.push(Finding::new(
                    FindingCode::DanglingMarker,
                    &m.id,
                    &file.path,
                    format!(
                        "{place} declares {}, which doesn't exist: correct the marker, or remove it",
                        m.id
                    ),
                ));
                continue;
            }
            let Some(r) = by_id.get(m.id.as_str()) else {
                continue;
            };
            let successors: Vec<&str> = r
                .successors
                .iter()
                .filter(|s| known(s))
                .map(String::as_str)
                .collect();
            let what = match r.status {
                Status::Deprecated => "deprecated",
                Status::Rejected => "rejected",
                Status::Superseded => "superseded",
                _ if !successors.is_empty() => "superseded",
                _ => continue,
            };
            let message = match (successors.as_slice(), r.status) {
                ([], Status::Rejected) => format!(
                    "{place} declares {}, which was rejected: point the marker at the decision the file lives under, or remove it",
                    m.id
                ),
                ([], _) => format!(
                    "{place} declares {}, which is {what}: point the marker at the decision that replaced it, or remove it",
                    m.id
                ),
                (newer, _) => {
                    let by = if what == "superseded" {
                        format!("superseded by {}", newer.join(", "))
                    } else {
                        format!("{what}, superseded by {}", newer.join(", "))
                    };
                    format!(
                        "{place} declares {}, which is {by}: point the marker at {}",
                        m.id,
                        newer.join(" or ")
                    )
                }
            };
            out.push(Finding::new(
                FindingCode::StaleMarker,
                &m.id,
                &file.path,
                message,
            ));
        }
    }
    out
}
