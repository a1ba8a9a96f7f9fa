//! Installing the hooks into the folder git runs them from, and removing exactly what was
//! installed (docs/hooks.md, ADR-0008).
//!
//! Our part of a hook sits between [`BEGIN`] and [`END`]. A shell hook of someone else's gets it
//! right after its `#!` line, so its own lines run after ours and its exit status is the hook's;
//! a hook in another language (or a link to a shared script) is kept beside it as
//! `NAME.before-context-graph` and run by a shell hook holding our part. A repository whose hooks
//! a manager generates (husky, lefthook) gets nothing written: the caller says how to add us
//! there instead. Deciding what a file becomes is pure ([`plan_install`], [`plan_uninstall`]);
//! the rest reads and writes the files.

use super::{Hook, HooksError};
use crate::git::{HooksDir, Repo};
use crate::model::{HookAction, HookFile, HooksReport, Manager};
use std::path::{Path, PathBuf};

mod plan;

use plan::{plan_install, plan_uninstall, Found};
pub use plan::{BEGIN, CHAINED, END};

/// The configuration files of lefthook, at the top of the work tree.
const LEFTHOOK_FILES: &[&str] = &[
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
    "lefthook.toml",
    ".lefthook.toml",
    "lefthook.json",
    ".lefthook.json",
    ".config/lefthook.yml",
    ".config/lefthook.yaml",
];

/// A hooks manager that generates the files in `dir`: husky (`core.hooksPath` in `.husky/`),
/// or lefthook (its configuration file at the top of the work tree, or a hook calling it).
fn manager(repo: &Repo, dir: &HooksDir) -> Option<Manager> {
    if let Some(path) = &dir.configured {
        if Path::new(path)
            .components()
            .any(|c| c.as_os_str() == ".husky")
        {
            return Some(Manager {
                name: "husky".into(),
                evidence: format!("core.hooksPath = {path}"),
            });
        }
    }
    if let Some(file) = LEFTHOOK_FILES
        .iter()
        .find(|f| repo.workdir.join(f).is_file())
    {
        return Some(Manager {
            name: "lefthook".into(),
            evidence: (*file).to_string(),
        });
    }
    Hook::ALL.iter().find_map(|h| {
        let bytes = crate::fs::read::read_side_file(&dir.path.join(h.name())).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        text.contains("lefthook").then(|| Manager {
            name: "lefthook".into(),
            evidence: format!("the {} hook runs lefthook", h.name()),
        })
    })
}

/// What installing into a folder inside the work tree means.
const IN_WORK_TREE: &str = "it is inside the work tree: once committed, every clone runs \
     these hooks, which then call `context-graph` from PATH (without it, one line and git goes \
     on)";

/// What installing into a folder outside the repository means.
const OUTSIDE: &str = "it is outside this repository: every repository whose core.hooksPath \
     names it runs these hooks (every one, when it is set globally); in one without record \
     folders they write nothing and say nothing";

/// Whether the hooks folder `dir` is shared beyond this repository's own git dir, and what
/// installing there means: inside the work tree (a tracked `.githooks/`), or outside the
/// repository (a global `core.hooksPath`). `None` for the git dir's own hooks folder.
fn sharing(repo: &Repo, dir: &Path) -> Option<&'static str> {
    // The nearest existing folder, as the file system names it (a link in the way resolved).
    let real = |p: &Path| -> PathBuf {
        let mut head = p.to_path_buf();
        let mut tail = Vec::new();
        loop {
            if let Ok(found) = head.canonicalize() {
                return tail
                    .iter()
                    .rev()
                    .fold(found, |acc, part: &std::ffi::OsString| acc.join(part));
            }
            match (head.file_name().map(|n| n.to_os_string()), head.parent()) {
                (Some(name), Some(parent)) => {
                    tail.push(name);
                    head = parent.to_path_buf();
                }
                _ => return p.to_path_buf(),
            }
        }
    };
    let dir = real(dir);
    let in_git = [repo.git_dir.clone(), repo.common_dir()]
        .iter()
        .any(|g| dir.starts_with(real(g)));
    if in_git {
        None
    } else if dir.starts_with(real(&repo.workdir)) {
        Some(IN_WORK_TREE)
    } else {
        Some(OUTSIDE)
    }
}

