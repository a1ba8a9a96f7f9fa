//! Unit tests of `parse::relations`.

use super::*;

/// `[superseded_by, supersedes, amends]` of a prose text, as ids.
fn read(text: &str) -> [Vec<String>; 3] {
    let all: Vec<&str> = text.split('\n').collect();
    let lines: Vec<(usize, &str)> = all.iter().copied().enumerate().collect();
    let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let ctx = Ctx {
        folder: "docs/adr",
        prefix: Prefix::Adr,
        own_id: "ADR-0020",
    };
    prose_relations(&lines, &ctx, [&mut a, &mut b, &mut c, &mut d]);
    let ids = |v: Vec<Ref>| -> Vec<String> {
        v.into_iter()
            .map(|r| match r {
                Ref::Id(id) => id,
                Ref::Link { text_id, target } | Ref::Web { text_id, target } => {
                    text_id.unwrap_or(target)
                }
            })
            .collect()
    };
    [ids(a), ids(b), ids(c)]
}

const NONE: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];

fn supersedes(text: &str) -> Vec<String> {
    read(text)[1].clone()
}

#[test]
fn the_word_at_the_clause_start_counts() {
    for text in [
        "Supersedes ADR-3",
        "- **Supersedes** ADR-3",
        "1. Supersedes ADR-3",
        "> Supersedes ADR-3",
        "> [!NOTE]\n> Supersedes ADR-3",
        "> [!WARNING] Supersedes ADR-3",
        "Supercedes [3. Old](0003-old.md)",
        "We moved on. Supersedes ADR-3.",
        "Accepted; supersedes ADR-3",
        "| Supersedes | ADR-3 |",
        "Also supersedes ADR-3",
    ] {
        assert_eq!(supersedes(text), ["ADR-0003"], "{text}");
    }
    for text in [
        "Superseded by ADR-9",
        "- **Superseded by** ADR-9",
        "Superseded: 2019-12-19 by [ADR 9](0009-x.md)",
        "**Superseded** by ADR-9",
        "Superceded by ADR-9",
        "Status: Superseded by ADR-9",
        "# Superseded!\n\nThis RFC is superseded by [ADR 9](./0009-x.md).",
    ] {
        assert_eq!(read(text)[0], ["ADR-0009"], "{text}");
    }
    assert_eq!(
        read("> **Amended by ADR-13; refines ADR-12.**")[2],
        ["ADR-0012"]
    );
}

#[test]
fn the_record_or_its_authors_as_subject_count() {
    for text in [
        "This ADR supersedes ADR-3.",
        "This decision record hereby supersedes ADR-3.",
        "This ADR will supersede ADR-3.",
        "We supersede ADR-3.",
        "We drop the schema, superseding ADR-3.",
        "We have decided to abandon the schema,\nsuperseding [ADR-3](0003-x.md).",
        "ADR-20 supersedes ADR-3.",
    ] {
        assert_eq!(supersedes(text), ["ADR-0003"], "{text}");
    }
    for text in [
        "This RFC has been superseded by ADR-9.",
        "This ADR is now superseded by ADR-9",
        "This ADR was\nsuperseded by ADR-9.",
    ] {
        assert_eq!(read(text)[0], ["ADR-0009"], "{text}");
    }
    assert_eq!(
        read("This ADR **amends** specific clauses of ADR-7 and ADR-9; it does **not**\nsupersede them.")[2],
        ["ADR-0007", "ADR-0009"]
    );
}

