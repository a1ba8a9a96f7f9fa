//! The project's own decision records are the tool's first corpus: run on this repository,
//! the full check finds no problems, and each source module answers `why` with its record.

use crate::env::TestEnv;
use serde_json::Value;
use std::path::Path;

/// `context-graph --root <this project> --no-index --json <args…>`: the index is not read or
/// written, so the project's own git dir is left alone.
fn run(args: &[&str]) -> (i32, Value) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = args.to_vec();
    all.push("--no-index");
    let out = TestEnv::new().run_json(root, &all);
    out.assert_finished();
    (out.code.unwrap_or(-1), out.json())
}

#[test]
fn this_repository_has_no_problems_and_no_warnings() {
    let (code, json) = run(&["check"]);
    assert_eq!(code, 0, "{:#}", json["findings"]);
    assert_eq!(
        json["findings"],
        Value::Array(vec![]),
        "{:#}",
        json["findings"]
    );
    let records = json["records"].as_array().expect("records");
    assert!(records.len() >= 4, "at least four decision records");
    for r in records {
        assert_eq!(r["status"], "accepted", "{}", r["id"]);
        assert!(
            !r["governs"].as_array().expect("governs").is_empty(),
            "{} names the source it governs",
            r["id"]
        );
    }
}

#[test]
fn every_module_is_governed_by_a_decision() {
    for module in [
        "src/record.rs",
        "src/graph.rs",
        "src/checks.rs",
        "src/main.rs",
        "src/lib.rs",
        "src/history.rs",
        "src/index/mod.rs",
    ] {
        let (code, json) = run(&["why", module]);
        assert_eq!(code, 0);
        let decisions = json["query"]["decisions"].as_array().expect("decisions");
        assert!(
            decisions.iter().any(|d| d["current"] == true),
            "no current decision governs {module}"
        );
    }
}
