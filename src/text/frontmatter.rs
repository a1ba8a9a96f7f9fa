//! YAML frontmatter: the block between a first `---` line and the next `---` or `...` line;
//! and TOML frontmatter, between `+++` lines (Hugo's) or, with no opening fence, `key = value`
//! lines from the first line to a `---` line (Bartholomew's, as Spin's improvement proposals
//! open).
//!
//! Keys are compared with case, `_`, `-` and spaces removed, so `superseded_by`,
//! `superseded-by` and `supersededBy` are one key. Invalid YAML never loses the record: its
//! `key: value` lines are read instead, and a note says so (ADR-0001).

use std::collections::BTreeMap;
use yaml_rust2::{Yaml, YamlLoader};

/// A frontmatter value: one scalar, a list of them, or a list of maps of scalars (adrkit's
/// `affects: [{type: path, pattern: …}]`; keys normalised as the top-level ones are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    List(Vec<String>),
    Maps(Vec<BTreeMap<String, String>>),
}

impl Value {
    /// Every scalar in the value, in order.
    pub fn items(&self) -> Vec<&str> {
        match self {
            Value::Scalar(s) => vec![s.as_str()],
            Value::List(items) => items.iter().map(String::as_str).collect(),
            Value::Maps(_) => Vec::new(),
        }
    }

    /// The value as one line of text.
    pub fn text(&self) -> String {
        match self {
            Value::Scalar(s) => s.clone(),
            Value::List(items) => items.join(", "),
            Value::Maps(_) => String::new(),
        }
    }
}

#[derive(Debug, Default, Clone)]
pub struct Frontmatter {
    /// Normalised key → value.
    pub fields: BTreeMap<String, Value>,
    /// The raw text between the fences.
    pub raw: String,
    /// Why the YAML (or TOML) could not be read, when it could not.
    pub invalid: Option<String>,
    /// Whether the frontmatter is TOML.
    pub toml: bool,
}

impl Frontmatter {
    /// The first of `keys` (already normalised) that has a non-empty value.
    pub fn get(&self, keys: &[&str]) -> Option<&Value> {
        keys.iter().find_map(|k| {
            self.fields.get(*k).filter(|v| match v {
                Value::Scalar(s) => !s.trim().is_empty(),
                Value::List(items) => !items.is_empty(),
                Value::Maps(maps) => !maps.is_empty(),
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
        Some(first) if first.trim_end() == "+++" => return split_toml(lines, "+++", 1),
        Some(first) if toml_line(first) => return split_toml(text.split('\n'), "---", 0),
        Some(first) if yaml_fence(first) => return split_fenced(lines),
        _ => return (None, 0),
    }
    // No closing fence: not frontmatter, only a horizontal rule.
    match yaml_block(&mut lines, |_| false) {
        Some((raw, read)) => (Some(parse(&raw)), read + 1),
        None => (None, 0),
    }
}

/// The YAML of `lines` up to a `---` or `...` line, and how many lines that took (the closing
/// one included); `None` when no such line comes, or a line `stops` says ends the block first.
fn yaml_block<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    stops: impl Fn(&str) -> bool,
) -> Option<(String, usize)> {
    let mut raw = String::new();
    for (i, line) in lines.enumerate() {
        let t = line.trim_end();
        if t == "---" || t == "..." {
            return Some((raw, i + 1));
        }
        if stops(t) {
            return None;
        }
        raw.push_str(line);
        raw.push('\n');
    }
    None
}

/// Whether a line opens a fenced block of YAML (```` ```yaml ````, ```` ```yml ````).
fn yaml_fence(line: &str) -> bool {
    matches!(line.trim_end(), "```yaml" | "```yml" | "``` yaml")
}

/// YAML frontmatter written inside a fenced block, the block the file opens with
/// (external-secrets' design documents: ```` ```yaml ````, `---`, the fields, `---`, ```` ``` ````),
/// from `lines` after the opening fence. `None` unless the block is exactly that.
fn split_fenced<'a>(mut lines: impl Iterator<Item = &'a str>) -> (Option<Frontmatter>, usize) {
    if lines.next().map(str::trim_end) != Some("---") {
        return (None, 0);
    }
    let Some((raw, read)) = yaml_block(&mut lines, |t| t.starts_with("```")) else {
        return (None, 0);
    };
    // The block closes right after: the body starts past the closing fence.
    match lines.next().map(str::trim_end) {
        Some("```") => (Some(parse(&raw)), read + 3),
        _ => (None, 0),
    }
}

/// Whether a line is a TOML `key = value` line: a bare key, ` = `, a value.
fn toml_line(line: &str) -> bool {
    let Some((key, value)) = line.split_once('=') else {
        return false;
    };
    let key = key.trim_end();
    !key.is_empty()
        && key.len() + 1 < line.len()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
        && !value.trim().is_empty()
}

/// TOML frontmatter from `lines` (after an opening fence, `skipped` lines before them) to
/// the `fence` line: each line a `key = value` line, a blank one or a comment. `None` when
/// another line comes first (a document starting `a = b` in prose) or no fence closes it.
fn split_toml<'a>(
    lines: impl Iterator<Item = &'a str>,
    fence: &str,
    skipped: usize,
) -> (Option<Frontmatter>, usize) {
    let mut raw = String::new();
    for (i, line) in lines.enumerate() {
        let t = line.trim_end();
        if t == fence {
            return (Some(parse_toml(&raw)), i + skipped + 1);
        }
        let open = fence == "+++";
        if !(open || t.is_empty() || t.starts_with('#') || toml_line(t)) {
            return (None, 0);
        }
        raw.push_str(line);
        raw.push('\n');
    }
    (None, 0)
}

fn parse_toml(raw: &str) -> Frontmatter {
    let fields = match raw.parse::<toml::Table>() {
        Ok(table) => table
            .into_iter()
            .filter_map(|(k, v)| toml_value(v).map(|v| (normalise_key(&k), v)))
            .collect(),
        Err(e) => {
            // Its `key = "value"` lines, as YAML's fallback reads `key: value` ones.
            let fields = raw
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| {
                    // One pair of quotes around it; a stray one inside is dropped
                    // (`"SIP 012 - "Signing the releases"`).
                    let v = v.trim();
                    let v = v.strip_prefix('"').unwrap_or(v);
                    let v = v.strip_suffix('"').unwrap_or(v);
                    let v = match v.matches('"').count() % 2 {
                        0 => v.to_string(),
                        _ => v.replace('"', ""),
                    };
                    (normalise_key(k.trim()), Value::Scalar(v))
                })
                .collect();
            return Frontmatter {
                fields,
                raw: raw.to_string(),
                invalid: Some(e.message().to_string()),
                toml: true,
            };
        }
    };
    Frontmatter {
        fields,
        raw: raw.to_string(),
        invalid: None,
        toml: true,
    }
}

