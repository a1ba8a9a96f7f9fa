//! What a scan depended on besides the parsed files, stamped: the record folders and the
//! files listed in them, the guide walk and the guides, and every answer the file system gave
//! the graph. While all of it holds, a scan now would make the same report (ADR-0006).

use crate::fs::discover;
use crate::fs::fingerprint::{Content, RootDir, Stamp};
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
    /// Whether every stamp is there: only then can it be told later that nothing changed.
    pub fn complete(&self) -> bool {
        let stamped = |list: &[(Found, Option<Stamp>)]| list.iter().all(|(_, s)| s.is_some());
        stamped(&self.files)
            && stamped(&self.guides)
            && self.record_dirs.iter().all(|(_, s)| s.is_some())
    }

    /// Whether a scan of the root `dir` is opened at, with the same `--docs`, would come out
    /// the same: the same record folders, each folder listed as it was (so the same files in
    /// it), every record and guide file as it was, the same guide walk, and the same answers
    /// from the file system.
    pub fn still_holds(&self, dir: &RootDir) -> bool {
        if !self.complete() {
            return false;
        }
        let root = dir.root();
        match discover::record_folders(root, &self.docs) {
            Ok(folders) if folders == self.folders => {}
            _ => return false,
        }
        let holds = |rel: &str, stamp: &Option<Stamp>, content: Content| {
            stamp.as_ref().is_some_and(|then| {
                dir.fingerprint(rel)
                    .is_some_and(|now| then.holds(dir, rel, content, &now, self.started_ns))
            })
        };
        let files_hold = |list: &[(Found, Option<Stamp>)]| {
            list.iter()
                .all(|(f, stamp)| holds(&f.rel, stamp, Content::File))
        };
        if !self
            .record_dirs
            .iter()
            .all(|(d, stamp)| holds(d, stamp, Content::Folder))
            || !files_hold(&self.files)
            || !self.walk.still_holds(dir)
            || self.walk.files.len() != self.guides.len()
            || !self
                .walk
                .files
                .iter()
                .zip(&self.guides)
                .all(|(a, (b, _))| a == b)
            || !files_hold(&self.guides)
        {
            return false;
        }
        // The walk's folders were just found unchanged: a folder among them is still one.
        let same_dirs: std::collections::HashSet<&str> =
            self.walk.dirs.iter().map(|(d, _)| d.as_str()).collect();
        self.observed
            .still_holds(root, &same_dirs, Some(super::not_checked_out(root)))
    }
}
