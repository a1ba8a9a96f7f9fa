//! Writing records (CONTRACT.md §12, ADR-0013): `init`, `new`, `supersede`, `amend` and
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

impl From<WriteError> for Error {
    fn from(e: WriteError) -> Error {
        Error::Write(e.0)
    }
}

fn refuse(msg: impl Into<String>) -> Error {
    Error::Write(msg.into())
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
}

/// The status a new record gets when `--status` says none: `proposed`. One place, so a
/// folder's configured default (`.context-graph.toml`'s `default_status`, CONTRACT.md §10) can
/// be read here.
pub fn default_status(_root: &Path, _folder: &str) -> String {
    "proposed".to_string()
}

/// Today, UTC, `YYYY-MM-DD`.
fn today() -> String {
    crate::text::date::utc_date(crate::util::now_ns().div_euclid(1_000_000_000))
}

fn check_date(date: Option<&str>) -> Result<String> {
    match date {
        None => Ok(today()),
        Some(d) if crate::text::date::parse_date(d).is_some() && d.len() == 10 => Ok(d.to_string()),
        Some(d) => Err(refuse(format!("--date {d}: not a date (YYYY-MM-DD)"))),
    }
}

/// The `README.md` or `index.md` (any case) of a record in a folder of its own,
/// `{folder}/{name}/`, when there is one, root-relative.
fn own_folder_readme(root: &Path, folder: &str, name: &str) -> Option<String> {
    crate::fs::discover::OWN_FOLDER_PAGES
        .iter()
        .map(|r| format!("{folder}/{name}/{r}"))
        .find(|rel| root.join(rel).is_file())
}

/// The file of a record named `name` in a listing of `folder` ([`Listings::records`]): the
/// file itself, or the `README.md` of the folder the name stands for.
fn listed_file(root: &Path, folder: &str, name: &str) -> String {
    let file = format!("{folder}/{name}");
    if root.join(&file).is_file() {
        return file;
    }
    let stem = name.strip_suffix(".md").unwrap_or(name);
    own_folder_readme(root, folder, stem).unwrap_or(file)
}

/// The record file names directly in `folder` (root-relative), in the directory's order:
/// nothing that reads them depends on their order, and sorting 5,000 names cost more than
/// listing them (ADR-0013).
fn names_in(root: &Path, folder: &str) -> Result<Vec<String>> {
    Ok(all_names_in(root, folder)?
        .split('\0')
        .filter(|n| !n.is_empty() && is_record_name(n))
        .map(str::to_string)
        .collect())
}

/// Each folder's file names, listed once for a write: `supersede` finds OLD in the listing
/// that then gives the next number (ADR-0013).
#[derive(Default)]
struct Listings(std::collections::HashMap<String, String>);

impl Listings {
    /// Every file name directly in `folder`, listed the first time it is asked for.
    fn all(&mut self, root: &Path, folder: &str) -> Result<impl Iterator<Item = &str> + '_> {
        if !self.0.contains_key(folder) {
            let names = all_names_in(root, folder)?;
            self.0.insert(folder.to_string(), names);
        }
        Ok(self
            .0
            .get(folder)
            .map(String::as_str)
            .unwrap_or_default()
            .split('\0')
            .filter(|n| !n.is_empty()))
    }

    /// The record names directly in `folder`: its record files, and each record in a folder
    /// of its own (`0013-x/README.md`, `fs::discover::is_folder_record`) by its folder's name
    /// as a file's (`0013-x.md`), so that it counts for the next number and the naming.
    fn records(&mut self, root: &Path, folder: &str) -> Result<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        let mut own: Vec<String> = Vec::new();
        for n in self.all(root, folder)? {
            if is_record_name(n) {
                out.push(n.to_string());
            } else if !n.contains('.') && numbered_folder_name(n) {
                own.push(n.to_string());
            }
        }
        for n in own {
            let as_file = format!("{n}.md");
            if !out.contains(&as_file) && own_folder_readme(root, folder, &n).is_some() {
                out.push(as_file);
            }
        }
        Ok(out)
    }

    /// Lists every folder again when next asked.
    fn forget(&mut self) {
        self.0.clear();
    }
}

