//! What a line says before each of its offsets, read once per line: whether an "e.g." is open
//! there, how many `|` come before it, and what follows a list of code spans. `terms` asks
//! these of every code span and name of a line; asked of the line's text anew each time, a
//! line holding thousands of spans took time quadratic in its length (issue 38: a 256 KB line
//! of code spans took 36 s). Reading stays linear in the record's size (ADR-0011).

use std::collections::{HashMap, HashSet};

/// For each offset of a line, whether a code span starting there is given as an example:
/// after "e.g." (or "e. g.", any case) in the same clause, with no ". ", `)` or `;` between.
pub struct Examples {
    /// `open[p]`: an example's clause is open at offset `p`; empty when the line holds no
    /// "e.g." at all.
    open: Vec<bool>,
}

impl Examples {
    /// Reads `line` once.
    pub fn of(line: &str) -> Examples {
        let bytes = line.as_bytes();
        let lower = |at: usize| bytes[at].to_ascii_lowercase();
        let ends_with = |end: usize, marker: &[u8]| {
            end >= marker.len()
                && (0..marker.len()).all(|k| lower(end - marker.len() + k) == marker[k])
        };
        let mut open = Vec::new();
        // Where the last "e.g." ended, and whether its clause has closed since.
        let mut marker: Option<usize> = None;
        let mut closed = false;
        for end in 0..=bytes.len() {
            if end > 0 {
                let b = bytes[end - 1];
                if ends_with(end, b"e.g.") || ends_with(end, b"e. g.") {
                    if marker.is_none() {
                        // The offsets before the first "e.g." are all closed.
                        open.resize(end, false);
                    }
                    marker = Some(end);
                    closed = false;
                } else if let Some(m) = marker {
                    let stop = b == b')'
                        || b == b';'
                        || (b == b' ' && end >= m + 2 && bytes[end - 2] == b'.');
                    closed |= stop;
                }
            }
            if marker.is_some() {
                open.push(!closed);
            }
        }
        Examples { open }
    }

    /// Whether a code span starting at `offset` is given as an example.
    pub fn at(&self, offset: usize) -> bool {
        self.open.get(offset).copied().unwrap_or(false)
    }
}

/// The offsets of a line's `|`, to count those before an offset (a table cell's column).
pub struct Pipes(Vec<usize>);

impl Pipes {
    /// Reads `line` once.
    pub fn of(line: &str) -> Pipes {
        Pipes(
            line.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'|')
                .map(|(at, _)| at)
                .collect(),
        )
    }

    /// How many `|` come before `offset`.
    pub fn before(&self, offset: usize) -> usize {
        self.0.partition_point(|&at| at < offset)
    }
}

/// What follows a list of code spans, by where a listed span starts: each list of spans is
/// walked once, however many of its spans ask (`` `a`, `b` or `c` transforms ``: the noun
/// after `a` is the one after `c`).
#[derive(Default)]
pub struct AfterLists(HashMap<usize, Option<String>>);

impl AfterLists {
    /// The answer for the list walked from `at`, if one was kept.
    pub fn get(&self, at: usize) -> Option<&Option<String>> {
        self.0.get(&at)
    }

    /// Keeps `answer` for every listed span walked through (`starts`).
    pub fn keep(&mut self, starts: &[usize], answer: &Option<String>) {
        for &at in starts {
            self.0.insert(at, answer.clone());
        }
    }
}

/// `line` with every `[TEXT]` whose text is one of `texts` written as as many `|`: one pass
/// over the line, whatever the number of texts (a link's text holds no `]`).
pub fn blank_bracketed(line: &str, texts: &HashSet<&str>) -> String {
    if texts.is_empty() {
        return line.to_string();
    }
    let lengths: HashSet<usize> = texts.iter().map(|t| t.len()).collect();
    let mut bytes = line.as_bytes().to_vec();
    // The `]` that closes a `[`: the first one after it, found walking back once.
    let mut close = None;
    for at in (0..line.len()).rev() {
        match line.as_bytes()[at] {
            b']' => close = Some(at),
            b'[' => {
                if let Some(end) = close {
                    if lengths.contains(&(end - at - 1)) && texts.contains(&line[at + 1..end]) {
                        bytes[at..=end].fill(b'|');
                    }
                }
            }
            _ => {}
        }
    }
    // Whole characters became ASCII: `[`, `]` and the text between them.
    String::from_utf8(bytes).expect("blanked whole characters")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The question as `terms` once asked it, of the line's text before `offset`.
    fn example_by_rescanning(line: &str, offset: usize) -> bool {
        let before = line[..offset].to_ascii_lowercase();
        let Some(at) = ["e.g.", "e. g."]
            .iter()
            .filter_map(|m| before.rfind(m).map(|at| at + m.len()))
            .max()
        else {
            return false;
        };
        let between = &before[at..];
        !between.contains(". ") && !between.contains(')') && !between.contains(';')
    }

    #[test]
    fn examples_read_once_answer_as_reading_before_each_offset_does() {
        for line in [
            "",
            "plain `a` text",
            "e.g. `x`, `y`. Then `z`",
            "(E.g. `x`) and `y`; e. g. `w` or `v`",
            "e.g.e.g. `a`",
            "e.g. `a`. `b` e.g.`c`",
            "ends with e.g.",
            "x e.g.; `y`",
            "e.g. a.b `c` d. `e`",
        ] {
            let marks = Examples::of(line);
            for offset in 0..=line.len() {
                assert_eq!(
                    marks.at(offset),
                    example_by_rescanning(line, offset),
                    "{line:?} at {offset}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn examples_answer_as_reading_before_each_offset_does_on_any_line(
            line in "[eEgG. ;)`x]{0,40}"
        ) {
            let marks = Examples::of(&line);
            for offset in 0..=line.len() {
                proptest::prop_assert_eq!(marks.at(offset), example_by_rescanning(&line, offset));
            }
        }
    }

    #[test]
    fn bracketed_texts_are_blanked_as_replacing_each_in_turn_does() {
        let line = "see [a](https://x) and [a] or [b] [[a]] [é](https://y) [é]";
        let texts: HashSet<&str> = ["a", "é"].into_iter().collect();
        let mut by_replacing = line.to_string();
        for t in &texts {
            by_replacing = by_replacing.replace(&format!("[{t}]"), &"|".repeat(t.len() + 2));
        }
        assert_eq!(blank_bracketed(line, &texts), by_replacing);
        assert_eq!(blank_bracketed(line, &HashSet::new()), line);
    }

    #[test]
    fn pipes_are_counted_before_an_offset() {
        let pipes = Pipes::of("| a | `b` |");
        assert_eq!(pipes.before(0), 0);
        assert_eq!(pipes.before(1), 1);
        assert_eq!(pipes.before(6), 2);
        assert_eq!(pipes.before(100), 3);
    }
}
