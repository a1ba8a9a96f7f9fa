//! The repository around a root found without gix's full open (ADR-0016, amendment of
//! 2026-12-06): a warm answer needs only the git dir, the common dir, git's index file, the
//! shallow file and what HEAD points to, and gix's discovery and configuration read were
//! 5–11% of every warm answer. Anything this reading does not know to be ordinary (an
//! environment variable that moves the repository, a `.git` file it cannot follow, a
//! configuration that could move the work tree or the index, a HEAD that is unborn, a branch
//! that is a link or a symbolic reference, ownership by another user) is `None`: the caller
//! opens the repository with gix as before, so the answer is the same either way.

use std::path::{Path, PathBuf};

/// What the light open found: everything [`super::Repo`] holds but the gix handle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    pub git_dir: PathBuf,
    pub common_dir: PathBuf,
    pub workdir: PathBuf,
    pub head: [u8; 20],
    pub shallow: bool,
}

/// Environment variables that move the repository, its work tree, its index or its refs, or
/// that change what configuration or discovery sees: any one set means the full open.
const MOVERS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_NAMESPACE",
    "GIT_SHALLOW_FILE",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_REF_FORMAT",
    "GIT_DEFAULT_HASH",
];

/// Whether the environment moves nothing: none of [`MOVERS`] set, and what `git -c` gave
/// (`GIT_CONFIG_PARAMETERS`, which git hands its hooks) only settings [`ordinary_entry`]
/// takes. An IDE's `git -c core.quotepath=false commit` and `bench/hooks.sh`'s `-c
/// core.hooksPath=…` sent every commit hook through gix's full open (issue 41).
fn ordinary_env() -> bool {
    if MOVERS.iter().any(|v| std::env::var_os(v).is_some()) {
        return false;
    }
    match std::env::var_os("GIT_CONFIG_PARAMETERS").map(|p| p.into_string()) {
        None => true,
        Some(Err(_)) => false,
        Some(Ok(given)) => ordinary_parameters(&given),
    }
}

/// Whether every setting of `given` (as git writes `GIT_CONFIG_PARAMETERS`) is one
/// [`ordinary_entry`] takes, the whole of it read.
fn ordinary_parameters(given: &str) -> bool {
    let Some(settings) = super::cmdline::parse_all(given) else {
        return false;
    };
    settings.iter().all(|(key, value)| {
        let (section, name) = match (key.split_once('.'), key.rsplit_once('.')) {
            (Some((section, _)), Some((_, name))) => (section, name),
            _ => return false,
        };
        ordinary_entry(section, name, value.as_deref().unwrap_or("true"))
    })
}

/// Whether a setting (its section's first word, its name, its value) leaves the repository
/// where the light open finds it: not in a section that includes other files or changes the
/// repository's format (`extensions`, `include`, `includeIf`, `gitoxide`), and not
/// `core.worktree`, a `core.bare` that is not false, or a format version other than 0 and 1.
fn ordinary_entry(section: &str, name: &str, value: &str) -> bool {
    let section = section.to_ascii_lowercase();
    if matches!(
        section.as_str(),
        "extensions" | "include" | "includeif" | "gitoxide"
    ) {
        return false;
    }
    if section != "core" {
        return true;
    }
    let value = value.trim_matches('"').to_ascii_lowercase();
    match name.to_ascii_lowercase().as_str() {
        "worktree" => false,
        "bare" => matches!(value.as_str(), "false" | "no" | "off" | "0"),
        "repositoryformatversion" => matches!(value.as_str(), "0" | "1"),
        _ => true,
    }
}

/// The git work tree around `root_abs` (canonical), found and HEAD read without gix; `None`
/// whenever anything is unusual (see the module's comment), and outside git.
pub(super) fn open(root_abs: &Path) -> Option<Found> {
    if !ordinary_env() {
        return None;
    }
    let (workdir, dot_git) = find_dot_git(root_abs)?;
    let meta = std::fs::symlink_metadata(&dot_git).ok()?;
    let (git_dir, common_dir) = if meta.is_dir() {
        (dot_git.clone(), dot_git)
    } else if meta.is_file() {
        linked(&workdir, &dot_git)?
    } else {
        return None;
    };
    // Another user's repository is opened with reduced trust, which changes what its
    // configuration may do: gix decides.
    for path in [&workdir, &git_dir, &common_dir] {
        if !gix::sec::identity::is_path_owned_by_current_user(path).ok()? {
            return None;
        }
    }
    if !ordinary_config(&common_dir.join("config"))? {
        return None;
    }
    let head = head(&git_dir, &common_dir)?;
    let shallow = shallow(&common_dir);
    Some(Found {
        git_dir,
        common_dir,
        workdir,
        head,
        shallow,
    })
}

/// HEAD again, as [`open`] reads it (for a session's next question).
pub(super) fn head_again(git_dir: &Path, common_dir: &Path) -> Option<[u8; 20]> {
    if !ordinary_env() {
        return None;
    }
    head(git_dir, common_dir)
}

