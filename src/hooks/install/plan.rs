//! What a hook file becomes, decided from its text alone (ADR-0008): our part between
//! [`BEGIN`] and [`END`] put in, replaced or taken out, a hook of someone else's kept beside
//! ours and chained, the `#!` line we added removed with our part.

use crate::hooks::Hook;
use crate::model::HookAction;

/// The line our part begins with.
pub const BEGIN: &str = "# >>> context-graph >>>";
/// The line our part ends with.
pub const END: &str = "# <<< context-graph <<<";
/// Where the scripts in `hooks/` name the binary that installs them.
pub(super) const PLACEHOLDER: &str = "@CONTEXT_GRAPH_BIN@";
/// The suffix of a hook kept beside ours and run by it.
pub const CHAINED: &str = ".before-context-graph";
/// In our part of a hook that had no `#!` line: the one we added goes when our part goes.
const ADDED_SHEBANG: &str =
    "# (context-graph added the #!/bin/sh line above: uninstall-hooks removes it with this part)";

/// `path` as one shell word.
fn shell_quote(path: &str) -> String {
    format!("'{}'", path.replace('\'', "'\\''"))
}

/// The line a wrapper ends its part with: run the hook that was there before.
fn chain_line(hook: Hook) -> String {
    format!("exec \"${{0%/*}}/{}{CHAINED}\" \"$@\"", hook.name())
}

/// Our part of `hook` (from [`BEGIN`] to [`END`], each line ending in `\n`), naming `bin`.
fn block(hook: Hook, bin: &str, chain: bool, added_shebang: bool) -> String {
    let script = hook.script();
    let start = script
        .find(BEGIN)
        .expect("every script holds the begin marker");
    let quoted = shell_quote(bin);
    let mut lines: Vec<String> = script[start..]
        .lines()
        .map(|l| l.replace(PLACEHOLDER, &quoted))
        .collect();
    if added_shebang {
        lines.insert(1, ADDED_SHEBANG.to_string());
    }
    if chain {
        let end = lines.len() - 1;
        lines.insert(end, chain_line(hook));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Where our part is in `text`: the byte range from its [`BEGIN`] line through its [`END`] line
/// and that line's newline. `Err(())` when a begin marker has no end marker after it.
fn find_block(text: &str) -> Result<Option<std::ops::Range<usize>>, ()> {
    let mut at = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if start.is_none() && bare == BEGIN {
            start = Some(at);
        } else if bare == END {
            if let Some(s) = start {
                return Ok(Some(s..at + line.len()));
            }
        }
        at += line.len();
    }
    match start {
        Some(_) => Err(()),
        None => Ok(None),
    }
}

/// Whether a `#!` line runs a POSIX-style shell (which can run our lines before its own).
pub(super) fn is_shell(shebang: &str) -> bool {
    let mut words = shebang.trim_start_matches("#!").split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let program = if base(first) == "env" {
        match words.find(|w| !w.starts_with('-')) {
            Some(p) => base(p),
            None => return false,
        }
    } else {
        base(first)
    };
    matches!(
        program.as_str(),
        "sh" | "bash" | "dash" | "ksh" | "zsh" | "ash" | "mksh" | "posh" | "yash"
    )
}

/// A hook file as found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Found<'a> {
    /// Its text (`None`: no such file).
    pub text: Option<&'a str>,
    pub executable: bool,
    /// It is a symbolic link.
    pub link: bool,
    /// `NAME.before-context-graph` exists beside it.
    pub chained_exists: bool,
}

/// What a hook file becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    pub action: HookAction,
    /// The new text of the file (`None`: leave it, or delete it for [`HookAction::Deleted`]).
    pub text: Option<String>,
    /// Move the file to `NAME.before-context-graph` first ([`HookAction::Chained`]), or move
    /// that file back over it ([`HookAction::Restored`]).
    pub move_chained: bool,
}

impl Plan {
    fn leave(action: HookAction) -> Plan {
        Plan {
            action,
            text: None,
            move_chained: false,
        }
    }
}

