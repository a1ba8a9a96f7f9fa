//! The root a command works under, and PATH arguments made relative to it (docs/commands.md).

use super::FsError;
use crate::text::path::normalise;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The root: `--root` if given, else the top of the git work tree around the current
/// directory, else the current directory. Always canonical.
pub fn resolve_root(arg: Option<&Path>) -> Result<PathBuf, FsError> {
    let start = match arg {
        Some(p) => p.to_path_buf(),
        None => {
            let cwd = std::env::current_dir().map_err(|source| FsError::Root {
                path: PathBuf::from("."),
                source,
            })?;
            work_tree_top(&cwd).unwrap_or(cwd)
        }
    };
    let canon = fs::canonicalize(&start).map_err(|source| FsError::Root {
        path: start.clone(),
        source,
    })?;
    if !canon.is_dir() {
        return Err(FsError::RootNotDir(start));
    }
    fs::read_dir(&canon).map_err(|source| FsError::Root {
        path: start.clone(),
        source,
    })?;
    Ok(canon)
}

/// The nearest folder at or above `dir` holding `.git` (a folder, or a file for worktrees).
pub fn work_tree_top(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// A PATH argument made root-relative: `./` and a trailing `/` dropped, an absolute path
/// inside the root made relative; one outside the root is refused.
pub fn query_path(root: &Path, arg: &str) -> Result<String, String> {
    let p = Path::new(arg);
    let rel = if p.is_absolute() {
        let abs = lexical(p);
        match abs.strip_prefix(root) {
            Ok(r) => r.to_path_buf(),
            Err(_) => {
                // The root may be reached through a link: compare canonical forms too.
                match fs::canonicalize(&abs) {
                    Ok(c) if c.starts_with(root) => {
                        c.strip_prefix(root).unwrap_or(&c).to_path_buf()
                    }
                    _ => return Err(format!("is outside the root {}", root.display())),
                }
            }
        }
    } else {
        p.to_path_buf()
    };
    let text = rel
        .to_str()
        .ok_or_else(|| "is not valid UTF-8".to_string())?
        .replace('\\', "/");
    match normalise(&text) {
        Some(n) => Ok(n),
        None => Err(format!("leaves the root {}", root.display())),
    }
}

/// A PATH argument as a user types it (docs/commands.md): relative to the current folder when
/// that is inside the root (`cd app/models && context-graph why asset.rb` asks about
/// `app/models/asset.rb`), else relative to the root as before (`--root` from outside it). The
/// result is what [`query_path`] reads: a path leaving the root is still refused there. `root`
/// is `--root` as given; one that does not resolve leaves `arg` as it is, for the command to
/// report.
pub fn typed_path(root: Option<&Path>, arg: &str) -> String {
    let p = Path::new(arg);
    if arg.is_empty() || p.is_absolute() {
        return arg.to_string();
    }
    let (Ok(cwd), Ok(root)) = (std::env::current_dir(), resolve_root(root)) else {
        return arg.to_string();
    };
    let within = match cwd.strip_prefix(&root) {
        Ok(w) => w.to_path_buf(),
        // The current folder may be reached through a link: compare canonical forms too.
        Err(_) => match fs::canonicalize(&cwd) {
            Ok(c) => match c.strip_prefix(&root) {
                Ok(w) => w.to_path_buf(),
                Err(_) => return arg.to_string(),
            },
            Err(_) => return arg.to_string(),
        },
    };
    match within.to_str() {
        Some("") | None => arg.to_string(),
        Some(w) => format!("{}/{arg}", w.replace('\\', "/")),
    }
}

/// `p` with `.` and `..` taken lexically, without looking at the file system.
pub(super) fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The git dir whose `info/exclude` applies to the work tree at `top`: `.git`, or for a linked
/// worktree (`.git` a file naming its own git dir) the common dir that one names.
pub(super) fn common_git_dir(top: &Path) -> PathBuf {
    let dot_git = top.join(".git");
    let Ok(text) = super::read::read_side_file(&dot_git).map(String::from_utf8) else {
        return dot_git; // a folder (or nothing to read): the git dir itself
    };
    let Ok(text) = text else {
        return dot_git;
    };
    let Some(own) = text.trim().strip_prefix("gitdir:").map(str::trim) else {
        return dot_git;
    };
    let own = top.join(own);
    match super::read::read_side_file(&own.join("commondir")).map(String::from_utf8) {
        Ok(Ok(common)) => own.join(common.trim()),
        _ => own,
    }
}
