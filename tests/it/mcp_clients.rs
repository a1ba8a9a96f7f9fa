//! What a question's `docs` hold (docs/reading.md): `why` and `record` list only the guides
//! citing the records they keep, so `why` on an ungoverned path names no guide, as the MCP
//! `why` tool answers too (docs/agents.md, ADR-0014).

use crate::git::GitRepo;
use serde_json::{json, Value};

/// ADR-0001 governs `src/db/`, ADR-0002 `src/api/`; the README cites ADR-0002 only; `src/other/`
/// is governed by none.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-postgres.md",
        "---\ngoverns: [src/db/]\n---\n# 1. Postgres\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe store orders.\n\n## Decision\n\nPostgres for everything.\n\n## Consequences\n\nOne database to run.\n",
    );
    repo.write(
        "docs/adr/0002-rest.md",
        "---\ngoverns: [src/api/]\n---\n# 2. REST\n\nDate: 2024-02-02\n\n## Status\n\nAccepted\n\n## Decision\n\nThe API is REST.\n",
    );
    repo.write("README.md", "# Shop\n\nThe API follows ADR-0002.\n");
    repo.write("src/db/conn.py", "CONN = None\n");
    repo.write("src/api/routes.py", "ROUTES = []\n");
    repo.write("src/other/x.py", "X = 1\n");
    repo.commit_at("2024-03-02T10:00:00Z", "Ann", "Start");
    repo.write("src/db/conn.py", "CONN = 1\n");
    repo.commit_at("2024-04-02T10:00:00Z", "Bob", "Connect");
    repo
}

/// A `why` answer on an ungoverned path names no record, no finding and no guide.
fn assert_names_nothing(answer: &Value) {
    assert_eq!(answer["query"]["decisions"], json!([]), "{answer:#}");
    for key in ["records", "docs", "findings"] {
        assert_eq!(answer[key], json!([]), "{key}: {answer:#}");
    }
}

#[test]
fn why_on_an_ungoverned_path_names_no_guide_and_a_governed_one_the_guides_citing_it() {
    let repo = repo();
    for no_index in [false, true] {
        let mut args = vec!["why", "src/other/x.py", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_names_nothing(&repo.run(&args).json());
        let mut args = vec!["why", "src/api/routes.py", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_eq!(
            repo.run(&args).json()["docs"],
            json!([{"path": "README.md", "cites": ["ADR-0002"]}])
        );
        let mut args = vec!["record", "ADR-0001", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_eq!(repo.run(&args).json()["docs"], json!([]));
    }
    // The full check still lists every guide.
    assert_eq!(
        repo.run(&["check", "--json"]).json()["docs"],
        json!([{"path": "README.md", "cites": ["ADR-0002"]}])
    );
}
