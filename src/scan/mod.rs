//! A scan: discovery → parsing → graph → checks, the full [`Report`] of a root.
//!
//! Parsing is the only step whose result can be kept: a cache (the index, ADR-0006) hands in
//! [`Inputs`] that serve unchanged files. The graph and the checks always run, because path
//! existence follows the working tree; so an indexed answer and a fresh one are computed by
//! the same code (ADR-0004). A scan for a cache also returns everything it depended on
//! ([`Deps`]), stamped, so the cache can tell later that it would come out the same. The
//! source files' markers are scanned apart ([`markers`]): an answer asks for the markers of
//! the files it needs, each time, served by the cache for the files git knows unchanged.

mod deps;
pub mod imports;
pub mod markers;
pub mod rules;
mod years;

pub use deps::{Deps, Parents, ParentsCheck};
pub use markers::{
    blob_markers, markers_for, scan_markers, staged_markers, MarkerCache, MarkerScan, NoCache,
    SourceWalk, StagedCache, StagedFiles, StagedScan,
};

use crate::fs::discover;
use crate::fs::fingerprint::{Fingerprint, RootDir, Stamp};
use crate::fs::read::read_file;
use crate::fs::tree::Tree;
use crate::fs::walk::{self, WalkStamp};
use crate::fs::{Found, FsError};
use crate::graph::{self, Resolver};
use crate::mentions::Names;
use crate::model::Report;
use crate::parse::{self, Guide, ParsedRecord};
use std::collections::HashMap;
use std::path::Path;

/// Why there is no report.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error(transparent)]
    Fs(#[from] FsError),
    /// What to do next is said too: make a folder, or name the one the records are in
    /// (docs/commands.md, "Exit codes").
    #[error(
        "no decision records found under {root} (looked in {looked}): `context-graph init` makes a record folder, or `--docs DIR` names the folder yours are in{hint}"
    )]
    NoRecords {
        root: String,
        looked: String,
        /// Where records may be, when the default folders were looked in and a folder
        /// elsewhere looks like one ([`discover::likely_record_folders`]); else empty.
        hint: String,
    },
}

/// Where parsed files come from: a cache may answer for a file it has seen unchanged.
pub trait Inputs: Sync {
    /// The root, opened, when the scan is for a cache: every file read is then stamped and
    /// the scan returns its [`Deps`]. `None` for a scan nothing keeps.
    fn keeps(&self) -> Option<&RootDir> {
        None
    }
    /// The parse of the record file `found`, whose fingerprint is `now`, if the cache holds
    /// one still valid; with the stamp it holds.
    fn record(&self, _found: &Found, _now: &Fingerprint) -> Option<(ParsedRecord, Stamp)> {
        None
    }
    /// The same for a guide.
    fn guide(&self, _found: &Found, _now: &Fingerprint) -> Option<(Guide, Stamp)> {
        None
    }
    /// A guide walk known to hold still: a new walk would find its files.
    fn guide_walk(&self) -> Option<WalkStamp> {
        None
    }
    /// The imports kept by blob id, for the records' rules (ADR-0021): `None` reads every
    /// file's.
    fn imports(&self) -> Option<&dyn imports::ImportCache> {
        None
    }
}

/// No cache: every file is read and parsed, nothing is stamped.
pub struct Fresh;
impl Inputs for Fresh {}

/// What a scan found, before any query narrows it.
pub struct Scan {
    pub report: Report,
    /// Every record read, in path order.
    pub parsed: Vec<ParsedRecord>,
    /// Every guide read, in path order.
    pub guides: Vec<Guide>,
    /// What it depended on, when the inputs keep it.
    pub deps: Option<Deps>,
    /// The digest of the tracked names the mentions were resolved against, and the checksum
    /// of git's index they were read from.
    pub names: u64,
    pub names_checksum: Option<[u8; 20]>,
    /// A record carries rules: the report then depends on what the tracked files hold, so a
    /// cache keeps it only while git's index is the same (ADR-0021).
    pub has_rules: bool,
    /// What the rules read of the imports cache, when there was one (ADR-0021).
    pub imports: Option<imports::ImportsRead>,
    /// [`Scan::vocabulary`], once made.
    pub vocabulary: std::sync::OnceLock<Vec<u8>>,
}

