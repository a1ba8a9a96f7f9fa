//! Code mentions (CONTRACT.md §11, ADR-0017): the terms in a record's prose that name code,
//! resolved against the names of the tracked files and folders. Two pure halves: [`terms`]
//! reads a record's visible lines (parsing calls it, so the terms are cached with the parse),
//! and [`Names::resolve`] matches them, style-insensitively, against the tracked paths (the
//! scan calls it, as it calls `governs`). A mention never governs: nothing here is read by the
//! checks, drift or the hooks.

use crate::governs::Pattern;
pub use crate::model::CodeMention;
use crate::text::markdown::{code_spans, text_links};
use crate::text::path::clean_code_path;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// A term that matches more paths than this is ambiguous, and dropped.
pub const MAX_MATCHES: usize = 2;

/// `scope --accept` takes the mentions at or above this confidence: a backticked word or a
/// compound identifier naming exactly one path.
pub const ACCEPT_CONFIDENCE: f64 = 0.8;

/// How a term was written, which decides what it may name and how sure a match is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A word in backticks that is not a path (`` `billing` ``, `` `Invoice::Total` ``).
    Code,
    /// A compound identifier in prose: CamelCase, snake_case, kebab-case, a dotted or `::`
    /// module path.
    Identifier,
    /// A bare word: it may only name a top-level folder or a package.
    Word,
}

/// A term as a record writes it, and its line (1-based); each term once per record, at its
/// first line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Term {
    pub text: String,
    pub line: u32,
    pub kind: Kind,
}

