//! A title's words as `why`'s related records read them (docs/related.md): split and lowered
//! once, and its runs of words joined only toward the forms a name wants (issue 41).

use crate::model::Pickable;
use crate::text::terms::{is_title_filler_key, singular_of};
use std::collections::{BTreeSet, HashMap};

/// A title's words, split on anything not alphanumeric, each in lower case, held in one
/// string.
pub(super) struct Lowered {
    text: String,
    /// Where each word ends in `text`, in order; each begins where the one before ends.
    ends: Vec<usize>,
}

impl Lowered {
    pub(super) fn of(title: &str) -> Lowered {
        if title.is_ascii() {
            return Lowered::of_ascii(title);
        }
        let mut text = String::with_capacity(title.len());
        let mut ends = Vec::new();
        for word in title.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            match word.is_ascii() {
                true => text.extend(word.chars().map(|c| c.to_ascii_lowercase())),
                false => text.push_str(&word.to_lowercase()),
            }
            ends.push(text.len());
        }
        Lowered { text, ends }
    }

    /// [`Lowered::of`] an ASCII title, byte by byte (most titles; issue 41).
    fn of_ascii(title: &str) -> Lowered {
        let mut text = String::with_capacity(title.len());
        let mut ends = Vec::with_capacity(title.len() / 4 + 1);
        let mut in_word = false;
        for b in title.bytes() {
            if b.is_ascii_alphanumeric() {
                text.push(char::from(b.to_ascii_lowercase()));
                in_word = true;
            } else if in_word {
                ends.push(text.len());
                in_word = false;
            }
        }
        if in_word {
            ends.push(text.len());
        }
        Lowered { text, ends }
    }

    /// Its word at `i` (of `self.ends.len()`).
    pub(super) fn word(&self, i: usize) -> &str {
        let from = match i {
            0 => 0,
            _ => self.ends[i - 1],
        };
        &self.text[from..self.ends[i]]
    }

    pub(super) fn words(&self) -> impl Iterator<Item = &str> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(from, &to)| &self.text[from..to])
    }
}

/// Each record's title as its words are read, split and lowered: its own, or, when its heading
/// is another record's and its file's name says something else, that name past the number: a
/// heading copied from the first record and never changed (get-an-identity's
/// `0003-use-existing-DQT-API.md` under "1. Record architecture decisions") is not what the
/// record is about; its name is.
/// The second list says which were read from the file's name.
pub(super) fn lowered_titles<R: Pickable>(records: &[R]) -> (Vec<Lowered>, Vec<bool>) {
    let mut lowered: Vec<Lowered> = records.iter().map(|r| Lowered::of(r.title())).collect();
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(lowered.len());
    for l in &lowered {
        *seen.entry(l.text.as_str()).or_default() += 1;
    }
    let copied: Vec<usize> = (0..lowered.len())
        .filter(|&i| !lowered[i].text.is_empty() && seen[lowered[i].text.as_str()] > 1)
        .collect();
    let mut from_name = vec![false; lowered.len()];
    for i in copied {
        let named = Lowered::of(name_past_number(records[i].path()));
        if !named.text.is_empty() && named.words().any(|w| !lowered[i].words().any(|t| t == w)) {
            lowered[i] = named;
            from_name[i] = true;
        }
    }
    (lowered, from_name)
}

/// A record file's name without its folder, extension and leading number or date (and a
/// kind before it: `ADR-0009-api-v3.md` is `api-v3`).
fn name_past_number(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let digits = stem.find(|c: char| c.is_ascii_digit());
    let kind = digits.is_some_and(|at| {
        stem[..at]
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
    });
    let from = match (digits, kind) {
        (Some(at), true) => at,
        _ => 0,
    };
    stem[from..]
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '_' || c == '.')
}

/// The fewest letters of title words in a row that spell one part of a name.
pub(super) const RUN_LETTERS: usize = 8;

/// A title's runs of two to four words in a row, as said (`file tree diff`) and joined in
/// the singular (`filetreediff`), of [`RUN_LETTERS`] letters or more and not all filler.
/// Only the runs whose joined form is `wanted` are made.
pub(super) fn title_runs(title: &Lowered, wanted: &Wanted) -> Vec<(String, String)> {
    let count = title.ends.len();
    let mut out = Vec::new();
    let mut concat = String::new();
    for from in 0..count {
        if !wanted.may_begin(title.word(from)) {
            continue;
        }
        concat.clear();
        concat.push_str(title.word(from));
        for len in 2..=4 {
            if from + len > count {
                break;
            }
            concat.push_str(title.word(from + len - 1));
            // Neither this run nor a longer one can join to a wanted form.
            if !wanted.may_extend(&concat) {
                break;
            }
            if concat.len() < RUN_LETTERS || !concat.chars().all(char::is_alphabetic) {
                continue;
            }
            let joined = singular_of(&concat);
            let run = || (from..from + len).map(|i| title.word(i));
            if joined.len() >= RUN_LETTERS
                && wanted.contains(&joined)
                && run().any(|w| !is_title_filler_key(w))
            {
                out.push((run().collect::<Vec<_>>().join(" "), joined.into_owned()));
            }
        }
    }
    out
}

