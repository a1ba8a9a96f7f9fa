//! docs/reading.md, "Relations in prose" and "Ids that are not records": each shape found in real
//! repositories, on a fixture of its own under `fixtures/reading/` (relations-* and ids-*),
//! compared whole with its `expected.json` and then shape by shape.

use crate::fixture::*;
use serde_json::Value;

/// Asserts the corpus matches its `expected.json`, and that each expected finding's message
/// names what `message_contains` lists.
fn assert_reading(corpus: &str) {
    assert_corpus(corpus);
    let j = json(corpus);
    for want in expected(corpus)["findings"].as_array().expect("findings") {
        let (code, record) = (
            want["code"].as_str().unwrap(),
            want["record"].as_str().unwrap(),
        );
        for part in want["message_contains"].as_array().into_iter().flatten() {
            let part = part.as_str().unwrap();
            assert!(
                findings_of(&j, code, record)
                    .iter()
                    .any(|f| f["message"].as_str().unwrap_or("").contains(part)),
                "{corpus}: no {code} about {record} names {part}: {:#}",
                j["findings"]
            );
        }
    }
}

fn ids_of(v: &Value) -> Vec<String> {
    strings(v)
}

// ---- Relations in prose ----------------------------------------------------------------------

#[test]
fn relations_at_the_start_of_a_line_after_markers() {
    let c = "reading/relations-line-start";
    assert_reading(c);
    let j = json(c);
    // adr-tools' own spelling, "Supercedes [1. …](…)", and a list item in bold.
    assert_eq!(ids_of(&record(&j, "ADR-0003")["supersedes"]), ["ADR-0001"]);
    assert_eq!(ids_of(&record(&j, "ADR-0004")["supersedes"]), ["ADR-0002"]);
    // "*Amends* ADR-0003: …" in a list.
    assert_eq!(ids_of(&record(&j, "ADR-0004")["amends"]), ["ADR-0003"]);
    // "Superseded: 2021-04-09 by [ADR 4](…)" in a `> [!WARNING]` callout.
    assert_eq!(
        ids_of(&record(&j, "ADR-0002")["superseded_by"]),
        ["ADR-0004"]
    );
    // Not a single successor-not-reciprocal: each pair says it on both sides.
    assert!(finding_list(&j).is_empty(), "{:#}", j["findings"]);
}

#[test]
fn superceded_is_a_superseded_status() {
    let r = rec("reading/relations-line-start", "ADR-0001");
    assert_eq!(r["status"], "superseded");
    assert_eq!(ids_of(&r["superseded_by"]), ["ADR-0003"]);
}

#[test]
fn relations_whose_subject_is_the_record_or_its_authors() {
    let c = "reading/relations-subject";
    assert_reading(c);
    let j = json(c);
    // "We have decided to drop JSON Schema …,\nsuperseding [ADR-0001](…)."
    assert_eq!(ids_of(&record(&j, "ADR-0003")["supersedes"]), ["ADR-0001"]);
    assert!(!has_finding(&j, "successor-not-reciprocal", "ADR-0001"));
    // "This decision amends [ADR-0002](…)".
    assert_eq!(ids_of(&record(&j, "ADR-0003")["amends"]), ["ADR-0002"]);
    // "This ADR replaces ADR-0005."
    assert_eq!(ids_of(&record(&j, "ADR-0006")["supersedes"]), ["ADR-0005"]);
}

#[test]
fn a_partial_supersession_is_an_amendment() {
    let j = json("reading/relations-subject");
    // "This ADR in part supersedes [0002](…)": 0002 stays current, amended.
    let r = record(&j, "ADR-0004");
    assert_eq!(ids_of(&r["supersedes"]), Vec::<String>::new());
    assert_eq!(ids_of(&r["amends"]), ["ADR-0002"]);
    assert_eq!(record(&j, "ADR-0002")["status"], "accepted");
    assert!(!has_finding(&j, "superseded-still-current", "ADR-0002"));
}

