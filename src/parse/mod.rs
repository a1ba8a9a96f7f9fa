//! Parsing: one file's text → what it says, before anything is resolved against the file
//! system or the other records. A record's fields in the reference's order (`record`, `fields`,
//! `relations`), and what a guide cites (`guide`). Whether a named path exists, and which record
//! a link points at, is decided by `graph.rs` (ADR-0001).

mod fields;
mod guide;
mod listed;
mod passing;
mod record;
mod relations;
mod replaced;
mod roles;
mod scope;

pub use fields::{normalise_status, record_stem, StatusAt};
pub use guide::{parse_guide, Guide};
pub use passing::ProsePath;
pub use record::{name_id, parse_head, parse_text, read_rules, status_in, Head};

use crate::model::Status;
use crate::text::ids::Prefix;
use serde::{Deserialize, Serialize};

/// The version of what parsing gives: raised whenever a file would parse differently, so a
/// cache of parses made by another version is dropped (the index keeps it in its scope).
pub const PARSER_VERSION: u32 = 53;

/// What a cached parse is kept for: [`PARSER_VERSION`] and this build's sources (a digest
/// `build.rs` takes), so a parse or a mention another build resolved is never served
/// (ADR-0006 as amended 2026-12-05).
pub fn cache_version() -> u32 {
    let digest: u32 = env!("CG_BUILD_SOURCE_DIGEST").parse().unwrap_or(0);
    PARSER_VERSION ^ digest
}

/// A reference to another record: an id, or a link to a file that may be one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ref {
    Id(String),
    /// A link: the target made root-relative, and the id its text names (`[3. Title]`).
    Link {
        target: String,
        text_id: Option<String>,
    },
    /// A relation written as a forge's web address of a file in the record's own folder
    /// (`https://github.com/o/r/blob/main/docs/adr/0016-x.md`): that file, root-relative, when
    /// a record is there or was renumbered since; else an external page, named by its text.
    Web {
        target: String,
        text_id: Option<String>,
    },
}

/// One record file as read, before the graph resolves its links and paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParsedRecord {
    pub path: String,
    pub prefix: Prefix,
    pub id: String,
    pub title: String,
    pub status: Status,
    pub status_text: String,
    pub date: Option<String>,
    pub supersedes: Vec<Ref>,
    pub superseded_by: Vec<Ref>,
    pub amends: Vec<Ref>,
    /// "Amended by ADR-31": the records that amend this one, by its own word (the graph files
    /// the edge on them).
    pub amended_by: Vec<Ref>,
    /// What the frontmatter says the record relates to (`relatesTo`, `related`, `relatedTo`).
    pub related: Vec<Ref>,
    /// Every id mentioned (its own included; the graph drops it) and every link.
    pub mentions: Vec<String>,
    /// Ids named only by links to external URLs (`[RFC 98](https://…/pull/98)`): a citation
    /// only when a record has that id (docs/reading.md, "Ids that are not records").
    pub linked_mentions: Vec<String>,
    pub links: Vec<Ref>,
    /// Paths named in backticks, root-relative and lexically normalised.
    pub code_paths: Vec<String>,
    /// Paths its decision removes ("`X` will be split out into its own repository"): governed
    /// while there, nothing missing once gone (docs/reading.md). Without a trailing `/`.
    pub removed_paths: Vec<String>,
    /// Paths named only as where a part is configured ("configured in [F](…)"): shared files,
    /// mentions and not governed code (docs/reading.md). Without a trailing `/`.
    pub host_paths: Vec<String>,
    /// What the record declares it governs in its frontmatter (docs/scope.md), as written and
    /// in order (`!` a negation); `None` when it declares nothing.
    pub declared: Option<Vec<String>>,
    /// The field `declared` came from: `"governs"` or adrkit's `"affects"`.
    #[serde(default)]
    pub declared_in: Option<String>,
    pub notes: Vec<String>,
    /// Its text holds a template's placeholders (`[short title]`, `{title}`, `NNNN`,
    /// `YYYY-MM-DD`): a `0000-` file that does is the template, not a record.
    pub placeholders: bool,
    /// No `# ` heading, no status, no date, no decision section: a guide in a record folder
    /// (`PROVENANCE.md`), unless a record links to it as a record.
    pub bare: bool,
    /// A heading, and no status, date, id or decision section: an overview of its folder
    /// (`architecture.md`) when its name has no number and its folder's records do.
    pub overview: bool,
    /// The repository its frontmatter names its pull request in (`prs: accepted:
    /// https://github.com/OWNER/REPO/pull/N`), as `OWNER/REPO`: records merged from two
    /// repositories keep each one's numbers.
    pub origin: Option<String>,
    /// Every id or link a line names after a supersession word, whoever its subject ("The
    /// behaviour supersedes that description in [ADR-0015](…)"): enough for a successor to have
    /// said it, never a relation of its own.
    pub supersession_mentions: Vec<Ref>,
    /// The terms its prose may name code by (docs/mentions.md), resolved by the scan.
    pub terms: Vec<crate::text::terms::Term>,
    /// Ids and links its prose names only as what the decision replaces ("to replace the queue
    /// described in [ADR 3](…)"): citations, but not reliance (docs/reading.md).
    #[serde(default)]
    pub replaced: Vec<Ref>,
    /// When `replaced` has any: every other id and link it names, so the graph can tell a
    /// record also cited otherwise. Empty when `replaced` is.
    #[serde(default)]
    pub cited_otherwise: Vec<Ref>,
    /// Every path its prose names in a code span or a link, once, with whether it is named
    /// only in passing (docs/reading.md, "Named in passing"): a passing path never governs,
    /// and is a code mention when it is there.
    #[serde(default)]
    pub prose_paths: Vec<ProsePath>,
    /// What its `context-graph` blocks say (docs/rules.md); `None` when it has none.
    #[serde(default)]
    pub rules: Option<crate::rules::RuleBlock>,
    /// The targets of its links written from the site's root (`/docs/mimir/…`), root-relative:
    /// on a documentation site such a link is the site's page, not this repository's path
    /// (docs/reading.md, "A link from the site's root").
    #[serde(default)]
    pub site_links: Vec<String>,
    /// Each word of its text as `why`'s `text` evidence compares it with a file, and how often
    /// it is written, by word (docs/related.md).
    #[serde(default)]
    pub words: Vec<(String, u32)>,
}

#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("{0}: not UTF-8, skipped")]
    NotUtf8(String),
}

/// Reads one record. `rel_path` is root-relative with `/` separators; `prefix` comes from its
/// folder. Never panics, whatever the bytes.
pub fn parse_record(
    rel_path: &str,
    bytes: &[u8],
    prefix: Prefix,
) -> Result<ParsedRecord, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ParseError::NotUtf8(rel_path.to_string()))?;
    Ok(parse_text(rel_path, text, prefix))
}

/// Each word of a record (its file's name at `rel_path` and its `text`) as
/// [`crate::text::code_words::each_word`] gives it, and how many times, by word.
pub fn words_of(rel_path: &str, text: &str) -> Vec<(String, u32)> {
    let mut counts: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    let name = crate::text::file_stem(rel_path);
    for part in [name, text] {
        crate::text::code_words::each_word(part.as_bytes(), |w, _| match counts.get_mut(w) {
            Some(n) => *n += 1,
            None => {
                counts.insert(w.to_string(), 1);
            }
        });
    }
    let mut out: Vec<(String, u32)> = counts.into_iter().collect();
    out.sort_unstable();
    out
}

fn dedup<T: Ord>(v: &mut Vec<T>) {
    v.sort();
    v.dedup();
}
