//! Warnings only where a reader would want one (docs/hooks.md): through real `git commit` with
//! the installed hooks, a bot's commit, a release or version bump, lock, generated and vendored
//! files, whitespace, a commit editing the record, and a decision named once per branch; each
//! rule's `[hooks]` switch off brings the warning back.

use super::{commit, decisions, git, install, ok};
use crate::git::GitRepo;

/// A repository of decisions with the hooks installed, and `.context-graph.toml` holding
/// `[hooks] KEY = false` when `off` names a key.
fn repo(off: Option<&str>) -> GitRepo {
    let repo = decisions();
    repo.write(
        "src/auth/package.json",
        "{\n  \"name\": \"auth\",\n  \"version\": \"0.8.0\"\n}\n",
    )
    .write("src/auth/Cargo.lock", "# lock\nversion = 3\n")
    .write("src/auth/bundle.js", "var a = 1;\n")
    .write("src/auth/compose.yml", &image("v3.11.1", 'a'))
    .write("src/auth/main.go", &go_import(9))
    .write(".gitattributes", "src/auth/bundle.js linguist-generated\n");
    if let Some(key) = off {
        repo.write(".context-graph.toml", &format!("[hooks]\n{key} = false\n"));
    }
    repo.commit_at("2025-02-02T10:00:00Z", "Ana", "Setup");
    install(&repo);
    repo
}

/// Whether git's output holds the full warning about ADR-0001.
fn warned(err: &str) -> bool {
    err.contains("context-graph: warning: its staged changes touch paths governed by ADR-0001")
}

/// Commits `rel` as `text` with `message` by `author` (name, email) with the hooks running,
/// in a repository made by [`repo`]; returns git's stderr.
fn by(off: Option<&str>, author: (&str, &str), rel: &str, text: &str, message: &str) -> String {
    let repo = repo(off);
    repo.write(rel, text);
    ok(&git(&repo, &["add", "--", rel], &[]), "git add");
    let env = [
        ("GIT_AUTHOR_NAME", author.0),
        ("GIT_AUTHOR_EMAIL", author.1),
    ];
    ok(
        &git(&repo, &["commit", "-q", "-m", message], &env),
        "git commit",
    )
}

const ANA: (&str, &str) = ("Ana", "ana@example.com");

/// A Go file importing its module at major version `major`.
fn go_import(major: u32) -> String {
    format!("package auth\n\nimport \"github.com/acme/auth/v{major}/tokens\"\n")
}

/// A compose file's image, pinned by a digest beside its version.
fn image(version: &str, digest: char) -> String {
    format!(
        "services:\n  prometheus:\n    image: prom/prometheus:{version}@sha256:{}\n",
        digest.to_string().repeat(64)
    )
}

#[test]
fn a_bots_commit_is_not_warned_about_unless_skip_bots_is_off() {
    for bot in [
        (
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com",
        ),
        ("renovate", "bot@renovateapp.com"),
        ("Mend Renovate", "bot@renovateapp.com"),
        ("ci-bot", "ci@example.com"),
    ] {
        let err = by(
            None,
            bot,
            "src/auth/login.py",
            "def login(): return 1\n",
            "Update",
        );
        assert!(!warned(&err), "{bot:?}: {err}");
    }
    let err = by(
        Some("skip_bots"),
        ("ci-bot", "ci@example.com"),
        "src/auth/login.py",
        "def login(): return 1\n",
        "Update",
    );
    assert!(warned(&err), "{err}");
    // A person is warned as before.
    let err = by(
        None,
        ANA,
        "src/auth/login.py",
        "def login(): return 1\n",
        "Update",
    );
    assert!(warned(&err), "{err}");
}