/// What `install-hooks` makes of the hook file `found`, calling `bin`. `Err` when the file has a
/// begin marker without its end.
pub(super) fn plan_install(hook: Hook, found: Found, bin: &str) -> Result<Plan, ()> {
    let text = match found.text {
        Some(t) if !t.trim().is_empty() => t,
        // No hook, or an empty one (which does nothing): ours, whole.
        _ if !found.link => {
            return Ok(Plan {
                action: HookAction::Created,
                text: Some(format!("#!/bin/sh\n{}", block(hook, bin, false, false))),
                move_chained: false,
            })
        }
        _ => "",
    };
    if let Some(range) = find_block(text)? {
        if !found.executable {
            return Ok(Plan::leave(HookAction::SkippedNotExecutable));
        }
        let old = &text[range.clone()];
        let chain = found.chained_exists && old.contains(&chain_line(hook));
        let added = old.contains(ADDED_SHEBANG);
        let mut new = String::with_capacity(text.len());
        new.push_str(&text[..range.start]);
        new.push_str(&block(hook, bin, chain, added));
        new.push_str(&text[range.end..]);
        return Ok(if new == text {
            Plan::leave(HookAction::Unchanged)
        } else {
            Plan {
                action: HookAction::Updated,
                text: Some(new),
                move_chained: false,
            }
        });
    }
    if !found.executable {
        return Ok(Plan::leave(HookAction::SkippedNotExecutable));
    }
    if found.link {
        return Ok(chained(hook, bin));
    }
    let first = text.lines().next().unwrap_or("");
    let new = if !first.starts_with("#!") {
        // Git runs a hook without a `#!` line with the shell: it still will, after ours.
        format!("#!/bin/sh\n{}{text}", block(hook, bin, false, true))
    } else if is_shell(first) {
        let after = text.find('\n').map_or(text.len(), |i| i + 1);
        let mut new = text[..after].to_string();
        if !new.ends_with('\n') {
            new.push('\n');
        }
        new.push_str(&block(hook, bin, false, false));
        new.push_str(&text[after..]);
        new
    } else {
        return Ok(chained(hook, bin));
    };
    Ok(Plan {
        action: HookAction::Added,
        text: Some(new),
        move_chained: false,
    })
}

/// A shell hook holding our part, then running the hook that was there (kept beside it).
fn chained(hook: Hook, bin: &str) -> Plan {
    Plan {
        action: HookAction::Chained,
        text: Some(format!("#!/bin/sh\n{}", block(hook, bin, true, false))),
        move_chained: true,
    }
}

/// What `uninstall-hooks` makes of the hook file `found`. `Err` when the file has a begin
/// marker without its end.
pub(super) fn plan_uninstall(hook: Hook, found: Found) -> Result<Plan, ()> {
    let Some(text) = found.text else {
        return Ok(Plan::leave(HookAction::NotInstalled));
    };
    let Some(range) = find_block(text)? else {
        return Ok(Plan::leave(HookAction::NotInstalled));
    };
    let old = &text[range.clone()];
    let mut rest = format!("{}{}", &text[..range.start], &text[range.end..]);
    if old.contains(ADDED_SHEBANG) {
        if let Some(after) = rest.strip_prefix("#!/bin/sh\n") {
            rest = after.to_string();
        }
    }
    if found.chained_exists && old.contains(&chain_line(hook)) {
        return Ok(Plan {
            action: HookAction::Restored,
            text: None,
            move_chained: true,
        });
    }
    // Nothing left but a `#!` line: nothing else was in it.
    let body = match rest.lines().next() {
        Some(first) if first.starts_with("#!") => &rest[first.len()..],
        _ => rest.as_str(),
    };
    Ok(if body.trim().is_empty() {
        Plan::leave(HookAction::Deleted)
    } else {
        Plan {
            action: HookAction::Removed,
            text: Some(rest),
            move_chained: false,
        }
    })
}