#[test]
fn negated_conditional_and_other_subjects_do_not_count() {
    for text in [
        "This ADR does not supersede ADR-3.",
        "This ADR doesn't supersede ADR-3.",
        "This ADR never supersedes ADR-3.",
        "This ADR is not superseded by ADR-3.",
        "This ADR would supersede ADR-3.",
        "If the maintainer would rather this supersede ADR-3, say so.",
        "Decide whether this supersedes ADR-3 or stays an amendment.",
        "1. [ ] Ratify; if ratified, decide whether this\n   supersedes ADR-3 or not.",
        "Revisit if: a future decision accepts or supersedes ADR-3.",
        "Revisit when ADR-8 supersedes ADR-3.",
        "A future decision that supersedes ADR-3 will say so.",
        "ADR-14 amends ADR-3 without superseding ADR-3.",
        "- [Other](0035-x.md) also covers this and supersedes ADR 3.",
        "Supersede ADR-3 with new records.",
        "Superseding ADR-3 would be well-formed.",
        "~~Superseded by ADR-3~~ (withdrawn)",
        "We will not drop it, superseding ADR-3.",
        "This change, if accepted, supersedes ADR-3.",
        "| ADR-2 | Superseded by ADR-3 |",
        "The old design\nsupersedes ADR-3.",
    ] {
        assert_eq!(read(text), NONE, "{text}");
    }
}

#[test]
fn a_list_crosses_a_line_break_only_where_it_is_unfinished() {
    assert_eq!(
        supersedes("This ADR supersedes ADR-3 and\nADR-4, which it merges."),
        ["ADR-0003", "ADR-0004"]
    );
    assert_eq!(
        read("This RFC is superseded by\n[ADR 9](./0009-x.md).")[0],
        ["ADR-0009"]
    );
    assert_eq!(
        read("Superseded by ADR-9\nADR-10 keeps the old schema.")[0],
        ["ADR-0009"]
    );
}

#[test]
fn nothing_counts_under_a_heading_for_options() {
    let text = "## Considered Options\n\nSupersedes ADR-3.\n\n### Option C: Supersede ADR-4 with new records\n\nThis ADR supersedes ADR-5.\n\n## Decision\n\nSupersedes ADR-6.\n\n### Option B: Supersede ADR-7\n\nSupersedes ADR-8.\n\n# Rejected alternatives\n\nSupersedes ADR-9.\n";
    assert_eq!(supersedes(text), ["ADR-0006", "ADR-0009"]);
}

#[test]
fn partial_supersession_is_an_amendment() {
    for text in [
        "This ADR in part supersedes [0003](0003-x.md).",
        "Partially supersedes ADR-3.",
        "Supersedes parts of ADR-3.",
        "This ultimately replaces ADR-3's summary-log row of its write-ordering table.",
    ] {
        assert_eq!(read(text)[2], ["ADR-0003"], "{text}");
        assert!(read(text)[1].is_empty(), "{text}");
    }
    assert_eq!(read("Partly superseded by ADR-3."), NONE);
    assert_eq!(read("Superseded by ADR-3's second half."), NONE);
    assert_eq!(
        read("This replaces ADR-3.")[1],
        ["ADR-0003"],
        "the whole record"
    );
}

#[test]
fn status_values_name_relations_anywhere() {
    let ctx = Ctx {
        folder: "docs/adr",
        prefix: Prefix::Adr,
        own_id: "ADR-0020",
    };
    let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    status_relations(
        "Accepted, superseded by ADR-9",
        &ctx,
        [&mut a, &mut b, &mut c, &mut d],
    );
    status_relations(
        "Not superseded by ADR-8",
        &ctx,
        [&mut a, &mut b, &mut c, &mut d],
    );
    assert_eq!(a, [Ref::Id("ADR-0009".into())]);
    status_relations(
        "Accepted; amended by ADR-31",
        &ctx,
        [&mut a, &mut b, &mut c, &mut d],
    );
    assert_eq!(d, [Ref::Id("ADR-0031".into())]);
}

