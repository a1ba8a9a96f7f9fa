//! JavaScript and TypeScript (with JSX/TSX): ESM `import` and `import type`, `export … from`,
//! CommonJS `require("x")`, dynamic `import("x")` and TypeScript's `import x = require("x")`,
//! each with a literal specifier. A specifier built at run time names no one module.

use super::tree::{child_of_kind, line, string_content, walk};
use super::{Import, ImportKind};
use tree_sitter::Node;

pub(super) fn imports(root: Node, bytes: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    walk(root, |node| match node.kind() {
        "import_statement" => {
            let kind = if is_type_only(node, bytes) {
                ImportKind::TypeOnly
            } else {
                ImportKind::Static
            };
            if let Some(source) = node.child_by_field_name("source") {
                push(&mut out, source, bytes, kind);
            } else if let Some(clause) = child_of_kind(node, &["import_require_clause"]) {
                if let Some(source) = clause.child_by_field_name("source") {
                    push(&mut out, source, bytes, ImportKind::Require);
                }
            }
            false
        }
        "export_statement" => {
            if let Some(source) = node.child_by_field_name("source") {
                push(&mut out, source, bytes, ImportKind::Reexport);
                return false;
            }
            true
        }
        "call_expression" => {
            if let Some(kind) = call_kind(node, bytes) {
                // The first argument; a comment before it (webpack's
                // `/* webpackChunkName: "x" */`) is no argument.
                let first = node.child_by_field_name("arguments").and_then(|args| {
                    let mut cursor = args.walk();
                    let first = args
                        .named_children(&mut cursor)
                        .find(|a| a.kind() != "comment");
                    first
                });
                if let Some(arg) =
                    first.filter(|a| matches!(a.kind(), "string" | "template_string"))
                {
                    push(&mut out, arg, bytes, kind);
                }
            }
            true
        }
        _ => true,
    });
    out
}

/// `import type …` (TypeScript): the word `type` right after `import`.
fn is_type_only(node: Node, bytes: &[u8]) -> bool {
    let mut cursor = node.walk();
    let mut children = node.children(&mut cursor);
    children.next();
    children
        .next()
        .is_some_and(|c| c.kind() == "type" || super::tree::text(c, bytes) == "type")
}

/// `import(…)` is dynamic, `require(…)` CommonJS; any other call is no import.
fn call_kind(node: Node, bytes: &[u8]) -> Option<ImportKind> {
    let function = node.child_by_field_name("function")?;
    match function.kind() {
        "import" => Some(ImportKind::Dynamic),
        "identifier" if super::tree::text(function, bytes) == "require" => {
            Some(ImportKind::Require)
        }
        _ => None,
    }
}

fn push(out: &mut Vec<Import>, literal: Node, bytes: &[u8], kind: ImportKind) {
    if let Some(spec) = string_content(literal, bytes) {
        out.push(Import {
            line: line(literal),
            spec,
            kind,
        });
    }
}