/// What came of one file: its value or the note saying why it was skipped, and its stamp
/// when the scan is for a cache (a file that could not be read is stamped too: whatever kept
/// it from being read is what the stamp says; `None` only when it could not be looked at).
type Outcome<T> = (Result<T, String>, Option<Stamp>);

/// Reads every record and guide under `root` and runs every check. `names` are the tracked
/// files' names the records' code mentions are resolved against (none outside git).
pub fn scan(
    root: &Path,
    docs: &[String],
    inputs: &dyn Inputs,
    names: &Names,
) -> Result<Scan, ScanError> {
    let reading = discover::reading(root, docs)?;
    let folders = reading.folders.clone();
    let started_ns = crate::util::now_ns();
    let dir = inputs.keeps();
    let mut listing = discover::list_records(root, &folders);
    listing.files.retain(|f| !reading.excluded(&f.rel));
    let record_dirs = dir.map(|d| stamp_all(d, &listing.dirs, started_ns));
    let mut notes = listing.notes.clone();
    let mut parsed: Vec<ParsedRecord> = Vec::with_capacity(listing.files.len());
    let mut record_stamps = Vec::with_capacity(listing.files.len());
    let read_records = cached_or_read(
        &listing.files,
        dir,
        started_ns,
        |f, now| inputs.record(f, now),
        |bytes, f| {
            let prefix = reading.prefix_for(&f.rel);
            parse::parse_record(&f.rel, bytes, prefix).map_err(|e| e.to_string())
        },
        root,
    );
    for (f, (outcome, stamp)) in listing.files.iter().zip(read_records) {
        record_stamps.push((f.clone(), stamp));
        match outcome {
            Ok(p) => {
                notes.extend(p.notes.iter().cloned());
                parsed.push(p);
            }
            Err(note) => notes.push(note),
        }
    }
    drop_non_records(&mut parsed);
    default_statuses(&mut parsed, &reading);
    years::year_named(&mut parsed);
    if parsed.is_empty() {
        let looked = if folders.is_empty() {
            "the default record folders; none exists".to_string()
        } else {
            folders.join(", ")
        };
        // Only the default folders were looked in: name the likely ones (the first hour of a
        // repository whose records live in `docs/proposals/` or `seed/`).
        let likely = match docs.is_empty() {
            true => discover::likely_record_folders(root),
            false => Vec::new(),
        };
        let hint = match likely.is_empty() {
            true => String::new(),
            false => {
                let each: Vec<String> = likely
                    .iter()
                    .map(|(dir, n)| format!("`--docs {dir}` ({n} files)"))
                    .collect();
                format!("; try {}", each.join(" or "))
            }
        };
        return Err(ScanError::NoRecords {
            root: root.display().to_string(),
            looked,
            hint,
        });
    }
    let tree = Tree::new(root.to_path_buf())
        .with_absent(Some(not_checked_out(root)))
        .with_tracked(Some(tracked_paths(root)));
    let mut records = graph::build(&tree, &folders, &parsed);
    add_mentions(&mut records, &parsed, names, &folders, root);

    let walk = match inputs.guide_walk() {
        Some(held) => held,
        None => {
            let walk = walk::guide_walk(root, &folders);
            notes.extend(walk.notes.iter().cloned());
            match dir {
                Some(d) => WalkStamp::of(d, &walk, started_ns),
                None => WalkStamp {
                    started_ns,
                    dirs: Vec::new(),
                    ignores: Vec::new(),
                    files: walk.files,
                },
            }
        }
    };
    let guide_files = walk.files.clone();
    let mut guides = Vec::new();
    let mut guide_stamps = Vec::with_capacity(guide_files.len());
    let read_guides = cached_or_read(
        &guide_files,
        dir,
        started_ns,
        |f, now| inputs.guide(f, now),
        |bytes, f| {
            let text =
                std::str::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8, skipped", f.rel))?;
            Ok(parse::parse_guide(&f.rel, text))
        },
        root,
    );
    for (f, (outcome, stamp)) in guide_files.iter().zip(read_guides) {
        guide_stamps.push((f.clone(), stamp));
        match outcome {
            Ok(g) => guides.push(g),
            Err(note) => notes.push(note),
        }
    }
    let resolver = Resolver::new(&parsed, &folders);
    let docs_cited = graph::doc_citations(&guides, &records, &resolver);
    let mut findings = crate::checks::run(&records, &docs_cited);
    findings.extend(crate::checks::missing_record_links(
        &graph::missing_record_links(&tree, &parsed, &folders),
    ));
    foreign_duplicates(&mut findings, &parsed);
    staged_duplicates(&mut findings, &parsed);
    // The records' rules, over the tracked files as git's index holds them (ADR-0021).
    let ((rule_outcomes, rule_findings, rule_notes), imports_read) =
        rules::check(root, &parsed, inputs.imports());
    findings.extend(rule_findings);
    notes.extend(rule_notes);
    let has_rules = parsed.iter().any(|p| p.rules.is_some());
    said_in_other_words(&mut findings, &parsed);
    crate::checks::sort(&mut findings);
    ignore_findings(&mut findings, &reading, &mut notes);
    let deps = record_dirs.map(|record_dirs| Deps {
        started_ns,
        docs: docs.to_vec(),
        folders,
        record_dirs,
        files: record_stamps,
        walk,
        guides: guide_stamps,
        observed: tree.observed(),
    });
    Ok(Scan {
        report: Report {
            root: root.display().to_string(),
            records,
            docs: docs_cited,
            findings,
            notes,
            query: None,
            rules: rules::kept(&rule_outcomes),
        },
        parsed,
        guides,
        deps,
        names: names.digest(),
        names_checksum: names.checksum,
        has_rules,
        imports: imports_read,
        vocabulary: std::sync::OnceLock::new(),
    })
}

