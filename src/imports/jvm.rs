//! Java and Kotlin: `import a.b.C`, `import static a.b.C.m` (Java), `import a.b.*`, Kotlin's
//! `import a.b.C as D`. The spec is the dotted name; a wildcard's spec is its package.

use super::tree::{line, text, walk};
use super::{Import, ImportKind};
use tree_sitter::Node;

pub(super) fn imports(root: Node, bytes: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    walk(root, |node| match node.kind() {
        // Java's `import_declaration`, Kotlin's `import`.
        "import_declaration" | "import" if node.named_child_count() > 0 => {
            let mut cursor = node.walk();
            let mut name = None;
            let (mut wildcard, mut member) = (false, false);
            for child in node.children(&mut cursor) {
                match child.kind() {
                    "scoped_identifier" | "qualified_identifier" | "identifier"
                        if name.is_none() =>
                    {
                        name = Some(dotted(child, bytes));
                    }
                    "asterisk" | "*" => wildcard = true,
                    "static" => member = true,
                    _ => {}
                }
            }
            if let Some(spec) = name {
                let kind = if wildcard {
                    ImportKind::Wildcard
                } else if member {
                    ImportKind::Member
                } else {
                    ImportKind::Static
                };
                out.push(Import {
                    line: line(node),
                    spec,
                    kind,
                });
            }
            false
        }
        // Imports sit at the top of a file: no need to read the classes.
        "class_declaration"
        | "interface_declaration"
        | "function_declaration"
        | "object_declaration"
        | "enum_declaration"
        | "property_declaration" => false,
        _ => true,
    });
    out
}

/// A dotted name with whitespace and comments taken out.
fn dotted(node: Node, bytes: &[u8]) -> String {
    let mut out = String::new();
    walk(node, |n| {
        if n.kind().ends_with("comment") {
            return false;
        }
        if n.child_count() == 0 {
            out.push_str(text(n, bytes).trim());
        }
        true
    });
    out
}
