//! Documentation pages a decision reaches only through a folder (docs/hooks.md, ADR-0008 as
//! amended 2026-12-05): a record that governs `site/**` or `packages/cli/` is about the code
//! there; the Markdown pages beside it change with every feature and release, and a reader
//! does not want the decision named for them. A page the record names itself (`site/ci.mdx`,
//! `specs/**/spec.md`, `*.md`) or that declares the decision by a marker still counts.

use crate::governs::Scope;
use crate::text::marker::Markers;

pub use crate::text::path::is_page;

/// Whether the decision `id`, whose governed entries make `scopes` (one per record of the id),
/// reaches the documentation page `path` only through a folder: no entry names the file, and
/// the file declares no marker of it.
pub fn folder_page(id: &str, scopes: &[Scope], path: &str, markers: &Markers) -> bool {
    is_page(path)
        && !markers.declares(path, id)
        && !scopes.iter().any(|s| s.names_file(path))
        && !about_documents(scopes)
}

/// Whether a decision is about documents: every entry names a documentation page or a folder
/// (or glob) inside a documentation folder (`text::path::is_documentation_folder`), and
/// there is one: `CLAUDE.md` and `docs/findings/`. Its folders then hold its
/// subject, and their pages are not asides (anvil-serving's record on published findings).
fn about_documents(scopes: &[Scope]) -> bool {
    let mut any = false;
    for entry in scopes.iter().flat_map(Scope::positives) {
        let text = entry.as_str();
        let document = if text.ends_with('/') || entry.is_glob() {
            crate::governs::literal_prefix(text)
                .split('/')
                .any(crate::text::path::is_documentation_folder)
        } else {
            is_page(text)
        };
        if !document {
            return false;
        }
        any = true;
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_by_extension() {
        for page in [
            "README.md",
            "site/docs/commands.mdx",
            "doc/a.rst",
            "x/Guide.ADOC",
        ] {
            assert!(is_page(page), "{page}");
        }
        for other in [
            "src/main.rs",
            "md",
            ".md",
            "site/Hero.astro",
            "requirements.txt",
        ] {
            assert!(!is_page(other), "{other}");
        }
    }

    #[test]
    fn a_page_under_a_folder_and_a_page_named() {
        let none = Markers::default();
        let folder = [Scope::new(["site/**", "docs/guide.md"])];
        assert!(folder_page(
            "ADR-1",
            &folder,
            "site/docs/commands.mdx",
            &none
        ));
        assert!(!folder_page("ADR-1", &folder, "docs/guide.md", &none));
        assert!(!folder_page("ADR-1", &folder, "site/Hero.astro", &none));
        // A decision about documents: the pages of its folders are its subject.
        let documents = [Scope::new(["CLAUDE.md", "docs/findings/"])];
        assert!(!folder_page(
            "ADR-1",
            &documents,
            "docs/findings/f1.md",
            &none
        ));
        let mixed = [Scope::new(["docs/runbooks/", "src/risk.rs", "AGENTS.md"])];
        assert!(folder_page("ADR-1", &mixed, "docs/runbooks/r.md", &none));
        let folders = [Scope::new(["site/**", "packages/cli/"])];
        assert!(folder_page("ADR-1", &folders, "site/docs/a.mdx", &none));
        let instructions = [Scope::new(["AGENTS.md", ".github/instructions/"])];
        assert!(folder_page(
            "ADR-1",
            &instructions,
            ".github/instructions/a.md",
            &none
        ));
    }
}
