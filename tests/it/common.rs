//! Helpers shared by the integration tests: copy a fixture to a temporary folder, run the
//! binary on it with a timeout, read its JSON, and compare it with the fixture's
//! `expected.json`.
//!
//! Every run happens on a copy outside any git work tree, so nothing around the fixture (the
//! project's own repository, its `.gitignore`, a future index in its git dir) changes the answer.

#![allow(dead_code)]

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_context-graph");

/// No run of the binary on these small fixtures may take this long.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Every fixture corpus that has an `expected.json`.
pub const CORPORA: &[&str] = &[
    "frontmatter",
    "nygard",
    "adr-tools",
    "madr",
    "status-table",
    "rfcs",
    "statuses",
    "fields",
    "discovery",
    "why",
    "checks/superseded-still-current",
    "checks/superseded-by-unknown",
    "checks/governed-path-gone",
    "checks/governed-path-moved",
    "checks/doc-cites-superseded",
    "checks/duplicate-id",
    "checks/supersession-cycle",
    "checks/successor-not-reciprocal",
    "checks/superseded-without-successor",
    "checks/supersedes-unknown",
    "checks/unknown-reference",
    "checks/status-missing",
    "checks/status-unrecognised",
    "checks/cites-superseded",
    "checks/overlapping-governance",
];

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

pub fn fixture_dir(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// A fixture copied into a fresh temporary folder: `root` is the copy. The sibling
/// `fixtures/outside/` is copied next to it, so a path escaping the root (`../outside/…`) exists
/// and must still not count.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
}

impl Fixture {
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, bytes: &[u8]) {
        write_file(&self.root, rel, bytes);
    }
}

pub fn copy_fixture(name: &str) -> Fixture {
    let dir = tempfile::Builder::new()
        .prefix("context-graph-test-")
        .tempdir()
        .expect("create a temporary folder");
    let last = Path::new(name)
        .file_name()
        .expect("fixture name")
        .to_owned();
    let root = dir.path().join(last);
    copy_dir(&fixture_dir(name), &root);
    copy_dir(&fixture_dir("outside"), &dir.path().join("outside"));
    Fixture { dir, root }
}

/// An empty root in a fresh temporary folder, for tests that build their records themselves.
pub fn empty_root() -> Fixture {
    let dir = tempfile::Builder::new()
        .prefix("context-graph-test-")
        .tempdir()
        .expect("create a temporary folder");
    let root = dir.path().join("repo");
    std::fs::create_dir_all(&root).expect("create root");
    Fixture { dir, root }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("create {}: {e}", to.display()));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display()))
    {
        let entry = entry.expect("directory entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("copy {}: {e}", entry.path().display()));
        }
    }
}

pub fn write_file(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent folder");
    }
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
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

    /// The JSON document on stdout.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout of {:?} is not JSON ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
                self.args,
                self.code,
                String::from_utf8_lossy(&self.stdout),
                self.stderr
            )
        })
    }

    pub fn describe(&self) -> String {
        format!(
            "{:?} exited {:?} in {:?}\nstdout:\n{}\nstderr:\n{}",
            self.args,
            self.code,
            self.elapsed,
            String::from_utf8_lossy(&self.stdout),
            self.stderr
        )
    }

    pub fn assert_code(&self, code: i32) -> &Self {
        assert!(!self.timed_out, "timed out: {}", self.describe());
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

/// Runs the binary with `args`, killing it after [`TIMEOUT`]. Colour is invited (a colour
/// terminal, no `NO_COLOR`) so that a tool colouring a pipe shows up.
pub fn run<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_env(args, &[])
}

pub fn run_env<I, S>(args: I, env: &[(&str, &str)]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_full(args, env, &std::env::temp_dir())
}

/// Runs the binary from the folder `cwd`.
pub fn run_in<I, S>(cwd: &Path, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_full(args, &[], cwd)
}

fn run_full<I, S>(args: I, env: &[(&str, &str)], cwd: &Path) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut cmd = Command::new(BIN);
    cmd.args(&args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("spawn {BIN}: {e}"));
    let mut out = child.stdout.take().expect("stdout pipe");
    let mut err = child.stderr.take().expect("stderr pipe");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            break status;
        }
        if start.elapsed() >= TIMEOUT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait for the killed binary");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned();
    Run {
        args: shown,
        code: if timed_out { None } else { status.code() },
        stdout,
        stderr,
        elapsed,
        timed_out,
    }
}