/// `path` for a person: relative to the top of the work tree when inside it.
fn shown(repo: &Repo, path: &Path) -> String {
    match path.strip_prefix(&repo.workdir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

fn io<'a>(action: &'static str, path: &'a Path) -> impl Fn(std::io::Error) -> HooksError + 'a {
    move |e| HooksError::Io {
        action,
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

fn damaged(path: &Path) -> HooksError {
    HooksError::Io {
        action: "change",
        path: path.to_path_buf(),
        message: format!("it has the line {BEGIN:?} without {END:?} after it: mend it by hand"),
    }
}

/// Reads the hook file at `path`.
fn read(path: &Path, chained: &Path) -> Result<(Option<String>, bool, bool, bool), HooksError> {
    let meta = std::fs::symlink_metadata(path);
    let link = meta.as_ref().is_ok_and(|m| m.file_type().is_symlink());
    // Opened non-blocking, a regular file only: a FIFO in the hooks folder never makes
    // `install-hooks` wait (ADR-0011).
    let text = match crate::fs::read::read_side_file(path) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        // A dangling link: kept and chained like any other.
        Err(_) if link => None,
        Err(e) => return Err(io("read", path)(e)),
    };
    let executable = std::fs::metadata(path).is_ok_and(|m| is_executable(&m));
    let chained_exists = std::fs::symlink_metadata(chained).is_ok();
    Ok((text, executable, link, chained_exists))
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    meta.is_file()
}

/// Writes `text` to `path` through a file beside it renamed over it, executable (keeping the
/// other permission bits of the file it replaces).
fn write(path: &Path, text: &str) -> Result<(), HooksError> {
    let tmp = path.with_file_name(format!(
        ".{}.context-graph-tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("hook")
    ));
    std::fs::write(&tmp, text).map_err(io("write", &tmp))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map_or(0o755, |m| m.permissions().mode() | 0o111);
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode & 0o7777))
            .map_err(io("write", &tmp))?;
    }
    std::fs::rename(&tmp, path).map_err(io("write", path))
}

/// Installs every hook into the folder git runs hooks from, calling `bin` (the absolute path of
/// the running binary; PATH when it is gone). Nothing is written when a hooks manager owns
/// the folder: the report names it.
pub fn install(repo: &Repo, bin: &Path, force: bool) -> Result<HooksReport, HooksError> {
    let dir = repo.hooks_dir();
    let mut report = HooksReport {
        hooks_dir: shown(repo, &dir.path),
        hooks_path: dir.configured.clone(),
        files: Vec::new(),
        managed_by: manager(repo, &dir),
    };
    if report.managed_by.is_some() {
        return Ok(report);
    }
    let shared = sharing(repo, &dir.path);
    if let (Some(meaning), false) = (shared, force) {
        return Err(HooksError::Shared {
            path: dir.path.clone(),
            meaning: meaning.to_string(),
        });
    }
    std::fs::create_dir_all(&dir.path).map_err(io("create", &dir.path))?;
    // A folder inside the work tree is committed and shared: its hooks name no path of this
    // machine, and find `context-graph` on PATH.
    let bin = match shared {
        Some(IN_WORK_TREE) => String::new(),
        _ => bin.to_string_lossy().into_owned(),
    };
    report.files = each_hook(repo, &dir.path, |hook, path, kept, found| {
        let chained_exists = found.chained_exists;
        let plan = plan_install(hook, found, &bin).map_err(|()| damaged(path))?;
        if plan.move_chained {
            if chained_exists {
                return Err(HooksError::Io {
                    action: "keep the hook",
                    path: path.to_path_buf(),
                    message: format!("{} exists already", kept.display()),
                });
            }
            std::fs::rename(path, kept).map_err(io("move", path))?;
        }
        if let Some(text) = &plan.text {
            write(path, text)?;
        }
        Ok(plan.action)
    })?;
    Ok(report)
}

