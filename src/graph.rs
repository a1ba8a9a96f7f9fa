//! The graph: parsed records resolved against each other and the file system.
//!
//! Links become ids, named paths become governed, missing or moved paths, and the inverse
//! edges (`cited_by`, `successors`) are joined in (ADR-0002).

use crate::fs::tree::{Kind, Tree};
use crate::governs::Pattern;
use crate::model::{DocCitations, MissingRecordLink, Record};
use crate::parse::{ParsedRecord, Ref};
use crate::text::ids::Prefix;
use crate::text::path::escape_glob;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

mod prose;
mod renumbered;
use prose::{below_root_mentions, passing_names, prose_mentions};

/// Resolves references with every record's path in view.
pub struct Resolver<'a> {
    by_path: HashMap<&'a str, &'a str>,
    /// The prefix the records of each folder were read with (their folder's, configured or not).
    prefixes: HashMap<&'a str, Prefix>,
    ids: HashSet<&'a str>,
    folders: &'a [String],
}

impl<'a> Resolver<'a> {
    pub fn new(parsed: &'a [ParsedRecord], folders: &'a [String]) -> Resolver<'a> {
        Resolver {
            by_path: parsed
                .iter()
                .map(|p| (p.path.as_str(), p.id.as_str()))
                .collect(),
            prefixes: parsed
                .iter()
                .map(|p| (crate::text::parent_folder(&p.path), p.prefix))
                .collect(),
            ids: parsed.iter().map(|p| p.id.as_str()).collect(),
            folders,
        }
    }

    /// Whether `path` is a record folder itself (`docs/adr`): no record governs it, not even
    /// the one deciding to keep records there (docs/reading.md, "Named in passing").
    fn is_record_folder(&self, path: &str) -> bool {
        self.folders.iter().any(|f| f.trim_end_matches('/') == path)
            || self.prefixes.contains_key(path)
    }

    pub fn in_record_folder(&self, path: &str) -> Option<&str> {
        self.folders
            .iter()
            .find(|f| path.starts_with(&format!("{f}/")))
            .map(String::as_str)
    }

    /// The prefix of a record in `dir`: the one its records were read with, else its path's.
    fn prefix_of(&self, dir: &str) -> Prefix {
        self.prefixes
            .get(dir)
            .copied()
            .unwrap_or_else(|| Prefix::for_folder(dir))
    }

    /// Whether `path` is inside a folder `X/` beside a record `X.md`: a part of that record
    /// (docs/reading.md), not a record of its own.
    fn is_part(&self, path: &str) -> bool {
        let mut dir = path;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if self.by_path.contains_key(format!("{parent}.md").as_str()) {
                return true;
            }
            dir = parent;
        }
        false
    }

    /// The id a link names, when it is a record's: a record file, or a `.md` file in a record
    /// folder that would be one (its number, or its link text's id).
    pub fn link_id(&self, target: &str, text_id: Option<&str>) -> Option<String> {
        if let Some(id) = self.by_path.get(target) {
            return Some(id.to_string());
        }
        // A link to a record's own folder (`../0004-x/`) is a link to the record in it.
        if !target.to_ascii_lowercase().ends_with(".md") {
            let folder = target.trim_end_matches('/');
            return crate::fs::discover::OWN_FOLDER_PAGES
                .iter()
                .find_map(|readme| {
                    let id = self.by_path.get(format!("{folder}/{readme}").as_str())?;
                    Some(id.to_string())
                });
        }
        let name = target.rsplit('/').next().unwrap_or(target);
        let in_records = self.in_record_folder(target).is_some();
        if !in_records || !crate::fs::discover::is_record_name(name) || self.is_part(target) {
            return None;
        }
        let dir = target.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name);
        crate::parse::name_id(stem, self.prefix_of(dir)).or_else(|| text_id.map(str::to_string))
    }

    /// Whether `target` is a link to a record file that isn't there: a `.md` file in a record
    /// folder, no record's, and missing on disk (docs/reading.md, "Links to records that aren't
    /// there").
    fn is_missing_record(&self, tree: &Tree, target: &str) -> bool {
        let name = target.rsplit('/').next().unwrap_or(target);
        !self.is_record(target)
            && crate::fs::discover::is_record_name(name)
            && self.in_record_folder(target).is_some()
            && !self.is_part(target)
            && matches!(tree.kind(target), Kind::Missing)
    }

    /// The existing record file whose name is closest to `target`'s, in its folder first.
    fn closest_record(&self, target: &str) -> Option<&'a str> {
        let (dir, name) = target.rsplit_once('/').unwrap_or(("", target));
        let name_of = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        let in_dir = |p: &&&str| p.rsplit_once('/').map(|(d, _)| d).unwrap_or("") == dir;
        let paths: Vec<&&str> = self.by_path.keys().collect();
        let pool: Vec<&&str> = if paths.iter().any(in_dir) {
            paths.into_iter().filter(in_dir).collect()
        } else {
            paths
        };
        pool.into_iter()
            .min_by_key(|p| (crate::text::similar::edit_distance(name, &name_of(p)), **p))
            .copied()
    }

    /// Whether a record file is at `path`.
    fn is_record(&self, path: &str) -> bool {
        self.by_path.contains_key(path)
    }

    /// The id `r` names, in the record whose id is `own`: a link to a record renumbered since
    /// names it as it is now.
    pub fn resolve(&self, r: &Ref, own: &str) -> Option<String> {
        match r {
            Ref::Id(id) => Some(id.clone()),
            Ref::Link { target, text_id } => self
                .renumbered(target, own)
                .map(|(_, id)| id.to_string())
                .or_else(|| self.link_id(target, text_id.as_deref()))
                .or_else(|| text_id.clone()),
            Ref::Web { target, text_id } => self
                .web_id(target, own)
                .map(str::to_string)
                .or_else(|| text_id.clone()),
        }
    }

    fn resolve_all(&self, refs: &[Ref], own: &str) -> Vec<String> {
        let set: BTreeSet<String> = refs
            .iter()
            .filter_map(|r| self.resolve(r, own))
            .filter(|id| id != own)
            .collect();
        set.into_iter().collect()
    }
}

