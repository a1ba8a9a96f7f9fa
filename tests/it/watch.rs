//! `watch` (docs/commands.md, docs/indexing.md; ADR-0010): while it runs, a record edit, a source file a record
//! names and a commit each bring one refresh, after which `index --status` says fresh and the
//! answers show the change; its own index writes, readers and what git ignores wake nothing;
//! Ctrl-C and SIGTERM end it with exit 0. Nothing here is timed: every wait is for a line the
//! watch prints, with a deadline only against a hang.

use crate::env::BIN;
use crate::git::GitRepo;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a line the watch owes may take before the test calls it hung.
const DEADLINE: Duration = Duration::from_secs(30);

/// `context-graph watch` running in the background, its stderr read line by line.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    /// Every stderr line so far, for a failure's message.
    seen: Vec<String>,
    stdout: Option<JoinHandle<Vec<u8>>>,
}

impl Watching {
    /// Starts `context-graph watch <args…>` in the work tree and waits for its first refresh.
    fn start(repo: &GitRepo, cwd: &Path, args: &[&str]) -> Watching {
        let mut child = repo
            .command(BIN)
            .current_dir(cwd)
            .arg("watch")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start context-graph watch");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut out = child.stdout.take().expect("stdout is piped");
        let stdout = std::thread::spawn(move || {
            let mut buf = Vec::new();
            out.read_to_end(&mut buf).ok();
            buf
        });
        let mut w = Watching {
            child,
            lines,
            seen: Vec::new(),
            stdout: Some(stdout),
        };
        let first = w.next_refresh();
        assert!(first.contains(" at start: "), "{first}\n{}", w.seen());
        w
    }

    fn seen(&self) -> String {
        format!("stderr so far:\n{}", self.seen.join("\n"))
    }

    /// The next `refreshed` line (notes and other lines are passed over, but a failed refresh
    /// fails the test).
    fn next_refresh(&mut self) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    assert!(!line.contains("refresh failed"), "{}", self.seen());
                    if line.starts_with("context-graph: watch: refreshed in ") {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no refresh came: {}", self.seen()),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("watch ended: {:?}\n{}", self.child.try_wait(), self.seen())
                }
            }
        }
    }

    /// Sends `signal` (`INT`, `TERM`) and waits for the end: the exit code (`None` if a signal
    /// ended it), the rest of stderr, and stdout.
    fn stop(mut self, signal: &str) -> (Option<i32>, Vec<String>, Vec<u8>) {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}").as_str(), pid.as_str()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -{signal} {pid}");
        let deadline = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for watch") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "watch did not end on SIG{signal}: {}",
                self.seen()
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        while let Ok(line) = self.lines.recv_timeout(DEADLINE) {
            self.seen.push(line);
        }
        let stdout = self
            .stdout
            .take()
            .expect("stdout is read once")
            .join()
            .expect("read stdout");
        (status.code(), std::mem::take(&mut self.seen), stdout)
    }
}

impl Drop for Watching {
    /// A failed test leaves no watch behind.
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// `context-graph <args…> --json` in `cwd` (the work tree unless given), which must succeed.
fn json_in(repo: &GitRepo, cwd: &Path, args: &[&str]) -> Value {
    let out = repo
        .env()
        .run_in(cwd, args.iter().copied().chain(["--json"]));
    out.assert_code(0);
    out.json()
}

fn assert_fresh(repo: &GitRepo, cwd: &Path, w: &Watching) {
    let status = json_in(repo, cwd, &["index", "--status"]);
    assert_eq!(status["fresh"], true, "{status:#}\n{}", w.seen());
    assert_eq!(status["head"], status["indexed_head"], "{status:#}");
}

const AUTH: &str =
    "# 1. Sign-in goes through one service\n\nStatus: Accepted\n\nDate: 2025-01-01\n\n\
    The code in `src/auth/` owns sign-in; sessions live in `src/auth/session.py`.\n";

/// A repository with ADR-0001 governing `src/auth/` and naming `src/auth/session.py`, which is
/// not there yet.
fn auth_repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write("docs/adr/0001-auth.md", AUTH)
        .write("src/auth/login.py", "def login(): pass\n")
        .write("src/billing/pay.py", "def pay(): pass\n")
        .write(".gitignore", "/build/\n");
    repo.commit_at("2025-01-02T10:00:00Z", "Ann", "Start");
    repo
}

/// The ids `why PATH` lists.
fn why_ids(repo: &GitRepo, path: &str) -> Vec<String> {
    let json = json_in(repo, repo.path(), &["why", path]);
    json["query"]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| d["id"].as_str().expect("an id").to_string())
        .collect()
}

