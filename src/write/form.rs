//! A record's form read as lines, shared by writing a new record (`render`) and changing one
//! (`change`) (ADR-0013): the frontmatter's lines and top-level entries, `Key: value` lines, a
//! word cased as another, a link line, a YAML scalar, and what a folder's records show of their
//! form (the relation keys their frontmatter uses, how they write an id).

use crate::text::frontmatter::normalise_key;
use regex::Regex;
use std::sync::OnceLock;

/// A link from a new record to another: the other's id, its number, the link's text and its
/// target relative to the new record's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub id: String,
    pub number: Option<u64>,
    pub text: String,
    pub target: String,
}

/// The frontmatter keys the folder's records use for relations, as spelt there (found in the
/// record being changed, the newest record, or a few more).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusKeys {
    pub supersedes: Option<String>,
    pub superseded_by: Option<String>,
    pub amends: Option<String>,
    pub amended_by: Option<String>,
    /// A value as the corpus writes an id in frontmatter (`"0012"`, `ADR-0012`, `12`).
    pub id_sample: Option<String>,
    /// The repository is log4brains' (`.log4brains.yml`): a record's links to others are listed
    /// under its `## Links`.
    pub log4brains: bool,
}

impl CorpusKeys {
    /// Learns from one record's text whatever is not known yet.
    pub fn learn(&mut self, text: &str) {
        let Some(lines) = fm_lines(text) else { return };
        for (key, value, _) in fm_entries(&lines) {
            let slot = match normalise_key(&key).as_str() {
                "supersedes" | "replaces" => &mut self.supersedes,
                "supersededby" | "replacedby" => &mut self.superseded_by,
                "amends" => &mut self.amends,
                "amendedby" => &mut self.amended_by,
                "id" | "adr" | "rfc" => {
                    let v = value.trim();
                    if self.id_sample.is_none() && v.chars().any(|c| c.is_ascii_digit()) {
                        self.id_sample = Some(v.to_string());
                    }
                    continue;
                }
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(key.clone());
            }
        }
    }

    /// How an id is written as a frontmatter value here: the sample's form with `number` in it
    /// (`"0012"` → `"0003"`), else the id itself.
    pub fn value_of(&self, id: &str, number: Option<u64>) -> String {
        match (&self.id_sample, number) {
            (Some(sample), Some(n)) => reshape(sample, n),
            _ => id.to_string(),
        }
    }
}

/// `sample` with its first run of digits replaced by `number`, padded as that run was.
pub fn reshape(sample: &str, number: u64) -> String {
    let Some(start) = sample.find(|c: char| c.is_ascii_digit()) else {
        return number.to_string();
    };
    let len = sample[start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(sample.len() - start);
    let run = &sample[start..start + len];
    let width = if run.starts_with('0') && len > 1 {
        len
    } else {
        0
    };
    format!(
        "{}{number:0>width$}{}",
        &sample[..start],
        &sample[start + len..]
    )
}

/// The frontmatter's lines between its fences (LF text), when it has frontmatter.
pub fn fm_lines(text: &str) -> Option<Vec<&str>> {
    let mut lines = text.split('\n');
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut out = Vec::new();
    for l in lines {
        let t = l.trim_end();
        if t == "---" || t == "..." {
            return Some(out);
        }
        out.push(l.trim_end_matches('\r'));
    }
    None
}

/// Top-level `key: value` entries of frontmatter lines: key as written, the value on its line,
/// and whether indented or `- ` lines follow it (a block value).
pub fn fm_entries(lines: &[&str]) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = Vec::new();
    for l in lines {
        if l.starts_with([' ', '\t', '-']) || l.trim().is_empty() || l.starts_with('#') {
            if let Some(last) = out.last_mut() {
                if !l.trim().is_empty() {
                    last.2 = true;
                }
            }
            continue;
        }
        if let Some((k, v)) = l.split_once(':') {
            out.push((k.trim().to_string(), v.to_string(), false));
        }
    }
    out
}

fn field_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(\s*(?:[-*+]\s+)?(?:\*\*|__)?)([A-Za-z][A-Za-z ]{0,30}?)((?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*)(.*?)\s*$")
            .expect("field regex compiles")
    })
}

/// A `Key: value` line (`- Status: x`, `**Date:** y`): its lead, key, separator and value.
pub fn field_line(line: &str) -> Option<(String, String, String, String)> {
    let c = field_re().captures(line)?;
    Some((
        c[1].to_string(),
        c[2].to_string(),
        c[3].to_string(),
        c[4].to_string(),
    ))
}

/// `word` in the case of `like` (`Accepted` → `Deprecated`; `accepted` → `deprecated`).
pub fn cased(word: &str, like: &str) -> String {
    let first = like.chars().find(|c| c.is_alphabetic());
    let upper_all = like.len() > 1
        && like
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase);
    if upper_all {
        return word.to_uppercase();
    }
    match first {
        Some(c) if c.is_uppercase() => {
            let mut ch = word.chars();
            match ch.next() {
                Some(f) => f.to_uppercase().chain(ch).collect(),
                None => String::new(),
            }
        }
        Some(_) => word.to_lowercase(),
        None => word.to_string(),
    }
}

/// `Supersedes [3. Title](0003-title.md)`.
pub fn link_line(word: &str, link: &Link) -> String {
    format!("{word} [{}]({})", link.text, link.target)
}

/// A YAML scalar: plain when that reads back as the same string, else double-quoted.
pub fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c) || c.is_whitespace())
        && !s.ends_with(char::is_whitespace);
    if plain {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
    }
}