/// Builds every record's fields from the parsed files. Records come out sorted by id, then path.
pub fn build(tree: &Tree, folders: &[String], parsed: &[ParsedRecord]) -> Vec<Record> {
    let resolver = Resolver::new(parsed, folders);
    let record_paths: BTreeSet<&str> = parsed.iter().map(|p| p.path.as_str()).collect();
    let mut records: Vec<Record> = crate::util::parallel_map_from(1024, parsed, |p| {
        let own = p.id.as_str();
        let supersedes = resolver.resolve_all(&p.supersedes, own);
        let superseded_by = resolver.resolve_all(&p.superseded_by, own);
        let amends = resolver.resolve_all(&p.amends, own);
        let relates_to = resolver.resolve_all(&p.related, own);
        let mut cites: BTreeSet<String> = p.mentions.iter().cloned().collect();
        cites.extend(supersedes.iter().cloned());
        cites.extend(superseded_by.iter().cloned());
        cites.extend(amends.iter().cloned());
        cites.extend(relates_to.iter().cloned());
        cites.extend(resolver.resolve_all(&p.amended_by, own));
        // An id named only by a link to an external URL cites a record only when there is one
        // (a pull request numbered like the record it became); else it names that page.
        cites.extend(
            p.linked_mentions
                .iter()
                .filter(|id| resolver.ids.contains(id.as_str()))
                .cloned(),
        );
        // A relation written as a link to a record file that isn't there keeps its id (the
        // relation's finding names it, or the record renumbered since), but that id is no
        // citation.
        for r in p.supersedes.iter().chain(&p.superseded_by).chain(&p.amends) {
            if let Ref::Link { target, .. } = r {
                if resolver.is_missing_record(tree, target) {
                    if let Some(id) = resolver.resolve(r, own) {
                        cites.remove(&id);
                    }
                }
            }
        }
        resolver.settle_web(p, &mut cites);
        let mut candidates: BTreeSet<String> = p.code_paths.iter().cloned().collect();
        for link in &p.links {
            if let Ref::Link { target, text_id } = link {
                if resolver.is_missing_record(tree, target) {
                    continue;
                }
                match resolver.link_id(target, text_id.as_deref()) {
                    Some(id) => {
                        cites.insert(id);
                    }
                    None => {
                        candidates.insert(target.clone());
                    }
                }
            }
        }
        // A backticked record path is a citation too, never a governed path; one that names
        // no record file is an example (`rfcs/0123-my-feature.md`), not a citation.
        for c in &p.code_paths {
            if resolver.is_record(c) {
                if let Some(id) = resolver.link_id(c, None) {
                    cites.insert(id);
                }
            }
        }
        cites.remove(own);
        // A record named only as what the decision replaces is cited, not relied on.
        let cites_replaced = if p.replaced.is_empty() {
            Vec::new()
        } else {
            let otherwise: BTreeSet<String> = resolver
                .resolve_all(&p.cited_otherwise, own)
                .into_iter()
                .chain(amends.iter().cloned())
                .chain(relates_to.iter().cloned())
                .chain(resolver.resolve_all(&p.amended_by, own))
                .collect();
            resolver
                .resolve_all(&p.replaced, own)
                .into_iter()
                .filter(|id| cites.contains(id) && !otherwise.contains(id))
                .collect()
        };
        let prose = passing_names(tree, &p.prose_paths);
        // A declared scope is the record's scope: the paths its prose names are mentions only.
        let (governs, missing_paths, moved) = match &p.declared {
            Some(patterns) => declared(tree, patterns),
            None => {
                // A shared file only named as where a part is configured is a mention; so is
                // a path named only in passing (docs/reading.md, "Named in passing").
                candidates.retain(|c| !p.host_paths.iter().any(|h| h == c.trim_end_matches('/')));
                candidates.retain(|c| {
                    let bare = c.trim_start_matches('/').trim_end_matches('/');
                    !prose.iter().any(|n| n.passing.is_some() && n.path == bare)
                        && !crate::fs::discover::is_design_document(bare)
                });
                let (governs, mut missing, mut moved) =
                    governed(tree, &p.path, &candidates, &record_paths, &resolver);
                // Code the decision removes, gone: the decision was carried out.
                missing.retain(|m| !p.removed_paths.contains(m));
                moved.retain(|m, _| !p.removed_paths.contains(m));
                (governs, missing, moved)
            }
        };
        let mut code_mentions = prose_mentions(tree, p, &prose, &governs, &record_paths, &resolver);
        for m in below_root_mentions(tree, &p.path, &prose, &record_paths, &resolver) {
            if !code_mentions.iter().any(|c| c.path == m.path) {
                code_mentions.push(m);
            }
        }
        let site_links = prose::site_links(p, &missing_paths);
        Record {
            id: p.id.clone(),
            title: p.title.clone(),
            status: p.status,
            status_text: p.status_text.clone(),
            date: p.date.clone(),
            path: p.path.clone(),
            supersedes,
            superseded_by,
            amends,
            cites: cites.into_iter().collect(),
            cited_by: Vec::new(),
            governs,
            missing_paths,
            commits: Vec::new(),
            drift: None,
            successors: Vec::new(),
            successors_only_claimed_by_successor: Vec::new(),
            moved,
            relates_to,
            code_mentions,
            cites_replaced,
            declared_in: p.declared.as_ref().and(p.declared_in.clone()),
            missing_links: missing_links(tree, &p.terms),
            site_links,
        }
    });
    prose::common_ground(&mut records, parsed);
    join_amended_by(&mut records, parsed, &resolver);
    join_inverse_edges(&mut records);
    records.sort_by(|a, b| (&a.id, &a.path).cmp(&(&b.id, &b.path)));
    records
}

