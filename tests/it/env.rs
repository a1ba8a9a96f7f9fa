//! The one environment every test runs git and the binary in (jj's `TestEnv` is the model).
//!
//! A [`TestEnv`] owns a temporary folder holding `home/` (the `HOME` every command sees) and
//! `xdg/` (its `XDG_CONFIG_HOME`). [`TestEnv::command`] starts from an empty environment and
//! sets only `PATH`, those two, and the pinned variables in [`PINNED`]: no system git config,
//! no prompt, the C locale, UTC, and a fixed author, committer and date. Nothing of the caller's
//! gets through: not their `~/.gitconfig` or global ignore file, not a `GIT_DIR` or
//! `GIT_INDEX_FILE` set by a hook that runs the tests, not `NO_COLOR` or a `TZ`. A test that
//! wants a user's configuration writes it on purpose, into [`TestEnv::home`] or
//! [`TestEnv::config_home`].
//!
//! Only processes started here are shut off: library functions the tests call in this process
//! (`history::open`, `history::load`) read this process's environment, and a `GIT_WORK_TREE`
//! set by the caller reaches them.
//!
//! Runs of the binary go through the same environment, with a timeout ([`Run`], [`Running`]).

use serde_json::Value;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_context-graph");

/// No run of the binary on a small fixture may take this long.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Nor one in a git repository built by a test, whose history may be thousands of commits.
pub const REPO_TIMEOUT: Duration = Duration::from_secs(60);

/// The author and committer of a commit that names none (`GitRepo::commit_at` names its own).
pub const GIT_NAME: &str = "Fixture";
pub const GIT_EMAIL: &str = "fixture@example.com";
/// The date of a commit that names none: later than every date the tests write, so such a
/// commit is the newest, as it was when it took the clock's time.
pub const GIT_DATE: &str = "2030-01-01T00:00:00Z";

/// Every variable a [`TestEnv`] command gets besides `PATH`, `HOME` and `XDG_CONFIG_HOME`.
pub const PINNED: &[(&str, &str)] = &[
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("LANG", "C"),
    ("LC_ALL", "C"),
    ("TZ", "UTC"),
    ("GIT_AUTHOR_NAME", GIT_NAME),
    ("GIT_AUTHOR_EMAIL", GIT_EMAIL),
    ("GIT_AUTHOR_DATE", GIT_DATE),
    ("GIT_COMMITTER_NAME", GIT_NAME),
    ("GIT_COMMITTER_EMAIL", GIT_EMAIL),
    ("GIT_COMMITTER_DATE", GIT_DATE),
];

/// A temporary folder with its own `HOME` and `XDG_CONFIG_HOME`, removed when dropped.
pub struct TestEnv {
    /// Held for its `Drop`, which removes the folder.
    _dir: tempfile::TempDir,
    /// The folder's path, canonical (the binary and git print canonical paths).
    path: PathBuf,
    /// How long a run of the binary may take before it is killed.
    timeout: Duration,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("context-graph-test-")
            .tempdir()
            .expect("create a temporary folder");
        let path = dir
            .path()
            .canonicalize()
            .expect("canonical temporary folder");
        for sub in ["home", "xdg"] {
            std::fs::create_dir(path.join(sub)).expect("create home and xdg");
        }
        TestEnv {
            _dir: dir,
            path,
            timeout: TIMEOUT,
        }
    }

    /// The same, with runs of the binary killed after `timeout` instead of [`TIMEOUT`].
    pub fn with_timeout(mut self, timeout: Duration) -> TestEnv {
        self.timeout = timeout;
        self
    }

    /// The temporary folder: `home/`, `xdg/`, and whatever the test puts beside them.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `HOME`.
    pub fn home(&self) -> PathBuf {
        self.path.join("home")
    }

    /// `XDG_CONFIG_HOME`.
    pub fn config_home(&self) -> PathBuf {
        self.path.join("xdg")
    }

    /// A command for `program` in the temporary folder, with only the hermetic environment.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.config_home())
            .envs(PINNED.iter().copied())
            .current_dir(&self.path);
        cmd
    }

    /// Starts the binary with `args` in `cwd`, with `env` added. Colour is invited (a colour
    /// terminal, no `NO_COLOR`) so that a tool colouring a pipe shows up.
    pub fn spawn<I, S>(&self, cwd: &Path, args: I, env: &[(&str, &str)]) -> Running
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut cmd = self.command(BIN);
        cmd.args(&args)
            .current_dir(cwd)
            .env("TERM", "xterm-256color")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = cmd.spawn().unwrap_or_else(|e| panic!("spawn {BIN}: {e}"));
        let stdout = drain(child.stdout.take().expect("stdout is piped"));
        let stderr = drain(child.stderr.take().expect("stderr is piped"));
        Running {
            args: args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            child,
            stdout,
            stderr,
            start,
            timeout: self.timeout,
        }
    }

    /// Runs the binary with `args` in `cwd`, with `env` added, killing it after the timeout.
    pub fn run_with<I, S>(&self, cwd: &Path, args: I, env: &[(&str, &str)]) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.spawn(cwd, args, env).finish()
    }

    /// Runs the binary with `args` from the folder `cwd`.
    pub fn run_in<I, S>(&self, cwd: &Path, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.run_with(cwd, args, &[])
    }

    /// Runs the binary with `args` from the temporary folder.
    pub fn run<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.run_in(&self.path, args)
    }

    /// `context-graph <args…> --root <root> --json`.
    pub fn run_json(&self, root: &Path, args: &[&str]) -> Run {
        self.run(with_root(root, args, true))
    }

    /// `context-graph <args…> --root <root>` (Markdown).
    pub fn run_md(&self, root: &Path, args: &[&str]) -> Run {
        self.run(with_root(root, args, false))
    }
}

