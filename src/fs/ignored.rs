//! Whether git ignores a path: the `.gitignore` files from the path's folder up to the work
//! tree's top (the deeper one deciding), then the repository's `info/exclude`, then the global
//! excludes file, as git reads them. A path under an ignored folder is ignored. Build output a
//! record names in passing (`dist/bundle.js`) is not governed code (docs/reading.md).

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A folder's `.gitignore` rules, when it has the file.
type Rules = Option<Arc<Gitignore>>;

/// The ignore rules under a root, read once per folder as they are needed.
pub struct Ignores {
    root: PathBuf,
    /// The work tree's top (where `.gitignore` files stop applying), when the root is in one.
    top: Option<PathBuf>,
    /// Folder (absolute, as bytes: cheaper to hash than a path) → its `.gitignore`, if any.
    per_dir: Mutex<HashMap<Box<[u8]>, Rules>>,
    /// `info/exclude` and the global excludes file, read on first use.
    outer: Mutex<Option<Vec<Gitignore>>>,
    /// Root-relative folder → whether git ignores it (itself, not counting folders above).
    folders: Mutex<HashMap<String, bool>>,
}

impl Ignores {
    pub fn new(root: &Path) -> Ignores {
        Ignores {
            root: root.to_path_buf(),
            top: super::root::work_tree_top(root),
            per_dir: Mutex::new(HashMap::new()),
            outer: Mutex::new(None),
            folders: Mutex::new(HashMap::new()),
        }
    }

    /// Whether git ignores the root-relative `rel` (a folder when `is_dir`), or a folder above it.
    pub fn ignored(&self, rel: &str, is_dir: bool) -> bool {
        // Outside a work tree git ignores nothing.
        if self.top.is_none() {
            return false;
        }
        // The path itself and each folder above it, shortest first: `a`, `a/b`, `a/b/c`.
        // A folder's answer is kept: the paths asked about share most of theirs.
        let rel = rel.trim_matches('/');
        let mut path = self.root.clone();
        let mut parts = rel.split('/').filter(|p| !p.is_empty()).peekable();
        let mut end = 0;
        while let Some(part) = parts.next() {
            path.push(part);
            end = rel[end..]
                .find(part)
                .map_or(rel.len(), |i| end + i + part.len());
            let folder = parts.peek().is_some() || is_dir;
            let known = folder
                .then(|| crate::util::locked(&self.folders).get(&rel[..end]).copied())
                .flatten();
            let ignored = known.unwrap_or_else(|| self.decide(&path, folder));
            if folder && known.is_none() {
                crate::util::locked(&self.folders).insert(rel[..end].to_string(), ignored);
            }
            if ignored {
                return true;
            }
        }
        false
    }

    /// Git's answer for one absolute path: the deepest `.gitignore` that matches it decides,
    /// then `info/exclude`, then the global excludes file.
    fn decide(&self, path: &Path, is_dir: bool) -> bool {
        let top = self.top.as_deref().unwrap_or(&self.root);
        // `path` is the root's, the root is under `top` (one of its ancestors): so is each
        // folder above `path` as long as `top`, or longer (and cheaper to tell than by
        // comparing their parts).
        let top_len = top.as_os_str().len();
        let mut dir = path.parent();
        while let Some(d) = dir {
            if d.as_os_str().len() < top_len {
                break;
            }
            if let Some(gi) = self.gitignore_in(d) {
                match gi.matched(path, is_dir) {
                    Match::Ignore(_) => return true,
                    Match::Whitelist(_) => return false,
                    Match::None => {}
                }
            }
            dir = d.parent();
        }
        let mut outer = crate::util::locked(&self.outer);
        let outer = outer.get_or_insert_with(|| outer_rules(top));
        for gi in outer.iter() {
            match gi.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }

    fn gitignore_in(&self, dir: &Path) -> Rules {
        let mut cache = crate::util::locked(&self.per_dir);
        let key = dir.as_os_str().as_encoded_bytes();
        if let Some(known) = cache.get(key) {
            return known.clone();
        }
        let rules = rules_of(dir, &dir.join(".gitignore"), false).map(Arc::new);
        cache.insert(key.into(), rules.clone());
        rules
    }
}

/// The rules of one ignore file, its patterns relative to `dir`: `Ok(None)` when there is
/// none. Read by [`super::read::read_rules`] (only a regular file, never waited on: a FIFO
/// named `.gitignore` hung every hook, ADR-0011), not by the `ignore` crate's blocking open;
/// `follow` says whether a link there is followed (git follows none in the work tree). The
/// error says why the file was not read.
pub(super) fn read_rules_of(
    dir: &Path,
    file: &Path,
    follow: bool,
) -> Result<Option<Gitignore>, &'static str> {
    let Some(bytes) = super::read::read_rules(file, follow)? else {
        return Ok(None);
    };
    let mut b = GitignoreBuilder::new(dir);
    // As the `ignore` crate reads a file: by lines, a line not UTF-8 passed over, a BOM
    // before the first dropped.
    for (i, line) in bytes.split(|&c| c == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        let _ = b.add_line(Some(file.to_path_buf()), line);
    }
    Ok(Some(b.build().unwrap_or_else(|_| Gitignore::empty())))
}

/// [`read_rules_of`], a file that was not read taken as none.
pub(super) fn rules_of(dir: &Path, file: &Path, follow: bool) -> Option<Gitignore> {
    read_rules_of(dir, file, follow).ok().flatten()
}

