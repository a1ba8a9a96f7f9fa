//! The import edges an import rule is evaluated over (ADR-0021, ADR-0022, docs/rules.md): each
//! wanted file's imports read by tree-sitter from the bytes a [`Files`] holds (git's index in a
//! scan, one side of the change in the commit hook and `review`), resolved against every tracked
//! path as the file's language resolves them. A Go package or a Java wildcard stands for its
//! folder's files, one edge each; an import that resolves to nothing tracked and names no
//! package is no edge.
//!
//! A file's imports depend only on its bytes and its language: with an [`ImportCache`] (the
//! index's, ADR-0021), a file whose blob id the cache holds is not read nor parsed; what was
//! parsed anew is handed back ([`ImportEdges::taken`]) for the cache to keep.

use crate::checks::rules::{Edges, Files};
use crate::imports::{lang_of, read_imports, Import, Project, Target, PARSER_VERSION};
use crate::rules::{Edge, EdgeTarget};
use std::sync::Mutex;

/// What a file's imports are kept by: its blob id, and its language with the version of the
/// reader ([`key_of`]).
pub type ImportKey = ([u8; 20], String);

/// The imports read earlier, by [`ImportKey`].
pub trait ImportCache: Sync {
    fn get(&self, key: &ImportKey) -> Option<Vec<Import>>;
}

/// The key of the file at `path` whose blob is `blob`: a file in no known language has none.
pub fn key_of(path: &str, blob: [u8; 20]) -> Option<ImportKey> {
    let lang = lang_of(path)?;
    Some((blob, format!("{lang:?}/{PARSER_VERSION}")))
}

/// What one evaluation read, for a cache to keep: every key it used, and the imports it
/// parsed anew (not in the cache).
#[derive(Debug, Default)]
pub struct ImportsRead {
    pub used: Vec<ImportKey>,
    pub parsed: Vec<(ImportKey, Vec<Import>)>,
}

/// Edges read from `files`, resolved against the tracked paths (and configuration files:
/// `tsconfig.json`, `go.mod`, `Cargo.toml`, …) of `tree`.
pub struct ImportEdges<'a> {
    files: &'a dyn Files,
    tree: Tree<'a>,
    cache: Option<&'a dyn ImportCache>,
    read: Mutex<ImportsRead>,
}

/// What imports resolve against: a tree's files, read when the edges are asked for, or a
/// [`Project`] built once for several evaluations (both sides of a commit).
enum Tree<'a> {
    Files(&'a dyn Files),
    Project(&'a Project<'a>),
}

impl<'a> ImportEdges<'a> {
    /// `files` are read for imports; `tree` is what they resolve against (often the same).
    pub fn new(files: &'a dyn Files, tree: &'a dyn Files) -> ImportEdges<'a> {
        ImportEdges {
            files,
            tree: Tree::Files(tree),
            cache: None,
            read: Mutex::new(ImportsRead::default()),
        }
    }

    /// `files` read for imports, resolved against `project`.
    pub fn over(files: &'a dyn Files, project: &'a Project<'a>) -> ImportEdges<'a> {
        ImportEdges {
            files,
            tree: Tree::Project(project),
            cache: None,
            read: Mutex::new(ImportsRead::default()),
        }
    }

    /// The same, asking `cache` first for each file whose blob id `files` knows.
    pub fn cached(
        files: &'a dyn Files,
        tree: &'a dyn Files,
        cache: &'a dyn ImportCache,
    ) -> ImportEdges<'a> {
        ImportEdges {
            cache: Some(cache),
            ..ImportEdges::new(files, tree)
        }
    }

    /// What the evaluations so far read (each key once), leaving nothing behind.
    pub fn taken(&self) -> ImportsRead {
        let mut read = std::mem::take(&mut *crate::util::locked(&self.read));
        read.used.sort();
        read.used.dedup();
        read.parsed.sort_by(|a, b| a.0.cmp(&b.0));
        read.parsed.dedup_by(|a, b| a.0 == b.0);
        read
    }

    /// The imports of `from`: from the cache when it holds them, else read and parsed.
    fn imports_of(&self, from: &str) -> Vec<Import> {
        let key = self
            .cache
            .and_then(|_| self.files.blob(from))
            .and_then(|blob| key_of(from, blob));
        if let (Some(cache), Some(key)) = (self.cache, &key) {
            if let Some(found) = cache.get(key) {
                crate::util::locked(&self.read).used.push(key.clone());
                return found;
            }
        }
        let Some(bytes) = self.files.read(from) else {
            return Vec::new();
        };
        crate::util::faults::trace("imports", from);
        let found = read_imports(from, &bytes);
        if let Some(key) = key {
            let mut read = crate::util::locked(&self.read);
            read.used.push(key.clone());
            read.parsed.push((key, found.clone()));
        }
        found
    }
}

impl ImportEdges<'_> {
    /// The edges of `sources`, resolved against `project`.
    fn resolved(
        &self,
        project: &Project,
        sources: &[String],
        keep: &(dyn Fn(&Edge) -> bool + Sync),
    ) -> Vec<Edge> {
        let per_file = crate::util::parallel_map(sources, |from| {
            let mut out = Vec::new();
            for import in self.imports_of(from) {
                let target = project.resolve(from, &import);
                let mut add = |edge: Edge| {
                    if keep(&edge) {
                        out.push(edge);
                    }
                };
                match &target {
                    Target::Package(name) => add(Edge {
                        from: from.clone(),
                        line: import.line,
                        target: EdgeTarget::Package(name.clone()),
                    }),
                    Target::File(_) => {
                        for file in project.files_of(from, &target) {
                            add(Edge {
                                from: from.clone(),
                                line: import.line,
                                target: EdgeTarget::File(file),
                            });
                        }
                    }
                    Target::Unresolved => {}
                }
            }
            out
        });
        let mut edges: Vec<Edge> = per_file.into_iter().flatten().collect();
        edges.sort();
        edges.dedup();
        edges
    }
}

impl Edges for ImportEdges<'_> {
    fn edges(
        &self,
        wanted: &dyn Fn(&str) -> bool,
        keep: &(dyn Fn(&Edge) -> bool + Sync),
    ) -> Option<Vec<Edge>> {
        let wanted = |p: &String| lang_of(p).is_some() && wanted(p);
        match self.tree {
            Tree::Project(project) => {
                let sources: Vec<String> = self.files.paths()?.into_iter().filter(wanted).collect();
                Some(self.resolved(project, &sources, keep))
            }
            Tree::Files(tree) => {
                let tracked = tree.paths()?;
                // Read and resolved against the same files (a scan): their paths listed once.
                let same = std::ptr::addr_eq(self.files, tree);
                let sources: Vec<String> = if same {
                    tracked.iter().filter(|p| wanted(p)).cloned().collect()
                } else {
                    self.files.paths()?.into_iter().filter(wanted).collect()
                };
                if sources.is_empty() {
                    return Some(Vec::new());
                }
                let read = |p: &str| tree.read(p);
                let project = Project::new(&tracked, &read);
                Some(self.resolved(&project, &sources, keep))
            }
        }
    }
}
