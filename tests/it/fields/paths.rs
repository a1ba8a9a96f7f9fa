//! Paths: what a record governs, which governed paths are missing, and where a missing one moved.

use crate::fixture::*;
use serde_json::{json, Value};

// ------------------------------------------------------------------ governs

fn governs(corpus: &str, id: &str) -> Vec<String> {
    list(&rec(corpus, id), "governs")
}

#[test]
fn governs_a_backticked_file() {
    assert!(governs("fields", "ADR-0025").contains(&"src/auth/login.py".to_string()));
    assert_eq!(governs("frontmatter", "ADR-0004"), ["src/auth/login.py"]);
}

#[test]
fn governs_a_linked_path_relative_to_the_record_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/auth/session.py".to_string()));
}

#[test]
fn governs_dir_star_as_the_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/billing/".to_string()));
}

#[test]
fn governs_dir_double_star_as_the_folder() {
    assert!(governs("fields", "ADR-0025").contains(&"src/api/".to_string()));
    assert_eq!(
        governs("checks/overlapping-governance", "ADR-0002"),
        ["src/auth/"]
    );
}

#[test]
fn governs_folders_with_a_trailing_slash() {
    assert_eq!(governs("fields", "ADR-0026"), ["src/billing/"]);
    assert_eq!(
        governs("nygard", "ADR-0003"),
        ["app/orders/outbox.py", "app/payments/"]
    );
}

#[test]
fn governs_exactly_the_named_existing_paths() {
    assert_eq!(
        governs("fields", "ADR-0025"),
        [
            "src/api/",
            "src/auth/login.py",
            "src/auth/session.py",
            "src/billing/"
        ]
    );
}

#[test]
fn a_path_escaping_the_root_never_counts() {
    // The copied fixture has `../outside/secret.py` next to it: it exists, and must not count.
    let fixture = copy_fixture("fields");
    assert!(fixture.root.join("../outside/secret.py").is_file());
    let run = fixture.run_json(&[]);
    let j = run.json();
    let r = record(&j, "ADR-0025");
    for key in ["governs", "missing_paths"] {
        for p in list(r, key) {
            assert!(
                !p.contains("secret") && !p.contains("..") && !p.starts_with('/'),
                "{key} holds a path outside the root: {p}"
            );
        }
    }
    let moved = serde_json::to_string(&r["moved"]).unwrap();
    assert!(!moved.contains("secret"), "moved: {moved}");
}

#[test]
fn links_to_records_are_citations_not_governed_paths() {
    assert!(governs("fields", "ADR-0024").is_empty());
    assert!(governs("fields", "ADR-0023").is_empty());
    assert!(list(&rec("fields", "ADR-0024"), "missing_paths").is_empty());
    assert!(governs("fields", "ADR-0003").is_empty());
    assert!(governs("fields", "ADR-0016").is_empty());
}

#[test]
fn commands_and_urls_in_backticks_or_links_are_not_paths() {
    let r = rec("fields", "ADR-0025");
    for key in ["governs", "missing_paths"] {
        for p in list(&r, key) {
            assert!(
                !p.contains("cargo") && !p.contains("example.com") && !p.contains("https"),
                "{key}: {p}"
            );
        }
    }
}

#[test]
fn governs_in_a_crlf_file() {
    assert_eq!(governs("fields", "ADR-0029"), ["src/billing/invoice.py"]);
    assert_eq!(governs("madr", "ADR-0004"), ["api/handlers/"]);
}

#[test]
fn paths_inside_fenced_blocks_are_not_read() {
    assert!(governs("fields", "ADR-0027").is_empty());
    assert!(governs("nygard", "ADR-0004").is_empty());
    assert!(list(&rec("fields", "ADR-0027"), "missing_paths").is_empty());
}

// ------------------------------------------------------------------ missing paths

#[test]
fn missing_path_under_an_existing_top_level_folder() {
    assert_eq!(
        list(&rec("fields", "ADR-0025"), "missing_paths"),
        ["src/auth/federation/provider.py"]
    );
    assert_eq!(
        list(
            &rec("checks/governed-path-gone", "ADR-0001"),
            "missing_paths"
        ),
        ["src/payments/refund.py"]
    );
}

#[test]
fn a_path_whose_first_part_is_not_a_top_level_folder_is_not_missing() {
    let r = rec("checks/governed-path-gone", "ADR-0003");
    assert!(list(&r, "missing_paths").is_empty(), "{r:#}");
    assert!(list(&r, "governs").is_empty(), "{r:#}");
}

#[test]
fn missing_paths_are_listed_for_records_that_are_not_current() {
    assert_eq!(
        list(
            &rec("checks/governed-path-gone", "ADR-0002"),
            "missing_paths"
        ),
        ["src/payments/refund.py"]
    );
}

// ------------------------------------------------------------------ moved

fn moved(corpus: &str, id: &str) -> Value {
    rec(corpus, id)["moved"].clone()
}

#[test]
fn moved_to_a_sibling_whose_name_it_contains() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0001"),
        json!({"services/ledger-sync": ["services/ledger"]})
    );
    assert_eq!(
        list(
            &rec("checks/governed-path-moved", "ADR-0001"),
            "missing_paths"
        ),
        ["services/ledger-sync"]
    );
}

#[test]
fn moved_to_a_sibling_within_a_small_edit_distance() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0002"),
        json!({"src/autth": ["src/auth"]})
    );
}

#[test]
fn moved_compares_names_case_insensitively_without_trailing_slash() {
    assert_eq!(
        moved("checks/governed-path-moved", "ADR-0003"),
        json!({"services/Billing-Old": ["services/billing"]})
    );
}

#[test]
fn moved_is_empty_without_a_close_sibling() {
    assert_eq!(moved("checks/governed-path-gone", "ADR-0001"), json!({}));
    assert_eq!(moved("fields", "ADR-0025"), json!({}));
}
