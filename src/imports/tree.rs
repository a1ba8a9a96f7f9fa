//! The grammars, one parse, and the helpers every reader shares: a walk that needs no
//! recursion (a hostile file can nest ten thousand levels deep, ADR-0011), a node's text, a
//! string literal's content.

use super::Lang;
use tree_sitter::{Language, Node, Parser, Tree};

/// The tree-sitter grammar of `lang`.
pub(super) fn language(lang: Lang) -> Language {
    match lang {
        Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        Lang::Python => tree_sitter_python::LANGUAGE.into(),
        // The JavaScript grammar reads JSX too.
        Lang::JavaScript | Lang::Jsx => tree_sitter_javascript::LANGUAGE.into(),
        Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Lang::Go => tree_sitter_go::LANGUAGE.into(),
        Lang::Java => tree_sitter_java::LANGUAGE.into(),
        Lang::Kotlin => tree_sitter_kotlin_ng::LANGUAGE.into(),
    }
}

/// `bytes` parsed as `lang`, or `None` when the grammar does not load into this core.
pub(super) fn parse(lang: Lang, bytes: &[u8]) -> Option<Tree> {
    let mut parser = Parser::new();
    parser.set_language(&language(lang)).ok()?;
    parser.parse(bytes, None)
}

/// Whether `lang`'s grammar loads into this tree-sitter core and parses a line of it.
pub fn grammar_loads(lang: Lang) -> bool {
    let sample: &[u8] = match lang {
        Lang::Rust => b"use a::b;",
        Lang::Python => b"import a",
        Lang::JavaScript | Lang::Jsx | Lang::TypeScript | Lang::Tsx => b"import a from 'a';",
        Lang::Go => b"package a\nimport \"b\"\n",
        Lang::Java => b"import a.B;",
        Lang::Kotlin => b"import a.B\n",
    };
    parse(lang, sample).is_some_and(|t| !t.root_node().has_error())
}

/// Calls `visit` on every node under `root` in document order; where `visit` returns false,
/// the node's children are skipped.
pub(super) fn walk(root: Node, mut visit: impl FnMut(Node) -> bool) {
    let mut cursor = root.walk();
    loop {
        let descend = visit(cursor.node());
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The source text of `node` (bad UTF-8 replaced).
pub(super) fn text(node: Node, bytes: &[u8]) -> String {
    let range = node.byte_range();
    String::from_utf8_lossy(bytes.get(range).unwrap_or_default()).into_owned()
}

/// The 1-based line `node` starts on.
pub(super) fn line(node: Node) -> u32 {
    u32::try_from(node.start_position().row)
        .unwrap_or(u32::MAX - 1)
        .saturating_add(1)
}

/// The content of a string literal node (quotes and a Go raw string's backticks taken off), or
/// `None` for a literal with interpolation (`${x}`, an f-string), which names no one module.
pub(super) fn string_content(node: Node, bytes: &[u8]) -> Option<String> {
    let mut interpolated = false;
    walk(node, |n| {
        if matches!(n.kind(), "template_substitution" | "interpolation") {
            interpolated = true;
        }
        true
    });
    if interpolated {
        return None;
    }
    let raw = text(node, bytes);
    let quote = raw.chars().next()?;
    if !matches!(quote, '"' | '\'' | '`') || raw.len() < 2 || !raw.ends_with(quote) {
        return None;
    }
    Some(raw[1..raw.len() - 1].to_string())
}

/// The first named child of `node` whose kind is one of `kinds`.
pub(super) fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node
        .named_children(&mut cursor)
        .find(|c| kinds.contains(&c.kind()));
    found
}
