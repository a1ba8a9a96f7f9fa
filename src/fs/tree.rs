//! What the paths records name are under the root: a file, a folder, missing (and where it
//! may have moved), or not a path of this repository; never following a link out of the root
//! (ADR-0001, ADR-0002).

use super::fingerprint::{Entry, RootDir};
use super::tracked::TrackedPaths;
use crate::governs::Pattern;
use crate::text::similar::close_names;
use crate::util::locked;
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A folder's entries: each name and whether it may hold entries (see `Tree::names_in`).
type Listing = Arc<[(String, bool)]>;

/// The maps' hasher: paths asked about are the repository's own, and SipHash was a tenth of a
/// commit hook's check.
type Fast = foldhash::fast::RandomState;

/// What a named path is under the root.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    File,
    Folder,
    /// Not there, and its first part is an existing top-level folder: it looks like ours.
    Missing,
    /// Not there and not the repository's, or leaving the root through a link.
    NotAPath,
    /// What git ignores (build output, say), there or not: not governed code.
    Ignored,
}

/// The canonical root and what is under it.
///
/// Confinement is decided per folder and remembered, so naming thousands of files costs one
/// `lstat` each, not a `canonicalize` (a `readlink` per part) each.
pub struct Tree {
    pub root: PathBuf,
    /// Root-relative folder → whether it is a real folder under the root (links resolved).
    dirs: Mutex<HashMap<String, bool, Fast>>,
    /// Root-relative path → what it is: records often name the same folders.
    kinds: Mutex<HashMap<String, Kind, Fast>>,
    /// Missing path → where [`Tree::moved`] found it may have gone.
    moves: Mutex<BTreeMap<String, Vec<String>>>,
    /// Folder → the names of its entries, listed once however many missing paths lie in it
    /// (a warm answer asks each again, ADR-0016).
    /// Folder listings: each entry's name and whether it may hold entries (a folder, a link
    /// or an entry whose kind did not read).
    listings: Mutex<HashMap<String, Listing, Fast>>,
    /// Glob → whether a file under the root matches it.
    globs: Mutex<BTreeMap<String, bool>>,
    /// The globs a file git tracks matched (their folder there): found without a walk.
    tracked_globs: Mutex<std::collections::BTreeSet<String>>,
    /// The globs git's index was asked about that no tracked path matched.
    globs_not_tracked: Mutex<std::collections::BTreeSet<String>>,
    /// What git ignores under the root.
    ignores: super::ignored::Ignores,
    /// What git tracks, asked about a path git would otherwise ignore: tracked, it is not.
    tracked: Option<Arc<TrackedPaths>>,
    /// What git tracks that the work tree need not hold (a sparse checkout's), asked about a
    /// path that is not there.
    absent: Option<Absent>,
    /// The root opened once: each path is looked up from it, not from `/` (a memo's check
    /// asks about a few hundred).
    dir: RootDir,
}

/// Answers, for a path not in the work tree, whether git tracks it anyway (a sparse checkout's
/// skip-worktree entries): its kind then (ADR-0011).
pub type Absent = std::sync::Arc<dyn Fn(&str) -> Option<Kind> + Send + Sync>;

/// Everything a [`Tree`] was asked and answered: the kind of every path, and the candidates
/// for every missing one. The graph is a function of the parsed records and these answers, so
/// asking again and hearing the same means it would come out the same (ADR-0006).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Observed<S = String> {
    pub kinds: Vec<(S, Kind)>,
    pub moved: Vec<(S, Vec<S>)>,
    /// The globs matched or not by the files a walk of their folder found (no tracked file
    /// matched them).
    pub globs: Vec<(S, bool)>,
    /// The globs a file git tracks matched, their literal folder there: each still matches
    /// while git's index lists the same paths and the folder is still there (ADR-0016), which
    /// a memo's check tells without walking the folder.
    pub tracked_globs: Vec<S>,
    /// The globs of `globs` git's index was asked about (their literal folder a folder under
    /// the root) and no tracked path matched: while git's index is the very one asked, none
    /// does, and a check asks only the work tree (issue 41).
    pub globs_not_tracked: Vec<S>,
}

