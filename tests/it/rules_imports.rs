//! Import rules checked through the binary (ADR-0021, ADR-0022, docs/rules.md): each language's
//! imports read by tree-sitter from the staged blobs, resolved as the language resolves them,
//! and judged against `forbid import`, `only import` and `independent`; lookalikes in comments
//! and strings are never imports.

use crate::env::no_index;
use crate::git::GitRepo;
use serde_json::Value;

/// A repository with one accepted record carrying `block`, the files given, committed.
fn repo(block: &str, files: &[(&str, &str)]) -> GitRepo {
    crate::rules::with_rules("Accepted", block, files)
}

/// `rule-violated` findings as `path:line -> target`, sorted; and the exit code.
pub(crate) fn violations(g: &GitRepo, args: &[&str]) -> (Vec<String>, i32) {
    let run = g.run(args);
    let j: Value = run.json();
    let mut found: Vec<String> = j["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "rule-violated")
        .map(|f| {
            format!(
                "{}:{} -> {}",
                f["path"].as_str().unwrap_or(""),
                f["line"],
                f["target"].as_str().unwrap_or("")
            )
        })
        .collect();
    found.sort();
    (found, run.code.unwrap_or(-1))
}

const RULES: &str = "forbid import web/src/domain/** -> web/src/infra/**, pkg:axios
forbid import py/shop/domain/** -> py/shop/infra/**
forbid import rs/src/domain.rs -> rs/src/infra/**
forbid import go/domain/** -> go/infra/**
forbid import jvm/src/main/java/com/shop/domain/** -> jvm/src/main/java/com/shop/infra/**
";

fn five_languages() -> Vec<(&'static str, &'static str)> {
    vec![
        // TypeScript: a relative import without extension, an index file, a package, and
        // lookalikes in a comment and a string.
        (
            "web/src/domain/order.ts",
            "// import { db } from \"../infra/db\";\nimport { db } from \"../infra/db\";\nimport { pool } from \"../infra\";\nimport axios from \"axios\";\nconst s = \"import x from '../infra/db'\";\nexport const order = () => db(pool, axios, s);\n",
        ),
        ("web/src/infra/db.ts", "export const db = (..._a: unknown[]) => 1;\n"),
        ("web/src/infra/index.ts", "export const pool = 2;\n"),
        // Python: a relative import two levels up, and one in a docstring.
        ("py/shop/__init__.py", ""),
        ("py/shop/domain/__init__.py", ""),
        (
            "py/shop/domain/order.py",
            "\"\"\"from ..infra import db is how it was.\"\"\"\nimport json\nfrom ..infra import db\n",
        ),
        ("py/shop/infra/__init__.py", ""),
        ("py/shop/infra/db.py", "X = 1\n"),
        // Rust: a use tree through `crate::`.
        ("rs/Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n"),
        ("rs/src/lib.rs", "pub mod domain;\npub mod infra;\n"),
        ("rs/src/domain.rs", "// use crate::infra::db;\nuse crate::{infra::db, domain as _};\npub fn f() { db::g() }\n"),
        ("rs/src/infra/mod.rs", "pub mod db;\n"),
        ("rs/src/infra/db.rs", "pub fn g() {}\n"),
        // Go: the module's path names the package's folder.
        ("go/go.mod", "module example.com/shop\n\ngo 1.22\n"),
        (
            "go/domain/order.go",
            "package domain\n\nimport (\n\t\"fmt\"\n\t\"example.com/shop/infra\"\n)\n\nfunc F() { fmt.Println(infra.X) }\n",
        ),
        ("go/infra/db.go", "package infra\n\nvar X = 1\n"),
        ("go/infra/db_test.go", "package infra\n"),
        // Java: a class under its source root.
        (
            "jvm/src/main/java/com/shop/domain/Order.java",
            "package com.shop.domain;\n\nimport com.shop.infra.Db;\nimport java.util.List;\n\nclass Order { Db db; }\n",
        ),
        (
            "jvm/src/main/java/com/shop/infra/Db.java",
            "package com.shop.infra;\n\npublic class Db {}\n",
        ),
    ]
}

#[test]
fn forbid_import_flags_each_languages_import_at_its_line_with_what_it_resolved_to() {
    let g = repo(RULES, &five_languages());
    let (found, code) = violations(&g, &["check", "--json"]);
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(
        found,
        [
            "go/domain/order.go:5 -> go/infra/db.go",
            "jvm/src/main/java/com/shop/domain/Order.java:3 -> jvm/src/main/java/com/shop/infra/Db.java",
            "py/shop/domain/order.py:3 -> py/shop/infra/db.py",
            "rs/src/domain.rs:2 -> rs/src/infra/db.rs",
            "web/src/domain/order.ts:2 -> web/src/infra/db.ts",
            "web/src/domain/order.ts:3 -> web/src/infra/index.ts",
            "web/src/domain/order.ts:4 -> pkg:axios",
        ]
    );
    // The same answer from a fresh scan as from the index.
    assert_eq!(violations(&g, &no_index(&["check", "--json"])), (found, 1));
}

#[test]
fn only_import_and_independent_groups_are_judged_over_the_same_edges() {
    let g = repo(
        "only import app/api/** -> app/core/**\nindependent services/*\nexcept services/billing/a.js -> services/shipping/b.js: the shared fixture, until it moves\n",
        &[
            ("app/api/h.ts", "import { c } from \"../core/c\";\nimport { d } from \"../db/d\";\nimport React from \"react\";\nexport const h = [c, d, React];\n"),
            ("app/core/c.ts", "export const c = 1;\n"),
            ("app/db/d.ts", "export const d = 1;\n"),
            ("services/billing/a.js", "const b = require(\"../shipping/b\");\nmodule.exports = b;\n"),
            ("services/billing/c.js", "import(\"../shipping/b.js\").then(() => 1);\n"),
            ("services/shipping/b.js", "module.exports = 1;\n"),
        ],
    );
    let (found, code) = violations(&g, &["check", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(
        found,
        [
            "app/api/h.ts:2 -> app/db/d.ts",
            "services/billing/c.js:1 -> services/shipping/b.js",
        ]
    );
}

#[test]
fn the_commit_hook_warns_on_an_import_the_staged_change_adds_and_never_on_one_already_there() {
    use crate::hooks::{commit, install, ok};
    let g = repo(
        "forbid import src/domain/** -> src/infra/**\n",
        &[
            (
                "src/domain/a.ts",
                "import { db } from \"../infra/db\";\nexport const a = db;\n",
            ),
            ("src/domain/b.ts", "export const b = 1;\n"),
            ("src/infra/db.ts", "export const db = 1;\n"),
        ],
    );
    install(&g);
    let err = ok(
        &commit(
            &g,
            "src/domain/a.ts",
            "import { db } from \"../infra/db\";\nexport const a = db + 1;\n",
            "Edit a",
        ),
        "git commit",
    );
    assert!(!err.contains("breaks"), "{err}");
    let err = ok(
        &commit(
            &g,
            "src/domain/b.ts",
            "// a comment naming \"../infra/db\" is no import\nimport { db } from \"../infra/db\";\nexport const b = db;\n",
            "Edit b",
        ),
        "git commit",
    );
    assert!(
        err.contains(
            "src/domain/b.ts:2 (src/infra/db.ts) breaks ADR-0001's rule `forbid import src/domain/** -> src/infra/**`"
        ),
        "{err}"
    );
}

#[test]
fn a_rust_use_of_an_item_in_scope_is_no_crate_and_a_crate_still_is() {
    // `proto` an inline module, `Kind` an enum, `Level` a name another `use` brings in: none is
    // a crate (cargo would refuse them as one, not being in [dependencies]); `prost` is, and
    // `indoc` after `use indoc::indoc`, `quickcheck` after its macros' `quickcheck` (a macro
    // is no path's first segment).
    let g = repo(
        "forbid import rs/src/** -> pkg:proto, pkg:Kind, pkg:Level, pkg:prost, pkg:indoc, pkg:quickcheck\n",
        &[
            (
                "rs/Cargo.toml",
                "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n\n[dependencies]\nprost = \"0.13\"\ntracing = \"0.1\"\nindoc = \"2\"\nquickcheck = \"1\"\nquickcheck_macros = \"1\"\n",
            ),
            (
                "rs/src/lib.rs",
                "mod proto {\n    pub struct Sample;\n}\nuse proto::Sample;\nuse prost::Message;\nuse tracing::Level;\nuse Level::INFO as I;\n\nenum Kind { A, B }\n\nfn f(k: Kind) -> bool {\n    use Kind::*;\n    matches!(k, A | B)\n}\n\nmod tests {\n    mod proto {}\n    use proto::*;\n}\nuse indoc::indoc;\nuse indoc::formatdoc;\nuse quickcheck_macros::quickcheck;\nuse quickcheck::Gen;\n",
            ),
        ],
    );
    let (found, code) = violations(&g, &["check", "--json"]);
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(
        found,
        [
            "rs/src/lib.rs:20 -> pkg:indoc",
            "rs/src/lib.rs:21 -> pkg:indoc",
            "rs/src/lib.rs:23 -> pkg:quickcheck",
            "rs/src/lib.rs:5 -> pkg:prost",
        ]
    );
    assert_eq!(violations(&g, &no_index(&["check", "--json"])), (found, 1));
}