/// Whether the clone is shallow, as gix says it: a non-empty `shallow` file in the common dir.
pub(super) fn shallow(common_dir: &Path) -> bool {
    std::fs::metadata(common_dir.join("shallow")).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// The nearest folder at or above `root_abs` holding `.git`, and that `.git`. `None` when a
/// folder on the way could be a git dir itself (a root inside `.git`, a bare repository), or
/// the `.git` is on another file system than the root (git and gix stop there).
fn find_dot_git(root_abs: &Path) -> Option<(PathBuf, PathBuf)> {
    use std::os::unix::fs::MetadataExt;
    let device = std::fs::metadata(root_abs).ok()?.dev();
    for dir in root_abs.ancestors() {
        if dir.file_name().is_some_and(|n| n == ".git") {
            return None;
        }
        let dot_git = dir.join(".git");
        match std::fs::symlink_metadata(&dot_git) {
            Ok(_) => {
                if std::fs::metadata(dir).ok()?.dev() != device {
                    return None;
                }
                return Some((dir.to_path_buf(), dot_git));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => return None,
        }
        // A folder with a HEAD of its own may be a bare repository or a git dir.
        if std::fs::symlink_metadata(dir.join("HEAD")).is_ok() {
            return None;
        }
    }
    None
}

/// A `.git` file naming a linked worktree's git dir (`gitdir: …/.git/worktrees/NAME`, with a
/// `commondir` file): its git dir and common dir. `None` for anything else (a submodule's
/// `.git` file names a git dir without `commondir`, whose configuration sets the work tree).
fn linked(workdir: &Path, dot_git: &Path) -> Option<(PathBuf, PathBuf)> {
    let text = std::fs::read_to_string(dot_git).ok()?;
    let named = text
        .strip_prefix("gitdir: ")?
        .trim_end_matches(['\n', '\r']);
    if named.is_empty() || named.contains('\n') {
        return None;
    }
    let git_dir = std::fs::canonicalize(workdir.join(named)).ok()?;
    let common = std::fs::read_to_string(git_dir.join("commondir")).ok()?;
    let common = common.trim_end_matches(['\n', '\r']);
    if common.is_empty() || common.contains('\n') {
        return None;
    }
    let common_dir = std::fs::canonicalize(git_dir.join(common)).ok()?;
    // The linked worktree's own record of where it is checked out must be this one.
    let back = std::fs::read_to_string(git_dir.join("gitdir")).ok()?;
    let back = std::fs::canonicalize(back.trim_end_matches(['\n', '\r'])).ok()?;
    (back == dot_git).then_some((git_dir, common_dir))
}

/// Whether the repository's configuration file leaves the work tree, the git dir's layout and
/// the index where they usually are: no `extensions` (reftable, another object format, a
/// worktree's own configuration), no `core.worktree`, `core.bare` false, no include, no
/// gitoxide section, and every line one this reading understands. A missing file is `None`.
fn ordinary_config(path: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut section = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.ends_with('\\') {
            return Some(false);
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some((header, after)) = rest.split_once(']') else {
                return Some(false);
            };
            let after = after.trim();
            if !(after.is_empty() || after.starts_with('#') || after.starts_with(';')) {
                return Some(false);
            }
            let name = header
                .split(|c: char| c.is_whitespace() || c == '"' || c == '.')
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !ordinary_entry(&name, "", "") {
                return Some(false);
            }
            section = name;
            continue;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (line, "true"),
        };
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Some(false);
        }
        if !ordinary_entry(&section, key, value) {
            return Some(false);
        }
    }
    Some(true)
}

/// What HEAD points to: a detached id, or a branch under `refs/heads/` read from its loose
/// file (a regular file, not a link) or `packed-refs`. `None` for anything else, an unborn
/// branch included.
fn head(git_dir: &Path, common_dir: &Path) -> Option<[u8; 20]> {
    let text = read_small(&git_dir.join("HEAD"))?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    if let Some(id) = hex_id(text) {
        return Some(id);
    }
    let name = text.strip_prefix("ref: ")?;
    if !branch_name(name) {
        return None;
    }
    match std::fs::symlink_metadata(common_dir.join(name)) {
        Ok(meta) if meta.is_file() => {
            let text = read_small(&common_dir.join(name))?;
            hex_id(text.strip_suffix('\n').unwrap_or(&text))
        }
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => packed(common_dir, name),
        Err(_) => None,
    }
}

/// The branch HEAD is on (`refs/heads/NAME`), `Some(None)` when HEAD is detached; `None` for
/// anything else (a symbolic ref elsewhere, a name this module does not read).
pub(super) fn head_branch(git_dir: &Path) -> Option<Option<String>> {
    let text = read_small(&git_dir.join("HEAD"))?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    if hex_id(text).is_some() {
        return Some(None);
    }
    let name = text.strip_prefix("ref: ")?;
    branch_name(name).then(|| Some(name.to_string()))
}

