//! Python: `import a.b [as c]`, `from M import n [as m]` (one import per name, spec `M.n`,
//! relative dots kept: `from ..a import b` is `..a.b`), `from M import *`. `__future__`
//! imports are compiler directives, not modules.

use super::tree::{line, text, walk};
use super::{Import, ImportKind};
use tree_sitter::Node;

pub(super) fn imports(root: Node, bytes: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    walk(root, |node| match node.kind() {
        "import_statement" => {
            for name in names(node) {
                out.push(Import {
                    line: line(node),
                    spec: dotted(name, bytes),
                    kind: ImportKind::Static,
                });
            }
            false
        }
        "import_from_statement" => {
            from_import(node, bytes, &mut out);
            false
        }
        "future_import_statement" => false,
        _ => true,
    });
    out
}

fn from_import(node: Node, bytes: &[u8], out: &mut Vec<Import>) {
    let Some(module) = node.child_by_field_name("module_name") else {
        return;
    };
    let module = text(module, bytes).split_whitespace().collect::<String>();
    let mut cursor = node.walk();
    let wildcard = node
        .children(&mut cursor)
        .any(|c| c.kind() == "wildcard_import");
    if wildcard {
        out.push(Import {
            line: line(node),
            spec: module,
            kind: ImportKind::Wildcard,
        });
        return;
    }
    for name in names(node) {
        let name = dotted(name, bytes);
        let spec = if module.ends_with('.') {
            format!("{module}{name}")
        } else {
            format!("{module}.{name}")
        };
        out.push(Import {
            line: line(node),
            spec,
            kind: ImportKind::From,
        });
    }
}

/// The `name` fields of an import statement: dotted names, or aliased imports.
fn names(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    let names: Vec<Node> = node.children_by_field_name("name", &mut cursor).collect();
    names
}

/// The dotted name of a `dotted_name` or an `aliased_import` (its `name`), spaces taken out.
fn dotted(node: Node, bytes: &[u8]) -> String {
    let node = if node.kind() == "aliased_import" {
        node.child_by_field_name("name").unwrap_or(node)
    } else {
        node
    };
    text(node, bytes).split_whitespace().collect()
}
