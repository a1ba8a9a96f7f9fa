//! JavaScript and TypeScript: ESM, `import type`, re-exports, CommonJS, dynamic `import()`,
//! JSX/TSX; relative specifiers, extensions and index files, tsconfig `paths`/`baseUrl` with
//! `extends`, workspace packages, bare packages.

use super::{file, package, pairs, read, resolved};
use context_graph::imports::{ImportKind::*, Target};

const VIEW: &str = r#"// import { nope } from "./commented";
/* const x = require("./also-commented"); */
import React from "react";
import type { Order } from "../domain/order";
import { format } from "./format.js";
import * as ui from "@acme/ui/button";
export { total } from "./total";
export * from "./reexported";
const legacy = require("./legacy");
const words = "import { fake } from './in-a-string'";
const tpl = `require("./in-a-template")`;
async function later() {
  const lazy = await import(/* webpackChunkName: "lazy" */ "./lazy");
  const computed = await import(`./pages/${name}`);
  return <div title="import x from './jsx-attr'">{lazy.render()}</div>;
}
"#;

#[test]
fn every_kind_of_import_is_read_and_no_comment_or_string_is() {
    let got = read("web/src/ui/view.tsx", VIEW);
    let expected = vec![
        (3, "react".to_string(), Static),
        (4, "../domain/order".to_string(), TypeOnly),
        (5, "./format.js".to_string(), Static),
        (6, "@acme/ui/button".to_string(), Static),
        (7, "./total".to_string(), Reexport),
        (8, "./reexported".to_string(), Reexport),
        (9, "./legacy".to_string(), Require),
        (13, "./lazy".to_string(), Dynamic),
    ];
    assert_eq!(got, expected);
}

#[test]
fn typescripts_import_require_and_plain_javascript_read_alike() {
    let ts = "import fs = require(\"fs\");\nimport './side-effect';\n";
    assert_eq!(
        read("a.ts", ts),
        vec![
            (1, "fs".to_string(), Require),
            (2, "./side-effect".to_string(), Static)
        ]
    );
    let cjs = "module.exports = require('../lib');\n// require('./no')\n";
    assert_eq!(read("a.cjs", cjs), vec![(1, "../lib".to_string(), Require)]);
    let jsx = "import Button from './Button';\nexport default () => <Button label=\"import('./x')\" />;\n";
    assert_eq!(
        read("a.jsx", jsx),
        vec![(1, "./Button".to_string(), Static)]
    );
}

#[test]
fn specifiers_resolve_as_typescript_resolves_them() {
    let files = [
        ("web/src/ui/view.tsx", VIEW),
        ("web/src/domain/order.ts", "export type Order = {};\n"),
        ("web/src/ui/format.ts", "export const format = 1;\n"),
        ("web/src/ui/total/index.ts", "export const total = 1;\n"),
        ("web/src/ui/reexported.d.ts", "export {};\n"),
        ("web/src/ui/legacy.js", "module.exports = {};\n"),
        ("web/src/ui/lazy.jsx", "export const render = () => null;\n"),
        (
            "packages/ui/package.json",
            r#"{"name": "@acme/ui", "main": "dist/index.js"}"#,
        ),
        ("packages/ui/src/button.tsx", "export const Button = 1;\n"),
    ];
    let expected = [
        ("react", package("react")),
        ("../domain/order", file("web/src/domain/order.ts")),
        // `.js` written for the `.ts` source, as TypeScript's node16 and bundler modes want.
        ("./format.js", file("web/src/ui/format.ts")),
        ("@acme/ui/button", file("packages/ui/src/button.tsx")),
        ("./total", file("web/src/ui/total/index.ts")),
        ("./reexported", file("web/src/ui/reexported.d.ts")),
        ("./legacy", file("web/src/ui/legacy.js")),
        ("./lazy", file("web/src/ui/lazy.jsx")),
    ];
    assert_eq!(resolved(&files, "web/src/ui/view.tsx"), pairs(&expected));
}

#[test]
fn tsconfig_paths_and_base_url_resolve_through_extends() {
    let app = "import { db } from '@infra/db';\nimport { cfg } from 'config/app';\nimport { x } from '@scope/pkg/deep';\nimport missing from './missing';\nimport up from '../../../../above';\nimport fs from 'node:fs';\n";
    let files = [
        (
            "tsconfig.base.json",
            "{\n  // shared by every app\n  \"compilerOptions\": {\n    \"baseUrl\": \"./src\",\n    \"paths\": { \"@infra/*\": [\"infra/*\", \"fallback/*\"], },\n  },\n}\n",
        ),
        ("apps/web/tsconfig.json", "{ \"extends\": \"../../tsconfig.base\" }"),
        ("apps/web/main.ts", app),
        ("src/infra/db/index.ts", "export const db = 1;\n"),
        ("src/config/app.ts", "export const cfg = 1;\n"),
    ];
    let expected = [
        ("@infra/db", file("src/infra/db/index.ts")),
        ("config/app", file("src/config/app.ts")),
        ("@scope/pkg/deep", package("@scope/pkg")),
        ("./missing", Target::Unresolved),
        ("../../../../above", Target::Unresolved),
        ("node:fs", package("fs")),
    ];
    assert_eq!(resolved(&files, "apps/web/main.ts"), pairs(&expected));
}
