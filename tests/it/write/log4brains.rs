//! log4brains' own repository form (`.log4brains.yml`, dated slugs, `- Status:` lines, links
//! under `## Links`): `new` and `supersede` name the file as log4brains slugs it, write both
//! sides as log4brains' own `supersedeAdr` writes them, and the result is read back by
//! `@log4brains/core` (npm) with every link resolved to a record (issue 39).

use super::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const CONFIG: &str = "---\nproject:\n  name: Shop\n  tz: Etc/UTC\n  adrFolder: ./docs/adr\n";

/// log4brains' `docs/adr/template.md`, in its shape: placeholders in brackets, comments saying
/// what is optional, a `## Links` list of placeholders.
const TEMPLATE: &str = "# [short title of solved problem and solution]\n\n- Status: [draft | proposed | rejected | accepted | deprecated | … | superseded by [xxx](yyyymmdd-xxx.md)] <!-- optional -->\n- Deciders: [list everyone involved in the decision] <!-- optional -->\n- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional. To customize the ordering without relying on last edit dates -->\n\n## Context and Problem Statement\n\n[Describe the context and problem statement.]\n\n## Decision Outcome\n\nChosen option: \"[option 1]\", because [justification].\n\n## Links <!-- optional -->\n\n- [Link type][link to adr] <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->\n- … <!-- numbers of links can vary -->\n";

const FIRST: &str = "# Use Markdown records\n\n- Status: accepted\n- Date: 2024-01-02\n\n## Context and Problem Statement\n\nWe want records.\n\n## Decision Outcome\n\nChosen option: \"log4brains\".\n";

const EXPORTS: &str = "# Avoid default exports\n\n- Status: accepted\n- Date: 2024-01-10\n\n## Decision\n\nNamed exports only, as the [first record](20240102-use-markdown-records.md) suggests.\n";

fn l4b_root() -> Fixture {
    root_with(&[
        (".log4brains.yml", CONFIG),
        ("docs/adr/template.md", TEMPLATE),
        ("docs/adr/20240102-use-markdown-records.md", FIRST),
        ("docs/adr/20240110-avoid-default-exports.md", EXPORTS),
    ])
}

const NEW: &str = "docs/adr/20240501-allow-default-exports-in-nextjs-pages.md";
const OLD: &str = "docs/adr/20240110-avoid-default-exports.md";

/// `node` and `@log4brains/core`: `LOG4BRAINS_CORE` (the package's folder), else where
/// `.ci/run` installs it.
fn log4brains() -> Option<(PathBuf, PathBuf)> {
    let node = crate::pictures::on_path(&["node", "nodejs"])?;
    let module = std::env::var_os("LOG4BRAINS_CORE")
        .map(PathBuf::from)
        .or_else(|| {
            let home = std::env::var_os("HOME")?;
            Some(
                PathBuf::from(home)
                    .join(".cache/context-graph-ci/log4brains/node_modules/@log4brains/core"),
            )
        })
        .filter(|p| p.join("package.json").is_file())?;
    Some((node, module))
}

/// log4brains' reading of the records under `root` (tests/it/write/log4brains_read.cjs).
fn l4b_read(l4b: &(PathBuf, PathBuf), root: &Path) -> Vec<serde_json::Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/write/log4brains_read.cjs");
    let out = Command::new(&l4b.0)
        .arg(script)
        .arg(&l4b.1)
        .arg(root)
        .current_dir(root)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "@log4brains/core could not read the records: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v.as_array().expect("a list").clone()
}

