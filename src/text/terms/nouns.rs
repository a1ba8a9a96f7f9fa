//! The nouns beside a name (ADR-0017): the kind of thing the prose says a name is (`` the
//! `aws_s3` source ``), the units of code and the types it calls a word, the controllers it
//! names, and the folders it names as folders.

use super::names::LANGUAGE_PORTS;
use super::words::{is_english, is_placeholder, is_stop, singular};
use super::{classify, key, Kind};
use crate::text::line_marks::AfterLists;

/// The nouns a name at `start..end` of `line` (a code span's contents, or a prose token) has
/// beside it: the word after it, past its closing backticks and any names listed with it
/// (`` `dedupe`, `filter` or `sample` transforms ``), and the word before it, past its
/// opening backticks and a "called" or "named" (`a source called `x``). Keys, singular;
/// common words are none. `lists` keeps, for the line, what follows each list of spans
/// walked, so a line's names walk each list once.
pub(super) fn nouns_beside(
    line: &str,
    start: usize,
    end: usize,
    lists: &mut AfterLists,
) -> Vec<String> {
    let mut out = Vec::new();
    let heading = line.trim_start().starts_with('#');
    let mut rest = line[end..].trim_start_matches('`');
    // The listed spans walked past, by where each starts in `line`.
    let mut walked = Vec::new();
    let after = loop {
        let trimmed = rest.trim_start_matches([' ', ',', '/', '\t']);
        if let Some(after) = ["and ", "or ", "nor "]
            .iter()
            .find_map(|w| trimmed.strip_prefix(w))
        {
            rest = after;
            continue;
        }
        if let Some(span) = trimmed.strip_prefix('`') {
            let at = trimmed.as_ptr() as usize - line.as_ptr() as usize;
            if let Some(known) = lists.get(at) {
                break known.clone();
            }
            walked.push(at);
            match span.find('`') {
                Some(close) => {
                    rest = span[close..].trim_start_matches('`');
                    continue;
                }
                None => break None,
            }
        }
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let ends = trimmed[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '`' | '\'')));
        // A capitalised word after a name is a product's or a person's, not a kind of
        // code (`vector-aggregator Helm chart`), but in a heading (`` `throttle` Transform ``).
        if ends && (heading || !word.starts_with(|c: char| c.is_ascii_uppercase())) {
            break noun(&word);
        }
        break None;
    };
    lists.keep(&walked, &after);
    out.extend(after);
    let before = line[..start].trim_end_matches('`').trim_end();
    let word = last_word(before);
    let word = match word.to_ascii_lowercase().as_str() {
        "called" | "named" => last_word(before[..before.len() - word.len()].trim_end()),
        _ => word,
    };
    if heading || !word.starts_with(|c: char| c.is_ascii_uppercase()) {
        out.extend(noun(word));
    }
    out
}

/// The run of ASCII letters `text` ends with, when a word ends there.
fn last_word(text: &str) -> &str {
    let from = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphabetic())
        .last()
        .map_or(text.len(), |(at, _)| at);
    let word = &text[from..];
    match text[..from].chars().next_back() {
        Some(c) if c.is_alphanumeric() || matches!(c, '_' | '-' | '.') => "",
        _ => word,
    }
}

/// A word as a noun of kind: its key in the singular, unless it is a common word or says
/// what a name is in the language (`type`, `class`, `function`), not where its code lies.
pub(super) fn noun(word: &str) -> Option<String> {
    #[rustfmt::skip]
    const CONSTRUCTS: &[&str] = &[
        "type", "struct", "trait", "enum", "class", "interface", "function", "method", "field",
        "object", "variable", "value", "macro", "constant", "attribute", "property",
        "parameter", "argument", "instance", "file", "folder", "directory", "name", "key",
        "call", "test", "example", "sample", "option", "setting", "flag", "string", "note",
    ];
    // Written as one word, a back-end is a kind of code (`` the `pg` backend ``): the
    // hyphenated prose of the same key is English.
    const KINDS: &[&str] = &["backend", "frontend"];
    let word = word.trim_matches(|c: char| !c.is_ascii_alphabetic());
    let k = singular(&key(word));
    (word.len() >= 3
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && (KINDS.contains(&k.as_str()) || !is_english(&key(word)) && !is_english(&k))
        && !CONSTRUCTS.contains(&k.as_str()))
    .then_some(k)
}

/// The nouns that say a word before them names a unit of code: a package, a crate, a module.
const UNIT_NOUNS: &[&str] = &[
    "component",
    "components",
    "crate",
    "crates",
    "package",
    "packages",
    "module",
    "modules",
    "library",
    "gem",
    "plugin",
    "extension",
];

/// The nouns that say the name before them is a controller's (a Kubernetes operator's
/// reconciling loop, each in a folder of its name among the controllers), as a key.
pub(super) const CONTROLLER_NOUNS: &[&str] = &["controller", "reconciler"];

/// Words that say which kind of controller, not which one: "an external controller", "the
/// managed reconciler" (crossplane-runtime's, used by every provider).
const CONTROLLER_QUALITIES: &[&str] = &[
    "external",
    "internal",
    "custom",
    "generic",
    "default",
    "separate",
    "dedicated",
    "standard",
    "native",
    "main",
    "core",
    "central",
    "single",
    "individual",
    "underlying",
    "upstream",
    "downstream",
    "dummy",
    "fake",
    "mock",
    "sample",
    "simple",
    "old",
    "legacy",
];

