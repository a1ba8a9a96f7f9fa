//! Every grammar loads into the one tree-sitter core the crate pins, and parses its language.

use context_graph::imports::{grammar_loads, lang_of, read_imports, Lang, LANGS};

#[test]
fn every_grammar_loads_into_the_pinned_core_and_parses() {
    for lang in LANGS {
        assert!(
            grammar_loads(lang),
            "{lang:?}: the grammar does not load or parse"
        );
    }
}

#[test]
fn the_language_is_the_extension() {
    let cases = [
        ("src/a.rs", Some(Lang::Rust)),
        ("a/b.py", Some(Lang::Python)),
        ("web/x.mjs", Some(Lang::JavaScript)),
        ("web/x.cjs", Some(Lang::JavaScript)),
        ("web/x.jsx", Some(Lang::Jsx)),
        ("web/x.ts", Some(Lang::TypeScript)),
        ("web/x.d.ts", Some(Lang::TypeScript)),
        ("web/x.tsx", Some(Lang::Tsx)),
        ("cmd/main.go", Some(Lang::Go)),
        ("src/main/java/a/B.java", Some(Lang::Java)),
        ("build.gradle.kts", Some(Lang::Kotlin)),
        ("README.md", None),
        ("Makefile", None),
    ];
    for (path, lang) in cases {
        assert_eq!(lang_of(path), lang, "{path}");
    }
}

#[test]
fn hostile_bytes_read_as_what_the_parser_recovers_never_a_panic() {
    // Bad UTF-8 around a real import, ten thousand nested brackets, and a file over the limit.
    let mut bad = b"import \"./ok\";\n\xff\xfe\x80 import x from '\xc3(';\n".to_vec();
    bad.extend(b"const y = require('./z');\n");
    let specs: Vec<String> = read_imports("a.js", &bad)
        .into_iter()
        .map(|i| i.spec)
        .collect();
    assert!(specs.contains(&"./ok".to_string()), "{specs:?}");
    assert!(specs.contains(&"./z".to_string()), "{specs:?}");
    let deep = format!(
        "use a::{}b{};\nmod m;\n",
        "{".repeat(10_000),
        "}".repeat(10_000)
    );
    let kinds: Vec<String> = read_imports("deep.rs", deep.as_bytes())
        .into_iter()
        .map(|i| i.spec)
        .collect();
    assert!(kinds.contains(&"m".to_string()), "{kinds:?}");
    let nested = format!(
        "x = {}1{}\nimport os\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let specs: Vec<String> = read_imports("deep.py", nested.as_bytes())
        .into_iter()
        .map(|i| i.spec)
        .collect();
    assert_eq!(specs, ["os"]);
    let huge = format!(
        "import os\n{}",
        "#\n".repeat(context_graph::imports::MAX_BYTES)
    );
    assert!(read_imports("huge.py", huge.as_bytes()).is_empty());
    assert!(read_imports("notes.txt", b"import os").is_empty());
}
