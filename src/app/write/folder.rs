//! What a write reads of its folder (ADR-0013): the folder asked for, its names listed under
//! its lock, the record an id names, the links between records, the folder's template, and
//! nothing through a link out of the root.

use super::*;

/// Today, UTC, `YYYY-MM-DD`.
pub(super) fn today() -> String {
    crate::text::date::utc_date(crate::util::now_ns().div_euclid(1_000_000_000))
}

pub(super) fn check_date(date: Option<&str>) -> Result<String> {
    match date {
        None => Ok(today()),
        Some(d) if crate::text::date::parse_date(d).is_some() && d.len() == 10 => Ok(d.to_string()),
        Some(d) => Err(refuse(format!("--date {d}: not a date (YYYY-MM-DD)"))),
    }
}

/// The `README.md` or `index.md` (any case) of a record in a folder of its own,
/// `{folder}/{name}/`, when there is one, root-relative.
pub(super) fn own_folder_readme(root: &Path, folder: &str, name: &str) -> Option<String> {
    crate::fs::discover::OWN_FOLDER_PAGES
        .iter()
        .map(|r| format!("{folder}/{name}/{r}"))
        .find(|rel| root.join(rel).is_file())
}

/// The file of a record named `name` in a listing of `folder` ([`Listings::records`]): the
/// file itself, or the `README.md` of the folder the name stands for.
pub(super) fn listed_file(root: &Path, folder: &str, name: &str) -> String {
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
pub(super) fn names_in(root: &Path, folder: &str) -> Result<Vec<String>> {
    Ok(all_names_in(root, folder)?
        .split('\0')
        .filter(|n| !n.is_empty() && is_record_name(n))
        .map(str::to_string)
        .collect())
}

/// Each folder's file names, listed once for a write: `supersede` finds OLD in the listing
/// that then gives the next number (ADR-0013).
#[derive(Default)]
pub(super) struct Listings(std::collections::HashMap<String, String>);

impl Listings {
    /// Every file name directly in `folder`, listed the first time it is asked for.
    pub(super) fn all(
        &mut self,
        root: &Path,
        folder: &str,
    ) -> Result<impl Iterator<Item = &str> + '_> {
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
    pub(super) fn records(&mut self, root: &Path, folder: &str) -> Result<Vec<String>> {
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
    pub(super) fn forget(&mut self) {
        self.0.clear();
    }
}

/// Every file name directly in `folder`, record or not, in the directory's order, each
/// followed by a NUL (no file name holds one): one string, not a `String` a name (ADR-0013).
/// A name that is not UTF-8 is left out.
pub(super) fn all_names_in(root: &Path, folder: &str) -> Result<String> {
    list_dir(&root.join(folder)).map_err(|e| refuse(format!("cannot list {folder}: {e}")))
}

/// The names `getdents` gives, read into one buffer: std's `read_dir` makes a `DirEntry` and
/// an `OsString` a name, about half the time of `supersede` on 5,000 records.
#[cfg(target_os = "linux")]
pub(super) fn list_dir(dir: &Path) -> std::io::Result<String> {
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
pub(super) fn list_dir(dir: &Path) -> std::io::Result<String> {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        if let Ok(name) = entry.file_name().into_string() {
            out.push_str(&name);
            out.push('\0');
        }
    }
    Ok(out)
}

/// The folder a new record goes to: `--folder`, else the only record folder, else the one the
/// repository's own tool writes to (`.adr-dir`, log4brains' project `adrFolder`).
pub(super) fn target_folder(session: &Session, folder: Option<&str>) -> Result<String> {
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
        many => match crate::fs::tools::main_folder(root).filter(|m| many.contains(m)) {
            Some(main) => Ok(main),
            None => Err(refuse(format!(
                "several record folders ({}): name one with --folder",
                many.join(", ")
            ))),
        },
    }
}

/// A record found by id: its path, its text as read and its parse.
pub(super) struct Found {
    pub(super) path: String,
    pub(super) text: String,
    pub(super) parsed: Head,
}

/// Refuses a root-relative path with a link on its way out of the root: nothing is read or
/// written through it (ADR-0011, ADR-0013).
pub(super) fn confined(root: &Path, rel: &str) -> Result<()> {
    match crate::fs::confine::link_out_of(root, rel) {
        Some((link, target)) => Err(refuse(crate::fs::confine::refusal(&link, &target))),
        None => Ok(()),
    }
}

pub(super) fn read_text(root: &Path, rel: &str) -> Result<String> {
    confined(root, rel)?;
    let bytes = crate::fs::read::read_regular(&root.join(rel))
        .map_err(|e| refuse(format!("cannot read {rel}: {e}")))?;
    String::from_utf8(bytes).map_err(|_| refuse(format!("{rel}: not UTF-8 text; edit it by hand")))
}

pub(super) fn parse_file(root: &Path, rel: &str) -> Result<(String, Head)> {
    let text = read_text(root, rel)?;
    let parsed = parse_head(rel, &text, Prefix::for_record(rel));
    Ok((text, parsed))
}

/// The record `input` names (`ADR-0004`, `ADR 4`, `4`, a stem): found by its file name and
/// read alone when the name tells (the usual case), else from a scan of every record.
pub(super) fn find_record(
    session: &Session,
    input: &str,
    listings: &mut Listings,
) -> Result<Found> {
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
                let stem = file_stem(name);
                digits_of
                    .as_ref()
                    .is_some_and(|d| stem.contains(d.as_str()))
                    || stem.eq_ignore_ascii_case(input.trim())
            })
            .map(str::to_string)
            .collect();
        names.sort();
        for name in names {
            let stem = file_stem(&name);
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
        let id = crate::app::find_id(&scan.report.records, input)?;
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
pub(super) fn has_number_run(stem: &str, n: u64) -> bool {
    stem.split(|c: char| !c.is_ascii_digit())
        .any(|run| !run.is_empty() && run.parse::<u64>().ok() == Some(n))
}

/// `../x/0003-y.md`: `to` relative to the folder `from_folder`.
pub(super) fn relative(from_folder: &str, to: &str) -> String {
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
/// else its id (a dated record's is its file's name: log4brains' slug).
pub(super) fn link_text(text: &str, parsed: &Head) -> String {
    let heading = text
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|h| h.trim().to_string());
    if let (Some(h), Some(n)) = (&heading, ids::number_of(&parsed.id)) {
        if h.starts_with(&format!("{n}. ")) {
            return h.clone();
        }
    }
    // Else the id: a dated record's is its file's name, the slug log4brains links by.
    parsed.id.clone()
}

pub(super) fn link_to(from_folder: &str, found: &Found) -> Link {
    let mut text = link_text(&found.text, &found.parsed);
    // An id shown with its file name's digits, as the folder writes it (`[ADR-011](011-x.md)`,
    // DependencyTrack's; issue 39).
    let digits: String = file_stem(&found.path)
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let number = ids::number_of(&found.parsed.id);
    if text == found.parsed.id && !digits.is_empty() && digits.parse::<u64>().ok() == number {
        if let Some(at) = text.find(|c: char| c.is_ascii_digit()) {
            text = format!("{}{digits}", &text[..at]);
        }
    }
    Link {
        id: found.parsed.id.clone(),
        number,
        text,
        target: link_path(&relative(from_folder, &found.path)),
    }
}

/// A path written as a Markdown link's target: a `#` is escaped (`%23`), or it would start a
/// fragment, as are a space, a parenthesis and `%` itself (`0024-use-#-as-x.md`; issue 36).
pub(super) fn link_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            _ => out.push(c),
        }
    }
    out
}