/// Whether none of the references `names` exists: nothing at any of their paths in the common
/// dir, and no line for any in `packed-refs`. `false` when that cannot be told (a folder of
/// the path is a file, `packed-refs` unreadable).
pub(super) fn refs_absent(common_dir: &Path, names: &[&str]) -> bool {
    let loose_absent = names.iter().all(|name| {
        matches!(std::fs::symlink_metadata(common_dir.join(name)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound)
    });
    loose_absent
        && match std::fs::read_to_string(common_dir.join("packed-refs")) {
            Ok(text) => !text.lines().any(|line| {
                line.split_once(' ')
                    .is_some_and(|(_, named)| names.contains(&named))
            }),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        }
}

/// The id `packed-refs` gives `name`; `None` when it is not there (unborn) or unreadable.
fn packed(common_dir: &Path, name: &str) -> Option<[u8; 20]> {
    let text = std::fs::read_to_string(common_dir.join("packed-refs")).ok()?;
    text.lines().find_map(|line| {
        let (id, named) = line.split_once(' ')?;
        (named == name).then(|| hex_id(id)).flatten()
    })
}

/// A ref name under `refs/heads/` that needs no more checking than git's own rules, which
/// this keeps to a safe subset: ASCII letters, digits, `-`, `_`, `.`, `/`, no empty or dotted
/// component, no `.lock` ending.
fn branch_name(name: &str) -> bool {
    let Some(branch) = name.strip_prefix("refs/heads/") else {
        return false;
    };
    !branch.is_empty()
        && branch.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && !part.ends_with(".lock")
                && !part.contains("..")
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
}

/// A file of at most a few hundred bytes, read whole (HEAD, a loose ref).
fn read_small(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    (text.len() <= 512).then_some(text)
}

/// Forty lowercase hex digits as an id.
fn hex_id(text: &str) -> Option<[u8; 20]> {
    let bytes = text.as_bytes();
    if bytes.len() != 40 {
        return None;
    }
    let mut out = [0u8; 20];
    for (i, pair) in bytes.chunks(2).enumerate() {
        let digit = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            _ => None,
        };
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    (out != [0u8; 20]).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_that_moves_nothing() {
        let dir = std::env::temp_dir().join(format!("cg-light-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config");
        let ok = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote \"origin\"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n";
        std::fs::write(&path, ok).unwrap();
        assert_eq!(ordinary_config(&path), Some(true));
        for unusual in [
            "[core]\n\tbare = true\n",
            "[core]\n\tworktree = ../x\n",
            "[extensions]\n\trefStorage = reftable\n",
            "[include]\n\tpath = other\n",
            "[includeIf \"gitdir:x\"]\n\tpath = other\n",
            "[gitoxide \"core\"]\n\tindexFile = x\n",
            "[core]\n\tbare = \\\n false\n",
        ] {
            std::fs::write(&path, unusual).unwrap();
            assert_eq!(ordinary_config(&path), Some(false), "{unusual}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn settings_given_with_git_c_that_move_nothing() {
        for ok in [
            "",
            "'core.hookspath'='/tmp/hooks'",
            "'core.quotepath'='false' 'color.ui'='false' 'user.useConfigOnly'='true'",
            "'credential.helper'='' 'core.bare'='false' 'branch.main.remote'='origin'",
            "'context-graph.strict'",
            "'a.b=c d'",
            r"'core.commentChar'=''\'''",
        ] {
            assert!(ordinary_parameters(ok), "{ok}");
        }
        for moving in [
            "'core.worktree'='/elsewhere'",
            "'core.quotepath'='false' 'core.bare'='true'",
            "'core.bare'",
            "'extensions.objectFormat'='sha256'",
            "'include.path'='/x'",
            "'includeIf.gitdir:/x/.path'='/y'",
            "'gitoxide.core.indexFile'='x'",
            "'core.repositoryFormatVersion'='2'",
            "'nodot'='x'",
            "'core.quotepath'=false",
            "unquoted",
        ] {
            assert!(!ordinary_parameters(moving), "{moving}");
        }
    }

    #[test]
    fn branch_names_kept_simple() {
        assert!(branch_name("refs/heads/main"));
        assert!(branch_name("refs/heads/feature/x-1.2"));
        for odd in [
            "refs/heads/",
            "refs/heads/a..b",
            "refs/heads/.x",
            "refs/heads/x.lock",
            "refs/tags/v1",
            "refs/heads/a//b",
            "refs/heads/ä",
        ] {
            assert!(!branch_name(odd), "{odd}");
        }
    }

    #[test]
    fn ids_are_forty_lowercase_hex_digits() {
        assert!(hex_id(&"a".repeat(40)).is_some());
        assert!(hex_id(&"A".repeat(40)).is_none());
        assert!(hex_id(&"0".repeat(40)).is_none());
        assert!(hex_id(&"a".repeat(39)).is_none());
    }
}
