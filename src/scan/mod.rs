//! A scan: discovery → parsing → graph → checks, the full [`Report`] of a root.
//!
//! Parsing is the only step whose result can be kept: the index (ADR-0006) hands in
//! [`Inputs`] that serve unchanged files from its cache. The graph and the checks always run,
//! because path existence follows the working tree; so an indexed answer and a fresh one are
//! computed by the same code (ADR-0004).

use crate::app::error::{Error, Result};
use crate::fs::discover;
use crate::fs::read::read_file;
use crate::fs::tree::{Observed, Tree};
use crate::fs::walk;
use crate::fs::Found;
use crate::graph::{self, Resolver};
use crate::model::Report;
use crate::parse::{self, Guide, ParsedRecord};
use crate::text::ids::Prefix;
use std::path::Path;

/// Where parsed files come from: a cache may answer for a file it has seen unchanged.
pub trait Inputs: Sync {
    fn record(&self, _found: &Found) -> Option<ParsedRecord> {
        None
    }
    fn guide(&self, _found: &Found) -> Option<Guide> {
        None
    }
    /// The guides a walk would find now, if known without walking.
    fn guide_files(&self) -> Option<Vec<Found>> {
        None
    }
}

/// No cache: every file is read and parsed.
pub struct Fresh;
impl Inputs for Fresh {}

/// What a scan found, before any query narrows it.
pub struct Scan {
    pub report: Report,
    /// Every record read, in path order (for the index to keep).
    pub parsed: Vec<ParsedRecord>,
    pub guides: Vec<Guide>,
    /// The guide walk, when one was made (not served by the inputs).
    pub guide_walk: Option<walk::GuideWalk>,
    /// The record folders and files and the guide files it read, and what it asked of the
    /// file system besides: with the files' fingerprints, enough to tell later that a scan
    /// would come out the same (ADR-0006).
    pub folders: Vec<String>,
    pub files: Vec<Found>,
    pub file_notes: Vec<String>,
    /// The folders listed for records.
    pub record_dirs: Vec<String>,
    /// When the scan began (ns since the epoch), before it listed or read anything.
    pub started_ns: i64,
    pub guide_files: Vec<Found>,
    pub observed: Observed,
}

/// Reads every record and guide under `root` and runs every check.
pub fn scan(root: &Path, docs: &[String], inputs: &dyn Inputs) -> Result<Scan> {
    let folders = discover::record_folders(root, docs)?;
    let started_ns = crate::util::now_ns();
    let listing = discover::list_records(root, &folders);
    let (files, file_notes, record_dirs) = (listing.files, listing.notes, listing.dirs);
    let mut notes = file_notes.clone();
    let mut parsed: Vec<ParsedRecord> = Vec::with_capacity(files.len());
    for outcome in cached_or_read(&files, |f| inputs.record(f), |f| read_record(root, f)) {
        match outcome {
            Ok(p) => {
                notes.extend(p.notes.iter().cloned());
                parsed.push(p);
            }
            Err(note) => notes.push(note),
        }
    }
    if parsed.is_empty() {
        let looked = if folders.is_empty() {
            "the default record folders; none exists".to_string()
        } else {
            folders.join(", ")
        };
        return Err(Error::NoRecords {
            root: root.display().to_string(),
            looked,
        });
    }
    let tree = Tree::new(root.to_path_buf());
    let records = graph::build(&tree, &folders, &parsed);

    let (guide_files, guide_walk) = match inputs.guide_files() {
        Some(files) => (files, None),
        None => {
            let walk = walk::guide_walk(root, &folders);
            (walk.files.clone(), Some(walk))
        }
    };
    let mut guides = Vec::new();
    for outcome in cached_or_read(&guide_files, |f| inputs.guide(f), |f| read_guide(root, f)) {
        match outcome {
            Ok(g) => guides.push(g),
            Err(note) => notes.push(note),
        }
    }
    let resolver = Resolver::new(&parsed, &folders);
    let docs = graph::doc_citations(&guides, &records, &resolver);
    let findings = crate::checks::run(&records, &docs);
    Ok(Scan {
        report: Report {
            root: root.display().to_string(),
            records,
            docs,
            findings,
            notes,
            query: None,
        },
        parsed,
        guides,
        guide_walk,
        folders,
        files,
        file_notes,
        record_dirs,
        started_ns,
        guide_files,
        observed: tree.observed(),
    })
}

/// Each file's cached parse, or its own reading: the cache answers first, on this thread (a
/// stat each); only what it could not answer is read and parsed, on every core. In file order.
fn cached_or_read<T: Send>(
    files: &[Found],
    cached: impl Fn(&Found) -> Option<T>,
    read: impl Fn(&Found) -> std::result::Result<T, String> + Sync,
) -> Vec<std::result::Result<T, String>> {
    let hits: Vec<Option<T>> = files.iter().map(cached).collect();
    let misses: Vec<&Found> = files
        .iter()
        .zip(&hits)
        .filter(|(_, hit)| hit.is_none())
        .map(|(f, _)| f)
        .collect();
    let mut read_misses = crate::util::parallel_map(&misses, |f| read(f)).into_iter();
    hits.into_iter()
        .map(|hit| match hit {
            Some(v) => Ok(v),
            None => read_misses.next().expect("one read per miss"),
        })
        .collect()
}

fn read_record(root: &Path, f: &Found) -> std::result::Result<ParsedRecord, String> {
    let bytes = read_file(root, &f.rel, f.link)?;
    let prefix = Prefix::for_folder(crate::text::parent_folder(&f.rel));
    parse::parse_record(&f.rel, &bytes, prefix).map_err(|e| e.to_string())
}

fn read_guide(root: &Path, f: &Found) -> std::result::Result<Guide, String> {
    let bytes = read_file(root, &f.rel, f.link)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8, skipped", f.rel))?;
    Ok(parse::parse_guide(&f.rel, &text))
}
