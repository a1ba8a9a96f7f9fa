//! Rules in records (ADR-0021, docs/rules.md): a record's ```` ```context-graph ```` block is
//! read with the record; `check` reports what the current records' rules find in the tracked
//! files as git's index holds them, at the line, with the rule as written.

use crate::env::no_index;
use crate::git::GitRepo;
use serde_json::Value;

const HEAD: &str = "Status: Accepted\nDate: 2025-01-01\n\n## Decision\n\nAs below.\n\n";

/// A repository with one record carrying `block` (its lines between the fences), the files
/// given, committed.
pub(crate) fn with_rules(status: &str, block: &str, files: &[(&str, &str)]) -> GitRepo {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-rules.md",
        &format!(
            "# 1. Rules\n\nStatus: {status}\nDate: 2025-01-01\n\n## Decision\n\nAs below.\n\n```context-graph\n{block}```\n"
        ),
    );
    for (path, text) in files {
        g.write(path, text);
    }
    g.commit_at("2025-03-05T10:00:00Z", "Ann", "initial");
    g
}

/// The findings of `check --json` with a code starting `rule` or `stale`, as
/// `code path:line [target]`; and the exit code.
fn rule_findings(g: &GitRepo, args: &[&str]) -> (Vec<String>, i32) {
    let run = g.run(args);
    let j: Value = run.json();
    let found = j["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| {
            let c = f["code"].as_str().unwrap_or("");
            c.starts_with("rule") || c == "stale-exception"
        })
        .map(|f| {
            let mut s = format!(
                "{} {}:{}",
                f["code"].as_str().unwrap_or(""),
                f["path"].as_str().unwrap_or(""),
                f["line"]
            );
            if let Some(t) = f["target"].as_str() {
                s.push_str(&format!(" {t}"));
            }
            s
        })
        .collect();
    (found, run.code.unwrap_or(-1))
}

