//! The checks of the reference, each finding with its stable code (docs/reading.md, ADR-0002):
//! a pure function of the records and the guides' citations, one file per family; the
//! markers' findings are a function of the markers and the records they name
//! ([`marker_findings`]). A finding's `path` is the file to edit to fix it; its message names
//! the fix.

mod ids;
mod markers;
mod paths;
mod references;
pub mod rules;
mod status;
mod supersession;

use crate::model::{DocCitations, Finding, Record, Status};
use std::collections::{HashMap, HashSet};

pub use markers::marker_findings;
pub use paths::with_renames;

struct Corpus<'a> {
    records: &'a [Record],
    by_id: HashMap<&'a str, &'a Record>,
    /// The kinds of record the repository has: the prefixes (`ADR`, `RFC`, `DR`) of the
    /// formatted ids of its records.
    kinds: HashSet<&'a str>,
}

impl<'a> Corpus<'a> {
    fn new(records: &'a [Record]) -> Corpus<'a> {
        let mut by_id = HashMap::new();
        for r in records {
            by_id.entry(r.id.as_str()).or_insert(r);
        }
        let kinds = records.iter().filter_map(|r| kind_of(&r.id)).collect();
        Corpus {
            records,
            by_id,
            kinds,
        }
    }

    /// Whether the repository has records of the kind `id` names (an `RFC 2119` in a
    /// repository of ADRs names an IETF RFC, not a missing record).
    fn has_kind_of(&self, id: &str) -> bool {
        kind_of(id).is_some_and(|k| self.kinds.contains(k))
    }

    fn exists(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    fn get(&self, id: &str) -> Option<&'a Record> {
        self.by_id.get(id).copied()
    }

    /// Every record that supersedes `r`, directly or through a chain of successors.
    fn successors_of(&self, r: &Record) -> std::collections::BTreeSet<&'a str> {
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<&str> = r.successors.iter().map(String::as_str).collect();
        while let Some(id) = todo.pop() {
            if let Some(next) = self.get(id) {
                if seen.insert(next.id.as_str()) {
                    todo.extend(next.successors.iter().map(String::as_str));
                }
            }
        }
        seen
    }

    /// Marked superseded, or named as superseded by an existing record.
    fn is_superseded(&self, r: &Record) -> bool {
        r.status == Status::Superseded || r.successors.iter().any(|s| self.exists(s))
    }
}

/// The prefix of a formatted id (`ADR-0007` → `ADR`); `None` for an id that is a file stem.
fn kind_of(id: &str) -> Option<&str> {
    crate::text::ids::number_of(id).and_then(|_| id.split_once('-').map(|(k, _)| k))
}

/// Every check over the records and the guides' citations, sorted: problems first, then by
/// record id, code and path.
pub fn run(records: &[Record], docs: &[DocCitations]) -> Vec<Finding> {
    let c = Corpus::new(records);
    let mut out = Vec::new();
    for r in records {
        supersession::supersession(&c, r, &mut out);
        paths::governed_paths(r, &mut out);
        references::references(&c, r, &mut out);
        status::status(r, &mut out);
    }
    ids::duplicate_ids(records, &mut out);
    supersession::cycles(&c, &mut out);
    paths::overlapping_governance(&c, &mut out);
    references::doc_citations(&c, docs, &mut out);
    sort(&mut out);
    out
}

/// `link-to-missing-record` for each link from a record to a record file that isn't there,
/// naming the closest existing record file (docs/reading.md).
pub fn missing_record_links(links: &[crate::model::MissingRecordLink]) -> Vec<Finding> {
    links
        .iter()
        .map(|l| {
            let closest = match &l.closest {
                Some(c) => format!(" (the closest record file is {c})"),
                None => String::new(),
            };
            Finding::new(
                crate::model::FindingCode::LinkToMissingRecord,
                &l.id,
                &l.path,
                format!(
                    "{} links to {}, which doesn't exist{closest}: correct the link",
                    l.id, l.target
                ),
            )
        })
        .collect()
}

