//! Go's `package.Name` (ADR-0017): the one Go package of that name, and in it the file of the
//! name's own.

use super::names::{Entry, Names};
use super::paths::in_tests;
use crate::text::terms::key;

/// Go packages a project's own package of the same name is not meant by: the standard
/// library's, and a few every Go program imports.
#[rustfmt::skip]
const GO_COMMON: &[&str] = &[
    "errors", "fmt", "io", "os", "context", "time", "strings", "sync", "atomic", "http", "net",
    "json", "xml", "csv", "bytes", "sort", "log", "slog", "math", "rand", "big", "reflect",
    "testing", "runtime", "debug", "pprof", "trace", "bufio", "flag", "filepath", "path", "fs",
    "regexp", "strconv", "unicode", "utf8", "url", "signal", "exec", "sql", "template", "tls",
    "x509", "crypto", "sha256", "hash", "heap", "list", "zip", "gzip", "binary", "hex",
    "base64", "slices", "maps", "iter", "cmp", "embed", "ioutil", "httptest", "grpc", "proto",
    "zap", "cobra", "assert", "require",
];

impl Names {
    /// What Go's `package.Name` names: the one Go package of that name, and in it the file of
    /// the name's own (`confmap/provider.go` for `confmap.Provider`) when there is one, else
    /// the package (`component/componentstatus/` for `componentstatus.Reporter`). Two
    /// packages of the name: nothing.
    pub(super) fn go_named(&self, package: &str, name: &str) -> Vec<&Entry> {
        let get = |k: &str| -> Vec<&Entry> {
            self.by_key
                .get(k)
                .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
                .unwrap_or_default()
        };
        // The standard library's packages, and a few every Go program imports: `errors.As`
        // is Go's, not the project's `internal/errors/`.
        if GO_COMMON.contains(&package) {
            return Vec::new();
        }
        let packages: Vec<&Entry> = get(&key(package))
            .into_iter()
            .filter(|e| self.go_packages.contains(&e.path) && !in_tests(&e.path))
            .collect();
        let [folder] = packages.as_slice() else {
            return Vec::new();
        };
        let files: Vec<&Entry> = get(&key(name))
            .into_iter()
            .filter(|e| {
                e.path.ends_with(".go")
                    && e.path
                        .strip_prefix(folder.path.as_str())
                        .is_some_and(|rest| !rest.contains('/'))
            })
            .collect();
        match files.as_slice() {
            [file] => vec![*file],
            _ => vec![*folder],
        }
    }
}
