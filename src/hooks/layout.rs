//! Decisions about where files live (docs/hooks.md, ADR-0008 as amended 2026-12-07): a record
//! titled "use a clear package structure", "Repository Structure", "Make Wikibase.git a
//! monorepo" or "Use `repo/domains/` for newly defined subsystems" decides which folders there
//! are and what goes in each. A commit that makes no folder and empties none leaves that as
//! it was: its files went where files of theirs already were, whatever it changes inside
//! them. Of 76 pairs under such records readers judged on seventeen repositories, the 63 whose
//! commit made or emptied no folder were 53 irrelevant and 10 weak; of the 13 that did, one
//! was relevant (a new folder the layout does not list), 9 weak and 3 irrelevant. Of 50 pairs
//! judged blind after this was built, it made 41 lines (1 relevant: a shared middleware
//! decoupled from a domain by edits) and left 9 in full, none irrelevant (docs/corpora.md,
//! "Commit warnings, tenth pass").
//!
//! Only the title is read: a layout is what the record is about, and its title says so in a
//! few known phrases. A structure or layout of something other than files (a "record layout",
//! a "file structure" of one file's bytes, a "data structure") is not one.

use std::collections::BTreeSet;

/// What a layout, structure or organisation is of, when it is of files: "package structure",
/// "directory layout", "code organisation".
const OF_FILES: &[&str] = &[
    "package",
    "packages",
    "project",
    "repository",
    "repo",
    "directory",
    "directories",
    "folder",
    "folders",
    "source",
    "code",
    "codebase",
    "module",
    "modules",
    "crate",
    "workspace",
    "solution",
];

/// Words that, after one of [`OF_FILES`], make it a layout.
const ARRANGEMENT: &[&str] = &[
    "structure",
    "layout",
    "organization",
    "organisation",
    "placement",
];

/// Words that, after "where", say a thing's place: "where shared code lives".
const PLACED: &[&str] = &["live", "lives", "go", "goes", "belong", "belongs", "put"];

/// Whether a record's title says it decides where files live: a structure, layout,
/// organisation or placement of packages, the project, the repository, folders, source or code
/// ("use a clear package structure", "Repository Structure"); a layout of spec files or of
/// files ("openapi-spec-layout"); a monorepo; "where … lives/goes/belongs"; or a folder in
/// backticks (`` Use `repo/domains/` for … ``).
pub fn is_layout(title: &str) -> bool {
    if names_folder(title) {
        return true;
    }
    let lower = title.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let pairs = words.windows(2).any(|w| {
        let (of, what) = (w[0], w[1]);
        (OF_FILES.contains(&of) && ARRANGEMENT.contains(&what))
            || (matches!(of, "spec" | "file" | "files") && what == "layout")
    });
    let monorepo =
        words.windows(2).any(|w| w[0] == "mono" && w[1] == "repo") || words.contains(&"monorepo");
    let placed = words
        .iter()
        .position(|w| *w == "where")
        .is_some_and(|at| words[at + 1..].iter().take(6).any(|w| PLACED.contains(w)));
    pairs || monorepo || placed
}

/// What a commit does to the folders a decision about where files live is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folders {
    /// It makes no folder and empties none: each file it adds goes in a folder that held a
    /// file before, and each folder it removes a file from holds one after; a move is both.
    Kept,
    /// It empties none, and each folder it makes holds the same sub-folders and kinds of files
    /// (two or more) as a folder beside it held before: one more of a kind the layout has
    /// ("a new component folder with its `.ts`, `.html` and `.css`, as every other").
    Repeated,
    /// It makes a folder of a shape none beside it has, or empties one.
    Changed,
}

/// The folders around a commit, before and after it (root-relative, no trailing `/`; the root
/// is `""`).
pub trait FolderView {
    /// Whether `folder` held a file before the commit.
    fn held_before(&self, folder: &str) -> bool;
    /// Whether `folder` holds a file after it.
    fn holds_after(&self, folder: &str) -> bool;
    /// What `folder` holds directly, before or `after` the commit: each entry's name, and
    /// whether it is a folder.
    fn entries(&self, after: bool, folder: &str) -> Vec<(String, bool)>;
}

/// What the commit adding `added` and removing `removed` (root-relative files) does to the
/// folders, as `view` sees them.
pub fn folders(added: &[&str], removed: &[&str], view: &dyn FolderView) -> Folders {
    let folder = |p: &str| p.rsplit_once('/').map(|(f, _)| f.to_string());
    if removed
        .iter()
        .filter_map(|p| folder(p))
        .any(|f| !view.holds_after(&f))
    {
        return Folders::Changed;
    }
    let made: BTreeSet<String> = added
        .iter()
        .filter_map(|p| folder(p))
        .filter(|f| !view.held_before(f))
        .map(|f| first_made(&f, view))
        .collect();
    if made.is_empty() {
        Folders::Kept
    } else if made.iter().all(|m| repeats_one_beside(m, view)) {
        Folders::Repeated
    } else {
        Folders::Changed
    }
}

