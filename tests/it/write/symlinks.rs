//! Never through a link out of the root (ADR-0011, ADR-0013): a record folder, `--folder`, a
//! template, `.context-graph.toml` or a record that is a symlink leading outside the
//! repository is neither read nor written through. A write is refused with exit 2 and one line
//! naming the link; the folder outside is left as it was; a record so linked is never opened.

#![cfg(unix)]

use super::*;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A root holding one adr-tools record in `docs/adr`, and an empty folder `outside/` beside it.
fn root_and_outside() -> (Fixture, PathBuf) {
    let f = root_with(&[("docs/adr/0001-record.md", ADR_TOOLS_1)]);
    let outside = f.env.path().join("outside");
    std::fs::create_dir_all(&outside).expect("create outside/");
    (f, outside)
}

/// Every file under `dir` with its bytes, links not followed.
fn files_in(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.expect("walk");
        if e.file_type().is_file() {
            out.push((
                e.path().to_path_buf(),
                std::fs::read(e.path()).expect("read"),
            ));
        }
    }
    out
}

/// The line a write through the link `link` to `target` is refused with.
fn refusal(link: &str, target: &Path) -> String {
    format!(
        "{link} is a symlink to {}, outside the repository: refused",
        target.display()
    )
}

#[test]
fn a_folder_linked_out_of_the_root_is_never_written_to() {
    // `--folder` through a link to a folder outside.
    let (f, outside) = root_and_outside();
    symlink(&outside, f.path("docs/elsewhere")).expect("link docs/elsewhere");
    let before = files_in(&outside);
    let args = ["new", "Leak", "--folder", "docs/elsewhere"];
    refused(&f, &args, &refusal("docs/elsewhere", &outside));
    assert_eq!(files_in(&outside), before, "nothing written outside");

    // A committed `docs/adr` that is such a link: `new` and `init` refuse it.
    let (f, outside) = root_and_outside();
    std::fs::write(outside.join("0001-theirs.md"), ADR_TOOLS_1).expect("a record outside");
    std::fs::remove_dir_all(f.path("docs/adr")).expect("remove docs/adr");
    symlink(&outside, f.path("docs/adr")).expect("link docs/adr");
    let before = files_in(&outside);
    for args in [
        &["new", "Leak"][..],
        &["new", "Leak", "--folder", "docs/adr"],
    ] {
        refused(&f, args, &refusal("docs/adr", &outside));
    }
    std::fs::remove_file(outside.join("0001-theirs.md")).expect("empty outside/");
    refused(&f, &["init"], &refusal("docs/adr", &outside));
    refused(
        &f,
        &["init", "--folder", "docs/adr/deeper"],
        &refusal("docs/adr", &outside),
    );
    assert!(files_in(&outside).is_empty(), "nothing written outside");
    drop(before);

    // A `docs` linked out, holding `adr/`: the line names `docs`.
    let (f, outside) = root_and_outside();
    std::fs::create_dir_all(outside.join("adr")).expect("outside/adr");
    std::fs::remove_dir_all(f.path("docs")).expect("remove docs");
    symlink(&outside, f.path("docs")).expect("link docs");
    refused(
        &f,
        &["new", "Leak", "--folder", "docs/adr"],
        &refusal("docs", &outside),
    );
    refused(&f, &["init"], &refusal("docs", &outside));
    assert!(files_in(&outside).is_empty(), "nothing written outside");
}

