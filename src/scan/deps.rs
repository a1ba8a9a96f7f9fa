//! What a scan depended on besides the parsed files, stamped: the record folders and the
//! files listed in them, the guide walk and the guides, and every answer the file system gave
//! the graph. While all of it holds, a scan now would make the same report (ADR-0006).
//!
//! A memo keeps only the part of the guide walk that a warm answer checks: the folders that
//! hold a guide and the ignore files, not every folder of the tree; the set of paths git's
//! index tracks stands for the rest (ADR-0016).

use crate::fs::discover;
use crate::fs::fingerprint::{settled, Content, RootDir, Stamp};
use crate::fs::tree::Observed;
use crate::fs::walk::WalkStamp;
use crate::fs::Found;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deps {
    /// When the scan began (ns since the epoch), before it listed or read anything: every
    /// stamp is judged settled or not against it.
    pub started_ns: i64,
    /// The `--docs` it was given.
    pub docs: Vec<String>,
    /// The record folders found.
    pub folders: Vec<String>,
    /// Every folder listed for records, stamped after the listing (a folder changed meanwhile
    /// is never settled): while they hold, the listing would be the same.
    pub record_dirs: Vec<(String, Option<Stamp>)>,
    /// Each record file, stamped from before it was read (`None`: it could not be read).
    pub files: Vec<(Found, Option<Stamp>)>,
    pub walk: WalkStamp,
    /// Each guide file, likewise.
    pub guides: Vec<(Found, Option<Stamp>)>,
    pub observed: Observed,
}

impl Deps {
    /// These deps as a memo keeps them (ADR-0016): of the guide walk's folders, only those
    /// holding a guide (a new file there changes their times), so checking the memo costs a
    /// stat per record, guide, record folder, guide folder and ignore file, not one per folder
    /// of the tree. A guide appearing in another folder is the tracked paths' to tell (git's
    /// index), or the next scan's.
    pub fn for_memo(&self) -> Deps {
        let holding: std::collections::HashSet<&str> = self
            .walk
            .files
            .iter()
            .map(|f| f.rel.rsplit_once('/').map_or("", |(dir, _)| dir))
            .collect();
        let mut deps = self.clone();
        deps.walk.dirs.retain(|(d, _)| holding.contains(d.as_str()));
        deps
    }

    /// These deps found holding by a check begun at `checked_ns`, stamped as of then: every
    /// stamp that is settled by then loses its digest (its content was just found the same, and
    /// a change from now on gives it another time), so the next check stats it and reads
    /// nothing. `None` when no stamp would change: a stamp kept with a digest is read on every
    /// check until it is settled and stored so.
    pub fn settled_at(&self, checked_ns: i64) -> Option<Deps> {
        // A stamp read by its digest at each check (not settled when stored) that is settled now.
        let newly = |s: &Option<Stamp>, base: i64| {
            s.as_ref()
                .is_some_and(|s| !settled(&s.fp, base) && settled(&s.fp, checked_ns))
        };
        let (base, walked) = (self.started_ns, self.walk.started_ns);
        let any = self.record_dirs.iter().any(|(_, s)| newly(s, base))
            || self.files.iter().any(|(_, s)| newly(s, base))
            || self.guides.iter().any(|(_, s)| newly(s, base))
            || self.walk.dirs.iter().any(|(_, s)| newly(s, walked))
            || self.walk.ignores.iter().any(|(_, s)| newly(s, walked));
        if !any || checked_ns < base.max(walked) {
            return None;
        }
        let restamp = |s: &mut Option<Stamp>| {
            if let Some(s) = s {
                if settled(&s.fp, checked_ns) {
                    s.digest = None;
                }
            }
        };
        let mut deps = self.clone();
        deps.started_ns = checked_ns;
        deps.walk.started_ns = checked_ns;
        deps.record_dirs.iter_mut().for_each(|(_, s)| restamp(s));
        deps.files.iter_mut().for_each(|(_, s)| restamp(s));
        deps.guides.iter_mut().for_each(|(_, s)| restamp(s));
        deps.walk.dirs.iter_mut().for_each(|(_, s)| restamp(s));
        deps.walk.ignores.iter_mut().for_each(|(_, s)| restamp(s));
        Some(deps)
    }

