//! Types by their definition (ADR-0017): the type names the records' terms may name, and the
//! source files defining them (read on every core), so a type's name names the file that
//! defines it when its own name names nothing, too much, or another thing.

use super::names::Names;
use super::paths::{client_generated, generated, in_tests, is_source, words_of};
use super::vocabulary::Vocabulary;
use crate::text::terms::{key, singular, Kind, Term};
use std::collections::{HashMap, HashSet};

/// The source files defining each type name the records say, by the name as written, and
/// the names of those that are Go functions: [`Names::defined`].
#[derive(Debug, Default)]
pub struct Defined(
    pub(super) HashMap<String, Vec<u32>>,
    pub(super) HashSet<String>,
);

/// The name of a type a term may name by its definition: a name in backticks or in prose
/// starting with a capital and holding a lower-case letter (`ControllerConfig`, `Node`;
/// not an acronym, `HTTP`), or the type of `Type::method`; a [`Kind::Type`]'s word.
pub(super) fn definable(term: &Term) -> Option<&str> {
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
    // A function of three words or more in snake_case, written as code
    // (`` `validate_distributed_kwargs` ``): Python's and Rust's names the file defining it.
    if term.kind == Kind::Code && snake_function(text) {
        return Some(text);
    }
    (name.len() >= 3
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(name)
}

/// Whether a term may name a type by its definition: one in backticks unless the records'
/// vocabulary writes it as code (`Node` is the type, though every record says "node"); one
/// in prose unless the records' vocabulary says it (`TableScan`, a library's type). A
/// record that owns a name of the vocabulary ([`Vocabulary::owns`]) keeps it: the others
/// name the type it introduces.
pub(super) fn definitions_kept(term: &Term, vocabulary: &Vocabulary) -> bool {
    match term.kind {
        // Written as code by many records: a library's type they all use (`RecordBatch`).
        Kind::Code => !vocabulary.coded(term) || vocabulary.owns(term),
        // A kind a manifest shows (`kind: NginxGateway`): as code, though the records say
        // its words in prose (`nginx-gateway`, the program).
        Kind::Type if term.coded > 0 => !vocabulary.coded(term) || vocabulary.owns(term),
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
pub(super) fn definition_source(path: &str) -> bool {
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
pub(super) fn named_by_its_file(name: &str, path: &str) -> bool {
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

/// A snake_case name of three words or more, each of two letters or more: a function's as
/// Python and Rust write them, written for it alone (`check_optional_dependency`).
fn snake_function(name: &str) -> bool {
    let words: Vec<&str> = name.split('_').collect();
    words.len() >= 3
        && words.iter().all(|w| {
            w.len() >= 2
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
        && name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// The top-level Python and Rust functions of the names `wanted` that `bytes` (the file at
/// `path`) defines (`def check_optional_dependency(`, `pub fn load_config_file(`, and in
/// Python a module-level assignment, `validate_distributed_kwargs = partial(…)`): at the
/// line's start, so not a method (indented in its class or `impl`), and snake_case of three
/// words or more ([`snake_function`]).
fn snake_functions_in(bytes: &[u8], path: &str, wanted: &HashSet<&str>) -> Vec<String> {
    let lower = path.to_ascii_lowercase();
    if !(lower.ends_with(".py") || lower.ends_with(".rs")) || generated(path) {
        return Vec::new();
    }
    static RE: std::sync::OnceLock<regex::bytes::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::bytes::Regex::new(
            r"(?m)^(?:(?:pub(?:\([a-z:]+\))?[ \t]+)?(?:(?:async|const|unsafe)[ \t]+)*(?:def|fn)[ \t]+([a-z][a-z0-9_]*)[ \t]*[(<]|([a-z][a-z0-9_]*)[ \t]*(?::[^=\n]*)?=[^=])",
        )
        .expect("regex")
    });
    let mut out: Vec<String> = Vec::new();
    for c in re.captures_iter(bytes) {
        // A module-level assignment (`validate_distributed_kwargs = partial(…)`) in Python.
        let assigned = c.get(2).filter(|_| lower.ends_with(".py"));
        let Some(name) = c
            .get(1)
            .or(assigned)
            .and_then(|m| std::str::from_utf8(m.as_bytes()).ok())
        else {
            continue;
        };
        if snake_function(name) && wanted.contains(name) && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

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

/// The names of `wanted` defined in the file `path`'s `bytes` ([`definition_regex`]): at the
/// line's start (Ruby's classes nest in modules: indented up to two levels), and in Go's
/// code not an alias (`type X = other.X` only names another package's type).
pub(super) fn definitions_in(bytes: &[u8], path: &str, wanted: &HashSet<&str>) -> Vec<String> {
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

impl Names {
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
            let functions = functions_in(&bytes, path, &wanted)
                .into_iter()
                .chain(snake_functions_in(&bytes, path, &wanted));
            for name in functions {
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
}
