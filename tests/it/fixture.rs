//! Fixtures and the answers about them: copy a corpus from `fixtures/` into a [`TestEnv`]'s
//! folder, run the binary on it, read its JSON, and compare it with the corpus's
//! `expected.json`; and the record files tests write themselves.
//!
//! Every run happens on a copy outside any git work tree, so nothing around the fixture (the
//! project's own repository, its `.gitignore`, a future index in its git dir) changes the answer.

use crate::env::{Run, TestEnv};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

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
    "reading/dated-folders",
    "reading/dated-names",
    "reading/declared-scope",
    "reading/status-history",
    "reading/status-lines",
    "reading/status-tables",
    "reading/titles-markdown",
    "reading/titles-sections",
    "reading/tools-parts-guides",
];

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

pub fn fixture_dir(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// A fixture copied into a fresh [`TestEnv`]: `root` is the copy, in the env's folder. The
/// sibling `fixtures/outside/` is copied next to it, so a path escaping the root
/// (`../outside/…`) exists and must still not count.
pub struct Fixture {
    pub env: TestEnv,
    pub root: PathBuf,
}

impl Fixture {
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, bytes: &[u8]) {
        let path = self.root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent folder");
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }

    /// A hermetic command for `program` (git, mkfifo…) in the env's folder.
    pub fn command(&self, program: impl AsRef<OsStr>) -> std::process::Command {
        self.env.command(program)
    }

    /// `context-graph <args…> --root <the copy> --json`.
    pub fn run_json(&self, args: &[&str]) -> Run {
        self.env.run_json(&self.root, args)
    }

    /// `context-graph <args…> --root <the copy>` (Markdown).
    pub fn run_md(&self, args: &[&str]) -> Run {
        self.env.run_md(&self.root, args)
    }

    /// Runs the binary with `args` from the folder `cwd`.
    pub fn run_in<I, S>(&self, cwd: &Path, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.env.run_in(cwd, args)
    }
}

pub fn copy_fixture(name: &str) -> Fixture {
    let env = TestEnv::new();
    let last = Path::new(name)
        .file_name()
        .expect("fixture name")
        .to_owned();
    let root = env.path().join(last);
    copy_dir(&fixture_dir(name), &root);
    copy_dir(&fixture_dir("outside"), &env.path().join("outside"));
    Fixture { env, root }
}

/// An empty root in a fresh [`TestEnv`], for tests that build their records themselves.
pub fn empty_root() -> Fixture {
    let env = TestEnv::new();
    let root = env.path().join("repo");
    std::fs::create_dir_all(&root).expect("create root");
    Fixture { env, root }
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

/// A record file: `# N. Title`, a status line, an optional date line, then `body`.
pub fn adr(number: u32, title: &str, status: &str, date: Option<&str>, body: &str) -> String {
    let date = date.map(|d| format!("Date: {d}\n\n")).unwrap_or_default();
    format!("# {number}. {title}\n\nStatus: {status}\n\n{date}{body}\n")
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
    let run = fixture.run_json(args);
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

/// Every record's `path`, sorted.
pub fn record_paths(json: &Value) -> Vec<String> {
    let mut paths: Vec<String> = records(json)
        .iter()
        .map(|r| r["path"].as_str().unwrap_or_default().to_string())
        .collect();
    paths.sort();
    paths
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

/// An array of strings, sorted (these tests do not hold the JSON's lists to an order).
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

/// The string `key` of each object in the array `list`, in order (`column(&r["commits"],
/// "subject")`).
pub fn column(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|v| {
            v[key]
                .as_str()
                .unwrap_or_else(|| panic!("no {key} in {v}"))
                .to_string()
        })
        .collect()
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

/// Arrays of strings sorted (these tests do not hold lists to an order), recursively.
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

/// Makes a FIFO at `path` (replacing what is there) with the real `mkfifo`.
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(ok.success(), "mkfifo {}", path.display());
}
