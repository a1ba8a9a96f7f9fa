//! `.context-graph.toml` at the root (docs/configuration.md, ADR-0012): the record folders, each with an
//! id prefix, a default status and files to exclude; finding codes to ignore; the hooks' strict
//! mode. Every key is optional. An unknown key is a warning, kept in [`Config::warnings`]; an
//! invalid file is a [`ConfigError`] naming `FILE:LINE`. Read by every command, the hooks and
//! `review` through [`load`]; other front doors (the MCP server, `new`) call the same.

use crate::governs::Pattern;
use crate::model::{FindingCode, QuietRules, Status};
use crate::text::ids::Prefix;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// The file's name, at the root.
pub const FILE: &str = ".context-graph.toml";

/// What the file says, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// `[[folders]]`, in order: when not empty, they replace the default record folders.
    pub folders: Vec<FolderConfig>,
    /// `[findings] ignore`: codes never reported.
    pub ignore: Vec<FindingCode>,
    /// `[hooks] strict`.
    pub strict: Option<bool>,
    /// `[hooks] skip_bots`, `skip_releases`, `skip_generated`, `skip_whitespace`, `skip_doc_pages`,
    /// `skip_shared_files`, `record_edit_cites`, `record_edit_covers`, `once_per_branch`,
    /// `skip_unechoed`, `skip_broad_folders`, `skip_layout_edits`, `skip_added_alike`,
    /// `skip_other_settings`, `skip_renames`: each on unless set to false.
    pub quiet: QuietRules,
    /// One line per unknown key (`FILE:LINE: unknown key …, ignored`).
    pub warnings: Vec<String>,
}

/// One `[[folders]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderConfig {
    /// Root-relative, normalised, no trailing `/`.
    pub path: String,
    pub prefix: Option<Prefix>,
    /// The status a record here has when it states none, as written (a known status word).
    pub default_status: Option<String>,
    /// Root-relative gitignore-style patterns of files that are not records.
    pub exclude: Vec<String>,
}

/// Why the file cannot be used: one line, naming the file (and the line, when there is one).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}:{line}: {what}")]
    Invalid {
        file: String,
        line: usize,
        what: String,
    },
    #[error("{file}: cannot read it: {reason}")]
    Unreadable { file: String, reason: String },
    /// The file is a link out of the root: not read (ADR-0011).
    #[error("{0}")]
    LinkOut(String),
}

#[derive(Deserialize)]
struct RawFile {
    #[serde(default)]
    folders: Vec<Spanned<RawFolder>>,
    findings: Option<RawFindings>,
    hooks: Option<RawHooks>,
    #[serde(flatten)]
    other: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
struct RawFolder {
    path: Option<Spanned<String>>,
    prefix: Option<Spanned<String>>,
    default_status: Option<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(flatten)]
    other: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
struct RawFindings {
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(flatten)]
    other: BTreeMap<String, toml::Value>,
}

#[derive(Deserialize)]
struct RawHooks {
    strict: Option<bool>,
    skip_bots: Option<bool>,
    skip_releases: Option<bool>,
    skip_generated: Option<bool>,
    skip_whitespace: Option<bool>,
    skip_doc_pages: Option<bool>,
    skip_shared_files: Option<bool>,
    record_edit_cites: Option<bool>,
    record_edit_covers: Option<bool>,
    once_per_branch: Option<bool>,
    skip_unechoed: Option<bool>,
    skip_broad_folders: Option<bool>,
    skip_layout_edits: Option<bool>,
    skip_added_alike: Option<bool>,
    skip_other_settings: Option<bool>,
    skip_renames: Option<bool>,
    #[serde(flatten)]
    other: BTreeMap<String, toml::Value>,
}

/// Reads `root/.context-graph.toml`: `Ok(None)` when there is none.
pub fn load(root: &Path) -> Result<Option<Config>, ConfigError> {
    let path = root.join(FILE);
    if let Some((link, target)) = super::confine::link_out_of(root, FILE) {
        return Err(ConfigError::LinkOut(super::confine::refusal(
            &link, &target,
        )));
    }
    let bytes = match super::read::read_regular(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ConfigError::Unreadable {
                file: FILE.to_string(),
                reason: e.to_string(),
            })
        }
    };
    let text = String::from_utf8(bytes).map_err(|_| ConfigError::Invalid {
        file: FILE.to_string(),
        line: 1,
        what: "not UTF-8".to_string(),
    })?;
    parse(&text, FILE).map(Some)
}

