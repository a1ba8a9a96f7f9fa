//! The commit hook's table of governed entries (ADR-0018): what the warning needs of the
//! records (each current decision's id, title, file and governed entries), written beside the
//! index by the refreshes that read every record, with the stamps of the record folders and
//! files it was read from. While those hold (and the scope and the build are the same), a scan
//! now would read the same records, so commit-msg answers from this small file rather than
//! opening the index and checking its whole scan memo. A table that is missing, stale or
//! unreadable is no table: the hook answers as before.

use super::codec;
use super::schema::Scope;
use crate::fs::fingerprint::RootDir;
use crate::git::Repo;
use crate::model::{Record, Status};
use crate::scan::Deps;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the table of `repo`'s worktree lives: beside its index.
pub fn path_for(repo: &Repo) -> PathBuf {
    repo.git_dir.join("context-graph").join("index.governing")
}

/// What [`TABLE_SUFFIX`] marks: the layout below (its rows apart, found by their entries'
/// literal prefixes). A table of another layout, or of another build, is no table.
const TABLE_SUFFIX: &str = "/table-5";

/// The table as written: its first fields (what [`Head`] decodes), then the rows apart, then
/// the stamps. The rows come before the stamps so that reading them never decodes the stamps.
#[derive(Serialize)]
struct Table<'a> {
    /// The build that wrote it (the scan memo's, with [`TABLE_SUFFIX`]).
    made_by: String,
    scope: &'a Scope,
    /// [`Rows`], encoded on its own.
    #[serde(serialize_with = "codec::as_bytes")]
    rows: &'a [u8],
    /// The current records that carry rules (ADR-0021): the only records the hook then reads,
    /// for their blocks alone.
    rules: &'a [RuleFile],
    /// Every record's words as `why` compares them (`related::vocabulary`), for the hook's
    /// `skip_unechoed` (ADR-0008), and the record files in their order.
    #[serde(serialize_with = "codec::as_bytes")]
    vocabulary: &'a [u8],
    files: Vec<&'a str>,
    /// The record folders and files the rows were read from ([`Deps::records_only`]).
    deps: Deps,
}

/// A current record that carries rules, as the table keeps it: its file, and the id and status
/// the scan gave it (what its block alone does not say).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleFile {
    pub path: String,
    pub id: String,
    pub status: Status,
}

/// The current decisions, and what finds the few a commit touches without decoding the others.
#[derive(Deserialize)]
struct Rows<'a> {
    /// Each governed entry's literal prefix (`governs::literal_prefix`: every path the entry
    /// matches starts with it), negations left out, with the row it belongs to: a row none of
    /// whose prefixes begins a staged path governs none of them by its entries.
    #[serde(borrow)]
    keys: Vec<(&'a str, u32)>,
    /// Each row's id, for the decisions a staged file declares by a marker.
    #[serde(borrow)]
    ids: Vec<&'a str>,
    /// Each [`Row`], encoded on its own: only those a commit touches are decoded.
    #[serde(borrow)]
    rows: Vec<&'a [u8]>,
}

/// A current decision, as the warning names it.
#[derive(Debug, Serialize, Deserialize)]
struct Row<'a> {
    id: &'a str,
    title: &'a str,
    status: Status,
    path: &'a str,
    #[serde(borrow)]
    governs: Vec<&'a str>,
}

