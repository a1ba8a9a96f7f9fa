//! What a resident session's answers depend on, stamped cheaply between calls (the MCP server:
//! CONTRACT.md §13; ADR-0014): HEAD and the branch it names, git's index, the configuration,
//! the record folders and every record file, and the asked paths themselves. While the stamp
//! is the same, an answer given before is the answer now; when it differs, the session answers
//! anew, bringing the index up to date incrementally (ADR-0006).

use super::Session;
use crate::fs::discover;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A file's stamp older than this is settled: a change within the file system's time
/// granularity after it cannot go unseen.
const SETTLED: Duration = Duration::from_secs(1);

/// The stamp: comparable, opaque.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    parts: Vec<(PathBuf, Option<FileStamp>)>,
    head: Vec<u8>,
    /// Whether every file's time is settled (see [`SETTLED`]): only then may an answer be kept.
    settled: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    modified: Option<SystemTime>,
    changed_ns: i64,
    len: u64,
    ino: u64,
}

impl State {
    /// Whether an answer given at this state may be kept for later calls.
    pub fn settled(&self) -> bool {
        self.settled
    }
}

fn stamp(path: &Path) -> Option<FileStamp> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    #[cfg(unix)]
    let (changed_ns, ino) = {
        use std::os::unix::fs::MetadataExt;
        (meta.ctime() * 1_000_000_000 + meta.ctime_nsec(), meta.ino())
    };
    #[cfg(not(unix))]
    let (changed_ns, ino) = (0, 0);
    Some(FileStamp {
        modified: meta.modified().ok(),
        changed_ns,
        len: meta.len(),
        ino,
    })
}

impl Session {
    /// The state the answers about `paths` depend on, now.
    pub fn state(&self, paths: &[String]) -> State {
        let root = self.root();
        let mut files: Vec<PathBuf> = Vec::new();
        let mut head = Vec::new();
        if let Some(repo) = self.repository() {
            let git_dir = &repo.git_dir;
            let common = git_dir
                .join("commondir")
                .exists()
                .then(|| std::fs::read_to_string(git_dir.join("commondir")).ok())
                .flatten()
                .map(|c| git_dir.join(c.trim()))
                .unwrap_or_else(|| git_dir.clone());
            head = std::fs::read(git_dir.join("HEAD")).unwrap_or_default();
            files.push(git_dir.join("index"));
            files.push(common.join("packed-refs"));
            if let Some(name) = head.strip_prefix(b"ref: ") {
                let name = String::from_utf8_lossy(name).trim().to_string();
                files.push(common.join(&name));
                files.push(git_dir.join(&name));
            }
        }
        files.push(root.join(".context-graph.toml"));
        let folders = discover::record_folders(root, &self.options().docs).unwrap_or_default();
        let listing = discover::list_records(root, &folders);
        files.extend(listing.dirs.iter().map(|d| root.join(d)));
        files.extend(listing.files.iter().map(|f| root.join(&f.rel)));
        files.extend(paths.iter().map(|p| root.join(p)));
        let now = SystemTime::now();
        let mut settled = true;
        let parts: Vec<(PathBuf, Option<FileStamp>)> = files
            .into_iter()
            .map(|f| {
                let s = stamp(&f);
                if let Some(m) = s.and_then(|s| s.modified) {
                    settled &= now.duration_since(m).is_ok_and(|age| age > SETTLED);
                }
                (f, s)
            })
            .collect();
        State {
            parts,
            head,
            settled,
        }
    }
}
