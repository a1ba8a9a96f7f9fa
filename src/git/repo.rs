//! The repository around a root: found and HEAD read, no history walked (ADR-0005).

use super::HistoryError;
use crate::util::one_line;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A git work tree around a root, as [`open`] finds it: no history read yet.
#[derive(Clone, Debug)]
pub struct Repo {
    /// The worktree's own git dir (`.git`, or `.git/worktrees/NAME` for a linked worktree).
    pub git_dir: PathBuf,
    /// The top of the work tree (canonical).
    pub workdir: PathBuf,
    /// Where the root sits inside the work tree: `""` at the top, else `"sub/dir/"`.
    pub prefix: String,
    /// What HEAD points to; `None` when it is unborn (no commits yet).
    pub head: Option<[u8; 20]>,
    /// A shallow clone: its history stops at a boundary.
    pub shallow: bool,
    /// The common git dir: the main repository's for a linked worktree, else the git dir.
    common: PathBuf,
    /// git's index file.
    index_file: PathBuf,
    /// The file listing the shallow boundary (whether or not there is one); `None` when gix
    /// could not say where it is.
    shallow_file: Option<PathBuf>,
    /// Whether HEAD and the shallow file are read without gix ([`super::light`]).
    light: bool,
    /// The canonical root the repository was found from: gix opens it from there on first use.
    root_abs: PathBuf,
    /// gix's handle, opened once on first use (ADR-0016, amendment of 2026-12-06): a warm
    /// answer never needs it. Shared by the clones of this `Repo`.
    sync: Arc<OnceLock<Result<gix::ThreadSafeRepository, String>>>,
    /// The text of the configuration files gix would read, in lower case, read once on first
    /// use ([`Repo::config_cannot_set`]); `None` when it cannot stand for them.
    config_text: Arc<OnceLock<Option<String>>>,
}

/// gix's handle on a repository, opened on first need: a reader that finds what it asks for
/// among the loose objects never opens it (a commit hook's, issue 41).
pub struct LazyGix {
    opener: Repo,
    cell: std::cell::OnceCell<Result<gix::Repository, String>>,
}

impl LazyGix {
    pub fn of(repo: &Repo) -> LazyGix {
        LazyGix {
            opener: repo.clone(),
            cell: std::cell::OnceCell::new(),
        }
    }

    /// The handle, opened now if it was not yet; the error, one line, when gix cannot open it.
    pub fn get(&self) -> Result<&gix::Repository, &str> {
        self.cell
            .get_or_init(|| self.opener.gix().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }
}

impl Repo {
    /// The shallow boundary as git records it (the `shallow` file's bytes), empty when the
    /// repository is not shallow: it changes on a deepen or unshallow.
    pub fn shallow_boundary(&self) -> Vec<u8> {
        if !self.shallow {
            return Vec::new();
        }
        self.shallow_file
            .as_ref()
            .and_then(|p| std::fs::read(p).ok())
            .unwrap_or_else(|| b"shallow".to_vec())
    }

    /// Reads HEAD and whether the clone is shallow again: a session that answers many
    /// questions (hooks, `watch`) does this before each, the repository itself staying open.
    /// The local branches are not read here: only a refresh after a rewrite needs them
    /// ([`Repo::local_branches`]), and listing them was a fifth of opening the repository on
    /// every answer (issue 17).
    pub fn refresh(&mut self) -> Result<(), HistoryError> {
        if self.light {
            if let Some(head) = super::light::head_again(&self.git_dir, &self.common) {
                self.head = Some(head);
                self.shallow = super::light::shallow(&self.common);
                return Ok(());
            }
        }
        let repo = self.gix()?;
        self.head = head_of(&repo)?;
        let head_error = |e: &dyn std::fmt::Display| HistoryError::Head(one_line(&e.to_string()));
        self.shallow = repo.is_shallow().map_err(|e| head_error(&e))?;
        Ok(())
    }