/// Writes the table of `records` (a full scan's, or the scan memo's, under `scope`, with their
/// `vocabulary` in their order) read from what `deps` stamps, in place of the last; nothing
/// when the stamps are incomplete (then the last is removed, so it is never read beside
/// records it was not made from). A table that cannot be written is no table.
pub fn write(
    path: &Path,
    scope: &Scope,
    deps: &Deps,
    (records, vocabulary): (&[Record], &[u8]),
    rules: &[RuleFile],
) {
    if !path.parent().is_some_and(Path::is_dir) {
        return;
    }
    if !deps.complete() {
        let _ = std::fs::remove_file(path);
        return;
    }
    let current: Vec<&Record> = records.iter().filter(|r| r.status.is_current()).collect();
    let encoded: Vec<Vec<u8>> = current
        .iter()
        .map(|r| {
            codec::encode(&Row {
                id: &r.id,
                title: &r.title,
                status: r.status,
                path: &r.path,
                governs: r.governs.iter().map(String::as_str).collect(),
            })
        })
        .collect();
    let rows = Rows {
        keys: current
            .iter()
            .zip(0u32..)
            .flat_map(|(r, at)| {
                r.governs
                    .iter()
                    .filter(|g| !g.starts_with('!'))
                    .map(move |g| (crate::governs::literal_prefix(g), at))
            })
            .collect(),
        ids: current.iter().map(|r| r.id.as_str()).collect(),
        rows: encoded.iter().map(Vec::as_slice).collect(),
    };
    let rows = codec::encode(&RowsOut(&rows));
    let table = Table {
        made_by: format!("{}{TABLE_SUFFIX}", super::memo_of::MEMO_MADE_BY),
        scope,
        rows: &rows,
        rules,
        vocabulary,
        files: records.iter().map(|r| r.path.as_str()).collect(),
        deps: deps.records_only(),
    };
    let bytes = codec::encode(&table);
    // The same table again (the memo held, as after most commits): left as it is.
    if crate::fs::read::read_side_file(path).is_ok_and(|old| old == bytes) {
        return;
    }
    let tmp = path.with_extension(format!("governing.{}", std::process::id()));
    let _ = crate::util::replace_file(path, &tmp, &bytes);
}

/// [`Rows`] as written: each row's bytes as one run (serde would write a slice byte by byte).
struct RowsOut<'r, 'a>(&'r Rows<'a>);

impl Serialize for RowsOut<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("Rows", 3)?;
        out.serialize_field("keys", &self.0.keys)?;
        out.serialize_field("ids", &self.0.ids)?;
        out.serialize_field("rows", &EachBytes(&self.0.rows))?;
        out.end()
    }
}

struct EachBytes<'r, 'a>(&'r [&'a [u8]]);

impl Serialize for EachBytes<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(&codec::Bytes(item))?;
        }
        seq.end()
    }
}

/// The table's first field alone.
#[derive(Deserialize)]
struct Made<'a> {
    made_by: &'a str,
}

/// The table's fields as far as its rows: what [`records`] reads. The encoding is the fields
/// in order with no framing, so a table decodes as its first fields alone (those after are
/// then not read), and each reader below is the one before it and its own next fields.
#[derive(Deserialize)]
struct ToRows<'a> {
    made_by: &'a str,
    scope: Scope,
    #[serde(borrow)]
    rows: &'a [u8],
}

/// As far as the records with rules: what [`rule_files`] reads.
#[derive(Deserialize)]
struct ToRules<'a> {
    #[serde(borrow)]
    to_rows: ToRows<'a>,
    rules: Vec<RuleFile>,
}

/// The fields before the stamps: what [`echoes`] reads.
#[derive(Deserialize)]
struct Front<'a> {
    #[serde(borrow)]
    to_rules: ToRules<'a>,
    #[serde(borrow)]
    vocabulary: &'a [u8],
    #[serde(borrow)]
    files: Vec<&'a str>,
}

/// Every field, decoded to check that the table holds before any row is read.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    front: Front<'a>,
    /// Borrowed: a string each was most of the table's reading (issue 41).
    #[serde(borrow)]
    deps: Deps<&'a str>,
}

