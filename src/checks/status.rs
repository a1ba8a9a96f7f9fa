//! Status: missing, or a word the reference does not know.

use crate::model::{Finding, FindingCode, Record, Status};

pub(super) fn status(r: &Record, out: &mut Vec<Finding>) {
    match r.status {
        Status::Unknown => out.push(Finding::new(
                FindingCode::StatusMissing,
                &r.id,
            &r.path,
            format!("{} has no status: add a Status line", r.id),
        )),
        Status::Unrecognised => out.push(Finding::new(
                FindingCode::StatusUnrecognised,
                &r.id,
            &r.path,
            format!(
                "{} has the status \"{}\", which is not a known status word: correct the Status line (proposed, accepted, implemented, rejected, deprecated, superseded)",
                r.id, r.status_text
            ),
        )),
        _ => {}
    }
}