#[test]
fn a_template_linked_out_of_the_root_is_refused_not_copied() {
    for name in ["template.md", "templates/template.md", "0000-template.md"] {
        let (f, outside) = root_and_outside();
        let secret = outside.join("id_rsa");
        std::fs::write(&secret, "# SECRET KEY\n\nStatus: accepted\n").expect("a secret");
        let link = format!("docs/adr/{name}");
        std::fs::create_dir_all(f.path(&link).parent().unwrap()).expect("mkdir");
        symlink(&secret, f.path(&link)).expect("link the template");
        let before = snapshot_records(&f);
        refused(&f, &["new", "Leak"], &refusal(&link, &secret));
        assert_eq!(snapshot_records(&f), before, "{name}: no record written");
    }
    // A template linked to a file inside the root is read as before.
    let (f, _) = root_and_outside();
    f.write(
        "tpl/ours.md",
        b"# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nOur own words.\n",
    );
    symlink("../../tpl/ours.md", f.path("docs/adr/template.md")).expect("link inside");
    ok(&f, &["new", "Kept", "--date", "2024-05-01"]);
    assert!(
        read(&f, "docs/adr/0002-kept.md").contains("Our own words."),
        "{}",
        read(&f, "docs/adr/0002-kept.md")
    );
}

/// The record files under `docs/adr`, links not followed.
fn snapshot_records(f: &Fixture) -> Vec<(PathBuf, Vec<u8>)> {
    files_in(&f.path("docs/adr"))
}

#[test]
fn a_configuration_file_linked_out_of_the_root_is_refused() {
    let (f, outside) = root_and_outside();
    let theirs = outside.join("config.toml");
    std::fs::write(&theirs, "[[folders]]\npath = \"docs/adr\"\n").expect("a config outside");
    symlink(&theirs, f.path(".context-graph.toml")).expect("link the config");
    refused(&f, &["check"], &refusal(".context-graph.toml", &theirs));
    refused(
        &f,
        &["new", "Leak"],
        &refusal(".context-graph.toml", &theirs),
    );
    assert_eq!(files_in(&outside).len(), 1);
}

#[test]
fn a_record_linked_out_of_the_root_is_never_opened() {
    let (f, outside) = root_and_outside();
    let fifo = outside.join("secret.md");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo")
        .success());
    // A record that is a link to it, and one whose text links to it.
    symlink(
        "../../../outside/secret.md",
        f.path("docs/adr/0002-secret.md"),
    )
    .expect("link");
    f.write(
        "docs/adr/0003-links.md",
        b"# 3. Links\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nSee [the secret](../../../outside/secret.md).\n",
    );
    // Whoever opens the FIFO lets this writer through: it must still be waiting afterwards.
    let (tx, rx) = std::sync::mpsc::channel();
    let at = fifo.clone();
    let writer = std::thread::spawn(move || {
        let opened = std::fs::OpenOptions::new().write(true).open(&at);
        let _ = tx.send(opened.is_ok());
    });
    let run = f.run_json(&["check"]);
    run.assert_finished();
    let opened = rx.recv_timeout(Duration::from_millis(500)).is_ok();
    // Let the writer go whatever happened: open the FIFO for reading, without waiting.
    {
        use std::os::unix::fs::OpenOptionsExt;
        let _reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(0o4000)
            .open(&fifo);
        writer.join().expect("the writer");
    }
    assert!(!opened, "the FIFO outside was opened: {}", run.describe());
    assert!(
        run.json()["notes"]
            .to_string()
            .contains("docs/adr/0002-secret.md: a link that leaves the root, skipped"),
        "{}",
        run.describe()
    );
}

#[test]
fn a_record_linked_out_of_the_root_is_never_changed() {
    let (f, outside) = root_and_outside();
    let theirs = outside.join("0002-use-postgres.md");
    std::fs::write(&theirs, ADR_TOOLS_2).expect("a record outside");
    let link = "docs/adr/0002-use-postgres.md";
    symlink(&theirs, f.path(link)).expect("link the record");
    let before = files_in(&outside);
    let records = snapshot_records(&f);
    for args in [
        &["supersede", "2", "Use MySQL"][..],
        &["amend", "2", "Tune Postgres"],
        &["status", "2", "deprecated"],
    ] {
        refused(&f, args, &refusal(link, &theirs));
    }
    assert_eq!(files_in(&outside), before, "nothing written outside");
    assert_eq!(snapshot_records(&f), records, "no record written");
}
