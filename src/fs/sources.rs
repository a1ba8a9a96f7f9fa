// @adr 0009
//! Source files, for their markers (docs/markers.md, ADR-0009): which files under the root are
//! read (what git ignores, or outside git what `.gitignore` and `.ignore` exclude, is left out;
//! the files git tracks come from `git::tracked`), and reading a file's header window inside
//! the read boundary: a regular file only, opened non-blocking and checked on the handle (a
//! FIFO never blocks), never through a link that leaves the root (every folder on the way is
//! checked, and the file itself when it is a link), at most [`MAX_SOURCE_BYTES`] long.

use super::fingerprint::RootDir;
use super::ignored::{outer_rules, rules_of};
use crate::text::marker::WINDOW;
use crate::util::locked;
use ignore::gitignore::Gitignore;
use ignore::Match;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A source file larger than this is not read for markers (nor is a record or guide: the
/// same limit as [`super::read::MAX_FILE_BYTES`]).
pub const MAX_SOURCE_BYTES: u64 = super::read::MAX_FILE_BYTES;

/// What reading a file's header window gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// Its first bytes (at most [`WINDOW`]), and whether the file goes on past them.
    Read { bytes: Vec<u8>, longer: bool },
    /// It was not read, and why.
    Skipped(Skip),
}

/// Why a file's header was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Not there (or not readable).
    Missing,
    /// A folder, a FIFO, a socket, a device: only regular files are read.
    NotRegular,
    /// A link, or a folder on its way, that leaves the root.
    LeavesRoot,
    /// Larger than [`MAX_SOURCE_BYTES`].
    TooLarge,
}

/// A file's state as `lstat` gives it (not following a link), to tell a file git's index
/// knows unchanged without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    pub regular: bool,
    pub size: u64,
    pub mtime: (i64, u32),
    pub ctime: (i64, u32),
    pub ino: u64,
    pub dev: u64,
    pub uid: u32,
    pub gid: u32,
}

/// Reads source files under the root: the root opened once, and each folder's confinement
/// decided once.
pub struct Sources {
    dir: RootDir,
    /// Root-relative folder → whether it is a real folder under the root (links resolved).
    dirs: Mutex<HashMap<String, bool>>,
}