/// The findings' order: problems first, then by record id, code, path and message; once each.
pub fn sort(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| {
        (
            a.severity,
            &a.record,
            a.code.as_str(),
            &a.path,
            a.line,
            &a.message,
        )
            .cmp(&(
                b.severity,
                &b.record,
                b.code.as_str(),
                &b.path,
                b.line,
                &b.message,
            ))
    });
    findings.dedup();
}

/// Rewrites the findings about the paths current records name and that are not there, for a
/// repository whose history `ever_had` tells whether it ever had a path (a pattern, for a
/// declared glob): one it never had is `governed-path-unknown`, not gone (docs/reading.md). The
/// checks themselves know no history; this runs once the answer's history is at hand.
///
/// A path named only by a link from the site's root (`/docs/…`, [`Record::site_links`]) that
/// the repository never had is a page of the site its documents are published to: no finding.
///
/// `elsewhere` tells (asked at most once, and only about a never-had path) whether the
/// repository keeps decisions about code kept elsewhere ([`code_kept_elsewhere`]): there, a
/// path named in prose that it never had and that has no close name here is the other
/// repository's, and no finding; a slip for one of its own paths (a close name) still is.
pub fn with_history(
    records: &[Record],
    findings: &mut Vec<Finding>,
    ever_had: &mut dyn FnMut(&str) -> bool,
    elsewhere: &mut dyn FnMut() -> bool,
) {
    let mut changed = false;
    let mut kept_elsewhere: Option<bool> = None;
    for r in records.iter().filter(|r| r.status.is_current()) {
        for m in &r.missing_paths {
            if ever_had(m) {
                continue;
            }
            let had = paths::missing_path(r, m, true);
            let Some(at) = findings.iter().position(|f| *f == had) else {
                continue;
            };
            // A declared pattern is the record's word about this repository: always reported.
            let prose = !r.governs.contains(m);
            // A link from the site's root to a path never here is the site's page.
            let site_page = prose && r.site_links.contains(m);
            if site_page
                || prose
                    && !r.moved.contains_key(m)
                    && *kept_elsewhere.get_or_insert_with(&mut *elsewhere)
            {
                findings.remove(at);
            } else {
                findings[at] = paths::missing_path(r, m, false);
            }
            changed = true;
        }
    }
    if changed {
        sort(findings);
    }
}

/// Whether a repository keeps decisions about code kept elsewhere (an RFC repository, a
/// documentation site): it tracks fewer code files outside its record folders than Markdown
/// files inside them. `tracked` are its tracked files, root-relative; `folders` its record
/// folders. npm/rfcs (54 records, 14 code files of its own tooling) and a Docusaurus site of
/// 33 ADRs about two other repositories are; a code repository with its ADRs is not.
pub fn code_kept_elsewhere<'a>(folders: &[String], tracked: impl Iterator<Item = &'a str>) -> bool {
    let inside = |p: &str| {
        folders.iter().any(|f| {
            f.is_empty()
                || p.strip_prefix(f.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        })
    };
    let (mut records, mut code) = (0usize, 0usize);
    for p in tracked {
        let ext = p.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        if inside(p) {
            records += usize::from(matches!(ext, "md" | "mdx" | "markdown" | "rst"));
        } else if CODE_EXTENSIONS.contains(&ext) {
            code += 1;
        }
    }
    code < records
}

/// The file extensions of code, as the rule above counts it: source files in the languages
/// decision records are kept beside (config, data and documents are not code).
const CODE_EXTENSIONS: &[&str] = &[
    "c", "cc", "cjs", "clj", "cpp", "cs", "dart", "erl", "ex", "exs", "fs", "go", "h", "hpp", "hs",
    "java", "js", "jsx", "kt", "lua", "m", "mjs", "ml", "php", "py", "rb", "rs", "scala", "sh",
    "svelte", "swift", "tf", "ts", "tsx", "vue", "zig",
];
