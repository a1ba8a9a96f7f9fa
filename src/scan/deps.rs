//! What a scan depended on besides the parsed files, stamped: the record folders and the
//! files listed in them, the guide walk and the guides, and every answer the file system gave
//! the graph. While all of it holds, a scan now would make the same report (ADR-0006).
//!
//! A memo keeps only the part of the guide walk that a warm answer checks: the folders that
//! hold a guide and the ignore files, not every folder of the tree; the set of paths git's
//! index tracks stands for the rest (ADR-0016).

use crate::fs::discover;
use crate::fs::fingerprint::{settled, Content, Entry, Fingerprint, RootDir, Stamp};
use crate::fs::tree::{Kind, Observed};
use crate::fs::walk::WalkStamp;
use crate::fs::Found;
use serde::{Deserialize, Serialize};

/// `S`: the strings, owned, or borrowed from a stored memo (`&str`): a warm answer checks a
/// memo without making a string of it (issue 41).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deps<S = String> {
    /// When the scan began (ns since the epoch), before it listed or read anything: every
    /// stamp is judged settled or not against it.
    pub started_ns: i64,
    /// The `--docs` it was given.
    pub docs: Vec<S>,
    /// The record folders found.
    pub folders: Vec<S>,
    /// Every folder listed for records, stamped after the listing (a folder changed meanwhile
    /// is never settled): while they hold, the listing would be the same.
    pub record_dirs: Vec<(S, Option<Stamp>)>,
    /// Each record file, stamped from before it was read (`None`: it could not be read).
    pub files: Vec<(Found<S>, Option<Stamp>)>,
    pub walk: WalkStamp<S>,
    /// Each guide file, likewise.
    pub guides: Vec<(Found<S>, Option<Stamp>)>,
    pub observed: Observed<S>,
}

/// From how many stats (record files, guides, folders, ignore files and named paths no
/// folder vouched for) a memo's check shares them with a second thread
/// ([`Deps::still_holds_knowing`]): below it, a thread costs more than it saves.
const PARALLEL_STATS: usize = 300;

/// What the strings of [`Deps`] may be.
pub trait Text: AsRef<str> + Clone + Ord + Default + Sync {}
impl<S: AsRef<str> + Clone + Ord + Default + Sync> Text for S {}

impl<S: Text> Deps<S> {
    /// These deps as a memo keeps them (ADR-0016): of the guide walk's folders, only those
    /// holding a guide (a new file there changes their times), so checking the memo costs a
    /// stat per record, guide, record folder, guide folder and ignore file, not one per folder
    /// of the tree. A guide appearing in another folder is the tracked paths' to tell (git's
    /// index), or the next scan's.
    pub fn for_memo(&self) -> Deps<S> {
        let holding: std::collections::HashSet<&str> = self
            .walk
            .files
            .iter()
            .map(|f| f.rel.as_ref().rsplit_once('/').map_or("", |(dir, _)| dir))
            .collect();
        let mut deps = self.clone();
        deps.walk.dirs.retain(|(d, _)| holding.contains(d.as_ref()));
        deps
    }

    /// These deps found holding by a check begun at `checked_ns`, stamped as of then: every
    /// stamp that is settled by then loses its digest (its content was just found the same, and
    /// a change from now on gives it another time), so the next check stats it and reads
    /// nothing. `None` when no stamp would change: a stamp kept with a digest is read on every
    /// check until it is settled and stored so.
    pub fn settled_at(&self, checked_ns: i64) -> Option<Deps<S>> {
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
        let stamped = |list: &[(Found<S>, Option<Stamp>)]| list.iter().all(|(_, s)| s.is_some());
        stamped(&self.files)
            && stamped(&self.guides)
            && self.record_dirs.iter().all(|(_, s)| s.is_some())
    }

    /// Only the part of these deps that the records depend on (ADR-0018): the record folders
    /// and the files listed in them; no guide walk, no guides, no answers of the file system.
    pub fn records_only(&self) -> Deps<S> {
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
        self.record_folders_hold(dir) && self.files_hold(dir, &self.files)
    }

    /// The part of [`Deps::records_hold`] before the record files: the same record folders,
    /// each listed as it was.
    fn record_folders_hold(&self, dir: &RootDir) -> bool {
        if !self.complete() {
            return false;
        }
        let docs: Vec<String> = self.docs.iter().map(|d| d.as_ref().to_string()).collect();
        match discover::record_folders(dir.root(), &docs) {
            Ok(folders) if same_strings(&folders, &self.folders) => {}
            _ => return false,
        }
        self.record_dirs
            .iter()
            .all(|(d, stamp)| self.holds(dir, d.as_ref(), stamp, Content::Folder))
    }