/// The key a name is matched by: lower case, without `_`, `-`, `.`, `:` or `/`.
pub fn key(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ':' | '/' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Common words and the names every repository has: never terms. Compared by [`key`].
#[rustfmt::skip]
const STOP: &[&str] = &[
    // English
    "about", "above", "after", "again", "against", "all", "also", "and", "any", "are", "because",
    "been", "before", "being", "below", "between", "both", "but", "can", "could", "did", "does",
    "doing", "down", "during", "each", "either", "else", "few", "for", "from", "further", "had",
    "has", "have", "having", "her", "here", "hers", "him", "his", "how", "however", "into", "its",
    "itself", "just", "may", "might", "more", "most", "much", "must", "neither", "nor", "not",
    "now", "off", "once", "only", "other", "our", "ours", "out", "over", "own", "same", "shall",
    "she", "should", "since", "some", "such", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "through", "too", "under", "until", "upon", "very",
    "was", "way", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "within", "without", "would", "yet", "you", "your", "new", "old", "use", "used",
    "uses", "using", "make", "made", "need", "needs", "one", "two", "three", "first", "last",
    "next", "see", "via", "per", "etc", "like", "well", "good", "bad", "yes", "get", "set", "add",
    "run", "let", "put", "end", "non", "pre", "post", "re", "co", "self", "up", "to", "on", "in",
    "at", "by", "of", "or", "an", "as", "be", "do", "go", "if", "is", "it", "no", "so", "we", "us",
    "my", "me",
    // common hyphenated prose
    "well-known", "long-term", "short-term", "third-party", "open-source", "built-in", "real-time",
    "read-only", "end-to-end", "up-to-date", "out-of-the-box", "day-to-day", "trade-off",
    "trade-offs", "follow-up", "opt-in", "opt-out", "one-off", "side-effect", "side-effects",
    "top-level", "low-level", "high-level", "e-mail", "so-called", "re-use", "pre-existing",
    "non-goals", "non-goal", "in-house", "in-memory", "on-call", "per-user", "server-side",
    "client-side", "back-end", "front-end", "run-time", "build-time", "compile-time",
    "case-by-case", "first-class", "fine-grained", "coarse-grained", "self-hosted", "multi-tenant",
    "single-tenant", "key-value", "human-readable",
    // decision-record words
    "adr", "adrs", "rfc", "rfcs", "decision", "decisions", "context", "consequences", "status",
    "accepted", "proposed", "rejected", "deprecated", "superseded", "option", "options",
    "considered", "pros", "cons", "outcome", "drivers", "record", "records",
    // names every repository has: too common to tell anything
    "src", "lib", "libs", "bin", "doc", "docs", "test", "tests", "spec", "specs", "script",
    "scripts", "tool", "tools", "build", "dist", "vendor", "config", "configs", "app", "apps",
    "internal", "pkg", "cmd", "main", "index", "readme", "changelog", "license", "contributing",
    "makefile", "dockerfile", "github", "git", "example", "examples", "sample", "samples",
    "assets", "static", "public", "util", "utils", "common", "core", "shared", "data", "api",
    "web", "server", "client", "service", "services", "module", "modules", "package", "packages",
    "plugin", "plugins", "source", "code", "files", "file", "folder", "folders", "default",
    "defaults", "types", "type", "models", "model", "version", "versions", "feature", "features", "testing",
    "support", "docker", "deploy", "deployment", "release", "releases",
];

/// Placeholder names: never terms.
#[rustfmt::skip]
const PLACEHOLDERS: &[&str] = &[
    "foo", "bar", "baz", "qux", "quux", "foobar", "xxx", "yyy", "todo", "tbd", "placeholder",
    "something", "whatever", "acme", "myapp", "myproject", "myservice", "mycompany", "yourapp",
    "yourproject", "someservice", "hello", "helloworld", "lorem", "ipsum",
];

fn is_stop(k: &str) -> bool {
    static SET: std::sync::OnceLock<HashSet<String>> = std::sync::OnceLock::new();
    let set = SET.get_or_init(|| STOP.iter().chain(PLACEHOLDERS).map(|w| key(w)).collect());
    k.len() < 3 || set.contains(k) || k.chars().all(|c| c.is_ascii_digit())
}

/// A name written as a placeholder: `my-app`, `your_service`, `<name>`, `example-*`.
fn is_placeholder(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "my-", "my_", "your-", "your_", "example-", "example_", "some-", "some_",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || ["-example", "_example", "-name", "_name"]
            .iter()
            .any(|s| lower.ends_with(s))
}

/// What a prose token is: a compound identifier, a bare word, or nothing to look up.
fn classify(token: &str) -> Option<Kind> {
    if token.contains("::") || token.contains('.') {
        // A dotted or `::` path: every part a name of two letters or more (not `e.g`, `i.e`).
        let parts: Vec<&str> = token.split([':', '.']).filter(|p| !p.is_empty()).collect();
        return (parts.len() >= 2 && parts.iter().all(|p| p.len() >= 2))
            .then_some(Kind::Identifier);
    }
    if token.contains(['_', '-']) {
        let letters = token.split(['_', '-']).filter(|p| !p.is_empty()).count();
        return (letters >= 2 && token.chars().any(|c| c.is_ascii_alphabetic()))
            .then_some(Kind::Identifier);
    }
    let camel = token
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    if camel {
        return Some(Kind::Identifier);
    }
    // A bare word names a folder only written as folders are, in lower case: `Terraform` or
    // `Nat` mid-sentence is a product or a person, `HTTP` an acronym.
    if token.chars().any(|c| c.is_uppercase()) {
        return None;
    }
    Some(Kind::Word)
}

/// The terms in a record's visible lines (fenced code blocks already left out: their names
/// are examples), each once at its first line. `title` is the record's title: its words are
/// not bare-word terms (a record titled "Billing" mentions billing everywhere).
pub fn terms(lines: &[(usize, &str)], title: &str) -> Vec<Term> {
    let title_words: HashSet<String> = title
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .map(key)
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    let mut push = |text: &str, line: usize, kind: Kind, out: &mut Vec<Term>| {
        let k = key(text);
        if is_stop(&k) || is_placeholder(text) {
            return;
        }
        if kind == Kind::Word && title_words.contains(&k) {
            return;
        }
        if seen.insert(k) {
            out.push(Term {
                text: text.to_string(),
                line: line as u32 + 1,
                kind,
            });
        }
    };
    for &(i, line) in lines {
        let line = &without_external_link_texts(line);
        // Words in backticks that are not paths.
        let spans = code_spans(line);
        for span in &spans {
            let word = span.trim_end_matches("()");
            // An all-capitals word is a constant or an acronym (`HEAD`, `PATH`), not a name.
            let shouting = !word.chars().any(|c| c.is_lowercase());
            if clean_code_path(span).is_some() || !is_name(word) || shouting {
                continue;
            }
            push(word, i, Kind::Code, &mut out);
        }
        let prose = prose_of(line);
        for token in tokens(&prose) {
            if let Some(kind) = classify(token) {
                push(token, i, kind, &mut out);
            }
        }
    }
    out
}

/// `line` with the text of each link to another site blanked: it names something elsewhere
/// (`[govuk_publishing_components](https://…)` is a gem, not the initializer of that name),
/// unless the link goes into a repository's code.
fn without_external_link_texts(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("](") {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = line.to_string();
    for (text, target) in text_links(line) {
        // A link into a repository's code (a commit, a file, a pull request) still names code.
        let code = ["/commit/", "/blob/", "/tree/", "/pull/", "/merge_requests/"]
            .iter()
            .any(|p| target.contains(p));
        if (target.contains("://") || target.starts_with("mailto:")) && !code {
            out = out.replace(&format!("[{text}]"), &" ".repeat(text.len() + 2));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A single name: letters, digits, `_`, `-`, `.`, `::`, starting with a letter or `_`.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
        && !s.ends_with([':', '.', '-'])
}

/// A line's prose: code spans, link targets, URLs and HTML tags blanked.
fn prose_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    // Code spans (their words were read as `Kind::Code`).
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let ticks = after.chars().take_while(|&c| c == '`').count();
        let body = &after[ticks..];
        match body.find(&"`".repeat(ticks)) {
            Some(end) => {
                out.push(' ');
                rest = &body[end + ticks..];
            }
            None => {
                rest = body;
            }
        }
    }
    out.push_str(rest);
    // Link targets, URLs, and tags: words inside them are addresses, not prose.
    let mut cleaned = String::with_capacity(out.len());
    for word in out.split(' ') {
        let w = match word.find("](") {
            Some(at) => &word[..at],
            None => word,
        };
        // A path written bare (`server/protocols/webadmin-cli`) is not a run of names.
        if w.contains("://")
            || w.starts_with("www.")
            || w.contains('@')
            || w.starts_with('<')
            || w.contains('/')
        {
            cleaned.push(' ');
        } else {
            cleaned.push_str(w);
            cleaned.push(' ');
        }
    }
    cleaned
}

/// The tokens of prose: runs of letters, digits, `_`, and `-`, `.`, `::` between them.
fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
            // Skip the rest of a run that starts with a digit or a non-ASCII letter.
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        loop {
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let sep = match bytes.get(i..) {
                Some([b':', b':', n, ..]) if word(*n) => 2,
                Some([b'-' | b'.', n, ..]) if word(*n) => 1,
                _ => 0,
            };
            if sep == 0 {
                break;
            }
            i += sep;
        }
        // A word running into non-ASCII letters is not a name.
        if bytes.get(i).is_some_and(|b| *b >= 0x80) {
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            continue;
        }
        out.push(&text[start..i]);
    }
    out
}

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