/// log4brains' own `supersedeAdr(old, new)` run on the records under `root`.
fn l4b_supersede(l4b: &(PathBuf, PathBuf), root: &Path, old: &str, new: &str) {
    let script = format!(
        "const {{ Log4brains }} = require({:?});\
         Log4brains.create('.').supersedeAdr({old:?}, {new:?})\
         .then(() => process.exit(0), (e) => {{ console.error(String(e)); process.exit(2); }});",
        l4b.1.to_string_lossy()
    );
    let out = Command::new(&l4b.0)
        .args(["-e", &script])
        .current_dir(root)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "log4brains' supersede failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn supersede_names_and_links_as_log4brains_and_log4brains_resolves_every_link() {
    let f = l4b_root();
    let out = ok(
        &f,
        &[
            "supersede",
            "20240110-avoid-default-exports",
            "Allow default exports in Next.js pages",
            "--status",
            "accepted",
            "--date",
            "2024-05-01",
        ],
    );
    // log4brains' slug: `Next.js` is `nextjs` (slugify's strict mode drops the dot).
    assert_eq!(
        out,
        format!("created {NEW} (20240501-allow-default-exports-in-nextjs-pages)\nchanged {OLD} (20240110-avoid-default-exports)\n")
    );
    // The links' text is the slug, as log4brains writes and reads them.
    assert_eq!(
        read(&f, OLD),
        EXPORTS.replace(
            "- Status: accepted",
            "- Status: superseded by [20240501-allow-default-exports-in-nextjs-pages](20240501-allow-default-exports-in-nextjs-pages.md)"
        )
    );
    let new = read(&f, NEW);
    assert!(
        new.ends_with("## Links <!-- optional -->\n\n- Supersedes [20240110-avoid-default-exports](20240110-avoid-default-exports.md)\n"),
        "{new}"
    );
    assert!(
        new.starts_with("# Allow default exports in Next.js pages\n\n- Status: accepted\n"),
        "{new}"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());

    let Some(l4b) = log4brains() else {
        crate::skip::skipped("node or @log4brains/core is missing (npm install @log4brains/core into ~/.cache/context-graph-ci/log4brains, or set LOG4BRAINS_CORE): the records are not read back by log4brains");
        return;
    };
    let adrs = l4b_read(&l4b, &f.root);
    let slugs: Vec<&str> = adrs.iter().filter_map(|a| a["slug"].as_str()).collect();
    assert_eq!(slugs.len(), 3, "{adrs:?}");
    for a in &adrs {
        assert_eq!(
            a["unresolved"],
            serde_json::json!([]),
            "a link log4brains can't resolve: {a}"
        );
        if let Some(by) = a["supersededBy"].as_str() {
            assert!(
                slugs.contains(&by),
                "superseded by a record log4brains does not know: {a}"
            );
        }
    }
    let old = adrs
        .iter()
        .find(|a| a["slug"] == "20240110-avoid-default-exports")
        .expect("the old record");
    assert_eq!(old["status"], "superseded");
    // Labelled otherwise than by the slug: only the author's own link, none of ours.
    assert_eq!(old["labelled"], serde_json::json!(["first record"]));
    assert_eq!(
        old["supersededBy"],
        "20240501-allow-default-exports-in-nextjs-pages"
    );
    let new = adrs
        .iter()
        .find(|a| a["slug"] == "20240501-allow-default-exports-in-nextjs-pages")
        .expect("the new record");
    assert_eq!(new["status"], "accepted");
    assert_eq!(new["labelled"], serde_json::json!([]));
    assert_eq!(new["links"].as_array().map(Vec::len), Some(1), "{new}");
    assert_eq!(
        new["linked"],
        serde_json::json!(["20240110-avoid-default-exports"])
    );

    // log4brains' own supersede, on the same records with the new one written by `new`: the
    // same bytes on both sides, but for the template's placeholder links we leave out.
    let theirs = l4b_root();
    ok(
        &theirs,
        &[
            "new",
            "Allow default exports in Next.js pages",
            "--status",
            "accepted",
            "--date",
            "2024-05-01",
        ],
    );
    l4b_supersede(
        &l4b,
        &theirs.root,
        "20240110-avoid-default-exports",
        "20240501-allow-default-exports-in-nextjs-pages",
    );
    assert_eq!(read(&theirs, OLD), read(&f, OLD));
    let placeholder = |l: &&str| l.starts_with("- [Link type]") || l.starts_with("- …");
    let their_text = read(&theirs, NEW);
    let their_new: Vec<&str> = their_text.lines().filter(|l| !placeholder(l)).collect();
    let our_new = read(&f, NEW);
    assert_eq!(their_new, our_new.lines().collect::<Vec<_>>());
}

#[test]
fn amend_lists_the_links_under_links_and_log4brains_resolves_them() {
    let f = l4b_root();
    ok(
        &f,
        &[
            "amend",
            "20240110-avoid-default-exports",
            "Default exports in pages",
            "--date",
            "2024-05-02",
        ],
    );
    // Not in the header list (log4brains reads `- Key: value` items there): a `## Links`
    // section, as its `addLink` adds one.
    assert_eq!(
        read(&f, OLD),
        format!("{EXPORTS}\n## Links\n\n- Amended by [20240502-default-exports-in-pages](20240502-default-exports-in-pages.md)\n")
    );
    let new = read(&f, "docs/adr/20240502-default-exports-in-pages.md");
    assert!(
        new.ends_with("## Links <!-- optional -->\n\n- Amends [20240110-avoid-default-exports](20240110-avoid-default-exports.md)\n"),
        "{new}"
    );
    assert_eq!(check_findings(&f), Vec::<(String, String)>::new());

    let Some(l4b) = log4brains() else {
        crate::skip::skipped("node or @log4brains/core is missing (npm install @log4brains/core into ~/.cache/context-graph-ci/log4brains, or set LOG4BRAINS_CORE): the records are not read back by log4brains");
        return;
    };
    let adrs = l4b_read(&l4b, &f.root);
    let slug_of = |s: &str| adrs.iter().find(|a| a["slug"] == s).cloned().expect(s);
    let old = slug_of("20240110-avoid-default-exports");
    assert_eq!(old["status"], "accepted", "{old}");
    assert_eq!(old["unresolved"], serde_json::json!([]), "{old}");
    assert_eq!(
        old["linked"],
        serde_json::json!([
            "20240102-use-markdown-records",
            "20240502-default-exports-in-pages"
        ])
    );
    let new = slug_of("20240502-default-exports-in-pages");
    assert_eq!(new["unresolved"], serde_json::json!([]), "{new}");
    assert_eq!(new["labelled"], serde_json::json!([]), "{new}");
    assert_eq!(
        new["linked"],
        serde_json::json!(["20240110-avoid-default-exports"])
    );
}

/// Several record folders (the project's and its packages'), as log4brains' own repository has:
/// `new` writes to the project's `adrFolder`, as `log4brains adr new` does without `--package`,
/// where it used to refuse and ask for `--folder`.
#[test]
fn new_writes_to_the_projects_folder_among_its_packages() {
    let f = root_with(&[
        (
            ".log4brains.yml",
            "---\nproject:\n  name: Shop\n  adrFolder: ./docs/adr\n  packages:\n    - name: core\n      path: ./packages/core\n      adrFolder: ./packages/core/docs/adr\n",
        ),
        ("docs/adr/20240102-use-markdown-records.md", FIRST),
        (
            "packages/core/docs/adr/20240103-core-records.md",
            "# Core records\n\n- Status: accepted\n- Date: 2024-01-03\n",
        ),
    ]);
    ok(&f, &["new", "Pick a queue", "--date", "2024-05-01"]);
    assert!(
        f.root.join("docs/adr/20240501-pick-a-queue.md").is_file(),
        "the project's folder"
    );
    assert!(!f
        .root
        .join("packages/core/docs/adr/20240501-pick-a-queue.md")
        .exists());
}
