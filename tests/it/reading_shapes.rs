//! The shapes of issue 19 (docs/reading.md, docs/configuration.md; ADR-0001, ADR-0012), each on a fixture of its
//! own under `fixtures/shapes/`, read through the binary: dated names with a number, supersession
//! and amendment as people write them, links to record files that aren't there, which files are
//! records, `.adr-dir` folders, a record set with no statuses, globs and MDX markers; then
//! `.context-graph.toml` and the grouped report.

use crate::env::no_index;
use crate::fixture::*;
use serde_json::Value;

fn ids_of(v: &Value) -> Vec<String> {
    strings(v)
}

// ---- 1. Dated names with a number --------------------------------------------------------

#[test]
fn a_dated_name_with_a_number_takes_it_as_its_id() {
    let j = json("shapes/dated-numbered");
    let r = record_at(&j, "rfcs/2021-05-04-1234-retry-budget.md");
    assert_eq!(r["id"], "RFC-1234");
    assert_eq!(r["title"], "Retry budget");
    assert_eq!(r["date"], "2021-05-04");
    // `# RFC #1301 - Circuit breakers`, and an unpadded date in the name.
    assert_eq!(
        record_at(&j, "rfcs/2021-06-10-1301-circuit-breakers.md")["title"],
        "Circuit breakers"
    );
    let r = record_at(&j, "rfcs/2022-11-2-14714-backoff-jitter.md");
    assert_eq!(
        (r["id"].as_str(), r["date"].as_str()),
        (Some("RFC-14714"), Some("2022-11-02"))
    );
    // `# RFC 2023-05-02 - Shared limits` is a date: the plain dated name keeps its stem.
    let r = record_at(&j, "rfcs/2023-05-02-shared-limits.md");
    assert_eq!(
        (r["id"].as_str(), r["title"].as_str()),
        (Some("2023-05-02-shared-limits"), Some("Shared limits"))
    );
    // Siblings citing "RFC 1234" cite a record; no RFC-2023, no #827, no IETF RFC 7231.
    assert_eq!(ids_of(&record(&j, "RFC-1301")["cites"]), ["RFC-1234"]);
    assert_eq!(
        ids_of(&record(&j, "RFC-14714")["cites"]),
        ["RFC-1234", "RFC-1301"]
    );
    assert_eq!(
        ids_of(&record(&j, "RFC-1234")["cited_by"]),
        ["RFC-1301", "RFC-14714"]
    );
    let codes: Vec<String> = finding_list(&j)
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect();
    assert!(codes.iter().all(|c| c == "status-missing"), "{codes:?}");
}

// ---- 2, 3. Supersession and amendment in the forms people write ---------------------------

#[test]
fn supersession_and_amendment_in_the_forms_people_write() {
    let j = json("shapes/relations-forms");
    // "> This ADR was later superseded by [Use CockroachDB](…)" above the body: superseded.
    let r = record(&j, "ADR-0001");
    assert_eq!(r["status"], "superseded");
    assert_eq!(ids_of(&r["superseded_by"]), ["ADR-0003"]);
    // "> **Archived:** kept for historical reference only": deprecated.
    assert_eq!(record(&j, "ADR-0002")["status"], "deprecated");
    // "This ADR has superseded [ADR-0001](…)" and "Superseding [ADR-0002](…)."
    assert_eq!(ids_of(&record(&j, "ADR-0003")["supersedes"]), ["ADR-0001"]);
    assert_eq!(ids_of(&record(&j, "ADR-0004")["supersedes"]), ["ADR-0002"]);
    // "It amends ADR-0003 clauses 2 and 4"; "> **Amended by ADR-0006**" files the edge on 0006,
    // which says itself "narrows the rule ADR-0005 set"; "filed as an amendment of ADR-0003".
    assert_eq!(ids_of(&record(&j, "ADR-0005")["amends"]), ["ADR-0003"]);
    assert_eq!(ids_of(&record(&j, "ADR-0006")["amends"]), ["ADR-0005"]);
    assert_eq!(ids_of(&record(&j, "ADR-0007")["amends"]), ["ADR-0003"]);
    // Negations and hypotheticals stay ignored.
    let r = record(&j, "ADR-0008");
    assert!(
        list(r, "supersedes").is_empty() && list(r, "amends").is_empty(),
        "{r:#}"
    );
    assert_eq!(record(&j, "ADR-0003")["status"], "accepted");
    assert!(finding_list(&j).is_empty(), "{:#}", j["findings"]);
}