    /// Whether the file or folder `rel` is as `stamp` says it was.
    fn holds(&self, dir: &RootDir, rel: &str, stamp: &Option<Stamp>, content: Content) -> bool {
        stamp.as_ref().is_some_and(|then| {
            dir.fingerprint(rel)
                .is_some_and(|now| then.holds(dir, rel, content, &now, self.started_ns))
        })
    }

    /// Whether every file of `list` is as its stamp says it was.
    fn files_hold(&self, dir: &RootDir, list: &[(Found<S>, Option<Stamp>)]) -> bool {
        self.stamps_hold(dir, list.iter())
    }

    /// [`Deps::files_hold`] of the files `list` yields.
    fn stamps_hold<'a>(
        &self,
        dir: &RootDir,
        mut list: impl Iterator<Item = &'a (Found<S>, Option<Stamp>)>,
    ) -> bool
    where
        S: 'a,
    {
        list.all(|(f, stamp)| self.holds(dir, f.rel.as_ref(), stamp, Content::File))
    }

    /// Whether a scan of the root `dir` is opened at, with the same `--docs`, would come out
    /// the same: the same record folders, each folder listed as it was (so the same files in
    /// it), every record and guide file as it was, the same guide walk, and the same answers
    /// from the file system.
    pub fn still_holds(&self, dir: &RootDir) -> bool {
        self.still_holds_knowing(dir, &[], false)
    }

    /// [`Deps::still_holds`], the named paths whose index in `observed.kinds` `known` marks
    /// true known to hold already ([`Parents::check`]); `same_index`: git's index is the very
    /// one the scan read (its checksum), so what it says of a path is what it said then.
    pub fn still_holds_knowing(&self, dir: &RootDir, known: &[bool], same_index: bool) -> bool {
        if self.walk.files.len() != self.guides.len()
            || !self
                .walk
                .files
                .iter()
                .zip(&self.guides)
                .all(|(a, (b, _))| a == b)
        {
            return false;
        }
        // The stats shared out between this thread and a second one when there are many: a
        // stat is the kernel's work, and on two cores each half takes about half the time
        // (issue 41). The second takes the record folders and as many of the record files and
        // guides as make about half; this one the other files, the guide walk's folders and
        // ignore files, and the named paths no folder vouched for.
        let vouched = known.iter().filter(|k| **k).count();
        let unknown = self.observed.kinds.len().saturating_sub(vouched);
        let rest = self.walk.dirs.len() + self.walk.ignores.len() + unknown;
        let files = self.files.len() + self.guides.len();
        let all = || self.files.iter().chain(&self.guides);
        if files + rest < PARALLEL_STATS {
            return self.records_hold(dir)
                && self.files_hold(dir, &self.guides)
                && self.rest_holds(dir, known, same_index);
        }
        let theirs = ((files + rest) / 2).min(files);
        std::thread::scope(|s| {
            let first = s.spawn(move || {
                self.record_folders_hold(dir) && self.stamps_hold(dir, all().take(theirs))
            });
            let here = self.stamps_hold(dir, all().skip(theirs))
                && self.rest_holds(dir, known, same_index);
            first.join().unwrap_or(false) && here
        })
    }

    /// The part of [`Deps::still_holds_knowing`] besides the record files and guides: the
    /// guide walk's folders and ignore files, then the answers the file system gave.
    fn rest_holds(&self, dir: &RootDir, known: &[bool], same_index: bool) -> bool {
        let root = dir.root();
        if !self.walk.still_holds(dir) {
            return false;
        }
        // The walk's folders were just found unchanged: a folder among them is still one.
        let same_dirs: std::collections::HashSet<&str> =
            self.walk.dirs.iter().map(|(d, _)| d.as_ref()).collect();
        // The ignore files were found unchanged with the walk above.
        self.observed.still_holds(
            root,
            &same_dirs,
            Some(super::not_checked_out(root)),
            Some(super::tracked_paths(root)),
            crate::fs::tree::Same {
                rules: true,
                index: same_index,
            },
            known,
        )
    }
}

