//! Markdown a record's title, an author's name or a commit's subject can't turn into HTML, a
//! link or an image when pasted into a pull request: each command's Markdown escapes them as
//! `review` does, with the one function `output::md` (issue 38, ADR-0011).

use crate::git::GitRepo;

const IMG: &str = "<img src=x onerror=alert(1)>";

/// Two records that govern `src/`, one current and one superseded, with markup in their
/// titles and status; commits after the decision by an author whose name is a link, with
/// markup in their subjects.
fn hostile_repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-cache.md",
        &format!(
            "# 1. Cache {IMG}\n\nStatus: Accepted\n\nDate: 2024-01-01\n\nThe code is `src/`.\n"
        ),
    )
    .write(
        "docs/adr/0002-old.md",
        "# 2. Old <b>bold</b> [x](javascript:alert(1))\n\nStatus: Superseded by ADR-0001\n\nThe code is `src/`.\n",
    )
    .write(
        "docs/adr/0003-odd.md",
        &format!("# 3. Odd\n\nStatus: Pending {IMG}\n\nThe code is `src/`.\n"),
    )
    .write("src/a.rs", "fn a() {}\n");
    repo.commit_at("2024-01-02T00:00:00Z", "Dev", "Start, ADR-0001");
    repo.write("src/a.rs", "fn a() { 1 }\n");
    repo.commit_at(
        "2024-02-01T00:00:00Z",
        "[Mal](javascript:alert(1))",
        &format!("Change {IMG}"),
    );
    repo.write("src/a.rs", "fn a() { 2 }\n");
    repo.commit_at(
        "2024-03-01T00:00:00Z",
        "Dev",
        &format!("Cite ADR-0001 {IMG}"),
    );
    repo
}

/// Markdown's text outside its code spans (backtick runs matched by length), with
/// backslash-escaped characters removed: what a renderer may read as HTML or a link.
fn rendered_text(markdown: &str) -> String {
    let mut out = String::new();
    let mut rest = markdown;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].bytes().take_while(|&b| b == b'`').count();
        let body = &rest[start + ticks..];
        let fence = "`".repeat(ticks);
        // A closing run of exactly as many backticks.
        let mut from = 0;
        let close = loop {
            match body[from..].find(&fence) {
                Some(at) => {
                    let at = from + at;
                    let run = body[at..].bytes().take_while(|&b| b == b'`').count();
                    if run == ticks {
                        break Some(at);
                    }
                    from = at + run;
                }
                None => break None,
            }
        };
        match close {
            Some(at) => rest = &body[at + ticks..],
            None => {
                out.push_str(&fence);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    let mut text = String::new();
    let mut chars = out.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            chars.next();
        } else {
            text.push(c);
        }
    }
    text
}

fn assert_no_markup(args: &[&str], stdout: &str) {
    let text = rendered_text(stdout);
    for raw in ["<img", "<b>", "](javascript"] {
        assert!(!text.contains(raw), "{args:?} renders {raw}:\n{stdout}");
    }
}

#[test]
fn titles_names_and_subjects_are_escaped_in_every_markdown_report() {
    let repo = hostile_repo();
    for args in [
        &["check"][..],
        &["check", "--git"][..],
        &["why", "src/a.rs"][..],
        &["why", "src/a.rs", "--git"][..],
        &["record", "ADR-0001"][..],
        &["record", "ADR-0002"][..],
        &["record", "ADR-0003"][..],
        &["context", "src/a.rs"][..],
        &["coverage", "--since", "2023-01-01"][..],
    ] {
        let run = repo.run(args);
        assert!(
            matches!(run.code, Some(0 | 1)),
            "{args:?}: {}",
            run.describe()
        );
        let stdout = run.stdout();
        assert_no_markup(args, &stdout);
        // What was written is still there to read, escaped.
        let said = match args {
            ["coverage", ..] => "",
            ["record", "ADR-0002"] => "Old \\<b\\>bold\\</b\\>",
            _ => "\\<img src=x onerror=alert(1)\\>",
        };
        assert!(stdout.contains(said), "{args:?}:\n{stdout}");
    }
    // The records' and commits' own text, as written, in the JSON.
    let json = repo.run(&["record", "ADR-0001", "--json"]).json();
    assert!(json.to_string().contains(IMG), "{json}");
}

#[test]
fn a_hooks_folder_named_with_backticks_stays_in_its_code_span() {
    let repo = GitRepo::new();
    repo.write("docs/adr/0001-a.md", "# 1. A\n\nStatus: Accepted\n");
    repo.commit_at("2024-01-02T00:00:00Z", "Dev", "Start");
    repo.git(&["config", "core.hooksPath", "hooks`<img src=x>`"]);
    let run = repo.run(&["install-hooks", "--force"]);
    run.assert_code(0);
    let stdout = run.stdout();
    assert_no_markup(&["install-hooks"], &stdout);
    assert!(stdout.contains("hooks`<img src=x>`"), "{stdout}");
}
