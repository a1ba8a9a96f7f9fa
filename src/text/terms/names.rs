//! Names written as names (ADR-0017): a product's or a tool's capitalised name, Go's
//! `package.Name`, code spans listed as values, and the programming languages a line names.

use super::key;
use super::words::{is_common, is_placeholder, is_stop};
use std::collections::HashSet;

/// The folders a multi-language repository keeps its ports in, and the words that name each
/// port's language in prose (compared in lower case, as whole words).
pub const LANGUAGE_PORTS: &[(&str, &[&str])] = &[
    ("python", &["python"]),
    ("dotnet", &[".net", "dotnet", "c#", "csharp"]),
    ("java", &["java"]),
    ("typescript", &["typescript"]),
    ("javascript", &["javascript"]),
    ("rust", &["rust"]),
    ("ruby", &["ruby"]),
    ("kotlin", &["kotlin"]),
    ("swift", &["swift"]),
    ("golang", &["golang"]),
];

/// The ports whose language `line` names (by the port's folder name).
pub(super) fn languages_of(line: &str) -> Vec<&'static str> {
    let lower = line.to_ascii_lowercase();
    let mut out = Vec::new();
    for (port, words) in LANGUAGE_PORTS {
        let named = words.iter().any(|w| {
            lower.match_indices(w).any(|(at, _)| {
                let before = lower[..at].chars().next_back();
                let after = lower[at + w.len()..].chars().next();
                // `.net` must not be a domain's end (`dotnet.microsoft.com` aside, `x.net/`).
                let word =
                    |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
                word(after)
                    && (w.starts_with('.') || word(before))
                    && !(w.starts_with('.') && before.is_some_and(|c| c.is_ascii_alphanumeric()))
            })
        });
        if named {
            out.push(*port);
        }
    }
    out
}

/// A prose token written as a product's or a tool's name: capitalised, three letters or
/// more with a lower-case one, not a common word, no `_` or `-` (`Lambda`, `DocumentDB`,
/// `ESLint`, `Next.js`; not an acronym, `VPC`, `EC2`, an acronym's plural, `APIs`, `CRDs`,
/// nor `external-dns`).
pub(super) fn is_product(token: &str) -> bool {
    let name = product_key(token);
    // `Next.js` is a product even though `next` is a common word.
    let product = name.len() < token.len();
    let acronyms = name
        .strip_suffix('s')
        .is_some_and(|a| a.len() >= 2 && a.chars().all(|c| c.is_ascii_uppercase()));
    !acronyms
        && name.len() >= 3
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && (product || !is_stop(&key(name)))
        && !is_placeholder(name)
}

/// The capitalised words of `prose` written next to another (`Corporate Information Pages`,
/// `Copilot Studio`): words of a longer name, not names of their own. Common words do not
/// count (`Use Lerna`).
pub(super) fn in_longer_names(prose: &str) -> HashSet<&str> {
    let words: Vec<&str> = prose.split_whitespace().collect();
    fn capital(w: &str) -> Option<&str> {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.');
        let core = core.trim_end_matches('.');
        (core.starts_with(|c: char| c.is_ascii_uppercase()) && !is_stop(&key(product_key(core))))
            .then_some(core)
    }
    let mut out = HashSet::new();
    for pair in words.windows(2) {
        // Punctuation between them ends the name.
        let joined = !pair[0].ends_with([',', ';', ':', '.', ')', '!', '?', '|'])
            && !pair[1].starts_with(['(', '|']);
        if let (true, Some(a), Some(b)) = (joined, capital(pair[0]), capital(pair[1])) {
            out.insert(a);
            out.insert(b);
        }
    }
    out
}

/// A name written as Go writes a package's exported name: `package.Name`, the package in
/// lower case, the name capitalised (`confmap.Provider`; not `agent.id`, `Azure.AI`).
pub fn go_qualified(text: &str) -> Option<(&str, &str)> {
    let (package, name) = text.split_once('.')?;
    let package_ok = package.len() >= 2
        && package.starts_with(|c: char| c.is_ascii_lowercase())
        && package
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let name_ok = name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric());
    (package_ok && name_ok).then_some((package, name))
}

/// A product's name without its `.js` (`Next.js` is `Next`).
pub fn product_key(token: &str) -> &str {
    token.strip_suffix(".js").unwrap_or(token)
}

/// The code spans of `line` listed three or more in a row, separated only by commas, slashes,
/// bars, `and` or `or` (`` `a`, `b` and `c` ``, `` `x` / `y` / `z` ``).
pub(super) fn enumerated(line: &str) -> HashSet<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static SPAN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if line.matches('`').count() < 6 {
        return HashSet::new();
    }
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"(?:`[^`]+`\s*(?:,|/|\||\band\b|\bor\b)\s*){2,}`[^`]+`").expect("regex")
    });
    let span = SPAN.get_or_init(|| regex::Regex::new(r"`([^`]+)`").expect("regex"));
    re.find_iter(line)
        .flat_map(|m| span.captures_iter(m.as_str()))
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect()
}

/// The products a record's title names: a capitalised word after the first (not a
/// sentence's first word) in a title written in sentence case ("Use Dex IdP for
/// authentication"), or ending a run of capitalised words after an acronym ("Adopt OPA
/// Gatekeeper"); not in a title whose every word is capitalised ("Table Compaction"), nor a
/// common word or a language (`Python` of "… Semantic Kernel Python").
pub fn title_products(title: &str) -> Vec<&str> {
    let words: Vec<&str> = title
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '.'))
        .map(|w| w.trim_end_matches('.'))
        .collect();
    let capital = |w: &str| w.starts_with(|c: char| c.is_ascii_uppercase());
    // The first word of the title proper (after a number: "1. Use Dex").
    let first = words
        .iter()
        .position(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap_or(0);
    let acronym = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase());
    let sentence_case = words.iter().skip(first + 1).any(|w| {
        w.len() >= 3 && w.starts_with(|c: char| c.is_ascii_lowercase()) && !is_stop(&key(w))
    });
    words
        .iter()
        .enumerate()
        .skip(first + 1)
        .filter(|(i, w)| {
            let name = product_key(w);
            let last_of_run = words.get(i + 1).is_none_or(|n| !capital(n));
            let after_acronym = words.get(i - 1).is_some_and(|b| acronym(b));
            (sentence_case || last_of_run && after_acronym)
                && name.len() >= 3
                && capital(name)
                && name.chars().all(|c| c.is_ascii_alphanumeric())
                && name.chars().any(|c| c.is_ascii_lowercase())
                && !is_common(&key(name))
                && !is_stop(&key(name))
                && !LANGUAGE_PORTS
                    .iter()
                    .any(|(p, names)| *p == key(name) || names.contains(&key(name).as_str()))
        })
        .map(|(_, w)| *w)
        .collect()
}
