//! Paths that are not governed code (docs/reading.md): a line suffix, placeholders, URL routes,
//! footnote definitions, images, files in the record folders, what git ignores, and a bare word
//! that happens to match a top-level folder. None of them governs, none is missing.

use crate::env::no_index;
use crate::fixture::record;
use crate::git::GitRepo;
use serde_json::{json, Value};

const RECORD: &str = "docs/adr/0001-frontend-build.md";

fn repository() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        RECORD,
        "# 1. Build the frontend with one bundler\n\nStatus: Accepted\n\nDate: 2025-03-01\n\n\
## Context\n\n\
The entry point is `src/app.ts:12` (see also `src/app.ts#L10-L20` and `src/app.ts:3:7`).\n\
Each package keeps its code in `src/<name>/`; schemas live at `schema/v{major}/schema.json`.\n\
New records are `docs/adr/NNNN-title.md`. The API answers `/api/v2/users` and `/api/v2/{id}`.\n\
Build output goes to `dist/bundle.js`, which is not committed.\n\
The `version` field and the `scripts/` folder matter; `Makefile` does not.\n\
In another project the same lives in `other/project/src/main.rs`.\n\n\
![The build pipeline](images/pipeline.png)\n\n\
The diagram's source is [here](0001-pipeline.drawio).\n\n\
This follows common practice.[^1]\n\n\
[^1]: Existing examples of the pattern.\n",
    )
    .write("docs/adr/0001-pipeline.drawio", "<mxfile/>\n")
    .write("src/app.ts", "export {};\n")
    .write("scripts/build.sh", "#!/bin/sh\n")
    .write("version/README", "v\n")
    .write("api/README", "the api\n")
    .write(
        "Existing/README",
        "a folder that happens to share the footnote's word\n",
    )
    .write(".gitignore", "dist/\n")
    .write("dist/bundle.js", "built\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "The frontend build");
    repo
}

#[test]
fn paths_that_are_not_code_neither_govern_nor_go_missing() {
    let repo = repository();
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    let scanned = repo.run(&no_index(&args));
    assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
    indexed.assert_code(0);
    let doc: Value = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["scripts/", "src/app.ts"]), "{r:#}");
    assert_eq!(r["missing_paths"], json!([]), "{r:#}");
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}

#[test]
fn a_path_written_from_the_root_counts_when_it_is_there() {
    let repo = repository();
    repo.write(
        "docs/adr/0002-root-paths.md",
        "# 2. Paths from the root\n\nStatus: Accepted\n\nIn `/src/app.ts` and `/src/missing.ts`.\n",
    );
    let doc = repo.run(&["check", "--json", "--no-index"]).json();
    let r = record(&doc, "ADR-0002");
    assert_eq!(r["governs"], json!(["src/app.ts"]), "{r:#}");
    assert_eq!(r["missing_paths"], json!([]), "{r:#}");
}

#[test]
fn release_and_upgrade_notes_are_paperwork_not_code() {
    // kuma's zone-proxy record: "… the `defaultForbidMeshExternalServiceAccess` flag — see
    // UPGRADE.md" governed the notes every release adds to (issue 36).
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-zone-proxies.md",
        "# 1. Mesh-scoped zone proxies\n\nStatus: Accepted\n\n## Decision\n\n\
Remove the global zone proxies from `pkg/proxy/`; write the change in `UPGRADE.md`,\n\
`docs/RELEASE_NOTES.md`, `NEWS` and `UPGRADING.rst`.\n",
    )
    .write("pkg/proxy/zone.go", "package proxy\n")
    .write("UPGRADE.md", "# Upgrade\n")
    .write("docs/RELEASE_NOTES.md", "# Notes\n")
    .write("NEWS", "news\n")
    .write("UPGRADING.rst", "Upgrading\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Zone proxies");
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["pkg/proxy/"]), "{r:#}");
    repo.write("UPGRADE.md", "# Upgrade\n\n* ReferenceGrant is checked\n");
    repo.commit_at(
        "2025-03-03T10:00:00Z",
        "Ben",
        "Note the ReferenceGrant change",
    );
    let review: Value = repo.run(&["review", "HEAD~1..HEAD", "--json"]).json();
    assert_eq!(review["query"]["decisions"], json!([]), "{review:#}");
}

#[test]
fn a_range_of_lines_after_a_path_names_the_file() {
    // kumahq/kuma's ADR-0105 cites code as `pkg/dns/vips_allocator.go:360-361`: thirteen such
    // citations were "never had" findings for files that are there.
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-dns.md",
        "# 1. DNS\n\nStatus: Accepted\n\nDate: 2025-03-01\n\n## Decision\n\n\
The VIPs come from `pkg/dns/vips_allocator.go:360-361`.\n",
    )
    .write("pkg/dns/vips_allocator.go", "package dns\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "DNS");
    let args = ["check", "--json"];
    let indexed = repo.run(&args);
    assert_eq!(indexed.stdout(), repo.run(&no_index(&args)).stdout());
    let doc: Value = indexed.json();
    let r = record(&doc, "ADR-0001");
    assert_eq!(r["governs"], json!(["pkg/dns/vips_allocator.go"]), "{r:#}");
    assert_eq!(doc["findings"], json!([]), "{:#}", doc["findings"]);
}