#[test]
fn a_superseded_status_naming_a_record_without_by_names_its_successor() {
    let ctx = Ctx {
        folder: "docs/adr",
        prefix: Prefix::Adr,
        own_id: "ADR-0004",
    };
    for (status, want) in [
        (
            "⌛️ Superseded [0019](0019-use-bash-go.md)",
            Ref::Link {
                target: "docs/adr/0019-use-bash-go.md".into(),
                text_id: Some("ADR-0019".into()),
            },
        ),
        ("Superseded: ADR-19", Ref::Id("ADR-0019".into())),
    ] {
        let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        status_relations(status, &ctx, [&mut a, &mut b, &mut c, &mut d]);
        assert_eq!(a, [want], "{status}");
        assert!(b.is_empty(), "{status}");
    }
    // No record after it: nothing named.
    let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    status_relations(
        "Superseded (moved to another repository)",
        &ctx,
        [&mut a, &mut b, &mut c, &mut d],
    );
    assert!(a.is_empty() && b.is_empty());
}

/// The amended-by list of a prose text, as ids.
fn amended_by(text: &str) -> Vec<Ref> {
    let all: Vec<&str> = text.split('\n').collect();
    let lines: Vec<(usize, &str)> = all.iter().copied().enumerate().collect();
    let (mut a, mut b, mut c, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let ctx = Ctx {
        folder: "docs/adr",
        prefix: Prefix::Adr,
        own_id: "ADR-0020",
    };
    prose_relations(&lines, &ctx, [&mut a, &mut b, &mut c, &mut d]);
    d
}

#[test]
fn the_forms_people_write() {
    // Perfect tense with its subject, a participle whose ids end the clause, a callout.
    assert_eq!(
        supersedes("This RFC has superseded [X](0003-x.md)."),
        ["docs/adr/0003-x.md"]
    );
    assert_eq!(
        supersedes("Superseding [ADR-0002](0002-x.md)."),
        ["ADR-0002"]
    );
    assert_eq!(
        supersedes("Superseding ADR-2 would be well-formed."),
        Vec::<String>::new()
    );
    assert_eq!(supersedes("Superseded."), Vec::<String>::new());
    assert_eq!(
        supersedes("The cache superseded ADR-4."),
        Vec::<String>::new()
    );
    assert_eq!(
        read("> This RFC was later superseded by [Title](0009-t.md)")[0],
        ["docs/adr/0009-t.md"]
    );
    // Amendments in prose.
    assert_eq!(
        read("It amends ADR-0029 clauses 6 and 11.")[2],
        ["ADR-0029"]
    );
    assert_eq!(
        read("It is filed as an amendment of ADR-0022.")[2],
        ["ADR-0022"]
    );
    assert_eq!(
        read("This record narrows the rule ADR-0021 set.")[2],
        ["ADR-0021"]
    );
    assert_eq!(
        read("If accepted, it amends ADR-0029.")[2],
        Vec::<String>::new()
    );
    assert_eq!(
        read("A later amendment of ADR-0022 may follow.")[2],
        Vec::<String>::new()
    );
    assert_eq!(
        amended_by("> **Amended by ADR-0031**"),
        [Ref::Id("ADR-0031".into())]
    );
}

#[test]
fn a_paragraph_repeating_a_relation_is_read_once_through() {
    // 16 KB of "supersedes `NNNN`" in one sentence: only the first is at the clause's start.
    // Each relation word used to search the whole paragraph before and after it.
    let text: String = (1..1000).map(|i| format!("supersedes `{i:04}` ")).collect();
    assert_eq!(supersedes(&text), vec!["ADR-0001".to_string()]);
    // A clause ending far along still has its own start.
    let long = format!("{text}. Supersedes ADR-0007.");
    assert_eq!(
        supersedes(&long),
        vec!["ADR-0001".to_string(), "ADR-0007".to_string()]
    );
    // An item list of ids after one relation word is read whole.
    let list: Vec<String> = (1..2000).map(|i| format!("ADR-{i:04}")).collect();
    let many = format!("Supersedes {}.", list.join(", "));
    assert_eq!(supersedes(&many).len(), 1999);
}
