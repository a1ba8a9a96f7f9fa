//! Which commits touching a decision's paths a reader would not want warned about (docs/hooks.md,
//! ADR-0008 as amended): the one place the commit hook and `review` ask. A pure judgement from a
//! commit's facts (author, message, changed paths with their content before and after, the
//! root's `.gitattributes`) to "warn" or "quiet because …", each rule a `[hooks]` switch.

pub use super::echo::Echoed;
pub use super::generated::{is_generated, Attributes};
use super::layout::Folders;
pub use super::shape::{shape, Shape};
use super::shape::{versioned, versions_in};
use crate::model::{Quiet, QuietRules};

/// Known bots whose names carry no `bot` word.
const BOT_NAMES: &[&str] = &[
    "dependabot",
    "dependabot-preview",
    "renovate",
    "github-actions",
    "greenkeeper",
    "pre-commit-ci",
    "mergify",
    "imgbot",
    "allcontributors",
    "snyk-bot",
    "semantic-release-bot",
    "weblate",
];

/// Whether an author is a bot: `[bot]` in the name or email, a name whose last word is `bot`
/// (`ci-bot`, `Release Bot`), or a known bot's name (`dependabot`, `renovate`,
/// `github-actions`), alone or as a word of the name (`Mend Renovate`, Renovate's hosted app).
pub fn is_bot(name: &str, email: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    if name.contains("[bot]") || email.to_ascii_lowercase().contains("[bot]") {
        return true;
    }
    let last = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .rfind(|w| !w.is_empty())
        .unwrap_or("");
    last == "bot"
        || BOT_NAMES.contains(&name.as_str())
        || name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| !w.is_empty() && BOT_NAMES.contains(&w))
}

/// Words that start a release subject when a version follows (`Release v1.2.3`, `Bump to 2.0`).
const RELEASE_VERBS: &[&str] = &[
    "release",
    "releasing",
    "version",
    "bump",
    "bumped",
    "bumping",
    "prepare",
    "preparing",
    "cut",
    "tag",
    "tagging",
];

/// `text` after a conventional-commit type of a release (`chore:`, `build(deps)!:`, `ci:`),
/// or all of it.
fn after_type(text: &str) -> &str {
    for kind in ["chore", "build", "ci"] {
        let Some(rest) = text.strip_prefix(kind) else {
            continue;
        };
        let rest = match rest.strip_prefix('(') {
            Some(scoped) => match scoped.split_once(')') {
                Some((_, after)) => after,
                None => continue,
            },
            None => rest,
        };
        let rest = rest.strip_prefix('!').unwrap_or(rest);
        if let Some(rest) = rest.strip_prefix(':') {
            return rest.trim_start();
        }
    }
    text
}

/// Whether a commit's subject says it is a release or a version bump (`release: v0.8.0`,
/// `chore(release): 1.2.0`, `[maven-release-plugin] prepare release x-1.2`, `Release v1.2.3`,
/// `Bump version to 2.0`, `v1.2.3`). No regex: the commit hook asks on git's path.
pub fn is_release(subject: &str) -> bool {
    let s = subject.trim().to_ascii_lowercase();
    let starts = |p: &str| s.starts_with(p);
    if [
        "release:",
        "release(",
        "chore(release)",
        "[maven-release-plugin]",
        "[release]",
    ]
    .into_iter()
    .any(starts)
        || [
            "version bump",
            "bump version",
            "bumped version",
            "bump the version",
        ]
        .into_iter()
        .any(starts)
    {
        return true;
    }
    let rest = after_type(&s);
    let mut words = rest.split_whitespace();
    let first = words.next().unwrap_or("");
    if rest.len() < s.len() && (first == "release" || rest.starts_with("bump version")) {
        return true;
    }
    if matches!(first, "prepare" | "preparing")
        && rest
            .split(|c: char| !c.is_ascii_alphanumeric())
            .take(5)
            .any(|w| w == "release")
    {
        return true;
    }
    if RELEASE_VERBS.contains(&first) && versions_in(rest, 1) > 0 {
        return true;
    }
    // A bare version: `v1.2.3`, `1.4.0`.
    let bare = versioned(&s, 1);
    bare.trim() == "\u{0}"
}

