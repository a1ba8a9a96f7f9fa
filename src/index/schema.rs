//! The index's tables (ADR-0006). Paths in `paths`, `renames` and commits are relative to the
//! work tree's top; records and guides are relative to the root they were read under.

pub use super::checked::Checked;
pub use crate::fs::fingerprint::{Fingerprint, Stamp};
use redb::TableDefinition;
use serde::{Deserialize, Serialize};

/// The version this build writes; `migrations/` holds one step per version. Every byte-string
/// value is [`Checked`]: kept with its checksum, verified on each read (schema 7).
pub const SCHEMA_VERSION: u32 = 9;

/// `schema_version`, `head`, `shallow`, `reach`, `scope`, `guide_walk` (and `graph` before
/// schema 3).
pub const META: TableDefinition<&str, Checked> = TableDefinition::new("meta");
/// Root-relative record path → [`CachedRecord`].
pub const RECORDS: TableDefinition<&str, Checked> = TableDefinition::new("records");
/// Root-relative guide path → [`CachedGuide`]: the docs' citations.
pub const GUIDES: TableDefinition<&str, Checked> = TableDefinition::new("guides");
/// Commit number → [`StoredCommit`].
pub const COMMITS: TableDefinition<u32, Checked> = TableDefinition::new("commits");
/// Chunk number → the commit graph of its [`crate::index::GRAPH_CHUNK`] commits (schema 3).
pub const GRAPH: TableDefinition<u32, Checked> = TableDefinition::new("graph");
/// Commit number → [`StoredChanges`] (schema 3).
pub const COMMIT_CHANGES: TableDefinition<u32, Checked> = TableDefinition::new("commit_changes");
/// Commit number → how many bytes each of its [`StoredChanges`] files grew or shrank by
/// (`Vec<u32>`, in their order), for the focused commits that may add a record
/// ([`crate::git::sizes_told`]; schema 9): the `introduced` evidence weighs PATH's part.
pub const CHANGE_SIZES: TableDefinition<u32, Checked> = TableDefinition::new("change_sizes");
/// Commit id → commit number.
pub const COMMIT_IDS: TableDefinition<&[u8; 20], u32> = TableDefinition::new("commit_ids");
/// (path, commit number) → [`StoredMeta`] for every non-merge commit whose first-parent diff
/// touched the path: the per-path history, where everything under a folder is one range scan
/// that also yields the commits' metadata, side by side on a few pages (schema 4).
pub const PATHS: TableDefinition<(&str, u32), Checked> = TableDefinition::new("paths");
/// (new path, commit number) → old path, for `.md` files renamed by a commit.
pub const RENAMES: TableDefinition<(&str, u32), &str> = TableDefinition::new("renames");
/// (record path, relation, target) for every edge a record declares, as parsed: relation is
/// `supersedes`, `superseded-by`, `amends`, `mentions` or `links`; target an id or a
/// root-relative path (schema 3). The graph resolves them per query.
pub const EDGES: TableDefinition<(&str, &str, &str), ()> = TableDefinition::new("edges");
/// (id, commit number) → [`StoredMeta`] for every id a commit message mentions (schema 2;
/// the metadata since schema 4).
pub const MENTIONS: TableDefinition<(&str, u32), Checked> = TableDefinition::new("mentions");
/// Root-relative source file → [`StoredMarkers`]: the markers of a tracked file, with the blob
/// id git's index named for it when they were read (schema 6).
pub const MARKERS: TableDefinition<&str, Checked> = TableDefinition::new("markers");
/// The walks kept for the next scan ([`KEY_GUIDE_WALK`], [`KEY_SOURCE_WALK`]), one stamp per
/// folder of the tree: kept out of [`META`], whose every lookup would otherwise read them (a
/// B-tree leaf holds its values: on 50,000 folders, megabytes read and zeroed for each key,
/// ADR-0016). Absent in older files (the walks were in [`META`]): no walk kept.
pub const WALKS: TableDefinition<&str, Checked> = TableDefinition::new("walks");
/// (blob id, `Lang/PARSER_VERSION`) → the imports read from that blob (`Vec<Import>`): what
/// the records' rules read, kept by content so a check parses only what changed (schema 8,
/// ADR-0021).
pub const IMPORTS: TableDefinition<(&[u8; 20], &str), Checked> = TableDefinition::new("imports");

