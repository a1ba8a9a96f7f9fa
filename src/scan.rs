//! A fresh scan: discovery → parsing → graph → checks, the full [`Report`] of a root.

use crate::discovery::{self, Found};
use crate::error::{Error, Result};
use crate::graph::{self, Resolver};
use crate::ids::Prefix;
use crate::model::Report;
use crate::paths::Tree;
use crate::record::{self, ParsedRecord};
use std::path::Path;

/// What a scan found, before any query narrows it.
pub struct Scan {
    pub report: Report,
    pub folders: Vec<String>,
}

/// Reads every record and guide under `root` and runs every check.
pub fn scan(root: &Path, docs: &[String]) -> Result<Scan> {
    let folders = discovery::record_folders(root, docs)?;
    let (files, mut notes) = discovery::record_files(root, &folders);
    let mut parsed: Vec<ParsedRecord> = Vec::with_capacity(files.len());
    for outcome in parallel_map(&files, |f| read_record(root, f)) {
        match outcome {
            Ok(mut p) => {
                notes.append(&mut p.notes);
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

    let guide_files = discovery::guide_files(root, &folders);
    let mut guides = Vec::new();
    for outcome in parallel_map(&guide_files, |f| read_guide(root, f)) {
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
        folders,
    })
}

fn read_record(root: &Path, f: &Found) -> std::result::Result<ParsedRecord, String> {
    let bytes = discovery::read_file(root, &f.rel, f.link)?;
    let folder = f.rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    record::parse(&f.rel, &bytes, Prefix::for_folder(folder)).map_err(|e| e.to_string())
}

type Guide = (String, Vec<String>, Vec<String>);

fn read_guide(root: &Path, f: &Found) -> std::result::Result<Guide, String> {
    let bytes = discovery::read_file(root, &f.rel, f.link)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8, skipped", f.rel))?;
    let (mentions, links) = record::scan_guide(&f.rel, &text);
    Ok((f.rel.clone(), mentions, links))
}

/// Maps `items` on up to as many threads as the machine has cores, keeping their order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    if threads < 2 || items.len() < 64 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| s.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a parse worker panicked"))
            .collect()
    })
}
