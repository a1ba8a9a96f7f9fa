//! Code mentions (CONTRACT.md §11, ADR-0017): the terms in a record's prose that name code,
//! resolved against the names of the tracked files and folders. Two pure halves: [`terms`]
//! (`text::terms`) reads a record's visible lines (parsing calls it, so the terms are cached
//! with the parse),
//! and [`Names::resolve`] matches them, style-insensitively, against the tracked paths (the
//! scan calls it, as it calls `governs`). A mention never governs: nothing here is read by the
//! checks, drift or the hooks.

use crate::governs::Pattern;
pub use crate::model::CodeMention;
use crate::text::terms::classify;
use crate::text::terms::go_qualified;
use crate::text::terms::product_key;
use crate::text::terms::singular;
use crate::text::terms::LANGUAGE_PORTS;
pub use crate::text::terms::{key, terms, Kind, Term};
use std::collections::{HashMap, HashSet};

/// A term that matches more paths than this is ambiguous, and dropped.
pub const MAX_MATCHES: usize = 2;

/// `scope --accept` takes the mentions at or above this confidence: a backticked word or a
/// compound identifier naming exactly one path.
pub const ACCEPT_CONFIDENCE: f64 = 0.8;

/// The most a name matched by its words joined is sure of: below [`ACCEPT_CONFIDENCE`].
const JOINED_CONFIDENCE: f64 = 0.7;

/// Go packages a project's own package of the same name is not meant by: the standard
/// library's, and a few every Go program imports.
#[rustfmt::skip]
const GO_COMMON: &[&str] = &[
    "errors", "fmt", "io", "os", "context", "time", "strings", "sync", "atomic", "http", "net",
    "json", "xml", "csv", "bytes", "sort", "log", "slog", "math", "rand", "big", "reflect",
    "testing", "runtime", "debug", "pprof", "trace", "bufio", "flag", "filepath", "path", "fs",
    "regexp", "strconv", "unicode", "utf8", "url", "signal", "exec", "sql", "template", "tls",
    "x509", "crypto", "sha256", "hash", "heap", "list", "zip", "gzip", "binary", "hex",
    "base64", "slices", "maps", "iter", "cmp", "embed", "ioutil", "httptest", "grpc", "proto",
    "zap", "cobra", "assert", "require",
];

/// A repository of fewer files has no bulk: each folder is a part.
const BULK_FROM: usize = 100;

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
struct Entry {
    /// Root-relative; a folder ends with `/`.
    path: String,
    /// A top-level folder, or a package in a folder of packages.
    named: bool,
    /// How many tracked files a folder holds (0 for a file).
    files: u32,
    /// How many of them are source code in a programming language ([`is_source`]).
    code: u32,
    /// How many of them are documentation or pictures ([`is_doc`]).
    docs: u32,
    /// A package: a folder in a folder of packages holding a manifest.
    package: bool,
    /// A folder holding a package's manifest directly, wherever it lies (`components/suggest/`
    /// with its `Cargo.toml`), or a Go package: what "the X component" may name.
    unit: bool,
}

/// The names of the tracked files and folders, by [`key`]: a file by its name without its
/// extension and by its whole name, a folder by its name.
#[derive(Debug, Default)]
pub struct Names {
    entries: Vec<Entry>,
    by_key: HashMap<String, Vec<u32>>,
    digest: u64,
    /// How many files are tracked, and how many under each top-level folder.
    files: usize,
    /// How many of them are source code.
    code_files: usize,
    under_top: HashMap<String, usize>,
    /// Each tracked file's name, by its key.
    file_keys: Vec<String>,
    /// Folders of a family (`projects/infra-security-groups/`) by the key of their name
    /// without the family's first word (`securitygroups`).
    by_rest: HashMap<String, Vec<u32>>,
    /// Folders by the first word of their name (`mysql/`, `dapr_runtime/` by `dapr`), files
    /// by their name before the extensions (`lerna.json` by `lerna`, a hidden tool's file
    /// `.eslintrc.js` by `eslint`): what a product's name may name.
    by_token: HashMap<String, Vec<u32>>,
    /// The packages below the top (`packages/web/`): a tool's own file may lie in one.
    packages: HashSet<String>,
    /// The folders holding a Go file of their own (`confmap/`): Go's packages.
    go_packages: HashSet<String>,
    /// The checksum of git's index the paths were read from, when known: the same checksum,
    /// the same paths (so a stored answer is checked by 20 bytes, not the whole index).
    pub checksum: Option<[u8; 20]>,
    /// The repository's name on its forge (the git module's `home_name`): a link into another
    /// repository's code names nothing here. `None`: every link is taken as into this one.
    pub home: Option<String>,
}

