use super::*;

/// The role of each path `text` names, in naming order (a record in `docs/adr`).
fn roles(text: &str) -> Vec<(String, Option<String>)> {
    let lines: Vec<(usize, &str)> = text.split('\n').enumerate().collect();
    prose_paths(&lines, "docs/adr")
        .into_iter()
        .map(|p| (p.path, p.passing))
        .collect()
}

fn passing(text: &str, path: &str) -> Option<String> {
    roles(text)
        .into_iter()
        .find(|(p, _)| p == path)
        .unwrap_or_else(|| panic!("{path} not named in {text:?}"))
        .1
}

#[test]
fn examples_comparisons_reuse_and_pointers_are_passing() {
    let cases = [
        (
            "Handlers live in one place, e.g. `web/handlers/`.",
            "web/handlers",
            "e.g.",
        ),
        (
            "Pick a store, for example `store/pg.go`.",
            "store/pg.go",
            "for example",
        ),
        (
            "Shared code such as `lib/retry.rs` stays put.",
            "lib/retry.rs",
            "such as",
        ),
        (
            "It is similar to `billing/ledger.rb`.",
            "billing/ledger.rb",
            "similar to",
        ),
        (
            "A new package has the same API and exports as `packages/web/` but its own parts.",
            "packages/web",
            "the same api and exports as",
        ),
        (
            "Tokens expire, as in `auth/session.go`.",
            "auth/session.go",
            "as in",
        ),
        (
            "A queue like `jobs/mailer.py` keeps retries.",
            "jobs/mailer.py",
            "like",
        ),
        (
            "`gen/` is its own module deliberately, following `tools/go.mod`, so nothing leaks.",
            "tools/go.mod",
            "following",
        ),
        (
            "The cache reuses the existing [`cache`](../../cache) module.",
            "cache",
            "reuses the existing",
        ),
        (
            "We keep the existing `api/v1/` routes.",
            "api/v1",
            "the existing",
        ),
        (
            "See `notes/design.txt` for the numbers.",
            "notes/design.txt",
            "see",
        ),
        (
            "Read `guides/setup.md` first.",
            "guides/setup.md",
            "read … first",
        ),
        (
            "The flow is described in `flows/payment.yaml`.",
            "flows/payment.yaml",
            "described in",
        ),
        (
            "It is documented in [the guide](../guide/x.md).",
            "docs/guide/x.md",
            "documented in",
        ),
    ];
    for (text, path, phrase) in cases {
        assert_eq!(passing(text, path).as_deref(), Some(phrase), "{text}");
    }
}

#[test]
fn a_possessive_part_of_a_file_is_passing() {
    let t = "The tool creates custom entries in `package.json`'s `scripts` section.";
    assert_eq!(
        passing(t, "package.json").as_deref(),
        Some("`package.json`'s … section")
    );
}

#[test]
fn the_subject_of_the_decision_governs() {
    for (text, path) in [
        ("We will move auth into `src/auth/`.", "src/auth"),
        ("`src/auth/` owns sessions.", "src/auth"),
        (
            "We will replace the existing `src/legacy/` handler.",
            "src/legacy",
        ),
        ("We would like `src/core/` to own parsing.", "src/core"),
        (
            "Like the `pkg/billing/` service, move `pkg/auth/` to gRPC.",
            "pkg/auth",
        ),
        ("Read `src/conf.rs` at start-up.", "src/conf.rs"),
        (
            "We change the following files: `src/wire.rs` and its tests.",
            "src/wire.rs",
        ),
        (
            "Our e.g. list ends here. `src/next.rs` handles the rest.",
            "src/next.rs",
        ),
    ] {
        assert_eq!(passing(text, path), None, "{text}");
    }
}

#[test]
fn a_path_named_once_as_the_subject_governs_though_also_named_in_passing() {
    let t = "We move parsing to `src/parse/`.\n\nSee `src/parse/` for more.";
    assert_eq!(passing(t, "src/parse"), None);
}

