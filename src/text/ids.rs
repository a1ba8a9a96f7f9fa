//! Record ids and the mentions of them in text (docs/reading.md, ADR-0001).

use regex::Regex;
use std::sync::OnceLock;

/// The prefix a record's folder gives its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Prefix {
    Adr,
    Rfc,
    Dr,
}

impl Prefix {
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::Adr => "ADR",
            Prefix::Rfc => "RFC",
            Prefix::Dr => "DR",
        }
    }

    /// A folder path containing `adr` or `decision` (any case) gives ADR, `rfc` gives RFC,
    /// anything else DR.
    pub fn for_folder(folder: &str) -> Prefix {
        let lower = folder.to_ascii_lowercase();
        if lower.contains("adr") || lower.contains("decision") {
            Prefix::Adr
        } else if lower.contains("rfc") {
            Prefix::Rfc
        } else {
            Prefix::Dr
        }
    }

    /// The prefix of the record file `rel` (root-relative) by its folder's path, or, when the
    /// folder names no kind, by the kind its file name starts with (`adr-027-x.md` in
    /// `docs/architecture` is ADR-0027, as its authors call it: docs/reading.md).
    pub fn for_record(rel: &str) -> Prefix {
        let (folder, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        match Prefix::for_folder(folder) {
            Prefix::Dr => {
                let lower = name.to_ascii_lowercase();
                let starts = |kind: &str| {
                    lower.strip_prefix(kind).is_some_and(|rest| {
                        rest.starts_with(['-', '_'])
                            && rest[1..].starts_with(|c: char| c.is_ascii_digit())
                    })
                };
                if starts("adr") {
                    Prefix::Adr
                } else if starts("rfc") {
                    Prefix::Rfc
                } else {
                    Prefix::Dr
                }
            }
            p => p,
        }
    }

    /// The prefix a mention spells; `DD` means `DR`.
    pub fn from_mention(word: &str) -> Option<Prefix> {
        match word.to_ascii_uppercase().as_str() {
            "ADR" => Some(Prefix::Adr),
            "RFC" => Some(Prefix::Rfc),
            "DR" | "DD" => Some(Prefix::Dr),
            _ => None,
        }
    }
}

/// `ADR-0007`: at least four digits, zero-padded; longer numbers stay as they are.
pub fn format_id(prefix: Prefix, digits: &str) -> String {
    let trimmed = digits.trim_start_matches('0');
    let number = if trimmed.is_empty() { "0" } else { trimmed };
    format!("{}-{:0>4}", prefix.as_str(), number)
}

/// The next mention at or after `from`: the byte range of
/// `(?i)\b(ADR|RFC|DR|DD)[-_ ]?[0-9]+\b` (ASCII word boundaries), found by hand: a regex
/// for it costs a compile in every process, which a one-commit refresh noticed.
fn next_mention(text: &str, mut from: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while from < b.len() {
        let i = from;
        from += 1;
        if i > 0 && word(b[i - 1]) {
            continue;
        }
        let rest = &b[i..];
        let letters = ["ADR", "RFC", "DR", "DD"]
            .iter()
            .find(|p| rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
            .map(|p| p.len());
        let Some(mut j) = letters.map(|n| i + n) else {
            continue;
        };
        if j < b.len() && matches!(b[j], b'-' | b'_' | b' ') {
            j += 1;
        }
        let digits = b[j..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = j + digits;
        // `RFC 2023-05-02 - …` names a date, not RFC-2023 (docs/reading.md).
        let date = digits == 4
            && b.get(end) == Some(&b'-')
            && b.get(end + 1).is_some_and(u8::is_ascii_digit)
            && b[end + 1..]
                .iter()
                .skip_while(|c| c.is_ascii_digit())
                .take(2)
                .collect::<Vec<_>>()
                .first()
                == Some(&&b'-');
        if digits > 0 && !date && (end == b.len() || !word(b[end])) {
            return Some((i, end));
        }
    }
    None
}

/// A mention found in text: the formatted id and the byte range it spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub id: String,
    pub start: usize,
    pub end: usize,
}

/// Every id mentioned in `text`, in order of appearance (duplicates kept).
pub fn mentions(text: &str) -> Vec<Mention> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some((start, end)) = next_mention(text, from) {
        from = end;
        let s = &text[start..end];
        let letters = s.bytes().take_while(u8::is_ascii_alphabetic).count();
        let digits = s.trim_start_matches(|c: char| !c.is_ascii_digit());
        if let Some(prefix) = Prefix::from_mention(&s[..letters]) {
            out.push(Mention {
                id: format_id(prefix, digits),
                start,
                end,
            });
        }
    }
    out
}

/// The distinct ids mentioned in `text`, sorted.
pub fn mentioned_ids(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = mentions(text).into_iter().map(|m| m.id).collect();
    ids.sort();
    ids.dedup();
    ids
}

/// Reads an id where one is expected: a mention (`ADR-4`, `rfc 12`), or a bare number
/// (`"0012"`, `12`, `#12`) which takes `fallback`, the prefix of the record's own folder.
pub fn parse_id(value: &str, fallback: Prefix) -> Option<String> {
    let v = value
        .trim()
        .trim_matches(|c| c == '`' || c == '"' || c == '\'');
    if let Some(m) = mentions(v).into_iter().next() {
        if m.start == 0 {
            return Some(m.id);
        }
    }
    let digits = v.trim_start_matches('#');
    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
        return Some(format_id(fallback, digits));
    }
    None
}

/// The leading number of a file name: `0007-x.md`, `adr-7-x.md`, `ADR_0007.md`, `rfc12.md`,
/// `#605 - Search.md` (the issue a spec is numbered by).
pub fn number_in_file_name(stem: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:(?:adr|rfc|dr|dd|kep|gep)[-_ ]?)?#?([0-9]+)(?:$|[^0-9])")
            .expect("file-name regex compiles")
    });
    re.captures(stem)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string())
}