/// One tracked file or folder a term may name.
#[derive(Debug, Clone)]
struct Entry {
    /// Root-relative; a folder ends with `/`.
    path: String,
    /// A top-level folder, or a package in a folder of packages.
    named: bool,
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
    under_top: HashMap<String, usize>,
    /// Each tracked file's name, by its key.
    file_keys: Vec<String>,
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
                if !folders.contains_key(dir) && !is_doc(&format!("{dir}/-")) {
                    let leaf = &dir[end..];
                    let n = names.add(format!("{dir}/"), !dir.contains('/'), leaf);
                    folders.insert(dir, n);
                }
                end = at + 1;
            }
            // A package a bare word may name: one in a folder of packages (`packages/ui`,
            // `charts/external-dns`), not any folder deep in the tree holding a manifest.
            let container = folder
                .rsplit_once('/')
                .map(|(above, _)| above.rsplit('/').next().unwrap_or(above));
            if container.is_some_and(|c| CONTAINERS.contains(&c)) && MANIFESTS.contains(&name) {
                if let Some(&n) = folders.get(folder) {
                    names.entries[n as usize].named = true;
                }
            }
            if is_doc(path) {
                continue;
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
        names
    }

    fn add(&mut self, path: String, named: bool, name: &str) -> u32 {
        let n = self.entries.len() as u32;
        self.entries.push(Entry { path, named });
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
        let patterns: Vec<Pattern> = governs.iter().map(|g| Pattern::new(g)).collect();
        let governed = |path: &str| {
            let probe = path.trim_end_matches('/');
            patterns.iter().any(|p| p.matches(path) || p.matches(probe))
        };
        let skipped = |path: &str| {
            skip.iter().any(|f| {
                let f = f.trim_end_matches('/');
                !f.is_empty()
                    && path
                        .strip_prefix(f)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        };
        let mut out: Vec<CodeMention> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for term in terms {
            let found = self.lookup(term);
            let found: Vec<&Entry> = found.into_iter().filter(|e| !skipped(&e.path)).collect();
            // A single word is the name of many things: it must name one path.
            let most = match classify(&term.text) {
                Some(Kind::Identifier) => MAX_MATCHES,
                _ => 1,
            };
            if found.is_empty() || found.len() > most {
                continue;
            }
            let confidence = confidence(term, found.len());
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

    /// The entries `term` names, a file inside a named folder of the same name folded into it.
    fn lookup(&self, term: &Term) -> Vec<&Entry> {
        let get = |k: &str| -> Vec<&Entry> {
            self.by_key
                .get(k)
                .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
                .unwrap_or_default()
        };
        let qualified = term.text.contains("::") || term.text.contains('.');
        // A name of several words names a file or folder of as many (`start-up` is not
        // `startup.sh`, `AuthenticationController` is `authentication_controller.rb`).
        let words = word_count(&term.text);
        let mut found: Vec<&Entry> = get(&key(&term.text))
            .into_iter()
            .filter(|e| qualified || words < 2 || word_count(leaf_stem(&e.path)) == words)
            .collect();
        if qualified && found.is_empty() {
            // `billing::invoice::Total`, `app.services.Billing`: the last part, in a folder
            // named by the part before it.
            let parts: Vec<&str> = term
                .text
                .split([':', '.'])
                .filter(|p| !p.is_empty())
                .collect();
            if let [.., parent, last] = parts.as_slice() {
                let parent = key(parent);
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
        if term.kind == Kind::Word {
            // A bare word names a package or a top-level folder, but not a hidden one (the
            // word names the tool: `.vscode/`) nor one holding most of the repository (the
            // word names what it is written in: `terraform/`).
            found.retain(|e| {
                e.named
                    && !e.path.starts_with('.')
                    && self
                        .under_top
                        .get(&e.path)
                        .is_none_or(|n| n * 2 <= self.files)
            });
        }
        // Code first: a name also found in tests, fixtures or examples names the code; a
        // single word never names a test.
        if words < 2 || found.iter().any(|e| !in_tests(&e.path)) {
            found.retain(|e| !in_tests(&e.path));
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
        found
    }
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

/// Folders of tests, fixtures, examples and vendored code.
#[rustfmt::skip]
const TEST_FOLDERS: &[&str] = &[
    "test", "tests", "spec", "specs", "__tests__", "testdata", "fixtures", "fixture", "examples",
    "example", "vendor", "node_modules", "third_party", "third-party", "bench", "benches", "testing", "e2e",
    "features",
];

/// Whether `path` lies in a folder of tests, fixtures, examples or vendored code.
fn in_tests(path: &str) -> bool {
    path.trim_end_matches('/')
        .split('/')
        .rev()
        .skip(usize::from(!path.ends_with('/')))
        .any(|part| TEST_FOLDERS.contains(&part))
        || path
            .trim_end_matches('/')
            .split('/')
            .next()
            .is_some_and(|p| TEST_FOLDERS.contains(&p))
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
        Kind::Word => 6,
    };
    let less = match matches {
        0 | 1 => 0,
        2 => 2,
        _ => 4,
    };
    f64::from(base.saturating_sub(less)) / 10.0
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
        terms(&lines, "Use a thing")
            .into_iter()
            .map(|t| (t.text, t.kind))
            .collect()
    }

    #[test]
    fn reads_identifiers_backticks_and_words() {
        let found = t(
            "The AuthenticationController and external-dns, see `billing` and \
crate::index::memo or app.services.Billing; e.g. http://x.io/FooBar `src/a.rs` ADR HTTP.",
        );
        let names: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
        assert!(names.contains(&"AuthenticationController"), "{names:?}");
        assert!(names.contains(&"external-dns"));
        assert!(names.contains(&"billing"));
        assert!(names.contains(&"crate::index::memo"));
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
        assert!(found.is_empty(), "{found:?}");
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
}