/// What a check of [`Observed`] knows unchanged since the answers were given.
#[derive(Debug, Clone, Copy, Default)]
pub struct Same {
    /// The ignore files were just found unchanged: a path's being ignored is not matched
    /// again, it is what it was while the path is what it was (ADR-0016).
    pub rules: bool,
    /// Git's index is the very one the scan read (its checksum): a path that was not a file
    /// or folder then is not looked up in it (`absent`) again, since what it says of that
    /// path cannot have changed, and it said nothing then (ADR-0016, issue 41).
    pub index: bool,
}

impl<S: AsRef<str> + Ord> Observed<S> {
    /// Whether the file system under `root` still answers every question the same way, the
    /// paths git's index tracks being the same as when asked (the caller's to check: a scan
    /// memo checks them, ADR-0016). `same_dirs` are folders already known to be the same
    /// folders as when asked (a guide walk's, by their fingerprints): a folder among them is
    /// still a folder. The kinds whose index `known` marks true are already known to hold
    /// (their folder is as it was, as the scan memo's folder stamps tell), and are not asked
    /// again. `same` says what else is known unchanged ([`Same`]).
    pub fn still_holds(
        &self,
        root: &Path,
        same_dirs: &std::collections::HashSet<&str>,
        absent: Option<Absent>,
        tracked: Option<Arc<TrackedPaths>>,
        same: Same,
        known: &[bool],
    ) -> bool {
        let Same {
            rules: same_rules,
            index: same_index,
        } = same;
        let tree = Tree::new(root.to_path_buf())
            .with_absent(absent)
            .with_tracked(tracked);
        self.kinds.iter().enumerate().all(|(at, (path, kind))| {
            if known.get(at) == Some(&true) {
                return true;
            }
            let path = path.as_ref();
            if *kind == Kind::Folder && same_dirs.contains(path) {
                return true;
            }
            if !same_rules {
                return tree.kind(path) == *kind;
            }
            let ask_absent = !same_index || matches!(kind, Kind::File | Kind::Folder);
            match (kind, tree.kind_as_it_stands(path, ask_absent)) {
                (Kind::Ignored, now) => now != Kind::NotAPath,
                (then, now) => *then == now,
            }
        }) && self.moved.iter().all(|(path, moved)| {
            let now = tree.moved(path.as_ref());
            now.len() == moved.len() && now.iter().zip(moved).all(|(a, b)| a == b.as_ref())
        }) && self.tracked_globs.iter().all(|glob| {
            let folder = Pattern::new(glob.as_ref())
                .range_prefix()
                .trim_end_matches('/')
                .to_string();
            tree.dir_inside(&folder)
        }) && self.globs.iter().all(|(glob, found)| {
            // Not asked of git's index again when it is the one asked then (issue 41).
            let not_tracked = same_index && self.globs_not_tracked.binary_search(glob).is_ok();
            tree.any_file_matches_as(&Pattern::new(glob.as_ref()), not_tracked) == *found
        })
    }
}

impl Tree {
    pub fn new(root: PathBuf) -> Tree {
        Tree {
            dirs: Mutex::new(HashMap::default()),
            kinds: Mutex::new(HashMap::default()),
            moves: Mutex::new(BTreeMap::new()),
            listings: Mutex::new(HashMap::default()),
            globs: Mutex::new(BTreeMap::new()),
            tracked_globs: Mutex::new(Default::default()),
            globs_not_tracked: Mutex::new(Default::default()),
            ignores: super::ignored::Ignores::new(&root),
            tracked: None,
            dir: RootDir::open(&root),
            root,
            absent: None,
        }
    }

    /// This tree, asking `absent` about a path that is not there.
    pub fn with_absent(mut self, absent: Option<Absent>) -> Tree {
        self.absent = absent;
        self
    }