    /// What HEAD points to now, read again (nothing else is): `None` when it is unborn.
    pub fn head_now(&self) -> Result<Option<[u8; 20]>, HistoryError> {
        if self.light {
            if let Some(head) = super::light::head_again(&self.git_dir, &self.common) {
                return Ok(Some(head));
            }
        }
        head_of(&self.gix()?)
    }

    /// The tips of `refs/heads/*` (direct references only), sorted, each once, read now. A
    /// broken reference is skipped: it must not stop the refresh that asks.
    pub fn local_branches(&self) -> Result<Vec<[u8; 20]>, HistoryError> {
        let repo = self.gix()?;
        let head_error = |e: &dyn std::fmt::Display| HistoryError::Head(one_line(&e.to_string()));
        let mut local_branches: Vec<[u8; 20]> = Vec::new();
        let refs = repo.references().map_err(|e| head_error(&e))?;
        for reference in refs.local_branches().map_err(|e| head_error(&e))?.flatten() {
            if let Some(id) = reference.target().try_id() {
                local_branches.push(id20(id));
            }
        }
        local_branches.sort_unstable();
        local_branches.dedup();
        Ok(local_branches)
    }

    /// A thread-local handle on the repository (e.g. to read its configuration), opened by
    /// gix on first use.
    pub fn gix(&self) -> Result<gix::Repository, HistoryError> {
        Ok(self.sync()?.to_thread_local())
    }

    /// Whether no configuration gix reads for this repository could set `key`, told without
    /// opening gix: none of the files it reads (the system's, the global ones, the
    /// repository's and its worktree's, and those the environment names) has the variable's
    /// name (the part after its last dot, in any case) or an include, no variable is set
    /// through `GIT_CONFIG_COUNT`, and `GIT_CONFIG_PARAMETERS` does not name it either. A
    /// commit hook asks for a few variables nobody sets (`context-graph.strict`,
    /// `core.commentChar`) and, after a commit, reads only loose objects: opening the
    /// repository through gix for them was a sixth of its work (issue 41). `false` once gix is
    /// open: its answer is then at hand.
    pub(super) fn config_cannot_set(&self, key: &str) -> bool {
        if self.sync.get().is_some() {
            return false;
        }
        let name = key.rsplit('.').next().unwrap_or(key).to_ascii_lowercase();
        if name.is_empty() || std::env::var_os("GIT_CONFIG_COUNT").is_some() {
            return false;
        }
        match std::env::var_os("GIT_CONFIG_PARAMETERS").map(|p| p.into_string()) {
            Some(Ok(p)) if p.to_ascii_lowercase().contains(&name) => return false,
            Some(Err(_)) => return false,
            _ => {}
        }
        let text = self.config_text.get_or_init(|| self.read_config_text());
        text.as_deref()
            .is_some_and(|t| !t.contains("include") && !t.contains(&name))
    }

    /// Whether HEAD's branch is known, without gix, to leave no branch
    /// ([`Repo::branch_base`]): the repository was opened light, the branch has no upstream
    /// (`branch.NAME.remote` or `.merge` known unset), and none of the other candidates
    /// (`refs/remotes/origin/HEAD`, a local `main` or `master` that is not HEAD's) exists. A
    /// commit on the default branch of a repository without a remote asked gix for all of
    /// that (a seventh of the commit hook, issue 41).
    pub(super) fn leaves_no_branch(&self) -> bool {
        if !self.light {
            return false;
        }
        let Some(current) = super::light::head_branch(&self.git_dir) else {
            return false;
        };
        if let Some(short) = current
            .as_deref()
            .and_then(|c| c.strip_prefix("refs/heads/"))
        {
            if !self.config_cannot_set(&format!("branch.{short}.remote"))
                && !self.config_cannot_set(&format!("branch.{short}.merge"))
            {
                return false;
            }
        }
        let others: Vec<&str> = super::commits::BRANCH_BASES
            .iter()
            .copied()
            .filter(|name| current.as_deref() != Some(*name))
            .collect();
        super::light::refs_absent(&self.common, &others)
    }