#[test]
fn a_record_that_says_it_is_superseded_and_has_no_status_is_superseded() {
    // "This ADR has been superseded by [ADR-0006](…)," with no status line.
    let j = json("reading/relations-subject");
    let r = record(&j, "ADR-0005");
    assert_eq!(r["status"], "superseded");
    assert_eq!(r["status_text"], "Superseded by ADR-0006");
    assert!(!has_finding(&j, "superseded-still-current", "ADR-0005"));
    assert!(!has_finding(&j, "status-missing", "ADR-0005"));
    // "**Superseded by** [ADR-0006](…)." in a record's header, also with no status line.
    let j = json("reading/relations-line-start");
    assert_eq!(record(&j, "ADR-0005")["status"], "superseded");
}

#[test]
fn a_superseded_heading_then_this_rfc_is_superseded_by() {
    let c = "reading/relations-superseded-callout";
    assert_reading(c);
    let j = json(c);
    let r = record(&j, "RFC-0012");
    assert_eq!(r["status"], "superseded");
    assert_eq!(ids_of(&r["superseded_by"]), ["RFC-0031"]);
    // What remains is true: RFC-0031 never says it supersedes RFC-0012, and has no status.
    assert!(!has_finding(&j, "superseded-still-current", "RFC-0012"));
    assert!(!has_finding(&j, "status-missing", "RFC-0012"));
    assert!(has_finding(&j, "successor-not-reciprocal", "RFC-0012"));
}

#[test]
fn negated_conditional_considered_and_foreign_relations_do_not_count() {
    let c = "reading/relations-not-relations";
    assert_reading(c);
    let j = json(c);
    for id in ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"] {
        let r = record(&j, id);
        assert_eq!(ids_of(&r["supersedes"]), Vec::<String>::new(), "{id}");
        assert_eq!(ids_of(&r["superseded_by"]), Vec::<String>::new(), "{id}");
        assert_eq!(r["status"], "accepted", "{id}");
    }
    // "ADR-0004 amends ADR-0002 …" in ADR-0003 is ADR-0004's relation, which ADR-0004 states.
    assert_eq!(
        ids_of(&record(&j, "ADR-0003")["amends"]),
        ["ADR-0001", "ADR-0002"]
    );
    assert_eq!(ids_of(&record(&j, "ADR-0004")["amends"]), ["ADR-0002"]);
    assert_eq!(
        ids_of(&record(&j, "ADR-0005")["amends"]),
        Vec::<String>::new()
    );
    for code in ["superseded-still-current", "cites-superseded"] {
        assert!(
            !finding_list(&j).iter().any(|f| f["code"] == code),
            "{code}: {:#}",
            j["findings"]
        );
    }
}

// ---- Ids that are not records ----------------------------------------------------------------

#[test]
fn ids_linked_to_external_urls_are_not_local_citations() {
    let c = "reading/ids-external-links";
    assert_reading(c);
    let j = json(c);
    // A pull request (inline, and reference-style with its definition's label), an IETF RFC
    // (linked, and the same number again unlinked).
    assert_eq!(
        ids_of(&record(&j, "RFC-0108")["cites"]),
        Vec::<String>::new()
    );
    let cites = ids_of(&record(&j, "RFC-0110")["cites"]);
    for gone in ["RFC-0009", "RFC-0017"] {
        assert!(!cites.contains(&gone.to_string()), "{gone} in {cites:?}");
    }
    // A real unknown reference in plain prose is still reported.
    assert_eq!(
        findings(&j),
        [("unknown-reference".to_string(), "RFC-0110".to_string())]
    );
}

#[test]
fn a_link_to_a_page_about_a_local_record_still_cites_it() {
    let j = json("reading/ids-external-links");
    // `[RFC 0088](…/pull/88)`: the pull request the local RFC 88 came from.
    assert_eq!(ids_of(&record(&j, "RFC-0102")["cites"]), ["RFC-0088"]);
    // `[RFC 88](https://…/blob/main/rfcs/0088-….md)`: the record's own page on the forge.
    assert!(ids_of(&record(&j, "RFC-0110")["cites"]).contains(&"RFC-0088".to_string()));
}