/// Runs `apply` on every hook's file in `dir` (its path, where a kept hook goes beside it, and
/// what is there now) and reports, file by file, the action it took.
fn each_hook(
    repo: &Repo,
    dir: &Path,
    mut apply: impl FnMut(Hook, &Path, &Path, Found) -> Result<HookAction, HooksError>,
) -> Result<Vec<HookFile>, HooksError> {
    let mut files = Vec::new();
    for hook in Hook::ALL {
        let path = dir.join(hook.name());
        let kept = chained_path(&path, hook);
        let (text, executable, link, chained_exists) = read(&path, &kept)?;
        let found = Found {
            text: text.as_deref(),
            executable,
            link,
            chained_exists,
        };
        let action = apply(hook, &path, &kept, found)?;
        files.push(HookFile {
            hook: hook.name().to_string(),
            path: shown(repo, &path),
            action,
        });
    }
    Ok(files)
}

/// Removes our part from every hook in the folder git runs hooks from: a file with nothing
/// else left in it is deleted, a kept hook is put back.
pub fn uninstall(repo: &Repo) -> Result<HooksReport, HooksError> {
    let dir = repo.hooks_dir();
    let mut report = HooksReport {
        hooks_dir: shown(repo, &dir.path),
        hooks_path: dir.configured.clone(),
        files: Vec::new(),
        managed_by: None,
    };
    report.files = each_hook(repo, &dir.path, |hook, path, kept, found| {
        let plan = plan_uninstall(hook, found).map_err(|()| damaged(path))?;
        match plan.action {
            HookAction::Deleted => std::fs::remove_file(path).map_err(io("delete", path))?,
            HookAction::Restored => std::fs::rename(kept, path).map_err(io("restore", kept))?,
            _ => {
                if let Some(text) = &plan.text {
                    write(path, text)?;
                }
            }
        }
        Ok(plan.action)
    })?;
    Ok(report)
}

fn chained_path(path: &Path, hook: Hook) -> PathBuf {
    path.with_file_name(format!("{}{CHAINED}", hook.name()))
}

#[cfg(test)]
mod tests {
    use super::plan::{is_shell, PLACEHOLDER};
    use super::*;

    const BIN: &str = "/opt/it's/context-graph";

