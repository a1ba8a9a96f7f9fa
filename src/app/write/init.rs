//! `init` (ADR-0013): a record folder and its first record, in adr-tools' form or MADR's.

use super::*;

/// `init`'s record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Nygard,
    Madr,
}

/// `init`: the folder and its first record, "Record architecture decisions", as `adr init`
/// writes it (Nygard), or in MADR's form; adr-tools' `.adr-dir` when the folder is not its
/// default `doc/adr`. Refused when records exist already.
pub fn init(
    session: &Session,
    format: Format,
    folder: Option<&str>,
    date: Option<&str>,
    dry_run: bool,
) -> Result<WriteReport> {
    let root = session.root().to_path_buf();
    let date = check_date(date)?;
    let folder = match folder {
        Some(f) => query_path(&root, f).map_err(|reason| Error::BadPath {
            path: f.to_string(),
            reason,
        })?,
        None => record_folders(&root, &session.options().docs)?
            .into_iter()
            .next()
            .unwrap_or_else(|| "docs/adr".to_string()),
    };
    confined(&root, &folder)?;
    let existing =
        crate::fs::discover::record_files(&root, &record_folders(&root, &session.options().docs)?)
            .0;
    let here = if root.join(&folder).is_dir() {
        let mut names = names_in(&root, &folder)?;
        names.sort();
        names
    } else {
        Vec::new()
    };
    if let Some(first) = existing
        .first()
        .map(|f| f.rel.clone())
        .or_else(|| here.first().map(|n| format!("{folder}/{n}")))
    {
        return Err(refuse(format!(
            "records exist already ({first}): nothing written"
        )));
    }
    let path = format!("{folder}/0001-record-architecture-decisions.md");
    let text = match format {
        Format::Nygard => NYGARD_INIT.replace("DATE", &date),
        Format::Madr => MADR_INIT.replace("DATE", &date),
    };
    let prefix = Prefix::for_folder(&folder);
    let id = parse_head(&path, &text, prefix).id;
    let mut plans = vec![FilePlan {
        path: path.clone(),
        id,
        change: Change::Create(text.clone()),
    }];
    let adr_dir =
        format == Format::Nygard && folder != "doc/adr" && !root.join(".adr-dir").exists();
    if adr_dir {
        plans.push(FilePlan {
            path: ".adr-dir".into(),
            id: String::new(),
            change: Change::Create(format!("{folder}\n")),
        });
    }
    if !dry_run {
        std::fs::create_dir_all(root.join(&folder))
            .map_err(|e| refuse(format!("cannot create {folder}: {e}")))?;
        for (i, p) in plans.iter().enumerate() {
            if let Change::Create(text) = &p.change {
                if let Err(e) = crate::fs::atomic::create_new(&root.join(&p.path), text.as_bytes())
                {
                    // The files created before it are taken back: nothing written.
                    for done in &plans[..i] {
                        let _ = std::fs::remove_file(root.join(&done.path));
                    }
                    return Err(refuse(format!("cannot create {}: {e}", p.path)));
                }
            }
        }
    }
    finish(&root, &plans, dry_run)
}

/// adr-tools' first record (`/usr/share/adr-tools/init.md`).
pub(super) const NYGARD_INIT: &str = "# 1. Record architecture decisions\n\nDate: DATE\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records, as [described by Michael Nygard](http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions).\n\n## Consequences\n\nSee Michael Nygard's article, linked above. For a lightweight ADR toolset, see Nat Pryce's [adr-tools](https://github.com/npryce/adr-tools).\n";

/// The same decision in MADR 4's form.
pub(super) const MADR_INIT: &str = "---\nstatus: accepted\ndate: DATE\n---\n\n# Record architecture decisions\n\n## Context and Problem Statement\n\nWe want to record the architectural decisions made on this project, and why they were made.\n\n## Considered Options\n\n* Markdown Architectural Decision Records (MADR)\n* No records\n\n## Decision Outcome\n\nChosen option: \"Markdown Architectural Decision Records (MADR)\", because the decisions and their reasons stay in the repository, next to the code they govern.\n\n### Consequences\n\n* Good, because a newcomer can read why the code is as it is.\n* Bad, because each decision takes a record to write.\n";
