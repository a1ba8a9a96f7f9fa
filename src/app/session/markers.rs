//! The markers a question needs (ADR-0009): which files' markers an answer asks for, those
//! under a path read from the index on a thread of their own, every source file's for the
//! hooks and `review`, and the markers a question found.

use super::Session;
use crate::app::error::Result;
use crate::app::Ask;
use crate::index::{self, Index};
use crate::model::Report;
use crate::scan;
use crate::text::marker::Markers;

impl Session {
    /// Which source files' markers `ask` needs for its decisions and findings: for `why PATH`,
    /// those in PATH; for the full check and `record`, every file's. Returns (PATH, every
    /// file). Drift, with `--git`, counts what git's index declares instead.
    pub(super) fn marker_needs<'a>(
        &self,
        ask: &Ask,
        why_path: Option<&'a str>,
    ) -> (Option<&'a str>, bool) {
        match ask {
            Ask::Why(_) => (Some(why_path.unwrap_or("")), false),
            _ => (None, true),
        }
    }

    /// The markers under `within` from the index: a folder's served by blob id (and kept,
    /// for the whole root); a single file is only read. Read on a thread of its own, but for
    /// the whole root, which the index keeps after.
    pub(super) fn markers_started(&self, idx: &mut Index, within: &str) -> Result<LocalMarkers> {
        if within.is_empty() {
            return Ok(LocalMarkers::Ready(Box::new(
                idx.markers(&self.root, within)?,
            )));
        }
        let (root, repo, within) = (self.root.clone(), idx.repo.clone(), within.to_string());
        let stored = match root.join(&within).is_dir() {
            true => Some(idx.stored_markers_for(&within)?),
            false => None,
        };
        Ok(LocalMarkers::Running(std::thread::spawn(move || {
            let cache: &dyn scan::MarkerCache = match &stored {
                Some(stored) => stored,
                None => &scan::NoCache,
            };
            scan::scan_markers(&root, Some(&repo), &within, cache)
        })))
    }

    /// The markers of every source file under the root (docs/markers.md, ADR-0009): from the
    /// index brought up to date, or read afresh with `--no-index`, outside git, or when the
    /// index can't be used. For the hooks and `review`: with [`Markers::declared`], the files
    /// declaring each record.
    pub fn source_markers(&mut self) -> Result<Markers> {
        let repo = self.repo_now()?;
        if let (Some(repo), false) = (&repo, self.opts.no_index) {
            let path = index::path_for(repo);
            let opened = Index::open(
                repo.clone(),
                path.clone(),
                self.opts.index_wait,
                index::Mode::Update,
            );
            let found = index::catch_damage(Some(&path), || {
                opened.and_then(|mut idx| {
                    let found = idx.markers(&self.root, "")?;
                    idx.finish()?; // a first build is put in place (ADR-0006)
                    Ok(found)
                })
            });
            if let Some(Ok(found)) = found {
                return Ok(found.markers);
            }
        }
        Ok(scan::scan_markers(&self.root, repo.as_ref(), "", &scan::NoCache).markers)
    }
}

/// The markers a question found: those in PATH for `why PATH`, every file's when it needed
/// them.
pub(super) struct Found {
    pub(super) local: Option<scan::MarkerScan>,
    pub(super) global: Option<scan::MarkerScan>,
}

impl Found {
    /// The markers the question's findings are about: PATH's for `why`, else every file's.
    pub(super) fn about(&self) -> &Markers {
        self.local
            .as_ref()
            .or(self.global.as_ref())
            .map(|f| &f.markers)
            .unwrap_or(&NO_MARKERS)
    }

    /// Why git's index could not be read, once.
    pub(super) fn add_notes(&self, report: &mut Report) {
        let note = self
            .local
            .iter()
            .chain(&self.global)
            .find_map(|f| f.note.clone());
        report.notes.extend(note);
    }
}

static NO_MARKERS: Markers = Markers { files: Vec::new() };

/// The markers of the path asked about: read, or being read on a thread of their own.
pub(super) enum LocalMarkers {
    Ready(Box<scan::MarkerScan>),
    Running(std::thread::JoinHandle<scan::MarkerScan>),
}

impl LocalMarkers {
    /// The scan, waited for the first time it is asked for.
    pub(super) fn scan(&mut self) -> &scan::MarkerScan {
        if let LocalMarkers::Running(_) = self {
            let LocalMarkers::Running(handle) =
                std::mem::replace(self, LocalMarkers::Ready(Box::default()))
            else {
                unreachable!("matched just above")
            };
            *self = LocalMarkers::Ready(Box::new(handle.join().expect("the marker scan panicked")));
        }
        match self {
            LocalMarkers::Ready(scan) => scan,
            LocalMarkers::Running(_) => unreachable!("waited for just above"),
        }
    }

    pub(super) fn into_scan(mut self) -> scan::MarkerScan {
        self.scan();
        match self {
            LocalMarkers::Ready(scan) => *scan,
            LocalMarkers::Running(_) => unreachable!("waited for by scan()"),
        }
    }
}