/// The raw bytes of the file, for a cache to tell when it changed; `None` when there is none.
pub fn fingerprint(root: &Path) -> Option<Vec<u8>> {
    // A link out of the root is not opened: where it leads stands for its bytes.
    if let Some((_, target)) = super::confine::link_out_of(root, FILE) {
        return Some(format!("a link to {}", target.display()).into_bytes());
    }
    super::read::read_regular(&root.join(FILE)).ok()
}

/// Parses the text of a configuration file; `file` names it in errors and warnings.
pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let invalid = |offset: usize, what: String| ConfigError::Invalid {
        file: file.to_string(),
        line: line_of(offset),
        what,
    };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let what = e.message().trim().replace('\n', " ");
        invalid(offset, what)
    })?;
    let mut config = Config::default();
    let mut unknown = |section: &str, keys: &BTreeMap<String, toml::Value>, from: usize| {
        for key in keys.keys() {
            let line = key_line(text, key, from);
            let name = if section.is_empty() {
                key.clone()
            } else {
                format!("{section}.{key}")
            };
            config_warning(&mut config.warnings, file, line, &name);
        }
    };
    unknown("", &raw.other, 0);
    for entry in &raw.folders {
        let start = entry.span().start;
        let f = entry.get_ref();
        unknown("folders", &f.other, start);
        let Some(path) = &f.path else {
            return Err(invalid(
                start,
                "a [[folders]] entry needs a path".to_string(),
            ));
        };
        let written = path.get_ref().trim();
        let written = written.strip_prefix("./").unwrap_or(written);
        let normal = crate::text::path::normalise(written.trim_end_matches('/'))
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                invalid(
                    path.span().start,
                    format!("folder path {written:?} is not a folder inside the root"),
                )
            })?;
        let prefix = match &f.prefix {
            None => None,
            Some(p) => Some(Prefix::from_mention(p.get_ref().trim()).ok_or_else(|| {
                invalid(
                    p.span().start,
                    format!("prefix {:?} is not one of ADR, RFC, DR", p.get_ref()),
                )
            })?),
        };
        let default_status = match &f.default_status {
            None => None,
            Some(s) => {
                let word = s.get_ref().trim();
                if Status::Unrecognised == status_of(word) {
                    return Err(invalid(
                        s.span().start,
                        format!(
                            "default_status {word:?} is not a known status word (proposed, accepted, implemented, rejected, deprecated, superseded)"
                        ),
                    ));
                }
                Some(word.to_string())
            }
        };
        let exclude = f
            .exclude
            .iter()
            .map(|e| {
                let t = e.get_ref().trim();
                t.strip_prefix("./").unwrap_or(t).to_string()
            })
            .collect();
        config.folders.push(FolderConfig {
            path: normal,
            prefix,
            default_status,
            exclude,
        });
    }
    if let Some(findings) = &raw.findings {
        unknown("findings", &findings.other, 0);
        for code in &findings.ignore {
            let want = code.get_ref().trim();
            let found = FindingCode::ALL.iter().find(|c| c.as_str() == want);
            match found {
                Some(c) => config.ignore.push(*c),
                None => {
                    return Err(invalid(
                        code.span().start,
                        format!("{want:?} is not a finding code"),
                    ))
                }
            }
        }
    }
    if let Some(hooks) = &raw.hooks {
        unknown("hooks", &hooks.other, 0);
        config.strict = hooks.strict;
        let on = |v: Option<bool>| v.unwrap_or(true);
        config.quiet = QuietRules {
            skip_bots: on(hooks.skip_bots),
            skip_releases: on(hooks.skip_releases),
            skip_generated: on(hooks.skip_generated),
            skip_whitespace: on(hooks.skip_whitespace),
            skip_doc_pages: on(hooks.skip_doc_pages),
            skip_shared_files: on(hooks.skip_shared_files),
            record_edit_cites: on(hooks.record_edit_cites),
            record_edit_covers: on(hooks.record_edit_covers),
            once_per_branch: on(hooks.once_per_branch),
            skip_unechoed: on(hooks.skip_unechoed),
            skip_broad_folders: on(hooks.skip_broad_folders),
            skip_layout_edits: on(hooks.skip_layout_edits),
            skip_added_alike: on(hooks.skip_added_alike),
            skip_other_settings: on(hooks.skip_other_settings),
            skip_renames: on(hooks.skip_renames),
        };
    }
    Ok(config)
}

