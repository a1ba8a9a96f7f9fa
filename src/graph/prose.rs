//! The paths a record's prose names that it does not govern (docs/reading.md, "Named in
//! passing"): those the phrasing makes passing, a file name many tracked files bear written
//! alone, common ground more than three current records name, and, for a record that declares
//! its scope, every one. They are code mentions (ADR-0017).

use super::Resolver;
use crate::fs::discover::is_design_document;
use crate::fs::tree::{Kind, Tree};
use crate::model::{CodeMention, Record};
use crate::parse::{ParsedRecord, ProsePath, Ref};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

/// How many tracked files a file name written alone (`` `build.gradle.kts` ``, no folder)
/// must name for it to stand for the kind of file, each module's own, rather than the one at
/// the root: thunderbird-android's 154 `build.gradle.kts`, mithril's 38 `Cargo.toml`.
const MANY_NAMED: usize = 5;

/// `prose` with two kinds of path made passing, by what the tree holds:
/// - a file name written alone that at least [`MANY_NAMED`] tracked files bear: a record
///   naming `` `build.gradle.kts` `` in a repository of modules names the kind of file, not the
///   root's (issue 36). One written with a folder (`./x`, `/x`, a link) names that file;
/// - another design document ([`is_design_document`]): jaeger's storage-capability record
///   links the RFC it grew from and governed its text (issue 36).
pub(super) fn passing_names<'p>(tree: &Tree, prose: &'p [ProsePath]) -> Cow<'p, [ProsePath]> {
    let why = |n: &ProsePath| -> Option<String> {
        if n.passing.is_some() {
            return None;
        }
        if is_design_document(&n.path) {
            return Some(DESIGN_DOCUMENT.to_string());
        }
        let alone = !n.path.contains('/') && !n.written.contains('/');
        let count = if alone {
            tree.tracked_named(&n.path)
        } else {
            0
        };
        (count >= MANY_NAMED).then(|| format!("`{}` names {count} files", n.path))
    };
    let made: Vec<Option<String>> = prose.iter().map(why).collect();
    if made.iter().all(Option::is_none) {
        return Cow::Borrowed(prose);
    }
    Cow::Owned(
        prose
            .iter()
            .zip(made)
            .map(|(n, why)| {
                let mut n = n.clone();
                if why.is_some() {
                    n.passing = why;
                }
                n
            })
            .collect(),
    )
}

/// The phrase a design document named by a record is passing by.
pub const DESIGN_DOCUMENT: &str = "another design document";

/// The most current records whose prose may name one path as governed before it is common
/// ground: where their decisions happen, not what any one decides.
pub const COMMON_GROUND: usize = 3;

/// Paths the prose of more than [`COMMON_GROUND`] current records names as governed are common
/// ground: each becomes a mention of those records, by its first naming, and governs for none
/// of them (Vultron's package root `vultron/` and its `vultron/core/`, named by four and seven
/// hexagonal-architecture records, made seven decisions govern every file there; issue 36). A
/// record that declares its scope keeps it: its author chose it.
pub(super) fn common_ground(records: &mut [Record], parsed: &[ParsedRecord]) {
    let by_prose = |r: &Record| r.status.is_current() && r.declared_in.is_none();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for r in records.iter().filter(|r| by_prose(r)) {
        for g in &r.governs {
            *count.entry(g.as_str()).or_default() += 1;
        }
    }
    let common: HashSet<String> = count
        .into_iter()
        .filter(|(_, n)| *n > COMMON_GROUND)
        .map(|(g, _)| g.to_string())
        .collect();
    if common.is_empty() {
        return;
    }
    let by_path: HashMap<&str, &ParsedRecord> =
        parsed.iter().map(|p| (p.path.as_str(), p)).collect();
    for r in records.iter_mut().filter(|r| by_prose(r)) {
        let (gone, kept): (Vec<String>, Vec<String>) =
            r.governs.drain(..).partition(|g| common.contains(g));
        r.governs = kept;
        for path in gone {
            let bare = path.trim_end_matches('/');
            let naming = by_path
                .get(r.path.as_str())
                .and_then(|p| p.prose_paths.iter().find(|n| n.path == bare));
            r.code_mentions.push(CodeMention {
                term: naming.map_or_else(|| path.clone(), |n| n.written.clone()),
                line: naming.map_or(0, |n| n.line),
                path,
                confidence: PASSING_CONFIDENCE,
            });
        }
    }
}

/// How sure a path named in passing names code the record is about: below what `scope
/// --accept` takes (docs/mentions.md).
const PASSING_CONFIDENCE: f64 = 0.5;
/// A prose path of a record that declares its scope: named as a path, yet left out of it.
const UNDECLARED_CONFIDENCE: f64 = 0.7;

/// How sure a file written from below the root names the one tracked file its path ends
/// (as a word in backticks naming one path), or one of the two (as one naming two).
const BELOW_ROOT_CONFIDENCE: [f64; 2] = [0.7, 0.5];