/// Whether a commit makes no folder and empties none ([`Folders::Kept`]).
pub fn folders_kept(added: &[&str], removed: &[&str], view: &dyn FolderView) -> bool {
    folders(added, removed, view) == Folders::Kept
}

/// Whether each of `paths` is a file the commit adds (`added`) beside a file of its kind (the
/// same extension) that its folder held before the commit: one more rule beside the rules, one
/// more network manifest beside the others (docs/hooks.md, `skip_added_alike`).
pub fn added_alike(paths: &[&str], added: &dyn Fn(&str) -> bool, view: &dyn FolderView) -> bool {
    !paths.is_empty() && paths.iter().all(|p| added(p) && kind_held_before(p, view))
}

/// Whether the folder of `path` held, before the commit, another file with its extension.
fn kind_held_before(path: &str, view: &dyn FolderView) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    let Some(kind) = extension(name) else {
        return false;
    };
    view.entries(false, folder)
        .iter()
        .any(|(n, is_folder)| !is_folder && n != name && extension(n) == Some(kind))
}

/// A file name's extension, when it has a stem and one.
fn extension(name: &str) -> Option<&str> {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() => Some(ext),
        _ => None,
    }
}

/// The outermost of `folder` and the folders it is in that held nothing before.
fn first_made(folder: &str, view: &dyn FolderView) -> String {
    folder
        .match_indices('/')
        .map(|(at, _)| &folder[..at])
        .find(|outer| !view.held_before(outer))
        .unwrap_or(folder)
        .to_string()
}

/// Whether the made folder `made` holds, after the commit, the same two or more kinds of
/// entries as a folder beside it held before.
fn repeats_one_beside(made: &str, view: &dyn FolderView) -> bool {
    let (parent, name) = made.rsplit_once('/').unwrap_or(("", made));
    let shape = shape(&view.entries(true, made));
    if shape.len() < 2 {
        return false;
    }
    let join = |n: &str| match parent {
        "" => n.to_string(),
        p => format!("{p}/{n}"),
    };
    view.entries(false, parent)
        .iter()
        .filter(|(n, is_folder)| *is_folder && n != name)
        .any(|(n, _)| self::shape(&view.entries(false, &join(n))) == shape)
}

/// What `folder` holds directly (`""`: the root), from a list of files: each entry's name, once,
/// and whether it is a folder.
pub fn entries_in<'f>(folder: &str, files: impl Iterator<Item = &'f str>) -> Vec<(String, bool)> {
    let mut seen: BTreeSet<(String, bool)> = BTreeSet::new();
    for file in files {
        let rest = match folder {
            "" => Some(file),
            f => file.strip_prefix(f).and_then(|r| r.strip_prefix('/')),
        };
        if let Some(rest) = rest {
            match rest.split_once('/') {
                Some((name, _)) => seen.insert((name.to_string(), true)),
                None => seen.insert((rest.to_string(), false)),
            };
        }
    }
    seen.into_iter().collect()
}

/// What a folder holds, as a layout sees it: its sub-folders by name (`schemas/`) and its files
/// by kind (`*.ts`; a name with no extension, whole: `Dockerfile`).
fn shape(entries: &[(String, bool)]) -> BTreeSet<String> {
    entries
        .iter()
        .map(
            |(name, is_folder)| match (is_folder, name.rsplit_once('.')) {
                (true, _) => format!("{name}/"),
                (false, Some((stem, ext))) if !stem.is_empty() => format!("*.{ext}"),
                (false, _) => name.clone(),
            },
        )
        .collect()
}

