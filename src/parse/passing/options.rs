//! Options a record weighed: the sections that hold them, and the one it chose (docs/reading.md,
//! "Named in passing": a path in an option that was not chosen). Pure text.

use super::norm;
use regex::Regex;
use std::sync::OnceLock;

/// The option a record chose, normalised: MADR's `Chosen option: "Use X"`, else the first line
/// of its Decision section when that names a numbered option (`Option 1: New SNI format`, "We
/// chose option B").
pub(super) fn chosen_option(text: &str) -> Option<String> {
    madr_choice(text).or_else(|| decided_option(text))
}

/// MADR's `Chosen option: "Use X"`, normalised.
fn madr_choice(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r#"(?i)chosen\s+(?:option|alternative)s?\s*[:\-–]?\s*[*_]*\s*["“'`]?([^"”'`\n,(]+)"#,
        )
        .expect("regex")
    });
    let c = re.captures(text)?;
    let n = norm(c.get(1)?.as_str());
    (n.len() >= 3).then_some(n)
}

/// A section of options: `Some(true)` when it holds only what was not chosen (Alternatives,
/// Rejected…), `Some(false)` when the chosen one may be among them (MADR's Considered Options,
/// Pros and Cons of the Options).
pub(super) fn options_like(heading: &str) -> Option<bool> {
    let h = norm(heading);
    if h.contains("considered option")
        || h.contains("options considered")
        || h.contains("pros and cons")
        || h.contains("considered alternative")
    {
        return Some(false);
    }
    (h.contains("alternative")
        || h.contains("rejected")
        || h.contains("discarded")
        || h.contains("other options")
        || h.contains("not chosen"))
    .then_some(true)
}

/// A numbered option, by the words that start `text` (a heading or a line): `Option 2: …`,
/// `Alternative B -`, `Approach 3`, as `option 2`; `None` for any other text.
pub(super) fn option_named(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)^[\s#*_]*(?:we\s+(?:chose|choose|go\s+with|picked?|selected?|adopt(?:ed)?)\s+)?(option|alternative|approach)\s+#?([0-9]{1,2}|[a-z])(?:\s*[:.,;)\-–—]|\s*$|\s+\()",
        )
        .expect("regex")
    });
    let c = re.captures(text.trim())?;
    Some(format!(
        "{} {}",
        c[1].to_ascii_lowercase(),
        c[2].to_ascii_lowercase()
    ))
}

/// The first line of the record's Decision section, normalised, when it names a numbered
/// option ([`option_named`]).
fn decided_option(text: &str) -> Option<String> {
    let mut lines = text.lines();
    lines.find(|l| {
        let h = l.trim_start();
        h.starts_with('#') && {
            let words = norm(h);
            words == "decision" || words == "decision outcome"
        }
    })?;
    let first = lines.map(str::trim).find(|l| !l.is_empty())?;
    option_named(first)?;
    Some(norm(first))
}

/// The numbered option a normalised choice names in its first words (`option 1 new sni
/// format`, `we chose option b for now`), as [`option_named`] names it.
pub(super) fn chosen_label(chosen: &str) -> Option<String> {
    let words: Vec<&str> = chosen.split(' ').take(5).collect();
    words.windows(2).find_map(|w| {
        let (kind, id) = (w[0], w[1]);
        let numbered = matches!(kind, "option" | "alternative" | "approach")
            && ((id.len() <= 2 && id.bytes().all(|b| b.is_ascii_digit()))
                || (id.len() == 1 && id.bytes().all(|b| b.is_ascii_lowercase())));
        numbered.then(|| format!("{kind} {id}"))
    })
}
