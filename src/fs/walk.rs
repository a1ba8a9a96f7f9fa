//! The guide walk: `.md` files outside the record folders, with what `.gitignore` and the
//! other ignore files say honoured (ADR-0001).

use super::discover::{rel_of, Found};
use super::fingerprint::{Content, RootDir, Stamp};
use super::root::{common_git_dir, work_tree_top};
use super::walk_rules::WalkRules;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The guides a walk found, and the folders it walked (so a cache can tell, from their
/// modification times alone, that a new walk would find the same).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuideWalk {
    pub files: Vec<Found>,
    /// Root-relative folders walked (`""` is the root).
    pub dirs: Vec<String>,
    /// The ignore files passed over (a FIFO, a link), one note each.
    pub notes: Vec<String>,
}

/// What a guide walk depended on, stamped: every folder it walked (a folder's times change
/// when an entry is added, removed or renamed in it) and every ignore file that applied. While
/// all of it holds, a new walk would find the same files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkStamp<S = String> {
    /// When the work the walk belongs to began.
    pub started_ns: i64,
    /// Root-relative folders walked (`""` is the root) → their stamps (`None`: gone).
    pub dirs: Vec<(S, Option<Stamp>)>,
    /// The ignore files that applied, absolute → their stamps (`None`: absent).
    pub ignores: Vec<(S, Option<Stamp>)>,
    pub files: Vec<Found<S>>,
}

impl WalkStamp {
    /// Stamps `walk` of the root `dir` is opened at, for work begun at `started_ns`.
    pub fn of(dir: &RootDir, walk: &GuideWalk, started_ns: i64) -> WalkStamp {
        let root = dir.root();
        let mut ignores: Vec<PathBuf> = outer_ignore_files(root);
        // Inside the walked folders only the ignore files that exist: one appearing or
        // vanishing changes its folder's times, which are checked anyway.
        for d in &walk.dirs {
            for name in [".gitignore", ".ignore"] {
                let p = root.join(d).join(name);
                if p.exists() {
                    ignores.push(p);
                }
            }
        }
        WalkStamp {
            started_ns,
            dirs: walk
                .dirs
                .iter()
                .map(|d| (d.clone(), dir.stamp(d, Content::Folder, started_ns)))
                .collect(),
            ignores: ignores
                .into_iter()
                .map(|p| {
                    let p = p.display().to_string();
                    let stamp = dir.stamp(&p, Content::File, started_ns);
                    (p, stamp)
                })
                .collect(),
            files: walk.files.clone(),
        }
    }
}

impl<S: AsRef<str> + Sync> WalkStamp<S> {
    /// Whether a walk now would find the same: no folder it walked and no ignore file changed.
    pub fn still_holds(&self, dir: &RootDir) -> bool {
        let same = |rel: &str, then: &Option<Stamp>, content: Content| match (
            dir.fingerprint(rel),
            then,
        ) {
            (None, None) => true,
            (Some(now), Some(then)) => then.holds(dir, rel, content, &now, self.started_ns),
            _ => false,
        };
        let dirs_same = crate::util::parallel_map_from(1024, &self.dirs, |(d, then)| {
            same(d.as_ref(), then, Content::Folder)
        })
        .into_iter()
        .all(|same| same);
        dirs_same
            && self
                .ignores
                .iter()
                .all(|(p, then)| same(p.as_ref(), then, Content::File))
    }
}

/// The ignore files a guide walk honours besides those inside the walked folders: the root's
/// ancestors' `.gitignore`/`.ignore`, the repository's `info/exclude` (the common one, for a
/// linked worktree), and the global excludes file with the configuration that names it
/// (`core.excludesFile` in `$GIT_CONFIG_GLOBAL`, `~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`,
/// else `$XDG_CONFIG_HOME/git/ignore`), as the walk reads them.
pub fn outer_ignore_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    // Only the repository's own: none above its top (ADR-0011).
    let limit = work_tree_top(root).unwrap_or_else(|| root.to_path_buf());
    for dir in root
        .ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(&limit))
    {
        out.push(dir.join(".gitignore"));
        out.push(dir.join(".ignore"));
    }
    if let Some(top) = work_tree_top(root) {
        out.push(common_git_dir(&top).join("info").join("exclude"));
    }
    #[allow(deprecated)] // as the walk finds it: `ignore` uses `std::env::home_dir`
    let home = std::env::home_dir();
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|x| !x.as_os_str().is_empty())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    if let Some(global) = std::env::var_os("GIT_CONFIG_GLOBAL") {
        out.push(PathBuf::from(global));
    }
    out.extend(home.map(|h| h.join(".gitconfig")));
    if let Some(xdg) = xdg {
        out.push(xdg.join("git").join("config"));
        out.push(xdg.join("git").join("ignore"));
    }
    out.extend(super::ignored::global_excludes_file());
    out.sort();
    out.dedup();
    out
}

