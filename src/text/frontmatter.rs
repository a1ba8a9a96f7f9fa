//! YAML frontmatter: the block between a first `---` line and the next `---` or `...` line.
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
    if let Some(fields) = simple(raw) {
        return Frontmatter {
            fields,
            raw: raw.to_string(),
            invalid: None,
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
            }
        }
        Err(e) => Frontmatter {
            fields: fallback(raw),
            raw: raw.to_string(),
            invalid: Some(e.to_string()),
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
    fn an_alias_bomb_is_refused_before_it_is_expanded() {
        let mut raw = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..12 {
            let prev = if i == 0 {
                "a".to_string()
            } else {
                format!("b{}", i - 1)
            };
            let refs = vec![format!("*{prev}"); 10].join(", ");
            raw.push_str(&format!("b{i}: &b{i} [{refs}]\n"));
        }
        raw.push_str("governs: [src/]\n");
        let text = format!("---\n{raw}---\n# T\n");
        let started = std::time::Instant::now();
        let (fm, _) = split(&text);
        let fm = fm.expect("frontmatter");
        assert!(
            fm.invalid.as_deref().is_some_and(|w| w.contains("aliases")),
            "{:?}",
            fm.invalid
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        // A few aliases, as records use them, are read as YAML.
        let (fm, _) = split("---\nx: &x [a, b]\ny: *x\nz: {k: v}\n---\n");
        assert!(fm.expect("frontmatter").invalid.is_none());
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
    fn the_simple_reader_agrees_with_the_yaml_parser() {
        let docs = [
            "id: 0012\ntitle: Use X\nstatus: accepted\ndate: 2024-01-05\n",
            "title: \"Quoted: yes\"\nsupersedes: [3, ADR-4, '5']\n",
            "superseded_by:\n  - 0009\n  - ADR-10\nreplaces:\n",
            "flag: True\nn: +12\nx: 0x1f\nf: 1.5\nz: ~\nnothing:\n# comment\n",
            "tags: []\nauthor: Ana O'Neil\n",
        ];
        for doc in docs {
            let fast = simple(doc).expect("simple enough");
            let slow = match YamlLoader::load_from_str(doc).unwrap().into_iter().next() {
                Some(Yaml::Hash(hash)) => hash
                    .iter()
                    .filter_map(|(k, v)| Some((normalise_key(&scalar(k)?), value(v)?)))
                    .collect::<BTreeMap<_, _>>(),
                _ => BTreeMap::new(),
            };
            assert_eq!(fast, slow, "{doc}");
        }
        for not_simple in [
            "a: b: c\n",
            "a: |\n  x\n",
            "a: \"x\\\"y\"\n",
            "  indented: 1\n",
            "a: 1\na: 2\n",
        ] {
            assert!(simple(not_simple).is_none(), "{not_simple}");
        }
    }

    #[test]
    fn lists_of_maps_are_read() {
        let text = "---\naffects:\n  - type: path\n    pattern: \"src/**\"\n  - type: doc\n    url: x\n  - {type: path, pattern: lib/, negate: true}\n---\n";
        let fm = split(text).0.unwrap();
        let Value::Maps(maps) = &fm.fields["affects"] else {
            panic!("{:?}", fm.fields)
        };
        assert_eq!(maps.len(), 3);
        assert_eq!(maps[0]["pattern"], "src/**");
        assert_eq!(maps[2]["negate"], "true");
        assert_eq!(maps[1]["type"], "doc");
    }

    #[test]
    fn no_closing_fence_is_no_frontmatter() {
        assert!(split("---\ntitle: x\n").0.is_none());
    }
}