/// `context-graph <args…> --root <root> --json`.
pub fn run_json(root: &Path, args: &[&str]) -> Run {
    let mut all: Vec<std::ffi::OsString> = args.iter().map(|a| a.into()).collect();
    all.push("--root".into());
    all.push(root.into());
    all.push("--json".into());
    run(all)
}

/// `context-graph <args…> --root <root>` (Markdown).
pub fn run_md(root: &Path, args: &[&str]) -> Run {
    let mut all: Vec<std::ffi::OsString> = args.iter().map(|a| a.into()).collect();
    all.push("--root".into());
    all.push(root.into());
    run(all)
}

/// The full check of a fixture as JSON, with its exit code; cached per test binary.
pub fn check(name: &str) -> Answer {
    check_args(name, &[])
}

/// An exit code and the JSON printed.
pub type Answer = (Option<i32>, Value);

/// A finding as `(code, severity, record, path)`.
pub type Row = (String, String, String, String);

pub fn check_args(name: &str, args: &[&str]) -> Answer {
    static CACHE: OnceLock<Mutex<HashMap<String, Answer>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = format!("{name} {args:?}");
    if let Some(hit) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return hit.clone();
    }
    let fixture = copy_fixture(name);
    let run = run_json(&fixture.root, args);
    assert!(!run.timed_out, "timed out: {}", run.describe());
    let answer = (run.code, run.json());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, answer.clone());
    answer
}

/// The JSON of a fixture's full check (exit code not checked).
pub fn json(name: &str) -> Value {
    check(name).1
}

pub fn expected(name: &str) -> Value {
    let path = fixture_dir(name).join("expected.json");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

pub fn records(json: &Value) -> &Vec<Value> {
    json["records"]
        .as_array()
        .unwrap_or_else(|| panic!("`records` is not an array in {json:#}"))
}

pub fn ids(json: &Value) -> Vec<String> {
    records(json)
        .iter()
        .map(|r| r["id"].as_str().unwrap_or("<no id>").to_string())
        .collect()
}

/// The one record with this id (panics, listing the ids, when there is none or several).
pub fn record<'a>(json: &'a Value, id: &str) -> &'a Value {
    let found: Vec<&Value> = records(json).iter().filter(|r| r["id"] == id).collect();
    match found.as_slice() {
        [one] => one,
        [] => panic!("no record {id}; records are {:?}", ids(json)),
        _ => panic!("{} records have id {id}", found.len()),
    }
}

pub fn record_at<'a>(json: &'a Value, path: &str) -> &'a Value {
    records(json)
        .iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| {
            let paths: Vec<&Value> = records(json).iter().map(|r| &r["path"]).collect();
            panic!("no record at {path}; records are at {paths:?}")
        })
}

/// A record of a fixture's full check, by id.
pub fn rec(name: &str, id: &str) -> Value {
    record(&json(name), id).clone()
}

/// An array of strings, sorted (the JSON's list order is not part of the contract).
pub fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("not a string: {s}"))
                .to_string()
        })
        .collect();
    out.sort();
    out
}

/// The sorted strings of `record[key]`, for comparing with a literal list.
pub fn list(record: &Value, key: &str) -> Vec<String> {
    strings(&record[key])
}

pub fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// `(code, record)` of every finding, sorted.
pub fn findings(json: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = finding_list(json)
        .iter()
        .map(|f| (str_of(&f["code"]), str_of(&f["record"])))
        .collect();
    out.sort();
    out
}

/// `(code, severity, record, path)` of every finding, sorted.
pub fn finding_rows(json: &Value) -> Vec<Row> {
    rows_of(finding_list(json))
}

/// `(code, severity, record, path)` of each finding in `list`, sorted.
fn rows_of(list: &[Value]) -> Vec<Row> {
    let mut out: Vec<_> = list
        .iter()
        .map(|f| {
            (
                str_of(&f["code"]),
                str_of(&f["severity"]),
                str_of(&f["record"]),
                str_of(&f["path"]),
            )
        })
        .collect();
    out.sort();
    out
}

pub fn finding_list(json: &Value) -> &Vec<Value> {
    json["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("`findings` is not an array in {json:#}"))
}

/// The findings with this code and record.
pub fn findings_of<'a>(json: &'a Value, code: &str, record: &str) -> Vec<&'a Value> {
    finding_list(json)
        .iter()
        .filter(|f| f["code"] == code && f["record"] == record)
        .collect()
}

pub fn has_finding(json: &Value, code: &str, record: &str) -> bool {
    !findings_of(json, code, record).is_empty()
}

