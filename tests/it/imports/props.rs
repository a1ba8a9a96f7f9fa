//! Reading and resolving never panic, on any bytes in any language, and on sources built from
//! the fragments the readers look for (ADR-0011).

use context_graph::imports::{read_imports, Project};
use proptest::prelude::*;

const PATHS: &[&str] = &[
    "src/a/m.rs",
    "src/a/mod.rs",
    "p/q/m.py",
    "web/x.ts",
    "web/x.tsx",
    "web/x.js",
    "web/x.jsx",
    "cmd/x/main.go",
    "src/main/java/a/B.java",
    "src/main/kotlin/a/B.kt",
];

const FRAGMENTS: &[&str] = &[
    "import ",
    "from ",
    "export ",
    "require(",
    "import(",
    "use ",
    "mod ",
    "extern crate ",
    "static ",
    "type ",
    "package ",
    "crate::",
    "super::",
    "self::",
    "::",
    "{",
    "}",
    "(",
    ")",
    ",",
    ";",
    ".",
    "..",
    "*",
    " as ",
    "\"",
    "'",
    "`",
    "${",
    "./",
    "../",
    "@s/",
    "/*",
    "*/",
    "//",
    "#",
    "\n",
    "\r\n",
    "\t",
    "é",
    "\u{feff}",
    "a",
    "B",
    "x.js",
    "__init__",
    "\\",
];

/// The tree, kept for the test's life (a `Project` borrows its paths and reader).
fn tree() -> Project<'static> {
    let tracked: Vec<String> = [
        "Cargo.toml",
        "src/lib.rs",
        "src/a/mod.rs",
        "src/a/m.rs",
        "go.mod",
        "cmd/x/main.go",
        "p/__init__.py",
        "p/q/__init__.py",
        "p/q/m.py",
        "tsconfig.json",
        "web/x.ts",
        "web/index.tsx",
        "src/main/java/a/B.java",
        "src/main/kotlin/a/B.kt",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let read = |p: &str| -> Option<Vec<u8>> {
        Some(match p {
            "Cargo.toml" => b"[package]\nname = \"a-b\"\n".to_vec(),
            "go.mod" => b"module example.com/x\n".to_vec(),
            "tsconfig.json" => {
                b"{\"compilerOptions\":{\"baseUrl\":\".\",\"paths\":{\"*\":[\"*\",\"web/*\"]}}}"
                    .to_vec()
            }
            _ => return None,
        })
    };
    Project::new(
        Box::leak(tracked.into_boxed_slice()),
        Box::leak(Box::new(read)),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_bytes_in_any_language_read_without_a_panic(
        path in prop::sample::select(PATHS),
        bytes in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let project = tree();
        for import in read_imports(path, &bytes) {
            let _ = project.resolve(path, &import);
        }
    }

    #[test]
    fn sources_of_import_fragments_read_and_resolve_without_a_panic(
        path in prop::sample::select(PATHS),
        parts in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60),
    ) {
        let project = tree();
        let text = parts.concat();
        for import in read_imports(path, text.as_bytes()) {
            let target = project.resolve(path, &import);
            let _ = project.files_of(path, &target);
        }
    }
}
