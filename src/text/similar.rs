//! How alike two names are: the edit distance, and names close enough that code named by one
//! may have moved to the other (`services/ledger-sync` → `services/ledger`).

use std::borrow::Cow;

/// Two names are close when one contains the other (the shorter at least 3 characters), or
/// they are a small edit apart.
pub fn close_names(a: &str, b: &str) -> bool {
    let (a, b) = (lowered(stem(a)), lowered(stem(b)));
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    let short_chars = short.chars().count();
    // A plain search: `str::contains` sets up a searcher costing more than the search, and a
    // warm answer asks this of every name beside a missing path (issue 41). UTF-8 bytes
    // matching a whole UTF-8 name match at a character boundary.
    if short_chars >= 3
        && long
            .as_bytes()
            .windows(short.len())
            .any(|w| w == short.as_bytes())
    {
        return true;
    }
    let limit = (short_chars / 4).max(1);
    // No fewer edits than the lengths differ by: most names of a folder are told apart
    // without the distance (a warm answer checks a missing path's candidates, issue 41).
    short_chars >= 3
        && long.chars().count().abs_diff(short_chars) <= limit
        && distance_within(&a, &b, limit) <= limit
}

fn stem(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => name,
    }
}

/// A name lowered, borrowed when it has no upper-case letter and is ASCII (most names).
fn lowered(name: &str) -> Cow<'_, str> {
    match name.is_ascii() && !name.bytes().any(|b| b.is_ascii_uppercase()) {
        true => Cow::Borrowed(name),
        false => Cow::Owned(name.to_lowercase()),
    }
}

/// The Levenshtein distance between two names, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    distance_within(a, b, usize::MAX)
}

/// [`edit_distance`], or a number over `limit` as soon as the distance is known to be.
fn distance_within(a: &str, b: &str, limit: usize) -> usize {
    if a.is_ascii() && b.is_ascii() {
        return distance(a.as_bytes(), b.as_bytes(), limit);
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    distance(&a, &b, limit)
}

/// [`distance_within`] of two sequences, on two rows reused from one character to the next.
/// A row's least value never falls in the rows below it, so once it is over `limit` the
/// distance is too.
fn distance<T: PartialEq>(a: &[T], b: &[T], limit: usize) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut least = cur[0];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            least = least.min(cur[j + 1]);
        }
        if least > limit {
            return least;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance as first written: a row allocated per character.
    fn reference_distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, cb) in b.iter().enumerate() {
                let cost = usize::from(ca != *cb);
                cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    #[test]
    fn the_distance_on_reused_rows_is_the_distance() {
        // The first word is empty.
        let words = " a ab ba kitten sitting Ledger-Sync ledger ééé abcd naïve naive handlr \
                     handler flaw lawn 日本語 日本";
        let words: Vec<&str> = words.split(' ').collect();
        for &a in &words {
            for &b in &words {
                let d = reference_distance(a, b);
                assert_eq!(edit_distance(a, b), d, "{a} {b}");
                for limit in 0..4 {
                    assert_eq!(distance_within(a, b, limit) <= limit, d <= limit, "{a} {b}");
                }
            }
        }
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert!(close_names("Ledger-Sync", "ledger"), "lowered first");
        assert!(close_names("ÉCOLE.rs", "école"), "lowered beyond ASCII");
    }

    #[test]
    fn close_names_follow_the_reference() {
        assert!(close_names("ledger-sync", "ledger"));
        assert!(close_names("kafka-bridge", "bridge"));
        assert!(close_names("util", "utils"));
        assert!(!close_names("auth", "billing"));
        assert!(close_names("metric", "metrics.rs"));
        assert!(close_names("handler", "handlr"), "an edit apart");
        assert!(
            !close_names("abcd", "ééé"),
            "fewer characters in more bytes"
        );
        assert!(
            !close_names("route", "rout-table-registry"),
            "lengths far apart"
        );
    }
}
