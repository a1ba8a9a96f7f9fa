//! Writing records (docs/writing.md, ADR-0013): `init`, `new`, `supersede`, `amend` and
//! `status`. The inputs are read here (the folder's names, its newest record or template, the
//! records changed), `write` plans the files, and they are written here: a new record by an
//! exclusive create under a lock on its folder, so two writers at once take two numbers, and
//! every file through `fs::atomic`, written beside and renamed, so a kill or a full disk
//! leaves the old bytes (ADR-0013). Finding the next number lists the folder's names, under
//! the lock; no record is read to find it.

use super::error::{Error, Result};
use super::Session;
use crate::fs::discover::{is_record_name, numbered_folder_name, record_folders};
use crate::fs::root::query_path;
use crate::model::{FileDiff, Hunk, Status, WriteReport, Written};
use crate::parse::{normalise_status, parse_head, Head};
use crate::text::ids::{self, Prefix};
use crate::text::{file_stem, parent_folder};
use crate::write::change::{self, Mark};
use crate::write::naming::{self, Naming};
use crate::write::render::{self, CorpusKeys, Link, NewRecord, Source};
use crate::write::{apply, Change, FilePlan, LineEdit, WriteError};
use std::path::{Path, PathBuf};

mod folder;
mod freeze;
mod init;
mod status;

use folder::*;
pub use freeze::freeze_rules;
pub use init::{init, Format};
pub use status::set_status;

impl From<WriteError> for Error {
    fn from(e: WriteError) -> Error {
        Error::Write(e.0)
    }
}

fn refuse(msg: impl Into<String>) -> Error {
    Error::Write(msg.into())
}

/// Writing reStructuredText records is not supported yet (docs/writing.md): a `.rst` record
/// to change is refused in one line, before anything is planned.
pub(super) fn refuse_rst(path: &str) -> Result<()> {
    if crate::text::rst::is_rst(path) {
        return Err(refuse(format!(
            "{path}: a reStructuredText record; writing .rst records is not supported yet, edit it by hand (docs/writing.md)"
        )));
    }
    Ok(())
}

/// `new` (and `supersede`, `amend`): what the new record says and where it goes.
#[derive(Debug, Clone, Default)]
pub struct NewArgs {
    pub title: String,
    /// `--status`; `None` is the folder's default ([`default_status`]).
    pub status: Option<String>,
    pub supersedes: Vec<String>,
    pub amends: Vec<String>,
    pub governs: Vec<String>,
    pub folder: Option<String>,
    /// `YYYY-MM-DD`; `None` is today (UTC).
    pub date: Option<String>,
    pub template: Option<PathBuf>,
    pub force: bool,
    pub dry_run: bool,
    /// `--keep-scope`: the superseded records' scope written into the new one (issue 39).
    pub keep_scope: bool,
}

/// The status a new record gets when `--status` says none (ADR-0013, issue 39): its folder's
/// `default_status` in `.context-graph.toml` (docs/configuration.md), else `accepted` in a
/// folder adr-tools writes in (`adr new` writes Accepted), else `proposed`.
pub fn default_status(session: &Session, folder: &str) -> Result<String> {
    let reading = crate::fs::discover::reading(session.root(), &session.options().docs)?;
    Ok(match reading.default_status(folder) {
        Some(word) => word.to_string(),
        None if reading.adr_tools_folder(folder) => "accepted".to_string(),
        None => "proposed".to_string(),
    })
}

