//! The index brought up to date for a session (ADR-0006, ADR-0011): `index`, `index
//! --rebuild`, the hooks' refresh and `index --status`, each run again once when it met damage
//! the checks missed.

use super::*;

impl Session {
    /// `index` (and `index --rebuild`): brings every part of the index up to date.
    pub fn index_update(&mut self, rebuild: bool, progress: Progress) -> Result<IndexSummary> {
        // Another process may put a new file in place while this one reads the old (a first
        // build racing another, `index --rebuild` beside it): nothing was mixed, so the update
        // starts again on the file now there, which is complete (ADR-0011).
        let mut tries = 0;
        let (_, path) = self.index_of()?;
        loop {
            match undamaged(&path, || self.index_update_once(rebuild, progress)) {
                Err(Error::Index(index::IndexError::Replaced(_))) if tries < 3 => tries += 1,
                done => return done,
            }
        }
    }

    pub(super) fn index_update_once(
        &mut self,
        rebuild: bool,
        progress: Progress,
    ) -> Result<IndexSummary> {
        self.keep_table = true;
        let (repo, path) = self.index_of()?;
        let mode = if rebuild {
            index::Mode::Rebuild
        } else {
            index::Mode::Update
        };
        let mut idx = Index::open(repo, path, self.opts.index_wait, mode)?;
        let history = idx.repo.head.is_some().then_some(progress);
        idx.markers(&self.root, "")?;
        if idx.repo.head.is_some() {
            idx.staged_markers()?;
        }
        // `index` writes pending commits into redb.
        let (scanned, commits_added, mut rescanned) = self.scan_with(
            &mut idx,
            history,
            true,
            &Ask::Check,
            None,
            &mut Markers::default,
        )?;
        if let Some(p) = idx.take_pending_write() {
            if let Err(note) = p.write() {
                idx.diagnostics.push(note);
            }
        }
        // Files written within a moment of the scan cannot vouch for themselves by their
        // content yet (`fs::fingerprint::DIGEST_MARGIN_NS`): scanned again a moment later, so
        // that `index --status` right after says fresh (docs/indexing.md, ADR-0011).
        let mut scanned = scanned;
        for _ in 0..3 {
            if !rescanned || idx.memo_holds(&Scope::new(&self.root, &self.opts.docs))? {
                break;
            }
            std::thread::sleep(SETTLE);
            (scanned, _, rescanned) = self.scan_with(
                &mut idx,
                None,
                true,
                &Ask::Check,
                None,
                &mut Markers::default,
            )?;
        }
        idx.finish()?;
        let records = match scanned {
            Ok((report, _)) => report.records.len(),
            Err(e) if e.is_no_records() => 0,
            Err(e) => return Err(e),
        };
        Ok(IndexSummary {
            path: idx.path.display().to_string(),
            records,
            commits_added,
            head: idx.repo.head.map(|h| git::sha_hex(&h)),
            diagnostics: self
                .config_warnings()
                .into_iter()
                .chain(idx.diagnostics.iter().cloned())
                .collect(),
        })
    }

    /// The refresh hooks' update (ADR-0008): every part of the index brought up to date as
    /// `index` does, except that a few new commits stay in the pending file, as a query leaves
    /// them (a commit costs a file rename, not a redb write session), and the markers are kept
    /// as they are read (ADR-0009). Returns whether a scan ran (the scan memo did not hold):
    /// only a scan's stamps can be too recent to hold in turn.
    pub fn refresh(&mut self) -> Result<bool> {
        let (_, path) = self.index_of()?;
        undamaged(&path, || self.refresh_once())
    }

    pub(super) fn refresh_once(&mut self) -> Result<bool> {
        self.keep_table = true;
        let (repo, path) = self.index_of()?;
        let mut idx = Index::open(repo, path, self.opts.index_wait, index::Mode::Update)?;
        let history = idx.repo.head.is_some().then_some(None);
        let (scanned, _, rescanned) = self.scan_with(
            &mut idx,
            history,
            false,
            &Ask::Check,
            None,
            &mut Markers::default,
        )?;
        if let Some(p) = idx.take_pending_write() {
            // Not written: the next query walks those commits again.
            let _ = p.write();
        }
        idx.finish()?;
        match scanned {
            Err(e) if !e.is_no_records() => Err(e),
            _ => Ok(rescanned),
        }
    }

    /// `index --status`: reports, never updates.
    /// A hook's refresh still running is waited for (at most [`index::inflight::STALE`]):
    /// right after a git operation the index is reported as its hook leaves it (ADR-0008).
    pub fn index_status(&mut self) -> Result<IndexStatus> {
        let (repo, path) = self.index_of()?;
        index::inflight::wait(&repo, index::inflight::STALE);
        let nothing = IndexStatus {
            path: path.display().to_string(),
            schema_version: index::schema::SCHEMA_VERSION,
            head: repo.head.map(|h| git::sha_hex(&h)),
            indexed_head: None,
            fresh: false,
            records: 0,
            commits: 0,
            paths: 0,
        };
        if !path.exists() {
            return Ok(nothing);
        }
        // A file that cannot be read (damaged, truncated) is reported as holding nothing, not
        // fresh: the next query rebuilds it (ADR-0011). A newer schema is refused.
        let status = index::catch_damage(None, || {
            let mut idx = Index::open(repo, path, self.opts.index_wait, index::Mode::Status)?;
            idx.status(&self.root, &self.opts.docs)
        });
        match status {
            Some(Ok(status)) => Ok(status),
            Some(Err(e @ (index::IndexError::Newer { .. } | index::IndexError::Busy(_)))) => {
                Err(e.into())
            }
            Some(Err(_)) | None => Ok(nothing),
        }
    }
}

/// Runs `f`, an update of the index at `path`, again when it met damage the checks missed
/// (a value failing its checksum, a page redb panics on): [`index::catch_damage`] dropped the
/// file, so the next run builds it anew (ADR-0011). Twice at most; then the file is unusable.
fn undamaged<T>(path: &Path, mut f: impl FnMut() -> Result<T>) -> Result<T> {
    for _ in 0..3 {
        if let Some(done) = index::catch_damage(Some(path), &mut f) {
            return done;
        }
    }
    Err(Error::Index(index::IndexError::Unusable {
        path: path.to_path_buf(),
        reason: "the file is damaged".into(),
    }))
}