impl Scan {
    /// The records' words as `why`'s `text` evidence compares them with a file, in the
    /// report's order (docs/related.md): made once, for the memo and the answer alike.
    pub fn vocabulary(&self) -> &[u8] {
        self.vocabulary.get_or_init(|| self.make_vocabulary())
    }

    fn make_vocabulary(&self) -> Vec<u8> {
        let by_path: HashMap<&str, &[(String, u32)]> = self
            .parsed
            .iter()
            .map(|p| (p.path.as_str(), p.words.as_slice()))
            .collect();
        let words: Vec<&[(String, u32)]> = self
            .report
            .records
            .iter()
            .map(|r| by_path.get(r.path.as_str()).copied().unwrap_or_default())
            .collect();
        crate::related::vocabulary(&words)
    }
}

/// A record that states no status takes its folder's `default_status` (docs/configuration.md); its
/// `status_text` stays `""`, since the file says nothing.
fn default_statuses(parsed: &mut [ParsedRecord], reading: &discover::Reading) {
    for p in parsed.iter_mut() {
        if p.status == crate::model::Status::Unknown {
            if let Some(word) = reading.default_status(&p.path) {
                p.status = crate::model::Status::from_text(word);
            }
        }
    }
}

/// Records merged from two repositories (ember-cli's RFCs in emberjs/rfcs) keep each one's pull
/// request numbers: an id shared by records whose frontmatter names their pull requests in
/// different repositories is no `duplicate-id` (docs/reading.md).
fn foreign_duplicates(findings: &mut Vec<crate::model::Finding>, parsed: &[ParsedRecord]) {
    explained_duplicates(findings, parsed, |p| p.origin.as_deref());
}

/// One proposal filed at two stages (oneTBB's `rfcs/proposed/task_arena_waiting/readme.md`
/// and `rfcs/supported/task_arena_waiting/readme.md`, the second linking the first) shares its
/// folder's name by the layout, not by a numbering slip: no `duplicate-id` (docs/reading.md).
fn staged_duplicates(findings: &mut Vec<crate::model::Finding>, parsed: &[ParsedRecord]) {
    explained_duplicates(findings, parsed, |p| discover::stage_of(&p.path));
}