/// `new "Title"` with its relations: the new record, and each record it supersedes or amends
/// changed in its own form.
pub fn new_record(session: &Session, args: &NewArgs) -> Result<WriteReport> {
    let root = session.root().to_path_buf();
    let title = args.title.trim();
    if title.is_empty() {
        return Err(refuse("the title is empty"));
    }
    let date = check_date(args.date.as_deref())?;
    let mut olds: Vec<(Found, bool)> = Vec::new();
    let mut listings = Listings::default();
    for (inputs, supersedes) in [(&args.supersedes, true), (&args.amends, false)] {
        for input in inputs {
            let found = find_record(session, input, &mut listings)?;
            refuse_rst(&found.path)?;
            if found.parsed.status == Status::Superseded && !args.force {
                return Err(refuse(format!(
                    "{} ({}) is already superseded ({}); --force to go on",
                    found.parsed.id, found.path, found.parsed.status_text
                )));
            }
            if !olds.iter().any(|(o, _)| o.path == found.path) {
                olds.push((found, supersedes));
            }
        }
    }
    let folder = match (&args.folder, olds.first()) {
        (None, Some((old, _))) => home_folder(&old.path).to_string(),
        (f, _) => target_folder(session, f.as_deref())?,
    };
    let status = match &args.status {
        Some(s) => s.trim().to_string(),
        None => default_status(session, &folder)?,
    };
    if normalise_status(&status) == Status::Unrecognised {
        return Err(refuse(format!(
            "--status {}",
            super::near::unknown_status(&status)
        )));
    }
    let mut notes = Vec::new();
    let mut governs = Vec::new();
    for g in &args.governs {
        let rel = query_path(&root, g).map_err(|reason| Error::BadPath {
            path: g.clone(),
            reason,
        })?;
        let folder_named = g.ends_with('/') || root.join(&rel).is_dir();
        let rel = if folder_named && !rel.ends_with('/') {
            format!("{rel}/")
        } else {
            rel
        };
        if !root.join(&rel).exists() {
            notes.push(format!("--governs {rel}: nothing is there yet"));
        }
        governs.push(rel);
    }
    // What a superseded record governed is offered to its successor: carried with
    // `--keep-scope`, else named on stderr, so code never goes ungoverned unseen (ADR-0013).
    let all_folders = record_folders(&root, &session.options().docs)?;
    for (old, _) in olds.iter().filter(|(_, supersedes)| *supersedes) {
        let mut scope = scope_of(&root, old, &all_folders);
        // What `--governs` gives the new record already is carried.
        scope.retain(|s| !governs.contains(s));
        if scope.is_empty() {
            continue;
        }
        if args.keep_scope {
            for s in scope {
                if !governs.contains(&s) {
                    governs.push(s);
                }
            }
        } else {
            let shown: Vec<String> = scope.iter().map(|s| format!("`{s}`")).collect();
            notes.push(format!(
                "{} governs {}: not carried to the new record (--keep-scope carries it)",
                old.parsed.id,
                shown.join(", ")
            ));
        }
    }
    // The folder a record is written to, and anything read from it, stays under the root.
    confined(&root, &folder)?;
    let template = match &args.template {
        Some(t) => {
            let shown = t.display();
            let bytes = crate::fs::read::read_regular(t)
                .map_err(|e| refuse(format!("--template {shown}: {e}")))?;
            Some(
                String::from_utf8(bytes)
                    .map_err(|_| refuse(format!("--template {shown}: not UTF-8 text")))?,
            )
        }
        None => folder_template(&root, &folder)?,
    };
    let prefix = Prefix::for_folder(&folder);
    // log4brains' repository (its `.log4brains.yml`): its slugs and its `## Links`.
    let log4brains = root.join(".log4brains.yml").is_file();
    let dir = root.join(&folder);
    let _lock = (!args.dry_run).then(|| lock_folder(&dir));
    let mut plans: Vec<FilePlan>;
    let mut attempt = 0;
    loop {
        attempt += 1;
        // The folders are listed again under the lock: the listing OLD was found in was made
        // before it, and a number taken meanwhile under another title is not a name the
        // exclusive create would meet (issue 38). A retry lists again too.
        if attempt > 1 || !args.dry_run {
            listings.forget();
        }
        let listed = listings.records(&root, &folder)?;
        // A folder of reStructuredText records gets none in Markdown beside them, numbered
        // past names the numbering does not read.
        if listed.iter().any(|n| crate::text::rst::is_rst(n)) {
            return Err(refuse(format!(
                "{folder}: its records are reStructuredText (.rst); writing .rst records is not supported yet, write the record by hand (docs/writing.md)"
            )));
        }
        let survey = naming::survey(listed.iter().map(String::as_str));
        let mut naming = survey
            .naming
            .clone()
            .unwrap_or_else(Naming::default_numbered);
        if log4brains {
            naming.slugs = naming::Slugs::Log4brains;
        }
        // The next number, past every record of this kind (the same prefix) in any folder.
        let mut highest = survey.highest;
        for other in record_folders(&root, &session.options().docs)? {
            if other != folder && Prefix::for_folder(&other) == prefix {
                if let Ok(more) = listings.records(&root, &other) {
                    highest = highest.max(naming::highest_number(more.iter().map(String::as_str)));
                }
            }
        }
        // The first try and the first retry take the number after the highest listed.
        let number = highest + attempt.max(2) as u64 - 1;
        let name = naming.file_name(number, &date, title);
        let newest = survey
            .newest
            .as_ref()
            .map(|n| listed_file(&root, &folder, n));
        // The newest record in a folder of its own: so is the new one (`0014-x/README.md`).
        let own_folder = newest
            .as_ref()
            .is_some_and(|f| crate::fs::discover::is_folder_record(f, &folder));
        let path = if own_folder {
            let stem = name.strip_suffix(".md").unwrap_or(&name);
            let readme = newest.as_deref().and_then(|f| f.rsplit('/').next());
            format!("{folder}/{stem}/{}", readme.unwrap_or("README.md"))
        } else {
            format!("{folder}/{name}")
        };
        let exemplar = newest.as_ref().map(|f| read_text(&root, f)).transpose()?;
        let mut keys = CorpusKeys {
            log4brains,
            ..CorpusKeys::default()
        };
        for (old, _) in &olds {
            keys.learn(&old.text);
        }
        for t in exemplar.iter().chain(&template) {
            keys.learn(t);
        }
        let numbered = naming.numbered();
        // The kind its file name gives (`adr-0012-x.md` in `docs/architecture`), as it is read.
        let prefix = match Prefix::for_record(&path) {
            Prefix::Dr => prefix,
            named => named,
        };
        let new = NewRecord {
            id: if numbered {
                render::id_for(prefix, number)
            } else {
                file_stem(&path).to_string()
            },
            prefix,
            number: numbered.then_some(number),
            title: title.to_string(),
            status: status.clone(),
            date: date.clone(),
            supersedes: olds
                .iter()
                .filter(|(_, s)| *s)
                .map(|(o, _)| link_to(parent_folder(&path), o))
                .collect(),
            amends: olds
                .iter()
                .filter(|(_, s)| !*s)
                .map(|(o, _)| link_to(parent_folder(&path), o))
                .collect(),
            governs: governs.clone(),
            log4brains,
        };
        let source = match (&template, &exemplar) {
            (Some(t), _) => Source::Template(t),
            (None, Some(e)) => Source::Exemplar(e),
            (None, None) => Source::Template(render::NYGARD),
        };
        let text = render::render(&new, source, &keys);
        let parsed = parse_head(&path, &text, prefix);
        let new_found = Found {
            path: path.clone(),
            text: text.clone(),
            parsed: parsed.clone(),
        };
        plans = vec![FilePlan {
            path: path.clone(),
            id: parsed.id.clone(),
            change: Change::Create(text.clone()),
        }];
        for (old, supersedes) in &olds {
            let link = link_to(parent_folder(&old.path), &new_found);
            let mark = if *supersedes {
                Mark::SupersededBy(link)
            } else {
                Mark::AmendedBy(link)
            };
            // A record stating no status, superseded, gets the folder's `## Status` section.
            let section = match &mark {
                Mark::SupersededBy(link) => {
                    status::status_section_like_neighbours(&root, old, |_: &str| {
                        change::link_line("Superseded by", link)
                    })?
                }
                _ => None,
            };
            let edits = match section {
                Some(edits) => edits,
                None => change::plan(&old.text, &mark, &keys)
                    .map_err(|e| refuse(format!("{}: {e}", old.path)))?,
            };
            plans.push(FilePlan {
                path: old.path.clone(),
                id: old.parsed.id.clone(),
                change: Change::Edit {
                    before: old.text.clone(),
                    edits,
                },
            });
        }
        if args.dry_run {
            if root.join(&path).exists() {
                return Err(refuse(format!("{path} exists: nothing written")));
            }
            break;
        }
        // A record in a folder of its own takes its number by making the folder: two writers
        // at once can't both make it.
        if own_folder {
            let dir = parent_folder(&path);
            match std::fs::create_dir(root.join(dir)) {
                Ok(()) => {}
                Err(e)
                    if e.kind() == std::io::ErrorKind::AlreadyExists
                        && numbered
                        && attempt < 20 =>
                {
                    continue
                }
                Err(e) => return Err(refuse(format!("cannot create {dir}/: {e}"))),
            }
        }
        // Written beside and linked into place: the record appears whole or not at all.
        match crate::fs::atomic::create_new(&root.join(&path), text.as_bytes()) {
            Ok(()) => break,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && numbered && attempt < 20 => {
                continue
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(refuse(format!(
                    "{path} exists ({}): nothing written",
                    parsed.id
                )))
            }
            Err(e) => {
                if own_folder {
                    let _ = std::fs::remove_dir(root.join(parent_folder(&path)));
                }
                return Err(refuse(format!("cannot create {path}: {e}")));
            }
        }
    }
    let created = plans[0].path.clone();
    let own_folder = crate::fs::discover::is_folder_record(&created, &folder);
    let mut report = finish(&root, &plans, args.dry_run).inspect_err(|_| {
        if !args.dry_run {
            remove_created(&root, &created, own_folder);
        }
    })?;
    report.notes = notes;
    Ok(report)
}

