//! The README and docs/ as a user's pages: every link resolves inside the repository (a file
//! that exists there, or a heading of the page it points to), and "Install" gives only commands
//! that work as written (issue 40).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The prose with its code spans left out (a span may run over a line break within its
/// paragraph): an example such as `` `[ADR-0002](…)` `` is shown, not linked.
fn unspanned(text: &str) -> String {
    let prose = prose(text);
    let mut out = String::new();
    let mut rest = prose.as_str();
    // A run of N backticks opens a span that the next run of exactly N closes (CommonMark);
    // a run with no closing one is literal.
    while let Some(at) = rest.find('`') {
        out.push_str(&rest[..at]);
        let run = rest[at..].len() - rest[at..].trim_start_matches('`').len();
        let after = &rest[at + run..];
        let mut close = None;
        let mut from = 0;
        while let Some(i) = after[from..].find('`') {
            let start = from + i;
            let n = after[start..].len() - after[start..].trim_start_matches('`').len();
            if n == run {
                close = Some(start + n);
                break;
            }
            from = start + n;
        }
        match close {
            Some(end) => rest = &after[end..],
            None => {
                out.push_str(&rest[at..at + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// Every `](target)` link of the page's prose.
fn links(text: &str) -> Vec<String> {
    let prose = unspanned(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

fn check_page(rel: &str) -> usize {
    let path = root().join(rel);
    let text = std::fs::read_to_string(&path).expect("read the page");
    let base = path.parent().expect("a folder");
    let repo = root().canonicalize().expect("the repository");
    let mut checked = 0;
    for link in links(&text) {
        if link.starts_with("https://") || link.starts_with("http://") {
            continue;
        }
        let (file, anchor) = link.split_once('#').unwrap_or((link.as_str(), ""));
        let target: PathBuf = if file.is_empty() {
            path.clone()
        } else {
            let t = base.join(file);
            let canonical = t
                .canonicalize()
                .unwrap_or_else(|_| panic!("{rel}: the link {link} names nothing"));
            assert!(
                canonical.starts_with(&repo),
                "{rel}: {link} leaves the repository"
            );
            canonical
        };
        if !anchor.is_empty() {
            let page = std::fs::read_to_string(&target).expect("read the linked page");
            assert!(
                anchors(&page).iter().any(|a| a == anchor),
                "{rel}: no heading #{anchor} in {}",
                target.display()
            );
        }
        checked += 1;
    }
    checked
}

/// Every Markdown page directly in `docs/`, relative to the root.
fn docs_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("list docs/")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_link_of_the_readme_and_docs_resolves_inside_the_repository() {
    assert!(check_page("README.md") > 5);
    let pages = docs_pages();
    assert!(pages.len() >= 10, "docs/ holds a page per topic: {pages:?}");
    for page in &pages {
        check_page(page);
    }
    assert_eq!(
        slug("Pictures: graph and report --html"),
        "pictures-graph-and-report---html"
    );
}

#[test]
fn the_readme_links_every_docs_page() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README");
    for page in docs_pages() {
        assert!(
            links(&text)
                .iter()
                .any(|l| l.split('#').next() == Some(page.as_str())),
            "the README does not link {page}"
        );
    }
}

#[test]
fn install_gives_only_commands_that_work_as_written() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README");
    assert!(
        text.lines().count() <= 300,
        "the README is read in five minutes: at most 300 lines"
    );
    let install = text
        .split("\n## Install\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("an Install section");
    assert!(install.contains("cargo install --locked --path ."));
    assert!(
        install.contains("When a release is published from a tag"),
        "release archives are described as what a tag publishes, not as a release that exists"
    );
    assert!(Path::new(&root())
        .join(".github/workflows/release.yml")
        .is_file());
    // No placeholder owner in a URL a reader would copy, anywhere in the user's pages.
    for page in std::iter::once("README.md".to_string()).chain(docs_pages()) {
        let text = std::fs::read_to_string(root().join(&page)).expect("a page");
        assert!(!text.contains("OWNER/"), "{page} names a placeholder OWNER");
    }
}