/// Drops each `duplicate-id` whose records all have a `place` (a repository, a stage), each a
/// different one: the layout explains the shared id.
fn explained_duplicates<'p>(
    findings: &mut Vec<crate::model::Finding>,
    parsed: &'p [ParsedRecord],
    place: impl Fn(&'p ParsedRecord) -> Option<&'p str>,
) {
    findings.retain(|f| {
        if f.code != crate::model::FindingCode::DuplicateId {
            return true;
        }
        let places: Vec<Option<&str>> = parsed
            .iter()
            .filter(|p| p.id == f.record)
            .map(&place)
            .collect();
        let mut named: Vec<&str> = places.iter().flatten().copied().collect();
        named.sort_unstable();
        named.dedup();
        !(named.len() == places.len() && places.len() > 1)
    });
}

/// A successor that names the record after a supersession word in a sentence of its own ("The
/// behaviour supersedes that description in [ADR-0015](…)") has said it supersedes it, if not
/// as the record's own statement: no `successor-not-reciprocal`.
fn said_in_other_words(findings: &mut Vec<crate::model::Finding>, parsed: &[ParsedRecord]) {
    findings.retain(|f| {
        if f.code != crate::model::FindingCode::SuccessorNotReciprocal {
            return true;
        }
        let paths: Vec<&str> = parsed
            .iter()
            .filter(|p| p.id == f.record)
            .map(|p| p.path.as_str())
            .collect();
        let Some(successor) = parsed.iter().find(|p| p.path == f.path) else {
            return true;
        };
        !successor.supersession_mentions.iter().any(|r| match r {
            parse::Ref::Id(id) => *id == f.record,
            parse::Ref::Link { target, text_id } | parse::Ref::Web { target, text_id } => {
                paths.contains(&target.as_str()) || text_id.as_deref() == Some(f.record.as_str())
            }
        })
    });
}

/// Drops the findings whose codes `.context-graph.toml` ignores, and says in a note how many.
fn ignore_findings(
    findings: &mut Vec<crate::model::Finding>,
    reading: &discover::Reading,
    notes: &mut Vec<String>,
) {
    let ignore = &reading.config.ignore;
    if ignore.is_empty() {
        return;
    }
    let before = findings.len();
    let mut counts: Vec<(crate::model::FindingCode, usize)> = Vec::new();
    for f in findings.iter().filter(|f| ignore.contains(&f.code)) {
        match counts.iter_mut().find(|(c, _)| *c == f.code) {
            Some((_, n)) => *n += 1,
            None => counts.push((f.code, 1)),
        }
    }
    findings.retain(|f| !ignore.contains(&f.code));
    let dropped = before - findings.len();
    if dropped > 0 {
        counts.sort();
        let each: Vec<String> = counts.iter().map(|(c, n)| format!("{c} {n}")).collect();
        notes.push(format!(
            "{dropped} finding{} ignored by {} ({})",
            if dropped == 1 { "" } else { "s" },
            crate::fs::config::FILE,
            each.join(", ")
        ));
    }
}

/// Leaves out the files of a record folder that are not records by their text (docs/reading.md,
/// "Which files are records"): a `0000-` file holding a template's placeholders, a bare file
/// (no heading, status, date or decision) whose name carries no number or date and that no
/// record links to, and such a file with a heading (an overview, hermes' `architecture.md`)
/// among records whose names do carry one, linked or not.
fn drop_non_records(parsed: &mut Vec<ParsedRecord>) {
    // Each folder's files with a number or date in their names, and without.
    let mut named_in: std::collections::HashMap<&str, [usize; 2]> =
        std::collections::HashMap::new();
    for p in parsed.iter() {
        let named = parse::name_id(parse::record_stem(&p.path), p.prefix).is_some();
        let folder = crate::text::parent_folder(&p.path);
        named_in.entry(folder).or_default()[usize::from(!named)] += 1;
    }
    let among_numbered = |p: &ParsedRecord| {
        named_in
            .get(crate::text::parent_folder(&p.path))
            .is_some_and(|&[named, unnamed]| {
                named >= OVERVIEW_AMONG && named >= OVERVIEW_AMONG * unnamed
            })
    };
    let overviews: std::collections::HashSet<String> = parsed
        .iter()
        .filter(|p| p.overview && among_numbered(p))
        .map(|p| p.path.clone())
        .collect();
    let linked: std::collections::HashSet<String> = parsed
        .iter()
        .flat_map(|p| p.links.iter())
        .filter_map(|l| match l {
            parse::Ref::Link { target, .. } | parse::Ref::Web { target, .. } => {
                Some(target.clone())
            }
            parse::Ref::Id(_) => None,
        })
        .collect();
    parsed.retain(|p| {
        // The name that stands for the record: a record in a folder of its own is named by
        // the folder (`rfcs/RFC-0000/README.md`).
        let stem = parse::record_stem(&p.path);
        let zero = stem.starts_with("0000-")
            || parse::name_id(stem, p.prefix)
                .is_some_and(|id| crate::text::ids::number_of(&id) == Some(0));
        let template = zero && p.placeholders;
        // A name with a number or a date (`0024-x.md`) says it is a record, heading or not.
        let named = parse::name_id(stem, p.prefix).is_some();
        // An overview stays one when a record points to it ("Please see [adr-guidelines.md]
        // before completing"); a bare file a record links to is read as the record it names.
        let overview = overviews.contains(&p.path);
        let unmarked = p.bare || overview;
        !template && (!unmarked || named || (!overview && linked.contains(&p.path)))
    });
}

