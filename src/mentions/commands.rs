//! Commands (ADR-0017): the file or folder of a subcommand (`jj sparse`) in a folder of
//! commands, and the file of a whole invocation (`flux push artifact`).

use super::names::{Entry, Names};
use super::paths::{in_tests, leaf_stem};
use crate::text::terms::{key, Term};

/// Folders of a program's subcommands, by [`key`].
const COMMAND_FOLDERS: &[&str] = &["commands", "command", "cmd", "subcommands", "subcommand"];

impl Names {
    /// The file or folder of the subcommand a [`Kind::Command`] term names: its subcommands'
    /// names as the path's last parts, in a folder of commands (`jj sparse` →
    /// `cli/src/commands/sparse/`, `jj run` → `cli/src/commands/run.rs`).
    pub(super) fn command(&self, term: &Term) -> Vec<&Entry> {
        let words: Vec<String> = term.text.split(' ').skip(1).map(key).collect();
        let Some(ns) = words.last().and_then(|last| self.by_key.get(last)) else {
            return Vec::new();
        };
        let mut found: Vec<&Entry> = ns
            .iter()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                let trimmed = e.path.trim_end_matches('/');
                let mut parts: Vec<String> = trimmed.split('/').map(key).collect();
                if let Some(last) = parts.last_mut() {
                    *last = key(leaf_stem(&e.path));
                }
                parts.len() > words.len()
                    && parts[parts.len() - words.len()..] == words[..]
                    && COMMAND_FOLDERS.contains(&parts[parts.len() - words.len() - 1].as_str())
                    && !in_tests(&e.path)
            })
            .collect();
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        found
    }

    /// The file a [`Kind::Invocation`] names: in the program's own folder in a folder of
    /// commands (`cmd/flux/`, `internal/cmd/egctl/`), the one source file named by the
    /// subcommand words joined (`flux push artifact` → `cmd/flux/push_artifact.go`), else by
    /// the longest run of two of them or more from the first (`flux create source oci
    /// podinfo` → `create_source_oci.go`, `podinfo` an argument). A single word names only a
    /// command of one word (`flux trace`): the file of the first of several is the group's
    /// (`flux list artifacts` is not `list.go`'s). Nothing when the program has no such folder.
    pub(super) fn invocation(&self, term: &Term) -> Vec<&Entry> {
        let words: Vec<&str> = term.text.split(' ').collect();
        let Some((program, subcommands)) = words.split_first() else {
            return Vec::new();
        };
        let program = key(program);
        let in_program = |e: &Entry| {
            let mut parts = e.path.rsplit('/').skip(1);
            !e.path.ends_with('/')
                && parts.next().is_some_and(|p| key(p) == program)
                && parts
                    .next()
                    .is_some_and(|p| COMMAND_FOLDERS.contains(&key(p).as_str()))
                && !in_tests(&e.path)
                && !leaf_stem(&e.path).ends_with("_test")
        };
        let fewest = if subcommands.len() == 1 { 1 } else { 2 };
        for n in (fewest..=subcommands.len()).rev() {
            let k = key(&subcommands[..n].concat());
            let found: Vec<&Entry> = self
                .by_key
                .get(&k)
                .into_iter()
                .flatten()
                .map(|&i| &self.entries[i as usize])
                .filter(|e| in_program(e))
                .collect();
            if found.len() == 1 {
                return found;
            }
        }
        Vec::new()
    }
}