impl Sources {
    pub fn open(root: &Path) -> Sources {
        Sources {
            dir: RootDir::open(root),
            dirs: Mutex::new(HashMap::new()),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.root()
    }

    /// The root, opened: to stamp what was read under it.
    pub fn dir(&self) -> &RootDir {
        &self.dir
    }

    /// Whether the root-relative folder `rel` exists and stays under the root (`""` is the
    /// root): each part on the way is a real folder, or a link to a folder under the root.
    pub fn dir_inside(&self, rel: &str) -> bool {
        if rel.is_empty() {
            return true;
        }
        if let Some(&known) = locked(&self.dirs).get(rel) {
            return known;
        }
        let parent = rel.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
        let root = self.root();
        let ok = self.dir_inside(parent)
            && match std::fs::symlink_metadata(root.join(rel)) {
                Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(root.join(rel))
                    .is_ok_and(|c| c.starts_with(root) && c.is_dir()),
                Ok(m) => m.is_dir(),
                Err(_) => false,
            };
        locked(&self.dirs).insert(rel.to_string(), ok);
        ok
    }

    /// The `lstat` of `rel`, when its folders stay under the root.
    pub fn lstat(&self, rel: &str) -> Option<FileStat> {
        let parent = rel.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
        if !self.dir_inside(parent) {
            return None;
        }
        lstat_at(&self.dir, rel)
    }

    /// The header window of the root-relative file `rel` (see the module's read boundary).
    pub fn head(&self, rel: &str) -> Head {
        let parent = rel.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
        if !self.dir_inside(parent) {
            return Head::Skipped(if self.root().join(parent).exists() {
                Skip::LeavesRoot
            } else {
                Skip::Missing
            });
        }
        let file = match open_no_follow(&self.dir, rel) {
            Opened::File(f) => f,
            Opened::Link => {
                // A link is followed only when its target stays under the root.
                let full = self.root().join(rel);
                match std::fs::canonicalize(&full) {
                    Ok(c) if c.starts_with(self.root()) => {
                        match super::read::open_nonblocking(&c) {
                            Ok(f) => f,
                            Err(_) => return Head::Skipped(Skip::Missing),
                        }
                    }
                    Ok(_) => return Head::Skipped(Skip::LeavesRoot),
                    Err(_) => return Head::Skipped(Skip::Missing),
                }
            }
            Opened::Missing => return Head::Skipped(Skip::Missing),
        };
        read_head(file)
    }
}

/// What opening a path without following a final link gave.
enum Opened {
    File(std::fs::File),
    Link,
    Missing,
}

/// The first [`WINDOW`] bytes of an open file, checked on the handle: a regular file of at
/// most [`MAX_SOURCE_BYTES`].
fn read_head(file: std::fs::File) -> Head {
    let Ok(meta) = file.metadata() else {
        return Head::Skipped(Skip::Missing);
    };
    if !meta.is_file() {
        return Head::Skipped(Skip::NotRegular);
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Head::Skipped(Skip::TooLarge);
    }
    // What the handle says the file holds decides how much to read: one read for most files,
    // and none to find the end.
    let want = (meta.len() as usize).min(WINDOW);
    let mut bytes = vec![0u8; want];
    let mut got = 0;
    let mut file = file;
    while got < want {
        match file.read(&mut bytes[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Head::Skipped(Skip::Missing),
        }
    }
    bytes.truncate(got);
    Head::Read {
        bytes,
        longer: meta.len() > WINDOW as u64,
    }
}

#[cfg(unix)]
fn open_no_follow(dir: &RootDir, rel: &str) -> Opened {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let opened = match dir.fd() {
        Some(fd) => rustix::fs::openat(fd, rel, flags, Mode::empty()),
        None => rustix::fs::open(dir.root().join(rel), flags, Mode::empty()),
    };
    match opened {
        Ok(fd) => Opened::File(std::fs::File::from(fd)),
        // ELOOP on Linux and the BSDs, EMLINK on FreeBSD: a link where no link is followed.
        Err(e) if e == rustix::io::Errno::LOOP || e == rustix::io::Errno::MLINK => Opened::Link,
        Err(_) => match std::fs::symlink_metadata(dir.root().join(rel)) {
            Ok(m) if m.file_type().is_symlink() => Opened::Link,
            _ => Opened::Missing,
        },
    }
}

#[cfg(not(unix))]
fn open_no_follow(dir: &RootDir, rel: &str) -> Opened {
    let full = dir.root().join(rel);
    match std::fs::symlink_metadata(&full) {
        Ok(m) if m.file_type().is_symlink() => Opened::Link,
        Ok(_) => match std::fs::File::open(&full) {
            Ok(f) => Opened::File(f),
            Err(_) => Opened::Missing,
        },
        Err(_) => Opened::Missing,
    }
}

#[cfg(unix)]
fn lstat_at(dir: &RootDir, rel: &str) -> Option<FileStat> {
    use rustix::fs::{AtFlags, FileType};
    let st = match dir.fd() {
        Some(fd) => rustix::fs::statat(fd, rel, AtFlags::SYMLINK_NOFOLLOW).ok()?,
        None => rustix::fs::lstat(dir.root().join(rel)).ok()?,
    };
    Some(FileStat {
        regular: FileType::from_raw_mode(st.st_mode) == FileType::RegularFile,
        size: st.st_size as u64,
        mtime: (st.st_mtime as i64, st.st_mtime_nsec as u32),
        ctime: (st.st_ctime as i64, st.st_ctime_nsec as u32),
        ino: st.st_ino as u64,
        dev: st.st_dev as u64,
        uid: st.st_uid,
        gid: st.st_gid,
    })
}

#[cfg(not(unix))]
fn lstat_at(_dir: &RootDir, _rel: &str) -> Option<FileStat> {
    None // no stat to trust: every file is read
}

/// The ignore rules that decide which untracked files are source files: in a git work tree,
/// git's own (`.gitignore` files from the path's folder up to the work tree's top, the
/// deeper deciding, then `info/exclude`, then the global excludes file); outside git, the
/// `.ignore` and `.gitignore` files from the path's folder up to the root (`.ignore` first).
pub struct Excludes {
    root: PathBuf,
    /// Where ignore files stop applying: the work tree's top, or the root outside git.
    top: PathBuf,
    in_git: bool,
    /// Folder (absolute) → its rules, most important first.
    per_dir: HashMap<PathBuf, Vec<Gitignore>>,
    outer: Option<Vec<Gitignore>>,
}

impl Excludes {
    /// The rules for the root; `work_tree` is the top of the git work tree around it, if any.
    pub fn new(root: &Path, work_tree: Option<&Path>) -> Excludes {
        Excludes {
            root: root.to_path_buf(),
            top: work_tree.unwrap_or(root).to_path_buf(),
            in_git: work_tree.is_some(),
            per_dir: HashMap::new(),
            outer: None,
        }
    }

    /// The names of the ignore files read in a folder.
    fn names(&self) -> &'static [&'static str] {
        if self.in_git {
            &[".gitignore"]
        } else {
            &[".ignore", ".gitignore"]
        }
    }

    /// Tells the rules which of the ignore files a folder (absolute) has, from a listing of
    /// it, so they are not looked for again.
    fn listed(&mut self, dir: &Path, has: impl Fn(&str) -> bool) {
        if self.per_dir.contains_key(dir) {
            return;
        }
        let rules = self
            .names()
            .iter()
            .filter(|n| has(n))
            .filter_map(|n| rules_of(dir, &dir.join(n), false))
            .collect();
        self.per_dir.insert(dir.to_path_buf(), rules);
    }

    fn rules_in(&mut self, dir: &Path) -> &[Gitignore] {
        if !self.per_dir.contains_key(dir) {
            let rules = self
                .names()
                .iter()
                .filter_map(|n| rules_of(dir, &dir.join(n), false))
                .collect();
            self.per_dir.insert(dir.to_path_buf(), rules);
        }
        &self.per_dir[dir]
    }

    /// Whether the root-relative `rel` (a folder when `is_dir`) is excluded by a rule, its
    /// folders above not considered (a walk has decided them already).
    fn excluded_here(&mut self, rel: &str, is_dir: bool) -> bool {
        let path = self.root.join(rel);
        let mut dir = path.parent().map(Path::to_path_buf);
        while let Some(d) = dir {
            if !d.starts_with(&self.top) {
                break;
            }
            for gi in self.rules_in(&d) {
                match gi.matched(&path, is_dir) {
                    Match::Ignore(_) => return true,
                    Match::Whitelist(_) => return false,
                    Match::None => {}
                }
            }
            dir = d.parent().map(Path::to_path_buf);
        }
        if !self.in_git {
            return false;
        }
        let top = self.top.clone();
        let outer = self.outer.get_or_insert_with(|| outer_rules(&top));
        for gi in outer.iter() {
            match gi.matched(&path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }

    /// Whether the root-relative `rel` (a folder when `is_dir`) is excluded: by a rule, or
    /// under an excluded folder (or `.git`).
    pub fn excluded(&mut self, rel: &str, is_dir: bool) -> bool {
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        if parts.contains(&".git") {
            return true;
        }
        (1..=parts.len())
            .any(|n| self.excluded_here(&parts[..n].join("/"), n < parts.len() || is_dir))
    }
}

/// The files under the root-relative folder `within` (`""` is the root) that are neither
/// `tracked` nor excluded: root-relative, sorted. Regular files and links are listed (reading
/// decides what a link is); `.git` and nested repositories (a folder holding `.git`) are not
/// entered, nor are excluded folders; links to folders are not followed.
pub fn untracked(
    root: &Path,
    within: &str,
    excludes: &mut Excludes,
    tracked: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    untracked_walk(root, within, excludes, tracked).0
}

/// [`untracked`], with the folders it walked (root-relative, sorted; `""` is the root): a
/// folder's times change when an entry is added, removed or renamed in it, so a cache can tell
/// from them that a walk now would find the same.
pub fn untracked_walk(
    root: &Path,
    within: &str,
    excludes: &mut Excludes,
    tracked: &dyn Fn(&str) -> bool,
) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    let mut walked = Vec::new();
    if !within.is_empty() && excludes.excluded(within, true) {
        return (out, walked);
    }
    let mut todo = vec![within.to_string()];
    while let Some(rel) = todo.pop() {
        walked.push(rel.clone());
        let full = root.join(&rel);
        let Ok(entries) = std::fs::read_dir(&full) else {
            continue;
        };
        let mut children: Vec<(String, std::fs::FileType)> = Vec::new();
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue; // a name git could not track on every platform either
            };
            if let Ok(t) = entry.file_type() {
                children.push((name, t));
            }
        }
        // A nested repository's files are its own.
        if !rel.is_empty() && children.iter().any(|(n, _)| n == ".git") {
            continue;
        }
        excludes.listed(&full, |n| children.iter().any(|(c, _)| c == n));
        for (name, t) in children {
            if name == ".git" {
                continue;
            }
            let child = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            if t.is_dir() {
                if !excludes.excluded_here(&child, true) {
                    todo.push(child);
                }
            } else if (t.is_file() || t.is_symlink())
                && !tracked(&child)
                && !excludes.excluded_here(&child, false)
            {
                out.push(child);
            }
        }
    }
    out.sort();
    walked.sort();
    (out, walked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn untracked_files_are_those_no_rule_excludes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        write(&root, ".gitignore", "/build/\n*.log\n");
        write(&root, "src/.gitignore", "gen/\n!keep.log\n");
        write(&root, ".git/info/exclude", "scratch/\n");
        for f in [
            "src/a.rs",
            "src/b.log",
            "src/keep.log",
            "src/gen/x.rs",
            "build/out.js",
            "scratch/n.md",
            "tracked.rs",
            ".hidden/h.rs",
            "nested/.git/HEAD",
            "nested/inner.rs",
        ] {
            write(&root, f, "x\n");
        }
        let mut ex = Excludes::new(&root, Some(&root));
        let tracked = |p: &str| p == "tracked.rs";
        let found = untracked(&root, "", &mut ex, &tracked);
        assert_eq!(
            found,
            [
                ".gitignore",
                ".hidden/h.rs",
                "src/.gitignore",
                "src/a.rs",
                "src/keep.log"
            ]
        );
        assert_eq!(
            untracked(&root, "src", &mut ex, &tracked),
            ["src/.gitignore", "src/a.rs", "src/keep.log"]
        );
        assert!(untracked(&root, "build", &mut ex, &tracked).is_empty());
        assert!(ex.excluded("src/gen/x.rs", false) && ex.excluded("build/out.js", false));
        assert!(!ex.excluded("src/a.rs", false) && !ex.excluded("src/keep.log", false));
        // Outside git, `.ignore` counts too, and info/exclude does not.
        write(&root, "src/.ignore", "a.rs\n");
        let mut plain = Excludes::new(&root, None);
        assert!(plain.excluded("src/a.rs", false));
        assert!(!plain.excluded("scratch/n.md", false));
    }