    /// This tree, asking `tracked` whether git tracks a path its ignore files ignore: a
    /// tracked path is what it is, never [`Kind::Ignored`] (ADR-0011).
    pub fn with_tracked(mut self, tracked: Option<Arc<TrackedPaths>>) -> Tree {
        self.tracked = tracked;
        self
    }

    /// What this tree was asked so far, in path order.
    pub fn observed(&self) -> Observed {
        let mut kinds: Vec<(String, Kind)> = locked(&self.kinds)
            .iter()
            .map(|(p, k)| (p.clone(), k.clone()))
            .collect();
        kinds.sort_by(|a, b| a.0.cmp(&b.0));
        let tracked = locked(&self.tracked_globs).clone();
        Observed {
            kinds,
            moved: locked(&self.moves)
                .iter()
                .map(|(p, m)| (p.clone(), m.clone()))
                .collect(),
            globs: locked(&self.globs)
                .iter()
                .filter(|(g, _)| !tracked.contains(g.as_str()))
                .map(|(g, f)| (g.clone(), *f))
                .collect(),
            tracked_globs: tracked.into_iter().collect(),
            globs_not_tracked: locked(&self.globs_not_tracked).iter().cloned().collect(),
        }
    }

    /// Whether a file under the root matches the glob `pattern` (as git would track it: see
    /// [`super::walk::files_under`]), its literal folder there. The files git tracks are asked
    /// first: a tracked file git's ignore files match still counts, and one that matches spares
    /// the walk, which starts at the glob's literal folder, and is kept as such
    /// ([`Observed::tracked_globs`]).
    pub fn any_file_matches(&self, pattern: &Pattern) -> bool {
        self.any_file_matches_as(pattern, false)
    }

