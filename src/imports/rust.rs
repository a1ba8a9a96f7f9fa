//! Rust: `use` trees (one import per leaf: `use k::{a::{b, c}, d}` is `k::a::b`, `k::a::c`,
//! `k::d`; `self` in a list is the path itself; `a::*` a wildcard),
//! `mod x;` declarations (a `mod x { … }` with a body is no file), and `extern crate x`.

use super::tree::{line, text, walk};
use super::{Import, ImportKind};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

pub(super) fn imports(root: Node, bytes: &[u8]) -> Vec<Import> {
    let mut out = Vec::new();
    let mut scopes = HashMap::new();
    walk(root, |node| match node.kind() {
        "use_declaration" => {
            if let Some(argument) = node.child_by_field_name("argument") {
                let start = out.len();
                use_tree(argument, bytes, line(node), &mut out);
                let inline = inline_modules(node, bytes);
                for import in &mut out[start..] {
                    let first = import.spec.split("::").next().unwrap_or_default();
                    if !first.is_empty() && in_scope(node, first, bytes, &mut scopes) {
                        import.spec = format!("self::{}", import.spec);
                    }
                    import.spec = from_file(&import.spec, &inline);
                }
            }
            false
        }
        "mod_item" => {
            if node.child_by_field_name("body").is_none() {
                if let Some(path) = path_attribute(node, bytes) {
                    out.push(Import {
                        line: line(node),
                        spec: path,
                        kind: ImportKind::ModPath,
                    });
                } else if let Some(name) = node.child_by_field_name("name") {
                    out.push(Import {
                        line: line(node),
                        spec: text(name, bytes),
                        kind: ImportKind::ModDecl,
                    });
                }
            }
            true
        }
        "extern_crate_declaration" => {
            if let Some(name) = node.child_by_field_name("name") {
                out.push(Import {
                    line: line(node),
                    spec: text(name, bytes),
                    kind: ImportKind::ExternCrate,
                });
            }
            false
        }
        _ => true,
    });
    out
}

/// Whether `name`, the first segment of a `use` path at `node`, is an item of the module around
/// it rather than a crate: an inline `mod`, an `enum`, `struct`, `trait`, `type` or `union`, or
/// a name another `use` brings in (`use Kind::*` of an enum declared or imported beside it, as
/// Rust 2018 allows). A `mod x;` with a file is left to the resolver, which finds its file.
/// Each scope's names are gathered once (`scopes`, by node id).
fn in_scope(
    node: Node,
    name: &str,
    bytes: &[u8],
    scopes: &mut HashMap<usize, HashSet<String>>,
) -> bool {
    let mut at = node.parent();
    while let Some(scope) = at {
        if matches!(scope.kind(), "source_file" | "declaration_list" | "block") {
            let names = scopes
                .entry(scope.id())
                .or_insert_with(|| names_in(scope, bytes));
            if names.contains(name) {
                return true;
            }
            // An inline module does not see the items around it.
            if scope.kind() == "source_file"
                || scope.parent().is_some_and(|p| p.kind() == "mod_item")
            {
                return false;
            }
        }
        at = scope.parent();
    }
    false
}

