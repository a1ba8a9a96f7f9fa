//! Whether a root-relative path stays under the root once its links are resolved, decided
//! from the path alone before anything there is opened: a committed `docs/adr` link, a linked
//! template or `.context-graph.toml`, a record linked to `~/.ssh/id_rsa` is neither read nor
//! written through (ADR-0011, ADR-0013).

use super::root::lexical;
use std::path::{Path, PathBuf};

/// The first link on the way to the root-relative `rel` (itself included) that leads out of
/// the (canonical) root: the link, root-relative, and where it leads. `None` when every part
/// there is stays under the root (a part not there yet stays where the path says).
pub fn link_out_of(root: &Path, rel: &str) -> Option<(String, PathBuf)> {
    let mut at = root.to_path_buf();
    let mut shown = String::new();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            // A path climbing out of the root leaves it whatever is there.
            return Some((rel.to_string(), lexical(&root.join(rel))));
        }
        at.push(part);
        if !shown.is_empty() {
            shown.push('/');
        }
        shown.push_str(part);
        let Ok(meta) = std::fs::symlink_metadata(&at) else {
            return None; // nothing there: nothing below it either
        };
        if !meta.file_type().is_symlink() {
            continue;
        }
        let target = match std::fs::canonicalize(&at) {
            Ok(real) => real,
            // A link to nothing: where its text points, one step.
            Err(_) => match std::fs::read_link(&at) {
                Ok(t) => lexical(&at.parent().unwrap_or(root).join(t)),
                Err(_) => return Some((shown, PathBuf::new())),
            },
        };
        if !target.starts_with(root) {
            return Some((shown, target));
        }
    }
    None
}

/// The one line refusing a path through `link`, which leads to `target` outside the root.
pub fn refusal(link: &str, target: &Path) -> String {
    format!(
        "{link} is a symlink to {}, outside the repository: refused",
        target.display()
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_out_of_the_root_is_named_and_one_inside_it_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(tmp.path()).unwrap();
        let root = base.join("repo");
        let outside = base.join("outside");
        std::fs::create_dir_all(root.join("docs/real")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("docs/adr")).unwrap();
        std::os::unix::fs::symlink("real", root.join("docs/inside")).unwrap();
        std::os::unix::fs::symlink("../../gone", root.join("docs/dangling")).unwrap();
        assert_eq!(
            link_out_of(&root, "docs/adr/0001-x.md"),
            Some(("docs/adr".to_string(), outside.clone()))
        );
        assert_eq!(link_out_of(&root, "docs/inside/0001-x.md"), None);
        assert_eq!(link_out_of(&root, "docs/new/0001-x.md"), None);
        assert_eq!(
            link_out_of(&root, "docs/dangling"),
            Some(("docs/dangling".to_string(), base.join("gone")))
        );
        assert!(link_out_of(&root, "../x").is_some());
    }
}
