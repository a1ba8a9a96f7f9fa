//! `text` evidence (docs/related.md, ADR-0017): the record whose words a file's code echoes
//! most, and by a margin, is related to it; a file echoing two records alike and well above
//! the rest is related to both, one echoing three alike to none; a record shown only for a
//! name or title words is not shown when the file's code has next to nothing of it, unless
//! it writes out the file's path. Through `why --json`, `why`'s Markdown and `context`, the index
//! against `--no-index`; and no comparison where there are fewer than five records. Our own
//! text throughout.

use crate::fixture::adr;
use crate::git::GitRepo;
use crate::related::{kinds, related_with_text};

const RECORDS: &[(u32, &str, &str)] = &[
    (
        1,
        "Record architecture decisions",
        "We keep decision records in this folder.",
    ),
    (
        2,
        "Watch the library for new files",
        "## Context\n\nUsers drop papers into their library directory and expect them to \
         appear.\n\n## Decision\n\nWe poll the directory with a file alteration monitor, and \
         an observer hands each created file to the importer. The polling interval is five \
         seconds.",
    ),
    (
        3,
        "Keep chat history in one store",
        "Chats are kept in an embedded key-value store, one map per library, written on \
         every message.",
    ),
    (
        4,
        "Render prompts with Velocity",
        "Prompts are rendered from templates kept beside the code, so that a translator can \
         change their wording.",
    ),
    (
        5,
        "Parse the command line with picocli",
        "Every subcommand is a picocli command class; errors are printed by one handler.",
    ),
    (
        6,
        "Route calls through the hub",
        "Every call to a remote service goes through one place, which retries it.",
    ),
    (
        7,
        "Sign the releases",
        "Every release is signed with the project's key.",
    ),
    (
        8,
        "Keep the changelog by hand",
        "Each change adds a line to the changelog; a script checks it, as in \
         `tools/check.py`.",
    ),
];

/// Code that watches a folder, in a file whose name says nothing of any record.
const POLLER: &str = "package org.shelf.gui.util;

import org.apache.commons.io.monitor.FileAlterationListenerAdaptor;
import org.apache.commons.io.monitor.FileAlterationMonitor;
import org.apache.commons.io.monitor.FileAlterationObserver;

public class Poller {
    private final FileAlterationMonitor monitor = new FileAlterationMonitor(5000);

    public void watch(Path directory, Importer importer) {
        FileAlterationObserver observer = new FileAlterationObserver(directory.toFile());
        observer.addListener(new FileAlterationListenerAdaptor() {
            @Override
            public void onFileCreate(File file) { importer.importFile(file); }
        });
        monitor.addObserver(observer);
        monitor.start();
    }
}
";

/// Code that renders a Velocity template for a picocli command: two records' subjects alike.
const BOTH: &str = "class Main {
    void run() { velocity(); picocli(); velocity(); }
}
";

/// The same, and the changelog: three records' subjects alike.
const THREE: &str = "class All {
    void run() { velocity(); picocli(); changelog(); }
}
";

/// Code about invoices, of many names, in a file whose name has a record's title word (`hub`).
fn invoices() -> String {
    const NOUNS: &[&str] = &[
        "invoice",
        "ledger",
        "amount",
        "currency",
        "discount",
        "refund",
        "payment",
        "customer",
        "balance",
        "receipt",
        "statement",
        "vendor",
    ];
    const VERBS: &[&str] = &[
        "total",
        "round",
        "convert",
        "apply",
        "issue",
        "settle",
        "audit",
        "export",
        "archive",
        "reconcile",
        "charge",
        "void",
    ];
    const WHEN: &[&str] = &["Daily", "Monthly", "Yearly", "Late", "Early", "Partial"];
    let mut out = String::from("// Totals of the invoices.\n");
    for noun in NOUNS {
        for verb in VERBS {
            for when in WHEN {
                let name = format!("{verb}{}{}{when}", noun[..1].to_uppercase(), &noun[1..]);
                out.push_str(&format!("fn {name}(x: Amount) -> Amount {{ x }}\n"));
            }
        }
    }
    out
}

/// The file of record `n` of [`RECORDS`].
fn record_file(n: u32) -> String {
    let (_, title, _) = RECORDS.iter().find(|(m, _, _)| *m == n).unwrap();
    let slug = title.to_lowercase().replace(' ', "-");
    format!("docs/adr/000{n}-{slug}.md")
}

/// Removes the records numbered `gone`, in one commit.
fn drop_records(repo: &GitRepo, gone: &[u32]) {
    for n in gone {
        repo.remove(&record_file(*n));
    }
    repo.commit_at("2025-01-03T10:00:00Z", "Ann", "Drop some records");
}

