//! What a change says (docs/hooks.md, ADR-0008 as amended 2026-12-07): the lines a commit adds
//! or removes in a decision's governed files, and its message, as one text, for
//! `hooks::quiet`'s `skip_unechoed` rule to compare with the record's words
//! (`related::text`, the comparison `why` makes between a file and the records).

use super::quiet::Change;
use crate::model::Quiet;
use std::collections::HashMap;

/// Under this cosine with the record's words, a change shares next to nothing with it: its
/// warning is said in one line. On 126 commit warnings of six repositories a reader judged
/// (docs/corpora.md, "Commit warnings, eighth pass"), the full warnings under it were
/// mostly irrelevant: see there.
pub const UNECHOED: f64 = 0.03;

/// Under this share of the cosine of the record the change echoes most, the change reads more
/// like another record than its own: said in one line too (docs/corpora.md, "Commit warnings,
/// ninth pass": a fix to the mapping-error path warned under the "don't ack" record, which
/// reads like the record that decides mapping errors).
pub const ELSEWHERE: f64 = 0.5;

/// How much a change shares with the words of the record it is judged against (`record`), and
/// with those of the record it shares most with (`best`, which may be that one), as cosines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Echoed {
    pub record: f64,
    pub best: f64,
}

/// The one-line reason a change's echo gives, if any: [`Quiet::Unechoed`] under
/// [`UNECHOED`], [`Quiet::EchoedElsewhere`] under [`ELSEWHERE`] of the best.
pub fn verdict(echoed: Echoed) -> Option<Quiet> {
    if echoed.record < UNECHOED {
        Some(Quiet::Unechoed)
    } else if echoed.record < ELSEWHERE * echoed.best {
        Some(Quiet::EchoedElsewhere)
    } else {
        None
    }
}

/// The lines `changes` add or remove, without their indentation (a line moved within a file,
/// or only re-indented, is neither), then `message`. Whole lines, not the words that changed:
/// the words around an edit say what it is about (`ttl=3600` made `ttl=7200` beside `redis`).
pub fn changed_text(changes: &[Change], message: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for c in changes {
        for (line, n) in changed_lines(c) {
            for _ in 0..n.unsigned_abs() {
                out.extend_from_slice(line);
                out.push(b'\n');
            }
        }
    }
    out.extend_from_slice(message.as_bytes());
    out
}

/// The lines one change adds (positive) or removes (negative), each trimmed, with how many
/// times, in byte order: a line moved within the file, or only re-indented, is neither.
pub fn changed_lines<'a>(c: &Change<'a>) -> Vec<(&'a [u8], i64)> {
    let mut counts: HashMap<&[u8], i64> = HashMap::new();
    for (text, by) in [(c.old, -1), (c.new, 1)] {
        for line in text.unwrap_or_default().split(|b| *b == b'\n') {
            let line = line.trim_ascii();
            if !line.is_empty() {
                *counts.entry(line).or_default() += by;
            }
        }
    }
    let mut changed: Vec<(&[u8], i64)> = counts.into_iter().filter(|(_, n)| *n != 0).collect();
    changed.sort_unstable();
    changed
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An edit of `path` from `old` to `new`, counted on its own (the tests of the rules that
    /// read changes' lines).
    pub(crate) fn edit<'a>(path: &'a str, old: &'a str, new: &'a str) -> Change<'a> {
        Change {
            path,
            folder_page: false,
            shared: false,
            written: false,
            broad: false,
            old: Some(old.as_bytes()),
            new: Some(new.as_bytes()),
        }
    }

    fn change<'a>(old: &'a str, new: &'a str) -> Change<'a> {
        edit("a.rs", old, new)
    }

    #[test]
    fn only_the_lines_added_or_removed_and_the_message() {
        let c = change(
            "keep\ngone\nmoved\n  nack(id)\n  span()\n",
            "moved\nkeep\nadded\n  nack(id.value)\n    span()\n",
        );
        let text = String::from_utf8(changed_text(&[c], "Fix the cache")).unwrap();
        assert_eq!(text, "added\ngone\nnack(id)\nnack(id.value)\nFix the cache");
    }

    #[test]
    fn far_under_the_best_record_reads_like_another() {
        let at = |record, best| verdict(Echoed { record, best });
        assert_eq!(at(0.01, 0.01), Some(Quiet::Unechoed));
        assert_eq!(at(0.05, 0.2), Some(Quiet::EchoedElsewhere));
        assert_eq!(at(0.12, 0.13), None);
        assert_eq!(at(0.2, 0.2), None);
    }
}