#[test]
fn documentation_linked_in_context_or_references_is_passing() {
    let t = "# Use a queue\n\n## Context\n\nUsers read [the user guide](../user/queues.md).\n\
             The worker is `src/worker.rs`.\n\n## Decision\n\nWe write [the guide](../ops.md).\n\n\
             ## References\n\n- [Runbook](../../runbook/)\n- `docs/howto/`\n";
    assert_eq!(
        passing(t, "docs/user/queues.md").as_deref(),
        Some("documentation linked in Context")
    );
    assert_eq!(passing(t, "src/worker.rs"), None);
    assert_eq!(passing(t, "docs/ops.md"), None);
    // Under References anything is a pointer, code or documentation (issue 36).
    assert_eq!(
        passing(t, "docs/howto").as_deref(),
        Some("linked in References")
    );
    assert_eq!(
        passing(t, "runbook").as_deref(),
        Some("linked in References")
    );
}

#[test]
fn options_not_chosen_are_passing() {
    let t = "# Store\n\n## Considered Options\n\n* Keep `store/files.go`\n* Use `store/pg.go`\n\n\
             ## Decision Outcome\n\nChosen option: \"Use `store/pg.go`\", because it scales.\n\n\
             ## Pros and Cons of the Options\n\n### Keep files\n\n* Good, because `store/files.go` \
             exists\n\n### Use pg\n\n* Good, because `db/schema.sql` is there\n\n\
             ## Alternatives\n\nA cache in `cache/lru.go` was rejected.\n";
    let r = roles(t);
    let role = |p: &str| r.iter().find(|(x, _)| x == p).unwrap().1.clone();
    assert!(role("store/files.go").is_some(), "{r:?}");
    assert_eq!(role("store/pg.go"), None, "{r:?}");
    assert!(role("cache/lru.go").is_some(), "{r:?}");
}

#[test]
fn a_numbered_option_the_decision_did_not_name_is_passing() {
    // kuma's SNI record: its options are headings under "Design", and its Decision section
    // begins "Option 1: …".
    let t = "## Design\n\n### Option 1: New SNI format\n\nBuild it in `pkg/sni/kri.go`.\n\n\
             ### Option 2: Improve existing SNI format\n\nThe `pkg/xds/envoy/tls` package \
             exposed a helper.\n\n## Decision\n\nOption 1: New SNI format.\n";
    assert_eq!(passing(t, "pkg/sni/kri.go"), None);
    assert_eq!(
        passing(t, "pkg/xds/envoy/tls").as_deref(),
        Some("an option not chosen (Option 2: Improve existing SNI format)")
    );
    // "We chose option B" names it too; a Decision section naming no option decides nothing.
    let chose = t.replace(
        "Option 1: New SNI format.\n",
        "We chose option 2, for now.\n",
    );
    assert!(passing(&chose, "pkg/sni/kri.go").is_some());
    assert_eq!(passing(&chose, "pkg/xds/envoy/tls"), None);
    let silent = t.replace("Option 1: New SNI format.\n", "The new format.\n");
    assert_eq!(passing(&silent, "pkg/xds/envoy/tls"), None);
    assert_eq!(passing(&silent, "pkg/sni/kri.go"), None);
}

#[test]
fn options_with_no_chosen_one_govern_unless_rejected() {
    let t =
        "## Considered Options\n\n* `a/one.rs`\n* `b/two.rs`\n\n## Rejected\n\n* `c/three.rs`\n";
    assert_eq!(passing(t, "a/one.rs"), None);
    assert!(passing(t, "c/three.rs").is_some());
}

#[test]
fn hostile_text_is_read_without_panic() {
    let long = "`a/b.rs` e.g. ".repeat(5000);
    assert_eq!(roles(&long).len(), 1);
    for t in [
        "#",
        "# \n`x/y`'s",
        "é`é/é`é",
        "[`a/b`](",
        "\n\n;;`a/b.c`;",
        "1. `a/b.c`",
    ] {
        let _ = roles(t);
    }
}