#[test]
fn forbid_text_flags_each_line_of_the_tracked_files_it_names() {
    let g = with_rules(
        "Accepted",
        "# no printing below the binary\nforbid text /println!/ in src/**/*.rs\n",
        &[
            (
                "src/lib.rs",
                "pub fn a() {\n    // println! in a comment counts too\n    println!(\"x\");\n}\n",
            ),
            ("src/main.rs", "fn main() {}\n"),
            ("tools/x.rs", "fn main() { println!(\"ok here\"); }\n"),
        ],
    );
    // An untracked file is not the code a commit records.
    g.write("src/scratch.rs", "fn s() { println!(\"mine\"); }\n");
    let (found, code) = rule_findings(&g, &["check", "--json"]);
    assert_eq!(
        found,
        ["rule-violated src/lib.rs:2", "rule-violated src/lib.rs:3"]
    );
    assert_eq!(code, 1, "a broken rule is a problem");
    let j = g.run(&["check", "--json"]).json();
    let f = &j["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "rule-violated")
        .expect("one")
        .clone();
    assert_eq!(f["record"], "ADR-0001");
    assert_eq!(f["rule"], "forbid text /println!/ in src/**/*.rs");
    assert_eq!(f["severity"], "problem");
    // The human report names the place and the rule.
    let md = g.run(&["check"]).stdout();
    assert!(md.contains("src/lib.rs:3"), "{md}");
    assert!(md.contains("forbid text /println!/ in src/**/*.rs"), "{md}");
}

#[test]
fn the_staged_content_is_checked_and_the_index_follows_a_staged_change() {
    let g = with_rules(
        "Accepted",
        "forbid text /unwrap\\(\\)/ in src/**\n",
        &[("src/a.rs", "fn a() {}\n")],
    );
    let (found, code) = rule_findings(&g, &["check", "--json"]);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(code, 0);
    // Edited in the work tree only: not what a commit would record.
    g.write("src/a.rs", "fn a() {}\nfn b() { x.unwrap(); }\n");
    assert!(rule_findings(&g, &["check", "--json"]).0.is_empty());
    // Staged: the warm answer sees it, as a fresh scan does.
    g.git(&["add", "src/a.rs"]);
    let warm = rule_findings(&g, &["check", "--json"]);
    assert_eq!(warm.0, ["rule-violated src/a.rs:2"]);
    assert_eq!(warm, rule_findings(&g, &no_index(&["check", "--json"])));
}

#[test]
fn forbid_dependency_reads_every_manifest_at_the_declaring_line() {
    let g = with_rules(
        "Accepted",
        "forbid dependency moment\nforbid dependency left-pad in packages/*/package.json\nforbid dependency requests\nforbid dependency serde_json\nforbid dependency github.com/pkg/errors\nforbid dependency org.slf4j:slf4j-api\nforbid dependency guava\n",
        &[
            ("package.json", "{\n  \"name\": \"root\",\n  \"devDependencies\": {\n    \"moment\": \"2\",\n    \"left-pad\": \"1\"\n  }\n}\n"),
            ("packages/web/package.json", "{\n  \"scripts\": {\"moment\": \"x\"},\n  \"dependencies\": {\n    \"left-pad\": \"1\"\n  }\n}\n"),
            ("requirements-dev.txt", "# tools\nRequests>=2.0\n"),
            ("Cargo.toml", "[package]\nname = \"x\"\n\n[target.'cfg(unix)'.dev-dependencies]\nserde-json = \"1\"\n"),
            ("go.mod", "module example.com/x\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n)\n"),
            ("pom.xml", "<project>\n  <dependencies>\n    <dependency>\n      <groupId>org.slf4j</groupId>\n      <artifactId>slf4j-api</artifactId>\n    </dependency>\n  </dependencies>\n</project>\n"),
            ("app/build.gradle.kts", "dependencies {\n    implementation(\"com.google.guava:guava:32.0-jre\")\n}\n"),
            ("notes.txt", "we dropped moment and left-pad\n"),
        ],
    );
    let (found, code) = rule_findings(&g, &["check", "--json"]);
    assert_eq!(
        found,
        [
            "rule-violated Cargo.toml:5 serde-json",
            "rule-violated app/build.gradle.kts:2 com.google.guava:guava",
            "rule-violated go.mod:4 github.com/pkg/errors",
            "rule-violated package.json:4 moment",
            "rule-violated packages/web/package.json:4 left-pad",
            "rule-violated pom.xml:5 org.slf4j:slf4j-api",
            "rule-violated requirements-dev.txt:2 Requests",
        ]
    );
    assert_eq!(code, 1);
}

#[test]
fn an_exception_allows_its_path_and_one_that_allows_nothing_is_stale() {
    let g = with_rules(
        "Accepted",
        "forbid text /TODO/ in src/**\nexcept src/legacy.py: frozen 2025-01-01\nexcept src/gone.py: it was fixed\n",
        &[
            ("src/legacy.py", "# TODO one\n# TODO two\n"),
            ("src/new.py", "x = 1  # TODO\n"),
        ],
    );
    let (found, code) = rule_findings(&g, &["check", "--json"]);
    assert_eq!(
        found,
        [
            "rule-violated src/new.py:1",
            "stale-exception docs/adr/0001-rules.md:13",
        ]
    );
    assert_eq!(code, 1);
}

#[test]
fn a_line_that_is_not_a_rule_is_rule_invalid_at_the_records_line() {
    let g = with_rules(
        "Accepted",
        "# fine\nforbid text /x/ in src/**\nforbid imports src/a -> src/b\nexcept src/a.py\n",
        &[("src/a.py", "y = 1\n")],
    );
    let (found, code) = rule_findings(&g, &["check", "--json"]);
    assert_eq!(
        found,
        [
            "rule-invalid docs/adr/0001-rules.md:13",
            "rule-invalid docs/adr/0001-rules.md:14",
        ]
    );
    assert_eq!(code, 1);
    let md = g.run(&["check"]).stdout();
    assert!(md.contains("an `except` needs a reason"), "{md}");
}

#[test]
fn a_proposed_records_rules_never_fail_check_and_a_superseded_ones_do_nothing() {
    for status in ["Proposed", "Superseded by ADR-0002"] {
        let g = with_rules(
            status,
            "forbid text /println!/ in src/**\n",
            &[("src/lib.rs", "fn a() { println!(); }\n")],
        );
        let (found, _) = rule_findings(&g, &["check", "--json"]);
        assert!(found.is_empty(), "{status}: {found:?}");
    }
}

#[test]
fn a_successor_without_a_block_drops_the_rules_and_a_block_of_comments_says_so() {
    for (block, dropped) in [
        ("", true),
        (
            "```context-graph\n# dropped: the binary prints now\n```\n",
            false,
        ),
    ] {
        let g = with_rules(
            "Superseded by ADR-0002",
            "forbid text /println!/ in src/**\n",
            &[("src/lib.rs", "fn a() {}\n")],
        );
        g.write(
            "docs/adr/0002-successor.md",
            &format!("# 2. Successor\n\n{HEAD}Supersedes ADR-0001.\n\n{block}"),
        );
        g.commit_at("2025-03-06T10:00:00Z", "Ann", "successor");
        let j = g.run(&["check", "--json"]).json();
        let codes: Vec<&str> = j["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["code"] == "rules-dropped")
            .map(|f| f["record"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(codes.len(), usize::from(dropped), "{block:?}: {j:#}");
        if dropped {
            assert_eq!(codes, ["ADR-0002"]);
        }
    }
}

#[test]
fn why_lists_the_rules_that_apply_and_the_violations_in_the_file() {
    let g = with_rules(
        "Accepted",
        "forbid text /unwrap\\(\\)/ in src/**\nforbid dependency moment\n",
        &[
            ("src/a.rs", "fn a() {\n    x.unwrap();\n}\n"),
            ("src/b.rs", "fn b() {}\n"),
            (
                "package.json",
                "{\n  \"dependencies\": {\n    \"moment\": \"2\"\n  }\n}\n",
            ),
            ("README.md", "# x\n"),
        ],
    );
    let rules_of = |path: &str| {
        let warm = g.run(&["why", path, "--json"]).json();
        let cold = g.run(&no_index(&["why", path, "--json"])).json();
        assert_eq!(warm["query"], cold["query"], "{path}");
        warm["query"]["rules"].clone()
    };
    assert_eq!(
        rules_of("src/a.rs"),
        serde_json::json!([{"id": "ADR-0001", "rule": "forbid text /unwrap\\(\\)/ in src/**", "violations": [{"line": 2, "target": null}]}])
    );
    assert_eq!(
        rules_of("src/b.rs"),
        serde_json::json!([{"id": "ADR-0001", "rule": "forbid text /unwrap\\(\\)/ in src/**", "violations": []}])
    );
    assert_eq!(
        rules_of("package.json"),
        serde_json::json!([{"id": "ADR-0001", "rule": "forbid dependency moment", "violations": [{"line": 3, "target": "moment"}]}])
    );
    assert_eq!(rules_of("README.md"), Value::Null, "no rule reads it");
    let md = g.run(&["why", "src/a.rs"]).stdout();
    assert!(md.contains("## Rules that apply"), "{md}");
    assert!(md.contains("**broken** at line 2"), "{md}");
}

#[test]
fn record_lists_its_rules_with_counts_and_a_proposed_ones_would_flag() {
    for (status, enforced) in [("Accepted", true), ("Proposed", false)] {
        let g = with_rules(
            status,
            "forbid text /TODO/ in src/**\nforbid dependency moment\n",
            &[("src/a.py", "# TODO\n# TODO\n")],
        );
        let j = g.run(&["record", "ADR-0001", "--json"]).json();
        let rules = j["query"]["rules"].as_array().expect("rules").clone();
        let counts: Vec<(u64, usize)> = rules
            .iter()
            .map(|r| {
                (
                    r["line"].as_u64().unwrap_or(0),
                    r["violations"].as_array().map_or(0, Vec::len),
                )
            })
            .collect();
        assert_eq!(counts, [(11, 2), (12, 0)], "{status}: {j:#}");
        let md = g.run(&["record", "ADR-0001"]).stdout();
        assert!(
            md.contains("`forbid text /TODO/ in src/**`: 2 violations"),
            "{md}"
        );
        assert_eq!(
            md.contains("not enforced"),
            !enforced,
            "{status}: a proposed record's rules are only shown: {md}"
        );
        let (_, code) = rule_findings(&g, &["check", "--json"]);
        assert_eq!(code, i32::from(enforced), "{status}");
    }
}

#[test]
fn context_gives_an_agent_the_rules_before_the_decisions() {
    let g = with_rules(
        "Accepted",
        "forbid text /unwrap\\(\\)/ in src/**\n",
        &[("src/a.rs", "fn a() {\n    x.unwrap();\n}\n")],
    );
    g.write(
        "docs/adr/0002-errors.md",
        &format!("---\ngoverns:\n  - src/\n---\n# 2. Errors\n\n{HEAD}"),
    );
    g.commit_at("2025-03-06T10:00:00Z", "Ann", "errors");
    let j = g.run(&["context", "src/a.rs", "--json"]).json();
    assert_eq!(
        j["query"]["context"]["rules"],
        serde_json::json!([{"path": "src/a.rs", "rules": [{"id": "ADR-0001", "rule": "forbid text /unwrap\\(\\)/ in src/**", "violations": [{"line": 2, "target": null}]}]}]),
        "{j:#}"
    );
    let md = g.run(&["context", "src/a.rs"]).stdout();
    let rules = md.find("## Rules the code must hold to").expect(&md);
    let decision = md.find("ADR-0002").expect(&md);
    assert!(rules < decision, "{md}");
    assert!(md.contains("broken today at line 2"), "{md}");
}

#[test]
fn rules_freeze_writes_a_baseline_that_only_shrinks() {
    let g = with_rules(
        "Accepted",
        "forbid text /TODO/ in src/**\nforbid dependency moment\n",
        &[
            ("src/a.py", "# TODO\n# TODO\n"),
            ("src/b.py", "# TODO\n"),
            ("src/c.py", "x = 1\n"),
            (
                "package.json",
                "{\n  \"dependencies\": {\n    \"moment\": \"2\"\n  }\n}\n",
            ),
        ],
    );
    let before = std::fs::read_to_string(g.path().join("docs/adr/0001-rules.md")).expect("read");
    g.run(&["rules", "freeze", "ADR-0001", "--dry-run"])
        .assert_code(0);
    assert_eq!(
        std::fs::read_to_string(g.path().join("docs/adr/0001-rules.md")).expect("read"),
        before,
        "a dry run writes nothing"
    );
    g.run(&["rules", "freeze", "ADR-0001"]).assert_code(0);
    let after = std::fs::read_to_string(g.path().join("docs/adr/0001-rules.md")).expect("read");
    let added: Vec<&str> = after.lines().filter(|l| l.starts_with("except ")).collect();
    assert_eq!(added.len(), 3, "{after}");
    for (line, path) in added.iter().zip(["src/a.py", "src/b.py", "package.json"]) {
        let date = line
            .strip_prefix(&format!("except {path}: frozen "))
            .unwrap_or_else(|| panic!("{line}"));
        assert_eq!(date.len(), 10, "{line}");
    }
    // Inside the block: the record's rules now hold.
    assert!(after.trim_end().ends_with("```"), "{after}");
    g.git(&["add", "docs/adr/0001-rules.md"]);
    assert_eq!(rule_findings(&g, &["check", "--json"]), (vec![], 0));
    // A place fixed: its exception allows nothing, and says so.
    g.write("src/b.py", "x = 2\n");
    g.git(&["add", "src/b.py"]);
    let (found, _) = rule_findings(&g, &["check", "--json"]);
    assert_eq!(found, ["stale-exception docs/adr/0001-rules.md:14"]);
    // A record without rules has nothing to freeze: one line, exit 2.
    g.write("docs/adr/0002-plain.md", &format!("# 2. Plain\n\n{HEAD}"));
    let run = g.run(&["rules", "freeze", "ADR-0002"]);
    run.assert_code(2);
}

#[cfg(unix)]
#[test]
fn the_commit_hook_warns_only_on_a_violation_the_staged_change_adds() {
    use crate::hooks::{commit, git, install, ok, stderr};
    let g = with_rules(
        "Accepted",
        "forbid text /TODO/ in src/**\n",
        &[("src/a.py", "# TODO old\n"), ("src/b.py", "x = 1\n")],
    );
    install(&g);
    // A file that already breaks the rule, changed beside it: not a word of rules.
    let err = ok(
        &commit(&g, "src/a.py", "# TODO old\nx = 2\n", "Edit a"),
        "git commit",
    );
    assert!(!err.contains("rule"), "{err}");
    // A new violation: warned, whatever the message cites; the commit is made.
    let before = g.head();
    let err = ok(
        &commit(&g, "src/b.py", "x = 1\n# TODO new\n", "Edit b (ADR-0001)"),
        "git commit",
    );
    assert_ne!(g.head(), before);
    assert!(
        err.contains(
            "context-graph: warning: the staged change breaks current decisions' rules where its base did not:\n  src/b.py:2 breaks ADR-0001's rule `forbid text /TODO/ in src/**`\n"
        ),
        "{err}"
    );
    // Judged on the staged blob: a fix left unstaged in the work tree changes nothing.
    g.write("src/c.py", "# TODO staged\n");
    ok(&git(&g, &["add", "src/c.py"], &[]), "git add");
    g.write("src/c.py", "x = 3\n");
    let err = ok(
        &git(&g, &["commit", "-q", "-m", "Add c (ADR-0001)"], &[]),
        "git commit",
    );
    assert!(err.contains("src/c.py:1 breaks ADR-0001's rule"), "{err}");
    // Strict mode refuses it, even when the message cites the record.
    g.git(&["config", "context-graph.strict", "true"]);
    g.write("src/d.py", "# TODO strict\n");
    ok(&git(&g, &["add", "src/d.py"], &[]), "git add");
    let before = g.head();
    let out = git(&g, &["commit", "-q", "-m", "Add d (ADR-0001)"], &[]);
    assert!(!out.status.success(), "{}", stderr(&out));
    assert_eq!(g.head(), before);
    assert!(stderr(&out)
        .contains("commit refused (context-graph.strict is true): the staged change breaks"));
}

#[test]
fn review_lists_the_violations_a_range_adds_and_removes() {
    let g = with_rules(
        "Accepted",
        "forbid text /TODO/ in src/**\n",
        &[("src/a.py", "# TODO old\n"), ("src/c.py", "# TODO kept\n")],
    );
    g.write("src/a.py", "x = 1\n")
        .write("src/b.py", "y = 2\n# TODO new\n")
        .write("src/c.py", "# TODO kept\nz = 3\n");
    g.commit_at("2025-03-06T10:00:00Z", "Ann", "fix a, add b");
    let j = g.run(&["review", "HEAD~1..HEAD", "--json"]).json();
    let places = |key: &str| -> Vec<String> {
        j["query"][key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|v| {
                        format!(
                            "{}:{} {}",
                            v["path"].as_str().unwrap_or(""),
                            v["line"],
                            v["record"].as_str().unwrap_or("")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(places("rules_added"), ["src/b.py:2 ADR-0001"], "{j:#}");
    assert_eq!(places("rules_removed"), ["src/a.py:1 ADR-0001"], "{j:#}");
    let md = g.run(&["review", "HEAD~1..HEAD"]).stdout();
    assert!(md.contains("## Rule violations the range adds"), "{md}");
    assert!(md.contains("## Rule violations the range removes"), "{md}");
}