fn str_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => format!("<{other}>"),
    }
}

pub fn rows(expected: &[(&str, &str, &str, &str)]) -> Vec<Row> {
    let mut v: Vec<_> = expected
        .iter()
        .map(|(c, s, r, p)| (c.to_string(), s.to_string(), r.to_string(), p.to_string()))
        .collect();
    v.sort();
    v
}

/// Compares a fixture's full check with its `expected.json`, field by field, and panics with
/// every difference at once.
pub fn assert_corpus(name: &str) {
    let (code, actual) = check(name);
    let expected = expected(name);
    let mut problems: Vec<String> = Vec::new();

    // Records: exactly the expected files, each with the listed fields.
    let exp_records = expected["records"].as_object().expect("expected records");
    let mut actual_paths: Vec<String> = records(&actual)
        .iter()
        .map(|r| str_of(&r["path"]))
        .collect();
    actual_paths.sort();
    let mut exp_paths: Vec<String> = exp_records.keys().cloned().collect();
    exp_paths.sort();
    if actual_paths != exp_paths {
        problems.push(format!(
            "record files differ\n  expected {exp_paths:?}\n  actual   {actual_paths:?}"
        ));
    }
    for (path, fields) in exp_records {
        let Some(rec) = records(&actual).iter().find(|r| r["path"] == path.as_str()) else {
            continue;
        };
        for (key, want) in fields.as_object().expect("expected record fields") {
            compare_field(path, key, want, rec, &mut problems);
        }
    }

    // Findings: exactly these (code, severity, record, path).
    let want_rows = rows_of(expected["findings"].as_array().expect("expected findings"));
    let got_rows = finding_rows(&actual);
    if want_rows != got_rows {
        problems.push(format!(
            "findings differ\n  expected {want_rows:#?}\n  actual   {got_rows:#?}"
        ));
    }

    // Exit code: 1 when a problem is expected, else 0.
    let want_code = if want_rows.iter().any(|r| r.1 == "problem") {
        1
    } else {
        0
    };
    if code != Some(want_code) {
        problems.push(format!("exit code {code:?}, expected {want_code}"));
    }

    if let Some(docs) = expected.get("docs") {
        let norm = |v: &Value| -> Vec<(String, Vec<String>)> {
            let mut out: Vec<(String, Vec<String>)> = v
                .as_array()
                .expect("docs array")
                .iter()
                .map(|d| (str_of(&d["path"]), strings(&d["cites"])))
                .collect();
            out.sort();
            out
        };
        let (want, got) = (norm(docs), norm(&actual["docs"]));
        if want != got {
            problems.push(format!(
                "docs differ\n  expected {want:?}\n  actual   {got:?}"
            ));
        }
    }

    if let Some(mentions) = expected.get("notes_mention") {
        let notes = strings(&actual["notes"]);
        for m in strings(mentions) {
            if !notes.iter().any(|n| n.contains(&m)) {
                problems.push(format!("no note mentions {m}; notes are {notes:?}"));
            }
        }
    }

    assert!(
        problems.is_empty(),
        "fixture {name} differs from its expected.json:\n- {}",
        problems.join("\n- ")
    );
}

fn compare_field(path: &str, key: &str, want: &Value, rec: &Value, problems: &mut Vec<String>) {
    let (field, mode) = match key.rsplit_once('_') {
        Some((f, "include")) => (f, "include"),
        Some((f, "exclude")) => (f, "exclude"),
        _ => (key, "exact"),
    };
    let got = &rec[field];
    match mode {
        "include" | "exclude" => {
            let have = strings(got);
            for item in strings(want) {
                let present = have.contains(&item);
                if present != (mode == "include") {
                    problems.push(format!(
                        "{path}: {field} should {}contain {item}, is {have:?}",
                        if mode == "include" { "" } else { "not " }
                    ));
                }
            }
        }
        _ => {
            if normalise(want) != normalise(got) {
                problems.push(format!("{path}: {field} is {got}, expected {want}"));
            }
        }
    }
}

/// Arrays of strings sorted (list order is not part of the contract), recursively.
fn normalise(v: &Value) -> Value {
    match v {
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let mut s: Vec<String> = items
                .iter()
                .map(|i| i.as_str().unwrap().to_string())
                .collect();
            s.sort();
            Value::Array(s.into_iter().map(Value::String).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(normalise).collect()),
        Value::Object(map) => {
            let sorted: BTreeMap<&String, Value> =
                map.iter().map(|(k, v)| (k, normalise(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        other => other.clone(),
    }
}