#[test]
fn a_kind_the_repository_has_no_records_of_is_not_an_unknown_reference() {
    let c = "reading/ids-unknown-kind";
    assert_reading(c);
    let j = json(c);
    // RFC 2119 and jsonpath-rfc9535 in a repository of ADRs: mentioned, never "unknown".
    assert_eq!(
        findings(&j),
        [("unknown-reference".to_string(), "ADR-0002".to_string())]
    );
    let f = findings_of(&j, "unknown-reference", "ADR-0002");
    assert!(f[0]["message"].as_str().unwrap().contains("ADR-0009"));
    assert!(!f[0]["message"].as_str().unwrap().contains("RFC"));
}

#[test]
fn ids_in_code_spans_are_examples_unless_alone() {
    let c = "reading/ids-code-spans";
    assert_reading(c);
    let j = json(c);
    // `@adr 00123` and `context-graph record ADR-4` are examples; `ADR-0003` is a citation.
    let cites = ids_of(&record(&j, "ADR-0002")["cites"]);
    assert!(cites.contains(&"ADR-0003".to_string()), "{cites:?}");
    for example in ["ADR-0123", "ADR-0004"] {
        assert!(
            !cites.contains(&example.to_string()),
            "{example} in {cites:?}"
        );
    }
}

#[test]
fn an_example_record_path_is_not_a_citation_nor_a_link_to_a_missing_record() {
    let j = json("reading/ids-code-spans");
    let cites = ids_of(&record(&j, "ADR-0002")["cites"]);
    // `docs/adr/0042-my-decision.md` names no file: an example.
    assert!(!cites.contains(&"ADR-0042".to_string()), "{cites:?}");
    // `[draft](0005-sample-debug-logs.md)` links a record file that is missing: no phantom id
    // in `cites`, a `link-to-missing-record` naming the closest record file (docs/reading.md).
    assert!(!cites.contains(&"ADR-0005".to_string()), "{cites:?}");
    assert!(!has_finding(&j, "unknown-reference", "ADR-0002"));
    let found = findings_of(&j, "link-to-missing-record", "ADR-0002");
    assert_eq!(found.len(), 1, "{:#}", j["findings"]);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("docs/adr/0005-sample-debug-logs.md"),
        "{message}"
    );
    assert!(message.contains("docs/adr/000"), "{message}");
}

#[test]
fn a_guide_naming_a_record_only_in_a_code_span_example_does_not_cite_it() {
    let j = json("reading/ids-code-spans");
    // README.md: "Ask `context-graph record ADR-1` …" is a command to type, not a citation;
    // docs/logging.md links the superseded record and is told to update.
    let paths: Vec<&str> = findings_of(&j, "doc-cites-superseded", "ADR-0001")
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["docs/logging.md"]);
}

