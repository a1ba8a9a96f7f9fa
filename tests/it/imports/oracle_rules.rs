//! The real tools as oracles of the binary's rules (docs/rules.md, "Checked against the real
//! tools"; ADR-0021, ADR-0022): one decision written both as our `forbid import` lines in a
//! record and as the other tool's own rules, on a tree of our own code; `check --json`'s
//! `rule-violated` findings are, rule for rule, dependency-cruiser's `forbidden` violations
//! (TypeScript, file → file) and import-linter's `forbidden` contracts' broken imports (Python,
//! module → module at each line). `.ci/run` installs both; without them the tests skip.

use super::oracle::cached;
use crate::git::GitRepo;
use serde_json::Value;
use std::collections::BTreeSet;

/// A repository with one accepted record whose block is `rules`, and `files`, committed.
fn repo(rules: &str, files: &[(&str, &str)]) -> GitRepo {
    crate::rules::with_rules("Accepted", rules, files)
}

/// The binary's `rule-violated` findings as `RULE: PATH -> TARGET` (with `:LINE` after PATH
/// when `lines`); and its exit code.
fn ours(g: &GitRepo, lines: bool) -> (BTreeSet<String>, Option<i32>) {
    let run = g.run(&["check", "--json"]);
    let j: Value = run.json();
    let found = j["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "rule-violated")
        .map(|f| {
            let at = if lines {
                format!("{}:{}", f["path"].as_str().unwrap_or(""), f["line"])
            } else {
                f["path"].as_str().unwrap_or("").to_string()
            };
            format!(
                "{}: {at} -> {}",
                f["rule"].as_str().unwrap_or(""),
                f["target"].as_str().unwrap_or("")
            )
        })
        .collect();
    (found, run.code)
}

const TS_RULES: &[&str] = &[
    "forbid import src/domain/** -> src/infra/**",
    "forbid import src/ui/** -> src/infra/**",
];

const TS: &[(&str, &str)] = &[
    (
        "tsconfig.json",
        "{\n  // aliases\n  \"compilerOptions\": { \"baseUrl\": \".\", \"jsx\": \"react-jsx\", \"paths\": { \"@infra/*\": [\"src/infra/*\"] } },\n}\n",
    ),
    (
        "src/domain/order.ts",
        "// import { db } from '../infra/db';\nimport type { Row } from '@infra/db';\nimport { money } from './money.js';\nconst s = \"import x from '../infra/secret'\";\nexport type Order = { id: string; row: Row; s: typeof s; m: typeof money };\n",
    ),
    ("src/domain/money.ts", "export const money = 1;\n"),
    (
        "src/domain/index.ts",
        "export * from './order';\nexport { pool } from '../infra';\n",
    ),
    ("src/infra/index.ts", "export const pool = 1;\n"),
    (
        "src/infra/db.ts",
        "import type { Order } from '../domain/order';\nexport type Row = { o?: Order };\n",
    ),
    ("src/infra/secret.ts", "export const key = 1;\n"),
    (
        "src/ui/view.tsx",
        "import { pool } from '../domain';\nexport const V = () => <div>{pool}</div>;\nexport const later = () => import(/* webpackChunkName: \"db\" */ '../infra/db');\n",
    ),
    (
        "src/ui/legacy.js",
        "// require('../infra/index')\nconst { key } = require('../infra/secret');\nmodule.exports = key;\n",
    ),
];

#[test]
fn our_forbid_import_violations_are_dependency_cruisers() {
    let Some((node, cli)) = super::oracle::depcruise() else {
        return;
    };
    let g = repo(&(TS_RULES.join("\n") + "\n"), TS);
    // The same rules as dependency-cruiser's: each one's name is our line.
    let forbidden: Vec<String> = TS_RULES
        .iter()
        .map(|rule| {
            let (from, to) = rule
                .trim_start_matches("forbid import ")
                .split_once(" -> ")
                .expect("A -> B");
            let folder = |glob: &str| format!("^{}/", glob.trim_end_matches("/**"));
            format!(
                "{{ name: {rule:?}, severity: 'error', from: {{ path: {:?} }}, to: {{ path: {:?} }} }}",
                folder(from),
                folder(to)
            )
        })
        .collect();
    let config_dir = tempfile::tempdir().expect("a temporary folder");
    let config = config_dir.path().join("depcruise.cjs");
    std::fs::write(
        &config,
        format!(
            "module.exports = {{ forbidden: [{}], options: {{ tsPreCompilationDeps: true, tsConfig: {{ fileName: 'tsconfig.json' }} }} }};\n",
            forbidden.join(", ")
        ),
    )
    .expect("write");
    let out = g
        .command(node)
        .arg(cli)
        .arg("--config")
        .arg(&config)
        .args(["--output-type", "json", "src"])
        .output()
        .expect("run dependency-cruiser");
    let json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("dependency-cruiser's JSON ({e}): {out:?}"));
    let theirs: BTreeSet<String> = json["summary"]["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| {
            format!(
                "{}: {} -> {}",
                v["rule"]["name"].as_str().expect("rule name"),
                v["from"].as_str().expect("from"),
                v["to"].as_str().expect("to")
            )
        })
        .collect();
    // Both rules broken, through an alias, a re-export, a dynamic import and a require.
    assert_eq!(theirs.len(), 4, "{theirs:#?}");
    let (found, code) = ours(&g, false);
    assert_eq!(code, Some(1));
    assert_eq!(found, theirs);
}