/// The folder's own template: adr-tools' `templates/template.md`, MADR's `adr-template.md`,
/// log4brains' `template.md`, a `0000-template.md` or one numbered with as many zeros as the
/// folder's records have digits (`000-template.md`, DependencyTrack's; issue 39). One that is
/// a link out of the root is refused, not copied: a clone's `template.md` linked to `~/.ssh/id_rsa` would put the key
/// in the record (ADR-0013); one that is not a regular file is never waited on.
pub(super) fn folder_template(root: &Path, folder: &str) -> Result<Option<String>> {
    let names = [
        "templates/template.md",
        "adr-template.md",
        "template.md",
        "0000-template.md",
        "000-template.md",
        "00000-template.md",
        "00-template.md",
    ];
    for t in names {
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
pub(super) struct FolderLock {
    #[cfg(unix)]
    _fd: Option<rustix::fd::OwnedFd>,
}

pub(super) fn lock_folder(dir: &Path) -> FolderLock {
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

/// What a record governs, read from its file alone (no scan: `supersede` stays a few file
/// reads, ADR-0013): its declared patterns (frontmatter `governs`/`affects`), else the paths
/// its prose names that are there, outside the record folders, and not named in passing or as
/// where a part is configured (docs/scope.md). A folder ends with `/`. For `supersede
/// --keep-scope` (issue 39).
pub(super) fn scope_of(root: &Path, found: &Found, folders: &[String]) -> Vec<String> {
    // No code span, link or scope key: nothing to carry, and no full parse to pay for.
    let t = &found.text;
    if !t.contains('`') && !t.contains("](") && !t.contains("governs") && !t.contains("affects") {
        return Vec::new();
    }
    let p = crate::parse::parse_text(&found.path, &found.text, Prefix::for_record(&found.path));
    if let Some(patterns) = p.declared {
        return patterns;
    }
    let mut out: Vec<String> = Vec::new();
    let targets = p.links.iter().filter_map(|l| match l {
        crate::parse::Ref::Link { target, .. } => Some(target.clone()),
        _ => None,
    });
    for c in p.code_paths.iter().cloned().chain(targets) {
        let bare = c.trim_start_matches('/').trim_end_matches('/').to_string();
        let passing = p
            .prose_paths
            .iter()
            .any(|n| n.passing.is_some() && n.path == bare);
        let in_records = folders
            .iter()
            .any(|f| bare == *f || bare.starts_with(&format!("{f}/")));
        if bare.is_empty() || passing || in_records || p.host_paths.contains(&bare) {
            continue;
        }
        if confined(root, &bare).is_err() {
            continue;
        }
        let full = root.join(&bare);
        let entry = if full.is_dir() {
            format!("{bare}/")
        } else if full.is_file() {
            bare
        } else {
            continue;
        };
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}