/// The joined forms a related answer looks for in titles' runs of words.
pub(super) struct Wanted<'a> {
    sets: &'a [&'a BTreeSet<String>],
    /// The forms' first bytes.
    firsts: Vec<u8>,
}

impl<'a> Wanted<'a> {
    pub(super) fn new(sets: &'a [&'a BTreeSet<String>]) -> Wanted<'a> {
        // Only a form of RUN_LETTERS or more is ever joined to.
        let firsts = sets
            .iter()
            .flat_map(|set| set.iter().filter(|form| form.len() >= RUN_LETTERS))
            .filter_map(|form| form.bytes().next())
            .collect();
        Wanted { sets, firsts }
    }

    pub(super) fn contains(&self, joined: &str) -> bool {
        self.sets.iter().any(|set| set.contains(joined))
    }

    /// Whether a run that begins with the word `first` may join to a wanted form: the
    /// singular changes at most the last three letters of the joined words, at least one of
    /// them the next word's, so a wanted form begins with all of `first` but its last two.
    /// Most runs of most titles are never joined (emberjs/rfcs: 262 titles, issue 41).
    pub(super) fn may_begin(&self, first: &str) -> bool {
        self.may_lead(first, 2)
    }

    /// Whether the words joined so far, `joined`, may lead to a wanted form, with the next
    /// words or alone: a form begins with all of them but their last three letters.
    pub(super) fn may_extend(&self, joined: &str) -> bool {
        self.may_lead(joined, 3)
    }

    /// Whether a form of [`RUN_LETTERS`] or more begins with all of `text` but its last `cut`
    /// bytes (and as `text` does).
    fn may_lead(&self, text: &str, cut: usize) -> bool {
        if !begins_as(&self.firsts, text) {
            return false;
        }
        let Some(kept) = text.get(..text.len().saturating_sub(cut)) else {
            return true;
        };
        self.sets.iter().any(|set| {
            set.range::<str, _>((std::ops::Bound::Included(kept), std::ops::Bound::Unbounded))
                .take_while(|form| form.starts_with(kept))
                .any(|form| form.len() >= RUN_LETTERS)
        })
    }
}

/// Whether `word` begins with one of `firsts`, the first bytes of a name's parts: else no
/// run of the parts spells it. The plural folded, the stem taken, a word of three letters or
/// more keeps its first letter (`ies` → `y` changes it only for a word of one letter), and a
/// run of parts begins as its first part does.
pub(super) fn begins_as(firsts: &[u8], word: &str) -> bool {
    word.bytes().next().is_some_and(|b| firsts.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_is_split_and_lowered_alike_in_ascii_or_not() {
        for (title, words) in [
            (
                "Use # as indicator for BibTeX",
                vec!["use", "as", "indicator", "for", "bibtex"],
            ),
            (
                "API v3: the_new-Way",
                vec!["api", "v3", "the", "new", "way"],
            ),
            ("Überall Straße API", vec!["überall", "straße", "api"]),
            ("  --Use--the_X1 y2--", vec!["use", "the", "x1", "y2"]),
            ("", vec![]),
            ("-- / --", vec![]),
        ] {
            assert_eq!(Lowered::of(title).words().collect::<Vec<_>>(), words);
        }
    }

    #[test]
    fn a_run_is_joined_only_when_its_first_word_may_begin_a_wanted_form() {
        let forms: BTreeSet<String> = ["partyline", "minitaxy", "taxy"].map(String::from).into();
        let forms = [&forms];
        let wanted = Wanted::new(&forms);
        assert!(wanted.may_begin("party"));
        assert!(
            wanted.may_begin("minitaxi"),
            "`minitaxi` `es` joins to `minitaxies`, then `minitaxy`"
        );
        assert!(
            !wanted.may_begin("taxi"),
            "`taxy` is shorter than any run joined"
        );
        assert!(!wanted.may_begin("version"));
        assert!(wanted.may_extend("partylines"), "its plural folds");
        assert!(wanted.may_extend("partyl"));
        assert!(!wanted.may_extend("partytime"));
        let accented: BTreeSet<String> = ["éaplatform".to_string()].into();
        let accented = [&accented];
        assert!(
            Wanted::new(&accented).may_begin("éa"),
            "not cut inside a letter"
        );
        assert!(!Wanted::new(&accented).may_begin("a"));
        let folded = title_runs(
            &Lowered::of("Minitaxi es"),
            &Wanted::new(&[&["minitaxy".to_string()].into()]),
        );
        assert_eq!(
            folded,
            [("minitaxi es".to_string(), "minitaxy".to_string())]
        );
    }
}
