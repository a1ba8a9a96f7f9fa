//! Command lines (ADR-0017): a program and its first subcommand in a code span the title
//! names, and the command lines of a record's spans and fenced blocks; the resource kinds its
//! fenced YAML shows (`kind: NginxGateway`).

use super::{key, Kind, Term};
use std::collections::HashSet;

/// A command line in a code span, the program and its first subcommand, when that subcommand
/// is a word of the record's title (`title_words`, by [`key`]): `jj sparse` of
/// `jj sparse set --add foo/bar` in a record titled "Sparse Patterns". The program and its
/// subcommands are lower-case names; an option or an argument ends them. A command the title
/// does not name is not one the record is about (`jj log` said in passing, `git bisect run`
/// in a record titled "run"): `None`. A title word by itself is still no
/// term (docs/mentions.md); here it only picks which command of the record's the record is.
pub(super) fn command(span: &str, title_words: &HashSet<String>) -> Option<String> {
    let words: Vec<&str> = span
        .split(' ')
        .take_while(|w| {
            w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-'))
        })
        .collect();
    if words.len() < 2 || !span.contains(' ') {
        return None;
    }
    title_words
        .contains(&key(words[1]))
        .then(|| words[..2].join(" "))
}

/// The command line `text` starts (past a shell prompt, `$ `): a program and one to four
/// subcommand words after it, each lower case (`flux push artifact` of `flux push artifact
/// oci://x:v1 --path=.`), ending at the first option, argument or other character. `None`
/// when there is no subcommand word.
pub fn invocation(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.strip_prefix("$ ").unwrap_or(text).trim_start();
    let mut words = Vec::new();
    for w in text.split(' ') {
        let plain = w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !plain || words.len() == 5 {
            break;
        }
        words.push(w);
    }
    (words.len() >= 2).then(|| words.join(" "))
}

/// The command lines in a record's fenced code blocks ([`invocation`]), each once at its first
/// line: what a shell block shows being run.
pub fn invocations(fenced: &[(usize, &str)]) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    for &(i, line) in fenced {
        if let Some(call) = invocation(line) {
            if !out.iter().any(|t| t.text == call) {
                out.push(Term {
                    text: call,
                    line: i as u32 + 1,
                    kind: Kind::Invocation,
                    nouns: Vec::new(),
                    coded: 0,
                });
            }
        }
    }
    out
}

/// The resource kinds a record's fenced blocks show (a `kind: NginxGateway` line of a
/// Kubernetes manifest, a list item's `- kind: SnippetsFilter`): each a [`Kind::Type`] at its
/// first line, a name of two words or more that starts with a capital and holds a lower-case
/// letter. A kind the repository defines (`type NginxGateway struct` in
/// `nginxgateway_types.go`) names that file (ADR-0017); one defined elsewhere
/// (`ConfigMap`, `HTTPRoute`) names nothing.
pub fn kinds(fenced: &[(usize, &str)]) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    for &(i, line) in fenced {
        let t = line.trim_start().trim_start_matches("- ").trim_start();
        let Some(value) = t.strip_prefix("kind:") else {
            continue;
        };
        let name = value.trim().trim_matches(|c| c == '"' || c == '\'');
        // Two words or more: a one-word kind (`Secret`, `Service`, `Gateway`) is the
        // platform's own, which a project's type of that name only wraps.
        let capitals = name.chars().filter(char::is_ascii_uppercase).count();
        let shaped = name.len() >= 3
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.chars().any(|c| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric())
            && capitals >= 2;
        if shaped && !out.iter().any(|k| k.text == name) {
            out.push(Term {
                text: name.to_string(),
                line: i as u32 + 1,
                kind: Kind::Type,
                nouns: Vec::new(),
                // A manifest's line is code: the kind is written as code once.
                coded: 1,
            });
        }
    }
    out
}