/// A folder's unnumbered file with nothing of a record (no status, date or decision section)
/// is an overview when at least this many of its files carry a number or date, and this many
/// times as many as do not (volcano's unnumbered designs beside a few numbered ones stay).
const OVERVIEW_AMONG: usize = 3;

/// Each record's code mentions (docs/mentions.md): its terms resolved against `names`, leaving
/// out what it governs and the record folders.
fn add_mentions(
    records: &mut [crate::model::Record],
    parsed: &[ParsedRecord],
    names: &Names,
    folders: &[String],
    root: &Path,
) {
    let by_path: std::collections::HashMap<&str, &ParsedRecord> =
        parsed.iter().map(|p| (p.path.as_str(), p)).collect();
    let vocabulary = crate::mentions::Vocabulary::new(parsed.iter().map(|p| p.terms.as_slice()));
    // The types the records name, looked for in the tracked source files (a file read only
    // when there is a name to look for; a large one, likely generated, is not).
    let wanted = names.definable_names(parsed.iter().map(|p| p.terms.as_slice()), &vocabulary);
    let defined = names.defined(&wanted, |rel| read_source(root, rel));
    for r in records.iter_mut() {
        if let Some(p) = by_path.get(r.path.as_str()) {
            // The paths its prose names without governing them (the graph's) come first;
            // then what its terms name, each path once, in line order.
            let mut all = std::mem::take(&mut r.code_mentions);
            all.extend(names.resolve_defined(
                &p.terms,
                &r.governs,
                folders,
                &vocabulary,
                &p.title,
                &defined,
                crate::text::path::record_home(&r.path),
            ));
            let mut seen = std::collections::HashSet::new();
            all.retain(|m| seen.insert(m.path.clone()));
            all.sort_by_key(|m| m.line);
            r.code_mentions = all;
        }
    }
}

/// A source file looked in for the types it defines: larger ones are left unread (generated
/// code, bundles).
const SOURCE_READ_LIMIT: u64 = 512 * 1024;

/// The bytes of the tracked source file `rel` under `root`, unless it is larger than
/// [`SOURCE_READ_LIMIT`], not a regular file, or not there (a sparse checkout).
fn read_source(root: &Path, rel: &str) -> Option<Vec<u8>> {
    let path = root.join(rel);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > SOURCE_READ_LIMIT {
        return None;
    }
    crate::fs::read::read_regular(&path).ok()
}

/// The names of the files git tracks under the root (none outside git, or when git's index
/// cannot be read: the mentions are then empty).
pub fn tracked_names(repo: Option<&crate::git::Repo>) -> Names {
    // The checksum first: should git's index change between the two reads, the checksum is
    // the older one, never matches again, and the paths' digest decides.
    let checksum = repo.and_then(crate::git::index_checksum);
    match repo.map(crate::git::tracked) {
        Some(Ok(t)) => {
            let mut names = Names::new(t.files.iter().map(|f| f.path.as_str()));
            names.checksum = checksum;
            names.home = repo.and_then(crate::git::home_name);
            names
        }
        _ => Names::default(),
    }
}