/// The names `prose` calls controllers: a word (or a capitalised word after another, "Node
/// Health") right before "controller" or "reconciler" ("the Usage controller", "the
/// WatchOperation controller"). Not a common word, a placeholder or a language's name; not
/// a quality ("an external controller", "the managed reconciler"); not a word a lower-case
/// word before it qualifies ("the infrastructure machine controller" is a provider's, "the
/// resource claim controller" is no `claim/`), nor a program ("the provider controller
/// manager"). `before` is the last word of the line before, for a name starting the line.
pub(super) fn controllers(prose: &str, before: Option<&str>) -> Vec<String> {
    let words: Vec<&str> = prose.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (at, pair) in words.windows(2).enumerate() {
        let noun = pair[1].trim_end_matches([',', '.', ';', ':', ')', '!', '?', '\'']);
        let noun = noun.strip_suffix("'s").unwrap_or(noun).to_ascii_lowercase();
        let noun = noun.strip_suffix('s').unwrap_or(&noun);
        if !CONTROLLER_NOUNS.contains(&noun) {
            continue;
        }
        let word = pair[0];
        let k = key(word);
        let plain = |w: &str| {
            w.len() >= 3
                && w.chars().all(|c| c.is_ascii_alphanumeric())
                && w.starts_with(|c: char| c.is_ascii_alphabetic())
                && !is_stop(&key(w))
                && !is_placeholder(w)
        };
        let lower = word.to_ascii_lowercase();
        if !plain(word)
            || CONTROLLER_QUALITIES.contains(&lower.as_str())
            || (lower.len() > 4 && lower.ends_with("ed"))
            || LANGUAGE_PORTS
                .iter()
                .any(|(port, said)| *port == k || said.contains(&k.as_str()))
        {
            continue;
        }
        if words
            .get(at + 2)
            .is_some_and(|w| w.to_ascii_lowercase().starts_with("manager"))
        {
            continue;
        }
        let capital = |w: &str| w.starts_with(|c: char| c.is_ascii_uppercase());
        match at.checked_sub(1).map(|b| words[b]).or(before) {
            Some(before) if capital(word) && capital(before) && plain(before) => {
                out.push(format!("{before} {word}"));
            }
            Some(before)
                if before.len() >= 3
                    && before.chars().all(|c| c.is_ascii_lowercase())
                    && !is_english(&key(before)) => {}
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The nouns that say a capitalised word before them names a type.
const TYPE_NOUNS: &[&str] = &[
    "type",
    "types",
    "struct",
    "structs",
    "class",
    "classes",
    "interface",
    "interfaces",
    "trait",
    "traits",
    "enum",
    "enums",
    "protocol",
    // An ORM's class: "the Domain model", "a Redirect model" (Django's, Rails').
    "model",
    "models",
];

/// The words of `prose` written right before a noun of a unit of code ("the Suggest
/// component", "the places crate": [`Kind::Unit`]), and the capitalised ones written right
/// before a noun of a type ("an Optional type": [`Kind::Type`]). Not a common word, a
/// placeholder, a language's name (`Python package`), a word after a name it qualifies
/// (`Copilot Studio plugin`), nor a compound name (read as such already).
pub(super) fn units_and_types(prose: &str) -> Vec<(&str, Kind)> {
    let words: Vec<&str> = prose.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (at, pair) in words.windows(2).enumerate() {
        let (word, noun) = (pair[0], pair[1]);
        let noun = noun.trim_end_matches([',', '.', ';', ':', ')', '!', '?']);
        let unit = UNIT_NOUNS.contains(&noun);
        let of_type = TYPE_NOUNS.contains(&noun);
        if !(unit || of_type) || !word.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let k = key(word);
        let language = LANGUAGE_PORTS
            .iter()
            .any(|(port, said)| *port == k || said.contains(&k.as_str()));
        let capital = word.starts_with(|c: char| c.is_ascii_uppercase());
        // A capitalised word after another is a longer name's (`Copilot Studio`).
        let after_name = at > 0
            && words[at - 1].starts_with(|c: char| c.is_ascii_uppercase())
            && !is_stop(&key(words[at - 1]));
        if word.len() < 3
            || is_stop(&k)
            || is_placeholder(word)
            || language
            || after_name
            || !word.starts_with(|c: char| c.is_ascii_alphabetic())
            || classify(word) == Some(Kind::Identifier)
        {
            continue;
        }
        if unit {
            out.push((word, Kind::Unit));
        } else if capital && word.chars().any(|c| c.is_ascii_lowercase()) {
            out.push((word, Kind::Type));
        }
    }
    out
}

/// The folders a line names as folders: "the projects directory", "the `lambda` folder".
pub(super) fn named_folders(line: &str) -> Vec<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\bthe\s+`?([a-z_][a-z0-9_.-]*[a-z0-9])`?\s+(?:directory|folder|dir)\b",
        )
        .expect("regex")
    });
    // Most lines name no folder: the regex only where one of its words is.
    let lower = line.to_ascii_lowercase();
    if !(lower.contains("director") || lower.contains("folder") || lower.contains(" dir")) {
        return Vec::new();
    }
    re.captures_iter(line)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|w| !is_placeholder(w) && key(w).len() >= 3)
        .collect()
}
