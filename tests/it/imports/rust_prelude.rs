//! A Rust path starts with a crate only if the crate's extern prelude holds it (ADR-0022,
//! amendment 2026-12-05; docs/rules.md): its Cargo.toml's dependencies by the name code writes
//! (renames, `workspace = true`, dev- and target dependencies), the sysroot, and its own library
//! from its tests; any other first segment is a name in scope, no `pkg:` edge (in Rust 2015, a
//! module of the crate root if there is one). Through the binary, from the index and without it.

use crate::env::no_index;
use crate::rules_imports::violations;

const RULE: &str = "forbid import crates/app/** -> crates/core/**, crates/app/src/orders.rs, pkg:serde, pkg:json, pkg:libc, \
pkg:std, pkg:md5, pkg:pretty_assertions, pkg:shop_core, pkg:fmt, pkg:money, pkg:shop_app, pkg:helpers
forbid import crates/legacy/src/api.rs -> crates/legacy/src/util.rs, pkg:util
";

const WORKSPACE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n",
    ),
    (
        "crates/core/Cargo.toml",
        "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    ),
    ("crates/core/src/lib.rs", "pub struct Money;\n"),
    (
        "crates/app/Cargo.toml",
        "[package]\nname = \"shop-app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
[dependencies]\nserde.workspace = true\nmoney = { package = \"shop-core\", path = \"../core\" }\n\
json = { package = \"serde_json\", version = \"1\" }\nmd-5 = \"0.10\"\n\n\
[dev-dependencies]\npretty-assertions = \"1\"\n\n\
[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n",
    ),
    (
        "crates/app/src/lib.rs",
        "pub mod orders;\nuse shop_app::orders::Order;\n",
    ),
    (
        "crates/app/src/orders.rs",
        "use serde::Serialize;\nuse money::Money;\nuse json::Value;\nuse libc::c_int;\nuse std::fmt;\nuse md5::compute;\nuse shop_core::Money as Old;\n\n\
pub struct Order;\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use fmt::Debug;\n    use pretty_assertions::assert_eq;\n}\n",
    ),
    (
        "crates/app/src/helpers.rs",
        "include!(\"generated.rs\");\nuse helpers::tidy;\n",
    ),
    // Rust 2015 (no `edition`): a `use` path is relative to the crate root.
    (
        "crates/legacy/Cargo.toml",
        "[package]\nname = \"legacy\"\nversion = \"0.1.0\"\n",
    ),
    ("crates/legacy/src/lib.rs", "pub mod util;\npub mod api;\n"),
    ("crates/legacy/src/util.rs", "pub fn tidy() {}\n"),
    ("crates/legacy/src/api.rs", "use util::tidy;\n"),
    (
        "crates/app/tests/api.rs",
        "use shop_app::orders::Order;\nuse pretty_assertions::assert_eq;\n",
    ),
];

#[test]
fn a_rust_path_names_a_crate_only_when_the_crates_cargo_toml_puts_it_in_scope() {
    let g = crate::rules::with_rules("Accepted", RULE, WORKSPACE);
    let (found, code) = violations(&g, &["check", "--json"]);
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(
        found,
        [
            // `mod orders;`; not `use shop_app::…` inside its own library.
            "crates/app/src/lib.rs:1 -> crates/app/src/orders.rs",
            // Its own library, from a test target.
            "crates/app/tests/api.rs:1 -> crates/app/src/orders.rs",
            "crates/app/tests/api.rs:2 -> pkg:pretty_assertions",
            "crates/app/src/orders.rs:1 -> pkg:serde",
            // `money` renames the workspace crate `shop-core`: its library.
            "crates/app/src/orders.rs:2 -> crates/core/src/lib.rs",
            "crates/app/src/orders.rs:3 -> pkg:json",
            "crates/app/src/orders.rs:4 -> pkg:libc",
            "crates/app/src/orders.rs:5 -> pkg:std",
            // The library of `md-5`, named otherwise than its package.
            "crates/app/src/orders.rs:6 -> pkg:md5",
            // Not `fmt` (a name `use super::*` brings in), not `shop_core` (declared as
            // `money`), not `helpers` (from an `include!`).
            // `use super::*` inside `mod tests` is the file's own module.
            "crates/app/src/orders.rs:13 -> crates/app/src/orders.rs",
            "crates/app/src/orders.rs:15 -> pkg:pretty_assertions",
            "crates/legacy/src/api.rs:1 -> crates/legacy/src/util.rs",
        ]
        .into_iter()
        .map(String::from)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
    assert_eq!(violations(&g, &no_index(&["check", "--json"])), (found, 1));
}

#[test]
fn extern_crate_names_of_the_root_and_declared_targets_are_in_scope() {
    let g = crate::rules::with_rules(
        "Accepted",
        "forbid import crates/tool/** -> crates/tool/src/lib.rs, crates/tool/src/graph.rs, \
crates/tool/cli/args.rs, pkg:alloc, pkg:heap, pkg:uddsketch, pkg:tool_lib, pkg:self\n",
        &[
            (
                "crates/tool/Cargo.toml",
                "[package]\nname = \"tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
[dependencies]\nuddsketch-rs = \"0.1\"\n\n[[bin]]\nname = \"tool-cli\"\npath = \"cli/main.rs\"\n",
            ),
            (
                "crates/tool/src/lib.rs",
                "extern crate self as tool_lib;\nextern crate alloc as heap;\npub mod graph;\npub struct Root;\n",
            ),
            (
                "crates/tool/src/graph.rs",
                "use tool_lib::Root;\nuse heap::vec::Vec;\nuse uddsketch::UddSketch;\npub struct Node;\n",
            ),
            // A `[[bin]]` root outside `src/`: its `mod` beside it, the library by name.
            (
                "crates/tool/cli/main.rs",
                "mod args;\nuse tool::graph::Node;\nfn main() {}\n",
            ),
            ("crates/tool/cli/args.rs", "\n"),
        ],
    );
    let (found, code) = violations(&g, &["check", "--json"]);
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(
        found,
        [
            "crates/tool/cli/main.rs:1 -> crates/tool/cli/args.rs",
            "crates/tool/cli/main.rs:2 -> crates/tool/src/graph.rs",
            // `tool_lib` is the crate itself, `heap` is `alloc`.
            "crates/tool/src/graph.rs:1 -> crates/tool/src/lib.rs",
            "crates/tool/src/graph.rs:2 -> pkg:alloc",
            // The library of `uddsketch-rs`.
            "crates/tool/src/graph.rs:3 -> pkg:uddsketch",
            "crates/tool/src/lib.rs:1 -> crates/tool/src/lib.rs",
            "crates/tool/src/lib.rs:2 -> pkg:alloc",
            "crates/tool/src/lib.rs:3 -> crates/tool/src/graph.rs",
        ]
    );
    assert_eq!(violations(&g, &no_index(&["check", "--json"])), (found, 1));
}
