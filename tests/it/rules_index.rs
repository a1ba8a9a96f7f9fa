//! The imports the records' rules read, kept in the index by blob id (ADR-0021, ADR-0006): a
//! warm check after a one-file change parses that file alone; `--no-index` parses every file,
//! reads and writes no index, and answers byte for byte the same. Which files were parsed is
//! counted through the debug builds' trace (`CONTEXT_GRAPH_TRACE`).

use crate::env::no_index;
use crate::git::GitRepo;

const RECORD: &str = "# 1. Layers\n\nStatus: Accepted\nDate: 2025-01-01\n\n## Decision\n\nThe domain never imports the infrastructure.\n\n```context-graph\nforbid import web/domain/** -> web/infra/**\nforbid import py/shop/domain/** -> py/shop/infra/**\nforbid import go/domain/** -> go/infra/**\n```\n";

/// The files of three languages the rules read: none breaks a rule yet.
const FILES: &[(&str, &str)] = &[
    (
        "web/domain/order.ts",
        "// import { db } from \"../infra/db\";\nimport { money } from \"./money\";\nexport const order = money;\n",
    ),
    ("web/domain/money.ts", "export const money = 1;\n"),
    ("web/infra/db.ts", "export const db = 1;\n"),
    ("py/shop/__init__.py", ""),
    ("py/shop/domain/__init__.py", ""),
    ("py/shop/domain/order.py", "import json\nfrom . import money\n"),
    ("py/shop/domain/money.py", "X = 1\n"),
    ("py/shop/infra/__init__.py", ""),
    ("py/shop/infra/db.py", "X = 1\n"),
    ("go/go.mod", "module example.com/shop\n\ngo 1.22\n"),
    (
        "go/domain/order.go",
        "package domain\n\nimport \"fmt\"\n\nfunc F() { fmt.Println(1) }\n",
    ),
    ("go/infra/db.go", "package infra\n\nvar X = 1\n"),
];

/// The files the rules read: each source file under a rule's `from`.
const READ: &[&str] = &[
    "go/domain/order.go",
    "py/shop/domain/__init__.py",
    "py/shop/domain/money.py",
    "py/shop/domain/order.py",
    "web/domain/money.ts",
    "web/domain/order.ts",
];

fn repo() -> GitRepo {
    let g = GitRepo::new();
    g.write("docs/adr/0001-layers.md", RECORD);
    for (path, text) in FILES {
        g.write(path, text);
    }
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    g
}

/// Runs `args` with the trace on: the stdout, the exit code, and the files whose imports were
/// parsed (sorted).
fn traced(g: &GitRepo, args: &[&str]) -> (String, i32, Vec<String>) {
    let dir = g.env().path().join("trace");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make the trace folder");
    let run = g.run_with(
        args,
        &[("CONTEXT_GRAPH_TRACE", dir.to_str().expect("UTF-8"))],
    );
    let mut parsed: Vec<String> = std::fs::read_to_string(dir.join("imports"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    parsed.sort();
    (run.stdout(), run.code.unwrap_or(-1), parsed)
}

#[test]
fn a_warm_check_after_a_one_file_change_parses_that_file_alone_and_answers_like_a_scan() {
    let g = repo();
    let check = ["check", "--json"];
    let (first, code, parsed) = traced(&g, &check);
    assert_eq!(code, 0, "{first}");
    assert_eq!(
        parsed, READ,
        "the first check parses every file a rule reads"
    );
    let (again, _, parsed) = traced(&g, &check);
    assert_eq!(again, first);
    assert!(
        parsed.is_empty(),
        "nothing changed, nothing parsed: {parsed:?}"
    );

    // One file changed and staged: it alone is parsed, and its new import is flagged.
    g.write(
        "py/shop/domain/order.py",
        "import json\nfrom . import money\nfrom ..infra import db\n",
    );
    g.git(&["add", "py/shop/domain/order.py"]);
    let (warm, code, parsed) = traced(&g, &check);
    assert_eq!(code, 1, "{warm}");
    assert!(
        warm.contains("py/shop/infra/db.py"),
        "the new import is a violation: {warm}"
    );
    assert_eq!(parsed, ["py/shop/domain/order.py"]);

    // `--no-index` reads no kept imports: every file is parsed, and the answer is the same,
    // byte for byte.
    let (fresh, fresh_code, parsed) = traced(&g, &no_index(&check));
    assert_eq!(parsed, READ);
    assert_eq!((fresh, fresh_code), (warm.clone(), code));

    // The index is a cache: without it, every file is parsed again, to the same answer.
    std::fs::remove_file(g.index_file()).expect("remove the index");
    let (rebuilt, _, parsed) = traced(&g, &check);
    assert_eq!(parsed, READ);
    assert_eq!(rebuilt, warm);
}

#[test]
fn no_index_neither_reads_nor_writes_the_kept_imports() {
    let g = repo();
    let (fresh, code, parsed) = traced(&g, &no_index(&["check", "--json"]));
    assert_eq!(code, 0, "{fresh}");
    assert_eq!(parsed, READ);
    assert!(!g.index_file().exists(), "--no-index made an index file");
    // A later check with the index still parses every file: nothing was kept before it.
    let (warm, _, parsed) = traced(&g, &["check", "--json"]);
    assert_eq!(parsed, READ);
    assert_eq!(warm, fresh);
}