    fn file(text: &str) -> Found<'_> {
        Found {
            text: Some(text),
            executable: true,
            link: false,
            chained_exists: false,
        }
    }

    fn installed(hook: Hook, text: &str) -> String {
        plan_install(hook, file(text), BIN)
            .expect("no damage")
            .text
            .expect("a new text")
    }

    #[test]
    fn a_new_hook_is_our_script_naming_the_binary() {
        let none = Found {
            text: None,
            executable: false,
            link: false,
            chained_exists: false,
        };
        let plan = plan_install(Hook::CommitMsg, none, BIN).expect("plan");
        assert_eq!(plan.action, HookAction::Created);
        let text = plan.text.expect("text");
        assert_eq!(
            text,
            Hook::CommitMsg
                .script()
                .replace(PLACEHOLDER, "'/opt/it'\\''s/context-graph'")
        );
    }

    #[test]
    fn a_shell_hook_keeps_its_lines_after_ours() {
        let old = "#!/usr/bin/env bash\nset -e\nnpm test\n";
        let new = installed(Hook::PreCommit, old);
        assert!(new.starts_with("#!/usr/bin/env bash\n# >>> context-graph >>>\n"));
        assert!(
            new.ends_with("# <<< context-graph <<<\nset -e\nnpm test\n"),
            "{new}"
        );
        // Twice: nothing changes.
        let again = plan_install(Hook::PreCommit, file(&new), BIN).expect("plan");
        assert_eq!(again.action, HookAction::Unchanged);
        assert_eq!(again.text, None);
        // Another binary: our part is rewritten, the rest kept.
        let other =
            plan_install(Hook::PreCommit, file(&new), "/usr/bin/context-graph").expect("plan");
        assert_eq!(other.action, HookAction::Updated);
        assert!(other
            .text
            .expect("text")
            .contains("'/usr/bin/context-graph'"));
        // Uninstall: exactly the old text.
        let removed = plan_uninstall(Hook::PreCommit, file(&new)).expect("plan");
        assert_eq!(removed.action, HookAction::Removed);
        assert_eq!(removed.text.as_deref(), Some(old));
    }

    #[test]
    fn a_hook_without_a_shebang_gets_one_and_loses_it_again() {
        let old = "echo hello\n";
        let new = installed(Hook::PostMerge, old);
        assert!(new.starts_with("#!/bin/sh\n# >>> context-graph >>>\n# (context-graph added"));
        assert!(new.ends_with("# <<< context-graph <<<\necho hello\n"));
        let again = plan_install(Hook::PostMerge, file(&new), BIN).expect("plan");
        assert_eq!(again.action, HookAction::Unchanged);
        let removed = plan_uninstall(Hook::PostMerge, file(&new)).expect("plan");
        assert_eq!(removed.text.as_deref(), Some(old));
    }

    #[test]
    fn a_hook_in_another_language_is_chained() {
        let old = "#!/usr/bin/env python3\nprint('hi')\n";
        let plan = plan_install(Hook::CommitMsg, file(old), BIN).expect("plan");
        assert_eq!(plan.action, HookAction::Chained);
        assert!(plan.move_chained);
        let new = plan.text.expect("text");
        assert!(new.contains(
            "exec \"${0%/*}/commit-msg.before-context-graph\" \"$@\"\n# <<< context-graph <<<\n"
        ));
        let kept = Found {
            chained_exists: true,
            ..file(&new)
        };
        assert_eq!(
            plan_install(Hook::CommitMsg, kept, BIN)
                .expect("plan")
                .action,
            HookAction::Unchanged
        );
        let back = plan_uninstall(Hook::CommitMsg, kept).expect("plan");
        assert_eq!(back.action, HookAction::Restored);
        assert!(back.move_chained);
    }

    #[test]
    fn uninstall_deletes_only_a_file_with_nothing_else_in_it() {
        let ours = installed(Hook::PostCommit, "");
        assert_eq!(
            plan_uninstall(Hook::PostCommit, file(&ours))
                .expect("plan")
                .action,
            HookAction::Deleted
        );
        let with_more = format!("{ours}\necho mine\n");
        let plan = plan_uninstall(Hook::PostCommit, file(&with_more)).expect("plan");
        assert_eq!(plan.action, HookAction::Removed);
        assert_eq!(plan.text.as_deref(), Some("#!/bin/sh\n\necho mine\n"));
        assert_eq!(
            plan_uninstall(Hook::PostCommit, file("#!/bin/sh\necho mine\n"))
                .expect("plan")
                .action,
            HookAction::NotInstalled
        );
    }

    #[test]
    fn a_disabled_hook_is_left_alone_and_a_broken_block_refused() {
        let off = Found {
            executable: false,
            ..file("#!/bin/sh\necho x\n")
        };
        assert_eq!(
            plan_install(Hook::PreCommit, off, BIN)
                .expect("plan")
                .action,
            HookAction::SkippedNotExecutable
        );
        let broken = format!("#!/bin/sh\n{BEGIN}\necho x\n");
        assert!(plan_install(Hook::PreCommit, file(&broken), BIN).is_err());
        assert!(plan_uninstall(Hook::PreCommit, file(&broken)).is_err());
    }

    #[test]
    fn shells_are_told_from_other_interpreters() {
        for sh in [
            "#!/bin/sh",
            "#!/bin/bash -e",
            "#!/usr/bin/env bash",
            "#!/usr/bin/env -S zsh -f",
        ] {
            assert!(is_shell(sh), "{sh}");
        }
        for other in [
            "#!/usr/bin/env python3",
            "#!/usr/bin/node",
            "#!/usr/bin/env -S perl -w",
            "#!",
        ] {
            assert!(!is_shell(other), "{other}");
        }
    }
}