    /// [`Repo::config_cannot_set`]'s text: every file gix may read, and more, joined in lower
    /// case; `None` when one cannot be read (but for not being there) or is not UTF-8.
    fn read_config_text(&self) -> Option<String> {
        #[allow(deprecated)] // as gix finds it
        let home = std::env::home_dir();
        let xdg = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".config")));
        let mut files: Vec<PathBuf> = vec![PathBuf::from("/etc/gitconfig")];
        for var in ["GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL", "GIT_CONFIG"] {
            files.extend(std::env::var_os(var).map(PathBuf::from));
        }
        files.extend(xdg.map(|x| x.join("git").join("config")));
        files.extend(home.map(|h| h.join(".gitconfig")));
        for dir in [&self.common, &self.git_dir] {
            files.push(dir.join("config"));
            files.push(dir.join("config.worktree"));
        }
        let mut text = String::new();
        for file in files {
            match std::fs::read(&file) {
                Ok(bytes) => text.push_str(&String::from_utf8(bytes).ok()?.to_ascii_lowercase()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) => return None,
            }
            text.push('\n');
        }
        Some(text)
    }

    /// The folder of the loose objects, found without opening gix when the repository was
    /// opened light ([`super::light`]: no variable moves its objects); else gix's.
    pub(super) fn objects_dir(&self) -> Result<PathBuf, HistoryError> {
        match self.light {
            true => Ok(self.common.join("objects")),
            false => Ok(self.gix()?.objects.store_ref().path().to_path_buf()),
        }
    }

    /// gix's handle, opened on first use as [`open`] would open it.
    pub(super) fn sync(&self) -> Result<&gix::ThreadSafeRepository, HistoryError> {
        let opened = self.sync.get_or_init(|| {
            gix::ThreadSafeRepository::discover(&self.root_abs)
                .map_err(|e| one_line(&e.to_string()))
        });
        opened.as_ref().map_err(|message| HistoryError::Open {
            path: self.root_abs.clone(),
            message: message.clone(),
        })
    }

    /// The common git dir: the main repository's for a linked worktree, else the git dir.
    pub fn common_dir(&self) -> PathBuf {
        self.common.clone()
    }

    /// git's index file (`index` in the git dir, or where gix's configuration puts it).
    pub fn index_file(&self) -> &Path {
        &self.index_file
    }
}

