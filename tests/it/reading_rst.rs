//! Records written in reStructuredText (docs/reading.md, "Records in reStructuredText"; issue
//! 36): a folder of `.rst` records shaped as Open edX keeps them is read through the same
//! model and checks as Markdown ones, and a folder may mix the two.

use crate::env::no_index;
use crate::fixture::{ids, record};
use crate::git::GitRepo;
use serde_json::{json, Value};

const META: &str = "docs/decisions/0001-record-architecture-decisions.rst";
const CRON: &str = "docs/decisions/0002-run-tasks-with-cron.rst";
const QUEUE: &str = "docs/decisions/0003-run-tasks-on-a-queue.rst";

/// Three records as Open edX writes them: the title underlined with `=`, a `Status` section
/// underlined with `-`, then Context, Decision, Consequences; the third supersedes the second
/// and names its code in an inline literal and in a link.
fn open_edx() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        META,
        "1. Record Architecture Decisions\n================================\n\n\
Status\n------\n\nAccepted\n\n\
Context\n-------\n\nWe would like to keep a historical record of the decisions we make.\n\n\
Decision\n--------\n\nWe will use Architecture Decision Records, as described by Michael Nygard in\n\
`Documenting Architecture\nDecisions <http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions>`__.\n\n\
Consequences\n------------\n\nSee the article, linked above.\n",
    )
    .write(
        CRON,
        "2. Run background tasks with cron\n=================================\n\n\
Status\n------\n\nSuperseded\n\n\
Context\n-------\n\nReports are built at night.\n\n\
Decision\n--------\n\nA cron job runs ``src/tasks/nightly.py`` every night.\n\n\
Consequences\n------------\n\nReports wait for the night.\n",
    )
    .write(
        QUEUE,
        "3. Run background tasks on a queue\n==================================\n\n\
Status\n------\n\nAccepted\n\n\
Context\n-------\n\nThis decision supersedes :doc:`0002-run-tasks-with-cron`: reports can't wait for the night.\n\n\
Decision\n--------\n\nTasks are put on a queue by ``src/tasks/queue.py`` and run by\n\
`the worker <../../src/worker.py>`_.\n\n\
An example of a task, not a path this decision governs::\n\n    enqueue(\"src/examples/sample.py\")\n\n\
.. code-block:: python\n\n    from src.legacy import old  # src/legacy/old.py\n\n\
Consequences\n------------\n\nEvery task goes through the queue.\n\n\
Rejected Alternatives\n---------------------\n\n* Keep the cron job.\n",
    )
    // A Sphinx folder's page listing the records, and a template: neither is a record.
    .write(
        "docs/decisions/index.rst",
        "Decisions\n=========\n\n.. toctree::\n   :glob:\n\n   *\n",
    )
    .write(
        "docs/decisions/0000-template.rst",
        "Title\n=====\n\nStatus\n------\n\nProposed\n",
    )
    .write("src/tasks/queue.py", "QUEUE = []\n")
    .write("src/tasks/nightly.py", "def run():\n    pass\n")
    .write("src/worker.py", "def work():\n    pass\n")
    .write("src/examples/sample.py", "\n")
    .write("src/legacy/old.py", "\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Tasks on a queue");
    repo
}

#[test]
fn rst_records_are_read_like_markdown_ones() {
    let repo = open_edx();
    let doc = repo.run(&["check", "--json", "--no-index"]).json();
    assert_eq!(ids(&doc), ["ADR-0001", "ADR-0002", "ADR-0003"], "{doc:#}");
    let fields = |id: &str| {
        let r = record(&doc, id);
        (
            r["title"].clone(),
            r["status"].clone(),
            r["path"].clone(),
            r["governs"].clone(),
        )
    };
    assert_eq!(
        fields("ADR-0001"),
        (
            json!("Record Architecture Decisions"),
            json!("accepted"),
            json!(META),
            json!([])
        )
    );
    assert_eq!(
        fields("ADR-0002"),
        (
            json!("Run background tasks with cron"),
            json!("superseded"),
            json!(CRON),
            json!(["src/tasks/nightly.py"])
        )
    );
    // The inline literal and the link govern; the literal block's and the code block's
    // paths are examples.
    assert_eq!(
        fields("ADR-0003"),
        (
            json!("Run background tasks on a queue"),
            json!("accepted"),
            json!(QUEUE),
            json!(["src/tasks/queue.py", "src/worker.py"])
        )
    );
    assert_eq!(record(&doc, "ADR-0003")["supersedes"], json!(["ADR-0002"]));
    assert_eq!(record(&doc, "ADR-0002")["successors"], json!(["ADR-0003"]));
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}