/// The folder a record sits in beside the others: its file's, or for a record in a folder of
/// its own (`rfcs/0004-x/README.md`), the folder above (`rfcs`).
fn home_folder(path: &str) -> &str {
    let dir = parent_folder(path);
    let up = parent_folder(dir);
    if crate::fs::discover::is_folder_record(path, up) {
        up
    } else {
        dir
    }
}

/// Takes back a record file this write created, and the folder of its own it made for it.
fn remove_created(root: &Path, path: &str, own_folder: bool) {
    let _ = std::fs::remove_file(root.join(path));
    if own_folder {
        let _ = std::fs::remove_dir(root.join(parent_folder(path)));
    }
}

/// Writes the plans' edits (the new file is already created), and reports every file. Every
/// changed record is written beside before any is renamed over: a full disk changes none of
/// them (ADR-0013).
fn finish(root: &Path, plans: &[FilePlan], dry_run: bool) -> Result<WriteReport> {
    let mut report = WriteReport {
        dry_run,
        ..WriteReport::default()
    };
    let mut staged = Vec::new();
    for p in plans {
        match &p.change {
            Change::Create(text) => {
                if dry_run {
                    // Nothing to do: the new file is written by its exclusive create.
                }
                report.diffs.push(FileDiff {
                    path: p.path.clone(),
                    created: true,
                    hunks: vec![Hunk {
                        line: 1,
                        old: Vec::new(),
                        new: text.lines().map(str::to_string).collect(),
                    }],
                });
                report.written.push(Written {
                    path: p.path.clone(),
                    id: p.id.clone(),
                    action: "created".into(),
                });
            }
            Change::Edit { before, edits } => {
                if !dry_run {
                    let after = apply(before, edits);
                    // Written beside; renamed over below, once every one is written.
                    let s = crate::fs::atomic::stage(&root.join(&p.path), after.as_bytes())
                        .map_err(|e| refuse(format!("cannot write {}: {e}", p.path)))?;
                    staged.push((&p.path, s));
                }
                report.diffs.push(diff_of(&p.path, before, edits));
                report.written.push(Written {
                    path: p.path.clone(),
                    id: p.id.clone(),
                    action: "changed".into(),
                });
            }
        }
    }
    for (path, s) in staged {
        s.commit()
            .map_err(|e| refuse(format!("cannot write {path}: {e}")))?;
    }
    Ok(report)
}