    #[cfg(unix)]
    #[test]
    fn the_read_boundary_holds() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let root = base.join("root");
        write(&base, "outside/secret.rs", "// @adr 1\n");
        write(&root, "src/a.rs", "// @adr 2\n");
        std::os::unix::fs::symlink(base.join("outside/secret.rs"), root.join("src/out.rs"))
            .unwrap();
        std::os::unix::fs::symlink(base.join("outside"), root.join("linked")).unwrap();
        std::os::unix::fs::symlink("a.rs", root.join("src/in.rs")).unwrap();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            root.join("src/fifo"),
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .unwrap();
        let s = Sources::open(&root);
        assert!(matches!(s.head("src/a.rs"), Head::Read { .. }));
        assert!(matches!(s.head("src/in.rs"), Head::Read { .. }));
        assert_eq!(s.head("src/out.rs"), Head::Skipped(Skip::LeavesRoot));
        assert_eq!(s.head("linked/secret.rs"), Head::Skipped(Skip::LeavesRoot));
        assert_eq!(s.head("src/fifo"), Head::Skipped(Skip::NotRegular));
        assert_eq!(s.head("src"), Head::Skipped(Skip::NotRegular));
        assert_eq!(s.head("src/none.rs"), Head::Skipped(Skip::Missing));
        assert!(s.lstat("src/a.rs").is_some_and(|st| st.regular));
        assert!(s.lstat("src/in.rs").is_some_and(|st| !st.regular));
        assert!(s.lstat("linked/secret.rs").is_none());
    }
}
