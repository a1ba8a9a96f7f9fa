//! Which file names are records' (docs/reading.md, "Which files are records"): a record's
//! extension, not a README, an index or a template's name; and a file numbered as a record
//! with no extension, which is said, not read.

/// Whether a file name is a record's: `.md` or `.rst` (reStructuredText, read as Markdown:
/// `text::rst`), but not a `README` or an `index` (in any case),
/// nor a template by its name (docs/reading.md, "Which files are records"): "template" as the
/// name's own word (`template.md`, `adr-template.md`, `0000-template.md`, not
/// `0039-use-velocity-as-template-engine.md`), or a placeholder name (`XXXX-title.md`,
/// `_YYYY-MM-DD-issue#-title.md`, `NNNN-x.md`). A `0000-` file is read: whether it is the
/// template is told by its text (`parse`), and `scan` leaves it out.
pub fn is_record_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some(stem) = lower
        .strip_suffix(".md")
        .or_else(|| lower.strip_suffix(".rst"))
    else {
        return false;
    };
    // `_index.md` is a documentation site's page listing its folder (Hugo's), as `index.md` is.
    if stem == "readme" || stem == "index" || stem == "_index" {
        return false;
    }
    let words: Vec<&str> = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty() && !w.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    // The kind words a template's name may carry besides "template" (`adr-template-long.md`).
    let kinds = [
        "adr",
        "adrs",
        "rfc",
        "madr",
        "dr",
        "decision",
        "record",
        "architecture",
    ];
    let words: Vec<&str> = words.into_iter().filter(|w| !kinds.contains(w)).collect();
    // "template" is the name's own word when the name starts with it (`template-long.md`) or
    // is one word and it (`nygard-template.md`), and the name carries no record's number or
    // date: `0019-use-real-template.md` is the record `new "Use real template"` wrote (issue 39,
    // ADR-0013), as `0019-template.md` is a record titled "Template".
    let numbered = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.bytes().all(|b| b.is_ascii_digit()) && w.bytes().any(|b| b != b'0'));
    let own_word = |w: &str| {
        !numbered && (words.first() == Some(&w) || (words.len() <= 2 && words.last() == Some(&w)))
    };
    let placeholder = words
        .iter()
        .any(|w| matches!(*w, "xxxx" | "nnnn" | "yyyy" | "yyyymmdd"))
        || stem
            .match_indices('#')
            .any(|(at, _)| placeholder_hash(stem, at));
    !own_word("template") && !placeholder
}

/// Whether the `#` at `at` in a file's stem stands for a number not yet given: `issue#`,
/// `#-title`, `##-title` (a template's name). `#605 - Search` is the issue the record is
/// numbered by (Windows Terminal's specs), and a `#` standing alone between words is the
/// title's own (JabRef's `0024-use-#-as-indicator-for-BibTeX-string-constants.md`).
fn placeholder_hash(stem: &str, at: usize) -> bool {
    if stem[at + 1..].starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let before = stem[..at].chars().next_back();
    let after = stem[at + 1..].chars().next();
    // A language's name: `C#`, `F#`, `Q#` standing as a word (get-an-identity's
    // `0005-use-dotNet-C#-for-get-an-identity-auth-server.md`).
    let word_before = stem[..at]
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    if matches!(word_before, "C" | "c" | "F" | "f" | "J" | "j" | "Q" | "q")
        && after.is_none_or(|c| !c.is_alphanumeric())
    {
        return false;
    }
    match before {
        None => true,
        Some(b) if b.is_alphanumeric() || b == '#' => true,
        Some(_) => after == Some('#'),
    }
}

/// Whether a file name is a record's number and title with no extension
/// (`0006-use-servicebus`): three digits or more, then `-` or `_` and a letter, and no `.`.
pub(super) fn numbered_without_extension(name: &str) -> bool {
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &name.as_bytes()[digits..];
    digits >= 3
        && !name.contains('.')
        && matches!(rest, [b'-' | b'_', c, ..] if c.is_ascii_alphabetic())
}