/// The files under the root-relative `folder` (`""` is the root), root-relative and sorted,
/// as git would track them: what the ignore files ignore left out, hidden files kept (but not
/// `.git`), links not followed; and every file git tracks there (`tracked`), ignored or not
/// (a tracked file is never ignored, as in git). What a glob in a declared scope is matched
/// against.
pub fn files_under(
    root: &Path,
    folder: &str,
    tracked: Option<&super::tracked::TrackedPaths>,
) -> Vec<String> {
    let mut out = files_not_ignored(root, folder);
    if let Some(tracked) = tracked {
        out.extend(tracked.files_under(folder));
        out.sort();
        out.dedup();
    }
    out
}

/// [`files_under`] without the tracked files: what the walk finds that git does not ignore.
pub fn files_not_ignored(root: &Path, folder: &str) -> Vec<String> {
    let base = root.join(folder);
    if !base.is_dir() {
        return Vec::new();
    }
    let rules = WalkRules::new(root);
    let mut out: Vec<String> = walker(&base, false)
        .filter_entry(move |e| e.file_name() != ".git" && !ignored(&rules, e))
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()))
        .map(|e| rel_of(root, e.path()))
        .collect();
    out.sort();
    out
}

/// Whether [`files_not_ignored`] under the root-relative `folder` would hold a file `wanted`
/// takes, listing only the folders `descend` keeps (by their root-relative path; a folder it
/// refuses can hold no such file) and stopping at the first such file.
pub fn any_file_not_ignored(
    root: &Path,
    folder: &str,
    descend: impl Fn(&str) -> bool,
    wanted: &dyn Fn(&str) -> bool,
) -> bool {
    let base = root.join(folder);
    if !base.is_dir() {
        return false;
    }
    let rules = WalkRules::new(root);
    // The ignore files are read only for a folder `descend` keeps and a file `wanted` takes:
    // a warm answer whose glob no file matches lists its folder and reads no ignore file
    // (ADR-0016, amendment of 2026-12-06). walkdir, not the `ignore` crate's walk: this one
    // applies no rule of its own, and that walk's set-up (its file types' regex pool asks the
    // system for its cores, reading cgroup files) cost a warm answer more than the listing
    // (issue 41).
    let mut walk = walkdir::WalkDir::new(&base)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            let dir = e.file_type().is_dir();
            e.file_name() != ".git"
                && (!dir
                    || e.depth() == 0
                    || (descend(&rel_of(root, e.path())) && !rules.ignores(e.path(), true)))
        })
        .flatten();
    walk.any(|e| {
        !e.file_type().is_dir()
            && wanted(&rel_of(root, e.path()))
            && !(e.depth() > 0 && rules.ignores(e.path(), false))
    })
}

/// A folder of tests or test fixtures: what it holds is test data, not a guide (docs/reading.md).
fn is_test_folder(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "test"
            | "tests"
            | "__tests__"
            | "fixtures"
            | "__fixtures__"
            | "testdata"
            | "test-data"
            | "test_data"
    )
}

/// A change log or release notes (`CHANGELOG.md`, `History.md`, `NEWS.md`, `RELEASES.md`,
/// `release-notes.md`, any case): it records history, it does not teach (docs/reading.md).
fn is_change_log(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let stem: String = stem.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    matches!(
        stem.as_str(),
        "changelog" | "changes" | "history" | "news" | "releases" | "releasenotes"
    )
}

/// Guides: `.md` files outside the record folders (hidden folders and what `.gitignore`
/// ignores left out), root-relative and sorted.
pub fn guide_walk(root: &Path, folders: &[String]) -> GuideWalk {
    let mut out = GuideWalk::default();
    let record_dirs: Vec<PathBuf> = folders.iter().map(|f| root.join(f)).collect();
    let rules = WalkRules::new(root);
    let by_rules = rules.clone();
    let walker = walker(root, true)
        .filter_entry(move |e| {
            if ignored(&by_rules, e) {
                return false;
            }
            if !e.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let name = e.file_name().to_str().unwrap_or("");
            !matches!(name, "target" | "node_modules")
                && !is_test_folder(name)
                && !record_dirs.iter().any(|d| d == e.path())
        })
        .build();
    for entry in walker.flatten() {
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let rel = rel_of(root, entry.path());
        if file_type.is_dir() {
            out.dirs.push(rel);
            continue;
        }
        if !(file_type.is_file() || file_type.is_symlink()) {
            continue;
        }
        if !rel.to_ascii_lowercase().ends_with(".md") || is_change_log(&rel) {
            continue;
        }
        let in_records = folders.iter().any(|f| rel.starts_with(&format!("{f}/")));
        if !in_records {
            out.files.push(Found {
                rel,
                link: file_type.is_symlink(),
            });
        }
    }
    out.files.sort();
    out.dirs.sort();
    out.notes = rules.notes();
    out
}

/// A walk from `base` that reads no ignore file itself (the `ignore` crate's walk opens them
/// with a blocking open): the rules are [`WalkRules`]', applied by the caller's filter.
fn walker(base: &Path, hidden: bool) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(base);
    b.standard_filters(false)
        .hidden(hidden)
        .follow_links(false)
        .require_git(false);
    b
}

/// Whether the rules ignore the walk's entry `e`.
fn ignored(rules: &WalkRules, e: &ignore::DirEntry) -> bool {
    e.depth() > 0 && rules.ignores(e.path(), e.file_type().is_some_and(|t| t.is_dir()))
}