/// The findings of the full check that name `path`.
fn findings_naming(repo: &GitRepo, path: &str) -> Vec<Value> {
    let out = repo
        .env()
        .run_in(repo.path(), ["check", "--json"].iter().copied());
    out.assert_finished();
    out.json()["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["message"].as_str().is_some_and(|m| m.contains(path)))
        .cloned()
        .collect()
}

#[test]
fn a_record_edit_and_a_governed_source_file_are_indexed_while_it_runs_and_ctrl_c_exits_0() {
    let repo = auth_repo();
    assert!(!findings_naming(&repo, "src/auth/session.py").is_empty());
    assert_eq!(why_ids(&repo, "src/billing/pay.py"), Vec::<String>::new());
    let mut w = Watching::start(&repo, repo.path(), &[]);
    assert_fresh(&repo, repo.path(), &w);

    // A record edit: ADR-0001 now governs billing too.
    repo.write(
        "docs/adr/0001-auth.md",
        &format!("{AUTH}\nPayments in `src/billing/` sign in the same way.\n"),
    );
    let line = w.next_refresh();
    assert!(
        line.contains(" after docs/adr/0001-auth.md changed: 1 record, 0 new commits"),
        "{line}"
    );
    assert_fresh(&repo, repo.path(), &w);
    assert_eq!(why_ids(&repo, "src/billing/pay.py"), ["ADR-0001"]);

    // A source file the record names appears: the finding about it goes.
    repo.write("src/auth/session.py", "SESSIONS = {}\n");
    let line = w.next_refresh();
    assert!(
        line.contains(" after src/auth/session.py changed: "),
        "{line}"
    );
    assert_fresh(&repo, repo.path(), &w);
    assert_eq!(
        findings_naming(&repo, "src/auth/session.py"),
        Vec::<Value>::new()
    );
    assert_eq!(why_ids(&repo, "src/auth/session.py"), ["ADR-0001"]);

    let (code, lines, stdout) = w.stop("INT");
    assert_eq!(code, Some(0), "{lines:#?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("context-graph: watch: stopped"),
        "{lines:#?}"
    );
    assert!(stdout.is_empty(), "without --json, nothing on stdout");
}

#[test]
fn its_own_index_writes_readers_and_ignored_files_wake_nothing() {
    let repo = auth_repo();
    let mut w = Watching::start(&repo, repo.path(), &[]);
    // Each of these, were it to wake the watch, would show in the next refresh line, alone or
    // beside the one change made on purpose below.
    repo.run(&["index", "--rebuild"]).assert_code(0);
    repo.run(&["why", "src/auth/login.py", "--git"])
        .assert_code(0);
    repo.run(&["index", "--status"]).assert_code(0);
    repo.write("build/out.js", "built\n");
    repo.git(&["status", "--short"]);
    repo.write("src/billing/pay.py", "def pay(amount): pass\n");
    let line = w.next_refresh();
    assert!(
        line.contains(" after src/billing/pay.py changed: "),
        "only the source edit woke it: {line}\n{}",
        w.seen()
    );
    assert_fresh(&repo, repo.path(), &w);
    let (code, lines, _) = w.stop("INT");
    assert_eq!(code, Some(0), "{lines:#?}");
}

#[test]
fn a_commit_moves_the_indexed_head_and_sigterm_exits_0() {
    let repo = auth_repo();
    let mut w = Watching::start(&repo, repo.path(), &["--json"]);
    repo.write("src/auth/login.py", "def login(user): pass\n");
    w.next_refresh();
    let head = repo.commit_at("2025-01-03T10:00:00Z", "Bo", "Log in a user (ADR-0001)");
    // The commit may come as one burst or a few; the index is at HEAD once they are done.
    loop {
        let line = w.next_refresh();
        if line.contains("1 new commit") {
            assert!(line.contains(".git/refs/heads/main"), "{line}");
            break;
        }
    }
    let status = json_in(&repo, repo.path(), &["index", "--status"]);
    assert_eq!(status["indexed_head"], head.as_str(), "{status:#}");
    assert_eq!(status["fresh"], true, "{status:#}");

    let (code, lines, stdout) = w.stop("TERM");
    assert_eq!(code, Some(0), "{lines:#?}");
    // With --json, one JSON object per refresh on stdout.
    let stdout = String::from_utf8(stdout).expect("UTF-8");
    let objects: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .map(|v| crate::env::valid_document(v, "a line of watch --json"))
        .collect();
    let refreshes = lines.iter().filter(|l| l.contains("refreshed in")).count();
    assert_eq!(objects.len(), refreshes, "{stdout}");
    assert_eq!(objects[0]["cause"], "start");
    assert_eq!(
        objects[1]["changed"],
        serde_json::json!(["src/auth/login.py"])
    );
    let last = objects.last().expect("a refresh");
    assert_eq!(last["head"], head.as_str());
}

#[test]
fn in_a_linked_worktree_it_follows_that_worktrees_head() {
    let repo = auth_repo();
    let linked = repo.linked_worktree("linked", "topic");
    let mut w = Watching::start(&repo, &linked, &[]);
    std::fs::write(linked.join("src/auth/session.py"), "SESSIONS = {}\n").expect("write");
    let line = w.next_refresh();
    assert!(
        line.contains(" after src/auth/session.py changed: "),
        "{line}"
    );
    let git = |args: &[&str]| {
        let out = repo
            .command("git")
            .current_dir(&linked)
            .args(args)
            .output()
            .expect("run git");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    git(&["add", "-A"]);
    git(&["commit", "-q", "--no-verify", "-m", "Sessions (ADR-0001)"]);
    let head = git(&["rev-parse", "HEAD"]).trim().to_string();
    loop {
        if w.next_refresh().contains("1 new commit") {
            break;
        }
    }
    let status = json_in(&repo, &linked, &["index", "--status"]);
    assert_eq!(status["indexed_head"], head.as_str(), "{status:#}");
    assert_eq!(status["fresh"], true, "{status:#}");
    let (code, lines, _) = w.stop("INT");
    assert_eq!(code, Some(0), "{lines:#?}");
}

#[test]
fn with_no_index_outside_git_or_with_unreadable_docs_it_ends_with_exit_2() {
    let repo = auth_repo();
    let out = repo.run(&["watch", "--no-index"]);
    out.assert_usage_error();
    assert!(out.stderr.contains("--no-index"), "{}", out.describe());
    // A first refresh that fails for its input ends it too, with that one line.
    let out = repo.run(&["watch", "--docs", "no/such/folder"]);
    out.assert_usage_error();
    assert!(out.stderr.contains("no/such/folder"), "{}", out.describe());

    let plain = GitRepo::empty_folder();
    plain.write("docs/adr/0001-auth.md", AUTH);
    let out = plain.run(&["watch"]);
    out.assert_usage_error();
    assert!(
        out.stderr.contains("not in a git work tree"),
        "{}",
        out.describe()
    );
}

/// A marker (docs/indexing.md) written while the watch runs counts as any source edit does: the
/// refresh it wakes leaves the index fresh, and `why` names the file as declaring its record.
#[test]
fn a_marker_written_while_it_runs_declares_the_file() {
    let repo = auth_repo();
    let mut w = Watching::start(&repo, repo.path(), &[]);
    repo.write(
        "src/billing/charge.rs",
        "// @adr 0001\npub fn charge() {}\n",
    );
    let line = w.next_refresh();
    assert!(
        line.contains(" after src/billing/charge.rs changed: "),
        "{line}"
    );
    assert_fresh(&repo, repo.path(), &w);
    let json = json_in(&repo, repo.path(), &["why", "src/billing/charge.rs"]);
    let decisions = json["query"]["decisions"].as_array().expect("decisions");
    assert_eq!(decisions.len(), 1, "{json:#}");
    assert_eq!(decisions[0]["id"], "ADR-0001");
    assert_eq!(
        decisions[0]["declared_by"],
        serde_json::json!([{"path": "src/billing/charge.rs", "line": 1}])
    );
    let (code, lines, _) = w.stop("INT");
    assert_eq!(code, Some(0), "{lines:#?}");
}

/// `watch 2> watch.log` inside the root: each line it writes there changes a file it watches,
/// which must not wake it (it would refresh, write a line, and so on for ever).
#[test]
fn the_file_its_lines_go_to_does_not_wake_it() {
    let repo = auth_repo();
    let log_path = repo.path().join("watch.log");
    let log = std::fs::File::create(&log_path).expect("create the log");
    let child = repo
        .command(BIN)
        .arg("watch")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start context-graph watch");
    let _ended = Ends(child);
    let deadline = Instant::now() + DEADLINE;
    let wait_for = |what: &str| loop {
        let text = std::fs::read_to_string(&log_path).expect("read the log");
        if text.contains(what) {
            return text;
        }
        assert!(Instant::now() < deadline, "no {what:?} in:\n{text}");
        std::thread::sleep(Duration::from_millis(20));
    };
    wait_for("(Ctrl-C stops)");
    repo.write("src/billing/pay.py", "def pay(amount): pass\n");
    let text = wait_for("after src/billing/pay.py changed");
    let refreshes: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("refreshed in"))
        .collect();
    assert_eq!(refreshes.len(), 2, "{text}");
}

/// Kills the process it holds when dropped, a failed test's included.
struct Ends(Child);

impl Drop for Ends {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}