/// The table at `path`, when it holds for a scan of `root` with `docs` now: the same build and
/// scope (`.context-graph.toml` included), the same record folders and record files. Its bytes,
/// for [`records`]; `None` when there is no table or it does not hold. Touches nothing but the
/// table and the record folders and files, so the commit hook runs it beside its reading of
/// git's index (ADR-0018).
pub fn load(path: &Path, root: &Path, docs: &[String]) -> Option<Vec<u8>> {
    let bytes = crate::fs::read::read_side_file(path).ok()?;
    // Its maker first: a table of another layout is not decoded as this one.
    let made: Made = codec::decode_borrowed(&bytes).ok()?;
    if made.made_by.strip_suffix(TABLE_SUFFIX) != Some(super::memo_of::MEMO_MADE_BY) {
        return None;
    }
    let head: Head = codec::decode_borrowed(&bytes).ok()?;
    let first = &head.front.to_rules.to_rows;
    if first.made_by.strip_suffix(TABLE_SUFFIX) != Some(super::memo_of::MEMO_MADE_BY)
        || first.scope != Scope::new(root, docs)
    {
        return None;
    }
    if !head.deps.records_hold(&RootDir::open(root)) {
        return None;
    }
    Some(bytes)
}

/// Every record's words and the record files in their order, in a table [`load`] found
/// holding (`hooks::quiet`'s `skip_unechoed`).
pub fn echoes(bytes: &[u8]) -> Option<(Vec<u8>, Vec<String>)> {
    let front: Front = codec::decode_borrowed(bytes).ok()?;
    let files = front.files.iter().map(|f| f.to_string()).collect();
    Some((front.vocabulary.to_vec(), files))
}

/// The current records that carry rules, in a table [`load`] found holding.
pub fn rule_files(bytes: &[u8]) -> Option<Vec<RuleFile>> {
    let front: ToRules = codec::decode_borrowed(bytes).ok()?;
    Some(front.rules)
}

/// The current decisions of a table [`load`] found holding (its `bytes`) that govern some of
/// `paths`, as a scan now would read them: those some of whose governed entries could match
/// one of `paths` (by their literal prefixes) or whose id `declared` says a staged file
/// declares, each then kept only when `wanted` takes it (by id and governed entries). Only
/// those rows are decoded, each into a record holding only what the warning reads (id, title,
/// status, file, governed entries).
pub fn records(
    bytes: &[u8],
    paths: &[String],
    declared: impl Fn(&str) -> bool,
    wanted: impl Fn(&str, &[&str]) -> bool,
) -> Option<Vec<Record>> {
    let front: ToRows = codec::decode_borrowed(bytes).ok()?;
    let rows: Rows = codec::decode_borrowed(front.rows).ok()?;
    let mut touched = vec![false; rows.rows.len()];
    for (prefix, at) in &rows.keys {
        if paths.iter().any(|p| p.starts_with(prefix)) {
            *touched.get_mut(*at as usize)? = true;
        }
    }
    for (id, hit) in rows.ids.iter().zip(touched.iter_mut()) {
        if !*hit && declared(id) {
            *hit = true;
        }
    }
    let mut out = Vec::new();
    for (row, _) in rows.rows.iter().zip(&touched).filter(|(_, hit)| **hit) {
        let row: Row = codec::decode_borrowed(row).ok()?;
        if wanted(row.id, &row.governs) {
            out.push(record(row));
        }
    }
    Some(out)
}

