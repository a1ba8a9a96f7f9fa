//! A fresh scan: discovery → parsing → graph → checks, the full [`Report`] of a root.

use crate::discovery;
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
    for rel in &files {
        let bytes = match discovery::read_file(root, rel) {
            Ok(b) => b,
            Err(note) => {
                notes.push(note);
                continue;
            }
        };
        let folder = rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        match record::parse(rel, &bytes, Prefix::for_folder(folder)) {
            Ok(mut p) => {
                notes.append(&mut p.notes);
                parsed.push(p);
            }
            Err(e) => notes.push(e.to_string()),
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

    let mut guides = Vec::new();
    for rel in discovery::guide_files(root, &folders) {
        match discovery::read_file(root, &rel) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    let (mentions, links) = record::scan_guide(&rel, &text);
                    guides.push((rel, mentions, links));
                }
                Err(_) => notes.push(format!("{rel}: not UTF-8, skipped")),
            },
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