#[test]
fn why_and_record_answer_from_an_rst_record_warm_as_cold() {
    let repo = open_edx();
    for path in ["src/tasks/queue.py", "src/worker.py"] {
        let args = ["why", path, "--json"];
        let warm = repo.run(&args);
        let cold = repo.run(&no_index(&args));
        warm.assert_code(0);
        assert_eq!(warm.stdout(), cold.stdout(), "{}", warm.stderr);
        let decisions: Vec<Value> = warm.json()["query"]["decisions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let named: Vec<&Value> = decisions.iter().map(|d| &d["id"]).collect();
        assert_eq!(named, [&json!("ADR-0003")], "{path}: {decisions:#?}");
    }
    let why = repo
        .run(&["why", "src/examples/sample.py", "--json"])
        .json();
    assert_eq!(why["query"]["decisions"], json!([]), "{why:#}");
    let rec = repo.run(&["record", "ADR-0003", "--json"]);
    rec.assert_code(0);
    let doc = rec.json();
    assert_eq!(doc["query"], json!({"record": "ADR-0003"}));
    let r = record(&doc, "ADR-0003");
    assert_eq!(r["path"], json!(QUEUE));
    assert_eq!(r["supersedes"], json!(["ADR-0002"]));
}

#[test]
fn a_folder_may_mix_markdown_and_rst_records() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-postgres.md",
        "# 1. Use Postgres\n\nStatus: Accepted\n\nDate: 2024-01-02\n\n## Decision\n\nThe schema is in `db/schema.sql`.\n",
    )
    .write(
        "docs/adr/0002-use-sqlite-for-tests.rst",
        "=================================\n2. Use SQLite \\& fakes for tests\n=================================\n\n\
:Status: Accepted\n:Date: 2024-02-03\n\n\
Decision\n--------\n\nTests amend `ADR 1 <0001-use-postgres.md>`_: they run on ``tests/db.py``.\n",
    )
    .write("db/schema.sql", "create table t (id int);\n")
    .write("tests/db.py", "DB = ':memory:'\n");
    repo.commit_at("2024-02-03T10:00:00Z", "Ana", "Databases");
    let args = ["check", "--json"];
    let warm = repo.run(&args);
    let cold = repo.run(&no_index(&args));
    assert_eq!(warm.stdout(), cold.stdout(), "{}", warm.stderr);
    let doc = warm.json();
    assert_eq!(ids(&doc), ["ADR-0001", "ADR-0002"], "{doc:#}");
    let r = record(&doc, "ADR-0002");
    assert_eq!(r["title"], json!("Use SQLite & fakes for tests"));
    assert_eq!(r["status"], json!("accepted"));
    assert_eq!(r["date"], json!("2024-02-03"));
    assert_eq!(r["governs"], json!(["tests/db.py"]));
    assert_eq!(r["cites"], json!(["ADR-0001"]));
    assert_eq!(
        record(&doc, "ADR-0001")["governs"],
        json!(["db/schema.sql"])
    );
}

#[test]
fn writing_an_rst_record_is_refused_in_one_line() {
    let repo = open_edx();
    let before = std::fs::read_to_string(repo.path().join(QUEUE)).unwrap();
    for args in [
        &["new", "Run tasks in parallel", "--folder", "docs/decisions"][..],
        &["status", "ADR-0003", "deprecated"],
        &["supersede", "ADR-0003", "Run tasks in parallel"],
    ] {
        let run = repo.run(args);
        run.assert_usage_error();
        assert!(
            run.stderr
                .contains("writing .rst records is not supported yet"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let run = repo.run(&["scope", "ADR-0003", "--add", "src/tasks/nightly.py"]);
    run.assert_usage_error();
    assert!(run.stderr.contains(".rst"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(repo.path().join(QUEUE)).unwrap(),
        before
    );
    let names: Vec<String> = std::fs::read_dir(repo.path().join("docs/decisions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 5, "{names:?}");
}
