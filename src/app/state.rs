//! What a resident session's answers depend on, stamped cheaply between calls (the MCP server:
//! docs/agents.md; ADR-0014): HEAD and the branch it names, git's index, the configuration,
//! the record folders and every record file, the asked paths themselves, and the ignore files
//! that decide what git ignores along them. While the state
//! is the same, an answer given before is the answer now; when it differs, the session answers
//! anew, bringing the index up to date incrementally (ADR-0006).

use super::Session;
use crate::fs::discover;
use crate::fs::fingerprint::{fingerprint, Fingerprint, RootDir, RACY_NS};
use std::path::{Path, PathBuf};

/// The state: comparable, opaque.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    head: Vec<u8>,
    git: Vec<Option<Fingerprint>>,
    files: Vec<Option<Fingerprint>>,
    /// Whether every time in it is settled (older than [`RACY_NS`], as the index judges a
    /// racily clean file): only then may an answer be kept, since a change within the file
    /// system's time granularity after it could go unseen.
    settled: bool,
}

impl State {
    /// Whether an answer given at this state may be kept for later calls.
    pub fn settled(&self) -> bool {
        self.settled
    }
}

/// Stamps states one after another for one root, keeping the last listing of the record
/// folders: while the folders are the same and none of them changed, their files are the same
/// files (a folder's times change when an entry is added, removed or renamed in it), so only
/// the files are stamped again. Paths are looked up from the root opened once.
pub struct Stamper {
    dir: RootDir,
    last: Option<Listing>,
}

struct Listing {
    folders: Vec<String>,
    dirs: Vec<(String, Option<Fingerprint>)>,
    files: Vec<String>,
}

impl Stamper {
    pub fn new(root: &Path) -> Stamper {
        Stamper {
            dir: RootDir::open(root),
            last: None,
        }
    }

    /// The state the answers of `session` (whose root this stamper was opened at) about `paths`
    /// depend on, now.
    pub fn state(&mut self, session: &Session, paths: &[String]) -> State {
        let root = session.root();
        let mut git: Vec<PathBuf> = Vec::new();
        let mut head = Vec::new();
        if let Some(repo) = session.repository() {
            let git_dir = &repo.git_dir;
            let common = crate::fs::read::read_side_file(&git_dir.join("commondir"))
                .map(|c| git_dir.join(String::from_utf8_lossy(&c).trim()))
                .unwrap_or_else(|_| git_dir.clone());
            head = crate::fs::read::read_side_file(&git_dir.join("HEAD")).unwrap_or_default();
            git.push(git_dir.join("index"));
            git.push(common.join("packed-refs"));
            git.push(common.join("shallow"));
            if let Some(name) = head.strip_prefix(b"ref: ") {
                let name = String::from_utf8_lossy(name).trim().to_string();
                git.push(common.join(&name));
                git.push(git_dir.join(&name));
            }
        }
        let folders = discover::record_folders(root, &session.options().docs).unwrap_or_default();
        let dir = &self.dir;
        let same = self.last.as_ref().is_some_and(|last| {
            last.folders == folders
                && last
                    .dirs
                    .iter()
                    .all(|(d, then)| dir.fingerprint(d) == *then)
        });
        if !same {
            let listing = discover::list_records(root, &folders);
            self.last = Some(Listing {
                folders,
                dirs: listing
                    .dirs
                    .into_iter()
                    .map(|d| {
                        let f = dir.fingerprint(&d);
                        (d, f)
                    })
                    .collect(),
                files: listing.files.into_iter().map(|f| f.rel).collect(),
            });
        }
        let last = self.last.as_ref().expect("listed above");
        let rel = std::iter::once(".context-graph.toml")
            .chain(last.dirs.iter().map(|(d, _)| d.as_str()))
            .chain(last.files.iter().map(String::as_str))
            .chain(paths.iter().map(String::as_str));
        let files: Vec<Option<Fingerprint>> = rel
            .chain(
                ignore_files(&last.folders, paths)
                    .iter()
                    .map(String::as_str),
            )
            .map(|p| dir.fingerprint(p))
            .collect();
        // What git ignores decides what a record's paths are (ADR-0001): the ignore files
        // above the root, `info/exclude` and the global excludes file with the configuration
        // naming it, as the CLI reads them.
        git.extend(crate::fs::walk::outer_ignore_files(root));
        let git: Vec<Option<Fingerprint>> = git.iter().map(|p| fingerprint(p)).collect();
        let now = crate::util::now_ns();
        let settled = files
            .iter()
            .chain(&git)
            .flatten()
            .all(|f| now - f.mtime_ns.max(f.ctime_ns) > RACY_NS);
        State {
            head,
            git,
            files,
            settled,
        }
    }
}

/// The ignore files under the root that the answers about `paths` read: the root's, and those
/// of every folder above an asked path or a record folder (`.gitignore` and `.ignore`).
fn ignore_files(folders: &[String], paths: &[String]) -> Vec<String> {
    let mut dirs: Vec<&str> = vec![""];
    for p in folders.iter().chain(paths) {
        let p = p.trim_matches('/');
        let mut end = 0;
        while let Some(i) = p[end..].find('/') {
            end += i;
            dirs.push(&p[..end]);
            end += 1;
        }
        if folders.iter().any(|f| f == p) {
            dirs.push(p);
        }
    }
    dirs.sort_unstable();
    dirs.dedup();
    dirs.iter()
        .flat_map(|d| {
            [".gitignore", ".ignore"].map(|name| match *d {
                "" => name.to_string(),
                d => format!("{d}/{name}"),
            })
        })
        .collect()
}