/// The names the items directly in `scope` declare (see [`in_scope`]).
fn names_in(scope: Node, bytes: &[u8]) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut cursor = scope.walk();
    for item in scope.named_children(&mut cursor) {
        match item.kind() {
            "mod_item" if item.child_by_field_name("body").is_none() => {}
            "mod_item" | "enum_item" | "struct_item" | "trait_item" | "type_item"
            | "union_item" => {
                if let Some(n) = item.child_by_field_name("name") {
                    names.insert(text(n, bytes));
                }
            }
            "use_declaration" => {
                let mut leaves = Vec::new();
                if let Some(argument) = item.child_by_field_name("argument") {
                    use_tree(argument, bytes, 0, &mut leaves);
                }
                // A type (`Kind`), or a module of this crate (a path from `crate`). A lower-case
                // name from another crate may be a macro or function, which a path does not
                // see (`use quickcheck_macros::quickcheck; use quickcheck::Gen;`), or the crate
                // itself (`use serde::{self}`): not counted.
                for leaf in leaves.iter().filter(|l| l.kind == ImportKind::Use) {
                    if let Some((_, last)) = leaf.spec.rsplit_once("::") {
                        let first = leaf.spec.split("::").next().unwrap_or_default();
                        if last.starts_with(|c: char| c.is_uppercase())
                            || matches!(first, "crate" | "self" | "super")
                        {
                            names.insert(last.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// The leaves of a use tree, each with the path leading to it; a work list, not recursion, so
/// that a hostile nesting of braces cannot exhaust the stack (ADR-0011).
fn use_tree(argument: Node, bytes: &[u8], line: u32, out: &mut Vec<Import>) {
    let mut work: Vec<(Node, String)> = vec![(argument, String::new())];
    while let Some((node, prefix)) = work.pop() {
        let join = |rest: String| -> String {
            match (prefix.is_empty(), rest.is_empty()) {
                (true, _) => rest,
                (false, true) => prefix.clone(),
                (false, false) => format!("{prefix}::{rest}"),
            }
        };
        let mut leaf = |spec: String, kind: ImportKind| {
            if !spec.is_empty() {
                out.push(Import { line, spec, kind });
            }
        };
        match node.kind() {
            "scoped_use_list" => {
                let path = node
                    .child_by_field_name("path")
                    .map(|p| path_text(p, bytes));
                let prefix = join(path.unwrap_or_default());
                if let Some(list) = node.child_by_field_name("list") {
                    push_list(list, &prefix, &mut work);
                }
            }
            "use_list" => push_list(node, &prefix, &mut work),
            "use_as_clause" => {
                if let Some(path) = node.child_by_field_name("path") {
                    leaf(join(path_text(path, bytes)), ImportKind::Use);
                }
            }
            "use_wildcard" => {
                let mut cursor = node.walk();
                let path = node
                    .named_children(&mut cursor)
                    .next()
                    .map(|p| path_text(p, bytes));
                leaf(join(path.unwrap_or_default()), ImportKind::Wildcard);
            }
            "self" => leaf(prefix.clone(), ImportKind::Use),
            "scoped_identifier" | "identifier" | "crate" | "super" | "metavariable" => {
                leaf(join(path_text(node, bytes)), ImportKind::Use);
            }
            _ => {}
        }
    }
}

/// Pushes a use list's items, so that they come out in the order written.
fn push_list<'t>(list: Node<'t>, prefix: &str, work: &mut Vec<(Node<'t>, String)>) {
    let mut cursor = list.walk();
    let items: Vec<Node> = list.named_children(&mut cursor).collect();
    for item in items.into_iter().rev() {
        if item.kind() != "line_comment" && item.kind() != "block_comment" {
            work.push((item, prefix.to_string()));
        }
    }
}

/// A path as written, with whitespace (and any comment inside it) taken out.
fn path_text(node: Node, bytes: &[u8]) -> String {
    let mut parts = String::new();
    walk(node, |n| {
        if n.kind().ends_with("comment") {
            return false;
        }
        if n.child_count() == 0 {
            parts.push_str(&text(n, bytes));
        }
        true
    });
    parts
}

/// The inline modules (`mod tests { … }`) around `node`, outermost first.
fn inline_modules(node: Node, bytes: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "mod_item" {
            if let Some(name) = n.child_by_field_name("name") {
                names.push(text(name, bytes));
            }
        }
        at = n.parent();
    }
    names.reverse();
    names
}

/// A `self::`/`super::` path written inside inline modules, as seen from the file: inside
/// `mod tests { use super::x; }`, `super` is the file's own module (`self::x`).
fn from_file(spec: &str, inline: &[String]) -> String {
    if inline.is_empty() {
        return spec.to_string();
    }
    let (mut depth, rest) = if let Some(rest) = spec.strip_prefix("self") {
        (inline.len(), rest)
    } else if let Some(rest) = spec.strip_prefix("super") {
        (inline.len() - 1, rest)
    } else {
        return spec.to_string();
    };
    if !(rest.is_empty() || rest.starts_with("::")) {
        return spec.to_string();
    }
    let mut rest = rest;
    // Each further `super` climbs one more inline module, then out of the file.
    while let Some(r) = rest.strip_prefix("::super") {
        if depth == 0 {
            return format!("super{r}");
        }
        depth -= 1;
        rest = r;
    }
    let inner: String = inline[..depth].iter().map(|m| format!("::{m}")).collect();
    format!("self{inner}{rest}")
}

/// The path of a `#[path = "…"]` attribute right before the `mod` item `node`, if any.
fn path_attribute(node: Node, bytes: &[u8]) -> Option<String> {
    let mut at = node.prev_named_sibling();
    while let Some(attribute) = at.filter(|a| a.kind() == "attribute_item") {
        let written: String = text(attribute, bytes).split_whitespace().collect();
        if let Some(rest) = written.strip_prefix("#[path=\"") {
            return rest.strip_suffix("\"]").map(String::from);
        }
        at = attribute.prev_named_sibling();
    }
    None
}

/// The names a crate root's own `extern crate` items add to the extern prelude, each with the
/// crate it names: `extern crate foo;` is (`foo`, `foo`), `extern crate foo as bar;` (`bar`,
/// `foo`), `extern crate self as me;` (`me`, `self`). Only items at the top of the file count.
pub(super) fn extern_crates(bytes: &[u8]) -> Vec<(String, String)> {
    let Some(tree) = super::tree::parse(super::Lang::Rust, bytes) else {
        return Vec::new();
    };
    let root = tree.root_node();
    let mut cursor = root.walk();
    let mut out = Vec::new();
    for item in root.named_children(&mut cursor) {
        if item.kind() != "extern_crate_declaration" {
            continue;
        }
        let Some(name) = item.child_by_field_name("name").map(|n| text(n, bytes)) else {
            continue;
        };
        let alias = item.child_by_field_name("alias").map(|a| text(a, bytes));
        out.push((alias.unwrap_or_else(|| name.clone()), name));
    }
    out
}