/// Whether the title names a folder in backticks: `` `repo/domains/` ``, `` `src/` ``.
fn names_folder(title: &str) -> bool {
    title.split('`').skip(1).step_by(2).any(|quoted| {
        quoted.len() > 1
            && quoted.ends_with('/')
            && quoted
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '@'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_about_where_files_live() {
        for t in [
            "use a clear package structure",
            "Repository Structure",
            "Project Structure",
            "API - Query Extensions Directory Structure",
            "019-openapi-spec-layout",
            "Code organisation by feature",
            "Make Wikibase.git a monorepo",
            "Use a Mono-repo for all services",
            "Use `repo/domains/` for Newly Defined Domain-Specific Subsystems",
            "Where shared test helpers live",
        ] {
            assert!(is_layout(t), "{t}");
        }
    }

    #[test]
    fn a_folder_made_or_emptied() {
        let before = ["src/ui/panel/panel.ts", "src/ui/menu/menu.ts", "README.md"];
        let after = [
            "src/ui/panel/panel.ts",
            "src/ui/panel/size.ts",
            "src/ui/menu/menu.ts",
        ];
        let kept = |added: &[&str], removed: &[&str]| {
            folders_kept(added, removed, &Lists(&before, &after))
        };
        // A file added beside others, one removed at the root: no folder made or emptied.
        assert!(kept(&["src/ui/panel/size.ts"], &["README.md"]));
        assert!(kept(&[], &[]));
        // A new folder.
        assert!(!kept(&["src/ui/shared/resize.ts"], &[]));
        // A folder emptied: `src/ui/menu/` holds nothing after.
        let after_menu_gone = ["src/ui/panel/panel.ts"];
        assert!(!folders_kept(
            &[],
            &["src/ui/menu/menu.ts"],
            &Lists(&before, &after_menu_gone)
        ));
    }

    /// Files before and after a commit.
    struct Lists<'a>(&'a [&'a str], &'a [&'a str]);

    impl FolderView for Lists<'_> {
        fn held_before(&self, folder: &str) -> bool {
            !entries_in(folder, self.0.iter().copied()).is_empty()
        }
        fn holds_after(&self, folder: &str) -> bool {
            !entries_in(folder, self.1.iter().copied()).is_empty()
        }
        fn entries(&self, after: bool, folder: &str) -> Vec<(String, bool)> {
            entries_in(folder, if after { self.1 } else { self.0 }.iter().copied())
        }
    }

    #[test]
    fn files_added_beside_their_kind() {
        let before = [
            "rules/custom/drop_name.java",
            "rules/custom/map_codes.java",
            "rules/Engine.java",
        ];
        let after: Vec<&str> = before
            .iter()
            .chain(&[
                "rules/custom/copy_order.java",
                "rules/custom/notes.md",
                "rules/new/x.java",
            ])
            .copied()
            .collect();
        let view = Lists(&before, &after);
        let added = |p: &str| !before.contains(&p);
        let alike = |paths: &[&str]| added_alike(paths, &added, &view);
        // One more rule beside the rules.
        assert!(alike(&["rules/custom/copy_order.java"]));
        // A kind the folder never held, a folder that held nothing, a file already there, none.
        assert!(!alike(&["rules/custom/notes.md"]));
        assert!(!alike(&["rules/new/x.java"]));
        assert!(!alike(&[
            "rules/custom/copy_order.java",
            "rules/Engine.java"
        ]));
        assert!(!alike(&[]));
    }

    #[test]
    fn a_folder_made_like_one_beside_it() {
        let before = [
            "web/ui/panel/panel.ts",
            "web/ui/panel/panel.html",
            "web/ui/panel/panel.css",
            "web/ui/menu/menu.ts",
            "web/ui/menu/menu.html",
            "web/ui/menu/menu.css",
            "web/model/state.ts",
        ];
        let with = |added: &[&'static str]| -> Vec<&'static str> {
            before.iter().chain(added).copied().collect()
        };
        let made = |added: &[&'static str]| folders(added, &[], &Lists(&before, &with(added)));
        // One more component, shaped as the others.
        let explorer = [
            "web/ui/explorer/explorer.ts",
            "web/ui/explorer/explorer.html",
            "web/ui/explorer/explorer.css",
        ];
        assert_eq!(made(&explorer), Folders::Repeated);
        // A folder of a new shape: a lone `.ts` among components.
        assert_eq!(made(&["web/ui/shared/resize.ts"]), Folders::Changed);
        // One kind of file only says too little: a lone `.ts` beside a lone `.ts`.
        let lone = ["web/model/state.ts", "web/ui/panel/panel.ts"];
        let after = [
            "web/model/state.ts",
            "web/ui/panel/panel.ts",
            "web/view/view.ts",
        ];
        assert_eq!(
            folders(&["web/view/view.ts"], &[], &Lists(&lone, &after)),
            Folders::Changed
        );
        // Made two deep: the outer new folder is the one compared (`web/ui/tabs/`, holding
        // `parts/`, is no component).
        assert_eq!(
            made(&["web/ui/tabs/parts/tab.ts", "web/ui/tabs/parts/tab.html"]),
            Folders::Changed
        );
        // A component made beside a folder emptied: changed.
        let moved: Vec<&str> = with(&explorer)
            .into_iter()
            .filter(|f| !f.starts_with("web/model/"))
            .collect();
        assert_eq!(
            folders(&explorer, &["web/model/state.ts"], &Lists(&before, &moved)),
            Folders::Changed
        );
        // Sub-folders count by name: a resource with `paths/` and `schemas/`, as its sibling.
        let api = ["api/res/users/paths/u.yaml", "api/res/users/schemas/u.yaml"];
        let after: Vec<&str> = api
            .iter()
            .chain(&["api/res/teams/paths/t.yaml", "api/res/teams/schemas/t.yaml"])
            .copied()
            .collect();
        assert_eq!(
            folders(
                &["api/res/teams/paths/t.yaml", "api/res/teams/schemas/t.yaml"],
                &[],
                &Lists(&api, &after)
            ),
            Folders::Repeated
        );
    }

    #[test]
    fn structures_and_layouts_of_other_things() {
        for t in [
            "Badger Storage Record Layouts",
            "PrivValidator file structure",
            "Next.js persistent layout pattern",
            "Multi-Tenancy: Per-Schema Placement of the Box Migration-History Table",
            "Use Java Native Access to Determine Default Directory",
            "Store Chats in a Local User Folder",
            "Use a persistent data structure for the cache",
            "`MeshHTTPRoute`/`MeshTCPRoute` for `MeshGateway`",
            "Feature/Core API/Internal split and dependency rules",
            "Structured logging",
            "Where to retry failed deliveries",
        ] {
            assert!(!is_layout(t), "{t}");
        }
    }
}
