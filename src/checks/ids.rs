//! Ids: two records sharing one.

use crate::model::{Finding, FindingCode, Record};
use std::collections::BTreeMap;

pub(super) fn duplicate_ids(records: &[Record], out: &mut Vec<Finding>) {
    let mut by_id: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_id.entry(r.id.as_str()).or_default().push(r);
    }
    for (id, mut group) in by_id {
        group.sort_by(|a, b| a.path.cmp(&b.path));
        for extra in group.iter().skip(1) {
            out.push(Finding::new(
                FindingCode::DuplicateId,
                id,
                &extra.path,
                format!(
                    "{} and {} both have the id {id}: renumber one, and fix the references to it",
                    group[0].path, extra.path
                ),
            ));
        }
    }
}
