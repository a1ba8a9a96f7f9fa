//! The import edges an import rule is evaluated over (ADR-0021, ADR-0022, docs/rules.md): each
//! wanted file's imports read by tree-sitter from the bytes a [`Files`] holds (git's index in a
//! scan, one side of the change in the commit hook and `review`), resolved against every tracked
//! path as the file's language resolves them. A Go package or a Java wildcard stands for its
//! folder's files, one edge each; an import that resolves to nothing tracked and names no
//! package is no edge.

use crate::checks::rules::{Edges, Files};
use crate::imports::{lang_of, read_imports, Project, Target};
use crate::rules::{Edge, EdgeTarget};

/// Edges read from `files`, resolved against the tracked paths (and configuration files:
/// `tsconfig.json`, `go.mod`, `Cargo.toml`, …) of `tree`.
pub struct ImportEdges<'a> {
    files: &'a dyn Files,
    tree: &'a dyn Files,
}

impl<'a> ImportEdges<'a> {
    /// `files` are read for imports; `tree` is what they resolve against (often the same).
    pub fn new(files: &'a dyn Files, tree: &'a dyn Files) -> ImportEdges<'a> {
        ImportEdges { files, tree }
    }
}

impl Edges for ImportEdges<'_> {
    fn edges(&self, wanted: &dyn Fn(&str) -> bool) -> Option<Vec<Edge>> {
        let tracked = self.tree.paths()?;
        let sources: Vec<String> = self
            .files
            .paths()?
            .into_iter()
            .filter(|p| lang_of(p).is_some() && wanted(p))
            .collect();
        if sources.is_empty() {
            return Some(Vec::new());
        }
        let project = Project::new(&tracked, &|p| self.tree.read(p));
        let per_file = crate::util::parallel_map(&sources, |from| {
            let Some(bytes) = self.files.read(from) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for import in read_imports(from, &bytes) {
                let target = project.resolve(from, &import);
                match &target {
                    Target::Package(name) => out.push(Edge {
                        from: from.clone(),
                        line: import.line,
                        target: EdgeTarget::Package(name.clone()),
                    }),
                    Target::File(_) => {
                        for file in project.files_of(from, &target) {
                            out.push(Edge {
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
        Some(edges)
    }
}