/// `info/exclude` (the common one, for a linked worktree) and the global excludes file, for
/// the work tree at `top`: the rules git reads after every `.gitignore`.
pub(super) fn outer_rules(top: &Path) -> Vec<Gitignore> {
    let exclude = super::root::common_git_dir(top)
        .join("info")
        .join("exclude");
    std::iter::once(exclude)
        .chain(global_excludes_file())
        .filter_map(|f| rules_of(top, &f, true))
        .collect()
}

/// The global excludes file, found as the `ignore` crate's walk finds it (its
/// `gitconfig_excludes_path`): `core.excludesFile` from `GIT_CONFIG_GLOBAL`, else
/// `~/.gitconfig`, else `$XDG_CONFIG_HOME/git/config`, else the system config, else
/// `$XDG_CONFIG_HOME/git/ignore`. Read without the regular expression that crate compiles for
/// it, which cost a commit hook a seventh of its work; read again each time (a few small
/// files), so `watch` sees a changed setting.
pub fn global_excludes_file() -> Option<PathBuf> {
    #[allow(deprecated)] // as the `ignore` crate finds it
    let home = std::env::home_dir();
    let var = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|x| !x.as_os_str().is_empty())
    };
    let xdg = var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config")));
    let configs = [
        var("GIT_CONFIG_GLOBAL"),
        home.as_ref().map(|h| h.join(".gitconfig")),
        xdg.as_ref().map(|x| x.join("git/config")),
        Some(var("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig"))),
    ];
    configs
        .into_iter()
        .flatten()
        .find_map(|c| {
            let text = super::read::read_rules(&c, true).ok().flatten()?;
            excludes_file_setting(&text).map(|v| expand_tilde(&v, home.as_deref()))
        })
        .or_else(|| xdg.map(|x| x.join("git/ignore")))
}

/// The first `excludesfile = VALUE` line of a git config file's text, as the `ignore` crate
/// reads it (any section, any case, the value one word, maybe in double quotes).
fn excludes_file_setting(text: &[u8]) -> Option<String> {
    text.split(|&b| b == b'\n').find_map(|line| {
        let line = line.trim_ascii();
        let key = line.get(..12)?;
        if !key.eq_ignore_ascii_case(b"excludesfile") {
            return None;
        }
        let rest = line[12..]
            .trim_ascii_start()
            .strip_prefix(b"=")?
            .trim_ascii();
        let rest = rest.strip_prefix(b"\"").unwrap_or(rest).trim_ascii_start();
        let value = match rest.strip_suffix(b"\"") {
            Some(v) if !v.is_empty() => v.trim_ascii_end(),
            _ => rest,
        };
        let one_word = !value.is_empty() && !value.iter().any(u8::is_ascii_whitespace);
        one_word.then(|| std::str::from_utf8(value).ok().map(str::to_string))?
    })
}

/// A leading `~` (alone or before a `/`) as `$HOME`, as git expands it.
fn expand_tilde(value: &str, home: Option<&Path>) -> PathBuf {
    match (value.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            PathBuf::from(format!("{}{rest}", home.display()))
        }
        _ => PathBuf::from(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_excludes_file_setting_is_read_as_the_ignore_crate_reads_it() {
        let read = |t: &str| excludes_file_setting(t.as_bytes());
        assert_eq!(
            read("[core]\n\texcludesfile = ~/.gi\n").as_deref(),
            Some("~/.gi")
        );
        assert_eq!(
            read("[core]\n  excludesFile=\"/a/b\"\r\n").as_deref(),
            Some("/a/b")
        );
        assert_eq!(read("EXCLUDESFILE = \" /q \" \n").as_deref(), Some("/q"));
        assert_eq!(read("[user]\nname = x\n").as_deref(), None);
        assert_eq!(
            read("excludesfile = two words\nexcludesfile = /later\n").as_deref(),
            Some("/later")
        );
        assert_eq!(read("excludesfilex = /no\n# excludesfile = /no\n"), None);
        assert_eq!(read("excludesfile =\n"), None);
        let home = Path::new("/home/u");
        assert_eq!(
            expand_tilde("~/.gi", Some(home)),
            PathBuf::from("/home/u/.gi")
        );
        assert_eq!(expand_tilde("~x/.gi", Some(home)), PathBuf::from("~x/.gi"));
        assert_eq!(expand_tilde("/abs", Some(home)), PathBuf::from("/abs"));
    }

    #[test]
    fn git_ignores_what_its_files_say() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".git/info")).unwrap();
        std::fs::create_dir_all(root.join("web/dist")).unwrap();
        std::fs::write(root.join(".gitignore"), "/build/\n*.log\n").unwrap();
        std::fs::write(root.join("web/.gitignore"), "dist/\n!keep.log\n").unwrap();
        std::fs::write(root.join(".git/info/exclude"), "scratch/\n").unwrap();
        let ig = Ignores::new(root);
        assert!(ig.ignored("build/out.js", false));
        assert!(ig.ignored("build", true));
        assert!(
            ig.ignored("web/dist/bundle.js", false),
            "under an ignored folder"
        );
        assert!(ig.ignored("a/b.log", false));
        assert!(
            !ig.ignored("web/keep.log", false),
            "the deeper file whitelists it"
        );
        assert!(ig.ignored("scratch/x.md", false), "info/exclude");
        assert!(!ig.ignored("src/main.rs", false));
        assert!(!ig.ignored("web/src/app.ts", false));
        // Outside a work tree, nothing is ignored.
        let plain = tempfile::tempdir().unwrap();
        std::fs::write(plain.path().join(".gitignore"), "*\n").unwrap();
        assert!(!Ignores::new(plain.path()).ignored("src/main.rs", false));
    }
}