/// A TOML value as a frontmatter value: a scalar, a list of scalars, a list of tables of
/// scalars; `None` for a table.
fn toml_value(v: toml::Value) -> Option<Value> {
    let scalar = |v: &toml::Value| match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        toml::Value::Datetime(d) => Some(d.to_string()),
        _ => None,
    };
    match &v {
        toml::Value::Array(items) if items.iter().all(|i| i.is_table()) => Some(Value::Maps(
            items
                .iter()
                .filter_map(|i| i.as_table())
                .map(|t| {
                    t.iter()
                        .filter_map(|(k, v)| scalar(v).map(|v| (normalise_key(k), v)))
                        .collect()
                })
                .collect(),
        )),
        toml::Value::Array(items) => Some(Value::List(items.iter().filter_map(scalar).collect())),
        toml::Value::Table(_) => None,
        other => scalar(other).map(Value::Scalar),
    }
}

fn parse(raw: &str) -> Frontmatter {
    if let Some(fields) = simple(raw) {
        return Frontmatter {
            fields,
            raw: raw.to_string(),
            invalid: None,
            toml: false,
        };
    }
    // Aliases are expanded by the loader: a few hundred bytes of nested aliases would take
    // gigabytes. Counted first, without expanding (ADR-0011).
    if expanded_nodes(raw) > MAX_YAML_NODES {
        return Frontmatter {
            fields: fallback(raw),
            raw: raw.to_string(),
            invalid: Some(format!(
                "its aliases expand to more than {MAX_YAML_NODES} nodes"
            )),
            toml: false,
        };
    }
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
                toml: false,
            }
        }
        Err(e) => Frontmatter {
            fields: fallback(raw),
            raw: raw.to_string(),
            invalid: Some(e.to_string()),
            toml: false,
        },
    }
}

/// How many nodes a frontmatter may hold once its aliases are expanded: far more than any
/// record's, far fewer than an alias bomb's.
pub const MAX_YAML_NODES: u64 = 10_000;

