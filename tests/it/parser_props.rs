//! The record parser never panics: not on arbitrary bytes, and not on arbitrary Markdown built
//! from the fragments the parser looks for (frontmatter fences, status forms, tables, code
//! fences, links, ids, CRLF, multi-byte characters), and on reStructuredText built the same way.

use proptest::prelude::*;

// The library items this module reaches into: when `src/` moves them, only these lines change.
use context_graph::parse::parse_record as parse;
use context_graph::text::ids::Prefix;

const FRAGMENTS: &[&str] = &[
    "---",
    "---\n",
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "Status:",
    "Status: ",
    "status: accepted",
    "**Status:**",
    "**Status**:",
    "* Status: ",
    "- Status: ",
    "## Status",
    "## Status\n\n",
    "# ",
    "# ADR 7: ",
    "# ADR-0007: ",
    "# 7. ",
    "##",
    "**",
    "*",
    "|",
    "| Status | Date |",
    "|---|---|",
    "|:-:|",
    "| Accepted | 2024-03-01 |",
    "`",
    "``",
    "```",
    "```markdown\n",
    "~~~",
    "[x](y)",
    "[3. Title](0003-title.md)",
    "[",
    "](",
    "(",
    ")",
    "](../../src/a.py)",
    "](../../../x)",
    "`src/auth/*`",
    "`src/**`",
    "`../x`",
    "`/`",
    "`.`",
    "`..`",
    "`//`",
    "ADR-4",
    "ADR 0004",
    "adr_4",
    "RFC12",
    "DD-4",
    "ADR-99999999999999999999999",
    "0007",
    "Supersedes ",
    "Superseded by ",
    "Replaces ",
    "Replaced by ",
    "Amends ",
    "Extends ",
    "Date: ",
    "2024-01-05",
    "9999-99-99",
    "2024-1-5",
    "id: ",
    "id: \"0012\"",
    "title: ",
    "supersedes: [",
    "supersedes:\n  - ",
    "superseded-by: ",
    "supersededBy: ",
    "tags: [unclosed",
    ": ",
    "- ",
    "\"",
    "'",
    "#",
    "\\",
    "é",
    "日本語",
    "🦀",
    "\u{200b}",
    "\u{feff}",
    "\u{1b}[31m",
    "\u{0}",
    "\u{7}",
    "&&",
    "<!-- -->",
    // reStructuredText's forms, for the `.rst` paths (docs/reading.md, issue 36).
    "====",
    "----\n",
    "~",
    "::",
    "::\n\n    ",
    ".. ",
    "..",
    ".. code-block:: python\n",
    ".. note::\n   :class: x\n",
    ".. _x: ",
    ".. _`x`: ",
    ":doc:`",
    ":ref:`a <b>`",
    ":class:`~",
    "`_",
    "`__",
    "<",
    ">",
    " <../../src/a.py>`_",
    ":Status: ",
    "\n    ",
];

fn markdownish() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
            1 => "[a-zA-Z0-9 ./_-]{0,12}",
            1 => any::<String>().prop_map(|s| s.chars().take(8).collect::<String>()),
        ],
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

fn prefix() -> impl Strategy<Value = Prefix> {
    prop_oneof![Just(Prefix::Adr), Just(Prefix::Rfc), Just(Prefix::Dr)]
}

fn rel_path() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("docs/adr/0001-x.md".to_string()),
        Just("docs/adr/adr-7-x.md".to_string()),
        Just("rfcs/text/no-number.md".to_string()),
        Just("x.md".to_string()),
        Just("docs/design/日本.md".to_string()),
        "[a-z0-9/_-]{1,20}\\.md",
        Just("docs/decisions/0001-x.rst".to_string()),
        "[a-z0-9/_-]{1,20}\\.rst",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_arbitrary_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
        rel in rel_path(),
        prefix in prefix(),
    ) {
        let _ = parse(&rel, &bytes, prefix);
    }

    #[test]
    fn parse_never_panics_on_markdownish_text(
        text in markdownish(),
        rel in rel_path(),
        prefix in prefix(),
    ) {
        let _ = parse(&rel, text.as_bytes(), prefix);
    }

    #[test]
    fn parse_never_panics_on_markdownish_text_after_frontmatter(
        front in markdownish(),
        body in markdownish(),
        crlf in any::<bool>(),
        prefix in prefix(),
    ) {
        let mut text = format!("---\n{front}\n---\n{body}");
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let _ = parse("docs/adr/0001-x.md", text.as_bytes(), prefix);
    }

    #[test]
    fn parse_never_panics_on_rst_text_with_crlf(
        text in markdownish(),
        crlf in any::<bool>(),
        prefix in prefix(),
    ) {
        let text = if crlf { text.replace('\n', "\r\n") } else { text };
        let _ = parse("docs/decisions/0001-x.rst", text.as_bytes(), prefix);
    }

    #[test]
    fn parse_never_panics_on_truncated_valid_records(
        cut in 0usize..400,
        prefix in prefix(),
    ) {
        let record = "---\ntitle: \"T\"\nstatus: accepted\nsupersedes: [1, ADR-2]\n---\n# ADR 7: T\n\n\
                      **Status:** Superseded by [3. T](0003-t.md)\n\n| Status | Date |\n|---|---|\n\
                      | Accepted | 2024-03-01 |\n\n```\nStatus: x\n```\nSee `src/a/**` and ADR 0004 — é 🦀\n";
        let bytes = record.as_bytes();
        let _ = parse("docs/adr/0007-t.md", &bytes[..cut.min(bytes.len())], prefix);
    }
}

#[test]
fn parse_reads_valid_utf8_and_refuses_invalid_utf8() {
    // A sanity check that the property tests call the real parser.
    assert!(parse(
        "docs/adr/0001-x.md",
        b"# 1. X\n\nStatus: Accepted\n",
        Prefix::Adr
    )
    .is_ok());
    assert!(parse("docs/adr/0001-x.md", b"# 1. Caf\xe9\n", Prefix::Adr).is_err());
}
