//! The real tools as oracles (docs/rules.md, "Checked against the real tools"): on trees of our
//! own code, the file → file edges we resolve are exactly dependency-cruiser's (TypeScript) and
//! grimp's, import-linter's engine (Python). `.ci/run` installs both under
//! `~/.cache/context-graph-ci/`; without them the tests skip, saying why.

use context_graph::imports::{read_imports, Project};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

/// Writes `files` under a new temporary folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (path, body) in files {
        let at = dir.path().join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
        std::fs::write(at, body).expect("write");
    }
    dir
}

/// Our `FROM -> TO` edges between files of `files` (a folder target stands for its files).
fn ours(files: &[(&str, &str)]) -> BTreeSet<String> {
    let tracked: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    let body = |p: &str| {
        files
            .iter()
            .find(|(f, _)| *f == p)
            .map(|(_, b)| b.as_bytes().to_vec())
    };
    let project = Project::new(&tracked, &body);
    let mut edges = BTreeSet::new();
    for (from, text) in files {
        for import in read_imports(from, text.as_bytes()) {
            let target = project.resolve(from, &import);
            for to in project.files_of(from, &target) {
                if to != *from {
                    edges.insert(format!("{from} -> {to}"));
                }
            }
        }
    }
    edges
}

/// `node` and dependency-cruiser's CLI script, or `None` having said the test is skipped.
pub(super) fn depcruise() -> Option<(PathBuf, PathBuf)> {
    let found = crate::pictures::on_path(&["node", "nodejs"]).zip(cached(
        "depcruise/node_modules/dependency-cruiser/bin/dependency-cruise.mjs",
        "DEPCRUISE_JS",
    ));
    if found.is_none() {
        crate::skip::skipped("dependency-cruiser not found (npm install dependency-cruiser typescript into ~/.cache/context-graph-ci/depcruise, or set DEPCRUISE_JS)");
    }
    found
}

pub(super) fn cached(rel: &str, var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .or_else(|| {
            let home = std::env::var_os("HOME")?;
            Some(
                PathBuf::from(home)
                    .join(".cache/context-graph-ci")
                    .join(rel),
            )
        })
        .filter(|p| p.is_file())
}

const TS: &[(&str, &str)] = &[
    (
        "tsconfig.json",
        "{\n  // the app's aliases\n  \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@infra/*\": [\"src/infra/*\"] } },\n}\n",
    ),
    (
        "src/app/main.ts",
        "import { db } from '@infra/db';\nimport type { Order } from '../domain/order';\nimport { format } from './format.js';\nexport * from './reexported';\n// import { x } from '../infra/secret';\nconst s = \"import y from '../infra/secret'\";\nconst legacy = require('./legacy');\nexport async function later() { return import(/* webpackChunkName: \"v\" */ './view'); }\n",
    ),
    ("src/app/format.ts", "export const format = (o: unknown) => String(o);\n"),
    ("src/app/reexported/index.ts", "export const r = 1;\n"),
    ("src/app/legacy.js", "module.exports = require('../domain/order');\n"),
    ("src/app/view.tsx", "import { Button } from '../ui';\nexport const V = () => <Button />;\n"),
    ("src/ui/index.tsx", "export const Button = () => <button />;\n"),
    ("src/domain/order.ts", "export type Order = { id: string };\n"),
    ("src/infra/db.ts", "import { Order } from '../domain/order';\nexport const db: Order[] = [];\n"),
    ("src/infra/secret.ts", "export const key = 1;\n"),
];

#[test]
fn our_typescript_edges_are_dependency_cruisers() {
    let Some((node, cli)) = depcruise() else {
        return;
    };
    let dir = tree(TS);
    let config = "module.exports = { options: { tsPreCompilationDeps: true, tsConfig: { fileName: 'tsconfig.json' } } };\n";
    std::fs::write(dir.path().join(".dependency-cruiser.cjs"), config).expect("write");
    let out = Command::new(node)
        .arg(cli)
        .args([
            "--config",
            ".dependency-cruiser.cjs",
            "--output-type",
            "json",
            "src",
        ])
        .current_dir(dir.path())
        .output()
        .expect("run dependency-cruiser");
    assert!(out.status.success(), "dependency-cruiser failed: {out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("its JSON");
    let mut theirs = BTreeSet::new();
    for module in json["modules"].as_array().expect("modules") {
        let from = module["source"].as_str().expect("source");
        for dep in module["dependencies"].as_array().expect("dependencies") {
            let to = dep["resolved"].as_str().expect("resolved");
            if !dep["couldNotResolve"].as_bool().unwrap_or(false)
                && dep["coreModule"] != true
                && to != from
            {
                theirs.insert(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        theirs.contains("src/app/main.ts -> src/infra/db.ts"),
        "{theirs:#?}"
    );
    assert!(
        theirs.contains("src/app/main.ts -> src/app/view.tsx"),
        "{theirs:#?}"
    );
    assert_eq!(ours(TS), theirs);
}

const PY: &[(&str, &str)] = &[
    ("src/shop/__init__.py", ""),
    ("src/shop/settings.py", "import os\n"),
    ("src/shop/app/__init__.py", "from .service import Service\n"),
    (
        "src/shop/app/service.py",
        "\"\"\"import shop.infra.secret\"\"\"\nfrom . import repo\nfrom .. import settings\nfrom ..domain import rules, order\nfrom shop.infra.db import connect\nimport shop.infra\n# import shop.infra.secret\nSQL = 'from shop.infra import secret'\n\nclass Service:\n    def later(self):\n        from shop.domain.rules import check\n        return check\n",
    ),
    ("src/shop/app/repo.py", "from shop.domain.order import Order\n"),
    ("src/shop/domain/__init__.py", ""),
    ("src/shop/domain/order.py", "class Order: ...\n"),
    ("src/shop/domain/rules.py", "def check(): ...\n"),
    ("src/shop/infra/__init__.py", "from shop.infra.db import *\n"),
    ("src/shop/infra/db.py", "import sqlite3\ndef connect(): ...\n"),
    ("src/shop/infra/secret.py", "KEY = 1\n"),
];

/// grimp's edges of package `shop` under `src/`, as file paths.
const GRIMP: &str = r#"
import os, sys, grimp
root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "src"))
graph = grimp.build_graph("shop", cache_dir=None)
def path(m):
    base = os.path.join("src", *m.split("."))
    for c in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(os.path.join(root, c)):
            return c
for m in sorted(graph.modules):
    for n in sorted(graph.find_modules_directly_imported_by(m)):
        a, b = path(m), path(n)
        if a and b and a != b:
            print(f"{a} -> {b}")
"#;

#[test]
fn our_python_edges_are_grimps() {
    let Some(python) = cached("import-linter/bin/python", "GRIMP_PYTHON") else {
        crate::skip::skipped("grimp not found (pip install import-linter into the venv ~/.cache/context-graph-ci/import-linter, or set GRIMP_PYTHON)");
        return;
    };
    let dir = tree(PY);
    let out = Command::new(python)
        .args(["-c", GRIMP])
        .arg(dir.path())
        .output()
        .expect("run grimp");
    assert!(out.status.success(), "grimp failed: {out:?}");
    let theirs: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert!(
        theirs.contains("src/shop/app/service.py -> src/shop/infra/db.py"),
        "{theirs:#?}"
    );
    assert!(
        !theirs.iter().any(|e| e.ends_with("secret.py")),
        "{theirs:#?}"
    );
    assert_eq!(ours(PY), theirs);
}