/// One changed path of a commit, with what it held before and after (`None`: absent, or not
/// read because it is too large).
#[derive(Debug, Clone, Copy)]
pub struct Change<'a> {
    pub path: &'a str,
    /// A documentation page the decision reaches only through a folder (`hooks::pages`).
    pub folder_page: bool,
    /// A file many decisions govern (`hooks::shared`).
    pub shared: bool,
    /// A file a record the commit adds or edits governs (`hooks::written`).
    pub written: bool,
    /// A file the decision reaches only through entries of over a thousand files
    /// (`hooks::broad`).
    pub broad: bool,
    pub old: Option<&'a [u8]>,
    pub new: Option<&'a [u8]>,
}

/// A commit's facts for the judgement.
pub struct Facts<'a> {
    pub author: &'a str,
    pub email: &'a str,
    pub message: &'a str,
    pub attributes: &'a Attributes,
}

/// Whether the whole commit is quiet whatever it touches: a bot's, or a release by its subject.
pub fn commit_quiet(rules: &QuietRules, facts: &Facts) -> Option<Quiet> {
    if rules.skip_bots && is_bot(facts.author, facts.email) {
        return Some(Quiet::Bot);
    }
    let subject = facts.message.lines().find(|l| !l.trim().is_empty());
    if rules.skip_releases && subject.is_some_and(is_release) {
        return Some(Quiet::Release);
    }
    None
}

/// The decision a commit is judged about: its record's title, and what the commit does to the
/// folders (`hooks::layout::folders`; asked only when it matters).
pub struct Decision<'a> {
    pub title: &'a str,
    pub folders: &'a mut dyn FnMut() -> Folders,
    /// Whether each of these paths is a file the commit adds beside files of its kind
    /// (`hooks::layout::added_alike`).
    pub added_alike: &'a mut dyn FnMut(&[&str]) -> bool,
    /// Whether the record writes one of these names (`hooks::settings::writes_any`).
    pub writes_any: &'a mut dyn FnMut(&[String]) -> bool,
}

/// Whether the commit of `facts` is quiet about one decision whose governed paths it changes as
/// `governed` says. `rest_versions_only` is asked (only when it matters) whether every other
/// changed path of the commit changes only version strings or is a lock or generated file;
/// `decision.folders`, for a decision about where files live (`hooks::layout`), whether the
/// commit makes or empties no folder, or makes only folders shaped as one beside each;
/// `decision.added_alike` whether the governed paths are all files it adds beside their kind;
/// `decision.writes_any` whether the record writes a name the change to settings files gives;
/// `echo`, last, how much the change (`hooks::echo::changed_text`) shares with the record's
/// words and with the record it shares most with (`None`: not compared). `None`: warn.
pub fn judge(
    rules: &QuietRules,
    facts: &Facts,
    (governed, decision): (&[Change], Decision),
    rest_versions_only: &mut dyn FnMut() -> bool,
    echo: &mut dyn FnMut(&[u8]) -> Option<Echoed>,
) -> Option<Quiet> {
    if let Some(quiet) = commit_quiet(rules, facts) {
        return Some(quiet);
    }
    if governed.is_empty() {
        return None;
    }
    let quiet = by_change(rules, governed, facts.attributes, rest_versions_only);
    // A decision about where files live, and a commit that leaves its folders as they were or
    // makes one more of a kind of folder it has.
    if quiet.is_none() && rules.skip_layout_edits && super::layout::is_layout(decision.title) {
        match (decision.folders)() {
            Folders::Kept => return Some(Quiet::LayoutKept),
            Folders::Repeated => return Some(Quiet::LayoutRepeated),
            Folders::Changed => {}
        }
    }
    // One more of a kind of file the decision's folders hold: a new rule beside the rules.
    if quiet.is_none() && rules.skip_added_alike {
        let paths: Vec<&str> = governed.iter().map(|c| c.path).collect();
        if (decision.added_alike)(&paths) {
            return Some(Quiet::AddedAlike);
        }
    }
    // Settings, or words swapped, that the record never writes.
    let unnamed = || super::renames::unnamed(rules, governed, decision.writes_any);
    if let Some(q) = quiet.is_none().then(unnamed).flatten() {
        return Some(q);
    }
    // A file too large to read (neither side held) says nothing we could compare.
    let unread = governed.iter().any(|c| c.old.is_none() && c.new.is_none());
    if quiet.is_none() && rules.skip_unechoed && !unread {
        let text = super::echo::changed_text(governed, facts.message);
        if let Some(q) = echo(&text).and_then(super::echo::verdict) {
            return Some(q);
        }
    }
    quiet
}

