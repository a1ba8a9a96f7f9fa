//! The names of the tracked files and folders (ADR-0017): every path by its name's key, each
//! folder's count of files, code and documentation, the packages, Go's packages, the families
//! and the products' tokens, and the digest a stored answer is checked by. Every kind of
//! evidence looks its terms up here.

use super::paths::{dotted_last, is_doc, is_source, word_count};
use crate::text::terms::key;
use std::collections::{HashMap, HashSet};

/// A repository of fewer files has no bulk: each folder is a part.
pub(super) const BULK_FROM: usize = 100;

/// Files whose folder is a package: a bare word may name that folder.
const MANIFESTS: &[&str] = &[
    "package.json",
    "Cargo.toml",
    "go.mod",
    "Chart.yaml",
    "pyproject.toml",
    "setup.py",
    "Gemfile",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "composer.json",
    "mix.exs",
    "main.tf",
    "variables.tf",
    "Dockerfile",
    "project.json",
    "BUILD",
    "BUILD.bazel",
];

/// Folders of packages: a package in one may be named by a bare word.
const CONTAINERS: &[&str] = &[
    "packages",
    "charts",
    "modules",
    "services",
    "apps",
    "libs",
    "crates",
    "cmd",
    "components",
    "plugins",
    "projects",
    "extensions",
    "tools",
    "stacks",
    "functions",
    "workspaces",
];

/// A top-level folder whose folders are kinds of code (Rails, Laravel: `app/models/`,
/// `app/validators/`): one directly in it is as good as top-level. Not `src/`, `pkg/`,
/// `internal/`: their folders are modules and crates named by common words (`src/catalog/`,
/// `src/operator/`, `src/cache/` in a database), nor `lib/`, whose `lib/<project>/` is the
/// project's own name (`lib/whitehall/`).
const SOURCE_ROOTS: &[&str] = &["app"];

/// A name's first word shared by this many folders beside it is a prefix of the family
/// (`infra-` of `infra-vpc`, `infra-security-groups`): a phrase may name one by the rest.
const FAMILY: usize = 3;

/// One tracked file or folder a term may name.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// Root-relative; a folder ends with `/`.
    pub(super) path: String,
    /// A top-level folder, or a package in a folder of packages.
    pub(super) named: bool,
    /// How many tracked files a folder holds (0 for a file).
    pub(super) files: u32,
    /// How many of them are source code in a programming language ([`is_source`]).
    pub(super) code: u32,
    /// How many of them are documentation or pictures ([`is_doc`]).
    pub(super) docs: u32,
    /// A package: a folder in a folder of packages holding a manifest.
    pub(super) package: bool,
    /// A folder holding a package's manifest directly, wherever it lies (`components/suggest/`
    /// with its `Cargo.toml`), or a Go package: what "the X component" may name.
    pub(super) unit: bool,
}

/// The names of the tracked files and folders, by [`key`]: a file by its name without its
/// extension and by its whole name, a folder by its name.
#[derive(Debug, Default)]
pub struct Names {
    pub(super) entries: Vec<Entry>,
    pub(super) by_key: HashMap<String, Vec<u32>>,
    pub(super) digest: u64,
    /// How many files are tracked, and how many under each top-level folder.
    pub(super) files: usize,
    /// How many of them are source code.
    pub(super) code_files: usize,
    pub(super) under_top: HashMap<String, usize>,
    /// Each tracked file's name, by its key.
    pub(super) file_keys: Vec<String>,
    /// Folders of a family (`projects/infra-security-groups/`) by the key of their name
    /// without the family's first word (`securitygroups`).
    pub(super) by_rest: HashMap<String, Vec<u32>>,
    /// Folders by the first word of their name (`mysql/`, `dapr_runtime/` by `dapr`), files
    /// by their name before the extensions (`lerna.json` by `lerna`, a hidden tool's file
    /// `.eslintrc.js` by `eslint`): what a product's name may name.
    pub(super) by_token: HashMap<String, Vec<u32>>,
    /// The packages below the top (`packages/web/`): a tool's own file may lie in one.
    pub(super) packages: HashSet<String>,
    /// The folders holding a Go file of their own (`confmap/`): Go's packages.
    pub(super) go_packages: HashSet<String>,
    /// The checksum of git's index the paths were read from, when known: the same checksum,
    /// the same paths (so a stored answer is checked by 20 bytes, not the whole index).
    pub checksum: Option<[u8; 20]>,
    /// The repository's name on its forge (the git module's `home_name`): a link into another
    /// repository's code names nothing here. `None`: every link is taken as into this one.
    pub home: Option<String>,
}