fn repo() -> GitRepo {
    let repo = GitRepo::new();
    for (n, title, body) in RECORDS {
        repo.write(
            &record_file(*n),
            &adr(*n, title, "Accepted", Some("2025-01-01"), body),
        );
    }
    repo.commit_at("2025-01-01T10:00:00Z", "Ann", "Record the decisions");
    repo.write("src/gui/util/Poller.java", POLLER);
    repo.write("src/cli/Main.java", BOTH);
    repo.write("src/cli/All.java", THREE);
    repo.write("tools/check.py", "import sys\nprint(len(sys.argv))\n");
    repo.write("src/hub.rs", "fn hub() {}\n");
    repo.write("src/billing/hub.rs", &invoices());
    repo.write(
        "src/sign/release_hub.rs",
        "// Signs each release with the project's key: see ADR-0007.\nfn sign() {}\n",
    );
    repo.commit_at("2025-01-02T10:00:00Z", "Bob", "Add the code");
    repo
}

#[test]
fn the_record_a_files_code_echoes_is_related_with_the_words_it_shares() {
    let repo = repo();
    let related = related_with_text(&repo, "src/gui/util/Poller.java");
    assert_eq!(kinds(&related), ["ADR-0002 text"], "{related:#}");
    assert_eq!(related[0]["score"], 2);
    let words: Vec<&str> = related[0]["evidence"][0]["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(!words.is_empty() && words.len() <= 4, "{words:?}");
    assert!(
        words
            .iter()
            .any(|w| ["alteration", "observer", "monitor"].contains(w)),
        "{words:?}"
    );
    let text = repo.run(&["why", "src/gui/util/Poller.java"]).stdout();
    assert!(
        text.contains(
            "- ADR-0002: Watch the library for new files (accepted): its words in this file: `"
        ),
        "{text}"
    );
    let context = repo.run(&["context", "src/gui/util/Poller.java", "--json"]);
    context.assert_code(0);
    assert!(
        context.stdout().contains("\"kind\": \"text\""),
        "{}",
        context.stdout()
    );
}

#[test]
fn a_file_echoing_two_records_alike_is_related_to_both_and_three_to_none() {
    let repo = repo();
    let related = related_with_text(&repo, "src/cli/Main.java");
    assert_eq!(
        kinds(&related),
        ["ADR-0004 text", "ADR-0005 text"],
        "{related:#}"
    );
    let related = related_with_text(&repo, "src/cli/All.java");
    assert!(
        !kinds(&related).iter().any(|k| k.contains("text")),
        "{related:#}"
    );
}

#[test]
fn a_path_written_out_in_passing_is_related_by_that_alone() {
    let repo = repo();
    // Four records: no comparison of words, so the name is all there is.
    drop_records(&repo, &[3, 4, 5, 6]);
    // "as in `tools/check.py`": named in passing, so not governed; but written out in full.
    let why = repo.run(&["why", "tools/check.py", "--json"]);
    why.assert_code(0);
    let answer = why.json();
    assert_eq!(
        answer["query"]["decisions"],
        serde_json::json!([]),
        "{answer:#}"
    );
    let related = related_with_text(&repo, "tools/check.py");
    assert_eq!(kinds(&related), ["ADR-0008 name"], "{related:#}");
    assert_eq!(related[0]["score"], 2);
    assert_eq!(related[0]["evidence"][0]["term"], "tools/check.py");
}

#[test]
fn a_title_word_in_a_name_the_code_never_takes_up_is_not_shown() {
    let repo = repo();
    // A file of a line: its name is most of what it says, and the record's word is in it.
    assert_eq!(
        kinds(&related_with_text(&repo, "src/hub.rs"))[0],
        "ADR-0006 words+text"
    );
    // The same name over sixty lines about invoices: the title word alone no longer tells.
    let related = related_with_text(&repo, "src/billing/hub.rs");
    assert_eq!(related, serde_json::json!([]), "{related:#}");
    // Without reading the code (a folder), the title word still tells.
    assert_eq!(
        kinds(&related_with_text(&repo, "src/billing/")),
        Vec::<String>::new()
    );
}

#[test]
fn fewer_than_five_records_are_not_compared() {
    let repo = repo();
    drop_records(&repo, &[3, 4, 7, 8]);
    assert_eq!(
        kinds(&related_with_text(&repo, "src/gui/util/Poller.java")),
        Vec::<String>::new()
    );
    // The title word tells again: the code is not compared.
    assert_eq!(
        kinds(&related_with_text(&repo, "src/billing/hub.rs")),
        ["ADR-0006 words"]
    );
}

#[test]
fn a_record_under_half_the_first_ones_score_is_not_shown() {
    let repo = repo();
    // ADR-0007: a comment names it (5) and a title word is in the name; ADR-0006's title word
    // `hub` in the name (2) is under half of that.
    let related = related_with_text(&repo, "src/sign/release_hub.rs");
    let shown = kinds(&related);
    assert_eq!(shown.len(), 1, "{related:#}");
    assert!(shown[0].starts_with("ADR-0007 link"), "{related:#}");
    assert!(related[0]["score"].as_u64().unwrap() > 4, "{related:#}");
    // Alone, the title word is shown.
    assert_eq!(
        kinds(&related_with_text(&repo, "src/hub.rs")),
        ["ADR-0006 words+text"]
    );
}