// ---- 4, 5. Links to missing record files; which files are records --------------------------

#[test]
fn a_link_to_a_missing_record_file_names_the_closest_one_and_cites_nothing() {
    let j = json("shapes/which-files");
    let r = record_at(&j, "docs/decisions/20240110-style-guide.md");
    assert!(list(r, "cites").is_empty(), "{r:#}");
    assert_eq!(r["status"], "superseded");
    // The relation it stood in keeps today's unknown-id finding.
    let id = r["id"].as_str().unwrap();
    assert!(
        has_finding(&j, "superseded-by-unknown", id),
        "{:#}",
        j["findings"]
    );
    let found = findings_of(&j, "link-to-missing-record", id);
    assert_eq!(found.len(), 1, "{:#}", j["findings"]);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("docs/decisions/20230303-linter-policy.md"),
        "{message}"
    );
    assert!(
        message.contains("docs/decisions/20250303-linter-policy.md"),
        "{message}"
    );
    assert_eq!(found[0]["severity"], "warning");
    assert!(!has_finding(&j, "unknown-reference", id));
}

#[test]
fn which_files_in_a_record_folder_are_records() {
    let j = json("shapes/which-files");
    assert_eq!(
        crate::fixture::record_paths(&j),
        [
            "docs/decisions/0000-use-markdown-architectural-decision-records.md",
            "docs/decisions/0039-use-velocity-as-template-engine.md",
            "docs/decisions/20240110-style-guide.md",
            "docs/decisions/20250303-linter-policy.md",
        ]
    );
    // MADR's first record is a record, and "template" in a title does not exclude it.
    assert_eq!(record(&j, "ADR-0000")["status"], "accepted");
    assert_eq!(
        record(&j, "ADR-0039")["title"],
        "Use Velocity as template engine"
    );
}

// ---- 6. Folders named by .adr-dir ---------------------------------------------------------

#[test]
fn a_folder_named_by_adr_dir_holds_adrs() {
    let j = json("shapes/adr-dir");
    assert_eq!(ids(&j), ["ADR-0001", "ADR-0002"]);
    assert_eq!(ids_of(&record(&j, "ADR-0002")["cites"]), ["ADR-0001"]);
    assert!(finding_list(&j).is_empty(), "{:#}", j["findings"]);
}

// ---- 7. A record set with no statuses -------------------------------------------------------

#[test]
fn a_record_set_with_no_statuses_is_one_grouped_line_saying_how_to_declare_it() {
    let f = copy_fixture("shapes/dated-numbered");
    let text = f.run_md(&[]).stdout();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("status-missing"))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].starts_with("- `status-missing`: 4 records have no status: "),
        "{text}"
    );
    assert!(
        text.contains("`[[folders]]` `path = \"rfcs\"` `default_status = \"accepted\"`"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 102), "{text}");
    // With the folder's status declared, the records are accepted and nothing is said.
    f.write(
        ".context-graph.toml",
        b"[[folders]]\npath = \"rfcs\"\ndefault_status = \"accepted\"\n",
    );
    let j = f.run_json(&[]).json();
    assert!(finding_list(&j).is_empty(), "{:#}", j["findings"]);
    let r = record(&j, "RFC-1234");
    assert_eq!(
        (r["status"].as_str(), r["status_text"].as_str()),
        (Some("accepted"), Some(""))
    );
}

// ---- 8. Globs and markers as adrkit reads them ---------------------------------------------

#[test]
fn globs_skip_dot_names_and_mdx_comments_are_markers() {
    let f = copy_fixture("shapes/dots-and-mdx");
    let why = |p: &str| f.run_json(&["why", p]).json()["query"]["decisions"].clone();
    assert_eq!(column(&why("config/app.yml"), "id"), ["ADR-0001"]);
    // `**/*.yml` does not name the dot: `.github/workflows/ci.yml` is not governed.
    assert!(column(&why(".github/workflows/ci.yml"), "id").is_empty());
    // `{/* @adr 2 */}` declares; a heading, a list item and a fenced block do not.
    let d = why("site/guide.mdx");
    assert_eq!(column(&d, "id"), ["ADR-0002"], "{d:#}");
    assert_eq!(d[0]["declared_by"][0]["line"], 1);
}