fn record(row: Row) -> Record {
    Record {
        governs: row.governs.iter().map(|g| g.to_string()).collect(),
        ..Record::bare(row.id, row.title, row.status, row.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::walk::WalkStamp;

    fn deps() -> Deps {
        Deps {
            started_ns: 0,
            docs: Vec::new(),
            folders: Vec::new(),
            record_dirs: Vec::new(),
            files: Vec::new(),
            walk: WalkStamp {
                started_ns: 0,
                dirs: Vec::new(),
                ignores: Vec::new(),
                files: Vec::new(),
            },
            guides: Vec::new(),
            observed: Default::default(),
        }
    }

    fn record(id: &str, status: Status, governs: &[&str]) -> Record {
        Record {
            governs: governs.iter().map(|g| g.to_string()).collect(),
            ..Record::bare(id, &format!("Title {id}"), status, &format!("docs/{id}.md"))
        }
    }

    /// The rows found through the literal prefixes are exactly those the full rule finds, for
    /// folders, paths, globs (anchored or at any depth), negations and declared ids.
    #[test]
    fn the_rows_a_commit_touches_are_found_without_decoding_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.governing");
        let all = [
            record("ADR-0001", Status::Accepted, &["src/auth/"]),
            record("ADR-0002", Status::Accepted, &["src/", "!src/auth/gen/"]),
            record("ADR-0003", Status::Accepted, &["pkg/*/api/**"]),
            record("ADR-0004", Status::Accepted, &["*.md"]),
            record("ADR-0005", Status::Accepted, &["!src/auth/"]),
            record("ADR-0006", Status::Superseded, &["src/"]),
            record("ADR-0007", Status::Accepted, &[]),
            record("ADR-0008", Status::Accepted, &["lib/main.rs"]),
        ];
        let scope = Scope::new(dir.path(), &[]);
        write(&path, &scope, &deps(), (&all, &[]), &[]);
        let bytes = std::fs::read(&path).unwrap();
        let ids = |paths: &[&str], declared: &[&str]| -> Vec<String> {
            let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
            let wanted = |id: &str, governs: &[&str]| {
                let scope = crate::governs::Scope::new(governs);
                declared.contains(&id) || paths.iter().any(|p| scope.governs(p))
            };
            let found = records(&bytes, &paths, |id| declared.contains(&id), wanted).unwrap();
            found.into_iter().map(|r| r.id).collect()
        };
        assert_eq!(ids(&["src/auth/login.py"], &[]), ["ADR-0001", "ADR-0002"]);
        assert_eq!(ids(&["src/auth/gen/x.py"], &[]), ["ADR-0001"]);
        assert_eq!(ids(&["pkg/pay/api/v1/x.go"], &[]), ["ADR-0003"]);
        assert_eq!(ids(&["docs/guide/intro.md"], &[]), ["ADR-0004"]);
        assert_eq!(ids(&["lib/main.rs"], &[]), ["ADR-0008"]);
        assert_eq!(ids(&["lib/main.rsx"], &[]), Vec::<String>::new());
        assert_eq!(ids(&["tools/x.py"], &["ADR-0007"]), ["ADR-0007"]);
        assert_eq!(
            ids(&["lib/main.rs", "README.md"], &["ADR-0001"]),
            ["ADR-0001", "ADR-0004", "ADR-0008"]
        );
        assert!(load(&path, dir.path(), &[]).is_some());
        // Another layout or build is no table.
        let mut other = bytes.clone();
        other[1] ^= 1;
        std::fs::write(&path, &other).unwrap();
        assert!(load(&path, dir.path(), &[]).is_none());
    }

    /// Each reader decodes the table only as far as its field: what it reads is what was
    /// written, whichever fields come before or after it.
    #[test]
    fn each_reader_reads_its_own_field_of_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.governing");
        let all = [
            record("ADR-0001", Status::Accepted, &["src/auth/"]),
            record("ADR-0002", Status::Superseded, &["src/"]),
        ];
        let rules = [RuleFile {
            path: "docs/ADR-0001.md".into(),
            id: "ADR-0001".into(),
            status: Status::Accepted,
        }];
        let vocabulary = b"the words".to_vec();
        let scope = Scope::new(dir.path(), &[]);
        write(&path, &scope, &deps(), (&all, &vocabulary), &rules);
        let bytes = load(&path, dir.path(), &[]).expect("the table holds");
        assert_eq!(rule_files(&bytes).unwrap(), rules);
        let (words, files) = echoes(&bytes).unwrap();
        assert_eq!(words, vocabulary);
        assert_eq!(files, ["docs/ADR-0001.md", "docs/ADR-0002.md"]);
        let found = records(
            &bytes,
            &["src/auth/x.py".to_string()],
            |_| false,
            |_, _| true,
        );
        let found: Vec<String> = found.unwrap().into_iter().map(|r| r.id).collect();
        assert_eq!(found, ["ADR-0001"]);
    }
}
