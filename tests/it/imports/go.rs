//! Go: single imports and import blocks, named, blank and dot imports; an import path inside
//! the tree's modules (go.mod `module`) is the package's folder, any other a package.

use super::{file, package, pairs, read, resolved};
use context_graph::imports::{ImportKind::*, Project, Target};

const HANDLER: &str = r#"// Package api serves orders.
//
// import "example.com/shop/internal/db" is how it used to be done.
package api

import "fmt"

import (
	"context"
	db "example.com/shop/internal/db"
	_ "example.com/shop/internal/migrations"
	. "example.com/shop/pkg/money"
	"example.com/shop/internal/gone"
	"github.com/google/uuid"
	"example.com/tools/lint"
)

const doc = `import "example.com/shop/internal/secret"`

func Handle(ctx context.Context) { fmt.Println("import \"os\"", db.X, uuid.New()) }
"#;

#[test]
fn import_blocks_are_read_and_comments_and_strings_are_not() {
    let got: Vec<(u32, String)> = read("internal/api/handler.go", HANDLER)
        .into_iter()
        .map(|(line, spec, kind)| {
            assert_eq!(kind, Static);
            (line, spec)
        })
        .collect();
    let expected: Vec<(u32, String)> = [
        (6, "fmt"),
        (9, "context"),
        (10, "example.com/shop/internal/db"),
        (11, "example.com/shop/internal/migrations"),
        (12, "example.com/shop/pkg/money"),
        (13, "example.com/shop/internal/gone"),
        (14, "github.com/google/uuid"),
        (15, "example.com/tools/lint"),
    ]
    .iter()
    .map(|(l, s)| (*l, s.to_string()))
    .collect();
    assert_eq!(got, expected);
}

#[test]
fn module_paths_resolve_to_package_folders_in_every_module_of_the_tree() {
    let files = [
        ("go.mod", "module example.com/shop // the shop\n\ngo 1.22\n"),
        ("internal/api/handler.go", HANDLER),
        ("internal/db/db.go", "package db\n"),
        ("internal/db/db_test.go", "package db\n"),
        ("internal/migrations/001.go", "package migrations\n"),
        ("pkg/money/money.go", "package money\n"),
        ("tools/go.mod", "module \"example.com/tools\"\n"),
        ("tools/lint/lint.go", "package lint\n"),
    ];
    let expected = [
        ("fmt", package("fmt")),
        ("context", package("context")),
        ("example.com/shop/internal/db", file("internal/db")),
        (
            "example.com/shop/internal/migrations",
            file("internal/migrations"),
        ),
        ("example.com/shop/pkg/money", file("pkg/money")),
        ("example.com/shop/internal/gone", Target::Unresolved),
        ("github.com/google/uuid", package("github.com/google/uuid")),
        // A nested module is its own: its path is longer than the root module's.
        ("example.com/tools/lint", file("tools/lint")),
    ];
    assert_eq!(
        resolved(&files, "internal/api/handler.go"),
        pairs(&expected)
    );
}

#[test]
fn a_package_folder_stands_for_its_files_but_not_its_tests() {
    let tracked: Vec<String> = [
        "go.mod",
        "a/a.go",
        "b/b.go",
        "b/c.go",
        "b/b_test.go",
        "b/x.md",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let read = |p: &str| (p == "go.mod").then(|| b"module m\n".to_vec());
    let project = Project::new(&tracked, &read);
    assert_eq!(project.files_of("a/a.go", &file("b")), ["b/b.go", "b/c.go"]);
    assert_eq!(project.files_of("a/a.go", &file("b/b.go")), ["b/b.go"]);
    assert!(project.files_of("a/a.go", &package("fmt")).is_empty());
}