type Governed = (Vec<String>, Vec<String>, BTreeMap<String, Vec<String>>);

/// A project's paperwork, by its file name: a README, change log, release or upgrade notes,
/// licence, contributing guide or code of conduct (any case, any extension). Prose that names
/// one is about documents, not code; every release adds to the notes, whatever it decides
/// (kuma's `UPGRADE.md`, issue 36).
pub(crate) fn is_paperwork(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name).to_ascii_uppercase();
    matches!(
        stem.as_str(),
        "README"
            | "CHANGELOG"
            | "CHANGES"
            | "HISTORY"
            | "NEWS"
            | "RELEASES"
            | "RELEASE_NOTES"
            | "RELEASE-NOTES"
            | "UPGRADE"
            | "UPGRADING"
            | "LICENSE"
            | "LICENCE"
            | "CONTRIBUTING"
            | "CODE_OF_CONDUCT"
    )
}

/// A declared scope (docs/scope.md): it governs its patterns as written, in order; a pattern
/// (not a negation) that matches nothing under the root is missing, as a named path is: a plain
/// one may have moved to a close-named sibling, a glob names no one path to move.
fn declared(tree: &Tree, patterns: &[String]) -> Governed {
    let mut missing = BTreeSet::new();
    let mut moved = BTreeMap::new();
    for p in patterns.iter().filter(|p| !p.starts_with('!')) {
        let pattern = Pattern::new(p);
        let found = if pattern.is_glob() {
            tree.any_file_matches(&pattern)
        } else {
            matches!(tree.kind(p), Kind::File | Kind::Folder)
        };
        if found {
            continue;
        }
        let bare = p.trim_end_matches('/');
        if missing.insert(p.clone()) && !pattern.is_glob() {
            let candidates = tree.moved(bare);
            if !candidates.is_empty() {
                moved.insert(p.clone(), candidates);
            }
        }
    }
    (patterns.to_vec(), missing.into_iter().collect(), moved)
}