fn diff_of(path: &str, before: &str, edits: &[LineEdit]) -> FileDiff {
    let lines: Vec<&str> = before.lines().collect();
    FileDiff {
        path: path.to_string(),
        created: false,
        hunks: edits
            .iter()
            .map(|e| Hunk {
                line: e.at + 1,
                old: lines[e.at.min(lines.len())..(e.at + e.remove).min(lines.len())]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                new: e.insert.clone(),
            })
            .collect(),
    }
}

/// The index brought up to date after a write, as the hooks' refresh does (ADR-0008): a file
/// written a moment ago can't be vouched for by its content, so a scan whose memo does not
/// hold is run again once that margin has passed. Run in the background by the binary; the
/// note naming it as a refresh in flight goes when it is done.
pub fn refresh_after_write(session: &mut Session) -> Result<()> {
    let repo = session
        .repository()
        .cloned()
        .ok_or_else(|| Error::no_git(session.root()))?;
    let done = (|| -> Result<()> {
        let mut rescanned = session.refresh()?;
        for _ in 0..3 {
            if !rescanned || super::hook::memo_holds(session, &repo).unwrap_or(true) {
                break;
            }
            std::thread::sleep(super::hook::MARGIN);
            rescanned = session.refresh()?;
        }
        Ok(())
    })();
    crate::index::inflight::finish(&repo);
    done
}

#[cfg(test)]
mod tests {
    use super::has_number_run;

    #[test]
    fn a_name_carries_a_number_only_as_a_whole_run_of_digits() {
        assert!(has_number_run("0030-decision-30", 30));
        assert!(has_number_run("adr-30", 30));
        assert!(has_number_run("2024-05-01-30-x", 30));
        assert!(!has_number_run("0130-decision-130", 30));
        assert!(!has_number_run("0300-decision-300", 30));
        assert!(!has_number_run("decision", 30));
    }
}
