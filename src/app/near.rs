//! What a mistyped argument may have meant (docs/commands.md, "Ids and paths"; issue 39): the
//! record an unknown ID was close to, the status word a misspelt one was. Each is a hint in
//! the one-line error, never a guess acted on (ADR-0011).

use super::Error;
use crate::model::Pickable;
use crate::text::ids;
use crate::text::similar::edit_distance;

/// The status words a record can be given (`status ID WORD`, `new --status WORD`).
pub const STATUS_WORDS: [&str; 5] = [
    "proposed",
    "accepted",
    "implemented",
    "rejected",
    "deprecated",
];

/// The error for an ID no record has, with a hint when one helps: the record it is close to
/// (`ADR-0004`, for `RFC-4`; the record whose title or file name has the word), else the ids
/// the records have.
pub fn unknown_record<R: Pickable>(records: &[R], input: &str) -> Error {
    match hint(records, input.trim()) {
        Some(hint) => Error::UnknownRecordHint {
            input: input.to_string(),
            hint,
        },
        None => Error::UnknownRecord(input.to_string()),
    }
}

fn hint<R: Pickable>(records: &[R], input: &str) -> Option<String> {
    let meant = match ids::normalise_query_id(input) {
        Some(id) => close_ids(records, &id),
        None => named(records, input),
    };
    match meant.as_slice() {
        [one] => {
            let r = records.iter().find(|r| r.id() == one.as_str())?;
            Some(format!("did you mean {} ({})?", r.id(), title(r)))
        }
        [] => range(records),
        many => Some(format!("did you mean {}?", or_list(many))),
    }
}

/// The records an id-shaped input may have meant: the same number under another prefix
/// (`RFC-4` in a folder of ADRs), else an id one keystroke away (`ADR-0102` for `ADR-0012`
/// when it alone is).
fn close_ids<R: Pickable>(records: &[R], id: &str) -> Vec<String> {
    let number = ids::number_of(id);
    let same_number = unique(
        records
            .iter()
            .filter(|r| number.is_some() && ids::number_of(r.id()) == number)
            .map(|r| r.id()),
    );
    if !same_number.is_empty() {
        return same_number;
    }
    let close = unique(
        records
            .iter()
            .filter(|r| edit_distance(r.id(), id) <= 1 || swapped(r.id(), id))
            .map(|r| r.id()),
    );
    if close.len() == 1 {
        close
    } else {
        Vec::new()
    }
}

/// Two strings one swap of neighbouring characters apart (`ADR-0021` for `ADR-0012`).
fn swapped(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    matches!(differ.as_slice(), [i, j] if *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i])
}

/// The records a word names (`record postgres`): those whose title or file name holds it
/// (a word of three letters only as a whole word), else those with a title word or file name
/// one edit from it (two from a word of eight letters or more). At most three.
fn named<R: Pickable>(records: &[R], input: &str) -> Vec<String> {
    let want = squash(input);
    let length = want.chars().count();
    if length < 3 {
        return Vec::new();
    }
    let holds = |text: &str| {
        if length > 3 {
            squash(text).contains(&want)
        } else {
            words(text).any(|w| w == want)
        }
    };
    let holding = unique(
        records
            .iter()
            .filter(|r| holds(r.title()) || holds(stem(r.path())))
            .map(|r| r.id()),
    );
    if !holding.is_empty() || length < 5 {
        return holding.into_iter().take(3).collect();
    }
    let limit = if length < 8 { 1 } else { 2 };
    let mut close: Vec<(usize, &str)> = records
        .iter()
        .filter_map(|r| {
            let words = words(r.title()).chain(words(stem(r.path())));
            let best = words
                .filter(|w| w.chars().count() >= 4)
                .map(|w| edit_distance(&w, &want))
                .min()?;
            (best <= limit).then_some((best, r.id()))
        })
        .collect();
    close.sort();
    let best = close.first().map(|(d, _)| *d);
    unique(
        close
            .into_iter()
            .filter(|(d, _)| Some(*d) == best)
            .map(|(_, id)| id),
    )
    .into_iter()
    .take(3)
    .collect()
}

/// The span of the numbered ids, when nothing is closer, a prefix at a time: `the ids run
/// from ADR-0001 to ADR-0012`, `… ADR-0001 to ADR-0004 and DR-0005`.
fn range<R: Pickable>(records: &[R]) -> Option<String> {
    let mut numbered: Vec<(&str, u64, &str)> = records
        .iter()
        .filter_map(|r| {
            let prefix = r.id().split_once('-')?.0;
            Some((prefix, ids::number_of(r.id())?, r.id()))
        })
        .collect();
    numbered.sort();
    numbered.dedup();
    let mut spans: Vec<String> = Vec::new();
    for group in numbered.chunk_by(|a, b| a.0 == b.0) {
        match group {
            [(_, _, one)] => spans.push(one.to_string()),
            [(_, _, first), .., (_, _, last)] => spans.push(format!("{first} to {last}")),
            [] => {}
        }
    }
    match spans.as_slice() {
        [] => None,
        [one] if !one.contains(" to ") => Some(format!("the one id is {one}")),
        [one] => Some(format!("the ids run from {one}")),
        [init @ .., last] => Some(format!("the ids run from {} and {last}", init.join(", "))),
    }
}

/// The status word a misspelt one was closest to (`Acepted` → `accepted`), if one is within
/// two edits and no other as close.
pub fn meant_status(word: &str) -> Option<&'static str> {
    let word = word.trim().to_lowercase();
    let mut by_distance: Vec<(usize, &'static str)> = STATUS_WORDS
        .iter()
        .map(|w| (edit_distance(w, &word), *w))
        .filter(|(d, _)| *d <= 2)
        .collect();
    by_distance.sort();
    match by_distance.as_slice() {
        [(d, w), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(w),
        _ => None,
    }
}

/// A status word this tool does not write: `Acepted: not a status word this tool knows; did
/// you mean accepted? (the words: proposed, accepted, …)`.
pub fn unknown_status(word: &str) -> String {
    let meant = meant_status(word)
        .map(|w| format!("; did you mean {w}?"))
        .unwrap_or_default();
    format!(
        "{word}: not a status word this tool knows{meant} (the words: {})",
        STATUS_WORDS.join(", ")
    )
}

fn title<R: Pickable>(r: &R) -> String {
    let t = crate::util::one_line(r.title());
    if t.chars().count() > 60 {
        format!("{}…", t.chars().take(59).collect::<String>())
    } else {
        t
    }
}

fn or_list(ids: &[String]) -> String {
    match ids {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn unique<'a>(ids: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    out
}

/// Lower case, letters and digits only: `Use-Postgres` and `use postgres` alike.
fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
}

fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_status_is_the_one_word_it_is_closest_to() {
        assert_eq!(meant_status("Acepted"), Some("accepted"));
        assert_eq!(meant_status("depricated"), Some("deprecated"));
        assert_eq!(meant_status("propsed"), Some("proposed"));
        assert_eq!(meant_status("banana"), None);
    }

    #[test]
    fn a_swap_of_neighbours_is_one_typo() {
        assert!(swapped("ADR-0021", "ADR-0012"));
        assert!(!swapped("ADR-0021", "ADR-0021"));
        assert!(!swapped("ADR-0120", "ADR-0012"));
    }
}
