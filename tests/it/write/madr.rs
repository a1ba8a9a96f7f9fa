//! MADR's own folder (adr/madr's `docs/decisions`: Jekyll frontmatter, a template whose
//! frontmatter is mostly comments, links under `## More Information`): `supersede`, `status`
//! and `amend` leave every frontmatter valid YAML as a YAML parser outside this tool reads it
//! (Python's `yaml`), with MADR's `status` and `date` fields, none of the template's comments or
//! page settings, and a full check with no finding the write caused (issue 39).

use super::*;
use std::path::PathBuf;
use std::process::Command;

/// MADR's `docs/decisions/adr-template.md`, in its shape: Jekyll's settings for the template's
/// own page, the optional fields commented out, markdownlint directives before the title.
const TEMPLATE: &str = "---\n# Configuration for the Jekyll template \"Just the Docs\"\nparent: Decisions\nnav_order: 100\ntitle: ADR Template\n\n# These are optional elements. Feel free to remove any of them.\n# status: \"{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123\"\n# date: {YYYY-MM-DD when the decision was last updated}\n# decision-makers: {list everyone involved in the decision}\n---\n<!-- the homepage uses another first heading, so MD025 is off here -->\n<!-- markdownlint-disable-next-line MD025 -->\n# {short title, representative of solved problem and found solution}\n\n## Context and Problem Statement\n\n{Describe the context and problem statement}\n\n## Decision Outcome\n\nChosen option: \"{title of option 1}\", because {justification}.\n\n<!-- This is an optional element. Feel free to remove. -->\n## More Information\n\n{Links to other decisions and resources might appear here as well.}\n";

/// A record as MADR's own are: Jekyll's `parent` and `nav_order`, no status.
const PLAIN: &str = "---\nparent: Decisions\nnav_order: 2\n---\n# Keep Titles Plain\n\n## Context and Problem Statement\n\nHow is the first line written?\n\n## Decision Outcome\n\nChosen option: \"Title only\", because it reads well.\n";

/// A MADR 4 record with its status in frontmatter.
const FIELDED: &str = "---\nparent: Decisions\nnav_order: 1\nstatus: accepted\ndate: 2024-01-05\n---\n# Use Markdown Records\n\n## Context and Problem Statement\n\nWhere do decisions go?\n\n## Decision Outcome\n\nChosen option: \"Markdown\", because it diffs.\n\n## More Information\n\nSee the MADR site.\n";

fn madr_root() -> Fixture {
    root_with(&[
        ("docs/decisions/adr-template.md", TEMPLATE),
        ("docs/decisions/0001-use-markdown-records.md", FIELDED),
        ("docs/decisions/0002-keep-titles-plain.md", PLAIN),
    ])
}

/// Python with its `yaml` module (PyYAML): the system's, or where `.ci/run` installs it
/// (`~/.cache/context-graph-ci/pyyaml`).
fn python_yaml() -> Option<(PathBuf, Option<PathBuf>)> {
    let python = crate::pictures::on_path(&["python3", "python"])?;
    let cache = std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".cache/context-graph-ci/pyyaml"))
        .filter(|p| p.is_dir());
    let mut cmd = Command::new(&python);
    cmd.args(["-c", "import yaml"]);
    if let Some(c) = &cache {
        cmd.env("PYTHONPATH", c);
    }
    let works = cmd.output().is_ok_and(|o| o.status.success());
    works.then_some((python, cache))
}