impl Deps {
    /// Stamps, besides the walk's, the `.gitignore` of every folder above a path the records
    /// name, there or not (`dir`: the root): whether git ignores a named path is read from
    /// them, and one appearing in a folder the memo does not stamp (the root, say, holding no
    /// guide) would otherwise go unseen (ADR-0016). A stat each on a warm answer. A folder
    /// that is not there (a path in another repository a link names, issue 41) is stamped
    /// itself, absent, in place of its `.gitignore` and every folder under it: while it is not
    /// there, no ignore file under it is either. A top-level folder that is not there is not
    /// stamped at all (issue 41): a path under it is none of the repository's, ignored or not.
    pub fn stamp_named_ignores(&mut self, dir: &RootDir) {
        let mut folders: std::collections::BTreeSet<&str> = std::iter::once("").collect();
        for (path, _) in &self.observed.kinds {
            let path = path.trim_end_matches('/');
            folders.extend(path.match_indices('/').map(|(at, _)| &path[..at]));
        }
        let root = dir.root();
        let known: std::collections::HashSet<String> =
            self.walk.ignores.iter().map(|(p, _)| p.clone()).collect();
        // In path order a folder comes before those under it: once one is found not there,
        // the folders under it are left out.
        let mut gone: Option<&str> = None;
        let mut added: Vec<(String, Option<Stamp>)> = Vec::new();
        for folder in folders {
            if gone.is_some_and(|g| folder.strip_prefix(g).is_some_and(|r| r.starts_with('/'))) {
                continue;
            }
            let started = self.walk.started_ns;
            // Stamped absent, or (there after all) its ignore file as any other folder's.
            if !folder.is_empty() && dir.entry(folder).is_none() {
                let probe = root.join(folder).display().to_string();
                if dir.stamp(&probe, Content::Folder, started).is_none() {
                    gone = Some(folder);
                    // A top-level folder needs no stamp: what the records name under it is no
                    // path of the repository's (`Kind::NotAPath`) whatever an ignore file there
                    // says, and it appearing changes the root, which the named paths' folders
                    // stamp (`Parents`), so they are looked at again.
                    if folder.contains('/') && !known.contains(&probe) {
                        added.push((probe, None));
                    }
                    continue;
                }
            }
            let probe = root.join(folder).join(".gitignore").display().to_string();
            if !known.contains(&probe) {
                let stamp = dir.stamp(&probe, Content::File, started);
                added.push((probe, stamp));
            }
        }
        self.walk.ignores.extend(added);
    }
}

/// Whether `a` and `b` hold the same strings in the same order.
fn same_strings<S: AsRef<str>>(a: &[String], b: &[S]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a == b.as_ref())
}

/// The folders that hold the files and folders records name, stamped (issue 17, ADR-0016):
/// creating, removing or renaming an entry changes its folder's times, so while a folder has
/// the same fingerprint (`lstat`: the same folder, not a link), settled, the entries in it are
/// the same entries, and a named path in it that was a file or a folder (not a link) still is.
/// A memo's check then stats each such folder once rather than every path in it. The paths'
/// content is not vouched for (an edit in place leaves the folder alone): only what they are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parents<S = String> {
    /// When the stamps were taken (ns since the epoch): the scan's start, or a later check
    /// that found every path in them holding. A stamp vouches only when settled by then.
    pub at_ns: i64,
    /// Each folder (root-relative, `""` the root), its fingerprint, and the indices in
    /// [`Observed::kinds`] of the named paths right in it.
    pub dirs: Vec<ParentDir<S>>,
    /// By folder, as `dirs`: the indices of the named paths right in it that were not there
    /// (missing, or not the repository's: `Ember.uuid` in prose). The folder vouches for them
    /// only while git's index is the very one the scan read (its checksum): what git's index
    /// says of a sparse checkout's paths can change without the folder (issue 41).
    pub gone: Vec<Vec<u32>>,
}

/// A folder of [`Parents`]: its path, its fingerprint, the indices of the named paths in it.
pub type ParentDir<S = String> = (S, Fingerprint, Vec<u32>);

/// What [`Parents::check`] found.
pub struct ParentsCheck {
    /// By index in [`Observed::kinds`]: the paths known to hold without a stat.
    pub known: Vec<bool>,
    /// Each folder's fingerprint now (`None`: gone, or no longer a folder), taken before any
    /// path in it is checked.
    now: Vec<Option<Fingerprint>>,
    /// Whether every folder vouched now.
    all: bool,
}