// ---- .context-graph.toml ---------------------------------------------------------------------

#[test]
fn the_config_file_sets_folders_prefixes_exclusions_and_ignored_codes() {
    let f = copy_fixture("shapes/dated-numbered");
    std::fs::rename(f.path("rfcs"), f.path("proposals")).unwrap();
    f.write(
        ".context-graph.toml",
        b"[[folders]]\npath = \"proposals\"\nprefix = \"RFC\"\nexclude = [\"proposals/2023-*\"]\n\n[findings]\nignore = [\"status-missing\"]\n",
    );
    let run = f.run_json(&[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    let j = run.json();
    assert_eq!(ids(&j), ["RFC-1234", "RFC-1301", "RFC-14714"]);
    assert!(finding_list(&j).is_empty(), "{:#}", j["findings"]);
    let notes = strings(&j["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n == "3 findings ignored by .context-graph.toml (status-missing 3)"),
        "{notes:?}"
    );
    // `--docs` still wins over the configured folders.
    let run = f.run_json(&["--docs", "proposals", "--no-index"]);
    assert_eq!(ids(&run.json()).len(), 3, "{}", run.describe());
}

#[test]
fn an_invalid_config_is_exit_2_naming_its_line_and_an_unknown_key_warns() {
    let f = copy_fixture("shapes/dated-numbered");
    f.write(
        ".context-graph.toml",
        b"[[folders]]\npath = \"rfcs\"\ndefault_status = \"maybe\"\n",
    );
    let run = f.run_md(&[]);
    assert_eq!(run.code, Some(2), "{}", run.describe());
    assert!(
        run.stderr
            .contains(".context-graph.toml:3: default_status \"maybe\" is not a known status word"),
        "{}",
        run.describe()
    );
    f.write(
        ".context-graph.toml",
        b"[findings]\nignore = [\"status-missing\"]\nsilence = true\n",
    );
    let run = f.run_json(&[]);
    assert_eq!(run.code, Some(0), "{}", run.describe());
    assert!(
        run.stderr
            .contains(".context-graph.toml:3: unknown key `findings.silence`, ignored"),
        "{}",
        run.describe()
    );
    assert!(finding_list(&run.json()).is_empty());
}

#[cfg(unix)]
#[test]
fn hooks_strict_in_the_config_refuses_an_uncited_commit_and_git_config_wins() {
    use crate::hooks::{commit, decisions, install, ok, stderr};
    let repo = decisions();
    install(&repo);
    repo.write(".context-graph.toml", "[hooks]\nstrict = true\n");
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Change login",
    );
    assert!(!out.status.success(), "refused: {}", stderr(&out));
    assert!(stderr(&out).contains("commit refused"), "{}", stderr(&out));
    // `git config context-graph.strict false` wins over the file.
    repo.git(&["config", "context-graph.strict", "false"]);
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 2\n",
        "Change login",
    );
    ok(&out, "git config wins");
}

#[test]
fn a_changed_config_is_read_by_the_index_as_by_a_scan() {
    let repo = crate::git::GitRepo::new();
    repo.write("rfcs/0001-a.md", "# A\n\nSee RFC 2.\n")
        .write("rfcs/0002-b.md", "# B\n")
        .commit_at("2024-01-01T00:00:00Z", "Ana", "Records");
    let indexed = |repo: &crate::git::GitRepo| repo.run(&["--json"]).json();
    let j = indexed(&repo);
    assert_eq!(record(&j, "RFC-0001")["status"], "unknown");
    repo.write(
        ".context-graph.toml",
        "[[folders]]\npath = \"rfcs\"\nprefix = \"DR\"\ndefault_status = \"accepted\"\n",
    );
    let j = indexed(&repo);
    assert_eq!(ids(&j), ["DR-0001", "DR-0002"]);
    assert_eq!(record(&j, "DR-0001")["status"], "accepted");
    let scanned = repo.run(&["--json", "--no-index"]).json();
    assert_eq!(j, scanned);
}

// ---- Rules the new repositories of docs/corpora.md asked for --------------------------------

#[test]
fn rules_from_the_corpora() {
    let j = json("shapes/corpus-rules");
    // Ember's `stage` is a status: recommended and released are implemented, discontinued is
    // deprecated, ready-for-release accepted, exploring proposed; "Reverted by …" is deprecated.
    let status = |path: &str| record_at(&j, path)["status"].as_str().unwrap().to_string();
    assert_eq!(status("text/0003-block-params.md"), "implemented");
    assert_eq!(status("text/0003-cli-doctor.md"), "deprecated");
    assert_eq!(status("text/0010-engines.md"), "implemented");
    assert_eq!(status("text/0012-blueprints.md"), "accepted");
    assert_eq!(status("text/0013-telemetry.md"), "deprecated");
    assert_eq!(status("text/2021-10-12-9568-namespacing.md"), "proposed");
    // Two RFC 3s merged from two repositories (their pull requests say so): no duplicate-id.
    assert!(
        !has_finding(&j, "duplicate-id", "RFC-0003"),
        "{:#}",
        j["findings"]
    );
    // `[process](README.md)` is no record file; `README.md` is paperwork, not code; RFC 3339 is
    // the IETF's; `# RFC 958 - …` in RFC-9568's own heading names itself.
    // `package.json`, named by four current records, is common ground: a mention of each,
    // governed by none (issue 36).
    let r = record_at(&j, "text/0003-block-params.md");
    assert!(list(r, "governs").is_empty(), "{r:#}");
    assert!(
        r["code_mentions"]
            .as_array()
            .expect("code_mentions")
            .iter()
            .any(|m| m["path"] == "package.json"),
        "{r:#}"
    );
    let rows: Vec<_> = finding_rows(&j)
        .into_iter()
        .filter(|(code, ..)| code != "status-missing")
        .collect();
    assert!(
        rows.iter()
            .all(|(code, ..)| code == "overlapping-governance"),
        "{rows:?}"
    );
    // A numbered file with no heading, status or date is still a record; a successor that says
    // it supersedes in a sentence of its own has said it.
    assert_eq!(status("text/0014-metrics.md"), "unknown");
    assert!(
        !has_finding(&j, "successor-not-reciprocal", "RFC-0015"),
        "{:#}",
        j["findings"]
    );
    // `package.json`, named by four current records, is common ground; `tsconfig.json`, by two,
    // is an overlap.
    assert_eq!(rows.len(), 1, "{rows:?}");
    let f = &finding_list(&j)[0];
    assert!(
        f["message"].as_str().unwrap().contains("`tsconfig.json`"),
        "{f:#}"
    );
}

// ---- The report and `why`, fit for a terminal -----------------------------------------------

#[test]
fn why_lists_current_then_proposed_then_unknown_status_then_history() {
    let f = empty_root();
    f.write("src/x.rs", b"fn x() {}\n");
    let write = |n: u32, title: &str, status: &str, extra: &str| {
        let status = if status.is_empty() {
            String::new()
        } else {
            format!("Status: {status}\n\n")
        };
        let body = format!("# {n}. {title}\n\n{status}It decides `src/x.rs`.{extra}\n");
        f.write(&format!("docs/adr/000{n}-x.md"), body.as_bytes());
    };
    write(1, "Old way", "Superseded by ADR-0005", "");
    write(2, "Maybe", "Proposed", "");
    write(3, "Unsure", "", "");
    write(4, "Dropped", "Rejected", "");
    write(5, "New way", "Accepted", "\n\nSupersedes ADR-0001.");
    let text = f.run_md(&["why", "src/x.rs"]).stdout();
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in:\n{text}"))
    };
    assert!(
        at("## ADR-0005: New way (accepted)") < at("## Proposed"),
        "{text}"
    );
    assert!(
        at("## Proposed") < at("- ADR-0002: Maybe (proposed)"),
        "{text}"
    );
    assert!(at("- ADR-0002") < at("## Unknown status"), "{text}");
    assert!(
        at("## Unknown status") < at("- ADR-0003: Unsure (unknown)"),
        "{text}"
    );
    assert!(at("- ADR-0003") < at("## History"), "{text}");
    assert!(
        at("## History") < at("- ADR-0001: Old way (superseded by ADR-0005)"),
        "{text}"
    );
    assert!(
        at("## History") < at("- ADR-0004: Dropped (rejected)"),
        "{text}"
    );
    assert!(!text.contains("superseded, superseded"), "{text}");
}

