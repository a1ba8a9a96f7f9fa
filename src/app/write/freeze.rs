//! `rules freeze ID` (docs/rules.md, ADR-0021): one `except` line per place the record's rules
//! are broken today, written into its last `context-graph` block, so the rules hold from now on
//! and the baseline can only shrink (a fixed place makes its line a `stale-exception`).

use super::folder::{find_record, today, Listings};
use super::{finish, refuse, refuse_rst, FilePlan, Result, Session};
use crate::checks::rules::evaluate;
use crate::model::WriteReport;
use crate::rules::RuleKind;
use crate::scan::imports::ImportEdges;
use crate::write::{Change, LineEdit};

/// Writes the `except` lines that allow what the record `input`'s rules find today, each with
/// the reason `frozen DATE`: one for each import edge (`except A -> B`), one for each file a
/// text or dependency rule finds (`except PATH`).
pub fn freeze_rules(session: &Session, input: &str, dry_run: bool) -> Result<WriteReport> {
    let root = session.root().to_path_buf();
    let found = find_record(session, input, &mut Listings::default())?;
    refuse_rst(&found.path)?;
    let mut parsed =
        crate::parse::parse_text(&found.path, &found.text, crate::text::ids::Prefix::Adr);
    parsed.id = found.parsed.id.clone();
    parsed.status = found.parsed.status;
    let at = match (&parsed.rules, crate::rules::block_end(&found.text)) {
        (Some(b), Some(at)) if !b.rules.is_empty() => at,
        _ => {
            return Err(refuse(format!(
                "{} ({}) has no rules to freeze: its `context-graph` block states none",
                parsed.id, found.path
            )))
        }
    };
    let files = crate::scan::rules::IndexFiles::at(&root);
    let outcomes = evaluate(
        std::slice::from_ref(&parsed),
        &files,
        &ImportEdges::new(&files, &files),
    );
    let reason = format!("frozen {}", today());
    let mut lines: Vec<String> = Vec::new();
    for o in &outcomes {
        for r in &o.rules {
            let import = matches!(
                r.rule.kind,
                RuleKind::ForbidImport { .. }
                    | RuleKind::OnlyImport { .. }
                    | RuleKind::Independent { .. }
            );
            for v in &r.violations {
                let line = match (&v.target, import) {
                    (Some(t), true) => format!("except {} -> {t}: {reason}", v.path),
                    _ => format!("except {}: {reason}", v.path),
                };
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
        }
    }
    if lines.is_empty() {
        return finish(&root, &[], dry_run);
    }
    let plans = [FilePlan {
        path: found.path.clone(),
        id: parsed.id.clone(),
        change: Change::Edit {
            before: found.text.clone(),
            edits: vec![LineEdit {
                at,
                remove: 0,
                insert: lines,
            }],
        },
    }];
    finish(&root, &plans, dry_run)
}