impl Parents {
    /// The folders of the files and folders `observed` found (not links), stamped now, for a
    /// scan begun at `started_ns`: each is stamped after the scan looked in it, so a folder
    /// changed meanwhile is not settled as of `started_ns` and vouches for nothing until a
    /// check stats its paths and finds them holding ([`Parents::settled_at`]).
    pub fn of(observed: &Observed, dir: &RootDir, started_ns: i64) -> Parents {
        type ByDir<'a> = std::collections::BTreeMap<&'a str, (Vec<u32>, Vec<u32>)>;
        let mut by_dir: ByDir = Default::default();
        for (at, (path, kind)) in observed.kinds.iter().enumerate() {
            let want = match kind {
                Kind::File => Some(Entry::Other),
                Kind::Folder => Some(Entry::Folder),
                // Only a path that names a place under the root (never `..`, never from `/`).
                Kind::Missing | Kind::NotAPath
                    if !path.is_empty()
                        && !path.starts_with('/')
                        && !path
                            .split('/')
                            .any(|c| c.is_empty() || c == "." || c == "..") =>
                {
                    None
                }
                _ => continue,
            };
            let Ok(at) = u32::try_from(at) else { break };
            let parent = path.rsplit_once('/').map_or("", |(p, _)| p);
            // What the path is now, not through a link (a link's target is not its folder's).
            match (want, dir.entry(path)) {
                (Some(want), Some(now)) if now == want => {
                    by_dir.entry(parent).or_default().0.push(at);
                }
                (None, None) => {
                    if let Some(there) = deepest_folder(dir, parent) {
                        by_dir.entry(there).or_default().1.push(at);
                    }
                }
                _ => {}
            }
        }
        let (dirs, gone) = by_dir
            .into_iter()
            .filter_map(|(parent, (paths, gone))| {
                let (fp, entry) = dir.entry_fingerprint(parent)?;
                (entry == Entry::Folder).then(|| ((parent.to_string(), fp, paths), gone))
            })
            .unzip();
        Parents {
            at_ns: started_ns,
            dirs,
            gone,
        }
    }
}

/// The deepest folder above a path that is not there, `parent` its folder: `parent` when
/// there, else the first folder above it that is, every one between not there. While that
/// folder's entries are the same, the path is still not there: the next part down is still
/// missing (tensorflow/community's RFCs name hundreds of paths of another repository,
/// `tensorflow/core/…`, each stat'ed by every warm answer; issue 41). `None` when a part
/// above is there but no folder (a file, a link: what is under a link is not its folder's).
fn deepest_folder<'p>(dir: &RootDir, parent: &'p str) -> Option<&'p str> {
    let mut at = parent;
    while !at.is_empty() {
        match dir.entry(at) {
            Some(Entry::Folder) => return Some(at),
            Some(_) => return None,
            None => at = at.rsplit_once('/').map_or("", |(p, _)| p),
        }
    }
    Some(at)
}

impl<S: Text> Parents<S> {
    /// Each folder stat'ed now: the paths in those with the same fingerprint, settled, are
    /// known to hold (`kinds`: how many paths [`Observed::kinds`] has); the paths that were
    /// not there only with `same_index` (git's index is the one the scan read).
    pub fn check(&self, dir: &RootDir, kinds: usize, same_index: bool) -> ParentsCheck {
        let mut known = vec![false; kinds];
        let mut all = true;
        let no_gone = Vec::new();
        let now = self
            .dirs
            .iter()
            .enumerate()
            .map(|(at_dir, (parent, then, paths))| {
                let now = dir
                    .entry_fingerprint(parent.as_ref())
                    .filter(|(_, e)| *e == Entry::Folder)
                    .map(|(fp, _)| fp);
                let vouches = now.is_some_and(|now| now == *then && settled(&now, self.at_ns));
                if vouches {
                    let gone = match same_index {
                        true => self.gone.get(at_dir).unwrap_or(&no_gone),
                        false => &no_gone,
                    };
                    for &at in paths.iter().chain(gone) {
                        if let Some(k) = known.get_mut(at as usize) {
                            *k = true;
                        }
                    }
                }
                all &= vouches;
                now
            })
            .collect();
        ParentsCheck { known, now, all }
    }