/// How many nodes `raw` holds with every alias expanded, counted from the parser's events in
/// one pass (an alias counts the size of what it names); saturating. A document that does not
/// parse counts what came before the error (the loader then reports it).
fn expanded_nodes(raw: &str) -> u64 {
    use yaml_rust2::parser::{Event, EventReceiver, Parser};
    #[derive(Default)]
    struct Count {
        /// Open collections: their anchor and their size so far.
        open: Vec<(usize, u64)>,
        /// Each anchor's size.
        anchors: std::collections::HashMap<usize, u64>,
        total: u64,
    }
    impl Count {
        fn add(&mut self, n: u64) {
            match self.open.last_mut() {
                Some((_, size)) => *size = size.saturating_add(n),
                None => self.total = self.total.saturating_add(n),
            }
        }
    }
    impl EventReceiver for Count {
        fn on_event(&mut self, ev: Event) {
            match ev {
                Event::Scalar(_, _, anchor, _) => {
                    if anchor > 0 {
                        self.anchors.insert(anchor, 1);
                    }
                    self.add(1);
                }
                Event::Alias(anchor) => {
                    let n = self.anchors.get(&anchor).copied().unwrap_or(1);
                    self.add(n);
                }
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    self.open.push((anchor, 1));
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    if let Some((anchor, size)) = self.open.pop() {
                        if anchor > 0 {
                            self.anchors.insert(anchor, size);
                        }
                        self.add(size);
                    }
                }
                _ => {}
            }
        }
    }
    let mut count = Count::default();
    let _ = Parser::new_from_str(raw).load(&mut count, false);
    let open: u64 = count.open.iter().map(|(_, n)| *n).sum();
    count.total.saturating_add(open)
}

/// The common frontmatter, read without a YAML parser: `key: value` lines whose values are
/// plain or simply quoted scalars, flow lists of those, or block lists of those. `None` for
/// anything else (which then goes to the YAML parser). Plain scalars are typed exactly as the
/// YAML parser types them, so both paths give the same fields.
fn simple(raw: &str) -> Option<BTreeMap<String, Value>> {
    let mut fields = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut list: Option<(String, Vec<String>)> = None;
    let close = |list: &mut Option<(String, Vec<String>)>, fields: &mut BTreeMap<String, Value>| {
        if let Some((key, items)) = list.take() {
            if !items.is_empty() {
                fields.insert(key, Value::List(items));
            }
        }
    };
    for line in raw.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or((trimmed == "-").then_some(""))
        {
            let (_, items) = list.as_mut()?;
            if let Some(v) = simple_scalar(item.trim())? {
                items.push(v);
            }
            continue;
        }
        if line.starts_with(char::is_whitespace) {
            return None;
        }
        let (key, rest) = line.split_once(':')?;
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
            || !seen.insert(key.to_string())
        {
            return None;
        }
        close(&mut list, &mut fields);
        let value = rest.trim();
        if !rest.is_empty() && !rest.starts_with(' ') {
            return None;
        }
        if value.is_empty() {
            list = Some((normalise_key(key), Vec::new()));
        } else if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            let mut items = Vec::new();
            for piece in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                if let Some(v) = simple_scalar(piece)? {
                    items.push(v);
                }
            }
            fields.insert(normalise_key(key), Value::List(items));
        } else if let Some(v) = simple_scalar(value)? {
            fields.insert(normalise_key(key), Value::Scalar(v));
        }
    }
    close(&mut list, &mut fields);
    Some(fields)
}

/// One scalar as the YAML parser would read it: `Some(None)` for null, `None` when it is not
/// simple enough to be sure.
fn simple_scalar(v: &str) -> Option<Option<String>> {
    let quoted = |q: char| {
        v.strip_prefix(q)
            .and_then(|r| r.strip_suffix(q))
            .filter(|inner| !inner.contains(q) && !inner.contains('\\'))
    };
    if v.starts_with('"') {
        return quoted('"').map(|s| Some(s.to_string()));
    }
    if v.starts_with('\'') {
        return quoted('\'').map(|s| Some(s.to_string()));
    }
    let special_start = v.starts_with([
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`',
    ]);
    if special_start
        || v.ends_with(':')
        || v.contains(": ")
        || v.contains(" #")
        || v.contains(['[', ']', '{', '}'])
    {
        return None;
    }
    Some(scalar(&Yaml::from_str(v)))
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
        Yaml::Array(items)
            if !items.is_empty() && items.iter().all(|i| matches!(i, Yaml::Hash(_))) =>
        {
            Some(Value::Maps(
                items
                    .iter()
                    .filter_map(|i| match i {
                        Yaml::Hash(h) => Some(
                            h.iter()
                                .filter_map(|(k, v)| Some((normalise_key(&scalar(k)?), scalar(v)?)))
                                .collect(),
                        ),
                        _ => None,
                    })
                    .collect(),
            ))
        }
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
mod tests;
