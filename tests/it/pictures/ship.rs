//! `completions` and `schema`: generated from the binary's own definitions (the man pages:
//! `man.rs`).

use super::{corpus, on_path};
use crate::env::TestEnv;
use serde_json::{json, Value};

#[test]
fn completions_for_each_shell_know_the_subcommands_and_their_flags() {
    let env = TestEnv::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = env.run(["completions", shell]);
        run.assert_code(0);
        let script = run.stdout();
        for word in [
            "graph",
            "report",
            "schema",
            "focus",
            "governs",
            "install-hooks",
            "coverage",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
        // The shells present check the script's syntax.
        let check = match shell {
            "bash" | "zsh" => Some((shell, "-n")),
            "fish" => Some(("fish", "--no-execute")),
            _ => None,
        };
        if let Some((program, flag)) = check {
            let Some(program) = on_path(&[program]) else {
                crate::skip::skipped(&format!(
                    "{shell} is not on PATH to check its completion script"
                ));
                continue;
            };
            let file = env.path().join(format!("completion.{shell}"));
            std::fs::write(&file, &script).expect("write the script");
            let out = env
                .command(program)
                .arg(flag)
                .arg(&file)
                .output()
                .expect("run the shell");
            assert!(out.status.success(), "{shell} rejects its script: {out:?}");
        }
    }
    env.run(["completions", "tcsh"]).assert_code(2);
}

fn schema() -> Value {
    let run = TestEnv::new().run(["schema"]);
    run.assert_code(0);
    serde_json::from_slice(&run.stdout).expect("the schema is JSON")
}

#[test]
fn the_schema_is_a_valid_draft_2020_12_schema_of_every_document() {
    let doc = schema();
    assert_eq!(
        doc["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::meta::validate(&doc).expect("valid against its meta-schema");
    let refs: Vec<&str> = doc["anyOf"]
        .as_array()
        .expect("anyOf")
        .iter()
        .map(|r| r["$ref"].as_str().expect("a $ref"))
        .collect();
    assert_eq!(
        refs,
        [
            "#/$defs/Report",
            "#/$defs/IndexStatus",
            "#/$defs/IndexSummary",
            "#/$defs/HooksReport",
            "#/$defs/Graph",
            "#/$defs/WatchRefresh",
            "#/$defs/WriteReport",
            "#/$defs/ScopeReport"
        ]
    );
    // The binary prints the schema the tests validate with.
    assert_eq!(doc, context_graph::output::schema::document());
}

#[test]
fn the_schema_refuses_a_document_that_breaks_it() {
    let validator = jsonschema::draft202012::new(&schema()).expect("compiles");
    let f = corpus();
    let good = f.run_json(&["graph"]).json();
    assert!(validator.is_valid(&good));
    let mut renamed = good.clone();
    renamed["nodes"][0]["name"] = renamed["nodes"][0]["title"].take();
    renamed["nodes"][0]
        .as_object_mut()
        .expect("a node")
        .remove("title");
    assert!(!validator.is_valid(&renamed), "a renamed key must fail");
    let mut wrong = f.run_json(&[]).json();
    wrong["findings"] =
        json!([{"severity": "fatal", "code": "x", "record": "", "path": "", "message": ""}]);
    assert!(!validator.is_valid(&wrong), "an unknown severity must fail");
    assert!(!validator.is_valid(&json!({"unrelated": true})));
}

#[test]
fn every_json_document_kind_validates() {
    // Run::json validates; these are the documents no other test reads.
    let f = corpus();
    f.run_json(&["graph", "--all", "--governs"]).json();
    f.run_json(&[]).json();
    f.run_json(&["why", "src/auth"]).json();
    f.run_json(&["record", "ADR-0002"]).json();
}