pub const KEY_VERSION: &str = "schema_version";
pub const KEY_HEAD: &str = "head";
pub const KEY_SHALLOW: &str = "shallow";
pub const KEY_GRAPH: &str = "graph";
pub const KEY_REACH: &str = "reach";
/// For each block of [`TIME_BLOCK`] commit numbers, the latest commit time stored in it
/// (`Vec<i64>`, `i64::MIN` for an empty block): a reader leaves out every number below the
/// first block that reaches a record's date. Made with the store by a first build and kept by
/// every later one; an index without it (built before it existed) is read whole.
pub const KEY_TIME_BLOCKS: &str = "time_blocks";
/// How many commit numbers a [`KEY_TIME_BLOCKS`] block covers.
pub const TIME_BLOCK: u32 = 256;
pub const KEY_SCOPE: &str = "scope";
pub const KEY_GUIDE_WALK: &str = "guide_walk";
/// The last scan's [`ScanMemo`] and its [`MemoReport`] (kept apart: the report is decoded only
/// when the memo holds). Absent in older files, which is no memo.
pub const KEY_SCAN_MEMO: &str = "scan_memo";
pub const KEY_SCAN_MEMO_REPORT: &str = "scan_memo_report";
/// The last walk of the root for untracked source files ([`crate::scan::SourceWalk`]), kept
/// with the markers (schema 6). Absent: walk again.
pub const KEY_SOURCE_WALK: &str = "source_walk";
/// The meta key naming the file: written when a file is made, never changed (ADR-0011). Optional:
/// a file made before it has none.
pub const KEY_GENERATION: &str = "generation";

/// A commit as kept (schema 3): the parents as commit numbers (a parent outside the index, at
/// a shallow boundary, is left out) and the message's mentions. What its diff touched is in
/// [`COMMIT_CHANGES`], so reading a commit's metadata reads no path lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredCommit {
    pub id: [u8; 20],
    pub parents: Vec<u32>,
    pub time: i64,
    pub author: String,
    pub subject: String,
    pub mentions: Vec<String>,
    pub is_merge: bool,
}

/// A commit's metadata as `paths` and `mentions` carry it (schema 4): what an answer shows of
/// a commit, so answering reads no `commits` page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMeta {
    pub id: [u8; 20],
    pub time: i64,
    pub author: String,
    pub subject: String,
    pub mentions: Vec<String>,
    pub is_merge: bool,
}

/// [`StoredMeta`] read in place (the same bytes): an answer copies each string once, into its
/// [`crate::git::CommitMeta`], rather than twice.
#[derive(Debug, Deserialize)]
pub struct StoredMetaRef<'a> {
    pub id: [u8; 20],
    pub time: i64,
    #[serde(borrow)]
    pub author: &'a str,
    #[serde(borrow)]
    pub subject: &'a str,
    #[serde(borrow)]
    pub mentions: Vec<&'a str>,
    pub is_merge: bool,
}

/// The start of a [`StoredMeta`]: enough to tell a commit's time without reading its strings.
#[derive(Debug, Deserialize)]
pub struct StoredMetaTime {
    pub id: [u8; 20],
    pub time: i64,
}

impl StoredMeta {
    pub fn of(c: &StoredCommit) -> StoredMeta {
        StoredMeta {
            id: c.id,
            time: c.time,
            author: c.author.clone(),
            subject: c.subject.clone(),
            mentions: c.mentions.clone(),
            is_merge: c.is_merge,
        }
    }
}

/// What a commit's first-parent diff touched (schema 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredChanges {
    pub changes: Vec<String>,
    pub renames: Vec<(String, String)>,
}

/// The start of [`StoredChanges`], read in place.
#[derive(Deserialize)]
pub(super) struct StoredChangesRef<'a> {
    #[serde(borrow)]
    pub changes: Vec<&'a str>,
}

/// A tracked file's markers, as (line, id), and the blob they were read from (schema 6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMarkers {
    pub blob: [u8; 20],
    pub markers: Vec<(u32, String)>,
}

/// The head of the staged file beside the index (`index.staged`): what the files git tracks
/// declared when git's index had `checksum`. The file holds it, then the encoded
/// [`StagedBlobs`], encoded apart so that a query whose checksum matches decodes only
/// the head: the file is `(StagedHead, Vec<u8>)`, encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StagedHead {
    pub made_by: String,
    pub checksum: [u8; 20],
    pub markers: crate::text::marker::Markers,
}

