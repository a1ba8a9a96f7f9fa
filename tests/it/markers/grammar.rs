//! The marker grammar through the binary: each rule with a file that declares and one that
//! does not (ADR-0009). Files are written untracked: a file git does not ignore counts.

use super::{declared, declared_ids, records_repo};
use context_graph::text::marker::WINDOW;

#[test]
fn a_marker_on_its_own_comment_line_declares_and_a_trailing_comment_does_not() {
    let repo = records_repo();
    repo.write(
        "src/own.ts",
        "// Sync.\n// @adr 0012\nexport function f() {}\n",
    )
    .write("src/trailing.ts", "export function f() {} // @adr 0012\n");
    assert_eq!(
        declared(&repo, "src/own.ts"),
        [("ADR-0012".to_string(), vec!["src/own.ts:2".to_string()])]
    );
    assert!(declared(&repo, "src/trailing.ts").is_empty());
}

#[test]
fn a_marker_inside_a_string_literal_is_not_one() {
    let repo = records_repo();
    repo.write("src/literal.py", "s = \"# @adr 12\"\nt = '''\n'''\n")
        .write("src/comment.py", "# @adr 12\ns = 1\n");
    assert!(declared(&repo, "src/literal.py").is_empty());
    assert_eq!(declared_ids(&repo, "src/comment.py"), ["ADR-0012"]);
}

#[test]
fn every_introducer_begins_a_marker_and_the_word_gives_the_kind() {
    let repo = records_repo();
    let cases = [
        ("a.c", "/* @adr 12 */\n", "ADR-0012"),
        ("b.c", " * @adr ADR-0012\n", "ADR-0012"),
        ("c.sql", "-- @adr 0012\n", "ADR-0012"),
        ("d.lisp", ";; @rfc 7\n", "RFC-0007"),
        ("e.tex", "% @dr 3\n", "DR-0003"),
        ("f.html", "<!-- @adr 12 -->\n", "ADR-0012"),
        ("g.py", "\"\"\"@adr 12\"\"\"\n", "ADR-0012"),
        ("h.py", "'''@rfc RFC-0007'''\n", "RFC-0007"),
        ("i.rs", "//! @adr 12\n", "ADR-0012"),
        ("j.rs", "\t/// @ADR 12\n", "ADR-0012"),
        ("k.sh", "# @dr DD-3\n", "DR-0003"),
    ];
    for (name, text, _) in cases {
        repo.write(&format!("src/intro/{name}"), text);
    }
    // What looks close but is not a marker: no introducer, another word, no space, no id.
    repo.write("src/intro/not1.txt", "@adr 12\n")
        .write("src/intro/not2.txt", "- @adr 12\n")
        .write("src/intro/not3.txt", "// @adrs 12\n")
        .write("src/intro/not4.txt", "// @adr:12\n")
        .write("src/intro/not5.txt", "// see @adr 12\n")
        .write("src/intro/not6.txt", "// @adr payments:0012\n");
    for (name, _, id) in cases {
        let path = format!("src/intro/{name}");
        assert_eq!(declared_ids(&repo, &path), [id], "{path}");
    }
    for n in 1..=6 {
        let path = format!("src/intro/not{n}.txt");
        assert!(declared(&repo, &path).is_empty(), "{path}");
    }
}

#[test]
fn a_comma_continues_the_list_and_a_space_ends_it() {
    let repo = records_repo();
    repo.write("src/list.rs", "// @adr 0012, 0003,1\n")
        .write("src/space.rs", "// @adr 0012 0003\n");
    assert_eq!(
        declared_ids(&repo, "src/list.rs"),
        ["ADR-0001", "ADR-0003", "ADR-0012"]
    );
    assert_eq!(declared_ids(&repo, "src/space.rs"), ["ADR-0012"]);
}

#[test]
fn markers_in_fenced_blocks_of_markdown_are_examples() {
    let repo = records_repo();
    let text = "# Guide\n\n<!-- @adr 1 -->\n\n```rust\n// @adr 3\n```\n\n~~~\n# @adr 12\n~~~\n";
    repo.write("notes/guide.md", text)
        .write("notes/guide.txt", text);
    assert_eq!(
        declared(&repo, "notes/guide.md"),
        [("ADR-0001".to_string(), vec!["notes/guide.md:3".to_string()])]
    );
    assert_eq!(
        declared_ids(&repo, "notes/guide.txt"),
        ["ADR-0001", "ADR-0003", "ADR-0012"],
        "outside Markdown a fence is no example"
    );
}

/// Filler lines up to `len` bytes.
fn filler(len: usize) -> String {
    let mut text = String::new();
    while text.len() + 12 <= len {
        text.push_str("// filler.\n");
    }
    text.push_str(&" ".repeat(len - text.len()));
    text
}

#[test]
fn only_the_first_8192_bytes_are_read() {
    let repo = records_repo();
    let mut late = filler(WINDOW);
    late.push_str("\n// @adr 12\n");
    let mut early = String::from("// @adr 12\n");
    early.push_str(&filler(3 * WINDOW));
    repo.write("src/late.rs", &late)
        .write("src/early.rs", &early);
    assert!(declared(&repo, "src/late.rs").is_empty());
    assert_eq!(declared_ids(&repo, "src/early.rs"), ["ADR-0012"]);
}

#[test]
fn a_marker_line_the_window_cuts_is_dropped() {
    let repo = records_repo();
    // The window ends inside `00123`: what it holds of the line, `@adr 0012`, names another
    // record that exists.
    let mut cut = filler(WINDOW - 13);
    cut.push('\n');
    cut.push_str("// @adr 00123\n");
    assert_eq!(&cut.as_bytes()[WINDOW - 12..WINDOW], b"// @adr 0012");
    // The same first 8192 bytes, as a whole file: its last line is whole.
    let whole = cut[..WINDOW].to_string();
    repo.write("src/cut.rs", &cut).write("src/whole.rs", &whole);
    assert!(
        declared(&repo, "src/cut.rs").is_empty(),
        "the severed line counts"
    );
    assert_eq!(declared_ids(&repo, "src/whole.rs"), ["ADR-0012"]);
    assert_eq!(
        declared(&repo, "."),
        [("ADR-0012".to_string(), vec!["src/whole.rs:745".to_string()])],
        "only the whole line declares"
    );
}

#[test]
fn a_binary_file_has_no_markers() {
    let repo = records_repo();
    repo.write("assets/blob.bin", "// @adr 12\n\0\u{1}\u{2}binary\n")
        .write("assets/text.bin", "// @adr 12\n\u{1}\u{2}control\n");
    assert!(declared(&repo, "assets/blob.bin").is_empty());
    assert_eq!(declared_ids(&repo, "assets/text.bin"), ["ADR-0012"]);
}

#[test]
fn the_marker_word_and_the_id_are_read_in_any_case() {
    let repo = records_repo();
    repo.write("src/upper.rs", "// @ADR adr-12\n")
        .write("src/other.rs", "// @ADRX 12\n");
    assert_eq!(declared_ids(&repo, "src/upper.rs"), ["ADR-0012"]);
    assert!(declared(&repo, "src/other.rs").is_empty());
}

#[test]
fn a_file_declares_each_record_once_at_its_first_line() {
    let repo = records_repo();
    repo.write("src/twice.rs", "// @adr 12\n// @adr 3, 12\n");
    assert_eq!(
        declared(&repo, "src/twice.rs"),
        [
            ("ADR-0003".to_string(), vec!["src/twice.rs:2".to_string()]),
            ("ADR-0012".to_string(), vec!["src/twice.rs:1".to_string()]),
        ]
    );
}
