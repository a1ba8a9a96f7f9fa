//! What a change says (docs/hooks.md, ADR-0008 as amended 2026-12-07): the lines a commit adds
//! or removes in a decision's governed files, and its message, as one text, for
//! `hooks::quiet`'s `skip_unechoed` rule to compare with the record's words
//! (`related::text`, the comparison `why` makes between a file and the records).

use super::quiet::Change;
use std::collections::HashMap;

/// Under this cosine with the record's words, a change shares next to nothing with it: its
/// warning is said in one line. On 126 commit warnings of six repositories a reader judged
/// (docs/corpora.md, "Commit warnings, eighth pass"), the full warnings under it were
/// mostly irrelevant: see there.
pub const UNECHOED: f64 = 0.03;

/// The lines `changes` add or remove (a line moved within a file is neither), then `message`.
pub fn changed_text(changes: &[Change], message: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for c in changes {
        let mut counts: HashMap<&[u8], i64> = HashMap::new();
        for line in c.old.unwrap_or_default().split(|b| *b == b'\n') {
            *counts.entry(line).or_default() -= 1;
        }
        for line in c.new.unwrap_or_default().split(|b| *b == b'\n') {
            *counts.entry(line).or_default() += 1;
        }
        let mut changed: Vec<(&[u8], i64)> = counts.into_iter().filter(|(_, n)| *n != 0).collect();
        changed.sort_unstable();
        for (line, n) in changed {
            for _ in 0..n.unsigned_abs() {
                out.extend_from_slice(line);
                out.push(b'\n');
            }
        }
    }
    out.extend_from_slice(message.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change<'a>(old: &'a str, new: &'a str) -> Change<'a> {
        Change {
            path: "a.rs",
            folder_page: false,
            shared: false,
            written: false,
            old: Some(old.as_bytes()),
            new: Some(new.as_bytes()),
        }
    }

    #[test]
    fn only_the_lines_added_or_removed_and_the_message() {
        let c = change("keep\ngone\nmoved\n", "moved\nkeep\nadded\n");
        let text = String::from_utf8(changed_text(&[c], "Fix the cache")).unwrap();
        assert_eq!(text, "added\ngone\nFix the cache");
    }
}
