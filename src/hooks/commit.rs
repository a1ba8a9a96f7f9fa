//! What a commit in the making touches (docs/hooks.md, ADR-0008): the current decisions
//! governing its staged paths (decided by `governs::Scope`, as for `why` and drift), whether
//! its message cites them (docs/reading.md), and the message template with a hint naming them.

use crate::governs::Scope;
use crate::model::{Governing, Record};
use crate::text::ids;
use crate::text::marker::Markers;

/// Whether `record`'s decision governs the root-relative `path`: its governed entries match
/// it (`governs::Scope`), or the file declares it by a marker in `markers` (docs/markers.md).
/// The one rule the commit warning, the hint and `review` share.
pub fn governs_path(record: &Record, scope: &Scope, path: &str, markers: &Markers) -> bool {
    id_governs_path(&record.id, scope, path, markers) && !is_other_record(record, path)
}

/// Whether `path` is another record of `record`'s folder: a record's scope (adrkit's meta
/// record declares `docs/adr/**`) is about code, and writing the next record is no change to
/// the decision to keep records (docs/hooks.md).
fn is_other_record(record: &Record, path: &str) -> bool {
    let folder = |p: &str| {
        p.rsplit_once('/')
            .map(|(f, _)| f.to_string())
            .unwrap_or_default()
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    path != record.path
        && folder(path) == folder(&record.path)
        && crate::fs::discover::is_record_name(name)
}

/// [`governs_path`] for the decision `id` whose governed entries make `scope`.
pub fn id_governs_path(id: &str, scope: &Scope, path: &str, markers: &Markers) -> bool {
    scope.governs(path) || markers.declares(path, id)
}

/// The current decisions of `records` that govern some of `paths` (root-relative), by their
/// governed entries or by what `markers` says the files declare, each with the paths it
/// governs, by id. Records sharing an id count as one decision.
pub fn governing(records: &[Record], paths: &[String], markers: &Markers) -> Vec<Governing> {
    let mut out: Vec<Governing> = Vec::new();
    if paths.is_empty() {
        return out;
    }
    for r in records.iter().filter(|r| r.status.is_current()) {
        if r.governs.is_empty() && markers.is_empty() {
            continue;
        }
        let scope = Scope::new(&r.governs);
        let mut hit: Vec<String> = paths
            .iter()
            .filter(|p| governs_path(r, &scope, p, markers))
            .cloned()
            .collect();
        hit.sort();
        if hit.is_empty() {
            continue;
        }
        match out.iter_mut().find(|g| g.id == r.id) {
            Some(g) => {
                g.paths.extend(hit);
                g.paths.sort();
                g.paths.dedup();
            }
            None => out.push(Governing {
                id: r.id.clone(),
                title: r.title.clone(),
                record: r.path.clone(),
                paths: hit,
                cited: false,
            }),
        }
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// Git's scissors line (`git commit -v`): it and everything below it is not the message.
fn is_scissors(line: &str, comment: &str) -> bool {
    line.trim_end()
        .strip_prefix(comment)
        .is_some_and(|rest| rest == " ------------------------ >8 ------------------------")
}

/// How git cleans up a commit message before committing it (`git commit --cleanup`,
/// `commit.cleanup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cleanup {
    /// Comment lines dropped, and everything from a scissors line on.
    Strip,
    /// Whitespace only: comment lines are kept (git's choice for `-m` and `-F`).
    Whitespace,
    /// Nothing changed.
    Verbatim,
    /// Comment lines kept, everything from a scissors line on dropped.
    Scissors,
}

impl Cleanup {
    /// The mode git uses for `mode` (the command line's `--cleanup`, else `commit.cleanup`):
    /// `default` (or none, or a word git would refuse) strips when git opens an editor and
    /// keeps comment lines when it does not; `scissors` without an editor is `whitespace`.
    pub fn of(mode: Option<&str>, editor: bool) -> Cleanup {
        let mode = mode.map(|m| m.trim().to_ascii_lowercase());
        match mode.as_deref() {
            Some("strip") => Cleanup::Strip,
            Some("whitespace") => Cleanup::Whitespace,
            Some("verbatim") => Cleanup::Verbatim,
            Some("scissors") if editor => Cleanup::Scissors,
            Some("scissors") => Cleanup::Whitespace,
            _ if editor => Cleanup::Strip,
            _ => Cleanup::Whitespace,
        }
    }
}

/// The message as git will commit it under `cleanup`: with [`Cleanup::Strip`], its comment
/// lines (starting with `comment`) dropped and everything from a scissors line on; with
/// [`Cleanup::Scissors`], only the latter; otherwise all of it (a subject `#3306 Fix user`
/// written with `-m` is kept by git, so it is read here).
pub fn message_body(raw: &str, comment: &str, cleanup: Cleanup) -> String {
    let mut out = String::with_capacity(raw.len());
    for line in raw.lines() {
        if matches!(cleanup, Cleanup::Strip | Cleanup::Scissors) && is_scissors(line, comment) {
            break;
        }
        if cleanup == Cleanup::Strip && line.starts_with(comment) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// What a fixup or squash commit's message names (`git commit --fixup`/`--squash`): the
/// subject (or revision) after `fixup! `, `squash! ` or `amend! `, repeated prefixes removed.
/// Such a subject stands for its target's message, whose citations count for it.
pub fn fixup_target(body: &str) -> Option<&str> {
    let mut subject = body.lines().find(|l| !l.trim().is_empty())?.trim_end();
    let mut found = false;
    while let Some(rest) = ["fixup! ", "squash! ", "amend! "]
        .iter()
        .find_map(|p| subject.strip_prefix(p))
    {
        subject = rest;
        found = true;
    }
    let subject = subject.trim();
    (found && !subject.is_empty()).then_some(subject)
}

/// Whether `text` cites the record `id` (docs/reading.md): it mentions the id (`ADR-4`,
/// `adr 0004` for `ADR-0004`). An id that no mention can spell (a record named by its dated file
/// stem) is cited by writing it out, in any case, as a word of its own.
pub fn cites(text: &str, id: &str) -> bool {
    let spelled = ids::mentions(id);
    if matches!(spelled.as_slice(), [m] if m.start == 0 && m.end == id.len()) {
        return ids::mentions(text).iter().any(|m| m.id == id);
    }
    let (hay, needle) = (text.to_lowercase(), id.to_lowercase());
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    hay.match_indices(&needle).any(|(at, _)| {
        !word(hay[..at].chars().next_back()) && !word(hay[at + needle.len()..].chars().next())
    })
}

/// The message template `raw` with the comment lines `hint` added where git's own comments
/// begin (below the message the author writes, above git's status and any scissors line), or at
/// the end when there are none.
pub fn with_hint(raw: &str, hint: &str, comment: &str) -> String {
    let lines: Vec<&str> = raw.split_inclusive('\n').collect();
    let end = lines
        .iter()
        .position(|l| is_scissors(l, comment))
        .unwrap_or(lines.len());
    let is_comment = |l: &str| l.starts_with(comment);
    let blank = |l: &str| l.trim().is_empty();
    // The comments and blank lines ending the template before `end`, from their first comment.
    let mut at = end;
    while at > 0 && (is_comment(lines[at - 1]) || blank(lines[at - 1])) {
        at -= 1;
    }
    while at < end && blank(lines[at]) {
        at += 1;
    }
    let mut out = String::with_capacity(raw.len() + hint.len() + 1);
    if at < end {
        lines[..at].iter().for_each(|l| out.push_str(l));
        out.push_str(hint);
        lines[at..].iter().for_each(|l| out.push_str(l));
    } else {
        lines[..end].iter().for_each(|l| out.push_str(l));
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.trim().is_empty() {
            out.push('\n');
        }
        out.push_str(hint);
        lines[end..].iter().for_each(|l| out.push_str(l));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;

    fn record(id: &str, status: Status, governs: &[&str]) -> Record {
        let mut r = Record::bare(
            id,
            &format!("Title of {id}"),
            status,
            &format!("docs/adr/{id}.md"),
        );
        r.governs = governs.iter().map(|g| g.to_string()).collect();
        r
    }

    /// Each decision found and the paths it governs.
    fn id_paths(found: &[Governing]) -> Vec<(&str, &[String])> {
        found
            .iter()
            .map(|g| (g.id.as_str(), g.paths.as_slice()))
            .collect()
    }

    #[test]
    fn only_current_decisions_govern_and_negations_hold() {
        let records = [
            record(
                "ADR-0002",
                Status::Accepted,
                &["src/auth/", "!src/auth/gen/"],
            ),
            record("ADR-0001", Status::Implemented, &["src/auth/login.py"]),
            record("ADR-0003", Status::Superseded, &["src/"]),
            record("ADR-0004", Status::Deprecated, &["src/auth/"]),
            record("ADR-0005", Status::Proposed, &["src/"]),
        ];
        let paths: Vec<String> = ["src/auth/login.py", "src/auth/gen/x.py", "README.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let found = governing(&records, &paths, &Markers::default());
        let ids = id_paths(&found);
        assert_eq!(
            ids,
            [
                ("ADR-0001", &["src/auth/login.py".to_string()][..]),
                ("ADR-0002", &["src/auth/login.py".to_string()][..]),
            ]
        );
        assert!(governing(&records, &[], &Markers::default()).is_empty());
        // A file declaring a current decision is governed by it; one declaring a superseded
        // decision is not (its successor's markers are the file's to add).
        let declared = Markers::new(vec![crate::text::marker::FileMarkers {
            path: "README.md".to_string(),
            markers: vec![
                crate::text::marker::Marker {
                    line: 1,
                    id: "ADR-0001".to_string(),
                },
                crate::text::marker::Marker {
                    line: 2,
                    id: "ADR-0003".to_string(),
                },
            ],
        }]);
        let found = governing(&records, &paths, &declared);
        let ids = id_paths(&found);
        assert_eq!(
            ids,
            [
                (
                    "ADR-0001",
                    &["README.md".to_string(), "src/auth/login.py".to_string()][..]
                ),
                ("ADR-0002", &["src/auth/login.py".to_string()][..]),
            ]
        );
    }

    #[test]
    fn comments_and_what_follows_the_scissors_are_not_the_message() {
        let raw = "Fix it\n\n# ADR-0004 governs this\nBody ADR-7\n# ------------------------ >8 ------------------------\n+ADR-0009\n";
        let strip = Cleanup::of(None, true);
        assert_eq!(message_body(raw, "#", strip), "Fix it\n\nBody ADR-7\n");
        assert_eq!(
            message_body("; x\nkept # ADR-1\n", ";", strip),
            "kept # ADR-1\n"
        );
        // `-m`/`-F` (no editor) keep comment lines, and so does `--cleanup=whitespace`.
        let kept = "#3306 Fix user (ADR-0007)\n";
        assert_eq!(message_body(kept, "#", Cleanup::of(None, false)), kept);
        assert_eq!(
            message_body(kept, "#", Cleanup::of(Some("whitespace"), true)),
            kept
        );
        assert_eq!(
            message_body(kept, "#", Cleanup::of(Some("strip"), false)),
            ""
        );
        assert_eq!(
            message_body(raw, "#", Cleanup::of(Some("scissors"), true)),
            "Fix it\n\n# ADR-0004 governs this\nBody ADR-7\n"
        );
        assert_eq!(
            message_body(raw, "#", Cleanup::of(Some("verbatim"), true)),
            raw
        );
    }

    #[test]
    fn a_fixup_or_squash_subject_names_its_target() {
        assert_eq!(fixup_target("fixup! Short tokens\n"), Some("Short tokens"));
        assert_eq!(
            fixup_target("squash! fixup! Short tokens\n\nMore\n"),
            Some("Short tokens")
        );
        assert_eq!(fixup_target("amend! abc1234\n"), Some("abc1234"));
        assert_eq!(fixup_target("fixup!\n"), None);
        assert_eq!(fixup_target("Fix the fixup! code\n"), None);
    }

    #[test]
    fn a_message_cites_by_any_spelling_of_the_id() {
        assert!(cites("Shorten tokens (adr 4)", "ADR-0004"));
        assert!(cites("per ADR-0004.", "ADR-0004"));
        assert!(!cites("ADR-00041 and ADR-5", "ADR-0004"));
        assert!(!cites("nothing", "ADR-0004"));
        assert!(cites(
            "follows 2024-05-01-use-redis",
            "2024-05-01-use-redis"
        ));
        assert!(!cites(
            "follows 2024-05-01-use-redis-cluster",
            "2024-05-01-use-redis"
        ));
    }

    #[test]
    fn the_hint_goes_where_gits_comments_begin() {
        let hint = "# hint\n#\n";
        let template = "\n# Please enter the commit message.\n#\n# On branch main\n";
        assert_eq!(
            with_hint(template, hint, "#"),
            "\n# hint\n#\n# Please enter the commit message.\n#\n# On branch main\n"
        );
        let amend = "Old subject\n\nOld body\n\n# Please enter\n";
        assert_eq!(
            with_hint(amend, hint, "#"),
            "Old subject\n\nOld body\n\n# hint\n#\n# Please enter\n"
        );
        let verbose = "\n# Please\n# ------------------------ >8 ------------------------\n# Do not\ndiff --git a b\n";
        assert_eq!(
            with_hint(verbose, hint, "#"),
            "\n# hint\n#\n# Please\n# ------------------------ >8 ------------------------\n# Do not\ndiff --git a b\n"
        );
        assert_eq!(with_hint("", hint, "#"), hint);
        assert_eq!(with_hint("Subject", hint, "#"), "Subject\n\n# hint\n#\n");
    }
}