#[test]
fn a_release_or_a_version_bump_is_not_warned_about_unless_skip_releases_is_off() {
    let code = "def login(): return 1\n";
    for subject in [
        "release: v0.8.0",
        "chore(release): 1.2.0",
        "[maven-release-plugin] prepare release auth-1.2",
        "Release v1.2.3",
        "Bump version to 2.0",
    ] {
        let err = by(None, ANA, "src/auth/login.py", code, subject);
        assert!(!warned(&err), "{subject}: {err}");
    }
    let bumped = "{\n  \"name\": \"auth\",\n  \"version\": \"0.8.1\"\n}\n";
    let err = by(None, ANA, "src/auth/package.json", bumped, "Next");
    assert!(!warned(&err), "{err}");
    // An image's version bumped with the digest pinned beside it (Renovate's way).
    let err = by(
        None,
        ANA,
        "src/auth/compose.yml",
        &image("v3.12.0", 'b'),
        "Next",
    );
    // Nothing said at all, not even a one-line mention.
    assert!(!err.contains("context-graph"), "{err}");
    let err = by(
        None,
        ANA,
        "src/auth/compose.yml",
        &image("v3.11.1", 'b'),
        "Next",
    );
    assert!(
        !err.contains("context-graph"),
        "a digest alone is a version too: {err}"
    );
    // A Go module's next major version, in every import of it.
    let err = by(None, ANA, "src/auth/main.go", &go_import(10), "Next");
    assert!(!err.contains("context-graph"), "{err}");
    // A real change of the manifest is warned about.
    let renamed = "{\n  \"name\": \"login\",\n  \"version\": \"0.8.0\"\n}\n";
    let err = by(None, ANA, "src/auth/package.json", renamed, "Rename");
    assert!(warned(&err), "{err}");
    // With the rule off, the manifest's bump is a change of a setting its record never names
    // (`skip_other_settings`, one line), so both are off for it.
    for (rel, text, subject, off) in [
        (
            "src/auth/login.py",
            code,
            "release: v0.8.0",
            "skip_releases",
        ),
        (
            "src/auth/package.json",
            bumped,
            "Next",
            "skip_releases = false\nskip_other_settings",
        ),
    ] {
        let err = by(Some(off), ANA, rel, text, subject);
        assert!(warned(&err), "{subject}: {err}");
    }
}

#[test]
fn lock_generated_and_vendored_files_do_not_count_unless_skip_generated_is_off() {
    for (rel, text) in [
        ("src/auth/Cargo.lock", "# lock\nversion = 4\n"),
        ("src/auth/bundle.js", "var a = 2;\n"),
        ("src/auth/dist/app.js", "var b = 2;\n"),
        ("src/auth/vendor/lib.py", "x = 2\n"),
    ] {
        let err = by(None, ANA, rel, text, "Regenerate");
        assert!(!warned(&err), "{rel}: {err}");
        let err = by(Some("skip_generated"), ANA, rel, text, "Regenerate");
        assert!(warned(&err), "{rel}: {err}");
    }
    // Beside governed source, the source is still warned about, and only it is named.
    let repo = repo(None);
    repo.write("src/auth/Cargo.lock", "# lock\nversion = 4\n");
    ok(
        &git(&repo, &["add", "--", "src/auth/Cargo.lock"], &[]),
        "git add",
    );
    let err = ok(
        &commit(
            &repo,
            "src/auth/login.py",
            "def login(): return 1\n",
            "Both",
        ),
        "git commit",
    );
    assert!(warned(&err), "{err}");
    assert!(err.contains("governs src/auth/login.py\n"), "{err}");
}

#[test]
fn a_whitespace_only_change_is_not_warned_about_unless_skip_whitespace_is_off() {
    let spaced = "def login():  pass\n\n";
    let err = by(None, ANA, "src/auth/login.py", spaced, "Tidy");
    assert!(!warned(&err), "{err}");
    let err = by(
        Some("skip_whitespace"),
        ANA,
        "src/auth/login.py",
        spaced,
        "Tidy",
    );
    assert!(warned(&err), "{err}");
}

#[test]
fn a_commit_editing_the_record_cites_it_unless_record_edit_cites_is_off() {
    for (off, expect) in [(None, false), (Some("record_edit_cites"), true)] {
        let repo = repo(off);
        repo.write(
            "docs/adr/0001-tokens.md",
            "# 1. Tokens expire after an hour\n\nStatus: Accepted\n\nThe code in `src/auth/` keeps tokens short-lived, now ten minutes.\n",
        );
        ok(
            &git(&repo, &["add", "--", "docs/adr/0001-tokens.md"], &[]),
            "git add",
        );
        let err = ok(
            &commit(
                &repo,
                "src/auth/login.py",
                "def login(): return 1\n",
                "Shorter",
            ),
            "git commit",
        );
        assert_eq!(warned(&err), expect, "{off:?}: {err}");
    }
}

