//! The [`TestEnv`] keeps the caller out. One test looks at what a `TestEnv` gives git and the
//! binary, from whatever environment this process has; another runs that test again in a child
//! process whose environment is full of the caller's leftovers (a `HOME` and
//! `XDG_CONFIG_HOME` with a git config and a global ignore file, a `GIT_DIR` to another
//! repository, `GIT_INDEX_FILE`, config from `GIT_CONFIG_*`, other authors and dates,
//! `NO_COLOR`, another `TZ`), none of which may reach git or the binary.

use crate::env::{TestEnv, GIT_DATE, GIT_EMAIL, GIT_NAME, PINNED};
use crate::fixture::{adr, column, record, strings};
use crate::git::GitRepo;
use std::collections::BTreeMap;

/// [`GIT_DATE`] in seconds since the epoch.
const GIT_DATE_SECONDS: &str = "1893456000";

/// The full name of the test below, for running it again in a child process.
const PROBE: &str = "hermetic::git_and_the_binary_see_only_the_test_env";

/// The variables `env` prints, run as a [`TestEnv`] command.
fn printed_env(env: &TestEnv) -> BTreeMap<String, String> {
    let out = env.command("env").output().expect("run env");
    assert!(out.status.success(), "env failed: {out:?}");
    String::from_utf8(out.stdout)
        .expect("env prints UTF-8")
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn git_and_the_binary_see_only_the_test_env() {
    // The environment itself: exactly PATH, HOME, XDG_CONFIG_HOME and the pinned variables.
    let env = TestEnv::new();
    let vars = printed_env(&env);
    let mut want: Vec<&str> = vec!["PATH", "HOME", "XDG_CONFIG_HOME"];
    want.extend(PINNED.iter().map(|(k, _)| *k));
    want.sort_unstable();
    let got: Vec<&str> = vars.keys().map(String::as_str).collect();
    assert_eq!(got, want, "the variables a TestEnv command sees: {vars:#?}");
    for (k, v) in PINNED {
        assert_eq!(vars[*k], *v, "{k}");
    }
    let git_vars: Vec<&str> = got
        .iter()
        .copied()
        .filter(|k| k.starts_with("GIT_"))
        .collect();
    let mut pinned_git: Vec<&str> = PINNED
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| k.starts_with("GIT_"))
        .collect();
    pinned_git.sort_unstable();
    assert_eq!(git_vars, pinned_git, "no GIT_ variable but the pinned ones");
    for (key, inside) in [("HOME", env.home()), ("XDG_CONFIG_HOME", env.config_home())] {
        let value = std::path::Path::new(&vars[key]);
        assert_eq!(value, inside, "{key}");
        assert!(
            value.starts_with(env.path()),
            "{key} is inside the temporary folder"
        );
        assert!(value.is_dir(), "{key} exists");
    }

    // Git: its own repository, only the repository's config, the pinned author and date.
    let repo = GitRepo::new();
    let git_dir = repo.git(&["rev-parse", "--absolute-git-dir"]);
    assert_eq!(
        std::path::Path::new(git_dir.trim()),
        repo.path().join(".git")
    );
    let config = repo.git(&["config", "--list", "--show-origin"]);
    for line in config.lines() {
        assert!(
            line.starts_with("file:.git/config\t"),
            "config from outside the repository: {line}\n{config}"
        );
    }
    repo.write("src/a.rs", "fn a() {}\n");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "Plain commit"]);
    let who = repo.git(&["log", "-1", "--format=%an <%ae> %at|%cn <%ce> %ct"]);
    let pinned = format!("{GIT_NAME} <{GIT_EMAIL}> {GIT_DATE_SECONDS}");
    assert_eq!(
        who.trim(),
        format!("{pinned}|{pinned}"),
        "pinned at {GIT_DATE}"
    );

    // The binary: this repository's history, and no ignore rule but the repository's own.
    repo.write(
        "docs/adr/0001-use-a.md",
        &adr(
            1,
            "Use a",
            "Accepted",
            Some("2025-03-01"),
            "It is `src/a.rs`.",
        ),
    )
    .write("guide/notes.md", "# Notes\n\nSee ADR-0001.\n");
    repo.commit_at("2025-03-02T10:00:00Z", "Ana", "Record ADR-0001");
    let run = repo.run(&["check", "--git", "--json"]);
    run.assert_code(0);
    let doc = run.json();
    let adr1 = record(&doc, "ADR-0001");
    assert_eq!(column(&adr1["commits"], "subject"), ["Record ADR-0001"]);
    assert_eq!(column(&adr1["commits"], "author"), ["Ana"]);
    let docs: Vec<String> = column(&doc["docs"], "path");
    assert!(docs.iter().any(|d| d == "guide/notes.md"), "{docs:?}");
    assert!(
        !strings(&doc["notes"]).iter().any(|n| n.contains("shallow")),
        "{:#}",
        doc["notes"]
    );
}