/// A record file's name past its number, lowered (`0016-Compliance-Documentation` →
/// `compliance-documentation`): what stays when a record is renumbered. `None` without a number
/// (a date is none: `20230303-x` is another record than `20250303-x`), or without words after it.
pub fn name_past_number(stem: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:(?:adr|rfc|dr|dd|kep|gep)[-_ ]?)?#?[0-9]{1,5}[-_ .]+([^0-9].*)$")
            .expect("file-name regex compiles")
    });
    re.captures(stem).map(|c| c[1].to_lowercase())
}

/// Accepts the forms a user types for a record: `ADR-0004`, `ADR-4`, `adr-4`, `ADR 4`.
/// A bare number returns `None` here; the caller matches it against the records' numbers.
pub fn normalise_query_id(input: &str) -> Option<String> {
    let m = mentions(input.trim()).into_iter().next()?;
    (m.start == 0 && m.end == input.trim().len()).then_some(m.id)
}

/// The number of a formatted id (`ADR-0012` → `12`), for bare-number lookups. Only formatted
/// ids have numbers: a record whose id is its file stem (`release-2`) has none.
pub fn number_of(id: &str) -> Option<u64> {
    let (prefix, digits) = id.split_once('-')?;
    let formatted = matches!(prefix, "ADR" | "RFC" | "DR")
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit());
    formatted.then(|| digits.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// What `next_mention` replaced: the matches of this regex.
    fn regex_mentions(text: &str) -> Vec<(usize, usize)> {
        regex::Regex::new(r"(?i)(?-u:\b)(ADR|RFC|DR|DD)[-_ ]?([0-9]+)(?-u:\b)")
            .expect("compiles")
            .find_iter(text)
            .map(|m| (m.start(), m.end()))
            .collect()
    }

    proptest! {
        #[test]
        fn mentions_are_found_where_the_regex_finds_them(
            text in "[adrADRfcFCx_ \\-0-9.é]{0,40}"
        ) {
            let found: Vec<(usize, usize)> =
                mentions(&text).into_iter().map(|m| (m.start, m.end)).collect();
            prop_assert_eq!(found, regex_mentions(&text));
        }
    }

    #[test]
    fn mentions_at_the_edges() {
        for text in [
            "ADR-1",
            "xADR-1",
            "ADR-1x",
            "éadr 12é",
            "ADR-_1",
            "DR12 dd-3,rfc_0042.",
            "ADR-",
        ] {
            let found: Vec<(usize, usize)> = mentions(text)
                .into_iter()
                .map(|m| (m.start, m.end))
                .collect();
            assert_eq!(found, regex_mentions(text), "{text}");
        }
    }

    use super::*;

    #[test]
    fn formats_ids_with_four_digits() {
        assert_eq!(format_id(Prefix::Adr, "7"), "ADR-0007");
        assert_eq!(format_id(Prefix::Rfc, "0012"), "RFC-0012");
        assert_eq!(format_id(Prefix::Adr, "12345"), "ADR-12345");
        assert_eq!(format_id(Prefix::Dr, "0"), "DR-0000");
    }

    #[test]
    fn reads_every_mention_spelling() {
        let ids: Vec<String> =
            mentions("ADR-4, ADR 0004, adr_4, RFC12 and DD-3; not MADR-5 or ADR-4x")
                .into_iter()
                .map(|m| m.id)
                .collect();
        assert_eq!(
            ids,
            ["ADR-0004", "ADR-0004", "ADR-0004", "RFC-0012", "DR-0003"]
        );
    }

    #[test]
    fn folder_decides_the_prefix() {
        assert_eq!(Prefix::for_folder("docs/adr"), Prefix::Adr);
        assert_eq!(
            Prefix::for_folder("docs/architecture/Decisions"),
            Prefix::Adr
        );
        assert_eq!(Prefix::for_folder("rfcs"), Prefix::Rfc);
        assert_eq!(Prefix::for_folder("docs/design"), Prefix::Dr);
        assert_eq!(
            Prefix::for_record("docs/architecture/adr-027-wasm.md"),
            Prefix::Adr
        );
        assert_eq!(Prefix::for_record("docs/design/rfc_12-x.md"), Prefix::Rfc);
        assert_eq!(Prefix::for_record("docs/design/adrenaline.md"), Prefix::Dr);
        assert_eq!(Prefix::for_record("docs/design/adr-notes.md"), Prefix::Dr);
        assert_eq!(Prefix::for_record("docs/rfcs/adr-1-x.md"), Prefix::Rfc);
    }

    #[test]
    fn bare_numbers_take_the_folder_prefix() {
        assert_eq!(parse_id("0012", Prefix::Rfc).as_deref(), Some("RFC-0012"));
        assert_eq!(parse_id("ADR-3", Prefix::Rfc).as_deref(), Some("ADR-0003"));
        assert_eq!(parse_id("next year", Prefix::Adr), None);
    }

    #[test]
    fn only_formatted_ids_have_numbers() {
        assert_eq!(number_of("ADR-0012"), Some(12));
        assert_eq!(number_of("RFC-12345"), Some(12345));
        assert_eq!(number_of("release-2"), None);
        assert_eq!(number_of("ADR-12x"), None);
        assert_eq!(number_of("notes"), None);
    }

    #[test]
    fn file_names_give_numbers() {
        assert_eq!(number_in_file_name("0007-use-x").as_deref(), Some("0007"));
        assert_eq!(number_in_file_name("adr-7-use-x").as_deref(), Some("7"));
        assert_eq!(number_in_file_name("use-x"), None);
    }
}