    /// [`Tree::any_file_matches`], git's index not asked when `not_tracked` (known to hold no
    /// path the glob matches).
    fn any_file_matches_as(&self, pattern: &Pattern, not_tracked: bool) -> bool {
        let text = pattern.as_str();
        if let Some(&known) = locked(&self.globs).get(text) {
            return known;
        }
        let folder = pattern.range_prefix().trim_end_matches('/');
        let inside = self.dir_inside(folder);
        let asked = inside && !not_tracked && self.tracked.is_some();
        let by_tracked = asked
            && self
                .tracked
                .as_ref()
                .is_some_and(|t| t.files_under(folder).iter().any(|f| pattern.matches(f)));
        if asked && !by_tracked {
            locked(&self.globs_not_tracked).insert(text.to_string());
        }
        // The walk lists only the folders that may hold a match, and stops at the first; its
        // filter is compiled only when it walks (ADR-0016, amendment of 2026-12-06).
        let found = by_tracked
            || (inside && {
                let filter = crate::governs::FolderFilter::of(text);
                super::walk::any_file_not_ignored(
                    &self.root,
                    folder,
                    move |dir| filter.may_hold_under(dir),
                    &|f| pattern.matches(f),
                )
            });
        if by_tracked {
            locked(&self.tracked_globs).insert(text.to_string());
        }
        locked(&self.globs).insert(text.to_string(), found);
        found
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool, Fast>> {
        locked(&self.dirs)
    }

    /// Whether the root-relative folder `rel` exists and stays under the root ("" is the root).
    fn dir_inside(&self, rel: &str) -> bool {
        if rel.is_empty() {
            return true;
        }
        if let Some(&known) = self.lock().get(rel) {
            return known;
        }
        let parent = rel.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
        let ok = self.dir_inside(parent)
            && match self.dir.entry(rel) {
                Some(Entry::Link) => fs::canonicalize(self.root.join(rel))
                    .is_ok_and(|c| c.starts_with(&self.root) && c.is_dir()),
                Some(entry) => entry == Entry::Folder,
                None => false,
            };
        self.lock().insert(rel.to_string(), ok);
        ok
    }

    /// Decides what `rel` (normalised, maybe with a trailing `/`) is, never following a link
    /// out of the root.
    pub fn kind(&self, rel: &str) -> Kind {
        let bare = rel.trim_end_matches('/');
        // A path climbing out of the root (`../x`, `a/../../x`) or from `/` is outside it:
        // refused unread, never stat'ed (ADR-0011).
        if bare.is_empty() || bare.starts_with('/') || bare.split('/').any(|c| c == "..") {
            return Kind::NotAPath;
        }
        if let Some(known) = locked(&self.kinds).get(bare) {
            return known.clone();
        }
        let kind = match self.kind_uncached(bare, true) {
            k @ (Kind::File | Kind::Folder | Kind::Missing)
                if self.ignores.ignored(bare, k == Kind::Folder)
                    && !self.tracked.as_ref().is_some_and(|t| t.tracks(bare)) =>
            {
                Kind::Ignored
            }
            k => k,
        };
        locked(&self.kinds).insert(bare.to_string(), kind.clone());
        kind
    }

    /// What `rel` is, leaving out whether git ignores it (never [`Kind::Ignored`]); git's index
    /// asked about a path not in the work tree only with `ask_absent`.
    fn kind_as_it_stands(&self, rel: &str, ask_absent: bool) -> Kind {
        let bare = rel.trim_end_matches('/');
        if bare.is_empty() || bare.starts_with('/') || bare.split('/').any(|c| c == "..") {
            return Kind::NotAPath;
        }
        self.kind_uncached(bare, ask_absent)
    }

    fn kind_uncached(&self, bare: &str, ask_absent: bool) -> Kind {
        // A folder already found on the way to another path.
        if self.lock().get(bare) == Some(&true) {
            return Kind::Folder;
        }
        let (parent, _) = bare.rsplit_once('/').unwrap_or(("", bare));
        if self.dir_inside(parent) {
            match self.dir.entry(bare) {
                Some(Entry::Link) => {
                    return match fs::canonicalize(self.root.join(bare)) {
                        Ok(c) if c.starts_with(&self.root) && c.is_dir() => Kind::Folder,
                        Ok(c) if c.starts_with(&self.root) => Kind::File,
                        _ => Kind::NotAPath,
                    };
                }
                Some(Entry::Folder) => {
                    self.lock().insert(bare.to_string(), true);
                    return Kind::Folder;
                }
                Some(Entry::Other) => return Kind::File,
                None => {}
            }
        }
        // Tracked by git though not in the work tree (outside a sparse checkout's set): there.
        if let Some(kind) = self
            .absent
            .as_ref()
            .filter(|_| ask_absent)
            .and_then(|a| a(bare))
        {
            return kind;
        }
        let first = bare.split('/').next().unwrap_or(bare);
        if first != bare && self.dir_inside(first) {
            Kind::Missing
        } else {
            Kind::NotAPath
        }
    }

    /// Whether `full` (which exists) really is under the root once links are resolved.
    pub fn inside(&self, full: &Path) -> bool {
        match fs::canonicalize(full) {
            Ok(c) => c.starts_with(&self.root),
            Err(_) => false,
        }
    }

    /// For a missing path, existing siblings with a close name where the code may have gone:
    /// `services/ledger-sync` → `services/ledger`.
    pub fn moved(&self, rel: &str) -> Vec<String> {
        let bare = rel.trim_end_matches('/');
        if let Some(known) = locked(&self.moves).get(bare) {
            return known.clone();
        }
        let out = self.moved_uncached(bare);
        locked(&self.moves).insert(bare.to_string(), out.clone());
        out
    }

    fn moved_uncached(&self, bare: &str) -> Vec<String> {
        let parts: Vec<&str> = bare.split('/').collect();
        // The deepest existing folder, and the first part that is not there.
        let mut k = 0;
        while k < parts.len() && self.root.join(parts[..=k].join("/")).exists() {
            k += 1;
        }
        if k == 0 || k >= parts.len() {
            return Vec::new();
        }
        let parent = parts[..k].join("/");
        let gone = parts[k];
        let Some(names) = self.names_in(&parent) else {
            return Vec::new();
        };
        // The same name one folder down (`Command/X.php` → `Command/Checkout/X.php`): a move
        // into a new subfolder keeps the name, and a reader names that file before any sibling
        // whose name is only close.
        let rest = parts[k..].join("/");
        // One buffer for every sibling's candidate, a path made only for those that are
        // there: a memo checks this again on every warm answer (vector's `lib/` has 59
        // folders; issue 41).
        let base = self.root.join(&parent);
        let mut probe = base.clone();
        let mut down: Vec<String> = Vec::new();
        // A file cannot hold the rest: only folders (and links) are looked into, which on
        // vector's `src/` spares a stat for each of its forty files.
        for (n, _) in names
            .iter()
            .filter(|(n, holds)| *holds && !n.starts_with('.'))
        {
            probe.push(n);
            probe.push(&rest);
            if probe.exists() && self.inside(&probe) {
                down.push(format!("{parent}/{n}/{rest}"));
            }
            probe.clone_from(&base);
        }
        if !down.is_empty() {
            down.sort();
            return down;
        }
        let mut out = Vec::new();
        let rest = &parts[k + 1..];
        for (name, holds) in names.iter() {
            if name.starts_with('.') || !close_names(gone, name) {
                continue;
            }
            // A file named last is not taken to have become a folder whose name its own holds
            // (kumahq/kuma's deleted `zone_ingress.proto` beside `zone/`): a file that grew
            // into a folder keeps its name in the folder's.
            if rest.is_empty() && *holds && !folder_keeps_file_name(name, gone) {
                continue;
            }
            let sibling = format!("{parent}/{name}");
            let candidate = if rest.is_empty() {
                sibling.clone()
            } else {
                let deeper = format!("{sibling}/{}", rest.join("/"));
                if self.root.join(&deeper).exists() {
                    deeper
                } else {
                    sibling.clone()
                }
            };
            if self.inside(&self.root.join(&candidate)) {
                out.push(candidate);
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Whether the folder `folder` may be where the file `file` went: `file` has no extension
/// (it may have been a folder), or the folder's name holds the file's stem
/// (`ledger_client.go` → `ledger_client/`, `ledger-client-v2/`).
fn folder_keeps_file_name(folder: &str, file: &str) -> bool {
    match file.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() && !ext.contains('/') => folder
            .to_ascii_lowercase()
            .contains(&stem.to_ascii_lowercase()),
        _ => true,
    }
}

impl Tree {
    /// How many files git tracks named `name` (their last part), in any folder; 0 outside a
    /// git repository. A scan memo holds only while git tracks the same paths (ADR-0016), so
    /// this is not kept among the answers.
    pub fn tracked_named(&self, name: &str) -> usize {
        self.tracked.as_ref().map_or(0, |t| t.named(name))
    }

    /// The tracked files whose path ends with `suffix` after a `/`, not the root's; none
    /// outside a git repository (held, as [`Tree::tracked_named`], while git tracks the same
    /// paths).
    pub fn tracked_ending(&self, suffix: &str) -> Vec<String> {
        self.tracked
            .as_ref()
            .map_or_else(Vec::new, |t| t.ending(suffix))
    }

    /// The names (UTF-8 ones) of the entries of the root-relative folder `rel`, listed once,
    /// each with whether it may hold entries (not a plain file, as the listing tells without
    /// a stat); `None` when it cannot be listed.
    fn names_in(&self, rel: &str) -> Option<Listing> {
        if let Some(known) = locked(&self.listings).get(rel) {
            return Some(known.clone());
        }
        let names: Listing = fs::read_dir(self.root.join(rel))
            .ok()?
            .flatten()
            .filter_map(|e| {
                let holds = e.file_type().map_or(true, |t| !t.is_file());
                e.file_name().to_str().map(|n| (n.to_string(), holds))
            })
            .collect();
        locked(&self.listings).insert(rel.to_string(), names.clone());
        Some(names)
    }
}