/// [`judge`]'s rules on what the governed paths' changes are.
fn by_change(
    rules: &QuietRules,
    governed: &[Change],
    attributes: &Attributes,
    rest_versions_only: &mut dyn FnMut() -> bool,
) -> Option<Quiet> {
    let (mut generated, mut whitespace, mut versions) = (false, false, false);
    let (mut pages, mut shared, mut comments) = (false, false, false);
    let (mut written, mut broad) = (false, false);
    for c in governed {
        if rules.skip_doc_pages && c.folder_page {
            pages = true;
            continue;
        }
        if rules.record_edit_covers && c.written {
            written = true;
            continue;
        }
        if rules.skip_broad_folders && c.broad {
            broad = true;
            continue;
        }
        // Edited, not added or deleted.
        if rules.skip_shared_files && c.shared && c.old.is_some() && c.new.is_some() {
            shared = true;
            continue;
        }
        if rules.skip_generated && is_generated(c.path, attributes) {
            generated = true;
            continue;
        }
        match shape(c.path, c.old, c.new) {
            Shape::Whitespace if rules.skip_whitespace => whitespace = true,
            Shape::Comments if rules.skip_whitespace => comments = true,
            Shape::VersionOnly if rules.skip_releases => versions = true,
            _ => return None,
        }
    }
    if versions {
        return rest_versions_only().then_some(Quiet::VersionOnly);
    }
    if comments {
        return Some(Quiet::Comments);
    }
    if whitespace {
        return Some(Quiet::Whitespace);
    }
    if generated {
        return Some(Quiet::Generated);
    }
    if pages {
        return Some(Quiet::DocPages);
    }
    if written {
        return Some(Quiet::OwnRecord);
    }
    if shared {
        return Some(Quiet::SharedFiles);
    }
    broad.then_some(Quiet::BroadFolder)
}