#[test]
fn the_json_keeps_every_finding_the_report_groups() {
    let f = copy_fixture("shapes/dated-numbered");
    let j = f.run_json(&[]).json();
    let missing = finding_list(&j)
        .iter()
        .filter(|x| x["code"] == "status-missing")
        .count();
    assert_eq!(missing, 4, "{:#}", j["findings"]);
    // A code found once reads in full, as before.
    f.write(
        "rfcs/2024-01-01-77-one-more.md",
        b"# RFC 77 - One more\n\nStatus: Maybe\n",
    );
    let text = f.run_md(&[]).stdout();
    assert!(
        text.contains("- **RFC-0077** `status-unrecognised` (rfcs/2024-01-01-77-one-more.md): "),
        "{text}"
    );
}

#[cfg(unix)]
#[test]
fn an_invalid_config_never_blocks_a_commit() {
    use crate::hooks::{commit, decisions, install, ok, stderr};
    let repo = decisions();
    install(&repo);
    repo.write(".context-graph.toml", "[hooks]\nstrict = \"very\"\n");
    let out = commit(
        &repo,
        "src/auth/login.py",
        "def login(): return 3\n",
        "Change login",
    );
    let err = stderr(&out);
    ok(&out, "a commit with an invalid .context-graph.toml");
    assert!(err.contains(".context-graph.toml:2: "), "{err}");
}

