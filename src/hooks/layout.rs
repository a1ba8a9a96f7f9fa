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

/// Whether a commit makes no folder and empties none: each file it adds goes in a folder that
/// held a file before (`held_before`), and each folder it removes a file from holds one after
/// (`holds_after`); a move is both. The root is always there.
pub fn folders_kept(
    added: &[&str],
    removed: &[&str],
    held_before: &mut dyn FnMut(&str) -> bool,
    holds_after: &mut dyn FnMut(&str) -> bool,
) -> bool {
    let folder = |p: &str| p.rsplit_once('/').map(|(f, _)| f.to_string());
    added
        .iter()
        .filter_map(|p| folder(p))
        .all(|f| held_before(&f))
        && removed
            .iter()
            .filter_map(|p| folder(p))
            .all(|f| holds_after(&f))
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
        let under = |files: &[&str], f: &str| {
            files
                .iter()
                .any(|p| p.strip_prefix(f).is_some_and(|r| r.starts_with('/')))
        };
        let kept = |added: &[&str], removed: &[&str]| {
            folders_kept(added, removed, &mut |f| under(&before, f), &mut |f| {
                under(&after, f)
            })
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
            &mut |f| under(&before, f),
            &mut |f| under(&after_menu_gone, f),
        ));
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