/// The caller's leftovers, set on the child process that runs [`PROBE`]. The probe would see
/// any of them that got through in `env`'s output; the ones git or the binary act on would also
/// change their answers (another repository's history, a hidden guide, another author).
fn leftovers(caller: &TestEnv, other: &GitRepo) -> Vec<(String, String)> {
    let home = caller.path().join("caller-home");
    let xdg = caller.path().join("caller-xdg");
    let ignore = caller.path().join("caller-ignore");
    std::fs::create_dir_all(xdg.join("git")).expect("create the caller's xdg");
    std::fs::create_dir_all(&home).expect("create the caller's home");
    // Global ignore rules that would hide the probe's guide, and a global identity.
    std::fs::write(xdg.join("git/ignore"), "guide/\n").expect("write the global ignore");
    std::fs::write(&ignore, "guide/\n*.md\n").expect("write an excludes file");
    std::fs::write(
        home.join(".gitconfig"),
        format!(
            "[user]\n\tname = Leaked Home\n[core]\n\texcludesFile = {}\n[init]\n\tdefaultBranch = leaked\n",
            ignore.display()
        ),
    )
    .expect("write the caller's .gitconfig");
    let other_git = other.path().join(".git");
    let s = |p: &std::path::Path| p.display().to_string();
    [
        ("HOME", s(&home)),
        ("XDG_CONFIG_HOME", s(&xdg)),
        ("GIT_DIR", s(&other_git)),
        ("GIT_WORK_TREE", s(other.path())),
        ("GIT_INDEX_FILE", s(&other_git.join("index"))),
        ("GIT_OBJECT_DIRECTORY", s(&other_git.join("objects"))),
        ("GIT_CONFIG_GLOBAL", s(&home.join(".gitconfig"))),
        (
            "GIT_CONFIG_PARAMETERS",
            "'user.name'='Leaked Params'".into(),
        ),
        ("GIT_CONFIG_COUNT", "1".into()),
        ("GIT_CONFIG_KEY_0", "core.excludesFile".into()),
        ("GIT_CONFIG_VALUE_0", s(&ignore)),
        ("GIT_AUTHOR_NAME", "Leaked Author".into()),
        ("GIT_AUTHOR_EMAIL", "leaked@example.com".into()),
        ("GIT_AUTHOR_DATE", "2001-02-03T04:05:06+07:00".into()),
        ("GIT_COMMITTER_NAME", "Leaked Committer".into()),
        ("GIT_COMMITTER_DATE", "2001-02-03T04:05:06+07:00".into()),
        ("NO_COLOR", "1".into()),
        ("TZ", "Pacific/Kiritimati".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

#[test]
fn nothing_of_the_callers_environment_gets_through() {
    let caller = TestEnv::new();
    let other = GitRepo::new();
    other.write("leaked.md", "# Leaked\n");
    other.commit_at(
        "2024-01-01T00:00:00Z",
        "Leaked Repo",
        "A commit of another repository",
    );
    let vars = leftovers(&caller, &other);
    let exe = std::env::current_exe().expect("this test binary");
    // Not a TestEnv command: this one is meant to carry the leftovers.
    let out = std::process::Command::new(&exe)
        .args([PROBE, "--exact", "--test-threads=1"])
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run the probe in a child process");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "with the caller's leftovers set, {PROBE} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The other side: a user's configuration written on purpose into the TestEnv's `HOME` and
/// `XDG_CONFIG_HOME` is the one git and the binary read.
#[test]
fn a_configuration_written_into_the_test_env_is_read() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-use-a.md",
        &adr(1, "Use a", "Accepted", None, "It is `src/a.rs`."),
    )
    .write("src/a.rs", "fn a() {}\n")
    .write("guide/notes.md", "# Notes\n\nSee ADR-0001.\n")
    .write("more/notes.md", "# More\n\nSee ADR-0001.\n");
    let docs = |repo: &GitRepo| -> Vec<String> {
        let run = repo.run(&["check", "--json"]);
        run.assert_code(0);
        column(&run.json()["docs"], "path")
    };
    assert_eq!(docs(&repo), ["guide/notes.md", "more/notes.md"]);

    let env = repo.env();
    std::fs::create_dir_all(env.config_home().join("git")).expect("create xdg/git");
    std::fs::write(env.config_home().join("git/ignore"), "guide/\n").expect("write the ignore");
    std::fs::write(
        env.home().join(".gitconfig"),
        "[context-graph]\n\tstrict = true\n",
    )
    .expect("write ~/.gitconfig");
    repo.git(&["check-ignore", "-q", "guide/notes.md"]);
    assert_eq!(
        repo.git(&["config", "--get", "context-graph.strict"])
            .trim(),
        "true"
    );
    assert_eq!(
        docs(&repo),
        ["more/notes.md"],
        "the global ignore file hides the guide"
    );
}