// ---- What a careful reader of five more repositories reads (docs/corpora.md) ---------------

/// `shapes/elsewhere` committed: `bin/make-index.js` once there, then deleted.
fn decisions_about_code_elsewhere() -> crate::git::GitRepo {
    let repo = crate::git::GitRepo::new();
    copy_dir(&fixture_dir("shapes/elsewhere"), repo.path());
    repo.write("bin/make-index.js", "// The index page.\n");
    repo.commit_at("2021-03-01T10:00:00Z", "Ana", "Start the RFCs");
    repo.remove("bin/make-index.js");
    repo.commit_at("2021-04-01T10:00:00Z", "Ben", "Drop the index page script");
    repo
}

#[test]
fn a_never_had_path_in_a_repository_of_decisions_about_code_elsewhere_is_no_finding() {
    let repo = decisions_about_code_elsewhere();
    for args in [&["check", "--json"][..], &["check", "--json", "--git"]] {
        let indexed = repo.run(args);
        let scanned = repo.run(&no_index(args));
        assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
        let j = indexed.json();
        // The tool's own paths, which this repository never had: the other repository's.
        for id in ["RFC-0001", "RFC-0004"] {
            assert!(
                !finding_list(&j).iter().any(|f| f["record"] == id),
                "{:#}",
                j["findings"]
            );
        }
        // A slip for one of its own files is still reported, naming the file.
        let slip = findings_of(&j, "governed-path-unknown", "RFC-0002");
        assert_eq!(slip.len(), 1, "{:#}", j["findings"]);
        assert!(
            slip[0]["message"]
                .as_str()
                .unwrap()
                .contains("`lib/validat.js`, which this repository has never had (close names here: `lib/validate.js`)"),
            "{:#}",
            slip[0]
        );
        // A path it had and lost is gone, as anywhere.
        assert_eq!(
            findings_of(&j, "governed-path-gone", "RFC-0003").len(),
            1,
            "{:#}",
            j["findings"]
        );
    }
    // `record` narrows to one record, and answers the same.
    let one = repo
        .run(&no_index(&["record", "RFC-0001", "--json"]))
        .json();
    assert!(finding_list(&one).is_empty(), "{:#}", one["findings"]);
}

