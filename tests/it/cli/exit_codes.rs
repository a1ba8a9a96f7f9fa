//! Exit codes (0: nothing found or warnings only, 1: problems, 2: no answer), and the root a run
//! defaults to.

use super::markdown;
use crate::fixture::*;

#[test]
fn exit_0_when_nothing_is_found() {
    let f = copy_fixture("adr-tools");
    let run = f.run_json(&[]);
    run.assert_code(0);
    assert!(finding_list(&run.json()).is_empty());
    let (code, _) = markdown(&f, &[]);
    assert_eq!(code, Some(0));
}

#[test]
fn exit_0_with_warnings_only() {
    let f = copy_fixture("nygard");
    let run = f.run_json(&[]);
    run.assert_code(0);
    let j = run.json();
    assert!(!finding_list(&j).is_empty(), "the fixture has a warning");
    assert!(finding_list(&j).iter().all(|f| f["severity"] == "warning"));
    assert_eq!(markdown(&f, &[]).0, Some(0));
}

#[test]
fn exit_1_with_problems() {
    let f = copy_fixture("checks/superseded-still-current");
    f.run_json(&[]).assert_code(1);
    f.run_json(&["check"]).assert_code(1);
    assert_eq!(markdown(&f, &[]).0, Some(1));
}

#[test]
fn check_subcommand_is_the_default() {
    let f = copy_fixture("checks/cites-superseded");
    let plain = f.run_json(&[]);
    let check = f.run_json(&["check"]);
    assert_eq!(plain.code, check.code);
    assert_eq!(plain.json(), check.json());
}

#[test]
fn exit_2_without_records() {
    let f = copy_fixture("empty");
    f.run_json(&[]).assert_usage_error();
    f.run_md(&[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_root_that_does_not_exist() {
    let f = empty_root();
    let missing = f.root.join("no-such-folder");
    f.env.run_json(&missing, &[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_root_that_is_a_file() {
    let f = copy_fixture("adr-tools");
    let file = f.root.join("services/catalog/db.py");
    f.env.run_json(&file, &[]).assert_usage_error();
}

#[test]
fn exit_2_for_a_missing_docs_folder() {
    let f = copy_fixture("discovery");
    f.run_json(&["--docs", "no/such/folder"])
        .assert_usage_error();
}

#[test]
fn exit_2_for_an_unknown_record_id() {
    let f = copy_fixture("why");
    f.run_json(&["record", "ADR-0999"]).assert_usage_error();
    f.run_json(&["--record", "ADR-0999"]).assert_usage_error();
    f.run_md(&["record", "ADR-0999"]).assert_usage_error();
}

#[test]
fn exit_2_for_an_ambiguous_bare_number() {
    // ADR-0005 and DR-0005 both have the number 5.
    let f = copy_fixture("why");
    f.run_json(&["record", "5"]).assert_usage_error();
}

#[test]
fn exit_2_for_why_outside_the_root() {
    let f = copy_fixture("why");
    let outside = f.env.path().join("outside");
    assert!(outside.is_dir());
    for path in ["../outside", "/etc", outside.to_str().unwrap()] {
        let run = f.run_json(&["why", path]);
        run.assert_usage_error();
        assert!(
            run.stdout.is_empty(),
            "no answer on stdout: {}",
            run.describe()
        );
    }
}

#[test]
fn why_is_answered_with_exit_0_despite_problems() {
    let f = copy_fixture("checks/governed-path-gone");
    f.run_json(&["why", "src/auth/login.py"]).assert_code(0);
    f.run_md(&["why", "src/auth/login.py"]).assert_code(0);
}

#[test]
fn record_is_answered_with_exit_0_despite_problems() {
    let f = copy_fixture("checks/superseded-still-current");
    let run = f.run_json(&["record", "ADR-0001"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        findings(&j),
        [(
            "superseded-still-current".to_string(),
            "ADR-0001".to_string()
        )]
    );
    f.run_md(&["record", "ADR-0001"]).assert_code(0);
}

#[test]
fn root_defaults_to_the_current_folder_outside_git() {
    let f = copy_fixture("why");
    let run = f.run_in(&f.root, ["--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        std::fs::canonicalize(j["root"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(&f.root).unwrap()
    );
    assert_eq!(records(&j).len(), 6);
}

#[test]
fn root_defaults_to_the_top_of_the_git_work_tree() {
    let f = copy_fixture("why");
    let git = f
        .command("git")
        .args(["init", "-q"])
        .current_dir(&f.root)
        .status()
        .expect("run git init");
    assert!(git.success());
    let run = f.run_in(&f.root.join("src/auth"), ["--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        std::fs::canonicalize(j["root"].as_str().unwrap()).unwrap(),
        std::fs::canonicalize(&f.root).unwrap()
    );
    assert_eq!(records(&j).len(), 6);
}