/// FNV-1a, 64 bits: a digest stable across builds and runs (std's hasher is not).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

/// The digest [`Names::digest`] gives for `paths`, without building the names.
pub fn digest<'a>(paths: impl IntoIterator<Item = &'a str>) -> u64 {
    let mut hasher = Fnv::default();
    for path in paths {
        hasher.path(path);
    }
    hasher.0
}

impl Fnv {
    fn path(&mut self, path: &str) {
        self.write(path.as_bytes());
        self.write(b"\n");
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl Names {
    /// The names of `paths` (tracked files, root-relative, `/`-separated).
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> Names {
        let mut names = Names::default();
        let mut folders: HashMap<&str, u32> = HashMap::new();
        let mut hasher = Fnv::default();
        for path in paths {
            hasher.path(path);
            names.files += 1;
            let source = u32::from(is_source(path));
            names.code_files += source as usize;
            let doc = u32::from(is_doc(path));
            if let Some((top, _)) = path.split_once('/') {
                *names.under_top.entry(format!("{top}/")).or_default() += 1;
            }
            let (folder, name) = match path.rfind('/') {
                Some(at) => (&path[..at], &path[at + 1..]),
                None => ("", path),
            };
            // Every folder above the file, once.
            let mut end = 0;
            for (at, _) in path.match_indices('/') {
                let dir = &path[..at];
                if let Some(&n) = folders.get(dir) {
                    names.entries[n as usize].files += 1;
                    names.entries[n as usize].code += source;
                    names.entries[n as usize].docs += doc;
                }
                if !folders.contains_key(dir) && !is_doc(&format!("{dir}/-")) {
                    let leaf = &dir[end..];
                    let top = match dir.split_once('/') {
                        None => true,
                        Some((root, rest)) => SOURCE_ROOTS.contains(&root) && !rest.contains('/'),
                    };
                    let n = names.add(format!("{dir}/"), top, leaf);
                    // A project folder named as .NET and Java name them, by its namespace
                    // (`Connectors.AzureOpenAI/`): also by its last part (`AzureOpenAI`).
                    if let Some(last) = dotted_last(leaf) {
                        names.by_key.entry(key(last)).or_default().push(n);
                    }
                    names.entries[n as usize].files = 1;
                    names.entries[n as usize].code = source;
                    names.entries[n as usize].docs = doc;
                    folders.insert(dir, n);
                }
                end = at + 1;
            }
            // A package a bare word may name: one in a folder of packages (`packages/ui`,
            // `charts/external-dns`), not any folder deep in the tree holding a manifest.
            let container = folder
                .rsplit_once('/')
                .map(|(above, _)| above.rsplit('/').next().unwrap_or(above));
            if MANIFESTS.contains(&name) || name.ends_with(".go") {
                if let Some(&n) = folders.get(folder) {
                    names.entries[n as usize].unit = true;
                }
            }
            if container.is_some_and(|c| CONTAINERS.contains(&c)) && MANIFESTS.contains(&name) {
                if let Some(&n) = folders.get(folder) {
                    names.entries[n as usize].named = true;
                    names.entries[n as usize].package = true;
                }
            }
            if is_doc(path) {
                continue;
            }
            if name.ends_with(".go") && !folder.is_empty() {
                names.go_packages.insert(format!("{folder}/"));
            }
            names.file_keys.push(key(name));
            let n = names.add(path.to_string(), false, name);
            if let Some(stem) = name
                .rsplit_once('.')
                .map(|(s, _)| s)
                .filter(|s| !s.is_empty())
            {
                let k = key(stem);
                if k != key(name) {
                    names.by_key.entry(k).or_default().push(n);
                }
            }
        }
        names.digest = hasher.0;
        names.families();
        names.tokens();
        names
    }

    /// Index every folder by the first word of its name, every file by its name before the
    /// extensions (a hidden run-control file, `.eslintrc.js`, by its tool's name).
    fn tokens(&mut self) {
        let mut by_token: HashMap<String, Vec<u32>> = HashMap::new();
        for (n, e) in self.entries.iter().enumerate() {
            let trimmed = e.path.trim_end_matches('/');
            let leaf = trimmed.rsplit('/').next().unwrap_or(trimmed);
            let first = match leaf.strip_prefix('.') {
                // Hidden: only a tool's run-control file, never a folder (`.vscode/`).
                Some(rest) if !e.path.ends_with('/') => rest
                    .split(['-', '_', '.'])
                    .next()
                    .and_then(|f| f.strip_suffix("rc")),
                Some(_) => None,
                // A folder by its first word (`dapr_runtime/`), a file by its whole name
                // before the extensions (`lerna.json`, `next.config.js`; not
                // `bouncer_public_rule.tf`).
                None if e.path.ends_with('/') => leaf.split(['-', '_', '.']).next(),
                None => leaf.split('.').next(),
            };
            if let Some(first) = first.filter(|f| !f.is_empty()) {
                by_token
                    .entry(first.to_ascii_lowercase())
                    .or_default()
                    .push(n as u32);
            }
        }
        self.by_token = by_token;
        self.packages = self
            .entries
            .iter()
            .filter(|e| e.named && e.path.trim_end_matches('/').contains('/'))
            .map(|e| e.path.clone())
            .collect();
    }

    /// Index the folders of each family by their name without its first word: a first word
    /// at least [`FAMILY`] folders beside each other share, with two words or more after it.
    fn families(&mut self) {
        fn split(path: &str) -> Option<(&str, &str, &str)> {
            let trimmed = path.strip_suffix('/')?;
            let (parent, leaf) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
            let (first, rest) = leaf.split_once(['-', '_'])?;
            (!first.is_empty() && !rest.is_empty()).then_some((parent, first, rest))
        }
        let mut firsts: HashMap<(&str, &str), usize> = HashMap::new();
        for e in &self.entries {
            if let Some((parent, first, _)) = split(&e.path) {
                *firsts.entry((parent, first)).or_default() += 1;
            }
        }
        let mut by_rest: HashMap<String, Vec<u32>> = HashMap::new();
        for (n, e) in self.entries.iter().enumerate() {
            if let Some((parent, first, rest)) = split(&e.path) {
                let family = firsts.get(&(parent, first)).is_some_and(|&c| c >= FAMILY);
                if family && word_count(rest) >= 2 {
                    by_rest.entry(key(rest)).or_default().push(n as u32);
                }
            }
        }
        self.by_rest = by_rest;
    }

    fn add(&mut self, path: String, named: bool, name: &str) -> u32 {
        let n = self.entries.len() as u32;
        self.entries.push(Entry {
            path,
            named,
            files: 0,
            code: 0,
            docs: 0,
            package: false,
            unit: false,
        });
        self.by_key.entry(key(name)).or_default().push(n);
        n
    }

    /// A digest of the tracked paths: the same paths, the same digest (what a stored answer's
    /// mentions depended on).
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Whether an entry is code: a file, a package, or a folder holding source code in a
    /// programming language.
    pub(super) fn holds_code(&self, e: &Entry) -> bool {
        !e.path.ends_with('/') || e.package || e.code > 0
    }

    /// Whether a top-level folder holds half the tracked files or more: a word names it as
    /// what the repository is written in (`Terraform`, `terraform/`).
    pub(super) fn most(&self, e: &Entry) -> bool {
        self.under_top
            .get(&e.path)
            .is_some_and(|n| n * 2 > self.files)
    }

    /// Whether a folder holds a tenth of the tracked files or more (when there are
    /// [`BULK_FROM`] or more): the bulk of the repository, which a phrase or a word names as
    /// what the repository is (`Semantic Kernel`, `python/semantic_kernel/`), not as a part.
    pub(super) fn bulk(&self, e: &Entry) -> bool {
        self.files >= BULK_FROM && e.files as usize * 10 >= self.files
    }
}
