//! A tsconfig's `extends` naming a workspace package is followed to that package's tracked
//! folder, found by its package.json `name`, as TypeScript finds it (ADR-0022, amendment
//! 2026-12-05; docs/rules.md): the subpath (`.json` added), or with none the package's
//! `tsconfig.json`; `exports` first when the package has them; its `paths` relative to the
//! config that sets them, `${configDir}` the extending one's folder. A package not in the tree
//! is not followed. Through the binary; `tsc --traceResolution` resolves each alias alike.

use crate::env::no_index;
use crate::rules_imports::violations;

/// A monorepo whose apps get their `paths` only from configs in the workspace package
/// `@acme/tsconfig`, each extended another way.
const MONOREPO: &[(&str, &str)] = &[
    (
        "package.json",
        "{ \"private\": true, \"workspaces\": [\"apps/*\", \"packages/*\"] }\n",
    ),
    (
        "packages/tsconfig/package.json",
        "{ \"name\": \"@acme/tsconfig\", \"version\": \"1.0.0\", \"private\": true }\n",
    ),
    // `paths` relative to this file's folder (no `baseUrl`).
    (
        "packages/tsconfig/base.json",
        "{\n  // shared aliases\n  \"compilerOptions\": { \"paths\": { \"@infra/*\": [\"../infra/src/*\"] } },\n}\n",
    ),
    (
        "packages/tsconfig/tsconfig.json",
        "{ \"extends\": \"./base.json\" }\n",
    ),
    (
        "packages/tsconfig/strict.json",
        "{ \"compilerOptions\": { \"strict\": true } }\n",
    ),
    // The same folders through `exports`, with a `baseUrl` of its own.
    (
        "packages/config/package.json",
        "{ \"name\": \"@acme/config\", \"exports\": { \"./node\": { \"types\": \"./node/tsconfig.json\" } } }\n",
    ),
    (
        "packages/config/node/tsconfig.json",
        "{ \"compilerOptions\": { \"baseUrl\": \"../..\", \"paths\": { \"~infra/*\": [\"infra/src/*\"] } } }\n",
    ),
    // `${configDir}`: the folder of the config in use, the one extending this.
    (
        "packages/tsconfig/app.json",
        "{ \"compilerOptions\": { \"paths\": { \"#lib/*\": [\"${configDir}/lib/*\"] } } }\n",
    ),
    ("packages/infra/src/db.ts", "export const db = 1;\n"),
    ("packages/infra/src/pool.ts", "export const pool = 2;\n"),
    // A subpath with its `.json`.
    (
        "apps/web/tsconfig.json",
        "{ \"extends\": \"@acme/tsconfig/base.json\" }\n",
    ),
    (
        "apps/web/src/order.ts",
        "import { db } from \"@infra/db\";\nexport const order = db;\n",
    ),
    // No subpath: the package's tsconfig.json, which extends base.json.
    (
        "apps/admin/tsconfig.json",
        "{ \"extends\": \"@acme/tsconfig\" }\n",
    ),
    (
        "apps/admin/src/page.tsx",
        "import { pool } from \"@infra/pool\";\nexport const Page = () => <p>{pool}</p>;\n",
    ),
    // A list: a package from npm (not in the tree, not followed), a subpath without `.json`,
    // and a later config without `paths`, which keeps the earlier one's.
    (
        "apps/cli/tsconfig.json",
        "{ \"extends\": [\"@tsconfig/node20/tsconfig.json\", \"@acme/tsconfig/base\", \"@acme/tsconfig/strict.json\"] }\n",
    ),
    (
        "apps/cli/src/main.ts",
        "import { db } from \"@infra/db\";\nconsole.log(db);\n",
    ),
    // Through the package's `exports`.
    (
        "apps/api/tsconfig.json",
        "{ \"extends\": \"@acme/config/node\" }\n",
    ),
    (
        "apps/api/src/server.ts",
        "import { pool } from \"~infra/pool\";\nexport default pool;\n",
    ),
    (
        "apps/docs/tsconfig.json",
        "{ \"extends\": \"@acme/tsconfig/app.json\" }\n",
    ),
    (
        "apps/docs/src/page.ts",
        "import { slug } from \"#lib/slug\";\nexport const page = slug;\n",
    ),
    ("apps/docs/lib/slug.ts", "export const slug = 3;\n"),
];

#[test]
fn paths_from_a_config_extended_by_workspace_package_name_resolve_as_typescript_does() {
    let g = crate::rules::with_rules(
        "Accepted",
        "forbid import apps/** -> packages/infra/**, apps/docs/lib/**\n",
        MONOREPO,
    );
    let found = violations(&g, &["check", "--json"]).0;
    assert_eq!(
        found,
        [
            "apps/admin/src/page.tsx:1 -> packages/infra/src/pool.ts",
            "apps/api/src/server.ts:1 -> packages/infra/src/pool.ts",
            "apps/cli/src/main.ts:1 -> packages/infra/src/db.ts",
            "apps/docs/src/page.ts:1 -> apps/docs/lib/slug.ts",
            "apps/web/src/order.ts:1 -> packages/infra/src/db.ts",
        ]
    );
    assert_eq!(violations(&g, &no_index(&["check", "--json"])).0, found);
}
