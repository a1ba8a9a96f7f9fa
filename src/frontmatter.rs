//! YAML frontmatter: the block between a first `---` line and the next `---` or `...` line.
//!
//! Keys are compared with case, `_`, `-` and spaces removed, so `superseded_by`,
//! `superseded-by` and `supersededBy` are one key. Invalid YAML never loses the record: its
//! `key: value` lines are read instead, and a note says so (ADR-0001).

use std::collections::BTreeMap;
use yaml_rust2::{Yaml, YamlLoader};

/// A frontmatter value: one scalar, or a list of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    List(Vec<String>),
}

impl Value {
    /// Every scalar in the value, in order.
    pub fn items(&self) -> Vec<&str> {
        match self {
            Value::Scalar(s) => vec![s.as_str()],
            Value::List(items) => items.iter().map(String::as_str).collect(),
        }
    }

    /// The value as one line of text.
    pub fn text(&self) -> String {
        match self {
            Value::Scalar(s) => s.clone(),
            Value::List(items) => items.join(", "),
        }
    }
}

#[derive(Debug, Default, Clone)]
pub struct Frontmatter {
    /// Normalised key → value.
    pub fields: BTreeMap<String, Value>,
    /// The raw text between the fences.
    pub raw: String,
    /// Why the YAML could not be read, when it could not.
    pub invalid: Option<String>,
}

impl Frontmatter {
    /// The first of `keys` (already normalised) that has a non-empty value.
    pub fn get(&self, keys: &[&str]) -> Option<&Value> {
        keys.iter().find_map(|k| {
            self.fields.get(*k).filter(|v| match v {
                Value::Scalar(s) => !s.trim().is_empty(),
                Value::List(items) => !items.is_empty(),
            })
        })
    }
}

/// `superseded_by`, `superseded-by`, `supersededBy` → `supersededby`.
pub fn normalise_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Splits `text` (LF line endings) into its frontmatter and the line number the body starts at.
pub fn split(text: &str) -> (Option<Frontmatter>, usize) {
    let mut lines = text.split('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return (None, 0),
    }
    let mut raw = String::new();
    for (i, line) in lines.enumerate() {
        let t = line.trim_end();
        if t == "---" || t == "..." {
            return (Some(parse(&raw)), i + 2);
        }
        raw.push_str(line);
        raw.push('\n');
    }
    // No closing fence: not frontmatter, only a horizontal rule.
    (None, 0)
}

fn parse(raw: &str) -> Frontmatter {
    match YamlLoader::load_from_str(raw) {
        Ok(docs) => {
            let mut fields = BTreeMap::new();
            if let Some(Yaml::Hash(hash)) = docs.into_iter().next() {
                for (k, v) in hash {
                    let Some(key) = scalar(&k) else { continue };
                    if let Some(value) = value(&v) {
                        fields.insert(normalise_key(&key), value);
                    }
                }
            }
            Frontmatter {
                fields,
                raw: raw.to_string(),
                invalid: None,
            }
        }
        Err(e) => Frontmatter {
            fields: fallback(raw),
            raw: raw.to_string(),
            invalid: Some(e.to_string()),
        },
    }
}

fn scalar(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn value(y: &Yaml) -> Option<Value> {
    match y {
        Yaml::Array(items) => Some(Value::List(items.iter().filter_map(scalar).collect())),
        Yaml::Null | Yaml::BadValue | Yaml::Hash(_) | Yaml::Alias(_) => None,
        other => scalar(other).map(Value::Scalar),
    }
}

/// What invalid YAML still says: `key: value` lines, `[a, b]` flow lists and `- item` lists.
fn fallback(raw: &str) -> BTreeMap<String, Value> {
    let mut fields = BTreeMap::new();
    let mut list_key: Option<String> = None;
    for line in raw.lines() {
        let trimmed = line.trim();
        if let Some(item) = trimmed.strip_prefix("- ") {
            if let Some(key) = &list_key {
                if let Some(Value::List(items)) = fields.get_mut(key) {
                    items.push(unquote(item));
                }
            }
            continue;
        }
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        if key.starts_with(char::is_whitespace) || key.trim().is_empty() {
            continue;
        }
        let key = normalise_key(key.trim());
        let rest = rest.trim();
        if rest.is_empty() {
            fields.insert(key.clone(), Value::List(Vec::new()));
            list_key = Some(key);
        } else if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let items = inner
                .split(',')
                .map(unquote)
                .filter(|s| !s.is_empty())
                .collect();
            fields.insert(key, Value::List(items));
            list_key = None;
        } else {
            fields.insert(key, Value::Scalar(unquote(rest)));
            list_key = None;
        }
    }
    fields
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    let stripped = s
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')));
    stripped.unwrap_or(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_yaml_with_every_key_spelling() {
        let text = "---\nid: \"0012\"\nsupersededBy: [3, 'ADR-4']\nsuperseded-by-x: y\nreplaces:\n  - 1\n  - ADR-2\n---\n# T\n";
        let (fm, body) = split(text);
        let fm = fm.unwrap();
        assert_eq!(body, 8);
        assert_eq!(fm.fields["id"], Value::Scalar("0012".into()));
        assert_eq!(
            fm.fields["supersededby"],
            Value::List(vec!["3".into(), "ADR-4".into()])
        );
        assert_eq!(
            fm.fields["replaces"],
            Value::List(vec!["1".into(), "ADR-2".into()])
        );
        assert!(fm.invalid.is_none());
    }

    #[test]
    fn invalid_yaml_falls_back_to_lines() {
        let text = "---\ntitle: Use: colons: badly\nstatus: accepted\n  bad: [indent\n---\nbody";
        let (fm, _) = split(text);
        let fm = fm.unwrap();
        assert!(fm.invalid.is_some());
        assert_eq!(fm.fields["status"], Value::Scalar("accepted".into()));
    }

    #[test]
    fn no_closing_fence_is_no_frontmatter() {
        assert!(split("---\ntitle: x\n").0.is_none());
    }
}