#[test]
fn a_decision_is_warned_about_once_per_branch_unless_once_per_branch_is_off() {
    for off in [None, Some("once_per_branch")] {
        let repo = repo(off);
        repo.branch("feature");
        let first = ok(
            &commit(&repo, "src/auth/login.py", "def login(): return 1\n", "One"),
            "git commit",
        );
        assert!(warned(&first), "{first}");
        let one = repo
            .git(&["rev-parse", "--short", "HEAD"])
            .trim()
            .to_string();
        let second = ok(
            &commit(&repo, "src/auth/token.py", "def token(): return 1\n", "Two"),
            "git commit",
        );
        if off.is_none() {
            assert_eq!(
                second,
                format!("context-graph: ADR-0001 again (first named in {one})\n")
            );
        } else {
            assert!(warned(&second), "{second}");
        }
    }
}

#[test]
fn strict_mode_refuses_only_a_full_warning_not_a_repeat_nor_a_quiet_commit() {
    let repo = repo(None);
    repo.git(&["config", "context-graph.strict", "true"]);
    repo.branch("feature");
    // Refused: the first uncited commit of the branch.
    repo.write("src/auth/login.py", "def login(): return 1\n");
    ok(
        &git(&repo, &["add", "--", "src/auth/login.py"], &[]),
        "git add",
    );
    let out = git(&repo, &["commit", "-q", "-m", "One"], &[]);
    assert!(!out.status.success());
    ok(
        &git(&repo, &["commit", "-q", "-m", "One (ADR-0001)"], &[]),
        "git commit",
    );
    // The branch named it: a later uncited commit gets the short line and is made.
    let before = repo.head();
    let err = ok(
        &commit(&repo, "src/auth/token.py", "def token(): return 1\n", "Two"),
        "git commit",
    );
    assert!(err.contains("ADR-0001 again (first named in"), "{err}");
    assert_ne!(repo.head(), before);
    // A quiet commit is made too.
    let err = ok(
        &commit(&repo, "src/pay/charge.py", "def charge():  pass\n", "Tidy"),
        "git commit",
    );
    assert!(!err.contains("refused"), "{err}");
}

/// A meta record declaring the record folder its scope (`governs: docs/adr/**`, as adrkit's
/// first record does) is not warned about when another record is written or edited; a change
/// to code it governs still is.
#[test]
fn writing_another_record_is_no_change_to_the_meta_records_decision() {
    let repo = repo(None);
    repo.write(
        "docs/adr/0009-keep-records.md",
        "---\nstatus: accepted\ngoverns:\n  - \"docs/adr/**\"\n  - tools/adr.sh\n---\n# 9. Keep records in docs/adr\n",
    )
    .write("tools/adr.sh", "echo adr\n");
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Keep records");
    let meta = |err: &str| err.contains("governed by ADR-0009");
    let err = ok(
        &commit(
            &repo,
            "docs/adr/0010-cache-pages.md",
            "# 10. Cache pages\n\nStatus: Accepted\n",
            "Cache pages",
        ),
        "git commit",
    );
    assert!(!meta(&err), "{err}");
    let err = ok(
        &commit(&repo, "tools/adr.sh", "echo adr v2\n", "Tool"),
        "git commit",
    );
    assert!(meta(&err), "{err}");
}

/// After `git gc`, HEAD's trees and blobs are packed: the hook reads them from the packs
/// itself (issue 41) and judges as it does with loose objects. A change to a governed file is
/// warned about, and a whitespace-only one (which reads HEAD's blob) is not.
#[test]
fn a_packed_head_is_read_as_a_loose_one() {
    for (text, expect) in [
        ("def login(): return 2\n", true),
        ("def login():  pass\n\n", false),
    ] {
        let repo = repo(None);
        ok(&git(&repo, &["gc", "-q"], &[]), "git gc");
        let loose = std::fs::read_dir(repo.path().join(".git/objects"))
            .expect("the objects folder")
            .flatten()
            .filter(|e| e.file_name().len() == 2)
            .count();
        assert_eq!(loose, 0, "git gc packed every object");
        repo.write("src/auth/login.py", text);
        ok(
            &git(&repo, &["add", "--", "src/auth/login.py"], &[]),
            "git add",
        );
        let err = ok(
            &git(&repo, &["commit", "-q", "-m", "Change login"], &[]),
            "git commit",
        );
        assert_eq!(warned(&err), expect, "{text:?}: {err}");
    }
}
