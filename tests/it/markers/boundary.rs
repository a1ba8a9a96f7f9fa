//! The read boundary (docs/markers.md, ADR-0009): only regular files under the root are read,
//! never through a link that leaves it, never waiting on a FIFO, never a file over the size
//! limit.

use super::{assert_same, declared, declared_ids, records_repo};
#[cfg(unix)]
use crate::fixture::mkfifo;
use std::time::{Duration, Instant};

#[cfg(unix)]
#[test]
fn a_link_out_of_the_root_is_never_followed() {
    let repo = records_repo();
    let outside = repo.env().path().join("outside");
    std::fs::create_dir_all(&outside).expect("a folder outside the root");
    std::fs::write(outside.join("secret.rs"), "// @adr 12\n").expect("a file outside");
    repo.write("src/inside.rs", "// @adr 3\n");
    std::os::unix::fs::symlink(outside.join("secret.rs"), repo.path().join("src/out.rs"))
        .expect("a link to a file outside");
    std::os::unix::fs::symlink(&outside, repo.path().join("linked")).expect("a link to a folder");
    std::os::unix::fs::symlink("inside.rs", repo.path().join("src/in.rs"))
        .expect("a link inside the root");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Links");
    assert!(
        declared(&repo, "src/out.rs").is_empty(),
        "a link that leaves the root"
    );
    assert!(
        declared(&repo, "linked/secret.rs").is_empty(),
        "a folder link that leaves it"
    );
    assert_eq!(
        declared_ids(&repo, "src/in.rs"),
        ["ADR-0003"],
        "a link that stays inside"
    );
    assert_eq!(
        declared(&repo, "."),
        [(
            "ADR-0003".to_string(),
            vec!["src/in.rs:1".to_string(), "src/inside.rs:1".to_string()]
        )],
        "the whole tree: nothing from outside"
    );
    assert_same(&repo, "links", &["check", "--json"]);
    // A link to a folder inside the root is not walked into: its files are read at their own
    // paths, so asking through the link declares nothing, as the whole tree's answer says.
    std::os::unix::fs::symlink("src", repo.path().join("alias")).expect("a folder link inside");
    for path in ["alias/inside.rs", "alias", "alias/"] {
        assert!(declared(&repo, path).is_empty(), "{path}");
        assert_same(&repo, "a link inside", &["why", path, "--git", "--json"]);
    }
    assert_eq!(declared(&repo, ".").len(), 1);
    // A folder git tracks files in, swapped for a link to the outside after the commit.
    repo.write("pkg/a.rs", "// @adr 1\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "pkg");
    std::fs::create_dir_all(outside.join("pkg")).expect("a folder outside");
    std::fs::rename(repo.path().join("pkg/a.rs"), outside.join("pkg/a.rs")).expect("move it out");
    std::fs::remove_dir(repo.path().join("pkg")).expect("remove the folder");
    std::os::unix::fs::symlink(outside.join("pkg"), repo.path().join("pkg")).expect("link it");
    assert!(declared(&repo, "pkg/a.rs").is_empty());
    assert!(declared(&repo, "pkg").is_empty());
    assert_same(
        &repo,
        "a tracked folder made a link out",
        &["why", ".", "--json"],
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_never_waited_on() {
    let repo = records_repo();
    repo.write("src/tracked.rs", "// @adr 1\n")
        .write("src/other.rs", "// @adr 3\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Files");
    // An untracked FIFO, and a tracked file replaced by one: nobody ever writes to either.
    mkfifo(&repo.path().join("src/pipe.rs"));
    std::fs::remove_file(repo.path().join("src/tracked.rs")).expect("remove");
    mkfifo(&repo.path().join("src/tracked.rs"));
    let start = Instant::now();
    for path in ["src/pipe.rs", "src/tracked.rs", "src"] {
        assert!(
            declared_ids(&repo, path).iter().all(|id| id == "ADR-0003"),
            "{path}"
        );
        assert_same(&repo, "FIFOs", &["why", path, "--json"]);
    }
    assert_same(&repo, "FIFOs", &["check", "--git", "--json"]);
    assert_eq!(declared_ids(&repo, "src/other.rs"), ["ADR-0003"]);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "the queries took {:?}",
        start.elapsed()
    );
}

#[test]
fn a_file_over_the_size_limit_is_not_read() {
    let repo = records_repo();
    let limit = context_graph::fs::sources::MAX_SOURCE_BYTES as usize;
    let mut big = String::from("// @adr 12\n");
    big.push_str(&"x".repeat(limit));
    let mut fits = String::from("// @adr 12\n");
    fits.push_str(&"x".repeat(limit - fits.len()));
    repo.write("data/big.rs", &big).write("data/fits.rs", &fits);
    assert!(declared(&repo, "data/big.rs").is_empty());
    assert_eq!(declared_ids(&repo, "data/fits.rs"), ["ADR-0012"]);
}