/// Every file name directly in `folder`, record or not, in the directory's order, each
/// followed by a NUL (no file name holds one): one string, not a `String` a name (ADR-0013).
/// A name that is not UTF-8 is left out.
fn all_names_in(root: &Path, folder: &str) -> Result<String> {
    list_dir(&root.join(folder)).map_err(|e| refuse(format!("cannot list {folder}: {e}")))
}

/// The names `getdents` gives, read into one buffer: std's `read_dir` makes a `DirEntry` and
/// an `OsString` a name, about half the time of `supersede` on 5,000 records.
#[cfg(target_os = "linux")]
fn list_dir(dir: &Path) -> std::io::Result<String> {
    use rustix::fs::{openat, Mode, OFlags, RawDir, CWD};
    let fd = openat(
        CWD,
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut out = String::new();
    let mut entries = RawDir::new(&fd, buf.spare_capacity_mut());
    while let Some(entry) = entries.next() {
        let Ok(entry) = entry else { break };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        if let Ok(name) = std::str::from_utf8(name) {
            out.push_str(name);
            out.push('\0');
        }
    }
    Ok(out)
}

#[cfg(not(target_os = "linux"))]
fn list_dir(dir: &Path) -> std::io::Result<String> {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        if let Ok(name) = entry.file_name().into_string() {
            out.push_str(&name);
            out.push('\0');
        }
    }
    Ok(out)
}

/// The folder a new record goes to: `--folder`, else the only record folder.
fn target_folder(session: &Session, folder: Option<&str>) -> Result<String> {
    let root = session.root();
    if let Some(f) = folder {
        let rel = query_path(root, f).map_err(|reason| Error::BadPath {
            path: f.to_string(),
            reason,
        })?;
        if !root.join(&rel).is_dir() {
            return Err(refuse(format!(
                "--folder {f}: no such folder (`context-graph init --folder {f}` makes one)"
            )));
        }
        return Ok(rel);
    }
    let folders = record_folders(root, &session.options().docs)?;
    match folders.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(refuse(
            "no record folder here: `context-graph init` makes one, or name one with --folder",
        )),
        many => Err(refuse(format!(
            "several record folders ({}): name one with --folder",
            many.join(", ")
        ))),
    }
}

/// A record found by id: its path, its text as read and its parse.
struct Found {
    path: String,
    text: String,
    parsed: Head,
}

/// Refuses a root-relative path with a link on its way out of the root: nothing is read or
/// written through it (ADR-0011, ADR-0013).
fn confined(root: &Path, rel: &str) -> Result<()> {
    match crate::fs::confine::link_out_of(root, rel) {
        Some((link, target)) => Err(refuse(crate::fs::confine::refusal(&link, &target))),
        None => Ok(()),
    }
}

fn read_text(root: &Path, rel: &str) -> Result<String> {
    confined(root, rel)?;
    let bytes = crate::fs::read::read_regular(&root.join(rel))
        .map_err(|e| refuse(format!("cannot read {rel}: {e}")))?;
    String::from_utf8(bytes).map_err(|_| refuse(format!("{rel}: not UTF-8 text; edit it by hand")))
}

fn parse_file(root: &Path, rel: &str) -> Result<(String, Head)> {
    let text = read_text(root, rel)?;
    let parsed = parse_head(rel, &text, Prefix::for_folder(parent_folder(rel)));
    Ok((text, parsed))
}