/// What the files git tracks declare in git's index, kept beside the index (`index.staged`,
/// see `Index::staged_markers`), not in it: each tracked file's path (one after another, in
/// git's index order, `ends` giving where each ends as a little-endian u32), its blob (20 bytes
/// each, in the same order), and for the few files that declare something, their place in
/// that order and markers as (line, id). Laid out so that reading it allocates nothing per
/// file: a new commit reads and writes it whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StagedBlobs<'a> {
    #[serde(borrow)]
    pub paths: &'a str,
    #[serde(borrow, serialize_with = "super::codec::as_bytes")]
    pub ends: &'a [u8],
    #[serde(borrow, serialize_with = "super::codec::as_bytes")]
    pub blobs: &'a [u8],
    #[serde(borrow)]
    pub markers: Vec<(u32, Vec<(u32, &'a str)>)>,
}

/// A record file's parse, with the stamp of the file it was read from (schema 5).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CachedRecord {
    pub stamp: Stamp,
    /// When the scan that read it began (ns since the epoch): the stamp is judged against it.
    pub stored_ns: i64,
    pub parsed: crate::parse::ParsedRecord,
}

/// A guide's citations, likewise.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CachedGuide {
    pub stamp: Stamp,
    pub stored_ns: i64,
    pub guide: crate::parse::Guide,
}

/// What the cached records and guides were read under: the root, `--docs`, and the parser
/// that read them (cached parses from another parser are dropped, the history is kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    pub root: String,
    pub docs: Vec<String>,
    pub parser: u32,
}

impl Scope {
    /// The scope of a scan of `root` with `docs`, by this build's parser.
    /// `.context-graph.toml` decides how files are read (ADR-0012): its digest joins `docs`, so
    /// a changed file is another scope and nothing parsed under the old one is used.
    pub fn new(root: &std::path::Path, docs: &[String]) -> Scope {
        let mut docs = docs.to_vec();
        if let Some(bytes) = crate::fs::config::fingerprint(root) {
            let digest = crate::fs::fingerprint::Digest::of_bytes(&bytes);
            docs.push(format!("{}#{:016x}", crate::fs::config::FILE, digest.0));
        }
        Scope {
            root: root.display().to_string(),
            docs,
            parser: crate::parse::cache_version(),
        }
    }
}

/// The last guide walk, stamped: still valid while no walked folder and no ignore file
/// changed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WalkCache {
    pub scope: Scope,
    pub walk: crate::fs::walk::WalkStamp,
}

/// What the last scan depended on besides the parsed files (see `index::memo`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScanMemo<S = String> {
    /// The build that wrote it.
    pub made_by: S,
    pub scope: Scope,
    pub deps: crate::scan::Deps<S>,
    /// The digest of the tracked paths its code mentions were resolved against, and the
    /// checksum of git's index they were read from.
    pub names: u64,
    pub names_checksum: Option<[u8; 20]>,
    /// The folders of the paths the records name, stamped: while one holds, the paths in it
    /// are not stat'ed one by one (issue 17).
    pub parents: crate::scan::Parents<S>,
    /// A record carries rules: the report holds only while git's index has the checksum it
    /// was read from (`names_checksum`), as the rules read the files it holds (ADR-0021).
    pub rules: bool,
}

/// The last scan's report, before any query narrowed it and before any history was added.
/// Each record is encoded on its own, beside the few fields a query picks records by, so a
/// `why` or `record` answer decodes only the records it shows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MemoReport {
    pub heads: Vec<RecordHead>,
    /// Each a [`crate::model::Record`], encoded, in `heads` order.
    #[serde(serialize_with = "super::codec::each_as_bytes")]
    pub records: Vec<Vec<u8>>,
    pub docs: Vec<crate::model::DocCitations>,
    pub findings: Vec<crate::model::Finding>,
    pub notes: Vec<String>,
    /// What the records' rules found (ADR-0021).
    pub rules: Vec<crate::model::RecordRules>,
    /// The records' words for `why`'s `text` evidence (`related::vocabulary`), in `heads`
    /// order.
    #[serde(serialize_with = "super::codec::as_bytes")]
    pub vocabulary: Vec<u8>,
}

/// What a query picks a record by (see [`crate::model::Pickable`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecordHead {
    pub id: String,
    pub status: crate::model::Status,
    pub governs: Vec<String>,
    pub code_mentions: Vec<crate::model::CodeMention>,
    /// The record's title and file, for `why`'s related records (docs/related.md).
    pub title: String,
    pub path: String,
}

/// [`MemoReport`] read in place (the same bytes): the heads and the encoded records borrowed.
#[derive(Debug, Deserialize)]
pub struct MemoReportRef<'a> {
    #[serde(borrow)]
    pub heads: Vec<RecordHeadRef<'a>>,
    #[serde(borrow)]
    pub records: Vec<&'a [u8]>,
    pub docs: Vec<crate::model::DocCitations>,
    pub findings: Vec<crate::model::Finding>,
    pub notes: Vec<String>,
    pub rules: Vec<crate::model::RecordRules>,
    #[serde(borrow)]
    pub vocabulary: &'a [u8],
}

