//! A tree's tracked paths and language configuration, read once, against which every import
//! resolves as its language resolves it (ADR-0022). Go lives here; JavaScript, Python, Rust and
//! Java/Kotlin have a file each.

use super::resolve_js::Js;
use super::resolve_jvm::Jvm;
use super::resolve_py::Py;
use super::resolve_rust::Crates;
use super::tracked::{join_dir, name, parent, Target, Tracked};
use super::{lang_of, Import, Lang};
use std::sync::OnceLock;

/// The reader of the configuration files resolution consults.
pub type Read<'a> = &'a (dyn Fn(&str) -> Option<Vec<u8>> + Sync);

/// The tracked paths and configuration of one tree. Each language's resolver is built the
/// first time a file of that language resolves an import: a commit hook reading one
/// TypeScript file builds no Python, Rust, Go or Java one (docs/benchmarks.md).
pub struct Project<'a> {
    paths: &'a [String],
    read: Read<'a>,
    tracked: Tracked<'a>,
    js: OnceLock<Js>,
    py: OnceLock<Py>,
    crates: OnceLock<Crates>,
    /// Go modules: (module path, folder of its go.mod), longest module path first.
    go: OnceLock<Vec<(String, String)>>,
    jvm: OnceLock<Jvm>,
}

impl<'a> Project<'a> {
    /// Reads `tracked` (paths relative to the root, `/`-separated); through `read`, the
    /// configuration files among them that resolution consults, when first needed.
    pub fn new(tracked: &'a [String], read: Read<'a>) -> Project<'a> {
        Project {
            paths: tracked,
            read,
            tracked: Tracked::new(tracked),
            js: OnceLock::new(),
            py: OnceLock::new(),
            crates: OnceLock::new(),
            go: OnceLock::new(),
            jvm: OnceLock::new(),
        }
    }

    fn go(&self) -> &[(String, String)] {
        self.go.get_or_init(|| {
            let mut go = Vec::new();
            for path in self.paths.iter().filter(|p| name(p) == "go.mod") {
                if let Some(module) = (self.read)(path).and_then(|b| go_module(&b)) {
                    go.push((module, parent(path).to_string()));
                }
            }
            go.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
            go
        })
    }

    /// What `import`, written in the tracked file `from`, resolves to.
    pub fn resolve(&self, from: &str, import: &Import) -> Target {
        match lang_of(from) {
            Some(Lang::JavaScript | Lang::Jsx | Lang::TypeScript | Lang::Tsx) => {
                let js = self.js.get_or_init(|| Js::new(self.paths, self.read));
                js.resolve(&self.tracked, from, &import.spec)
            }
            Some(Lang::Python) => {
                let py = self.py.get_or_init(|| Py::new(self.paths));
                py.resolve(&self.tracked, from, import)
            }
            Some(Lang::Rust) => {
                let crates = self
                    .crates
                    .get_or_init(|| Crates::new(self.paths, self.read));
                crates.resolve(&self.tracked, self.read, from, import)
            }
            Some(Lang::Go) => self.resolve_go(&import.spec),
            Some(Lang::Java | Lang::Kotlin) => {
                let jvm = self.jvm.get_or_init(|| Jvm::new(self.paths));
                jvm.resolve(from, import)
            }
            None => Target::Unresolved,
        }
    }

    /// The tracked files a target stands for: the file itself, or a package folder's files
    /// in the language of `from` (a Go folder's files other than its tests).
    pub fn files_of(&self, from: &str, target: &Target) -> Vec<String> {
        let Target::File(path) = target else {
            return Vec::new();
        };
        if self.tracked.is_file(path) {
            return vec![path.clone()];
        }
        let lang = lang_of(from);
        self.tracked
            .in_dir(path)
            .iter()
            .filter(|f| lang_of(f) == lang && !f.ends_with("_test.go"))
            .map(|f| (*f).to_string())
            .collect()
    }

    /// Go: an import path inside a module of the tree is the folder under its go.mod; any
    /// other (the standard library, another module) is a package.
    fn resolve_go(&self, spec: &str) -> Target {
        for (module, dir) in self.go() {
            let rest = if spec == module {
                Some("")
            } else {
                spec.strip_prefix(module.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            };
            if let Some(rest) = rest {
                let folder = join_dir(dir, rest);
                return if self.tracked.dir_has(&folder, Lang::Go) {
                    Target::File(folder)
                } else {
                    Target::Unresolved
                };
            }
        }
        Target::Package(spec.to_string())
    }
}

/// The module path a go.mod declares.
fn go_module(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("module")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let module = rest.split("//").next()?.trim().trim_matches('"');
        (!module.is_empty()).then(|| module.to_string())
    })
}
