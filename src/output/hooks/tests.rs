//! Tests of the hooks' and `review`'s Markdown.

use super::*;

fn check(cited: bool, strict: bool) -> StagedCheck {
    StagedCheck {
        staged: 2,
        decisions: vec![Governing {
            id: "ADR-0004".into(),
            title: "Tokens\u{1b}[31m".into(),
            record: "docs/adr/0004-tokens.md".into(),
            paths: vec!["src/auth/login.py".into()],
            cited,
        }],
        skipped: None,
        strict,
        comment: ";".into(),
        quiet: Vec::new(),
        like: Vec::new(),
        repeats: Vec::new(),
        rules_added: Vec::new(),
    }
}

#[test]
fn the_warning_names_id_title_paths_and_how_to_cite() {
    let text = commit_msg(&check(false, false));
    assert!(text.starts_with("context-graph: warning: "), "{text}");
    assert!(
        text.contains("  ADR-0004 \"Tokens\\u{1b}[31m\" (docs/adr/0004-tokens.md) governs src/auth/login.py\n"),
        "{text}"
    );
    assert!(text.contains("git commit --amend"), "{text}");
    assert_eq!(commit_msg(&check(true, false)), "");
    let refused = commit_msg(&check(false, true));
    assert!(
        refused.starts_with("context-graph: commit refused"),
        "{refused}"
    );
}

#[test]
fn the_hint_is_comment_lines() {
    let text = hint(&check(false, false));
    assert!(text.lines().all(|l| l.starts_with(';')), "{text}");
    assert!(text.contains(";   ADR-0004 Tokens"), "{text}");
    assert!(text.ends_with(";\n"));
}

#[test]
fn lists_read_as_prose() {
    assert_eq!(and_list(&["a"]), "a");
    assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    let many: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
    assert_eq!(path_list(&many, 2), "p0, p1 and 8 more");
}

#[test]
fn a_short_line_names_one_decision_in_the_singular_and_several_in_the_plural() {
    let quiet = |ids: &[&str], reason: Quiet| StagedCheck {
        quiet: ids.iter().map(|id| (id.to_string(), reason)).collect(),
        ..StagedCheck::default()
    };
    let one = commit_msg(&quiet(&["ADR-0017"], Quiet::SharedFiles));
    assert_eq!(
        one,
        "context-graph: it edits files that ADR-0017 governs with other decisions; cite it if it \
         follows or changes it\n"
    );
    let two = commit_msg(&quiet(&["ADR-0003", "ADR-0004"], Quiet::SharedFiles));
    assert_eq!(
        two,
        "context-graph: it edits files that ADR-0003 and ADR-0004 all govern; cite the one it \
         follows or changes\n"
    );
    let one = commit_msg(&quiet(&["ADR-0006"], Quiet::LayoutKept));
    assert!(one.contains("whose place ADR-0006 decides,"), "{one}");
    let two = commit_msg(&quiet(&["ADR-0006", "ADR-0009"], Quiet::LayoutKept));
    assert!(
        two.contains("whose place ADR-0006 and ADR-0009 decide,"),
        "{two}"
    );
    let one = commit_msg(&quiet(&["ADR-0003"], Quiet::Unechoed));
    assert!(one.contains("nothing with the record; cite it if"), "{one}");
}