/// Whether one changed path, not governed, leaves a version-only commit version-only: a lock or
/// generated file, a documentation page (a release's notes, a docs sync to the new version), or
/// a change of version strings alone (whitespace too).
pub fn versions_only(rules: &QuietRules, change: &Change, attributes: &Attributes) -> bool {
    (rules.skip_generated && is_generated(change.path, attributes))
        || (rules.skip_doc_pages && super::pages::is_page(change.path))
        || matches!(
            shape(change.path, change.old, change.new),
            Shape::VersionOnly | Shape::Whitespace
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_by_name_and_email() {
        assert!(is_bot(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com"
        ));
        assert!(is_bot("renovate", "bot@renovateapp.com"));
        assert!(is_bot("github-actions", "noreply@github.com"));
        assert!(is_bot("ci-bot", "ci@example.com"));
        assert!(is_bot("Release Bot", "r@example.com"));
        assert!(is_bot("Mend Renovate", "bot@renovateapp.com"));
        assert!(!is_bot("Abbot Smith", "abbot@example.com"));
        assert!(!is_bot("Ana", "ana@example.com"));
        assert!(!is_bot("Robot Rick", "rick@example.com"));
    }

    #[test]
    fn release_subjects() {
        for s in [
            "release: v0.8.0",
            "chore(release): 1.2.0",
            "chore: release 2.0.0",
            "[maven-release-plugin] prepare release hyades-apiserver-5.6.0",
            "[maven-release-plugin] prepare for next development iteration",
            "Release v1.2.3",
            "Bump version to 2.0",
            "bump version",
            "v1.2.3",
            "1.4.0",
            "Prepare release 3.1",
            "Version 5.1.0",
        ] {
            assert!(is_release(s), "{s}");
        }
        for s in [
            "Release the lock before writing",
            "Fix the version check",
            "Add release notes page",
            "Handle timeouts of 1.5 seconds",
        ] {
            assert!(!is_release(s), "{s}");
        }
    }

    /// A decision about a mechanism, whose commit makes a folder.
    macro_rules! d {
        () => {
            Decision {
                title: "Use PostgreSQL",
                folders: &mut || Folders::Changed,
                added_alike: &mut |_| false,
                writes_any: &mut |_| true,
            }
        };
    }

    #[test]
    fn the_judgement_and_its_switches() {
        let attrs = Attributes::default();
        let facts = |author: &'static str, message: &'static str| Facts {
            author,
            email: "a@example.com",
            message,
            attributes: &attrs,
        };
        let on = QuietRules::default();
        let code = [Change {
            path: "src/a.rs",
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: Some(b"fn a() {}\n"),
            new: Some(b"fn a() { 1 }\n"),
        }];
        let yes = &mut || true;
        let none = &mut |_: &[u8]| None;
        assert_eq!(
            judge(&on, &facts("Ana", "Fix"), (&code, d!()), yes, none),
            None
        );
        assert_eq!(
            judge(&on, &facts("ci-bot", "Fix"), (&code, d!()), yes, none),
            Some(Quiet::Bot)
        );
        let off = QuietRules {
            skip_bots: false,
            ..on
        };
        assert_eq!(
            judge(&off, &facts("ci-bot", "Fix"), (&code, d!()), yes, none),
            None
        );
        let lock = [Change {
            path: "Cargo.lock",
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: Some(b"a"),
            new: Some(b"b"),
        }];
        assert_eq!(
            judge(&on, &facts("Ana", "Deps"), (&lock, d!()), yes, none),
            Some(Quiet::Generated)
        );
        let both = [lock[0], code[0]];
        assert_eq!(
            judge(&on, &facts("Ana", "Deps"), (&both, d!()), yes, none),
            None
        );
        let bump = [Change {
            path: "pom.xml",
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: Some(b"<version>1.2</version>\n"),
            new: Some(b"<version>1.3</version>\n"),
        }];
        assert_eq!(
            judge(&on, &facts("Ana", "Next"), (&bump, d!()), yes, none),
            Some(Quiet::VersionOnly)
        );
        assert_eq!(
            judge(
                &on,
                &facts("Ana", "Next"),
                (&bump, d!()),
                &mut || false,
                none
            ),
            None
        );
        // Last, how much the change shares with the record: under `UNECHOED`, one line.
        let echoed = |record, best| Some(Echoed { record, best });
        let mut said = Vec::new();
        let mut low = |text: &[u8]| {
            said = text.to_vec();
            echoed(0.01, 0.01)
        };
        assert_eq!(
            judge(&on, &facts("Ana", "Fix"), (&code, d!()), yes, &mut low),
            Some(Quiet::Unechoed)
        );
        assert_eq!(said, b"fn a() { 1 }\nfn a() {}\nFix");
        let high = &mut |_: &[u8]| echoed(0.2, 0.2);
        assert_eq!(
            judge(&on, &facts("Ana", "Fix"), (&code, d!()), yes, high),
            None
        );
        // Far more like another record than its own: one line too.
        let other = &mut |_: &[u8]| echoed(0.05, 0.2);
        assert_eq!(
            judge(&on, &facts("Ana", "Fix"), (&code, d!()), yes, other),
            Some(Quiet::EchoedElsewhere)
        );
        let off = QuietRules {
            skip_unechoed: false,
            ..on
        };
        let low = &mut |_: &[u8]| echoed(0.01, 0.01);
        assert_eq!(
            judge(&off, &facts("Ana", "Fix"), (&code, d!()), yes, low),
            None
        );
        // A file too large to read: not compared.
        let unread = [Change {
            old: None,
            new: None,
            ..code[0]
        }];
        let low = &mut |_: &[u8]| echoed(0.01, 0.01);
        assert_eq!(
            judge(&on, &facts("Ana", "Fix"), (&unread, d!()), yes, low),
            None
        );
        // Quiet for another reason first: the echo is not asked.
        let never = &mut |_: &[u8]| -> Option<Echoed> { panic!("asked") };
        assert_eq!(
            judge(&on, &facts("Ana", "Deps"), (&lock, d!()), yes, never),
            Some(Quiet::Generated)
        );
    }

    #[test]
    fn a_layout_decision_and_a_commit_that_makes_or_empties_no_folder() {
        let attrs = Attributes::default();
        let facts = Facts {
            author: "Ana",
            email: "a@example.com",
            message: "Fix the reducer",
            attributes: &attrs,
        };
        let code = [Change {
            path: "src/model/reducer.ts",
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: Some(b"return state;\n"),
            new: Some(b"return { ...state };\n"),
        }];
        let on = QuietRules::default();
        let yes = &mut || true;
        let mut judged = |rules: &QuietRules, title, kept: Folders| {
            let mut asked = false;
            let mut folders = || {
                asked = true;
                kept
            };
            let decision = Decision {
                title,
                folders: &mut folders,
                added_alike: &mut |_| false,
                writes_any: &mut |_| true,
            };
            let q = judge(rules, &facts, (&code, decision), yes, &mut |_| None);
            (q, asked)
        };
        let layout = "use a clear package structure";
        let (kept, repeated, changed) = (Folders::Kept, Folders::Repeated, Folders::Changed);
        assert_eq!(judged(&on, layout, kept), (Some(Quiet::LayoutKept), true));
        assert_eq!(
            judged(&on, layout, repeated),
            (Some(Quiet::LayoutRepeated), true)
        );
        // A folder of a new shape made, or one emptied, anywhere in the commit: warned in full.
        assert_eq!(judged(&on, layout, changed), (None, true));
        // A decision about something else is not asked about the files.
        assert_eq!(judged(&on, "Use PostgreSQL", kept), (None, false));
        let off = QuietRules {
            skip_layout_edits: false,
            ..on
        };
        assert_eq!(judged(&off, layout, repeated), (None, false));
    }

    #[test]
    fn files_added_beside_their_kind_get_a_line() {
        let facts = Facts {
            author: "Ana",
            email: "ana@example.com",
            message: "Add a rule that copies the order",
            attributes: &Attributes::default(),
        };
        let code = [Change {
            path: "rules/custom/copy_order.java",
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: None,
            new: Some(b"class CopyOrder {}\n"),
        }];
        let judged = |rules: &QuietRules, alike: bool| {
            let mut seen = Vec::new();
            let mut added_alike = |paths: &[&str]| {
                seen.extend(paths.iter().map(|p| p.to_string()));
                alike
            };
            let decision = Decision {
                title: "Transform messages by rules",
                folders: &mut || Folders::Changed,
                added_alike: &mut added_alike,
                writes_any: &mut |_| true,
            };
            let q = judge(rules, &facts, (&code, decision), &mut || true, &mut |_| {
                None
            });
            (q, seen)
        };
        let on = QuietRules::default();
        let asked = vec!["rules/custom/copy_order.java".to_string()];
        assert_eq!(judged(&on, true), (Some(Quiet::AddedAlike), asked.clone()));
        assert_eq!(judged(&on, false), (None, asked));
        let off = QuietRules {
            skip_added_alike: false,
            ..on
        };
        assert_eq!(judged(&off, true), (None, vec![]));
    }
}
