//! `why PATH`'s related records by names (docs/related.md): a name every repository has in a
//! title (`plugin`) relates its folder when few titles have it; a folder is named by the names
//! of what is inside it, unless the mentions of many records fall inside; a file is named by a
//! mention of the folder it is named for (`useApi/useApi.ts`). Asserted through `why --json`,
//! the index against `--no-index`.

use crate::env::no_index;
use crate::fixture::adr;
use crate::git::GitRepo;
use serde_json::Value;

fn record(repo: &GitRepo, n: u32, slug: &str, title: &str, body: &str) {
    repo.write(
        &format!("docs/adr/{n:04}-{slug}.md"),
        &adr(n, title, "Accepted", Some("2025-01-01"), body),
    );
}

/// - ADR-0001 "Django app plugin extensions": `app/plugins/` is there.
/// - ADR-0002 "Validation engine" names `ValidationResult`, a file in `spi/validator/`.
/// - ADR-0003 names `useApi`, the folder `web/hooks/useApi/` holding `useApi.ts`.
/// - ADR-0004 to ADR-0007 each name a file of `lib/`: four records, too many for `lib/`.
/// - ADR-0008 and ADR-0009 share the title word "popularity"; `jobs/popularity_job.rb` is there.
/// - ADR-0010 "Version file tree diff": `app/filetreediff/` spells three of its words as one.
/// - ADR-0011 "Memory allocation interfaces": `mem/allocator.h` is named for the doing.
/// - ADR-0012 "Registry of connections": `svc/` holds three registries.
/// - ADR-0013 says "Endpoint Picker", a phrase no other record says: `cmd/gw/endpoint_picker.go`.
/// - ADR-0014 "Chunked file transfer" and ADR-0015 "Resumable file transfer": "file" is in
///   three titles, "transfer" in two, and `net/FileTransfer/` spells the two as one.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    record(
        &repo,
        1,
        "plugins",
        "Django app plugin extensions",
        "## Decision\n\nApps extend through entry points.",
    );
    record(
        &repo,
        2,
        "validation",
        "Validation engine",
        "## Decision\n\nEvery check returns a `ValidationResult`.",
    );
    record(
        &repo,
        3,
        "mutations",
        "Preferred way to change data",
        "## Decision\n\nChanges go through `useApi`.",
    );
    for (n, name) in [(4, "Alpha"), (5, "Beta"), (6, "Gamma"), (7, "Delta")] {
        record(
            &repo,
            n,
            &name.to_lowercase(),
            &format!("Keep {name} small"),
            &format!("## Decision\n\nThe `{name}Store` stays small."),
        );
        repo.write(&format!("lib/{name}Store.rs"), "fn f() {}\n");
    }
    record(
        &repo,
        8,
        "popularity-lock",
        "Update popularity without a lock",
        "## Decision\n\nNo lock.",
    );
    record(
        &repo,
        9,
        "popularity-increments",
        "Incremental popularity updates",
        "## Decision\n\nBy day.",
    );
    repo.write("jobs/popularity_job.rb", "class PopularityJob; end\n");
    record(
        &repo,
        10,
        "file-tree-diff",
        "Version file tree diff",
        "## Decision\n\nCompare the manifests of two builds.",
    );
    record(
        &repo,
        11,
        "allocation",
        "Memory allocation interfaces",
        "## Decision\n\nOne interface for every heap.",
    );
    record(
        &repo,
        12,
        "connections",
        "Registry of connections",
        "## Decision\n\nOne registry per tenant.",
    );
    repo.write("svc/ConnectionRegistry.cs", "class ConnectionRegistry {}\n")
        .write("svc/ActivityRegistry.cs", "class ActivityRegistry {}\n")
        .write("svc/registry/Registry.cs", "class Registry {}\n");
    record(
        &repo,
        13,
        "inference",
        "Route by inference",
        "## Decision\n\nThe Endpoint Picker chooses a backend. The Endpoint Picker runs beside.",
    );
    repo.write("cmd/gw/endpoint_picker.go", "package main\n");
    record(
        &repo,
        14,
        "chunked",
        "Chunked file transfer",
        "## Decision\n\nFiles go in chunks.",
    );
    record(
        &repo,
        15,
        "resumable",
        "Resumable file transfer",
        "## Decision\n\nA transfer resumes.",
    );
    repo.write("net/FileTransfer/Agent.cs", "class Agent {}\n")
        .write("net/TransferFile/Agent.cs", "class Agent {}\n")
        .write(
            "src/Acme.FileTransfer.Client/FileTransferOptions.cs",
            "class FileTransferOptions {}\n",
        );
    repo.write("mem/allocator.h", "class Heap;\n")
        .write("mem/allocator_stats.h", "struct Stats;\n");
    repo.write("app/filetreediff/models.py", "class Manifest: pass\n")
        .write("app/difftree.py", "x = 1\n");
    repo.write("app/plugins/base.py", "class Base: pass\n")
        .write(
            "spi/validator/ValidationResult.java",
            "class ValidationResult {}\n",
        )
        .write("spi/validator/Validator.java", "interface Validator {}\n")
        .write("web/hooks/useApi/useApi.ts", "export const useApi = 1;\n")
        .write("web/hooks/useApi/index.ts", "export * from './useApi';\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Start");
    repo
}