/// A bare word found in the names of more files than this is a word of the repository's
/// domain.
const DOMAIN_WORD: usize = 20;

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

    /// The code mentions of a record's `terms`: the paths each names, unless ambiguous, under
    /// the record folders `skip`, or governed by the record (`governs`). In line order, each
    /// path once.
    pub fn resolve(&self, terms: &[Term], governs: &[String], skip: &[String]) -> Vec<CodeMention> {
        self.resolve_with(terms, governs, skip, &Vocabulary::default(), "")
    }

    /// [`Names::resolve_defined`] without the types' definitions.
    pub fn resolve_with(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
    ) -> Vec<CodeMention> {
        self.resolve_defined(terms, governs, skip, vocabulary, title, &Defined::default())
    }

    /// [`Names::resolve`], leaving out what the records' `vocabulary` words and phrases name,
    /// bar a top-level folder or a package. `title`, the record's, picks between two paths of
    /// a name: one under a top-level folder it names (`python/` for "… Semantic Kernel
    /// Python"); its words are never terms by themselves. `defined`: the source files
    /// defining the types the terms name ([`Names::defined`]).
    pub fn resolve_defined(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
        defined: &Defined,
    ) -> Vec<CodeMention> {
        // The ports of a multi-language repository (`python/` beside `dotnet/`).
        let ports: Vec<&str> = LANGUAGE_PORTS
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| self.under_top.contains_key(&format!("{p}/")))
            .collect();
        if ports.len() < 2 {
            return self.resolve_in(terms, governs, skip, vocabulary, title, None, defined);
        }
        let port_of = |path: &str| -> Option<&str> {
            let top = path.split('/').next()?;
            ports
                .iter()
                .copied()
                .find(|p| *p == top && path.len() > top.len())
        };
        // A record is about the ports whose language it names, and, when none of those has
        // as many of its mentions as any other, the port most of its mentions are in (links
        // aside: they name their path whatever the language). A record naming Python in
        // passing is still about the .NET code it names; one naming no language, about the
        // port most of its mentions are in (all of them on a tie).
        let mut about: Vec<&str> = terms
            .iter()
            .filter(|t| t.kind == Kind::Language)
            .filter_map(|t| ports.iter().copied().find(|p| *p == t.text))
            .collect();
        let first = self.resolve_in(terms, governs, skip, vocabulary, title, None, defined);
        let mut per: HashMap<&str, usize> = HashMap::new();
        for m in first.iter().filter(|m| !m.term.contains("://")) {
            if let Some(p) = port_of(&m.path) {
                *per.entry(p).or_default() += 1;
            }
        }
        let most = per.values().copied().max().unwrap_or(0);
        let leading: Vec<&str> = per
            .iter()
            .filter(|(_, n)| **n == most)
            .map(|(p, _)| *p)
            .collect();
        if !about.iter().any(|p| leading.contains(p)) {
            about.extend(leading);
        }
        if ports.iter().all(|p| about.contains(p)) || most == 0 && about.is_empty() {
            return first;
        }
        self.resolve_in(
            terms,
            governs,
            skip,
            vocabulary,
            title,
            Some(&about),
            defined,
        )
    }

    /// [`Names::resolve_with`], a name in a language's port (of `LANGUAGE_PORTS`) kept only
    /// when the port is one of `ports` (all: `None`).
    #[allow(clippy::too_many_arguments)]
    fn resolve_in(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
        ports: Option<&[&str]>,
        defined: &Defined,
    ) -> Vec<CodeMention> {
        let title_tops: Vec<String> = title
            .split(|c: char| !c.is_ascii_alphanumeric())
            .map(key)
            .filter(|k| k.len() >= 3 && self.under_top.contains_key(&format!("{k}/")))
            .map(|k| format!("{k}/"))
            .collect();
        let patterns: Vec<Pattern> = governs.iter().map(|g| Pattern::new(g)).collect();
        let governed = |path: &str| {
            let probe = path.trim_end_matches('/');
            patterns.iter().any(|p| p.matches(path) || p.matches(probe))
        };
        let skipped = |path: &str| {
            vendored(path)
                || client_generated(path)
                || skip.iter().any(|f| {
                    let f = f.trim_end_matches('/');
                    !f.is_empty()
                        && path
                            .strip_prefix(f)
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
        };
        // Outside the record's ports: a port of another language.
        let elsewhere = |path: &str| -> bool {
            let Some(ports) = ports else {
                return false;
            };
            let top = path.split('/').next().unwrap_or("");
            path.len() > top.len()
                && !ports.contains(&top)
                && LANGUAGE_PORTS.iter().any(|(p, _)| *p == top)
        };
        let mut out: Vec<CodeMention> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        // The keys of the terms that named something: a name also read as an identifier
        // (`DocumentDB`) is looked up by its parts only when the whole names nothing.
        let mut named: HashSet<String> = HashSet::new();
        for term in terms {
            if matches!(term.kind, Kind::Once | Kind::Language)
                || (term.kind == Kind::Name && named.contains(&key(product_key(&term.text))))
                || vocabulary.ordinary(term)
            {
                continue;
            }
            let found = self.lookup(term, vocabulary.says(term));
            // A folder of documentation alone is no code (`java/` of a README left where a
            // port moved out): a link names it as written, nothing else does.
            let mut found: Vec<&Entry> = found
                .into_iter()
                .filter(|e| !skipped(&e.path))
                .filter(|e| term.kind == Kind::Link || !beside_the_code(&e.path))
                .filter(|e| term.kind == Kind::Link || !e.path.ends_with('/') || e.docs < e.files)
                .collect();
            // The domain's vocabulary names no small part of the code: only a top-level
            // folder or a package (`event-bus/` for "event bus" in a mail server's records).
            if vocabulary.holds(term) {
                found.retain(|e| e.named);
            }
            // The kind of thing the prose says the name is (`` the `aws_s3` source ``): what
            // it names lies in the folder of that kind, when the tree has one beside it.
            if !term.nouns.is_empty() && !found.is_empty() {
                found = self.of_kind(term, found);
                found.retain(|e| !skipped(&e.path));
            }

            // A single word is the name of many things: it must name one path.
            let most = match classify(&term.text) {
                Some(Kind::Identifier) if !matches!(term.kind, Kind::Name | Kind::Folder) => {
                    MAX_MATCHES
                }
                _ => 1,
            };
            // A type's name (`ControllerConfig`, `Node`, `Optional[T]`): the source file
            // defining a type of that name, when its name names nothing, too much, or
            // nothing holding the one file that defines it.
            let mut by_definition = false;
            if let Some(name) = definable(term).filter(|_| definitions_kept(term, vocabulary)) {
                let defs: Vec<&Entry> = defined
                    .0
                    .get(name)
                    .into_iter()
                    .flatten()
                    .map(|&n| &self.entries[n as usize])
                    .filter(|e| !skipped(&e.path))
                    .collect();
                // A folder named by the name that neither holds the file defining it nor is
                // that file's module (`region_server/` beside `region_server.rs`) is another
                // thing of the name (`nodebuilder/node/` for `Node`, defined in
                // `nodebuilder/node.go`); a file named by it is its own.
                // Not a top-level folder or a package: a module of the project is what its
                // name says (`event-bus/` for `EventBus`, though an event store defines one).
                // Likewise a source file named by it that does not define it, where one other
                // file defines the type (`08-wasm/types/client_message.go` beside the
                // `ClientMessage` interface of `core/exported/client.go`): the name is the
                // type's; the file is about one of its uses.
                let function = defined.1.contains(name);
                let other = match (found.as_slice(), defs.as_slice()) {
                    ([f], [d]) if !f.path.ends_with('/') => {
                        !function && definition_source(&f.path) && f.path != d.path
                    }
                    ([f], [d]) => {
                        let folder = f.path.trim_end_matches('/');
                        let module = d.path.ends_with(".rs")
                            && d.path.rsplit_once('.').map(|(s, _)| s) == Some(folder);
                        !f.named && !d.path.starts_with(&f.path) && !module
                    }
                    _ => false,
                };
                // A module path's first part (`serde::Serializer`, `tokio_util::codec::Decoder`)
                // must name something here: else it is another project's type.
                let foreign = term.text.split_once("::").is_some_and(|(first, _)| {
                    first.starts_with(|c: char| c.is_ascii_lowercase())
                        && !self.by_key.contains_key(&key(first))
                        && !self.by_key.contains_key(&format!("{}s", key(first)))
                });
                if (found.is_empty() || other) && defs.len() == 1 && !foreign {
                    found = defs;
                    by_definition = true;
                }
            }
            if found.is_empty() || found.len() > most {
                continue;
            }
            // A language's port (`python/` beside `dotnet/`) is named only by a record about
            // that language: a .NET record's `CancellationToken` is not the Python port's
            // `cancellation_token.py`. (After the count: a name in every port is as ambiguous
            // as before.)
            if term.kind != Kind::Link {
                found.retain(|e| !elsewhere(&e.path));
                if found.is_empty() {
                    continue;
                }
            }
            // Of two paths, the one under a top-level folder the record's title names (a
            // record "… (Semantic Kernel Python)" is about `python/`), else the one whose name
            // is the term exactly as written (`NullMemory` is `NullMemory.cs`, not the Python
            // port's `null_memory.py`), is the one meant.
            if found.len() > 1 && matches!(term.kind, Kind::Identifier | Kind::Code) {
                let titled: Vec<&Entry> = found
                    .iter()
                    .copied()
                    .filter(|e| title_tops.iter().any(|t| e.path.starts_with(t.as_str())))
                    .collect();
                let exact: Vec<&Entry> = found
                    .iter()
                    .copied()
                    .filter(|e| leaf_stem(&e.path) == term.text)
                    .collect();
                if !titled.is_empty() {
                    found = titled;
                } else if !exact.is_empty() {
                    found = exact;
                }
            }
            named.insert(key(&term.text));
            // A word of a phrase that named code is no name of its own (`Organisations` of
            // `Worldwide Organisations`).
            if matches!(term.kind, Kind::Phrase | Kind::TitlePhrase) {
                named.extend(term.text.split(' ').map(key));
            }
            // A name matched by its words joined (`user_data` → `userdata/`) is less sure.
            let joined = term.kind != Kind::Link
                && term.text.contains('_')
                && !term.text.contains(['.', ':', '-'])
                && found
                    .iter()
                    .any(|e| word_count(leaf_stem(&e.path)) < word_count(&term.text));
            // A name spelled by a path's last parts (`EventMetadata` → `event/metadata.rs`)
            // rather than by its file's or folder's own name is as sure as a joined one.
            let k = key(&term.text);
            let spelled = matches!(term.kind, Kind::Identifier | Kind::Code)
                && !term.text.contains([':', '.'])
                && found.iter().all(|e| {
                    let leaf = e
                        .path
                        .trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .unwrap_or("");
                    key(leaf_stem(&e.path)) != k && key(leaf) != k
                });
            let confidence = match confidence(term, found.len()) {
                c if joined || spelled || by_definition => c.min(JOINED_CONFIDENCE),
                c => c,
            };
            for e in found {
                if governed(&e.path) || !seen.insert(e.path.as_str()) {
                    continue;
                }
                out.push(CodeMention {
                    path: e.path.clone(),
                    term: term.text.clone(),
                    line: term.line,
                    confidence,
                });
            }
        }
        out.sort_by(|a, b| (a.line, &a.path).cmp(&(b.line, &b.path)));
        out
    }

    /// The entries of `found` in the folder of the kind the prose calls the name (its
    /// [`Term::nouns`]: `` the `aws_s3` source `` is `sources/aws_s3/`, not `sinks/aws_s3/`),
    /// when the tree has a folder of that kind beside a folder they are in (`src/sinks/`
    /// beside `src/internal_events/`). None is: the name's words spelled by a path of that
    /// kind (`` `datadog_traces` sink `` is `sinks/datadog/traces/`). No noun names such a
    /// folder, or nothing of the name lies in one: `found` (`` the `TextToImage` service ``
    /// is no folder of services' code).
    fn of_kind<'a>(&'a self, term: &Term, found: Vec<&'a Entry>) -> Vec<&'a Entry> {
        // The folders above each found path, and the folders those are in.
        let mut beside: HashSet<&str> = HashSet::new();
        for e in &found {
            let trimmed = e.path.trim_end_matches('/');
            for (at, _) in trimmed.match_indices('/') {
                let above = &trimmed[..at];
                beside.insert(above.rsplit_once('/').map_or("", |(p, _)| p));
            }
        }
        let kinds: Vec<&str> = term
            .nouns
            .iter()
            .map(String::as_str)
            .filter(|n| {
                let plural = match n.strip_suffix('y') {
                    Some(stem) => format!("{stem}ies"),
                    None => format!("{n}s"),
                };
                [n.to_string(), plural, format!("{n}es")]
                    .iter()
                    .filter_map(|k| self.by_key.get(k))
                    .flatten()
                    .map(|&i| &self.entries[i as usize])
                    .filter(|e| e.path.ends_with('/') && !in_tests(&e.path))
                    .any(|e| {
                        let trimmed = e.path.trim_end_matches('/');
                        let (parent, leaf) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
                        singular(&key(leaf)) == **n && beside.contains(parent)
                    })
            })
            .collect();
        if kinds.is_empty() {
            return found;
        }
        // How many of the kinds a path is of: the paths of the most are kept (`OpenAI`
        // said a connector and Python's is `python/…/connectors/…/open_ai/`).
        let of_kinds = |e: &Entry| {
            let trimmed = e.path.trim_end_matches('/');
            let above = trimmed.rsplit_once('/').map_or("", |(a, _)| a);
            let parts: Vec<String> = above.split('/').map(|p| singular(&key(p))).collect();
            kinds
                .iter()
                .filter(|k| parts.iter().any(|p| p == *k))
                .count()
        };
        let of_kind = |e: &Entry| of_kinds(e) > 0;
        let best = found.iter().map(|e| of_kinds(e)).max().unwrap_or(0);
        if best > 0 {
            return found.into_iter().filter(|e| of_kinds(e) == best).collect();
        }
        if word_count(&term.text) >= 2 && !term.text.contains([':', '.']) {
            let spelled: Vec<&Entry> = self
                .spelled(&term.text)
                .into_iter()
                .filter(|e| of_kind(e) && !in_tests(&e.path))
                .collect();
            if !spelled.is_empty() {
                return spelled;
            }
        }
        found
    }

    /// The entries `term` names, a file inside a named folder of the same name folded into it.
    /// `common`: the records' vocabulary says the term (counted over every kind), so it is
    /// not looked for as a path's last parts spell it.
    fn lookup(&self, term: &Term, common: bool) -> Vec<&Entry> {
        let get = |k: &str| -> Vec<&Entry> {
            self.by_key
                .get(k)
                .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
                .unwrap_or_default()
        };
        match term.kind {
            Kind::Phrase | Kind::TitlePhrase => return self.phrase(term),
            Kind::Name => return self.product(term),
            Kind::Folder => return self.folder(term),
            Kind::Once | Kind::Language | Kind::Type => return Vec::new(),
            Kind::Value => return self.value(term),
            Kind::Unit => return self.unit(term),
            Kind::Controller => return self.controller(term),
            Kind::Command => return self.command(term),
            Kind::Invocation => return self.invocation(term),
            Kind::Link => return self.linked(&term.text),
            _ => {}
        }
        let qualified = term.text.contains("::") || term.text.contains('.');
        // `confmap.Provider`, `componentstatus.Reporter`: Go's name of a package's type. In
        // backticks it is read as Go's only: elsewhere it is a variable's member (`agent.Id`),
        // not the name of a file.
        if let Some((package, name)) = go_qualified(&term.text) {
            let found = self.go_named(package, name);
            if !found.is_empty() || term.kind == Kind::Code {
                return found;
            }
        }
        // A name of several words names a file or folder of as many (`start-up` is not
        // `startup.sh`, `AuthenticationController` is `authentication_controller.rb`), or,
        // written in snake_case, one of those words joined (`user_data` is
        // `userdata/`): hyphenated English is not a name joined.
        let words = word_count(&term.text);
        let joinable = term.text.contains('_') && !term.text.contains('-');
        // A dotted name names a file or folder of as many dotted parts (`Plugins.Memory/`,
        // `config.toml`), not one whose words run together: `function.name` is a member,
        // not `FunctionName.cs`.
        let dotted = term
            .text
            .split([':', '.'])
            .filter(|p| !p.is_empty())
            .count();
        let k = key(&term.text);
        let mut found: Vec<&Entry> = get(&k)
            .into_iter()
            .filter(|e| {
                let leaf = word_count(leaf_stem(&e.path));
                if qualified {
                    let whole = e.path.trim_end_matches('/');
                    let whole = whole.rsplit('/').next().unwrap_or(whole);
                    return [whole, leaf_stem(&e.path)].iter().any(|n| {
                        key(n) == k && n.split('.').filter(|p| !p.is_empty()).count() == dotted
                    });
                }
                let last = dotted_last(leaf_stem(&e.path)).filter(|l| key(l) == k);
                words < 2
                    || leaf == words
                    || (joinable && leaf < words)
                    || last.is_some_and(|l| word_count(l) == words)
            })
            .collect();
        if qualified && found.is_empty() {
            let parts: Vec<&str> = term
                .text
                .split([':', '.'])
                .filter(|p| !p.is_empty())
                .collect();
            // `SemanticKernel.Connectors.AzureOpenAI`: a project's folder named by the name's
            // last parts (`Connectors.AzureOpenAI/`), the longest that names a folder.
            for from in 1..parts.len().saturating_sub(1) {
                found = get(&key(&parts[from..].concat()))
                    .into_iter()
                    .filter(|e| e.path.ends_with('/'))
                    .collect();
                if !found.is_empty() {
                    break;
                }
            }
            // `billing::invoice::Total`, `app.services.Billing`: the last part, in a folder
            // named by the part before it. Not for a namespace, a dotted name in backticks or
            // one starting with a capital (`Azure.AI.OpenAI` is a vendor's package, not
            // `connectors/ai/open_ai/`; `Microsoft.SemanticKernel.Memory` is no Python folder).
            let namespace = (term.kind == Kind::Code
                || term.text.starts_with(|c: char| c.is_ascii_uppercase()))
                && !term.text.contains("::");
            if let [.., parent, last] = parts.as_slice() {
                let parent = key(parent);
                if found.is_empty() && !namespace {
                    found = get(&key(last))
                        .into_iter()
                        .filter(|e| {
                            let trimmed = e.path.trim_end_matches('/');
                            let above = trimmed.rsplit_once('/').map_or("", |(d, _)| d);
                            let folder = above.rsplit('/').next().unwrap_or(above);
                            key(folder) == parent
                        })
                        .collect();
                }
            }
        }
        // `EventMetadata`, `metric_tags`: a CamelCase or snake_case name whose whole names
        // nothing, spelled by a path's last parts (`event/metadata.rs`, `metric/tags.rs`).
        if found.is_empty()
            && !qualified
            && !common
            && words >= 2
            && matches!(term.kind, Kind::Identifier | Kind::Code)
            && !term.text.contains('-')
        {
            found = self.spelled(&term.text);
        }
        if term.kind == Kind::Word {
            // A bare word names a package or a top-level folder, but not a hidden one (the
            // word names the tool: `.vscode/`) nor one holding most of the repository (the
            // word names what it is written in: `terraform/`).
            found.retain(|e| {
                e.named
                    && !e.path.starts_with('.')
                    && !(e.path.trim_end_matches('/').contains('/') && self.bulk(e))
                    && self
                        .under_top
                        .get(&e.path)
                        .is_none_or(|n| n * 2 <= self.files)
            });
        }
        // Code first: a name also found in tests, fixtures or examples names the code; a
        // single word or hyphenated English (`min-max`, `self-join`) never names a test.
        let english = term.text.contains('-')
            && !term.text.contains(['_', '.', ':'])
            && !term
                .text
                .chars()
                .any(|c| c.is_ascii_uppercase() && c != term.text.chars().next().unwrap_or(c));
        if words < 2 || english || found.iter().any(|e| !in_tests(&e.path)) {
            found.retain(|e| !in_tests(&e.path));
        }
        // In tests, samples and examples, a file that is not source code, or a folder holding
        // none, is a fixture, data a test or a sample reads (`task_transform.yaml`,
        // `fluent-bit.conf`, a prompt's `ChatGPT/`), not code a record is about.
        found.retain(|e| {
            let code = match e.path.ends_with('/') {
                true => self.holds_code(e),
                false => is_source(&e.path),
            };
            code || !in_tests(&e.path)
        });
        // A compound name naming a folder below the top that holds the bulk of the
        // repository's code names the project (`SemanticKernel`, `python/semantic_kernel/`),
        // not a part of it.
        if matches!(term.kind, Kind::Identifier | Kind::Code) {
            found.retain(|e| {
                !(e.path.ends_with('/')
                    && e.path.trim_end_matches('/').contains('/')
                    && self.code_files >= BULK_FROM
                    && e.code as usize * 10 >= self.code_files)
            });
        }
        // A bare word the repository names many of its files by (`mailbox` in a mail server)
        // is a word of its domain, not the name of one folder.
        if term.kind == Kind::Word && !found.is_empty() {
            let k = key(&term.text);
            let named_by = self
                .file_keys
                .iter()
                .filter(|f| f.contains(&k))
                .take(DOMAIN_WORD + 1);
            if named_by.count() > DOMAIN_WORD {
                found.clear();
            }
        }
        // A folder and files of the same name: the folder, a module (`billing/` over
        // `billing/billing.go`; `event-bus/` over another module's `EventBus.scala`).
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        // A single lower-case word in backticks is a function, a method, a keyword or a
        // field (`rate`, `close`, `finish`): it may name a folder, never a file.
        if term.kind == Kind::Code && classify(&term.text) == Some(Kind::Word) {
            found.retain(|e| e.path.ends_with('/'));
        }
        // A single word is English as often as a name: the folder it names must hold code,
        // not only packaging, data or documentation (`distribution/`, `regression/`, a
        // README's `agents/`).
        if classify(&term.text) == Some(Kind::Word) {
            found.retain(|e| self.holds_code(e));
        }
        found
    }

    /// What Go's `package.Name` names: the one Go package of that name, and in it the file of
    /// the name's own (`confmap/provider.go` for `confmap.Provider`) when there is one, else
    /// the package (`component/componentstatus/` for `componentstatus.Reporter`). Two
    /// packages of the name: nothing.
    fn go_named(&self, package: &str, name: &str) -> Vec<&Entry> {
        let get = |k: &str| -> Vec<&Entry> {
            self.by_key
                .get(k)
                .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
                .unwrap_or_default()
        };
        // The standard library's packages, and a few every Go program imports: `errors.As`
        // is Go's, not the project's `internal/errors/`.
        if GO_COMMON.contains(&package) {
            return Vec::new();
        }
        let packages: Vec<&Entry> = get(&key(package))
            .into_iter()
            .filter(|e| self.go_packages.contains(&e.path) && !in_tests(&e.path))
            .collect();
        let [folder] = packages.as_slice() else {
            return Vec::new();
        };
        let files: Vec<&Entry> = get(&key(name))
            .into_iter()
            .filter(|e| {
                e.path.ends_with(".go")
                    && e.path
                        .strip_prefix(folder.path.as_str())
                        .is_some_and(|rest| !rest.contains('/'))
            })
            .collect();
        match files.as_slice() {
            [file] => vec![*file],
            _ => vec![*folder],
        }
    }

    /// The tracked file or folder a link into a forge's view of code names: `path`, or `path`
    /// without its first one or two segments (the rest of a branch's name, `release/1.2`).
    fn linked(&self, url: &str) -> Vec<&Entry> {
        // `https://host/owner/name/blob/REF/path`: the repository's name, then the path.
        let Some((name, path)) = link_parts(url) else {
            return Vec::new();
        };
        if self
            .home
            .as_deref()
            .is_some_and(|home| !name.eq_ignore_ascii_case(home))
        {
            return Vec::new();
        }
        let mut rest = path;
        for _ in 0..3 {
            let leaf = rest.rsplit('/').next().unwrap_or(rest);
            // A file of the top level (`README.md`) may be any repository's: a link names a
            // path here only with a folder in it.
            if rest.contains('/') {
                let found: Vec<&Entry> = self
                    .by_key
                    .get(&key(leaf))
                    .into_iter()
                    .flatten()
                    .map(|&n| &self.entries[n as usize])
                    .filter(|e| e.path.strip_suffix('/').unwrap_or(&e.path) == rest)
                    .collect();
                if !found.is_empty() {
                    return found;
                }
            }
            match rest.split_once('/') {
                Some((_, after)) => rest = after,
                None => break,
            }
        }
        Vec::new()
    }

    /// The files and folders whose name and the one or two folders above spell `name`'s
    /// words (`EventMetadata` → `event/metadata.rs`, `MetricTags` → `metric/tags.rs`): the
    /// name's last words the file's or folder's whole name, the words before them its
    /// folder's name (or its two folders' names run together).
    fn spelled(&self, name: &str) -> Vec<&Entry> {
        let words = words_of(name);
        let mut out: Vec<&Entry> = Vec::new();
        for split in 1..words.len() {
            let (head, tail) = (key(&words[..split].concat()), words[split..].concat());
            let Some(ns) = self.by_key.get(&key(&tail)) else {
                continue;
            };
            for e in ns.iter().map(|&n| &self.entries[n as usize]) {
                if word_count(leaf_stem(&e.path)) != words.len() - split {
                    continue;
                }
                let trimmed = e.path.trim_end_matches('/');
                let mut above = trimmed.rsplit('/').skip(1).map(key);
                let (one, two) = (above.next().unwrap_or_default(), above.next());
                let spelled = one == head || two.is_some_and(|two| two + &one == head);
                if spelled && !out.iter().any(|o| o.path == e.path) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// The file or folder of the subcommand a [`Kind::Command`] term names: its subcommands'
    /// names as the path's last parts, in a folder of commands (`jj sparse` →
    /// `cli/src/commands/sparse/`, `jj run` → `cli/src/commands/run.rs`).
    fn command(&self, term: &Term) -> Vec<&Entry> {
        let words: Vec<String> = term.text.split(' ').skip(1).map(key).collect();
        let Some(ns) = words.last().and_then(|last| self.by_key.get(last)) else {
            return Vec::new();
        };
        let mut found: Vec<&Entry> = ns
            .iter()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                let trimmed = e.path.trim_end_matches('/');
                let mut parts: Vec<String> = trimmed.split('/').map(key).collect();
                if let Some(last) = parts.last_mut() {
                    *last = key(leaf_stem(&e.path));
                }
                parts.len() > words.len()
                    && parts[parts.len() - words.len()..] == words[..]
                    && COMMAND_FOLDERS.contains(&parts[parts.len() - words.len() - 1].as_str())
                    && !in_tests(&e.path)
            })
            .collect();
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        found
    }

    /// The file a [`Kind::Invocation`] names: in the program's own folder in a folder of
    /// commands (`cmd/flux/`, `internal/cmd/egctl/`), the one source file named by the
    /// subcommand words joined (`flux push artifact` → `cmd/flux/push_artifact.go`), else by
    /// the longest run of two of them or more from the first (`flux create source oci
    /// podinfo` → `create_source_oci.go`, `podinfo` an argument). A single word names only a
    /// command of one word (`flux trace`): the file of the first of several is the group's
    /// (`flux list artifacts` is not `list.go`'s). Nothing when the program has no such folder.
    fn invocation(&self, term: &Term) -> Vec<&Entry> {
        let words: Vec<&str> = term.text.split(' ').collect();
        let Some((program, subcommands)) = words.split_first() else {
            return Vec::new();
        };
        let program = key(program);
        let in_program = |e: &Entry| {
            let mut parts = e.path.rsplit('/').skip(1);
            !e.path.ends_with('/')
                && parts.next().is_some_and(|p| key(p) == program)
                && parts
                    .next()
                    .is_some_and(|p| COMMAND_FOLDERS.contains(&key(p).as_str()))
                && !in_tests(&e.path)
                && !leaf_stem(&e.path).ends_with("_test")
        };
        let fewest = if subcommands.len() == 1 { 1 } else { 2 };
        for n in (fewest..=subcommands.len()).rev() {
            let k = key(&subcommands[..n].concat());
            let found: Vec<&Entry> = self
                .by_key
                .get(&k)
                .into_iter()
                .flatten()
                .map(|&i| &self.entries[i as usize])
                .filter(|e| in_program(e))
                .collect();
            if found.len() == 1 {
                return found;
            }
        }
        Vec::new()
    }

    /// The entry a product's name names: the one file or folder (bar tests, documentation
    /// and the bulk) whose name begins with it as a whole part; a folder holding every other
    /// match stands for them (`lambda/` over `lambda/lambda_sync.py`).
    fn product(&self, term: &Term) -> Vec<&Entry> {
        let k = key(product_key(&term.text));
        // A tool's own file lies at the top or directly in a package (`packages/web/`), not
        // in a folder of the top (`bin/rails`).
        let packages = &self.packages;
        let at_top = |path: &str| match path.rfind('/') {
            None => true,
            Some(at) => packages.contains(&path[..=at]),
        };
        let mut found: Vec<&Entry> = self
            .by_token
            .get(&k)
            .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
            .unwrap_or_default();
        // A folder whose name begins with the name (`mysql/`, `puffin/`), or a tool's own
        // file (`lerna.json`, `next.config.js`, `.eslintrc.js`); not a folder the name only
        // qualifies (`app-transition-postgresql/`) nor a file it is a word of
        // (`sqs_allow_sns_policy.tpl`).
        found.retain(|e| {
            (e.path.ends_with('/') || at_top(&e.path))
                && !self.most(e)
                && !e.path.to_ascii_lowercase().contains("test")
                && !in_tests(&e.path)
                && !self.bulk(e)
        });
        let folders: Vec<&Entry> = found
            .iter()
            .copied()
            .filter(|f| {
                f.path.ends_with('/') && found.iter().all(|e| e.path.starts_with(f.path.as_str()))
            })
            .collect();
        if let Some(top) = folders.into_iter().min_by_key(|f| f.path.len()) {
            return vec![top];
        }
        // The same file at the top and in packages (`.eslintrc.js`): the top one, which the
        // packages' copies extend.
        let leaf = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        if let Some(top) = found.iter().find(|e| !e.path.contains('/')) {
            if found.iter().all(|e| leaf(&e.path) == top.path) {
                return vec![*top];
            }
        }
        found
    }

    /// What a listed value in backticks names ([`Kind::Value`]): a top-level folder or a
    /// package of code of its name (`consumer/` for `` `consumer`, `receiver`, `processor` ``),
    /// never a file nor a folder deep in the tree.
    fn value(&self, term: &Term) -> Vec<&Entry> {
        self.by_key
            .get(&key(&term.text))
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                e.path.ends_with('/')
                    && e.named
                    && !e.path.starts_with('.')
                    && !in_tests(&e.path)
                    && self.holds_code(e)
            })
            .collect()
    }

    /// What a [`Kind::Controller`] names: the one folder of its name (or spelled by its two
    /// words, "Node Health" → `node/health/`) below a folder of controllers or reconcilers
    /// (`internal/controller/protection/usage/` for "the Usage controller"), holding code.
    fn controller(&self, term: &Term) -> Vec<&Entry> {
        let mut found: Vec<&Entry> = self
            .by_key
            .get(&key(&term.text))
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .collect();
        if term.text.contains(' ') {
            found.extend(self.spelled(&term.text));
        }
        found.retain(|e| {
            let parts: Vec<&str> = e.path.trim_end_matches('/').split('/').collect();
            e.path.ends_with('/')
                && !e.path.starts_with('.')
                && !in_tests(&e.path)
                && self.holds_code(e)
                && parts[..parts.len() - 1].iter().any(|p| {
                    matches!(
                        p.to_ascii_lowercase().as_str(),
                        "controller" | "controllers" | "reconciler" | "reconcilers"
                    )
                })
        });
        found.dedup_by(|a, b| a.path == b.path);
        // Of two controllers of the name, the one nearest the top of its folder of controllers
        // (`reconcilers/machineset/`, not `reconcilers/topology/machineset/`).
        let depth = |e: &Entry| e.path.matches('/').count();
        if let Some(least) = found.iter().map(|e| depth(e)).min() {
            found.retain(|e| depth(e) == least);
        }
        found
    }

    /// What a word the prose calls a component, a crate, a package or a module names
    /// ([`Kind::Unit`]): the one folder of its name holding a package's manifest or Go's code
    /// (`components/suggest/` for "the Suggest component"), bar tests and hidden folders.
    fn unit(&self, term: &Term) -> Vec<&Entry> {
        self.by_key
            .get(&key(&term.text))
            .into_iter()
            .flatten()
            .map(|&n| &self.entries[n as usize])
            .filter(|e| {
                e.path.ends_with('/')
                    && e.unit
                    && !e.path.starts_with('.')
                    && !in_tests(&e.path)
                    && self.holds_code(e)
            })
            .collect()
    }

    /// The names of types the records' terms may name by their definition ([`definable`]),
    /// each once, sorted: what [`Names::defined`] looks for. Not one the records' vocabulary
    /// says (`TableScan`, a library's type many records name).
    pub fn definable_names<'a>(
        &self,
        each: impl IntoIterator<Item = &'a [Term]>,
        vocabulary: &Vocabulary,
    ) -> Vec<String> {
        let mut out: Vec<String> = each
            .into_iter()
            .flatten()
            .filter(|t| definitions_kept(t, vocabulary))
            .filter_map(definable)
            .map(str::to_string)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The source files defining each of `wanted` (type names, as written), read by `read`
    /// (a file's bytes, or `None` when it cannot or should not be read): a line declaring a
    /// struct, class, interface, trait, enum, type, object, record, protocol or module of
    /// that name ([`definitions_in`]). Files are read on every core.
    pub fn defined(
        &self,
        wanted: &[String],
        read: impl Fn(&str) -> Option<Vec<u8>> + Sync,
    ) -> Defined {
        if wanted.is_empty() {
            return Defined::default();
        }
        let wanted: HashSet<&str> = wanted.iter().map(String::as_str).collect();
        let files: Vec<(u32, &str)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| definition_source(&e.path))
            .map(|(n, e)| (n as u32, e.path.as_str()))
            .collect();
        let found = crate::util::parallel_map(&files, |(n, path)| {
            let bytes = read(path)?;
            let mut names = definitions_in(&bytes, path, &wanted)
                .into_iter()
                .filter(|name| named_by_its_file(name, path))
                .map(|name| (name, false))
                .collect::<Vec<(String, bool)>>();
            for name in functions_in(&bytes, path, &wanted) {
                if !names.iter().any(|(n, _)| *n == name) {
                    names.push((name, true));
                }
            }
            (!names.is_empty()).then_some((*n, names))
        });
        let mut out = Defined::default();
        for (n, names) in found.into_iter().flatten() {
            for (name, function) in names {
                let at = out.0.entry(name.clone()).or_default();
                if !at.contains(&n) {
                    at.push(n);
                }
                if function {
                    out.1.insert(name);
                }
            }
        }
        out
    }

    /// The folder "the X directory" names: the one folder of that name, bar hidden ones, tests
    /// and documentation.
    fn folder(&self, term: &Term) -> Vec<&Entry> {
        self.by_key
            .get(&key(&term.text))
            .map(|ns| {
                ns.iter()
                    .map(|&n| &self.entries[n as usize])
                    .filter(|e| {
                        e.path.ends_with('/')
                            && !e.path.starts_with('.')
                            && !in_tests(&e.path)
                            && self.holds_code(e)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether an entry is code: a file, a package, or a folder holding source code in a
    /// programming language.
    fn holds_code(&self, e: &Entry) -> bool {
        !e.path.ends_with('/') || e.package || e.code > 0
    }

    /// Whether a top-level folder holds half the tracked files or more: a word names it as
    /// what the repository is written in (`Terraform`, `terraform/`).
    fn most(&self, e: &Entry) -> bool {
        self.under_top
            .get(&e.path)
            .is_some_and(|n| n * 2 > self.files)
    }

    /// Whether a folder holds a tenth of the tracked files or more (when there are
    /// [`BULK_FROM`] or more): the bulk of the repository, which a phrase or a word names as
    /// what the repository is (`Semantic Kernel`, `python/semantic_kernel/`), not as a part.
    fn bulk(&self, e: &Entry) -> bool {
        self.files >= BULK_FROM && e.files as usize * 10 >= self.files
    }

    /// The entries a phrase names: files and folders of as many words, the last one's plural
    /// folded (`Worldwide Organisations` is `worldwide_organisation.rb`), else a folder of a
    /// family by the rest of its name (`security groups` is `infra-security-groups/`). Nothing
    /// with `test` in its path (`integration-tests/`, `ListMailboxes.test`): a concept names
    /// code. A folder wins over the same-named files inside it.
    fn phrase(&self, term: &Term) -> Vec<&Entry> {
        let words = term.text.split(' ').count();
        let written = key(&term.text);
        let single = singular(&written);
        // The title's phrase is what the record is about: a folder named by its words run
        // together is that subject's package (`server/deeplinks/` of "Deep Links",
        // `plugins/util/nodelock/` of "Node Lock"). Any other phrase names only a path of as
        // many words (read: run together, phrases named unrelated files more often than not).
        let joined = |e: &Entry| {
            term.kind == Kind::TitlePhrase
                && words >= 2
                && e.path.ends_with('/')
                && word_count(leaf_stem(&e.path)) == 1
        };
        let of = |map: &HashMap<String, Vec<u32>>, k: &str, less: usize| -> Vec<&Entry> {
            map.get(k)
                .map(|ns| {
                    ns.iter()
                        .map(|&n| &self.entries[n as usize])
                        .filter(|e| {
                            let leaf = word_count(leaf_stem(&e.path));
                            leaf == words + less || (less == 0 && joined(e))
                        })
                        .filter(|e| {
                            !e.path.starts_with('.')
                                && !e.path.to_ascii_lowercase().contains("test")
                                && !in_tests(&e.path)
                                && !self.bulk(e)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut found = of(&self.by_key, &single, 0);
        if found.is_empty() && single != written {
            found = of(&self.by_key, &written, 0);
        }
        if found.is_empty() {
            found = of(&self.by_rest, &written, 1);
        }
        if found.is_empty() && single != written {
            found = of(&self.by_rest, &single, 1);
        }
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        found
    }
}

/// The source files defining each type name the records say, by the name as written, and
/// the names of those that are Go functions: [`Names::defined`].
#[derive(Debug, Default)]
pub struct Defined(HashMap<String, Vec<u32>>, HashSet<String>);

/// The name of a type a term may name by its definition: a name in backticks or in prose
/// starting with a capital and holding a lower-case letter (`ControllerConfig`, `Node`;
/// not an acronym, `HTTP`), or the type of `Type::method`; a [`Kind::Type`]'s word.
fn definable(term: &Term) -> Option<&str> {
    if !matches!(term.kind, Kind::Code | Kind::Identifier | Kind::Type) {
        return None;
    }
    let text = term.text.trim_end_matches("()");
    // `Type::method`, `module::Type`, `Enum::Variant`: the first capitalised part.
    let name = match text.contains("::") {
        true => text
            .split("::")
            .find(|p| p.starts_with(|c: char| c.is_ascii_uppercase()))?,
        false => text,
    };
    // A single word is English as often as a type's name: written as code once it may be
    // said in passing (`` into the `Map` ``, `` return `Error` ``); twice, it is discussed.
    if term.kind != Kind::Type && name == text && words_of(name).len() == 1 && term.coded < 2 {
        return None;
    }
    (name.len() >= 3
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// Whether a term may name a type by its definition: one in backticks unless the records'
/// vocabulary writes it as code (`Node` is the type, though every record says "node"); one
/// in prose unless the records' vocabulary says it (`TableScan`, a library's type).
fn definitions_kept(term: &Term, vocabulary: &Vocabulary) -> bool {
    match term.kind {
        // Written as code by many records: a library's type they all use (`RecordBatch`).
        Kind::Code => !vocabulary.coded(term),
        _ => !vocabulary.says(term),
    }
}

/// The regex finding a type's definition at a line's start: modifiers, a keyword declaring a
/// type in one of the common languages, the name (capitalised). One small regex for every
/// name, the names then looked up: an alternation of hundreds of names was several times
/// slower on a large tree.
fn definition_regex() -> &'static regex::bytes::Regex {
    static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::bytes::Regex::new(
            r"(?m)^([ \t]*)(?:(?:pub(?:\([a-z:]+\))?|export|public|internal|private|protected|abstract|sealed|static|final|partial|data|open|case|default|declare|inline|value|unsafe|readonly|ref)[ \t]+)*(?:struct|class|interface|trait|enum|type|object|record|protocol|module)[ \t]+([A-Z][A-Za-z0-9_]*)\b([ \t]*=)?",
        )
        .expect("regex")
    })
}

/// Whether a tracked file is looked in for the types it defines: source code outside tests,
/// test helpers (`headertest/`, `testing.go`, `mocks`), examples and vendored code; not Java
/// or C#, whose public types lie in files of their own names (found by name already: a
/// type defined in another's file there is a nested or a private one).
fn definition_source(path: &str) -> bool {
    if path.ends_with('/')
        || !is_source(path)
        || in_tests(path)
        || generated(path)
        || client_generated(path)
    {
        return false;
    }
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".java") || lower.ends_with(".cs") {
        return false;
    }
    !lower.split('/').any(|part| {
        let stem = part.split('.').next().unwrap_or(part);
        stem.ends_with("test")
            || stem.ends_with("tests")
            || stem.ends_with("testing")
            || stem.ends_with("testutil")
            || stem.ends_with("_spec")
            || stem.starts_with("test_")
            || stem.starts_with("mock")
            || stem.starts_with("fake")
    })
}

/// File and folder names that say nothing of what a file holds.
const GENERIC_STEMS: &[&str] = &[
    "mod", "lib", "main", "index", "init", "__init__", "src", "app", "types", "common", "util",
    "utils", "internal", "core", "pkg", "api", "base", "helpers", "defs",
];

/// Whether the file at `path` is named by a word of the type `name` it defines: a word of its
/// name or of its folder's (of the folder above, for a module's `mod.rs`, `lib.rs`,
/// `index.ts`, `__init__.py`) is in the name (`ControllerConfig` in `generated_config.go`,
/// `Node` in `node.go`, `RetryLogic` in `retries.rs`). A type defined in a file named for
/// something else is a helper of that thing, or another project's type of the same name
/// (`Info` in `command_line/cli.rs`, `ConfigMap` in `loading/representation.rs`).
fn named_by_its_file(name: &str, path: &str) -> bool {
    let whole = singular(&key(name));
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let mut names = vec![stem];
    let mut above = parts.filter(|p| !GENERIC_STEMS.contains(&p.to_ascii_lowercase().as_str()));
    names.extend(above.next());
    if GENERIC_STEMS.contains(&stem.to_ascii_lowercase().as_str()) {
        names.extend(above.next());
    }
    names.iter().flat_map(|n| words_of(n)).any(|w| {
        let k = singular(&key(w));
        k.len() >= 3 && !GENERIC_STEMS.contains(&k.as_str()) && whole.contains(&k)
    })
}

/// The names of `wanted` defined in the file `path`'s `bytes` ([`definition_regex`]): at the
/// line's start (Ruby's classes nest in modules: indented up to two levels), and in Go's
/// code not an alias (`type X = other.X` only names another package's type).
/// The exported Go functions of the names `wanted` that `bytes` (the file at `path`) defines
/// (`func NewRequirementWithFlexibility(`): package-level functions of three words or more,
/// whose names are written for them alone, so their files need not be named by them. Not
/// methods (a receiver's `UpdateClient`, `GetStatus`: many types define them), nor in
/// generated files (`tx.pb.go`).
fn functions_in(bytes: &[u8], path: &str, wanted: &HashSet<&str>) -> Vec<String> {
    if !path.ends_with(".go") || generated(path) {
        return Vec::new();
    }
    static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::bytes::Regex::new(r"(?m)^func[ \t]+([A-Z][A-Za-z0-9_]*)[ \t]*[\[(]").expect("regex")
    });
    let mut out: Vec<String> = Vec::new();
    for c in re.captures_iter(bytes) {
        let Some(name) = c
            .get(1)
            .and_then(|m| std::str::from_utf8(m.as_bytes()).ok())
        else {
            continue;
        };
        if words_of(name).len() >= 3 && wanted.contains(name) && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// A file a tool wrote from another (`tx.pb.go`, `zz_generated.deepcopy.go`).
fn generated(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    [
        ".pb.",
        ".pulsar.",
        "_pb2.",
        ".connect.",
        "zz_generated",
        "_gen.",
        ".gen.",
    ]
    .iter()
    .any(|g| file.contains(g))
}

/// Whether `path` is Go code Kubernetes' code generators wrote from a project's API types
/// (`pkg/client/clientset/…/grpcroute.go`, `listers/`, `informers/`, `applyconfiguration/`):
/// the name of a kind is its type's, not the generated client's of it.
fn client_generated(path: &str) -> bool {
    path.ends_with(".go")
        && path.split('/').any(|part| {
            matches!(
                part,
                "clientset"
                    | "listers"
                    | "informers"
                    | "applyconfiguration"
                    | "applyconfigurations"
            )
        })
}

/// Whether `path` is another project's code kept in this tree (Go's `vendor/`,
/// `node_modules/`): no record here is about it. Not `third-party/`, where some projects keep
/// their own integrations (James's `third-party/rspamd/`).
fn vendored(path: &str) -> bool {
    path.split('/')
        .any(|part| matches!(part, "vendor" | "vendored" | "node_modules"))
}

fn definitions_in(bytes: &[u8], path: &str, wanted: &HashSet<&str>) -> Vec<String> {
    let re = definition_regex();
    let go = path.ends_with(".go");
    let ruby = path.ends_with(".rb");
    let mut out: Vec<String> = Vec::new();
    for c in re.captures_iter(bytes) {
        let indent = c.get(1).map_or(0, |m| m.len());
        if (go && c.get(3).is_some()) || indent > if ruby { 4 } else { 0 } {
            continue;
        }
        if let Some(name) = c
            .get(2)
            .and_then(|m| std::str::from_utf8(m.as_bytes()).ok())
        {
            if wanted.contains(name) && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The records' vocabulary: the words and phrases (not compound names) that at least
/// [`VOCABULARY_RECORDS`] records and a tenth of them say. A database's records all say
/// "time series", "query engine", `schema`; a kernel's, "function calling": the domain's
/// words, not the name of the small file that happens to be called so.
#[derive(Debug, Default)]
pub struct Vocabulary {
    words: HashSet<String>,
    /// The words some record writes in lower case in its prose: ordinary words, not names
    /// (`Security`, `Networking` at the start of a sentence or in a title).
    lower: HashSet<String>,
    /// The names as many records write them in code (`RecordBatch`), as written.
    coded: HashSet<String>,
}

/// The fewest records that make a word the vocabulary.
pub const VOCABULARY_RECORDS: usize = 3;

impl Vocabulary {
    /// The vocabulary of the records whose terms are `each` (one list per record).
    pub fn new<'a>(each: impl IntoIterator<Item = &'a [Term]>) -> Vocabulary {
        let mut said: HashMap<String, usize> = HashMap::new();
        let mut coded: HashMap<String, usize> = HashMap::new();
        let mut lower: HashSet<String> = HashSet::new();
        let mut records: usize = 0;
        for terms in each {
            records += 1;
            let code: HashSet<&str> = terms
                .iter()
                .filter(|t| matches!(t.kind, Kind::Code | Kind::Identifier))
                .map(|t| t.text.as_str())
                .collect();
            for c in code {
                *coded.entry(c.to_string()).or_default() += 1;
            }
            let keys: HashSet<String> = terms
                .iter()
                .filter(|t| t.kind != Kind::Language)
                .map(vocabulary_key)
                .collect();
            lower.extend(
                terms
                    .iter()
                    .filter(|t| {
                        matches!(t.kind, Kind::Word | Kind::Once)
                            && t.text.chars().all(|c| c.is_ascii_lowercase())
                    })
                    .map(|t| key(&t.text)),
            );
            for k in keys {
                *said.entry(k).or_default() += 1;
            }
        }
        let least = VOCABULARY_RECORDS.max(records.div_ceil(10));
        Vocabulary {
            words: said
                .into_iter()
                .filter(|(_, n)| *n >= least)
                .map(|(k, _)| k)
                .collect(),
            lower,
            coded: coded
                .into_iter()
                .filter(|(_, n)| *n >= least)
                .map(|(k, _)| k)
                .collect(),
        }
    }

    /// Whether at least [`VOCABULARY_RECORDS`] records and a tenth of them write `term` as
    /// code, as it is written: a type they all use, most often a library's (`RecordBatch`).
    pub fn coded(&self, term: &Term) -> bool {
        self.coded.contains(&term.text)
    }

    /// Whether at least [`VOCABULARY_RECORDS`] records and a tenth of them say `term`, of
    /// whatever kind (`TableScan`, a library's type many records name): not a name a path's
    /// last parts may spell.
    pub fn says(&self, term: &Term) -> bool {
        self.words.contains(&vocabulary_key(term))
    }

    /// Whether a capitalised name is an ordinary word some record writes in lower case.
    pub fn ordinary(&self, term: &Term) -> bool {
        term.kind == Kind::Name && self.lower.contains(&key(product_key(&term.text)))
    }

    /// Whether `term` is a word or phrase of the vocabulary: a compound name (CamelCase,
    /// snake_case, dotted or `::`) or a folder named as one never is.
    pub fn holds(&self, term: &Term) -> bool {
        let compound = term.text.contains(['_', '.', ':'])
            || term
                .text
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            // A kebab-case name in backticks (`datadog-agent`) is written as code, not as the
            // domain's words (in prose, `time-series` is English).
            || (term.kind == Kind::Code && term.text.contains('-'));
        !matches!(
            term.kind,
            Kind::Folder
                | Kind::TitlePhrase
                | Kind::Command
                | Kind::Invocation
                | Kind::Link
                | Kind::Controller
        ) && !compound
            && self.words.contains(&vocabulary_key(term))
    }
}

/// A term's key as the vocabulary counts it: plural folded, a product's `.js` left out.
fn vocabulary_key(term: &Term) -> String {
    singular(&key(product_key(&term.text)))
}

/// Folders of a program's subcommands, by [`key`].
const COMMAND_FOLDERS: &[&str] = &["commands", "command", "cmd", "subcommands", "subcommand"];

/// The words of a name, as [`word_count`] counts them (`EventMetadata` → `Event`, `Metadata`;
/// `metric_tags` → `metric`, `tags`), without their separators.
fn words_of(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None;
    for (at, c) in name.char_indices() {
        let boundary = match prev {
            None => false,
            Some(p) => p.is_lowercase() && c.is_uppercase(),
        };
        if !c.is_alphanumeric() || boundary {
            if let Some(s) = start.take() {
                out.push(&name[s..at]);
            }
        }
        if c.is_alphanumeric() && start.is_none() {
            start = Some(at);
        }
        prev = Some(c);
    }
    if let Some(s) = start {
        out.push(&name[s..]);
    }
    out
}

/// The words of a name: parts between `_`, `-`, `.` and lower-to-upper case changes.
fn word_count(name: &str) -> usize {
    let mut n = 0;
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let starts = match prev {
            None => c.is_alphanumeric(),
            Some(p) => {
                (!p.is_alphanumeric() && c.is_alphanumeric())
                    || (p.is_lowercase() && c.is_uppercase())
            }
        };
        n += usize::from(starts);
        prev = Some(c);
    }
    n
}

/// The last part of a folder's dotted name (`AzureOpenAI` of `Connectors.AzureOpenAI`): a
/// name of a letter and two more, of a name that is not hidden.
fn dotted_last(leaf: &str) -> Option<&str> {
    let (head, last) = leaf.rsplit_once('.')?;
    (!head.is_empty()
        && last.len() >= 3
        && last.starts_with(|c: char| c.is_ascii_alphabetic())
        && last.chars().all(|c| c.is_ascii_alphanumeric()))
    .then_some(last)
}

/// A path's last part without its extension (a folder's name).
fn leaf_stem(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    let leaf = trimmed.rsplit('/').next().unwrap_or(trimmed);
    if path.ends_with('/') {
        return leaf;
    }
    leaf.rsplit_once('.')
        .map_or(leaf, |(s, _)| if s.is_empty() { leaf } else { s })
}

/// Documentation and pictures, not code: never a mention (a file of those kinds, or anything
/// in a top-level documentation tree or a site's sources).
fn is_doc(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let top = lower.split('/').next().unwrap_or("");
    if lower.contains('/')
        && (["docs", "doc", "documentation", "site", "website"].contains(&top)
            || lower.contains("/xdoc/")
            || lower.contains("src/site/"))
    {
        return true;
    }
    [
        ".md",
        ".markdown",
        ".adoc",
        ".rst",
        ".txt",
        ".html",
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".svg",
        ".ico",
        ".pdf",
        ".drawio",
        ".puml",
    ]
    .iter()
    .any(|e| lower.ends_with(e))
}

/// The extensions of source code in a programming language (and of infrastructure's code).
#[rustfmt::skip]
const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "go", "py", "rb", "java", "kt", "kts", "scala", "groovy", "clj", "cljs", "cs", "fs",
    "vb", "ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "svelte", "c", "h", "cc", "cpp", "cxx",
    "hpp", "hh", "m", "mm", "swift", "php", "ex", "exs", "erl", "hrl", "hs", "ml", "mli", "elm",
    "dart", "lua", "pl", "pm", "r", "jl", "zig", "nim", "cr", "tf", "hcl", "sql", "proto",
    "rake", "ps1",
];

/// Whether a tracked file is source code, by its extension.
fn is_source(path: &str) -> bool {
    let leaf = path.rsplit('/').next().unwrap_or(path);
    leaf.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && SOURCE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// Folders of tests, fixtures, examples, test doubles and vendored code.
#[rustfmt::skip]
const TEST_FOLDERS: &[&str] = &[
    "test", "tests", "spec", "specs", "__tests__", "testdata", "fixtures", "fixture", "examples",
    "example", "vendor", "node_modules", "third_party", "third-party", "bench", "benches", "testing", "e2e",
    "features", "samples", "sample", "demos", "demo", "mock", "mocks",
];

/// Whether a folder's name is one of tests: in [`TEST_FOLDERS`], or named as a kind of
/// tests or their helpers (`UnitTests`, `integration-tests`, `Foo.Tests`, `test_util`).
fn test_folder(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    TEST_FOLDERS.contains(&part)
        || lower.ends_with("tests")
        || lower.ends_with("_samples")
        || lower.ends_with("-samples")
        || lower.ends_with("_examples")
        || lower.ends_with("-examples")
        || lower.ends_with("-test")
        || lower.starts_with("test_")
        || lower.starts_with("test-")
}

/// Whether `path` is beside the code rather than code a record is about, for a name the
/// prose says (a link names what it links to): tests (a folder of them, or a test's own file,
/// `ScreenBufferTests.cpp`, `ut_host/`, `ft_fuzzer/`), samples and examples (`samples/ConPTY/`
/// for "ConPTY"), the licenses kept for dependencies (`licenses/k8s.io/kube-scheduler/`) and
/// an editor's settings (`.vscode/settings.json` for "`settings.json`"). Read on fresh
/// repositories (issue 20's eleventh round): every such mention was wrong.
fn beside_the_code(path: &str) -> bool {
    let trimmed = path.trim_end_matches('/');
    let file = (!path.ends_with('/')).then(|| trimmed.rsplit('/').next().unwrap_or(trimmed));
    let test_file = file.is_some_and(|f| {
        let stem = f.split('.').next().unwrap_or(f).to_ascii_lowercase();
        stem.ends_with("test") || stem.ends_with("tests") || stem.starts_with("test_")
    });
    let folders = trimmed.split('/').rev().skip(usize::from(file.is_some()));
    test_file
        || in_tests(path)
        || folders.into_iter().any(|part| {
            let lower = part.to_ascii_lowercase();
            lower.starts_with("ut_")
                || lower.starts_with("ft_")
                || lower.contains("fuzz")
                || matches!(lower.as_str(), "licenses" | "license" | ".vscode" | ".idea")
        })
}

/// Whether `path` lies in a folder of tests, fixtures, examples or vendored code (a
/// top-level `conformance/` is a test suite, Gateway API's; deeper, it may be a module,
/// volcano's `plugins/conformance/`).
fn in_tests(path: &str) -> bool {
    path.trim_end_matches('/')
        .split('/')
        .rev()
        .skip(usize::from(!path.ends_with('/')))
        .any(test_folder)
        || path
            .trim_end_matches('/')
            .split('/')
            .next()
            .is_some_and(|p| TEST_FOLDERS.contains(&p) || p == "conformance")
}

/// How sure a match is: a backticked word or a compound identifier more than a bare word, one
/// path more than two or three.
fn confidence(term: &Term, matches: usize) -> f64 {
    let compound = classify(&term.text) == Some(Kind::Identifier);
    // In tenths, so the figures print as written.
    let base: u8 = match term.kind {
        Kind::Identifier => 9,
        Kind::Code if compound => 9,
        Kind::Code => 7,
        Kind::Word | Kind::Phrase | Kind::TitlePhrase | Kind::Folder => 6,
        Kind::Command => 7,
        Kind::Invocation => 9,
        Kind::Link => 9,
        Kind::Value | Kind::Unit | Kind::Controller => 6,
        Kind::Type => 7,
        Kind::Name | Kind::Once | Kind::Language => 5,
    };
    let less = match matches {
        0 | 1 => 0,
        2 => 2,
        _ => 4,
    };
    f64::from(base.saturating_sub(less)) / 10.0
}

/// The repository's name and the path after the branch of a link into a forge's code
/// (`https://github.com/o/name/blob/main/a/b.rs` → `name`, `a/b.rs`).
fn link_parts(url: &str) -> Option<(&str, &str)> {
    let (_, after) = url.split_once("://")?;
    let mut parts = after.splitn(4, '/');
    let (_host, _owner, name, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let rest = rest.strip_prefix("-/").unwrap_or(rest);
    let rest = rest
        .strip_prefix("blob/")
        .or_else(|| rest.strip_prefix("tree/"))?;
    let (_branch, path) = rest.split_once('/')?;
    Some((name.strip_suffix(".git").unwrap_or(name), path))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> Vec<(String, Kind)> {
        let lines: Vec<(usize, &str)> = text.split('\n').enumerate().collect();
        terms(&lines, "Use a thing", 0)
            .into_iter()
            .map(|t| (t.text, t.kind))
            .collect()
    }

    #[test]
    fn reads_identifiers_backticks_and_words() {
        let found = t(
            "The AuthenticationController and external-dns, see `billing` and \
billing::invoice::Total or app.services.Billing; e.g. http://x.io/FooBar `src/a.rs` ADR HTTP.",
        );
        let names: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
        assert!(names.contains(&"AuthenticationController"), "{names:?}");
        assert!(names.contains(&"external-dns"));
        assert!(names.contains(&"billing"));
        assert!(names.contains(&"billing::invoice::Total"));
        assert!(names.contains(&"app.services.Billing"));
        assert!(!names
            .iter()
            .any(|n| n.contains("FooBar") || *n == "e.g" || *n == "ADR"));
        assert!(!names.contains(&"src/a.rs"));
        assert!(!names.contains(&"The") && !names.contains(&"and"));
    }

    #[test]
    fn title_words_and_placeholders_are_not_terms() {
        let found = t("thing my-app foo_bar `foo` well-known");
        // The title's word is said (counted once, for the vocabulary), never a term that
        // names code (CONTRACT.md §11: the record's title words are not terms).
        assert_eq!(found, [("thing".to_string(), Kind::Once)]);
    }

    #[test]
    fn resolves_style_insensitively_and_drops_ambiguity() {
        let names = Names::new([
            "app/controllers/authentication_controller.rb",
            "charts/external-dns/Chart.yaml",
            "src/adr-config/index.ts",
            "a/x/util_thing.go",
            "b/x/util_thing.go",
            "c/x/util_thing.go",
            "d/x/util_thing.go",
        ]);
        let term = |text: &str, kind| Term {
            text: text.into(),
            line: 3,
            kind,
            nouns: Vec::new(),
            coded: 0,
        };
        let got = names.resolve(
            &[
                term("AuthenticationController", Kind::Identifier),
                term("external_dns", Kind::Identifier),
                term("AdrConfig", Kind::Identifier),
                term("UtilThing", Kind::Identifier),
            ],
            &[],
            &[],
        );
        let paths: Vec<&str> = got.iter().map(|m| m.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "app/controllers/authentication_controller.rb",
                "charts/external-dns/",
                "src/adr-config/"
            ]
        );
        // Governed paths are not repeated.
        let got = names.resolve(
            &[term("external-dns", Kind::Identifier)],
            &["charts/".into()],
            &[],
        );
        assert!(got.is_empty());
    }

    #[test]
    fn plurals_fold_to_the_singular() {
        assert_eq!(singular("worldwideorganisations"), "worldwideorganisation");
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("classes"), "class");
        for kept in ["status", "analysis", "access", "instance"] {
            assert_eq!(singular(kept), kept);
        }
    }

    #[test]
    fn phrases_joined_names_and_families_resolve() {
        let names = Names::new([
            "app/models/worldwide_organisation.rb",
            "app/views/worldwide_organisations/index.erb",
            "app/validators/govspeak_validator.rb",
            "lib/whitehall/url.rb",
            "terraform/userdata/00-base",
            "terraform/modules/node_group/user_data.sh",
            "projects/infra-security-groups/main.tf",
            "projects/infra-vpc/main.tf",
            "projects/infra-dns/main.tf",
            "tests/error_message.rb",
        ]);
        let term = |text: &str, kind| Term {
            text: text.into(),
            line: 1,
            kind,
            nouns: Vec::new(),
            coded: 0,
        };
        let got = |t: Term| -> Vec<(String, f64)> {
            names
                .resolve(&[t], &[], &[])
                .into_iter()
                .map(|m| (m.path, m.confidence))
                .collect()
        };
        assert_eq!(
            got(term("Worldwide Organisations", Kind::Phrase)),
            [("app/models/worldwide_organisation.rb".to_string(), 0.6)]
        );
        assert_eq!(
            got(term("security groups", Kind::Phrase)),
            [("projects/infra-security-groups/".to_string(), 0.6)]
        );
        assert!(
            got(term("error messages", Kind::Phrase)).is_empty(),
            "a test"
        );
        assert_eq!(
            got(term("validators", Kind::Word)),
            [("app/validators/".to_string(), 0.6)]
        );
        assert!(
            got(term("whitehall", Kind::Word)).is_empty(),
            "lib/<project>/"
        );
        // Joined: snake_case names the one-word folder, less sure; kebab-case does not.
        assert_eq!(
            got(term("user_data", Kind::Identifier)),
            [("terraform/userdata/".to_string(), 0.7)]
        );
        assert!(got(term("user-data", Kind::Identifier))
            .iter()
            .all(|(p, _)| p != "terraform/userdata/"));
    }

    #[test]
    fn the_vocabulary_is_what_three_records_and_a_tenth_of_them_say() {
        let term = |text: &str, kind| Term {
            text: text.into(),
            line: 1,
            kind,
            nouns: Vec::new(),
            coded: 0,
        };
        let mut each: Vec<Vec<Term>> = (0..40).map(|_| Vec::new()).collect();
        for terms in each.iter_mut().take(5) {
            terms.push(term("time series", Kind::Once));
            terms.push(term("TimeSeries", Kind::Identifier));
        }
        for terms in each.iter_mut().take(3) {
            terms.push(term("schemas", Kind::Word));
        }
        let v = Vocabulary::new(each.iter().map(Vec::as_slice));
        assert!(v.holds(&term("Time Series", Kind::Phrase)), "5 of 40");
        assert!(
            !v.holds(&term("schema", Kind::Code)),
            "4 of 40 is less than an eighth"
        );
        assert!(
            !v.holds(&term("TimeSeries", Kind::Identifier)),
            "a compound name"
        );
        let v = Vocabulary::new(each.iter().take(12).map(Vec::as_slice));
        assert!(
            v.holds(&term("schema", Kind::Code)),
            "4 of 12, plural folded"
        );
        assert!(
            v.ordinary(&term("Schemas", Kind::Name)),
            "written in lower case"
        );
    }

    #[test]
    fn definitions_are_read_at_a_lines_start_in_each_languages_shape() {
        let wanted: HashSet<&str> = ["Node", "Ledger", "Billing", "Widget", "Alias"]
            .into_iter()
            .collect();
        let got = |text: &str, path: &str| definitions_in(text.as_bytes(), path, &wanted);
        assert_eq!(
            got(
                "type Node struct {}\ntype Alias = other.Alias\n",
                "a/node.go"
            ),
            ["Node"],
            "a Go alias names another package's type"
        );
        assert_eq!(
            got(
                "pub(crate) struct Ledger;\n    struct Widget;\n",
                "a/ledger.rs"
            ),
            ["Ledger"],
            "an indented type is nested"
        );
        assert_eq!(
            got(
                "module Shop\n  class Billing < Base\n  end\nend\n",
                "app/billing.rb"
            ),
            ["Billing"],
            "Ruby's classes nest in modules"
        );
        assert_eq!(got("export abstract class Widget {}\n", "w.ts"), ["Widget"]);
        assert!(got("// the Node struct is central\n", "x.go").is_empty());
    }

    #[test]
    fn a_definition_counts_in_a_file_named_by_a_word_of_the_type() {
        assert!(named_by_its_file(
            "ControllerConfig",
            "scraper/internal/controller/generated_config.go"
        ));
        assert!(named_by_its_file("RetryLogic", "src/sinks/util/retries.rs"));
        assert!(named_by_its_file(
            "Metric",
            "lib/core/src/event/metric/mod.rs"
        ));
        assert!(!named_by_its_file(
            "ConfigMap",
            "src/config/loading/representation.rs"
        ));
        assert!(!named_by_its_file(
            "Info",
            "components/fml/src/command_line/cli.rs"
        ));
    }

    #[test]
    fn a_folder_holding_a_tenth_of_the_files_is_the_bulk() {
        let mut paths: Vec<String> = (0..120).map(|n| format!("python/kernel/f{n}.py")).collect();
        paths.extend((0..900).map(|n| format!("other/x{n}/a.rs")));
        paths.push("python/billing_rules/rules.py".into());
        let names = Names::new(paths.iter().map(String::as_str));
        let phrase = |text: &str| Term {
            text: text.into(),
            line: 1,
            kind: Kind::Phrase,
            nouns: Vec::new(),
            coded: 0,
        };
        assert!(names.resolve(&[phrase("Kernel")], &[], &[]).is_empty());
        assert_eq!(
            names.resolve(&[phrase("billing rules")], &[], &[])[0].path,
            "python/billing_rules/"
        );
    }
}
