//! Where records may be when the default folders hold none: the folders the "no decision
//! records found" error names (docs/commands.md, "Exit codes"; ADR-0003).

use super::{is_record_name, rel_of};
use std::path::Path;

/// The names of folders that hold records where the default folders are not used
/// (`docs/proposals`, `architecture-decisions`, `docs/arch`, `seed`).
const LIKELY_NAMES: [&str; 16] = [
    "adr",
    "adrs",
    "decisions",
    "architecture-decisions",
    "architecture-decision-records",
    "decision-records",
    "rfcs",
    "rfc",
    "proposals",
    "design",
    "designs",
    "arch",
    "specs",
    "enhancements",
    "seps",
    "sips",
];

/// Folders that look like record folders when none of the defaults holds records: up to two,
/// the fullest first, each with its count of files named like records. A folder counts when
/// it holds at least three record files ([`is_record_name`]) and either its name is one of
/// [`LIKELY_NAMES`] or most of those files' names start with a number, after a kind if any
/// (`0001-x.md`, `2019-v3-slots.md`, `adr-001-x.md`, `SWIP-12.md`). Read at most four folders
/// deep, never in hidden, vendored or built folders, and never past 20,000 entries: only the
/// error path asks.
pub fn likely_record_folders(root: &Path) -> Vec<(String, usize)> {
    const SKIP: [&str; 6] = [
        "node_modules",
        "vendor",
        "target",
        "dist",
        "build",
        "third_party",
    ];
    let mut counts: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let walker = walkdir::WalkDir::new(root)
        .max_depth(5)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(name.starts_with('.') || SKIP.contains(&name.as_ref()))
        });
    for entry in walker.flatten().take(20_000) {
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        if !is_record_name(&name) {
            continue;
        }
        let Some(dir) = entry.path().parent() else {
            continue;
        };
        let rel = rel_of(root, dir);
        if rel.is_empty() {
            continue;
        }
        let c = counts.entry(rel).or_default();
        c.0 += 1;
        c.1 += usize::from(numbered_name(&name));
    }
    let mut found: Vec<(String, usize)> = counts
        .into_iter()
        .filter(|(dir, (n, numbered))| {
            let own = dir.rsplit('/').next().unwrap_or(dir).to_ascii_lowercase();
            *n >= 3 && (LIKELY_NAMES.contains(&own.as_str()) || numbered * 2 > *n)
        })
        .map(|(dir, (n, _))| (dir, n))
        .collect();
    found.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    found.truncate(2);
    found
}

/// Most records the folders read may hold for [`folders_beside`] to look further.
const FEW: usize = 2;

/// What `check` says when the default folders (`read`) hold only `found` records, at most
/// [`FEW`], and a folder elsewhere named as record folders are ([`LIKELY_NAMES`]) holds more
/// than twice as many files named like records (external-secrets keeps one document in `docs/design` and its
/// design records in `design`): that folder, to name with `--docs`. Said on stderr, never kept
/// in the index: it reads the tree as [`likely_record_folders`] does, each time.
pub fn folders_beside(root: &Path, read: &[String], found: usize) -> Option<String> {
    if found > FEW {
        return None;
    }
    let inside = |dir: &str, folder: &str| {
        dir == folder
            || dir.starts_with(&format!("{folder}/"))
            || folder.starts_with(&format!("{dir}/"))
    };
    let more: Vec<(String, usize)> = likely_record_folders(root)
        .into_iter()
        // Named as record folders are, not only holding numbered files: beside records found,
        // a folder of numbered guides is guides.
        .filter(|(dir, _)| {
            let own = dir.rsplit('/').next().unwrap_or(dir).to_ascii_lowercase();
            LIKELY_NAMES.contains(&own.as_str())
        })
        .filter(|(dir, n)| *n > 2 * found.max(1) && !read.iter().any(|f| inside(dir, f)))
        .collect();
    let (dir, n) = more.first()?;
    let mut all: Vec<String> = read.iter().map(|f| format!("--docs {f}")).collect();
    all.push(format!("--docs {dir}"));
    Some(format!(
        "only {found} record{} in {}; `{dir}` holds {n} files named like records: `{}` reads them all",
        if found == 1 { "" } else { "s" },
        read.join(", "),
        all.join(" ")
    ))
}

/// Whether `path` (root-relative) is a design document of its own: a file named like a record,
/// below a folder named as record folders are ([`LIKELY_NAMES`]), numbered (the file, or a
/// folder between): jaeger's `docs/rfc/0005-structured-query-filters.md` beside its
/// `docs/adr`, cometbft's `rfc/tendermint-core/rfc-003-x.md`, a spec kit's
/// `specs/009-x/spec.md`. A record that names one relates to it and does not govern it
/// (docs/reading.md, "Named in passing").
pub fn is_design_document(path: &str) -> bool {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let Some((name, folders)) = parts.split_last() else {
        return false;
    };
    if !is_record_name(name) {
        return false;
    }
    let Some(at) = folders
        .iter()
        .position(|f| LIKELY_NAMES.contains(&f.to_ascii_lowercase().as_str()))
    else {
        return false;
    };
    folders[at + 1..]
        .iter()
        .chain(std::iter::once(name))
        .any(|p| numbered_name(p))
}

/// Whether a file's name starts with a number, after a kind of up to five letters if any:
/// `0001-x.md`, `adr-001-x.md`, `SWIP-12.md`, `trd104-x.md`.
fn numbered_name(name: &str) -> bool {
    let rest = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let letters = name.len() - rest.len();
    let rest = rest.trim_start_matches(['-', '_']);
    letters <= 5 && rest.starts_with(|c: char| c.is_ascii_digit())
}
