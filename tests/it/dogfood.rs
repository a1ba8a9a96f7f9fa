//! The project's own decision records are the tool's first corpus: run on this repository,
//! the full check finds no problems, and every source module answers `why` with a current
//! decision. The modules are found by walking `src/` (and `migrations/`, which ADR-0006
//! governs), so a new module that no decision governs fails here.
//!
//! Every module's `why` is answered from one scan: the library reads the records and the
//! markers once, and picks each module's decisions with the function `why --no-index` picks
//! them with; a few modules are also asked of the binary, whose answer must be the same. (One
//! debug process per module, each scanning the repository anew, took a quarter of an hour:
//! issue 40.)

use crate::env::TestEnv;
use crate::fixture::copy_dir;
use context_graph::app::decisions_with_markers;
use context_graph::model::Decision;
use context_graph::{Ask, Options, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The project's root.
fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How long one run on the whole project may take: a debug build scans all of it, which a
/// loaded machine can stretch past the usual limit for a hang.
const WHOLE_PROJECT: Duration = Duration::from_secs(120);

/// `context-graph --root <root> --no-index --json <args…>`: the index is not read or written,
/// so the project's own git dir is left alone.
fn run_at(root: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.push("--no-index");
    let out = TestEnv::new()
        .with_timeout(WHOLE_PROJECT)
        .run_json(root, &all);
    out.assert_finished();
    (out.code.unwrap_or(-1), out.json())
}

/// The same, on this repository.
fn run(args: &[&str]) -> (i32, Value) {
    run_at(&project(), args)
}

/// The folders whose `.rs` files are modules a decision must govern: `src/`, and `migrations/`
/// when there is one.
const MODULE_FOLDERS: &[&str] = &["src", "migrations"];

/// Every `.rs` file under the module folders of `root`, as a `/`-separated path relative to
/// it, sorted.
fn modules(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for top in MODULE_FOLDERS {
        let mut todo = vec![PathBuf::from(top)];
        if !root.join(top).is_dir() {
            assert_ne!(*top, "src", "no src/ in {}", root.display());
            continue;
        }
        while let Some(rel) = todo.pop() {
            let dir = root.join(&rel);
            let entries =
                std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("list {}: {e}", dir.display()));
            for entry in entries {
                let entry = entry.expect("a folder entry");
                let path = rel.join(entry.file_name());
                if entry.file_type().expect("a file type").is_dir() {
                    todo.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let parts: Vec<String> = path
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    out.push(parts.join("/"));
                }
            }
        }
    }
    out.sort();
    out
}

/// What `why MODULE --no-index` answers for each of `modules` (its `query.decisions`), from
/// one scan of `root`: its records (the full check's) and its source files' markers, each
/// module's decisions picked by [`decisions_with_markers`], as `why` picks them.
fn why_each(root: &Path, modules: &[String]) -> Vec<(String, Vec<Decision>)> {
    let opts = Options {
        root: Some(root.to_path_buf()),
        no_index: true,
        ..Options::default()
    };
    let mut session =
        Session::open(opts).unwrap_or_else(|e| panic!("open {}: {e}", root.display()));
    let records = session
        .answer(&Ask::Check, None)
        .unwrap_or_else(|e| panic!("the full check of {}: {e}", root.display()))
        .report
        .records;
    let markers = session.source_markers().expect("the source files' markers");
    let root = session.root().to_path_buf();
    let tracked = context_graph::scan::tracked_paths(&root);
    let mut files_under =
        |folder: &str| context_graph::fs::walk::files_under(&root, folder, Some(&tracked));
    modules
        .iter()
        .map(|m| {
            let decisions = decisions_with_markers(&records, m, &mut files_under, &markers);
            (m.clone(), decisions)
        })
        .collect()
}

/// The modules of `root` that no current decision governs: `why MODULE` lists none. The first,
/// the middle and the last module, and every module named, are also asked of the binary, which
/// must answer with the same decisions.
fn ungoverned(root: &Path, modules: &[String]) -> Vec<String> {
    let answers = why_each(root, modules);
    let mut out = Vec::new();
    for (i, (module, decisions)) in answers.iter().enumerate() {
        let governed = decisions.iter().any(|d| d.current);
        if !governed {
            out.push(module.clone());
        }
        if i == 0 || i == answers.len() / 2 || i + 1 == answers.len() || !governed {
            let (code, json) = run_at(root, &["why", module]);
            assert_eq!(code, 0, "why {module}: {json:#}");
            assert_eq!(
                json["query"]["decisions"],
                serde_json::to_value(decisions).expect("decisions as JSON"),
                "why {module}: the binary and the one scan disagree"
            );
        }
    }
    out
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
        // A decision is current, or superseded by one that is (and so governs nothing now).
        if r["status"] == "superseded" {
            assert!(
                !r["successors"].as_array().expect("successors").is_empty(),
                "{} is superseded without a successor",
                r["id"]
            );
            continue;
        }
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
    let root = project();
    let modules = modules(&root);
    for known in ["src/lib.rs", "src/main.rs", "src/index/mod.rs"] {
        assert!(
            modules.iter().any(|m| m == known),
            "the walk of src/ missed {known}: {modules:?}"
        );
    }
    let ungoverned = ungoverned(&root, &modules);
    assert!(
        ungoverned.is_empty(),
        "no current decision governs {ungoverned:?}: name each in the governed paths of a \
         decision record in docs/adr/ (or write one)"
    );
}

/// The check above is not vacuous: on a copy of this project's records and sources with one
/// more module, it names that module and only it.
#[test]
fn a_new_module_without_a_decision_is_named() {
    let env = TestEnv::new();
    let copy = env.path().join("project");
    copy_dir(&project().join("docs"), &copy.join("docs"));
    for top in MODULE_FOLDERS {
        if project().join(top).is_dir() {
            copy_dir(&project().join(top), &copy.join(top));
        }
    }
    std::fs::write(copy.join("src/brand_new_module.rs"), "//! New.\n").expect("write a module");
    let modules = modules(&copy);
    assert!(modules.iter().any(|m| m == "src/brand_new_module.rs"));
    assert_eq!(
        ungoverned(&copy, &modules),
        ["src/brand_new_module.rs"],
        "a module nobody wrote a decision for must be named (a record governing all of src/ \
         would make the check above pass for any new module)"
    );
}
