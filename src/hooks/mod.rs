//! The git hooks (docs/hooks.md, ADR-0008): the scripts (kept as files in the top-level
//! `hooks/` folder and built into the binary), installing them into the hooks folder git runs
//! and removing exactly what was installed (`install`), and what a commit in the making touches:
//! the current decisions governing its staged paths and whether its message cites them
//! (`commit`). `app` puts these together with a session; `output::hooks` renders the results.

pub mod broad;
mod comments;
mod commit;
pub mod echo;
mod generated;
mod install;
pub mod layout;
pub mod pages;
pub mod quiet;
pub mod renames;
pub mod settings;
pub mod shape;
pub mod shared;
pub mod written;

pub use commit::{
    cites, fixup_target, governing, governs_path, id_governs_path, message_body, with_hint, Cleanup,
};
pub use install::{install, uninstall, BEGIN, END};

use std::path::PathBuf;

/// A hook context-graph installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hook {
    PreCommit,
    PrepareCommitMsg,
    CommitMsg,
    PostCommit,
    PostMerge,
    PostCheckout,
    PostRewrite,
}

impl Hook {
    /// Every hook, in the order git runs them around a commit, then the others.
    pub const ALL: [Hook; 7] = [
        Hook::PreCommit,
        Hook::PrepareCommitMsg,
        Hook::CommitMsg,
        Hook::PostCommit,
        Hook::PostMerge,
        Hook::PostCheckout,
        Hook::PostRewrite,
    ];

    /// The file name git gives the hook.
    pub fn name(self) -> &'static str {
        match self {
            Hook::PreCommit => "pre-commit",
            Hook::PrepareCommitMsg => "prepare-commit-msg",
            Hook::CommitMsg => "commit-msg",
            Hook::PostCommit => "post-commit",
            Hook::PostMerge => "post-merge",
            Hook::PostCheckout => "post-checkout",
            Hook::PostRewrite => "post-rewrite",
        }
    }

    pub fn from_name(name: &str) -> Option<Hook> {
        Hook::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The script as kept in `hooks/NAME`: `#!/bin/sh`, then our part between [`BEGIN`] and
    /// [`END`], with the binary's path still a placeholder.
    pub fn script(self) -> &'static str {
        match self {
            Hook::PreCommit => include_str!("../../hooks/pre-commit"),
            Hook::PrepareCommitMsg => include_str!("../../hooks/prepare-commit-msg"),
            Hook::CommitMsg => include_str!("../../hooks/commit-msg"),
            Hook::PostCommit => include_str!("../../hooks/post-commit"),
            Hook::PostMerge => include_str!("../../hooks/post-merge"),
            Hook::PostCheckout => include_str!("../../hooks/post-checkout"),
            Hook::PostRewrite => include_str!("../../hooks/post-rewrite"),
        }
    }

    /// A hook that brings the index up to date (after the history or the work tree changed).
    pub fn refreshes(self) -> bool {
        matches!(
            self,
            Hook::PostCommit | Hook::PostMerge | Hook::PostCheckout | Hook::PostRewrite
        )
    }
}

/// Why the hooks could not be installed or removed. One line, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum HooksError {
    #[error("nothing installed into {path}: {meaning}; to install there, run `context-graph install-hooks --force`")]
    Shared { path: PathBuf, meaning: String },
    #[error("cannot {action} {path}: {message}")]
    Io {
        action: &'static str,
        path: PathBuf,
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_script_is_a_posix_shell_script_with_lf_endings_and_one_block() {
        for hook in Hook::ALL {
            let s = hook.script();
            assert!(s.starts_with("#!/bin/sh\n"), "{}", hook.name());
            assert!(!s.contains('\r'), "{} has a CR", hook.name());
            assert_eq!(
                s.lines().filter(|l| *l == BEGIN).count(),
                1,
                "{}",
                hook.name()
            );
            assert_eq!(
                s.lines().filter(|l| *l == END).count(),
                1,
                "{}",
                hook.name()
            );
            assert!(s.ends_with(&format!("{END}\n")), "{}", hook.name());
            assert!(
                s.contains(&format!("hook {}", hook.name())),
                "{} calls its own hook",
                hook.name()
            );
            // Nothing but the strict refusal ever exits: the hook that was there runs after.
            let exits: Vec<&str> = s
                .lines()
                .filter(|l| !l.starts_with('#') && l.contains("exit"))
                .collect();
            if hook == Hook::CommitMsg {
                assert_eq!(exits, ["    exit 1"], "{}", hook.name());
            } else {
                assert!(exits.is_empty(), "{}: {exits:?}", hook.name());
            }
            // Every write to a file fails quietly, the shell going on (in dash a failed
            // redirection of `:` ends the script): a folder made by root, read-only, or a file
            // in its place never stops git nor prints a shell error.
            for line in s.lines().filter(|l| !l.trim_start().starts_with('#')) {
                for (at, _) in line.match_indices(">\"$") {
                    let before = &line[..at];
                    let quiet = before.ends_with("2>/dev/null ")
                        || before.ends_with("2>/dev/null >")
                        || line.contains("2>>\"$__cg_log\"");
                    assert!(
                        quiet,
                        "{}: a write that may fail loudly: {line}",
                        hook.name()
                    );
                }
            }
            // Our part never reads the standard input another hook needs.
            for call in s.lines().filter(|l| l.contains("\"$__cg_bin\" hook")) {
                assert!(call.contains("</dev/null"), "{}: {call}", hook.name());
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for hook in Hook::ALL {
            assert_eq!(Hook::from_name(hook.name()), Some(hook));
        }
        assert_eq!(Hook::from_name("pre-push"), None);
    }
}