impl Default for TestEnv {
    fn default() -> Self {
        TestEnv::new()
    }
}

fn with_root(root: &Path, args: &[&str], json: bool) -> Vec<OsString> {
    let mut all: Vec<OsString> = args.iter().map(|a| a.into()).collect();
    all.push("--root".into());
    all.push(root.into());
    if json {
        all.push("--json".into());
    }
    all
}

/// `args` with `--no-index` added.
pub fn no_index<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.push("--no-index");
    v
}

fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        pipe.read_to_end(&mut buf).ok();
        buf
    })
}

/// A started run of the binary whose output is being collected.
pub struct Running {
    args: Vec<String>,
    child: Child,
    stdout: JoinHandle<Vec<u8>>,
    stderr: JoinHandle<Vec<u8>>,
    start: Instant,
    timeout: Duration,
}

impl Running {
    /// Still running?
    pub fn running(&mut self) -> bool {
        self.child.try_wait().expect("poll the binary").is_none()
    }

    /// Waits for the end, killing it once the environment's timeout has passed.
    pub fn finish(self) -> Run {
        let deadline = self.start + self.timeout;
        self.finish_by(deadline)
    }

    /// Waits for the end, killing it at `deadline` (then [`Run::timed_out`] is set).
    pub fn finish_by(mut self, deadline: Instant) -> Run {
        let mut timed_out = false;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for the binary") {
                break status;
            }
            if Instant::now() >= deadline {
                timed_out = true;
                self.child.kill().ok();
                break self.child.wait().expect("wait for the killed binary");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let elapsed = self.start.elapsed();
        let stdout = self.stdout.join().expect("read stdout");
        let stderr =
            String::from_utf8_lossy(&self.stderr.join().expect("read stderr")).into_owned();
        Run {
            args: self.args,
            code: if timed_out { None } else { status.code() },
            stdout,
            stderr,
            elapsed,
            timed_out,
        }
    }

    /// `kill -9` (nothing happens if it has ended).
    pub fn kill(mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub args: Vec<String>,
    /// `None` when it was killed (timed out) or ended by a signal.
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub elapsed: Duration,
    pub timed_out: bool,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8(self.stdout.clone())
            .unwrap_or_else(|e| panic!("stdout of {:?} is not UTF-8: {e}", self.args))
    }

    /// Stderr without the line saying a path asked about is neither tracked nor on disk
    /// (docs/commands.md): a word about the question, said alike with and without the index,
    /// not about how the answer was found.
    pub fn stderr_but_absent_paths(&self) -> String {
        self.stderr
            .lines()
            .filter(|l| !l.contains(" is neither tracked nor on disk"))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// The JSON document on stdout, valid against `context-graph schema` ([`valid_document`]).
    pub fn json(&self) -> Value {
        let value = serde_json::from_slice(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.describe()));
        valid_document(value, &format!("{:?}", self.args))
    }

    pub fn describe(&self) -> String {
        let how = if self.timed_out {
            "timed out (killed)".to_string()
        } else {
            format!("exited {:?}", self.code)
        };
        format!(
            "{:?} {how} in {:?}\nstdout:\n{}\nstderr:\n{}",
            self.args,
            self.elapsed,
            String::from_utf8_lossy(&self.stdout),
            self.stderr
        )
    }

    /// It ended by itself: it did not hang.
    pub fn assert_finished(&self) -> &Self {
        assert!(!self.timed_out, "hung: {}", self.describe());
        self
    }

    pub fn assert_code(&self, code: i32) -> &Self {
        self.assert_finished();
        assert_eq!(self.code, Some(code), "exit code: {}", self.describe());
        self
    }

    /// Exit 2 with one line on stderr starting `context-graph: `.
    pub fn assert_usage_error(&self) -> &Self {
        self.assert_code(2);
        let err = self.stderr.trim_end();
        assert!(
            err.starts_with("context-graph: "),
            "stderr must start with `context-graph: `: {}",
            self.describe()
        );
        assert_eq!(
            err.lines().count(),
            1,
            "stderr must be one line: {}",
            self.describe()
        );
        self
    }
}

/// `value`, after checking it against the JSON Schema `context-graph schema` prints (ADR-0015):
/// every JSON document the tests read goes through here, so each is validated. On a failure
/// the errors against each document of the schema are listed.
pub fn valid_document(value: Value, what: &str) -> Value {
    static VALIDATOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        jsonschema::draft202012::new(&context_graph::output::schema::document())
            .expect("the schema compiles")
    });
    if validator.is_valid(&value) {
        return value;
    }
    let mut why = String::new();
    for name in context_graph::output::schema::document_names() {
        let mut one = context_graph::output::schema::document();
        one["anyOf"] = serde_json::json!([{ "$ref": format!("#/$defs/{name}") }]);
        let v = jsonschema::draft202012::new(&one).expect("the schema compiles");
        let errors: Vec<String> = v
            .iter_errors(&value)
            .map(|e| format!("  {}: {e}", e.instance_path()))
            .collect();
        why.push_str(&format!("as {name}:\n{}\n", errors.join("\n")));
    }
    panic!("the JSON of {what} is not valid against the schema:\n{why}\n{value:#}");
}
