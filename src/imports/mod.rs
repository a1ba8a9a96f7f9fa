//! The imports of a source file, read by a real parser (tree-sitter, one grammar a language),
//! and resolved to tracked files as the language itself resolves them (ADR-0022, docs/rules.md).
//!
//! Pure library: bytes in, imports out ([`read_imports`]); resolution works from the list of
//! tracked paths and a reader of the few configuration files a language consults
//! (`tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`), given once to [`Project::new`].
//! Comments and strings are never imports: only the syntax tree's import nodes are read.

mod cargo;
mod go;
mod js;
mod jvm;
mod project;
mod python;
mod resolve_js;
mod resolve_jvm;
mod resolve_py;
mod resolve_rust;
mod rust;
mod tracked;
mod tree;

pub use project::Project;
pub use tracked::Target;
pub use tree::grammar_loads;

/// The version of what [`read_imports`] returns for the same bytes: raise it when a reader
/// changes, so that imports kept by blob id are read again.
pub const PARSER_VERSION: u32 = 2;

/// A file larger than this is not parsed: generated or vendored code, never a decision's
/// subject, and a parse of it would cost more than the rest of the check (ADR-0011).
pub const MAX_BYTES: usize = 2 * 1024 * 1024;

/// The languages whose imports are read.
pub const LANGS: [Lang; 9] = [
    Lang::Rust,
    Lang::Python,
    Lang::JavaScript,
    Lang::Jsx,
    Lang::TypeScript,
    Lang::Tsx,
    Lang::Go,
    Lang::Java,
    Lang::Kotlin,
];

/// A language whose imports are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    Jsx,
    TypeScript,
    Tsx,
    Go,
    Java,
    Kotlin,
}

/// How an import is written: what the statement was, not what it resolves to. Kept in the
/// index by name (ADR-0021): a renamed variant is a new [`PARSER_VERSION`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ImportKind {
    /// `import … from "x"`, `import "x"`, Python's `import a.b`, Go's and Java's `import`.
    Static,
    /// TypeScript's `import type … from "x"`: erased at compile time, still a dependency.
    TypeOnly,
    /// `export … from "x"`.
    Reexport,
    /// `import("x")` with a literal.
    Dynamic,
    /// `require("x")`, and TypeScript's `import x = require("x")`.
    Require,
    /// Python's `from M import N`: the spec is `M.N` (N may be a module or a name in M).
    From,
    /// An import of everything in a module or package: `from M import *`, Java's `a.b.*`.
    Wildcard,
    /// Java's `import static a.B.m` and Kotlin's import of a member: the spec's last segment
    /// may be a member of the class before it.
    Member,
    /// Rust's `mod x;`: the spec is the module's name.
    ModDecl,
    /// Rust's `#[path = "p"] mod x;`: the spec is the path as written, relative to the
    /// declaring file's folder.
    ModPath,
    /// Rust's `use a::b::c` (one `Import` for each leaf of a use tree), spec `a::b::c`.
    Use,
    /// Rust's `extern crate x`.
    ExternCrate,
}

/// One import of a file: its 1-based line and the specifier as the language writes it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Import {
    pub line: u32,
    pub spec: String,
    pub kind: ImportKind,
}

/// The language of `path`, by its extension (`.d.ts` is TypeScript).
pub fn lang_of(path: &str) -> Option<Lang> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.')?.1;
    Some(match ext {
        "rs" => Lang::Rust,
        "py" | "pyi" => Lang::Python,
        "js" | "mjs" | "cjs" => Lang::JavaScript,
        "jsx" => Lang::Jsx,
        "ts" | "mts" | "cts" => Lang::TypeScript,
        "tsx" => Lang::Tsx,
        "go" => Lang::Go,
        "java" => Lang::Java,
        "kt" | "kts" => Lang::Kotlin,
        _ => return None,
    })
}

/// The imports `bytes` (the file at `path`) writes, in the order written. A file in no known
/// language, over [`MAX_BYTES`], or that the grammar cannot load reads as no imports; bad
/// UTF-8 and syntax errors read as whatever the parser recovered around them. Never panics.
pub fn read_imports(path: &str, bytes: &[u8]) -> Vec<Import> {
    let Some(lang) = lang_of(path) else {
        return Vec::new();
    };
    if bytes.len() > MAX_BYTES {
        return Vec::new();
    }
    let Some(tree) = tree::parse(lang, bytes) else {
        return Vec::new();
    };
    let root = tree.root_node();
    let mut out = match lang {
        Lang::Rust => rust::imports(root, bytes),
        Lang::Python => python::imports(root, bytes),
        Lang::JavaScript | Lang::Jsx | Lang::TypeScript | Lang::Tsx => js::imports(root, bytes),
        Lang::Go => go::imports(root, bytes),
        Lang::Java | Lang::Kotlin => jvm::imports(root, bytes),
    };
    out.retain(|i| !i.spec.is_empty());
    out
}
