//! Renames (docs/hooks.md, ADR-0008 as amended 2026-12-07): a change whose every changed line is
//! the same line with a word or two swapped (test classes renamed to a convention, a product's
//! new name in its strings) does nothing a decision decides unless the record writes one of the
//! words. [`renamed_words`] reads the words such a change swaps; `hooks::quiet::judge` asks the
//! record (`skip_renames`, `Quiet::Renamed`).

use super::echo::changed_lines;
use super::quiet::Change;
use super::settings::other_keys;
use crate::model::{Quiet, QuietRules};
use std::collections::{BTreeSet, HashSet};

/// The one-line reason for a change whose record names nothing it changes: settings files whose
/// keys it never writes (`skip_other_settings`), or words swapped that it never writes
/// (`skip_renames`); `writes_any` asks the record.
pub fn unnamed(
    rules: &QuietRules,
    changes: &[Change],
    writes_any: &mut dyn FnMut(&[String]) -> bool,
) -> Option<Quiet> {
    if rules.skip_other_settings && other_keys(changes, writes_any) {
        return Some(Quiet::OtherSettings);
    }
    let words = renamed_words(changes).filter(|w| rules.skip_renames && w.len() <= MOST_WORDS)?;
    (!writes_any(&words)).then_some(Quiet::Renamed)
}

/// More words swapped than this is no rename but a rewrite: warned as ever.
const MOST_WORDS: usize = 200;

/// At most this many tokens (words, or single marks such as `.` or `!`) removed or added in each
/// changed line.
pub const MOST_TOKENS: usize = 2;

/// Lines of more tokens than this are not compared (a minified line): not a rename.
const LONGEST_LINE: usize = 200;

/// A line's tokens: runs of letters, digits and `_`, and every other mark that is not a space
/// on its own.
fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let word = c.is_alphanumeric() || c == '_';
        if word {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&line[s..i]);
        }
        if !c.is_whitespace() {
            out.push(&line[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// A number (`3600`, `1.5`) or a major version (`v2` in a Go module path): a value, not a name.
/// cometbft's move to `github.com/cometbft/cometbft/v2` swaps one word in every import, and is
/// the major release its API record rules on.
fn is_number(token: &str) -> bool {
    let digits = token.strip_prefix(['v', 'V']).unwrap_or(token);
    digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
}

fn is_word(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// The tokens of `a` and of `b` outside their longest common subsequence.
fn edit<'a>(a: &[&'a str], b: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let (n, m) = (a.len(), b.len());
    let mut common = vec![vec![0u16; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] = if a[i] == b[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut gone, mut came) = (Vec::new(), Vec::new());
    while i < n && j < m {
        if a[i] == b[j] {
            (i, j) = (i + 1, j + 1);
        } else if common[i + 1][j] >= common[i][j + 1] {
            gone.push(a[i]);
            i += 1;
        } else {
            came.push(b[j]);
            j += 1;
        }
    }
    gone.extend_from_slice(&a[i..]);
    came.extend_from_slice(&b[j..]);
    (gone, came)
}

/// The words (two characters or more) a change swaps, when every change edits a file in place
/// and its changed lines pair one to one (as many removed as added, taken in order), each line
/// with at most [`MOST_TOKENS`] tokens removed or added, at least one of them a word of two
/// characters or more and none a number (a changed number is a changed value). `None`
/// otherwise: a file added or removed, a line added or removed, a larger edit, only marks or
/// one-letter names edited (`>` made `>=`, `a` made `b`), a side too large to read.
pub fn renamed_words(changes: &[Change]) -> Option<Vec<String>> {
    let mut words = BTreeSet::new();
    if changes.is_empty() {
        return None;
    }
    for c in changes {
        let (Some(old), Some(new)) = (c.old, c.new) else {
            return None;
        };
        let (old, new) = (
            std::str::from_utf8(old).ok()?,
            std::str::from_utf8(new).ok()?,
        );
        let lines = changed_lines(c);
        let side = |sign: i64| -> HashSet<&[u8]> {
            lines
                .iter()
                .filter(|(_, n)| n.signum() == sign)
                .map(|(l, _)| *l)
                .collect()
        };
        let (removed, added) = (side(-1), side(1));
        let gone: Vec<&str> = old
            .lines()
            .map(str::trim)
            .filter(|l| removed.contains(l.as_bytes()))
            .collect();
        let came: Vec<&str> = new
            .lines()
            .map(str::trim)
            .filter(|l| added.contains(l.as_bytes()))
            .collect();
        if gone.is_empty() || gone.len() != came.len() {
            return None;
        }
        for (a, b) in gone.iter().zip(&came) {
            let (ta, tb) = (tokens(a), tokens(b));
            if ta.len() > LONGEST_LINE || tb.len() > LONGEST_LINE {
                return None;
            }
            let (out, into) = edit(&ta, &tb);
            let edited = || out.iter().chain(&into);
            if out.len().max(into.len()) > MOST_TOKENS
                || !edited().any(|t| is_word(t) && t.chars().count() >= 2)
                || edited().any(|t| is_number(t))
            {
                return None;
            }
            words.extend(
                edited()
                    .filter(|t| is_word(t) && t.chars().count() >= 2)
                    .map(|t| t.to_string()),
            );
        }
    }
    Some(words.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::echo::tests::edit as change;

    #[test]
    fn the_words_a_rename_swaps() {
        let c = change(
            "Tests.cs",
            "class When_started_it_throws {\n  void Run() { Start(box); }\n}\n",
            "class WhenStartedItThrows {\n  void Run() { Start(box); }\n}\n",
        );
        assert_eq!(
            renamed_words(&[c]).unwrap(),
            vec!["WhenStartedItThrows", "When_started_it_throws"]
        );
        let two = change("a.cs", "Send(id, body);\n", "Send(id.Value, body);\n");
        assert_eq!(renamed_words(&[two]).unwrap(), vec!["Value"]);
    }

    #[test]
    fn more_than_a_rename_is_none() {
        for (old, new) in [
            ("a = 1;\n", "a = 1;\nb = 2;\n"),
            ("if (age > limit) {}\n", "if (age >= limit) {}\n"),
            ("a = 1\n", "d = 1\n"),
            ("timeout = 3600\n", "timeout = 7200\n"),
            (
                "import \"x.io/app/v2/log\"\n",
                "import \"x.io/app/v3/log\"\n",
            ),
            ("call(a, b)\n", "other(c, d, e)\n"),
        ] {
            assert_eq!(
                renamed_words(&[change("a.py", old, new)]),
                None,
                "{old} -> {new}"
            );
        }
    }
}