    /// These stamps as of a check begun at `checked_ns` that found every path holding (those
    /// `check` did not vouch for stat'ed one by one after their folder was): each folder
    /// stamped as `check` found it, so that one settled by then vouches from the next check
    /// on. `None` when nothing would change (every folder vouched), or none would vouch yet.
    pub fn settled_at(&self, check: &ParentsCheck, checked_ns: i64) -> Option<Parents<S>> {
        if check.all || checked_ns < self.at_ns {
            return None;
        }
        let no_gone = Vec::new();
        let (dirs, gone): (Vec<ParentDir<S>>, Vec<Vec<u32>>) = self
            .dirs
            .iter()
            .zip(&check.now)
            .enumerate()
            .filter_map(|(at, ((parent, _, paths), now))| {
                let gone = self.gone.get(at).unwrap_or(&no_gone).clone();
                Some(((parent.clone(), (*now)?, paths.clone()), gone))
            })
            .unzip();
        let vouching = |dirs: &[ParentDir<S>], at: i64| {
            dirs.iter().filter(|(_, fp, _)| settled(fp, at)).count()
        };
        (vouching(&dirs, checked_ns) > vouching(&self.dirs, self.at_ns)).then_some(Parents {
            at_ns: checked_ns,
            dirs,
            gone,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A named file or folder is vouched for by its folder's stamp once settled, a link or a
    /// missing path never; removing a file changes its folder's stamp, so the paths in it are
    /// asked again, and the check restamps the folder as it found it.
    #[test]
    fn a_folder_vouches_for_its_named_paths_until_an_entry_changes() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path();
        std::fs::create_dir_all(root.join("a")).expect("a folder");
        std::fs::write(root.join("a/f.rs"), "fn f() {}\n").expect("a file");
        #[cfg(unix)]
        std::os::unix::fs::symlink("f.rs", root.join("a/l.rs")).expect("a link");
        let observed = Observed {
            kinds: vec![
                ("a".to_string(), Kind::Folder),
                ("a/f.rs".to_string(), Kind::File),
                ("a/l.rs".to_string(), Kind::File),
                ("gone/x.rs".to_string(), Kind::Missing),
            ],
            ..Observed::default()
        };
        let dir = RootDir::open(root);
        let now = crate::util::now_ns();
        let made = Parents::of(&observed, &dir, now);
        let dirs: Vec<(&str, &[u32])> = made
            .dirs
            .iter()
            .map(|(d, _, paths)| (d.as_str(), paths.as_slice()))
            .collect();
        #[cfg(unix)]
        assert_eq!(
            dirs,
            vec![("", &[0][..]), ("a", &[1][..])],
            "no link, no missing path"
        );
        // Just written: not settled as of the scan, so nothing is vouched for yet.
        let fresh = made.check(&dir, observed.kinds.len(), true);
        assert_eq!(fresh.known, vec![false; 4]);
        // Past the racy window (a check 3 s on, as if): restamped, the folders vouch.
        let later = now + 3_000_000_000;
        let settled = made.settled_at(&fresh, later).expect("restamped");
        assert_eq!(settled.at_ns, later);
        let held = settled.check(&dir, observed.kinds.len(), true);
        assert_eq!(
            held.known,
            vec![true, true, false, true],
            "`gone/x.rs` by the root, where `gone` is not"
        );
        assert!(
            settled.settled_at(&held, later + 1).is_none(),
            "nothing to restamp"
        );
        // A file removed: its folder's times change, so its paths are asked again.
        std::fs::remove_file(root.join("a/f.rs")).expect("remove");
        let changed = settled.check(&dir, observed.kinds.len(), true);
        assert_eq!(changed.known, vec![true, false, false, true]);
        // Its missing folder made: the root's entries change, so the path is asked again.
        std::fs::create_dir(root.join("gone")).expect("a folder");
        let made_gone = settled.check(&dir, observed.kinds.len(), true);
        assert_eq!(made_gone.known, vec![false, false, false, false]);
    }

    /// A path under a link or a file is not vouched for by a folder above it.
    #[cfg(unix)]
    #[test]
    fn a_path_under_a_link_or_a_file_is_not_vouched_for_by_a_folder_above() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path();
        std::fs::create_dir_all(root.join("real")).expect("a folder");
        std::os::unix::fs::symlink("real", root.join("link")).expect("a link");
        std::fs::write(root.join("file.rs"), "fn f() {}\n").expect("a file");
        let observed = Observed {
            kinds: vec![
                ("link/sub/x.rs".to_string(), Kind::Missing),
                ("file.rs/x.rs".to_string(), Kind::Missing),
                ("real/sub/deeper/x.rs".to_string(), Kind::Missing),
            ],
            ..Observed::default()
        };
        let dir = RootDir::open(root);
        let made = Parents::of(&observed, &dir, crate::util::now_ns() - 3_000_000_000);
        let dirs: Vec<(&str, &[u32])> = made
            .dirs
            .iter()
            .zip(&made.gone)
            .map(|((d, _, _), gone)| (d.as_str(), gone.as_slice()))
            .collect();
        assert_eq!(dirs, vec![("real", &[2][..])]);
    }
}
