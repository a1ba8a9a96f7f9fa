//! Rust: use trees, `mod x;`, `extern crate`, `self::`/`super::` (also inside an inline test
//! module), modules in scope, workspace crates by name (`-` read as `_`), other crates.

use super::{file, package, pairs, read, resolved};
use context_graph::imports::{ImportKind::*, Target};

const SERVICE: &str = r#"//! Orders. `use crate::infra::db;` is what this must never write.
extern crate alloc;
mod helpers;
mod inline { pub fn f() {} }
use crate::{domain::{order::Order, rules}, infra as _};
use super::config::{self, Settings};
use self::helpers::*;
use shop_core::money::Money;
use serde::Deserialize;
use std::collections::HashMap;
use helpers::tidy as clean;
/* use crate::infra::db; */
const SQL: &str = "use crate::infra::db;";

#[cfg(test)]
mod tests {
    use super::helpers;
    use super::super::config::Settings;
}
"#;

#[test]
fn use_trees_are_flattened_and_no_comment_or_string_is_read() {
    let got = read("crates/app/src/service.rs", SERVICE);
    let expected = vec![
        (2, "alloc".to_string(), ExternCrate),
        (3, "helpers".to_string(), ModDecl),
        (5, "crate::domain::order::Order".to_string(), Use),
        (5, "crate::domain::rules".to_string(), Use),
        (5, "crate::infra".to_string(), Use),
        (6, "super::config".to_string(), Use),
        (6, "super::config::Settings".to_string(), Use),
        (7, "self::helpers".to_string(), Wildcard),
        (8, "shop_core::money::Money".to_string(), Use),
        (9, "serde::Deserialize".to_string(), Use),
        (10, "std::collections::HashMap".to_string(), Use),
        (11, "helpers::tidy".to_string(), Use),
        // Inside `mod tests`, `super` is the file's own module.
        (17, "self::helpers".to_string(), Use),
        (18, "super::config::Settings".to_string(), Use),
    ];
    assert_eq!(got, expected);
}

#[test]
fn paths_resolve_to_module_files_across_the_workspace() {
    let files = [
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        (
            "crates/app/Cargo.toml",
            "[package]\nname = \"shop-app\"\n\n[dependencies]\nshop-core = { path = \"../core\" }\nserde = \"1\"\n",
        ),
        (
            "crates/app/src/lib.rs",
            "pub mod domain;\npub mod infra;\npub mod service;\nmod config;\n",
        ),
        ("crates/app/src/config.rs", "pub struct Settings;\n"),
        ("crates/app/src/service.rs", SERVICE),
        ("crates/app/src/service/helpers.rs", "pub fn tidy() {}\n"),
        (
            "crates/app/src/domain/mod.rs",
            "pub mod order;\npub mod rules;\n",
        ),
        ("crates/app/src/domain/order.rs", "pub struct Order;\n"),
        ("crates/app/src/domain/rules.rs", "\n"),
        ("crates/app/src/infra.rs", "\n"),
        (
            "crates/core/Cargo.toml",
            "[package]\nname = \"shop-core\"\n[lib]\npath = \"lib.rs\"\n",
        ),
        ("crates/core/lib.rs", "pub mod money;\n"),
        ("crates/core/money/mod.rs", "pub struct Money;\n"),
    ];
    let expected = [
        ("alloc", package("alloc")),
        ("helpers", file("crates/app/src/service/helpers.rs")),
        (
            "crate::domain::order::Order",
            file("crates/app/src/domain/order.rs"),
        ),
        (
            "crate::domain::rules",
            file("crates/app/src/domain/rules.rs"),
        ),
        ("crate::infra", file("crates/app/src/infra.rs")),
        ("super::config", file("crates/app/src/config.rs")),
        // Settings is an item of config.rs.
        ("super::config::Settings", file("crates/app/src/config.rs")),
        ("self::helpers", file("crates/app/src/service/helpers.rs")),
        ("shop_core::money::Money", file("crates/core/money/mod.rs")),
        ("serde::Deserialize", package("serde")),
        ("std::collections::HashMap", package("std")),
        // `helpers` is a module in scope (declared above), not a crate.
        ("helpers::tidy", file("crates/app/src/service/helpers.rs")),
        ("self::helpers", file("crates/app/src/service/helpers.rs")),
        ("super::config::Settings", file("crates/app/src/config.rs")),
    ];
    assert_eq!(
        resolved(&files, "crates/app/src/service.rs"),
        pairs(&expected)
    );
}

#[test]
fn binaries_tests_and_a_missing_module_resolve_from_their_own_root() {
    let main = "mod cli;\nmod gone;\nuse crate::cli::run;\nuse shop::Thing;\nfn main() {}\n";
    let files = [
        ("Cargo.toml", "[package]\nname = \"shop\"\n"),
        ("src/lib.rs", "pub struct Thing;\n"),
        ("src/main.rs", main),
        ("src/cli/mod.rs", "pub fn run() {}\n"),
        (
            "tests/it/main.rs",
            "mod common;\nuse shop::Thing;\nuse crate::common::x;\n#[cfg(unix)]\n#[path = \"../../migrations/v1.rs\"]\nmod v1;\n",
        ),
        ("migrations/v1.rs", "\n"),
        ("tests/it/common.rs", "pub fn x() {}\n"),
    ];
    let expected = [
        ("cli", file("src/cli/mod.rs")),
        ("gone", Target::Unresolved),
        ("crate::cli::run", file("src/cli/mod.rs")),
        ("shop::Thing", file("src/lib.rs")),
    ];
    assert_eq!(resolved(&files, "src/main.rs"), pairs(&expected));
    let expected = [
        ("common", file("tests/it/common.rs")),
        ("shop::Thing", file("src/lib.rs")),
        ("crate::common::x", file("tests/it/common.rs")),
        // `#[path]`: relative to the declaring file's folder.
        ("../../migrations/v1.rs", file("migrations/v1.rs")),
    ];
    assert_eq!(resolved(&files, "tests/it/main.rs"), pairs(&expected));
}