fn governed(
    tree: &Tree,
    own_path: &str,
    candidates: &BTreeSet<String>,
    record_paths: &BTreeSet<&str>,
    resolver: &Resolver,
) -> Governed {
    let mut governs = BTreeSet::new();
    let mut missing = BTreeSet::new();
    let mut moved = BTreeMap::new();
    for c in candidates {
        // Written from the root (`/api/v2/users`): a path only if there is one, else a URL route.
        let (rooted, c) = match c.strip_prefix('/') {
            Some(rest) => (true, rest),
            None => (false, c.as_str()),
        };
        let bare = c.trim_end_matches('/');
        // A record, or a file in a record folder (a record's own diagram): never governed; nor
        // is a project's own paperwork (`README.md`, `LICENSE`): records name it as an example.
        if is_paperwork(bare)
            || bare == own_path
            || resolver.is_record_folder(bare)
            || record_paths.contains(bare)
            || resolver.link_id(bare, None).is_some()
            || resolver.in_record_folder(bare).is_some()
        {
            continue;
        }
        // A path with a glob character in its name (`star*.py`) governs itself only: its
        // entry is written escaped, as a pattern matching that path alone (ADR-0017).
        let kind = tree.kind(c);
        // A family of names (`server/protocols/jmap*`) that no path spells: the entries it
        // matches, as a glob (docs/reading.md); one that matches nothing is missing.
        if !rooted && kind == Kind::Missing && crate::text::path::ends_in_family(bare) {
            if tree.any_file_matches(&Pattern::new(bare)) {
                governs.insert(bare.to_string());
            } else {
                missing.insert(bare.to_string());
            }
            continue;
        }
        match kind {
            Kind::File => {
                governs.insert(escape_glob(bare));
            }
            Kind::Folder => {
                governs.insert(format!("{}/", escape_glob(bare)));
            }
            Kind::Missing if !rooted => {
                if missing.insert(bare.to_string()) {
                    let candidates = tree.moved(bare);
                    if !candidates.is_empty() {
                        moved.insert(bare.to_string(), candidates);
                    }
                }
            }
            Kind::Missing | Kind::NotAPath | Kind::Ignored => {}
        }
    }
    (
        governs.into_iter().collect(),
        missing.into_iter().collect(),
        moved,
    )
}

/// The paths a record's links into a forge's view of code name that are not there, each
/// way the link may be read (a branch named `release/1.2` leaves a segment of it before the
/// path): a link made before the code moved, whose new place the history may tell (issue 36).
/// A link that names a path here under any reading is a mention, not missing.
fn missing_links(tree: &Tree, terms: &[crate::text::terms::Term]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for t in terms.iter().filter(|t| {
        t.kind == crate::text::terms::Kind::Link && !crate::mentions::links_a_release(&t.text)
    }) {
        let Some((_, path)) = crate::mentions::link_parts(&t.text) else {
            continue;
        };
        let mut readings = Vec::new();
        let mut rest = path.trim_end_matches('/');
        for _ in 0..3 {
            if !rest.contains('/') {
                break;
            }
            readings.push(rest);
            match rest.split_once('/') {
                Some((_, after)) => rest = after,
                None => break,
            }
        }
        let kinds: Vec<Kind> = readings.iter().map(|r| tree.kind(r)).collect();
        if kinds.iter().any(|k| matches!(k, Kind::File | Kind::Folder)) {
            continue;
        }
        out.extend(
            readings
                .iter()
                .zip(&kinds)
                .filter(|(_, k)| matches!(k, Kind::Missing | Kind::NotAPath))
                .map(|(r, _)| r.to_string()),
        );
    }
    out.into_iter().collect()
}

/// "Amended by ADR-31" in a record: ADR-31 amends it (the edge is filed on the amending record).
fn join_amended_by(records: &mut [Record], parsed: &[ParsedRecord], resolver: &Resolver) {
    let mut amends: HashMap<String, BTreeSet<String>> = HashMap::new();
    for p in parsed {
        for by in resolver.resolve_all(&p.amended_by, &p.id) {
            amends.entry(by).or_default().insert(p.id.clone());
        }
    }
    for r in records.iter_mut() {
        if let Some(more) = amends.get(&r.id) {
            let mut all: BTreeSet<String> = r.amends.iter().cloned().collect();
            all.extend(more.iter().filter(|id| **id != r.id).cloned());
            r.amends = all.into_iter().collect();
        }
    }
}

