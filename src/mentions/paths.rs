//! What a tracked path is, by its name alone (ADR-0017): the words of a name, documentation or
//! source code, tests and what lies beside the code, vendored and generated code.

/// A file a tool wrote from another (`tx.pb.go`, `zz_generated.deepcopy.go`).
pub(super) fn generated(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    [
        ".pb.",
        ".pulsar.",
        "_pb2.",
        ".connect.",
        "zz_generated",
        "_gen.",
        ".gen.",
    ]
    .iter()
    .any(|g| file.contains(g))
}

/// Whether `path` is Go code Kubernetes' code generators wrote from a project's API types
/// (`pkg/client/clientset/…/grpcroute.go`, `listers/`, `informers/`, `applyconfiguration/`):
/// the name of a kind is its type's, not the generated client's of it.
pub(super) fn client_generated(path: &str) -> bool {
    path.ends_with(".go")
        && path.split('/').any(|part| {
            matches!(
                part,
                "clientset"
                    | "listers"
                    | "informers"
                    | "applyconfiguration"
                    | "applyconfigurations"
            )
        })
}

/// Whether `path` is another project's code kept in this tree (Go's `vendor/`,
/// `node_modules/`): no record here is about it. Not `third-party/`, where some projects keep
/// their own integrations (James's `third-party/rspamd/`).
pub(super) fn vendored(path: &str) -> bool {
    path.split('/')
        .any(|part| matches!(part, "vendor" | "vendored" | "node_modules"))
}

/// The words of a name, as [`word_count`] counts them (`EventMetadata` → `Event`, `Metadata`;
/// `metric_tags` → `metric`, `tags`), without their separators.
pub(super) fn words_of(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None;
    for (at, c) in name.char_indices() {
        let boundary = match prev {
            None => false,
            Some(p) => p.is_lowercase() && c.is_uppercase(),
        };
        if !c.is_alphanumeric() || boundary {
            if let Some(s) = start.take() {
                out.push(&name[s..at]);
            }
        }
        if c.is_alphanumeric() && start.is_none() {
            start = Some(at);
        }
        prev = Some(c);
    }
    if let Some(s) = start {
        out.push(&name[s..]);
    }
    out
}

/// The words of a name: parts between `_`, `-`, `.` and lower-to-upper case changes.
pub(super) fn word_count(name: &str) -> usize {
    let mut n = 0;
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let starts = match prev {
            None => c.is_alphanumeric(),
            Some(p) => {
                (!p.is_alphanumeric() && c.is_alphanumeric())
                    || (p.is_lowercase() && c.is_uppercase())
            }
        };
        n += usize::from(starts);
        prev = Some(c);
    }
    n
}

/// The last part of a folder's dotted name (`AzureOpenAI` of `Connectors.AzureOpenAI`): a
/// name of a letter and two more, of a name that is not hidden.
pub(super) fn dotted_last(leaf: &str) -> Option<&str> {
    let (head, last) = leaf.rsplit_once('.')?;
    (!head.is_empty()
        && last.len() >= 3
        && last.starts_with(|c: char| c.is_ascii_alphabetic())
        && last.chars().all(|c| c.is_ascii_alphanumeric()))
    .then_some(last)
}

/// A path's last part without its extension (a folder's name).
pub(super) fn leaf_stem(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    let leaf = trimmed.rsplit('/').next().unwrap_or(trimmed);
    if path.ends_with('/') {
        return leaf;
    }
    leaf.rsplit_once('.')
        .map_or(leaf, |(s, _)| if s.is_empty() { leaf } else { s })
}

/// Documentation and pictures, not code: never a mention (a file of those kinds, or anything
/// in a top-level documentation tree or a site's sources).
pub(super) fn is_doc(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let top = lower.split('/').next().unwrap_or("");
    if lower.contains('/')
        && (["docs", "doc", "documentation", "site", "website"].contains(&top)
            || lower.contains("/xdoc/")
            || lower.contains("src/site/"))
    {
        return true;
    }
    [
        ".md",
        ".markdown",
        ".adoc",
        ".rst",
        ".txt",
        ".html",
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".svg",
        ".ico",
        ".pdf",
        ".drawio",
        ".puml",
    ]
    .iter()
    .any(|e| lower.ends_with(e))
}