/// A record renumbered since a link to it was written (GSA-TTS/FAC merged two record sets and
/// `0016-compliance-documentation.md` became `0025-…`): the link, relative or a forge's web
/// address copied from the browser, names as the successor the record of the same name past the
/// number, not the unrelated one that took the old number. The link is still reported, naming
/// where the record is now, and cites nothing, as any link to a file that isn't there; a link
/// to a file renamed under its number names the file with that number.
#[test]
fn a_link_to_a_record_renumbered_since_names_it_as_it_is_now() {
    let f = empty_root();
    let rec = |title: &str, body: &str| format!("# {title}\n\n## Status\n\n{body}\n");
    f.write(
        "docs/adr/0014-compliance-documentation.md",
        rec(
            "14. How to document compliance",
            "Superseded by [ADR 16](https://github.com/o/r/blob/main/docs/adr/0016-compliance-documentation.md)",
        )
        .as_bytes(),
    );
    f.write(
        "docs/adr/0016-file-uploads.md",
        rec("16. File uploads", "Proposed").as_bytes(),
    );
    f.write(
        "docs/adr/0024-store-excel-files.md",
        rec(
            "24. Store Excel files",
            "Accepted\n\nUploads as in [file uploads](0010-file-uploads.md); see [gone](0009-gone.md) \
             and [promise rules](0026-promise-rules.md).",
        )
        .as_bytes(),
    );
    f.write(
        "docs/adr/0026-fibre-promise-cache.md",
        rec("26. Fibre promise cache", "Accepted").as_bytes(),
    );
    f.write(
        "docs/adr/0025-compliance-documentation.md",
        rec("25. How to document compliance", "Accepted").as_bytes(),
    );
    let doc = f.run_json(&["check"]).json();
    let r14 = record_at(&doc, "docs/adr/0014-compliance-documentation.md");
    assert_eq!(ids_of(&r14["superseded_by"]), ["ADR-0025"]);
    // A link to a file that isn't there cites nothing, renumbered or not.
    assert!(ids_of(&r14["cites"]).is_empty(), "{r14:#}");
    let r24 = record_at(&doc, "docs/adr/0024-store-excel-files.md");
    assert!(ids_of(&r24["cites"]).is_empty(), "{r24:#}");
    let not_reciprocal = findings_of(&doc, "successor-not-reciprocal", "ADR-0014");
    assert!(not_reciprocal[0]["message"]
        .as_str()
        .unwrap()
        .contains("to ADR-0025"));
    let missing: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "link-to-missing-record")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(missing.len(), 4, "{missing:?}");
    // Renamed under the same number (celestia-app's `adr-025-promise-rules.md`): that file is
    // the one named, not the nearest spelling.
    assert!(missing
        .iter()
        .any(|m| m.contains("0026-promise-rules.md, which")
            && m.contains("is docs/adr/0026-fibre-promise-cache.md")));
    assert!(missing
        .iter()
        .any(|m| m.contains("0016-compliance-documentation.md, which")
            && m.contains("is docs/adr/0025-compliance-documentation.md")));
    assert!(missing
        .iter()
        .any(|m| m.contains("0010-file-uploads.md, which")
            && m.contains("is docs/adr/0016-file-uploads.md")));
}

/// celestia-app's status lines: "Implemented. Parts of this ADR were superseded by [ADR-020]"
/// is an amendment by record 20, not a supersession (`check` called the record superseded and
/// still current, a problem); "Implemented. Superseded by [ADR-013]" says the record is
/// superseded, whatever word opens it. "Superseded by parts of ADR-5" still names no successor.
#[test]
fn a_status_superseded_in_part_or_after_another_word_reads_as_a_reader_does() {
    let f = empty_root();
    let rec = |n: &str, title: &str, status: &str| {
        f.write(
            &format!("docs/architecture/adr-{n}-{title}.md"),
            format!("# ADR {n}: {title}\n\n## Status\n\n{status}\n\n## Decision\n\nX.\n")
                .as_bytes(),
        );
    };
    rec("005", "layout", "Accepted");
    rec(
        "006",
        "defaults",
        "Implemented. Parts of this ADR were superseded by [ADR-020](./adr-020-square.md).",
    );
    rec("007", "fees", "Accepted. Superseded by parts of ADR-005.");
    rec(
        "009",
        "padding",
        "Implemented. Superseded by [ADR-013](./adr-013-zero.md).",
    );
    rec("013", "zero", "Implemented");
    rec("020", "square", "Implemented");
    let doc = f.run_json(&["check", "--docs", "docs/architecture"]).json();
    let r6 = record(&doc, "ADR-0006");
    assert_eq!(r6["status"], "implemented");
    assert!(ids_of(&r6["superseded_by"]).is_empty(), "{r6:#}");
    assert_eq!(ids_of(&record(&doc, "ADR-0020")["amends"]), ["ADR-0006"]);
    let r7 = record(&doc, "ADR-0007");
    assert_eq!(r7["status"], "accepted");
    assert!(ids_of(&r7["superseded_by"]).is_empty(), "{r7:#}");
    let r9 = record(&doc, "ADR-0009");
    assert_eq!(r9["status"], "superseded");
    assert_eq!(ids_of(&r9["superseded_by"]), ["ADR-0013"]);
    assert!(!has_finding(&doc, "superseded-still-current", "ADR-0006"));
    assert!(!has_finding(&doc, "superseded-still-current", "ADR-0009"));
}