#[test]
fn the_same_never_had_path_in_a_repository_of_code_is_reported() {
    let repo = decisions_about_code_elsewhere();
    for i in 0..3 {
        repo.write(&format!("src/part{i}.ts"), "export {}\n");
    }
    repo.commit_at("2021-05-01T10:00:00Z", "Cy", "The tool's code moves in");
    let j = repo.run(&no_index(&["check", "--json"])).json();
    let unknown: Vec<String> = findings_of(&j, "governed-path-unknown", "RFC-0001")
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(unknown.len(), 2, "{:#}", j["findings"]);
    assert!(unknown
        .iter()
        .any(|m| m.contains("`lib/commands/pause.js`")));
}

#[test]
fn code_a_decision_removes_and_a_shared_file_parts_are_configured_in() {
    let j = json("shapes/removed-and-shared");
    let rows = finding_rows(&j);
    // `terraform/data` went because ADR-0001 decided it: nothing missing. ADR-0002's
    // `terraform/old-module` went for no reason a record gives: still a finding.
    let split = record(&j, "ADR-0001");
    assert!(list(split, "missing_paths").is_empty(), "{split:#}");
    assert!(
        !rows.iter().any(|(_, _, id, _)| id == "ADR-0001"),
        "{rows:?}"
    );
    assert!(
        has_finding(&j, "governed-path-gone", "ADR-0002"),
        "{rows:?}"
    );
    // A removal not yet carried out governs what it removes.
    assert_eq!(
        list(record(&j, "ADR-0011"), "governs"),
        ["conf/legacy.toml"]
    );
    // Where a part is configured is a mention: no overlap on the shared pipeline file, and
    // the records govern neither it nor the listeners file.
    for id in ["ADR-0003", "ADR-0004"] {
        assert!(list(record(&j, id), "governs").is_empty(), "{id}");
    }
    let overlaps = findings_of(&j, "overlapping-governance", "ADR-0006");
    assert_eq!(overlaps.len(), 1, "{rows:?}");
    assert!(overlaps[0]["message"]
        .as_str()
        .unwrap()
        .contains("ADR-0005 and ADR-0006 both govern `conf/limits.toml`"));
    assert_eq!(
        rows.iter()
            .filter(|(code, ..)| code == "overlapping-governance")
            .count(),
        1,
        "{rows:?}"
    );
    // A citation written before the supersession, and one written after it: the date alone
    // cannot tell a mention of history from a reliance on the old decision, so both are kept.
    assert!(has_finding(&j, "cites-superseded", "ADR-0009"), "{rows:?}");
    assert!(has_finding(&j, "cites-superseded", "ADR-0010"), "{rows:?}");
}

#[test]
fn a_superseded_record_named_as_what_a_decision_replaces_is_cited_not_relied_on() {
    let repo = crate::git::GitRepo::new();
    copy_dir(&fixture_dir("shapes/removed-and-shared"), repo.path());
    repo.commit_at("2022-06-01T10:00:00Z", "Ana", "The records");
    let args = &["check", "--json"][..];
    let scanned = repo.run(&no_index(args));
    // The first indexed run builds the index, the second answers from it: both as a scan.
    for _ in 0..2 {
        let indexed = repo.run(args);
        assert_eq!(indexed.stdout(), scanned.stdout(), "{}", indexed.stderr);
    }
    let j = scanned.json();
    let rows = finding_rows(&j);
    // "to replace the queue one described in ADR 7", "instead of the queue of ADR-7", "the
    // retry loop described in ADR 7 will be dropped": cited, not relied on.
    for (id, replaced) in [
        ("ADR-0012", &["ADR-0007", "ADR-0010"][..]),
        ("ADR-0014", &["ADR-0007"]),
    ] {
        let r = record(&j, id);
        assert_eq!(list(r, "cites"), replaced, "{r:#}");
        assert_eq!(list(r, "cites_replaced"), replaced, "{r:#}");
        assert!(!has_finding(&j, "cites-superseded", id), "{rows:?}");
    }
    assert!(list(record(&j, "ADR-0007"), "cited_by").contains(&"ADR-0012".to_string()));
    // "does not replace ADR 7" relies on it; so do the older citations.
    for id in ["ADR-0009", "ADR-0010", "ADR-0013"] {
        assert!(list(record(&j, id), "cites_replaced").is_empty(), "{id}");
        assert!(has_finding(&j, "cites-superseded", id), "{id}: {rows:?}");
    }
}