/// The normalised status of a word, as the reference's table reads it.
fn status_of(word: &str) -> Status {
    Status::from_text(word)
}

fn config_warning(out: &mut Vec<String>, file: &str, line: usize, key: &str) {
    out.push(format!("{file}:{line}: unknown key `{key}`, ignored"));
}

/// The line a key is written on, at or after byte `from`: the first line starting with it.
fn key_line(text: &str, key: &str, from: usize) -> usize {
    let mut offset = 0;
    for (i, line) in text.split('\n').enumerate() {
        let starts = offset >= from || offset + line.len() >= from;
        offset += line.len() + 1;
        let t = line.trim_start();
        let t = t.strip_prefix('[').map_or(t, |r| r.trim_start_matches('['));
        if starts && t.starts_with(key) {
            let after = t[key.len()..].trim_start();
            if after.starts_with(['=', ']', '.']) {
                return i + 1;
            }
        }
    }
    1
}

impl Config {
    /// The `[[folders]]` entry a root-relative path lies in (the deepest one).
    pub fn folder_of(&self, rel: &str) -> Option<&FolderConfig> {
        self.folders
            .iter()
            .filter(|f| rel == f.path || rel.starts_with(&format!("{}/", f.path)))
            .max_by_key(|f| f.path.len())
    }

    /// Whether a root-relative file is excluded by its folder's `exclude`.
    pub fn excluded(&self, rel: &str) -> bool {
        self.folders
            .iter()
            .flat_map(|f| f.exclude.iter())
            .any(|p| Pattern::new(p).matches(rel))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read() {
        let c = parse(
            "[[folders]]\npath = \"./rfcs/\"\nprefix = \"rfc\"\ndefault_status = \"accepted\"\nexclude = [\"rfcs/0000-template.md\", \"rfcs/drafts/**\"]\n\n[findings]\nignore = [\"overlapping-governance\"]\n\n[hooks]\nstrict = true\n",
            FILE,
        )
        .unwrap();
        assert_eq!(c.folders[0].path, "rfcs");
        assert_eq!(c.folders[0].prefix, Some(Prefix::Rfc));
        assert_eq!(c.folders[0].default_status.as_deref(), Some("accepted"));
        assert!(c.excluded("rfcs/drafts/x.md") && c.excluded("rfcs/0000-template.md"));
        assert!(!c.excluded("rfcs/0001-x.md"));
        assert_eq!(c.ignore, [FindingCode::OverlappingGovernance]);
        assert_eq!(c.strict, Some(true));
        assert!(c.warnings.is_empty());
        assert_eq!(
            c.folder_of("rfcs/a/b.md").map(|f| f.path.as_str()),
            Some("rfcs")
        );
    }

    #[test]
    fn unknown_keys_warn_and_bad_values_name_their_line() {
        let c = parse("colour = true\n[hooks]\nstrict = false\nloud = 1\n", FILE).unwrap();
        assert_eq!(
            c.warnings,
            [
                ".context-graph.toml:1: unknown key `colour`, ignored",
                ".context-graph.toml:4: unknown key `hooks.loud`, ignored"
            ]
        );
        let e = parse("[[folders]]\npath = \"rfcs\"\nprefix = \"XYZ\"\n", FILE).unwrap_err();
        assert_eq!(
            e.to_string(),
            ".context-graph.toml:3: prefix \"XYZ\" is not one of ADR, RFC, DR"
        );
        let e = parse("[findings]\nignore = [\n  \"no-such-code\",\n]\n", FILE).unwrap_err();
        assert!(e.to_string().starts_with(".context-graph.toml:3: "), "{e}");
        let e = parse("[hooks\nstrict = true\n", FILE).unwrap_err();
        assert!(e.to_string().starts_with(".context-graph.toml:1: "), "{e}");
        let e = parse("[hooks]\nstrict = \"yes\"\n", FILE).unwrap_err();
        assert!(e.to_string().starts_with(".context-graph.toml:2: "), "{e}");
    }
}
