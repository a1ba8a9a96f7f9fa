//! A record file with `#` in its name is read, as JabRef's
//! `0024-use-#-as-indicator-for-BibTeX-string-constants.md` is; links to it find it, written
//! as they are or with `%23`; its declared path and a marker naming it answer `why`
//! (issue 36, ADR-0001's amendment of 2026-12-05).

use crate::git::GitRepo;
use serde_json::Value;

const NAME: &str = "0024-use-#-as-indicator-for-BibTeX-string-constants.md";

fn repo() -> GitRepo {
    let g = GitRepo::new();
    g.write(
        &format!("docs/decisions/{NAME}"),
        "---\nstatus: accepted\n---\n\n# Use `#` as indicator for BibTeX string constants\n\n\
         ## Decision\n\nThe writer marks string constants with `#`, in \
         `src/bib/FieldWriter.java`.\n",
    )
    .write(
        "docs/decisions/0025-store-strings.md",
        "---\nstatus: accepted\n---\n\n# Store strings\n\n## Context\n\n\
         This builds on [ADR-0024](0024-use-%23-as-indicator-for-BibTeX-string-constants.md) \
         and [its decision](./0024-use-#-as-indicator-for-BibTeX-string-constants.md#decision).\n\n\
         ## Decision\n\nKeep them in `src/bib/Strings.java`.\n",
    )
    .write(
        "docs/decisions/_issue#-title.md",
        "# [short title]\n\nStatus: proposed\n",
    )
    .write("src/bib/FieldWriter.java", "class FieldWriter {}\n")
    .write("src/bib/Strings.java", "class Strings {}\n")
    .write("src/bib/Parser.java", "// @adr 0024\nclass Parser {}\n");
    g.commit_at("2024-01-02T10:00:00Z", "Ann", "records and code");
    g
}

#[test]
fn a_record_with_a_hash_in_its_name_is_read_and_linked() {
    let g = repo();
    let j: Value = g.run(&["check", "--json"]).json();
    let ids: Vec<(&str, &str)> = j["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [
            ("ADR-0024", &*format!("docs/decisions/{NAME}")),
            ("ADR-0025", "docs/decisions/0025-store-strings.md"),
        ],
        "the `#` of a title is read; `_issue#-title.md` stays a template: {j:#}"
    );
    let r25 = crate::fixture::record(&j, "ADR-0025");
    assert_eq!(
        crate::fixture::list(r25, "cites"),
        ["ADR-0024"],
        "both links, `%23` and `#`, reach the record: {j:#}"
    );
    let problems: Vec<(String, String)> = crate::fixture::findings(&j)
        .into_iter()
        .filter(|(code, _)| code.contains("link") || code.contains("unknown"))
        .collect();
    assert!(problems.is_empty(), "no broken link: {j:#}");

    let record = g.run(&["record", "ADR-0024", "--json"]);
    record.assert_code(0);
    let rj = record.json();
    assert_eq!(rj["query"]["record"], "ADR-0024", "{rj:#}");
    assert_eq!(
        crate::fixture::record(&rj, "ADR-0024")["path"],
        format!("docs/decisions/{NAME}"),
        "{rj:#}"
    );

    for file in ["src/bib/FieldWriter.java", "src/bib/Parser.java"] {
        let why = g.run(&["why", file, "--json"]);
        why.assert_code(0);
        let q = why.json();
        let ids: Vec<&str> = q["query"]["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["ADR-0024"], "{file}: {q:#}");
    }
}

#[test]
fn a_language_named_with_a_hash_is_a_title_not_a_placeholder() {
    // DFE-Digital/get-an-identity's `0005-use-dotNet-C#-for-get-an-identity-auth-server.md`
    // was taken for a template (`issue#`) and not read (issue 36).
    let g = GitRepo::new();
    g.write(
        "docs/architecture/decisions/0005-use-dotNet-C#-for-get-an-identity-auth-server.md",
        "# 5. Use dotNet C# for the auth server\n\nDate: 2022-02-01\n\n## Status\n\nAccepted\n",
    )
    .write(
        "docs/architecture/decisions/0006-write-it-in-F#.md",
        "# 6. Write the rules in F#\n\n## Status\n\nProposed\n",
    )
    .write(
        "docs/architecture/decisions/0000-issue#-title.md",
        "# [short title]\n\n## Status\n\nproposed\n",
    );
    g.commit_at("2024-01-02T10:00:00Z", "Ann", "records");
    let j: Value = g.run(&["check", "--json"]).json();
    let ids: Vec<&str> = j["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ADR-0005", "ADR-0006"], "{j:#}");
}

#[test]
fn a_record_with_no_extension_is_said_not_read() {
    // get-an-identity's `0006-use-servicebus-for-http-webhook-notifications`, beside its
    // `.md` records: a reader counts six records, the tool read five and said nothing.
    let g = GitRepo::new();
    g.write(
        "docs/architecture/decisions/0005-use-dotnet.md",
        "# 5. Use dotNet\n\n## Status\n\nAccepted\n",
    )
    .write(
        "docs/architecture/decisions/0006-use-servicebus-for-webhooks",
        "# 6. Use Service Bus for webhooks\n\n## Status\n\nAccepted\n",
    )
    .write("docs/architecture/decisions/Makefile", "all:\n")
    .write("docs/architecture/decisions/2024_notes", "notes\n");
    g.commit_at("2024-01-02T10:00:00Z", "Ann", "records");
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let j: Value = g.run(args).json();
        assert_eq!(j["records"].as_array().unwrap().len(), 1, "{j:#}");
        assert_eq!(
            j["notes"],
            serde_json::json!([
                "docs/architecture/decisions/0006-use-servicebus-for-webhooks: numbered as a record but has no extension, not read (name it `.md`)"
            ]),
            "{j:#}"
        );
    }
}
