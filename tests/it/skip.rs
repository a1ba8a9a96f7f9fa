//! A test that cannot run (a tool it needs is missing, or the user's permissions cannot be
//! taken away) passes, but says so: [`skipped`] prints `skipped: REASON`, and, when
//! [`SKIPS_VAR`] names a file (`.ci/run` sets it), adds `TEST: REASON` to it, so that CI ends
//! with a line naming every test that did not run and why (`.ci/skipped`), instead of an `ok`
//! that only `--nocapture` shows did nothing.

use std::io::Write;
use std::path::Path;

/// The variable naming the file of skipped tests, one `TEST: REASON` a line.
pub const SKIPS_VAR: &str = "CONTEXT_GRAPH_SKIPS";

/// The running test skips (all or part of) its work for `reason`: says so on stderr, and adds
/// it to the file [`SKIPS_VAR`] names, if any.
pub fn skipped(reason: &str) {
    eprintln!("skipped: {reason}");
    if let Some(file) = std::env::var_os(SKIPS_VAR).filter(|f| !f.is_empty()) {
        list(Path::new(&file), &test_name(), reason);
    }
}

/// The running test's name: libtest names each test's thread after it.
fn test_name() -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => "a test on the main thread".to_string(),
    }
}

/// Appends `TEST: REASON` to `file`, in one write, so that tests skipping at once don't mix
/// their lines.
fn list(file: &Path, test: &str, reason: &str) {
    let line = format!("{test}: {}\n", reason.replace('\n', " "));
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .unwrap_or_else(|e| panic!("list the skipped test in {}: {e}", file.display()));
}

/// `.ci/skipped FILE`, the last line of `.ci/run`.
#[cfg(unix)]
fn summary(file: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/skipped");
    let env = crate::env::TestEnv::new();
    let out = env
        .command("bash")
        .arg(&script)
        .arg(file)
        .output()
        .expect("run .ci/skipped");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_skipped_test_is_listed_by_name_with_its_reason() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("skipped.txt");
    list(&file, &test_name(), "Graphviz's `dot` is not on PATH");
    let other = std::thread::Builder::new()
        .name("pictures::report::in_a_browser".to_string())
        .spawn({
            let file = file.clone();
            move || {
                list(
                    &file,
                    &test_name(),
                    "no chromium on PATH\n(apt-get install chromium)",
                )
            }
        })
        .expect("a thread")
        .join();
    assert!(other.is_ok());
    assert_eq!(
        std::fs::read_to_string(&file).expect("the list"),
        "skip::a_skipped_test_is_listed_by_name_with_its_reason: Graphviz's `dot` is not on PATH\n\
         pictures::report::in_a_browser: no chromium on PATH (apt-get install chromium)\n"
    );
}

#[cfg(unix)]
#[test]
fn ci_ends_with_a_line_naming_each_skipped_test_and_why() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("skipped.txt");
    // No file (nothing skipped, or no test run): none.
    assert_eq!(summary(&file), "skipped: none\n");
    std::fs::write(&file, "").expect("write");
    assert_eq!(summary(&file), "skipped: none\n");
    // One line a test, sorted, a test listed twice (two runs of the binary) once.
    std::fs::write(
        &file,
        "write::adr_tools::adr_list: adr-tools is not installed\n\
         pictures::graph::dot: Graphviz's `dot` is not on PATH\n\
         write::adr_tools::adr_list: adr-tools is not installed\n",
    )
    .expect("write");
    assert_eq!(
        summary(&file),
        "skipped: 2 tests: pictures::graph::dot (Graphviz's `dot` is not on PATH); \
         write::adr_tools::adr_list (adr-tools is not installed)\n"
    );
    std::fs::write(&file, "pictures::graph::dot: no dot\n").expect("write");
    assert_eq!(
        summary(&file),
        "skipped: 1 test: pictures::graph::dot (no dot)\n"
    );
}