const PY_RULES: &[&str] = &[
    "forbid import src/shop/domain/** -> src/shop/infra/**",
    "forbid import src/shop/app/** -> src/shop/api/**",
];

const PY: &[(&str, &str)] = &[
    ("src/shop/__init__.py", ""),
    ("src/shop/domain/__init__.py", ""),
    (
        "src/shop/domain/order.py",
        "\"\"\"from shop.infra import secret, once.\"\"\"\nfrom ..infra import db, cache\nimport shop.infra.cache\n# import shop.infra.secret\nSQL = 'import shop.infra.secret'\n\n\ndef later():\n    from shop.infra.secret import KEY\n    return KEY\n",
    ),
    ("src/shop/domain/rules.py", "from . import order\nimport json\n"),
    ("src/shop/infra/__init__.py", ""),
    (
        "src/shop/infra/db.py",
        "import sqlite3\nfrom shop.domain.order import later\n",
    ),
    ("src/shop/infra/cache.py", "X = 1\n"),
    ("src/shop/infra/secret.py", "KEY = 1\n"),
    ("src/shop/app/__init__.py", ""),
    (
        "src/shop/app/service.py",
        "from shop.domain import rules\nfrom ..api.routes import ROUTES\n",
    ),
    ("src/shop/api/__init__.py", ""),
    (
        "src/shop/api/routes.py",
        "from shop.app import service\nROUTES = []\n",
    ),
];

/// `src/PATH.py` or `src/PATH/__init__.py` of a module of `root`.
fn module_file(root: &std::path::Path, module: &str) -> String {
    let base = format!("src/{}", module.replace('.', "/"));
    let file = format!("{base}.py");
    if root.join(&file).is_file() {
        file
    } else {
        format!("{base}/__init__.py")
    }
}

#[test]
fn our_forbid_import_violations_are_import_linters() {
    let Some(lint) = cached("import-linter/bin/lint-imports", "LINT_IMPORTS") else {
        crate::skip::skipped("lint-imports not found (pip install import-linter into the venv ~/.cache/context-graph-ci/import-linter, or set LINT_IMPORTS)");
        return;
    };
    let g = repo(&(PY_RULES.join("\n") + "\n"), PY);
    // The same rules as import-linter's `forbidden` contracts, direct imports only (ours
    // judge each import, not chains of them).
    let module = |glob: &str| {
        glob.trim_start_matches("src/")
            .trim_end_matches("/**")
            .replace('/', ".")
    };
    let mut config = String::from("[importlinter]\nroot_package = shop\n");
    let mut rule_of = Vec::new();
    for (i, rule) in PY_RULES.iter().enumerate() {
        let (from, to) = rule
            .trim_start_matches("forbid import ")
            .split_once(" -> ")
            .expect("A -> B");
        config.push_str(&format!(
            "\n[importlinter:contract:c{i}]\nname = c{i}\ntype = forbidden\nsource_modules = {}\nforbidden_modules = {}\nallow_indirect_imports = True\n",
            module(from),
            module(to)
        ));
        rule_of.push((
            format!("{} is not allowed to import {}:", module(from), module(to)),
            *rule,
        ));
    }
    let config_dir = tempfile::tempdir().expect("a temporary folder");
    let config_file = config_dir.path().join("importlinter.ini");
    std::fs::write(&config_file, config).expect("write");
    let out = g
        .command(lint)
        .arg("--no-cache")
        .arg("--config")
        .arg(&config_file)
        .env("PYTHONPATH", g.path().join("src"))
        .output()
        .expect("run lint-imports");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "lint-imports: {out:?}");
    // `shop.domain is not allowed to import shop.infra:` heads its broken imports, each
    // `-   shop.domain.order -> shop.infra.db (l.2, l.3)`.
    let mut theirs = BTreeSet::new();
    let mut rule = None;
    for line in text.lines() {
        if let Some((_, r)) = rule_of.iter().find(|(head, _)| line.trim() == head) {
            rule = Some(*r);
        } else if let (Some(r), Some(edge)) = (rule, line.strip_prefix("-   ")) {
            let (edge, at) = edge.split_once(" (").expect("(l.N)");
            let (from, to) = edge.split_once(" -> ").expect("A -> B");
            for n in at.trim_end_matches(')').split(", ") {
                theirs.insert(format!(
                    "{r}: {}:{} -> {}",
                    module_file(g.path(), from),
                    n.trim_start_matches("l."),
                    module_file(g.path(), to)
                ));
            }
        }
    }
    // Both contracts broken: a relative import of two modules, an absolute one, one inside a
    // function, a relative one two folders up; never the docstring, comment or string.
    assert_eq!(theirs.len(), 5, "{theirs:#?}\n{text}");
    let (found, code) = ours(&g, true);
    assert_eq!(code, Some(1));
    assert_eq!(found, theirs);
}