/// The files a record's prose writes from below the root, as a header is included or a
/// crate's file named inside its crate (`` `oneapi/tbb/global_control.h` `` for
/// `include/oneapi/tbb/global_control.h`, `` `tbb.cppm` `` for `include/oneapi/tbb.cppm`):
/// a code span naming no path from the root, whose path ends one or two tracked files of
/// code after a `/`. Code mentions of those files (ADR-0017), never governed: the record did
/// not say which of the repository's paths it means.
pub(super) fn below_root_mentions(
    tree: &Tree,
    record: &str,
    prose: &[ProsePath],
    record_paths: &BTreeSet<&str>,
    resolver: &Resolver,
) -> Vec<CodeMention> {
    let home = crate::text::path::record_home(record);
    let mut out = Vec::new();
    for n in prose {
        // Written as a code span (a link's target is the path it links), naming a file.
        let written = n.written.trim_start_matches("./");
        let leaf = n.path.rsplit('/').next().unwrap_or(&n.path);
        let file = leaf
            .rsplit_once('.')
            .is_some_and(|(stem, _)| !stem.is_empty());
        // A file alone whose name every repository has (`config.toml`, `server.json`) is a
        // kind of file: jj's and vector's records mean their users' `config.toml`.
        let stem = leaf.split('.').next().unwrap_or(leaf);
        let kind_of_file =
            !n.path.contains('/') && crate::text::terms::is_stop(&crate::text::terms::key(stem));
        if written != n.path
            || !file
            || kind_of_file
            || crate::governs::is_glob(&n.written)
            || super::is_paperwork(&n.path)
            || matches!(
                tree.kind(&n.path),
                Kind::File | Kind::Folder | Kind::Ignored
            )
        {
            continue;
        }
        let mut found: Vec<String> = tree
            .tracked_ending(&n.path)
            .into_iter()
            .filter(|f| {
                crate::mentions::is_code_path(f)
                    && !record_paths.contains(f.as_str())
                    && resolver.in_record_folder(f).is_none()
            })
            .collect();
        // A record of a package writes paths from the package (odh-dashboard's gen-ai
        // records write `internal/api/app.go`, which every package's `bff/` has): the one
        // in its package, when there is one.
        if found.len() > 1 && !home.is_empty() && found.iter().any(|f| f.starts_with(home)) {
            found.retain(|f| f.starts_with(home));
        }
        let Some(confidence) = BELOW_ROOT_CONFIDENCE.get(found.len().wrapping_sub(1)) else {
            continue;
        };
        out.extend(found.into_iter().map(|path| CodeMention {
            path,
            term: n.written.clone(),
            line: n.line,
            confidence: *confidence,
        }));
    }
    out
}

/// The paths a record's prose names that are there and that it does not govern: those named
/// in passing, and all of them when it declares its scope (docs/scope.md). Code mentions
/// (ADR-0017), by the path as written; never a glob, a record, a record folder or paperwork.
pub(super) fn prose_mentions(
    tree: &Tree,
    p: &ParsedRecord,
    prose: &[ProsePath],
    governs: &[String],
    record_paths: &BTreeSet<&str>,
    resolver: &Resolver,
) -> Vec<CodeMention> {
    let scope = crate::governs::Scope::new(governs);
    prose
        .iter()
        .filter(|n| n.passing.is_some() || p.declared.is_some())
        // A glob (`packages/**/src/*.ts`) names a kind of file, not the folder before it.
        .filter(|n| !crate::governs::is_glob(&n.written))
        .filter(|n| {
            let bare = n.path.as_str();
            !(super::is_paperwork(bare)
                || bare == p.path
                || resolver.is_record_folder(bare)
                || record_paths.contains(bare)
                || resolver.in_record_folder(bare).is_some()
                || scope.governs(bare))
        })
        .filter_map(|n| {
            let path = match tree.kind(&n.path) {
                Kind::File => n.path.clone(),
                Kind::Folder => format!("{}/", n.path),
                _ => return None,
            };
            Some(CodeMention {
                path,
                term: n.written.clone(),
                line: n.line,
                confidence: if n.passing.is_some() {
                    PASSING_CONFIDENCE
                } else {
                    UNDECLARED_CONFIDENCE
                },
            })
        })
        .collect()
}

/// Of `missing`, the paths `p` names only by a link from the site's root (`/docs/…`), never in
/// a code span or a link from its own folder (docs/reading.md, "A link from the site's root").
pub(super) fn site_links(p: &ParsedRecord, missing: &[String]) -> Vec<String> {
    let bare = |s: &str| s.trim_start_matches('/').trim_end_matches('/').to_string();
    let site: HashSet<String> = p.site_links.iter().map(|s| bare(s)).collect();
    let otherwise: HashSet<String> = p
        .code_paths
        .iter()
        .map(|c| bare(c))
        .chain(p.links.iter().filter_map(|l| match l {
            Ref::Link { target, .. } if !p.site_links.contains(target) => Some(bare(target)),
            _ => None,
        }))
        .collect();
    missing
        .iter()
        .filter(|m| site.contains(&bare(m)) && !otherwise.contains(&bare(m)))
        .cloned()
        .collect()
}