    /// Whether every stamp is there: only then can it be told later that nothing changed.
    pub fn complete(&self) -> bool {
        let stamped = |list: &[(Found, Option<Stamp>)]| list.iter().all(|(_, s)| s.is_some());
        stamped(&self.files)
            && stamped(&self.guides)
            && self.record_dirs.iter().all(|(_, s)| s.is_some())
    }

    /// Only the part of these deps that the records depend on (ADR-0018): the record folders
    /// and the files listed in them; no guide walk, no guides, no answers of the file system.
    pub fn records_only(&self) -> Deps {
        Deps {
            started_ns: self.started_ns,
            docs: self.docs.clone(),
            folders: self.folders.clone(),
            record_dirs: self.record_dirs.clone(),
            files: self.files.clone(),
            walk: WalkStamp {
                started_ns: self.walk.started_ns,
                dirs: Vec::new(),
                ignores: Vec::new(),
                files: Vec::new(),
            },
            guides: Vec::new(),
            observed: Observed::default(),
        }
    }

    /// Whether a scan of the root `dir` is opened at, with the same `--docs`, would read the
    /// same records: the same record folders, each listed as it was (so the same files in it),
    /// every record file as it was. The first part of [`Deps::still_holds`]; alone, it is what
    /// the commit hook's table of governed entries depends on (ADR-0018).
    pub fn records_hold(&self, dir: &RootDir) -> bool {
        if !self.complete() {
            return false;
        }
        match discover::record_folders(dir.root(), &self.docs) {
            Ok(folders) if folders == self.folders => {}
            _ => return false,
        }
        self.record_dirs
            .iter()
            .all(|(d, stamp)| self.holds(dir, d, stamp, Content::Folder))
            && self.files_hold(dir, &self.files)
    }

    /// Whether the file or folder `rel` is as `stamp` says it was.
    fn holds(&self, dir: &RootDir, rel: &str, stamp: &Option<Stamp>, content: Content) -> bool {
        stamp.as_ref().is_some_and(|then| {
            dir.fingerprint(rel)
                .is_some_and(|now| then.holds(dir, rel, content, &now, self.started_ns))
        })
    }

    /// Whether every file of `list` is as its stamp says it was.
    fn files_hold(&self, dir: &RootDir, list: &[(Found, Option<Stamp>)]) -> bool {
        list.iter()
            .all(|(f, stamp)| self.holds(dir, &f.rel, stamp, Content::File))
    }

    /// Whether a scan of the root `dir` is opened at, with the same `--docs`, would come out
    /// the same: the same record folders, each folder listed as it was (so the same files in
    /// it), every record and guide file as it was, the same guide walk, and the same answers
    /// from the file system.
    pub fn still_holds(&self, dir: &RootDir) -> bool {
        if !self.records_hold(dir) {
            return false;
        }
        let root = dir.root();
        if !self.walk.still_holds(dir)
            || self.walk.files.len() != self.guides.len()
            || !self
                .walk
                .files
                .iter()
                .zip(&self.guides)
                .all(|(a, (b, _))| a == b)
            || !self.files_hold(dir, &self.guides)
        {
            return false;
        }
        // The walk's folders were just found unchanged: a folder among them is still one.
        let same_dirs: std::collections::HashSet<&str> =
            self.walk.dirs.iter().map(|(d, _)| d.as_str()).collect();
        // The ignore files were found unchanged with the walk above.
        self.observed
            .still_holds(root, &same_dirs, Some(super::not_checked_out(root)), true)
    }
}