/// [`RecordHead`] read in place.
#[derive(Debug, Deserialize)]
pub struct RecordHeadRef<'a> {
    #[serde(borrow)]
    pub id: &'a str,
    pub status: crate::model::Status,
    #[serde(borrow)]
    pub governs: Vec<&'a str>,
    #[serde(borrow)]
    pub code_mentions: Vec<crate::model::CodeMentionRef<'a>>,
    #[serde(borrow)]
    pub title: &'a str,
    #[serde(borrow)]
    pub path: &'a str,
}

impl crate::model::Pickable for RecordHeadRef<'_> {
    fn id(&self) -> &str {
        self.id
    }
    fn status(&self) -> crate::model::Status {
        self.status
    }
    fn governs(&self) -> impl Iterator<Item = &str> {
        self.governs.iter().copied()
    }
    fn code_mentions(&self) -> impl Iterator<Item = crate::model::CodeMentionRef<'_>> {
        self.code_mentions.iter().copied()
    }
    fn title(&self) -> &str {
        self.title
    }
    fn path(&self) -> &str {
        self.path
    }
}

/// New commits on top of the indexed HEAD, kept in a small file beside the index until a
/// longer refresh or `index` writes them in (see `index::Index::refresh_history`): a commit or
/// two cost no redb write session. Valid while `base` is the indexed HEAD and `shallow` the
/// shallow boundary the history was indexed with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    pub made_by: String,
    pub base: [u8; 20],
    pub shallow: Vec<u8>,
    /// The HEAD they lead to.
    pub head: [u8; 20],
    /// Newest first, as walked.
    pub commits: Vec<crate::git::WalkedCommit>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::codec;

    #[test]
    fn a_memo_report_reads_in_place_as_it_was_written() {
        let record = crate::model::Record {
            status_text: "Accepted".into(),
            date: Some("2025-03-01".into()),
            cites: vec!["ADR-0001".into()],
            governs: vec!["src/auth/".into(), "lib.rs".into()],
            ..crate::model::Record::bare(
                "ADR-0007",
                "Tokens",
                crate::model::Status::Accepted,
                "docs/adr/0007-tokens.md",
            )
        };
        let report = MemoReport {
            heads: vec![RecordHead {
                id: record.id.clone(),
                status: record.status,
                governs: record.governs.clone(),
                code_mentions: record.code_mentions.clone(),
                title: record.title.clone(),
                path: record.path.clone(),
            }],
            records: vec![codec::encode(&record), vec![], vec![0, 255, 7]],
            docs: vec![],
            findings: vec![],
            notes: vec!["a note".into()],
            rules: vec![],
            vocabulary: vec![3, 0, 9],
        };
        let bytes = codec::encode(&report);
        let read: MemoReportRef = codec::decode_borrowed(&bytes).expect("decodes");
        assert_eq!(read.heads.len(), 1);
        assert_eq!(read.vocabulary, [3, 0, 9]);
        assert_eq!(
            (
                read.heads[0].id,
                read.heads[0].status,
                &read.heads[0].governs
            ),
            ("ADR-0007", record.status, &vec!["src/auth/", "lib.rs"])
        );
        assert_eq!(
            read.records,
            [report.records[0].as_slice(), &[], &[0, 255, 7]]
        );
        let back: crate::model::Record = codec::decode(read.records[0]).expect("the record");
        assert_eq!(codec::encode(&back), report.records[0]);
        assert_eq!(read.notes, report.notes);
    }

    #[test]
    fn stored_meta_reads_in_place_as_it_was_written() {
        let meta = StoredMeta {
            id: [7; 20],
            time: -3,
            author: "Zoë".into(),
            subject: "Tune ADR-0001 \u{1b}[31m".into(),
            mentions: vec!["ADR-0001".into(), "RFC-12".into()],
            is_merge: true,
        };
        let bytes = codec::encode(&meta);
        let read: StoredMetaRef = codec::decode_borrowed(&bytes).expect("decodes");
        assert_eq!(
            (read.id, read.time, read.author, read.subject, read.is_merge),
            (meta.id, meta.time, "Zoë", meta.subject.as_str(), true)
        );
        assert_eq!(read.mentions, ["ADR-0001", "RFC-12"]);
    }
}