#[test]
fn a_relation_in_frontmatter_written_as_a_link_names_the_linked_record() {
    // ZcashFoundation/zebra: `supersedes: "[ADR-0002](0002-docker-use-gosu.md)"`, a link as
    // the value. It was read as no id, so record 2's "superseded by" was reported as not
    // returned (issue 36).
    let f = empty_root();
    f.write(
        "docs/decisions/devops/0002-docker-use-gosu.md",
        b"---\nstatus: superseded by [ADR-0005](0005-docker-use-setpriv.md)\n---\n\n# Use gosu\n",
    );
    f.write(
        "docs/decisions/devops/0005-docker-use-setpriv.md",
        b"---\nstatus: accepted\nsupersedes: \"[ADR-0002](0002-docker-use-gosu.md)\"\nrelated: [\"[the tests](../testing/0006-test-layout.md)\"]\n---\n\n# Use setpriv\n\nA status reads `superseded by [ADR-0009](0009-example.md)`.\n",
    );
    f.write(
        "docs/decisions/testing/0006-test-layout.md",
        b"---\nstatus: accepted\n---\n\n# Test layout\n",
    );
    let doc = f.run_json(&["check", "--docs", "docs/decisions"]).json();
    let setpriv = records(&doc)
        .iter()
        .find(|r| r["path"] == "docs/decisions/devops/0005-docker-use-setpriv.md")
        .expect("the setpriv record");
    assert_eq!(ids_of(&setpriv["supersedes"]), ["ADR-0002"], "{setpriv:#}");
    assert_eq!(ids_of(&setpriv["relates_to"]), ["ADR-0006"], "{setpriv:#}");
    assert!(
        !has_finding(&doc, "successor-not-reciprocal", "ADR-0002"),
        "{:#}",
        doc["findings"]
    );
    // A link inside a code span is code (kuma's record 1 shows a status's shape so).
    assert!(finding_list(&doc).is_empty(), "{:#}", doc["findings"]);
}

/// A relation written as a forge's address of the record, bare, as GitHub makes a link of it
/// (kumahq/kuma's record 77: "Supersedes: https://github.com/kumahq/kuma/blob/master/docs/madr/
/// decisions/036-internal-listeners.md"), or in angle brackets: read as the link would be, so
/// the record it supersedes is reciprocated. Another address names nothing.
#[test]
fn a_forge_address_written_bare_names_the_record() {
    let rec = |title: &str, body: &str| format!("# {title}\n\n## Status\n\n{body}\n");
    for written in [
        "https://github.com/o/r/blob/master/docs/adr/0001-listeners.md",
        "<https://github.com/o/r/blob/master/docs/adr/0001-listeners.md>.",
    ] {
        let f = empty_root();
        f.write(
            "docs/adr/0001-listeners.md",
            rec("1. Listeners", "Superseded by [ADR-2](0002-naming.md)").as_bytes(),
        );
        f.write(
            "docs/adr/0002-naming.md",
            rec("2. Naming", &format!("Accepted\n\nSupersedes: {written}")).as_bytes(),
        );
        let doc = f.run_json(&["check"]).json();
        let r2 = record_at(&doc, "docs/adr/0002-naming.md");
        assert_eq!(ids_of(&r2["supersedes"]), ["ADR-0001"], "{written}: {r2:#}");
        assert!(
            findings_of(&doc, "successor-not-reciprocal", "ADR-0001").is_empty(),
            "{written}"
        );
    }
    let f = empty_root();
    f.write(
        "docs/adr/0001-listeners.md",
        rec("1. Listeners", "Accepted").as_bytes(),
    );
    f.write(
        "docs/adr/0002-naming.md",
        rec(
            "2. Naming",
            "Accepted\n\nSupersedes: https://example.com/notes/listeners",
        )
        .as_bytes(),
    );
    let doc = f.run_json(&["check"]).json();
    let r2 = record_at(&doc, "docs/adr/0002-naming.md");
    assert!(ids_of(&r2["supersedes"]).is_empty(), "{r2:#}");
}