/// Finds the git work tree around `root` and reads HEAD and whether the clone is shallow.
/// `None` when `root` is not inside a work tree (no repository, a bare one, or a root inside
/// the git dir). No history is read: this is cheap enough for every query.
pub fn open(root: &Path) -> Result<Option<Repo>, HistoryError> {
    let root_abs = std::fs::canonicalize(root).map_err(|e| HistoryError::Root {
        path: root.to_path_buf(),
        message: e.to_string(),
    })?;
    if let Some(found) = super::light::open(&root_abs) {
        if let Ok(rel) = root_abs.strip_prefix(&found.workdir) {
            let prefix = path_prefix(rel);
            return Ok(Some(Repo {
                index_file: found.git_dir.join("index"),
                shallow_file: Some(found.common_dir.join("shallow")),
                git_dir: found.git_dir,
                workdir: found.workdir,
                prefix,
                head: Some(found.head),
                shallow: found.shallow,
                common: found.common_dir,
                light: true,
                root_abs,
                sync: Arc::default(),
                config_text: Arc::default(),
            }));
        }
    }
    let sync = match gix::ThreadSafeRepository::discover(&root_abs) {
        Ok(repo) => repo,
        Err(err) => {
            use gix::discover::upwards::Error as Up;
            return match err.downcast_any_ref::<Up>() {
                Some(Up::NoGitRepository { .. })
                | Some(Up::NoGitRepositoryWithinCeiling { .. })
                | Some(Up::NoGitRepositoryWithinFs { .. }) => Ok(None),
                // Objects named by another hash than SHA-1: no history can be read (ADR-0011).
                _ if unreadable_format(&root_abs).is_some() => Ok(None),
                _ => Err(HistoryError::Open {
                    path: root_abs,
                    message: one_line(&err.to_string()),
                }),
            };
        }
    };
    let Some(work_dir) = sync.work_dir() else {
        return Ok(None);
    };
    let workdir = std::fs::canonicalize(work_dir).map_err(|e| HistoryError::Open {
        path: work_dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let Ok(rel) = root_abs.strip_prefix(&workdir) else {
        return Ok(None);
    };
    // A root inside the git dir is in no work tree, as git sees it.
    if let Some(".git") = rel.components().next().and_then(|c| c.as_os_str().to_str()) {
        return Ok(None);
    }
    let prefix = path_prefix(rel);
    let local = sync.to_thread_local();
    let shallow_file = local.shallow_file().ok();
    let mut repo = Repo {
        git_dir: sync.git_dir().to_path_buf(),
        workdir,
        prefix,
        head: None,
        shallow: false,
        common: local.common_dir().to_path_buf(),
        index_file: local.index_path(),
        shallow_file,
        light: false,
        root_abs,
        sync: Arc::new(OnceLock::from(Ok(sync))),
        config_text: Arc::default(),
    };
    repo.refresh()?;
    Ok(Some(repo))
}

/// What HEAD of `repo` points to, followed through symbolic references: `None` when unborn.
fn head_of(repo: &gix::Repository) -> Result<Option<[u8; 20]>, HistoryError> {
    let head_error = |e: &dyn std::fmt::Display| HistoryError::Head(one_line(&e.to_string()));
    let head = repo.head().map_err(|e| head_error(&e))?;
    let id = match head.id() {
        Some(id) => Some(id.detach()),
        None if head.is_unborn() => None,
        // HEAD → a symbolic branch → …: follow it all the way.
        None => head
            .try_into_peeled_id()
            .map_err(|e| head_error(&e))?
            .map(|id| id.detach()),
    };
    Ok(id.map(|id| id20(&id)))
}

pub(super) fn id20(id: &gix::oid) -> [u8; 20] {
    let mut out = [0u8; 20];
    // Built with SHA-1 only: every id is 20 bytes.
    out.copy_from_slice(id.as_bytes());
    out
}

/// `sub/dir/` for a root below the work tree's top, `""` at the top.
pub(super) fn path_prefix(rel: &Path) -> String {
    let mut prefix = String::new();
    for part in rel.components() {
        prefix.push_str(&part.as_os_str().to_string_lossy());
        prefix.push('/');
    }
    prefix
}

/// The object format of the repository around `root` when it is one this build cannot read
/// (`sha256`): its `extensions.objectFormat`, read from the config of the nearest `.git`
/// (a folder, or a file naming the git dir). `None` for SHA-1 or no repository.
pub fn unreadable_format(root: &Path) -> Option<String> {
    let dot_git = root
        .ancestors()
        .map(|d| d.join(".git"))
        .find(|g| g.exists())?;
    let git_dir = if dot_git.is_file() {
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let named = std::path::PathBuf::from(text.trim().strip_prefix("gitdir:")?.trim());
        let named = dot_git.parent()?.join(named);
        // A linked worktree's config is the common dir's.
        match std::fs::read_to_string(named.join("commondir")) {
            Ok(common) => named.join(common.trim()),
            Err(_) => named,
        }
    } else {
        dot_git
    };
    let config = std::fs::read_to_string(git_dir.join("config")).ok()?;
    config.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        let value = value.trim().trim_matches('"').to_ascii_lowercase();
        (key.trim().eq_ignore_ascii_case("objectformat") && value != "sha1").then_some(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_of_a_subfolder_root() {
        assert_eq!(path_prefix(Path::new("")), "");
        assert_eq!(path_prefix(Path::new("a/b")), "a/b/");
    }
}
