//! Python: `import a.b`, `from M import n`, relative imports, wildcards; packages with
//! `__init__.py`, source roots (the root, `src/`, a folder holding a top-level package), and
//! installed packages by their top-level name.

use super::{file, package, pairs, read, resolved};
use context_graph::imports::{ImportKind::*, Target};

const SERVICE: &str = r#""""Orders service.

import shop.infra.db  -- a docstring that looks like an import
"""
from __future__ import annotations
import os, shop.domain.order as order
from . import repo
from .repo import Repo
from .. import settings
from ..domain import rules, missing_name
from ..domain.rules import check as chk
from shop.infra import *
import requests.adapters
# import shop.infra.db
SQL = "from shop.infra import db"

def later():
    from shop.infra.db import connect
    return connect
"#;

#[test]
fn every_import_statement_is_read_and_no_docstring_comment_or_string_is() {
    let got = read("src/shop/app/service.py", SERVICE);
    let expected = vec![
        (6, "os".to_string(), Static),
        (6, "shop.domain.order".to_string(), Static),
        (7, ".repo".to_string(), From),
        (8, ".repo.Repo".to_string(), From),
        (9, "..settings".to_string(), From),
        (10, "..domain.rules".to_string(), From),
        (10, "..domain.missing_name".to_string(), From),
        (11, "..domain.rules.check".to_string(), From),
        (12, "shop.infra".to_string(), Wildcard),
        (13, "requests.adapters".to_string(), Static),
        (18, "shop.infra.db.connect".to_string(), From),
    ];
    assert_eq!(got, expected);
}

#[test]
fn modules_resolve_through_packages_relative_imports_and_the_src_root() {
    let files = [
        ("src/shop/__init__.py", ""),
        ("src/shop/settings.py", ""),
        ("src/shop/app/__init__.py", ""),
        ("src/shop/app/service.py", SERVICE),
        ("src/shop/app/repo.py", "class Repo: ...\n"),
        ("src/shop/domain/__init__.py", "missing_name = 1\n"),
        ("src/shop/domain/order.py", ""),
        ("src/shop/domain/rules.py", "def check(): ...\n"),
        ("src/shop/infra/__init__.py", ""),
        ("src/shop/infra/db.py", "def connect(): ...\n"),
    ];
    let expected = [
        ("os", package("os")),
        ("shop.domain.order", file("src/shop/domain/order.py")),
        (".repo", file("src/shop/app/repo.py")),
        // `from .repo import Repo`: Repo is a name in the module repo.
        (".repo.Repo", file("src/shop/app/repo.py")),
        ("..settings", file("src/shop/settings.py")),
        ("..domain.rules", file("src/shop/domain/rules.py")),
        ("..domain.missing_name", file("src/shop/domain/__init__.py")),
        ("..domain.rules.check", file("src/shop/domain/rules.py")),
        ("shop.infra", file("src/shop/infra/__init__.py")),
        ("requests.adapters", package("requests")),
        ("shop.infra.db.connect", file("src/shop/infra/db.py")),
    ];
    assert_eq!(
        resolved(&files, "src/shop/app/service.py"),
        pairs(&expected)
    );
}

#[test]
fn a_folder_holding_a_top_level_package_is_a_root_and_a_missing_own_module_is_no_package() {
    let main =
        "import billing.invoice\nimport billing.gone\nfrom ... import too_far\nimport tools\nimport json\nimport ns.json\n";
    let files = [
        ("services/billing/billing/__init__.py", ""),
        ("services/billing/billing/invoice.py", ""),
        ("services/billing/billing/main.py", main),
        ("tools.py", ""),
        // `src/ns/` is a namespace package under the `src/` root, not a root: its `json`
        // package is `ns.json`, never the standard library's `json`.
        ("src/ns/json/__init__.py", ""),
    ];
    let expected = [
        (
            "billing.invoice",
            file("services/billing/billing/invoice.py"),
        ),
        ("billing.gone", Target::Unresolved),
        ("...too_far", Target::Unresolved),
        ("tools", file("tools.py")),
        ("json", package("json")),
        ("ns.json", file("src/ns/json/__init__.py")),
    ];
    assert_eq!(
        resolved(&files, "services/billing/billing/main.py"),
        pairs(&expected)
    );
}