/// The ids of `why PATH --json`'s `query.related`, checked equal to `--no-index`'s.
fn related(repo: &GitRepo, path: &str) -> Vec<String> {
    let indexed = repo.run(&["why", path, "--json"]);
    indexed.assert_code(0);
    let scanned = repo.run(&no_index(&["why", path, "--json"]));
    assert_eq!(indexed.stdout(), scanned.stdout(), "why {path}");
    let json: Value = indexed.json();
    crate::related::without_text(&json["query"]["related"])
        .as_array()
        .expect("related is a list")
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_name_every_repository_has_in_one_title_relates_its_folder() {
    let repo = repo();
    assert_eq!(related(&repo, "app/plugins"), ["ADR-0001"]);
}

#[test]
fn a_word_two_titles_share_relates_a_file_it_is_the_whole_name_of_but_for_its_kind() {
    let repo = repo();
    // "popularity" is in two titles; `_job` is a kind of file every repository has.
    assert_eq!(
        related(&repo, "jobs/popularity_job.rb"),
        ["ADR-0008", "ADR-0009"]
    );
}

#[test]
fn a_folder_is_named_by_what_is_inside_it_unless_many_records_name_its_insides() {
    let repo = repo();
    assert_eq!(related(&repo, "spi/validator/"), ["ADR-0002"]);
    // Each of four records names a file of `lib/`: the folder is too broad to tell.
    assert!(related(&repo, "lib").is_empty());
    // Each file is still named by its own record.
    assert_eq!(related(&repo, "lib/GammaStore.rs"), ["ADR-0006"]);
}

#[test]
fn a_file_is_named_by_a_mention_of_the_folder_named_for_it() {
    let repo = repo();
    assert_eq!(related(&repo, "web/hooks/useApi/useApi.ts"), ["ADR-0003"]);
    // Its sibling is not what the folder is named for.
    assert!(related(&repo, "web/hooks/useApi/index.ts").is_empty());
}

#[test]
fn title_words_in_a_row_relate_the_folder_whose_name_spells_them_as_one() {
    let repo = repo();
    let json: Value = repo.run(&["why", "app/filetreediff/", "--json"]).json();
    assert_eq!(
        related(&repo, "app/filetreediff/"),
        ["ADR-0010"],
        "{json:#}"
    );
    let evidence = &json["query"]["related"][0]["evidence"][0];
    assert_eq!(evidence["kind"], "words", "{json:#}");
    assert_eq!(evidence["words"], serde_json::json!(["file tree diff"]));
    // The same words out of their order spell nothing.
    assert!(related(&repo, "app/difftree.py").is_empty());
}

#[test]
fn a_title_word_relates_the_file_named_for_the_doing_when_that_is_its_whole_name() {
    let repo = repo();
    assert_eq!(related(&repo, "mem/allocator.h"), ["ADR-0011"]);
    // Part of a longer name, a stem alone is as often another thing done the same way.
    assert!(related(&repo, "mem/allocator_stats.h").is_empty());
}

#[test]
fn a_kind_of_code_in_a_title_tells_only_as_the_whole_name_or_beside_another_word() {
    let repo = repo();
    assert_eq!(related(&repo, "svc/ConnectionRegistry.cs"), ["ADR-0012"]);
    assert_eq!(related(&repo, "svc/registry/"), ["ADR-0012"]);
    // Another registry: the kind alone, not the thing.
    assert!(related(&repo, "svc/ActivityRegistry.cs").is_empty());
}

#[test]
fn a_phrase_one_record_alone_says_relates_the_one_file_it_names() {
    let repo = repo();
    assert_eq!(related(&repo, "cmd/gw/endpoint_picker.go"), ["ADR-0013"]);
}

#[test]
fn title_words_in_a_row_relate_the_folder_whose_camel_case_parts_spell_them() {
    let repo = repo();
    assert_eq!(
        related(&repo, "net/FileTransfer/"),
        ["ADR-0014", "ADR-0015"]
    );
    let json: Value = repo.run(&["why", "net/FileTransfer/", "--json"]).json();
    assert_eq!(
        json["query"]["related"][0]["evidence"],
        serde_json::json!([{"kind": "words", "words": ["file transfer"]}])
    );
    // The same words out of their order: "transfer" alone, which two titles share.
    assert!(related(&repo, "net/TransferFile/").is_empty());
    // Under a project named so, every file may repeat the project's name.
    assert!(related(&repo, "src/Acme.FileTransfer.Client/FileTransferOptions.cs").is_empty());
}