/// Every link from a record to a record file that isn't there, in record order.
pub fn missing_record_links(
    tree: &Tree,
    parsed: &[ParsedRecord],
    folders: &[String],
) -> Vec<MissingRecordLink> {
    let resolver = Resolver::new(parsed, folders);
    let mut out = Vec::new();
    for p in parsed {
        let mut seen = BTreeSet::new();
        let relations = p.supersedes.iter().chain(&p.superseded_by).chain(&p.amends);
        for r in p.links.iter().chain(relations).chain(&p.amended_by) {
            let missing = match r {
                Ref::Link { target, .. } => resolver.is_missing_record(tree, target),
                Ref::Web { target, .. } => resolver.renumbered(target, &p.id).is_some(),
                Ref::Id(_) => false,
            };
            let (Ref::Link { target, .. } | Ref::Web { target, .. }) = r else {
                continue;
            };
            if seen.insert(target.clone()) && missing {
                out.push(MissingRecordLink {
                    id: p.id.clone(),
                    path: p.path.clone(),
                    target: target.clone(),
                    closest: resolver
                        .renumbered(target, &p.id)
                        .map(|(path, _)| path)
                        .or_else(|| resolver.same_number(target))
                        .or_else(|| resolver.closest_record(target))
                        .map(str::to_string),
                });
            }
        }
    }
    out
}

/// `cited_by`, `successors` and `successors_only_claimed_by_successor`.
fn join_inverse_edges(records: &mut [Record]) {
    let mut cited_by: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut claimed: HashMap<String, BTreeSet<String>> = HashMap::new();
    // Only edges into records are kept: a record naming 80,000 unknown ids made a set for each
    // (ADR-0011).
    let ids: std::collections::HashSet<String> = records.iter().map(|r| r.id.clone()).collect();
    for r in records.iter() {
        for c in r.cites.iter().filter(|c| ids.contains(*c)) {
            cited_by.entry(c.clone()).or_default().insert(r.id.clone());
        }
        for s in r.supersedes.iter().filter(|s| ids.contains(*s)) {
            claimed.entry(s.clone()).or_default().insert(r.id.clone());
        }
    }
    for r in records.iter_mut() {
        let mut cb = cited_by.get(&r.id).cloned().unwrap_or_default();
        cb.remove(&r.id);
        r.cited_by = cb.into_iter().collect();
        let by_successor = claimed.get(&r.id).cloned().unwrap_or_default();
        let mut successors: BTreeSet<String> = r.superseded_by.iter().cloned().collect();
        successors.extend(by_successor.iter().cloned());
        successors.remove(&r.id);
        r.successors = successors.into_iter().collect();
        r.successors_only_claimed_by_successor = by_successor
            .into_iter()
            .filter(|s| !r.superseded_by.contains(s) && s != &r.id)
            .collect();
    }
}

/// The guides' citations of records: only guides citing at least one record.
pub fn doc_citations(
    guides: &[crate::parse::Guide],
    records: &[Record],
    resolver: &Resolver,
) -> Vec<DocCitations> {
    let known: BTreeSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
    // A feature's bundle: a numbered or dated folder (`specs/005-evaluator/`) holding a document
    // that declares its own status. Its plan, research and checklists are of that time too.
    let bundles: BTreeSet<&str> = guides
        .iter()
        .filter(|g| g.own_status)
        .filter_map(|g| g.path.rsplit_once('/').map(|(folder, _)| folder))
        .filter(|folder| {
            let name = folder.rsplit('/').next().unwrap_or(folder);
            let digits = name.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && name[digits..].starts_with('-')
        })
        .collect();
    let bundled = |path: &str| {
        bundles.iter().any(|b| {
            path.strip_prefix(b)
                .is_some_and(|rest| rest.starts_with('/'))
        })
    };
    guides
        .iter()
        .filter(|g| !bundled(&g.path))
        .filter_map(|g| {
            let mut cites: BTreeSet<String> = g
                .mentions
                .iter()
                .filter(|m| known.contains(m.as_str()))
                .cloned()
                .collect();
            for l in &g.links {
                if let Some(id) = resolver.link_id(l, None) {
                    if known.contains(id.as_str()) {
                        cites.insert(id);
                    }
                }
            }
            (!cites.is_empty()).then(|| DocCitations {
                path: g.path.clone(),
                cites: cites.into_iter().collect(),
            })
        })
        .collect()
}