/// [`Names::digest`] of [`tracked_names`], without building the names.
pub fn names_digest(repo: Option<&crate::git::Repo>) -> u64 {
    match repo.map(crate::git::tracked) {
        Some(Ok(t)) => crate::mentions::digest(t.files.iter().map(|f| f.path.as_str())),
        _ => Names::default().digest(),
    }
}

fn stamp_all(dir: &RootDir, rels: &[String], started_ns: i64) -> Vec<(String, Option<Stamp>)> {
    rels.iter()
        .map(|rel| {
            let stamp = dir.stamp(rel, crate::fs::fingerprint::Content::Folder, started_ns);
            (rel.clone(), stamp)
        })
        .collect()
}

/// Each file's cached value, or its own reading: the cache answers first, on this thread (a
/// stat each); only what it could not answer is read and parsed, on every core. In file
/// order. With `dir` (a scan for a cache), each file is fingerprinted before it is read, and
/// stamped with what was read.
fn cached_or_read<T: Send>(
    files: &[Found],
    dir: Option<&RootDir>,
    started_ns: i64,
    cached: impl Fn(&Found, &Fingerprint) -> Option<(T, Stamp)>,
    parse: impl Fn(&[u8], &Found) -> Result<T, String> + Sync,
    root: &Path,
) -> Vec<Outcome<T>> {
    let fps: Vec<Option<Fingerprint>> = files
        .iter()
        .map(|f| dir.and_then(|d| d.fingerprint(&f.rel)))
        .collect();
    let hits: Vec<Option<(T, Stamp)>> = files
        .iter()
        .zip(&fps)
        .map(|(f, fp)| cached(f, fp.as_ref()?))
        .collect();
    let misses: Vec<(&Found, Option<Fingerprint>)> = files
        .iter()
        .zip(&fps)
        .zip(&hits)
        .filter(|(_, hit)| hit.is_none())
        .map(|((f, fp), _)| (f, *fp))
        .collect();
    let mut read_misses =
        crate::util::parallel_map(&misses, |(f, fp)| match read_file(root, &f.rel, f.link) {
            Ok(bytes) => (
                parse(&bytes, f),
                fp.map(|fp| Stamp::of_read(fp, &bytes, started_ns)),
            ),
            Err(note) => (Err(note), fp.map(|fp| Stamp { fp, digest: None })),
        })
        .into_iter();
    hits.into_iter()
        .map(|hit| match hit {
            // A cached stamp still carrying the digest it was first told by, now settled:
            // found the same just now, it needs no reading again (ADR-0016).
            Some((value, mut stamp)) => {
                if crate::fs::fingerprint::settled(&stamp.fp, started_ns) {
                    stamp.digest = None;
                }
                (Ok(value), Some(stamp))
            }
            None => read_misses.next().expect("one read per miss"),
        })
        .collect()
}

/// The paths git tracks under `root`, read from git's index the first time they are asked
/// about (a path git's ignore files match, a glob no other file matches): a tracked path is
/// never ignored, as in git (ADR-0011). Nothing outside a repository.
pub fn tracked_paths(root: &Path) -> std::sync::Arc<crate::fs::tracked::TrackedPaths> {
    let root = root.to_path_buf();
    std::sync::Arc::new(crate::fs::tracked::TrackedPaths::new(
        move || match crate::git::open(&root) {
            Ok(Some(repo)) => crate::git::tracked(&repo)
                .map(|t| t.files.iter().map(|f| f.path.clone()).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        },
    ))
}

/// What git tracks under `root` that a sparse checkout leaves out of the work tree, read from
/// git's index the first time a path is not there (ADR-0011).
pub(crate) fn not_checked_out(root: &Path) -> crate::fs::tree::Absent {
    let root = root.to_path_buf();
    let found: std::sync::OnceLock<crate::git::NotCheckedOut> = std::sync::OnceLock::new();
    std::sync::Arc::new(move |rel: &str| {
        let kind = found
            .get_or_init(|| crate::git::NotCheckedOut::of(&root))
            .kind(rel)?;
        Some(match kind {
            true => crate::fs::tree::Kind::Folder,
            false => crate::fs::tree::Kind::File,
        })
    })
}