/// The record `input` names (`ADR-0004`, `ADR 4`, `4`, a stem): found by its file name and
/// read alone when the name tells (the usual case), else from a scan of every record.
fn find_record(session: &Session, input: &str, listings: &mut Listings) -> Result<Found> {
    let root = session.root();
    let folders = record_folders(root, &session.options().docs)?;
    let wanted = ids::normalise_query_id(input);
    let digits = input.trim().trim_start_matches('#');
    let number: Option<u64> = match &wanted {
        Some(id) => ids::number_of(id),
        None => digits.parse().ok(),
    };
    let digits_of = number.map(|n| n.to_string());
    let mut hits: Vec<Found> = Vec::new();
    // The names directly in each record folder (one listing each, no walk): a record in a
    // folder below is found by the scan below.
    for folder in &folders {
        // The few names that may be the record, in sorted order as a walk would give them.
        let mut names: Vec<String> = listings
            .all(root, folder)?
            .filter(|name| {
                let stem = name.strip_suffix(".md").unwrap_or(name);
                digits_of
                    .as_ref()
                    .is_some_and(|d| stem.contains(d.as_str()))
                    || stem.eq_ignore_ascii_case(input.trim())
            })
            .map(str::to_string)
            .collect();
        names.sort();
        for name in names {
            let stem = name.strip_suffix(".md").unwrap_or(&name);
            // A name without a run of digits worth the number can't carry it: no regex for
            // it, and no test of whether it names a record, until it may.
            let may_carry = number.is_some_and(|n| has_number_run(stem, n));
            if !may_carry && !stem.eq_ignore_ascii_case(input.trim()) {
                continue;
            }
            if !is_record_name(&name) {
                continue;
            }
            let by_number = may_carry
                && (ids::number_in_file_name(stem).and_then(|n| n.parse::<u64>().ok()) == number
                    || naming::read_name(&name).and_then(|n| n.number) == number);
            if !(by_number || stem.eq_ignore_ascii_case(input.trim())) {
                continue;
            }
            let rel = format!("{folder}/{name}");
            let (text, parsed) = parse_file(root, &rel)?;
            let matches = match (&wanted, number) {
                (Some(id), _) => &parsed.id == id,
                (None, Some(n)) => ids::number_of(&parsed.id) == Some(n),
                (None, None) => false,
            } || parsed.id.eq_ignore_ascii_case(input.trim());
            if matches {
                hits.push(Found {
                    path: rel,
                    text,
                    parsed,
                });
            }
        }
    }
    if hits.is_empty() {
        // Not found by its name (an id from frontmatter or a heading): ask every record.
        let scan = crate::scan::scan(
            root,
            &session.options().docs,
            &crate::scan::Fresh,
            &crate::mentions::Names::default(),
        )?;
        let id = super::find_id(&scan.report.records, input)?;
        let paths: Vec<&str> = scan
            .report
            .records
            .iter()
            .filter(|r| r.id == id)
            .map(|r| r.path.as_str())
            .collect();
        for p in paths {
            let (text, parsed) = parse_file(root, p)?;
            hits.push(Found {
                path: p.to_string(),
                text,
                parsed,
            });
        }
    }
    match hits.len() {
        0 => Err(Error::UnknownRecord(input.to_string())),
        1 => Ok(hits.remove(0)),
        _ => {
            let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
            Err(refuse(format!(
                "{input}: {} records have this id ({}); fix the duplicate first",
                hits.len(),
                paths.join(", ")
            )))
        }
    }
}

/// Whether `stem` has a whole run of digits (none just before or after it) worth `n`: a
/// file name's number is such a run, so a name without one is not looked at further.
fn has_number_run(stem: &str, n: u64) -> bool {
    stem.split(|c: char| !c.is_ascii_digit())
        .any(|run| !run.is_empty() && run.parse::<u64>().ok() == Some(n))
}

/// `../x/0003-y.md`: `to` relative to the folder `from_folder`.
fn relative(from_folder: &str, to: &str) -> String {
    let from: Vec<&str> = from_folder.split('/').filter(|s| !s.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; from.len() - common];
    out.extend(&to_parts[common..]);
    out.join("/")
}

/// The text a link to a record shows: adr-tools' `3. Title` when its heading is written so,
/// else its id (a dated record's title, its id being its file's name).
fn link_text(text: &str, parsed: &Head) -> String {
    let heading = text
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|h| h.trim().to_string());
    if let (Some(h), Some(n)) = (&heading, ids::number_of(&parsed.id)) {
        if h.starts_with(&format!("{n}. ")) {
            return h.clone();
        }
    }
    if ids::number_of(&parsed.id).is_none() {
        return parsed.title.clone();
    }
    parsed.id.clone()
}

fn link_to(from_folder: &str, found: &Found) -> Link {
    Link {
        id: found.parsed.id.clone(),
        number: ids::number_of(&found.parsed.id),
        text: link_text(&found.text, &found.parsed),
        target: relative(from_folder, &found.path),
    }
}