/// Each file's frontmatter as PyYAML's `safe_load` reads it, as JSON (dates as text); a file
/// whose frontmatter is not YAML fails the test with PyYAML's message.
fn yaml_frontmatter(py: &(PathBuf, Option<PathBuf>), files: &[PathBuf]) -> Vec<serde_json::Value> {
    let script = "import json, sys, yaml\nout = []\nfor p in sys.argv[1:]:\n    text = open(p, encoding='utf-8').read()\n    assert text.startswith('---\\n'), p\n    fm = text[4:text.index('\\n---\\n', 3) + 1]\n    out.append(yaml.safe_load(fm))\nprint(json.dumps(out, default=str))\n";
    let mut cmd = Command::new(&py.0);
    cmd.arg("-c").arg(script).args(files);
    if let Some(c) = &py.1 {
        cmd.env("PYTHONPATH", c);
    }
    let out = cmd.output().expect("run python");
    assert!(
        out.status.success(),
        "PyYAML could not read a frontmatter: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The findings after a write that were not there before it.
fn new_findings(before: &[(String, String)], f: &Fixture) -> Vec<(String, String)> {
    check_findings(f)
        .into_iter()
        .filter(|x| !before.contains(x))
        .collect()
}

#[test]
fn supersede_keeps_frontmatter_yaml_and_links_under_more_information() {
    let f = madr_root();
    let before = check_findings(&f);
    ok(
        &f,
        &[
            "supersede",
            "2",
            "Allow numbers in headings",
            "--status",
            "accepted",
            "--date",
            "2024-05-01",
        ],
    );
    let new = read(&f, "docs/decisions/0003-allow-numbers-in-headings.md");
    assert_eq!(
        new,
        "---\nparent: Decisions\ntitle: Allow numbers in headings\nstatus: accepted\ndate: 2024-05-01\n---\n# Allow numbers in headings\n\n## Context and Problem Statement\n\n{Describe the context and problem statement}\n\n## Decision Outcome\n\nChosen option: \"{title of option 1}\", because {justification}.\n\n<!-- This is an optional element. Feel free to remove. -->\n## More Information\n\nSupersedes [ADR-0002](0002-keep-titles-plain.md)\n\n{Links to other decisions and resources might appear here as well.}\n"
    );
    // The old record says it in its frontmatter's `status`, as `status ID WORD` writes it.
    assert_eq!(
        read(&f, "docs/decisions/0002-keep-titles-plain.md"),
        PLAIN.replace(
            "nav_order: 2\n",
            "nav_order: 2\nstatus: superseded by [ADR-0003](0003-allow-numbers-in-headings.md)\n"
        )
    );
    assert_eq!(new_findings(&before, &f), Vec::<(String, String)>::new());
    let r = record_of(&f, "docs/decisions/0002-keep-titles-plain.md");
    assert_eq!(r["status"].as_str(), Some("superseded"), "{r}");

    let Some(py) = python_yaml() else {
        crate::skip::skipped("Python's yaml (PyYAML) is not installed (pip install pyyaml into ~/.cache/context-graph-ci/pyyaml): MADR's frontmatter read by our parser only");
        return;
    };
    let read_back = yaml_frontmatter(
        &py,
        &[
            f.path("docs/decisions/0003-allow-numbers-in-headings.md"),
            f.path("docs/decisions/0002-keep-titles-plain.md"),
        ],
    );
    assert_eq!(
        read_back[0],
        serde_json::json!({"parent": "Decisions", "title": "Allow numbers in headings", "status": "accepted", "date": "2024-05-01"})
    );
    assert_eq!(
        read_back[1],
        serde_json::json!({"parent": "Decisions", "nav_order": 2, "status": "superseded by [ADR-0003](0003-allow-numbers-in-headings.md)"})
    );
}

#[test]
fn status_and_amend_write_madr_fields_and_more_information() {
    let f = madr_root();
    let before = check_findings(&f);
    ok(&f, &["status", "2", "deprecated"]);
    assert_eq!(
        read(&f, "docs/decisions/0002-keep-titles-plain.md"),
        PLAIN.replace("nav_order: 2\n", "nav_order: 2\nstatus: deprecated\n")
    );
    ok(
        &f,
        &["amend", "1", "Keep records short", "--date", "2024-05-02"],
    );
    assert_eq!(
        read(&f, "docs/decisions/0001-use-markdown-records.md"),
        FIELDED.replace(
            "## More Information\n\n",
            "## More Information\n\nAmended by [ADR-0003](0003-keep-records-short.md)\n\n"
        )
    );
    let new = read(&f, "docs/decisions/0003-keep-records-short.md");
    assert!(
        new.starts_with("---\nparent: Decisions\ntitle: Keep records short\nstatus: proposed\ndate: 2024-05-02\n---\n# Keep records short\n"),
        "{new}"
    );
    assert!(
        new.contains("## More Information\n\nAmends [ADR-0001](0001-use-markdown-records.md)\n"),
        "{new}"
    );
    for gone in [
        "ADR-0123",
        "nav_order",
        "markdownlint",
        "# These are",
        "Configuration for",
    ] {
        assert!(!new.contains(gone), "{gone} in {new}");
    }
    assert_eq!(new_findings(&before, &f), Vec::<(String, String)>::new());

    let Some(py) = python_yaml() else {
        crate::skip::skipped("Python's yaml (PyYAML) is not installed (pip install pyyaml into ~/.cache/context-graph-ci/pyyaml): MADR's frontmatter read by our parser only");
        return;
    };
    let read_back = yaml_frontmatter(
        &py,
        &[
            f.path("docs/decisions/0001-use-markdown-records.md"),
            f.path("docs/decisions/0002-keep-titles-plain.md"),
            f.path("docs/decisions/0003-keep-records-short.md"),
        ],
    );
    assert_eq!(read_back[0]["status"], "accepted");
    assert_eq!(read_back[1]["status"], "deprecated");
    assert_eq!(read_back[2]["status"], "proposed");
    assert_eq!(read_back[2]["date"], "2024-05-02");
}
