//! A family of names in a backticked path's last part (`server/protocols/jmap*`, docs/reading.md):
//! the entries it matches govern, not the folder around them (apache/james-project's ADR-0018
//! governed every protocol from "Rename packages `server/protocols/jmap*`").

use crate::env::no_index;
use crate::fixture::record;
use crate::git::GitRepo;
use serde_json::{json, Value};

fn repository() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-new-jmap.md",
        "# 1. Adopt the new JMAP specifications\n\nStatus: Accepted\n\nDate: 2025-03-01\n\n\
## Decision\n\n\
* Rename packages `server/protocols/jmap*` to `jmap-draft`.\n\
* Move the plugins `server/plugins/mail-*` under one folder.\n",
    )
    .write("server/protocols/jmap-draft/Draft.java", "class Draft {}\n")
    .write("server/protocols/jmap-rfc/Rfc.java", "class Rfc {}\n")
    .write(
        "server/protocols/managesieve/Sieve.java",
        "class Sieve {}\n",
    );
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "The JMAP decision");
    repo
}

fn governing(repo: &GitRepo, path: &str) -> Vec<String> {
    let doc: Value = repo.run(&["why", path, "--json"]).json();
    doc["query"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_family_of_names_governs_its_entries_not_their_folder() {
    let repo = repository();
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["server/protocols/jmap*"]), "{r:#}");
    assert_eq!(
        r["missing_paths"],
        json!(["server/plugins/mail-*"]),
        "{r:#}"
    );
    assert_eq!(
        governing(&repo, "server/protocols/jmap-draft/Draft.java"),
        ["ADR-0001"]
    );
    assert_eq!(governing(&repo, "server/protocols/jmap-rfc"), ["ADR-0001"]);
    assert!(governing(&repo, "server/protocols/managesieve/Sieve.java").is_empty());

    // A commit to another protocol is no concern of the decision; one to a JMAP module is.
    repo.write(
        "server/protocols/managesieve/Sieve.java",
        "class Sieve { int x; }\n",
    );
    repo.commit_at("2025-03-03T10:00:00Z", "Ben", "Harden ManageSieve");
    repo.write(
        "server/protocols/jmap-rfc/Rfc.java",
        "class Rfc { int y; }\n",
    );
    repo.commit_at("2025-03-04T10:00:00Z", "Ben", "Fix uploads");
    let review: Value = repo.run(&["review", "HEAD~2..HEAD", "--json"]).json();
    let warned = &review["query"]["decisions"];
    assert_eq!(warned.as_array().unwrap().len(), 1, "{warned:#}");
    let subjects: Vec<&str> = warned[0]["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, ["Fix uploads"], "{warned:#}");
}

#[test]
fn a_family_that_appears_is_no_longer_missing_for_a_warm_answer() {
    let repo = repository();
    let args = ["check", "--json"];
    repo.run(&args).assert_code(0);
    repo.write("server/plugins/mail-queue/Queue.java", "class Queue {}\n");
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(
        r["governs"],
        json!(["server/plugins/mail-*", "server/protocols/jmap*"]),
        "{r:#}"
    );
    assert_eq!(r["missing_paths"], json!([]), "{r:#}");
}

#[test]
fn a_family_with_an_extension_governs_its_files_not_their_folder() {
    // BrighterCommand/Brighter's record 37 lists "Scheduler interfaces:
    // `src/Paramore.Brighter/IAmAMessageScheduler*.cs`" as its own code; it governed every
    // file of `src/Paramore.Brighter/`.
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0037-universal-scheduler-delay.md",
        "# 37. Universal scheduler delay\n\nStatus: Accepted\n\n## Decision\n\n\
         Every producer delays through the scheduler.\n\n## References\n\n\
         - Scheduler interfaces: `src/Core/IAmAMessageScheduler*.cs`\n",
    )
    .write("src/Core/IAmAMessageScheduler.cs", "interface A {}\n")
    .write("src/Core/IAmAMessageSchedulerAsync.cs", "interface B {}\n")
    .write("src/Core/Reactor.cs", "class Reactor {}\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "The scheduler decision");
    let doc = repo.run(&["check", "--json"]).json();
    let r = record(&doc, "ADR-0037");
    assert_eq!(
        r["governs"],
        json!(["src/Core/IAmAMessageScheduler*.cs"]),
        "{r:#}"
    );
    assert_eq!(
        governing(&repo, "src/Core/IAmAMessageSchedulerAsync.cs"),
        ["ADR-0037"]
    );
    assert!(governing(&repo, "src/Core/Reactor.cs").is_empty());
}