/// The folder's own template: adr-tools' `templates/template.md`, MADR's `adr-template.md`,
/// log4brains' `template.md`, a `0000-template.md`. One that is a link out of the root is
/// refused, not copied: a clone's `template.md` linked to `~/.ssh/id_rsa` would put the key
/// in the record (ADR-0013); one that is not a regular file is never waited on.
fn folder_template(root: &Path, folder: &str) -> Result<Option<String>> {
    for t in [
        "templates/template.md",
        "adr-template.md",
        "template.md",
        "0000-template.md",
    ] {
        let rel = format!("{folder}/{t}");
        if !root.join(&rel).is_file() {
            continue;
        }
        confined(root, &rel)?;
        return Ok(crate::fs::read::read_regular(&root.join(&rel))
            .ok()
            .and_then(|b| String::from_utf8(b).ok()));
    }
    Ok(None)
}

/// A folder's exclusive lock, held while a number is chosen and its file created.
struct FolderLock {
    #[cfg(unix)]
    _fd: Option<rustix::fd::OwnedFd>,
}

fn lock_folder(dir: &Path) -> FolderLock {
    #[cfg(unix)]
    {
        use rustix::fs::{flock, FlockOperation, Mode, OFlags};
        let fd = rustix::fs::open(
            dir,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok();
        if let Some(fd) = &fd {
            let _ = flock(fd, FlockOperation::LockExclusive);
        }
        FolderLock { _fd: fd }
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        FolderLock {}
    }
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
        None => default_status(&root, &folder),
    };
    if normalise_status(&status) == Status::Unrecognised {
        return Err(refuse(format!(
            "--status {status}: not a status word this tool knows"
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
        let survey = naming::survey(listed.iter().map(String::as_str));
        let naming = survey
            .naming
            .clone()
            .unwrap_or_else(Naming::default_numbered);
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
        let mut keys = CorpusKeys::default();
        for (old, _) in &olds {
            keys.learn(&old.text);
        }
        for t in exemplar.iter().chain(&template) {
            keys.learn(t);
        }
        let numbered = naming.numbered();
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
            let edits = change::plan(&old.text, &mark, &keys)
                .map_err(|e| refuse(format!("{}: {e}", old.path)))?;
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

/// `status ID WORD`: the record's status changed in place.
pub fn set_status(
    session: &Session,
    input: &str,
    word: &str,
    force: bool,
    dry_run: bool,
) -> Result<WriteReport> {
    let root = session.root().to_path_buf();
    let status = normalise_status(word);
    match status {
        Status::Unrecognised | Status::Unknown => {
            return Err(refuse(format!(
                "{word}: not a status word this tool knows (proposed, accepted, implemented, rejected, deprecated)"
            )))
        }
        Status::Superseded => {
            return Err(refuse(format!(
                "{word}: a record is superseded by another: `context-graph supersede {input} \"Title\"` writes both"
            )))
        }
        _ => {}
    }
    let found = find_record(session, input, &mut Listings::default())?;
    if found.parsed.status == Status::Superseded && !force {
        return Err(refuse(format!(
            "{} ({}) is superseded ({}); --force to change its status",
            found.parsed.id, found.path, found.parsed.status_text
        )));
    }
    let mut keys = CorpusKeys::default();
    keys.learn(&found.text);
    let edits = change::plan(&found.text, &Mark::Status(word.trim().to_string()), &keys)
        .map_err(|e| refuse(format!("{}: {e}", found.path)))?;
    let plans = [FilePlan {
        path: found.path.clone(),
        id: found.parsed.id.clone(),
        change: Change::Edit {
            before: found.text.clone(),
            edits,
        },
    }];
    finish(&root, &plans, dry_run)
}

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
const NYGARD_INIT: &str = "# 1. Record architecture decisions\n\nDate: DATE\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records, as [described by Michael Nygard](http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions).\n\n## Consequences\n\nSee Michael Nygard's article, linked above. For a lightweight ADR toolset, see Nat Pryce's [adr-tools](https://github.com/npryce/adr-tools).\n";

/// The same decision in MADR 4's form.
const MADR_INIT: &str = "---\nstatus: accepted\ndate: DATE\n---\n\n# Record architecture decisions\n\n## Context and Problem Statement\n\nWe want to record the architectural decisions made on this project, and why they were made.\n\n## Considered Options\n\n* Markdown Architectural Decision Records (MADR)\n* No records\n\n## Decision Outcome\n\nChosen option: \"Markdown Architectural Decision Records (MADR)\", because the decisions and their reasons stay in the repository, next to the code they govern.\n\n### Consequences\n\n* Good, because a newcomer can read why the code is as it is.\n* Bad, because each decision takes a record to write.\n";

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