/// Whether a tracked file is source code, by its extension.
pub(super) fn is_source(path: &str) -> bool {
    let leaf = path.rsplit('/').next().unwrap_or(path);
    leaf.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && crate::text::path::is_source_extension(&ext.to_ascii_lowercase())
    })
}

/// Folders of tests, fixtures, examples, test doubles and vendored code.
#[rustfmt::skip]
const TEST_FOLDERS: &[&str] = &[
    "test", "tests", "spec", "specs", "__tests__", "testdata", "fixtures", "fixture", "examples",
    "example", "vendor", "node_modules", "third_party", "third-party", "bench", "benches", "testing", "e2e",
    "features", "samples", "sample", "demos", "demo", "mock", "mocks",
];

/// Whether a folder's name is one of tests: in [`TEST_FOLDERS`], or named as a kind of
/// tests or their helpers (`UnitTests`, `integration-tests`, `Foo.Tests`, `test_util`).
fn test_folder(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    TEST_FOLDERS.contains(&part)
        || lower.ends_with("tests")
        || lower.ends_with("_samples")
        || lower.ends_with("-samples")
        || lower.ends_with("_examples")
        || lower.ends_with("-examples")
        || lower.ends_with("-test")
        || lower.starts_with("test_")
        || lower.starts_with("test-")
}

/// Whether `path` is beside the code rather than code a record is about, for a name the
/// prose says (a link names what it links to): tests (a folder of them, or a test's own file,
/// `ScreenBufferTests.cpp`, `ut_host/`, `ft_fuzzer/`), samples and examples (`samples/ConPTY/`
/// for "ConPTY"), the licenses kept for dependencies (`licenses/k8s.io/kube-scheduler/`) and
/// an editor's settings (`.vscode/settings.json` for "`settings.json`"). Read on fresh
/// repositories (issue 20's eleventh round): every such mention was wrong.
pub(super) fn beside_the_code(path: &str) -> bool {
    let trimmed = path.trim_end_matches('/');
    let file = (!path.ends_with('/')).then(|| trimmed.rsplit('/').next().unwrap_or(trimmed));
    let test_file = file.is_some_and(|f| {
        let stem = f.split('.').next().unwrap_or(f).to_ascii_lowercase();
        stem.ends_with("test") || stem.ends_with("tests") || stem.starts_with("test_")
    });
    let folders = trimmed.split('/').rev().skip(usize::from(file.is_some()));
    test_file
        || in_tests(path)
        || folders.into_iter().any(|part| {
            let lower = part.to_ascii_lowercase();
            lower.starts_with("ut_")
                || lower.starts_with("ft_")
                || lower.contains("fuzz")
                || matches!(lower.as_str(), "licenses" | "license" | ".vscode" | ".idea")
        })
}

/// Whether `path` lies in a folder of tests, fixtures, examples or vendored code (a
/// top-level `conformance/` is a test suite, Gateway API's; deeper, it may be a module,
/// volcano's `plugins/conformance/`).
pub(super) fn in_tests(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let folders = &parts[..parts.len() - usize::from(!path.ends_with('/'))];
    folders.iter().enumerate().any(|(at, part)| {
        // `features/` is Cucumber's and Behat's specs at the top, but a feature-sliced app's
        // code below a source root (Unleash's `src/lib/features/frontend-api/`).
        test_folder(part)
            && !(*part == "features"
                && folders[..at]
                    .iter()
                    .any(|p| matches!(*p, "src" | "lib" | "app")))
    }) || path
        .trim_end_matches('/')
        .split('/')
        .next()
        .is_some_and(|p| TEST_FOLDERS.contains(&p) || p == "conformance")
}
