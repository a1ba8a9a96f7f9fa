//! Record folders other tools name (docs/reading.md): adr-tools' `.adr-dir` (one line, the
//! folder) and log4brains' `.log4brains.yml` (`project.adrFolder`, and each package's
//! `adrFolder`), at the root. Their folders are read besides the default ones.

use super::read::read_in_root;
use std::path::Path;
use yaml_rust2::{Yaml, YamlLoader};

/// The folder adr-tools' `.adr-dir` names, root-relative: its records are ADRs whatever the
/// folder's name (docs/reading.md).
pub fn adr_dir(root: &Path) -> Option<String> {
    let bytes = read_in_root(root, ".adr-dir").ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().next()?.trim();
    let line = line.strip_prefix("./").unwrap_or(line);
    crate::text::path::normalise(line.trim_end_matches('/')).filter(|p| !p.is_empty())
}

/// The folder the root's own tool writes a new record to: adr-tools' `.adr-dir`, else
/// log4brains' project `adrFolder` (`log4brains adr new` without `--package`), root-relative.
pub fn main_folder(root: &Path) -> Option<String> {
    if let Some(dir) = adr_dir(root) {
        return Some(dir);
    }
    let bytes = read_in_root(root, ".log4brains.yml").ok()?;
    let docs = YamlLoader::load_from_str(&String::from_utf8_lossy(&bytes)).ok()?;
    let raw = docs.first()?["project"]["adrFolder"].as_str()?.trim();
    let raw = raw.strip_prefix("./").unwrap_or(raw);
    crate::text::path::normalise(raw.trim_end_matches('/')).filter(|p| !p.is_empty())
}

/// The root-relative record folders the root's tool configuration names, in the order found:
/// `.adr-dir`'s, then log4brains' project folder and its packages' (each once, normalised, only
/// those inside the root).
pub fn tool_folders(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |raw: &str| {
        let t = raw.trim();
        let t = t.strip_prefix("./").unwrap_or(t);
        if let Some(rel) = crate::text::path::normalise(t) {
            if !rel.is_empty() && !out.contains(&rel) {
                out.push(rel);
            }
        }
    };
    if let Ok(bytes) = read_in_root(root, ".adr-dir") {
        if let Some(line) = String::from_utf8_lossy(&bytes).lines().next() {
            push(line);
        }
    }
    let Ok(bytes) = read_in_root(root, ".log4brains.yml") else {
        return out;
    };
    let Ok(docs) = YamlLoader::load_from_str(&String::from_utf8_lossy(&bytes)) else {
        return out;
    };
    let project = docs
        .first()
        .map(|d| &d["project"])
        .unwrap_or(&Yaml::BadValue);
    if let Some(folder) = project["adrFolder"].as_str() {
        push(folder);
    }
    if let Some(packages) = project["packages"].as_vec() {
        for p in packages {
            if let Some(folder) = p["adrFolder"].as_str() {
                push(folder);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adr_tools_and_log4brains_name_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        assert!(tool_folders(root).is_empty());
        std::fs::write(root.join(".adr-dir"), "src/adr\n").unwrap();
        std::fs::write(
            root.join(".log4brains.yml"),
            "project:\n  name: x\n  adrFolder: ./docs/adr\n  packages:\n    - name: api\n      path: ./packages/api\n      adrFolder: ./packages/api/adr\n    - name: web\n      adrFolder: ../outside\n",
        )
        .unwrap();
        assert_eq!(
            tool_folders(root),
            ["src/adr", "docs/adr", "packages/api/adr"]
        );
        assert_eq!(main_folder(root).as_deref(), Some("src/adr"));
        std::fs::remove_file(root.join(".adr-dir")).unwrap();
        assert_eq!(main_folder(root).as_deref(), Some("docs/adr"));
    }
}
