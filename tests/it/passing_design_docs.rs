//! A record that links another design document (an RFC it grew from, a spec kit's feature
//! spec) relates to it and does not govern it (docs/reading.md, "Named in passing"; ADR-0017;
//! issue 36): the document is a mention, `why` shows no decision governing it, and a commit
//! that edits only it gets no warning. Code the record names still governs, and so does a
//! document outside a design folder.

use crate::git::GitRepo;
use crate::hooks::{git, install, ok};
use serde_json::{json, Value};

const DATE: &str = "2025-03-01T10:00:00Z";

/// ADR-0001 was extended by RFC 0005 (an inline link), answers RFC 0007 (a reference-style link),
/// follows a spec kit's feature spec, names the code it decides and the operators' guide.
const RECORD: &str = "# 1. Declare what each backend can do\n\n\
    Status: accepted\n\nDate: 2025-02-01\n\n\
    ## Decision\n\nExtended with the [RFC 0005](../rfc/0005-structured-filters.md) \
    filters.\n\n\
    Each backend declares its capabilities in `src/store/capabilities.go`, as \
    [RFC 0007][rfc-7] asked and as `specs/009-capabilities/spec.md` plans. Operators read \
    `docs/guide/backends.md`.\n\n\
    [rfc-7]: ../rfc/0007-optional-service.md\n";

fn repo() -> GitRepo {
    let g = GitRepo::new();
    // The RFCs are another process's, not read as records here (jaeger keeps them so).
    g.write(".context-graph.toml", "[[folders]]\npath = \"docs/adr\"\n")
        .write("docs/adr/0001-capabilities.md", RECORD)
        .write(
            "docs/rfc/0005-structured-filters.md",
            "# RFC 0005\n\nFilters.\n",
        )
        .write(
            "docs/rfc/0007-optional-service.md",
            "# RFC 0007\n\nOptional.\n",
        )
        .write("specs/009-capabilities/spec.md", "# Spec\n\nPlan.\n")
        .write("src/store/capabilities.go", "package store\n")
        .write("docs/guide/backends.md", "# Backends\n");
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn governing(g: &GitRepo, path: &str) -> Value {
    let q: Value = g.run(&["why", path, "--json"]).json();
    q["query"].clone()
}

#[test]
fn a_design_document_a_record_links_is_a_mention_not_governed() {
    let g = repo();
    let check: Value = g.run(&["check", "--json"]).json();
    assert_eq!(
        check["records"][0]["governs"],
        json!(["docs/guide/backends.md", "src/store/capabilities.go"]),
        "the code and the guide govern, the other design documents do not: {check:#}"
    );
    let mentioned: Vec<&str> = check["records"][0]["code_mentions"]
        .as_array()
        .expect("mentions")
        .iter()
        .filter_map(|m| m["path"].as_str())
        .collect();
    for doc in [
        "docs/rfc/0005-structured-filters.md",
        "specs/009-capabilities/spec.md",
    ] {
        assert!(
            mentioned.contains(&doc),
            "{doc} is a mention: {mentioned:?}"
        );
        let q = governing(&g, doc);
        assert_eq!(q["decisions"], json!([]), "{doc}: {q:#}");
        assert_eq!(q["mentioned_by"][0]["id"], "ADR-0001", "{doc}: {q:#}");
    }
    // Linked by reference, it governs no more than linked inline.
    let q = governing(&g, "docs/rfc/0007-optional-service.md");
    assert_eq!(q["decisions"], json!([]), "{q:#}");
    let q = governing(&g, "src/store/capabilities.go");
    assert_eq!(q["decisions"][0]["id"], "ADR-0001", "{q:#}");
}

#[test]
fn a_commit_that_edits_only_another_design_document_is_not_warned() {
    let g = repo();
    install(&g);
    g.write(
        "docs/rfc/0005-structured-filters.md",
        "# RFC 0005\n\nFilters, and two more operators.\n",
    );
    ok(&git(&g, &["add", "-A"], &[]), "git add");
    let err = ok(
        &git(&g, &["commit", "-q", "-m", "Name two more operators"], &[]),
        "git commit",
    );
    assert!(!err.contains("ADR-0001"), "{err}");
    // The code it governs still warns.
    g.write(
        "src/store/capabilities.go",
        "package store\n\nconst All = 1\n",
    );
    ok(&git(&g, &["add", "-A"], &[]), "git add");
    let err = ok(
        &git(&g, &["commit", "-q", "-m", "Declare all"], &[]),
        "git commit",
    );
    assert!(err.contains("ADR-0001"), "{err}");
}
