//! adr-tools reads what we write: `adr list`, `adr generate toc` and `adr link` on our records,
//! and our `supersede` on records adr-tools wrote gives what `adr new -s` gives. Skipped, saying
//! so, when `adr` is not installed (`.ci/run` installs the Debian package when it can).

use super::*;
use crate::git::GitRepo;

pub(super) fn adr_installed(repo: &GitRepo) -> bool {
    let found = repo
        .command("sh")
        .args(["-c", "command -v adr"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        crate::skip::skipped("adr-tools is not installed (apt-get install adr-tools)");
    }
    found
}

pub(super) fn adr(repo: &GitRepo, args: &[&str]) -> String {
    let out = repo
        .command("adr")
        .args(args)
        .env("EDITOR", "true")
        .env("VISUAL", "true")
        .output()
        .expect("run adr");
    assert!(
        out.status.success(),
        "adr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn adr_tools_reads_what_we_write() {
    let repo = GitRepo::new();
    if !adr_installed(&repo) {
        return;
    }
    adr(&repo, &["init", "doc/adr"]);
    adr(&repo, &["new", "Use Postgres"]);
    repo.run(&["new", "Use Redis", "--status", "accepted"])
        .assert_code(0);
    repo.run(&["supersede", "2", "Use MySQL", "--status", "accepted"])
        .assert_code(0);
    assert_eq!(
        adr(&repo, &["list"]),
        "doc/adr/0001-record-architecture-decisions.md\ndoc/adr/0002-use-postgres.md\ndoc/adr/0003-use-redis.md\ndoc/adr/0004-use-mysql.md\n"
    );
    let toc = adr(&repo, &["generate", "toc"]);
    assert!(
        toc.contains("* [3. Use Redis](0003-use-redis.md)\n* [4. Use MySQL](0004-use-mysql.md)\n"),
        "{toc}"
    );
    adr(&repo, &["link", "3", "Amends", "1", "Amended by"]);
    let ours = std::fs::read_to_string(repo.path().join("doc/adr/0003-use-redis.md")).unwrap();
    assert!(
        ours.contains(
            "\nAmends [1. Record architecture decisions](0001-record-architecture-decisions.md)\n"
        ),
        "{ours}"
    );
    // adr-tools' new record after ours takes the next number.
    adr(&repo, &["new", "Use Kafka"]);
    assert!(repo.path().join("doc/adr/0005-use-kafka.md").is_file());
    let check = repo.run(&["check", "--json"]);
    check.assert_code(0);
    assert_eq!(findings(&check.json()), Vec::<(String, String)>::new());
}

#[test]
fn our_supersede_gives_what_adr_new_s_gives() {
    let theirs = GitRepo::new();
    if !adr_installed(&theirs) {
        return;
    }
    let ours = GitRepo::new();
    for repo in [&theirs, &ours] {
        adr(repo, &["init", "doc/adr"]);
        adr(repo, &["new", "Use Postgres"]);
    }
    adr(&theirs, &["new", "-s", "2", "Use MySQL"]);
    let date = std::fs::read_to_string(theirs.path().join("doc/adr/0003-use-mysql.md")).unwrap();
    let date = date
        .lines()
        .find_map(|l| l.strip_prefix("Date: "))
        .unwrap()
        .to_string();
    ours.run(&[
        "supersede",
        "2",
        "Use MySQL",
        "--status",
        "accepted",
        "--date",
        &date,
    ])
    .assert_code(0);
    let read = |r: &GitRepo, p: &str| std::fs::read_to_string(r.path().join(p)).unwrap();
    // The superseded record: byte for byte.
    assert_eq!(
        read(&ours, "doc/adr/0002-use-postgres.md"),
        read(&theirs, "doc/adr/0002-use-postgres.md")
    );
    // The new record: the same up to its first section (adr-tools fills the rest with its
    // template's prose, we with the folder's headings).
    let head = |t: String| t.split("## Context").next().unwrap().to_string();
    assert_eq!(
        head(read(&ours, "doc/adr/0003-use-mysql.md")),
        head(read(&theirs, "doc/adr/0003-use-mysql.md"))
    );
}
