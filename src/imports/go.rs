//! Go: every `import_spec` of an `import` declaration, single or in a block, with or without a
//! name (`_`, `.`, an alias). The spec is the package's import path.

use super::tree::{line, string_content, walk};
use super::{Import, ImportKind};
use tree_sitter::Node;

pub(super) fn imports(root: Node, bytes: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    walk(root, |node| match node.kind() {
        "import_spec" => {
            if let Some(spec) = node
                .child_by_field_name("path")
                .and_then(|p| string_content(p, bytes))
            {
                out.push(Import {
                    line: line(node),
                    spec,
                    kind: ImportKind::Static,
                });
            }
            false
        }
        // Imports sit at the top of a file: no need to read function bodies.
        "function_declaration" | "method_declaration" => false,
        _ => true,
    });
    out
}
