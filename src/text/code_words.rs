//! The words of a text as `why`'s `text` evidence compares a record with a file
//! (docs/related.md, ADR-0017): every identifier split where its case changes and at its
//! digits (`XMLParser` gives `xml` and `parser`; `DirectoryMonitor` gives `directory`,
//! `monitor` and `directorymonitor`), parts of three letters or more, lowered, common English,
//! keywords of code and words every record has left out, and a plain ending taken off
//! (`monitoring` and `monitors` are `monitor`). The same function reads records and code.
//!
//! How common each word is in code, whatever the repository ([`rarity`]), is a table made from
//! the tracked files of 27 public repositories of eleven languages (`bench/code-words.py`).

use super::code_words_table::TABLE;

/// A word no table entry is below: in one file in five hundred, or fewer.
const FLOOR: f64 = 0.002;
/// The table's shares are in ten-thousandths.
const SCALE: f64 = 10_000.0;
/// Past this many bytes a file's text is not read for words.
pub const MAX_BYTES: usize = 200_000;

/// English, keywords of code, and what every record says: no word of these tells one record
/// from another, or a file's subject.
#[rustfmt::skip]
const STOP: &[&str] = &[
    "a", "about", "above", "accepted", "adr", "adrs", "after", "again", "against", "all", "also",
    "am", "an", "and", "any", "are", "as", "async", "at", "await", "be", "because", "been",
    "before", "being", "below", "between", "bool", "boolean", "both", "break", "but", "by", "can",
    "case", "catch", "chosen", "class", "com", "consequences", "considered", "const", "context",
    "continue", "could", "date", "decision", "decisions", "def", "default", "deprecated", "did",
    "do", "does", "doing", "down", "during", "each", "elif", "else", "enum", "etc", "example",
    "examples", "except", "export", "false", "few", "final", "fn", "for", "from", "func",
    "function", "further", "get", "github", "had", "has", "have", "having", "he", "her", "here",
    "hers", "him", "his", "how", "http", "https", "i", "if", "impl", "import", "in", "int",
    "interface", "into", "is", "it", "its", "itself", "just", "let", "made", "make", "makes",
    "may", "me", "might", "module", "more", "most", "must", "mut", "my", "need", "needs", "new",
    "nil", "no", "none", "nor", "not", "note", "now", "null", "of", "off", "on", "once", "one",
    "only", "option", "options", "or", "org", "other", "our", "ours", "out", "over", "own",
    "package", "private", "proposed", "protected", "pub", "public", "raise", "record", "records",
    "ref", "return", "returns", "same", "see", "self", "set", "shall", "she", "should", "so",
    "some", "static", "status", "string", "struct", "such", "superseded", "switch", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "those", "through", "throw",
    "throws", "to", "todo", "too", "true", "try", "two", "type", "under", "until", "up", "use",
    "used", "uses", "using", "val", "var", "very", "void", "want", "was", "way", "ways", "we",
    "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with",
    "would", "www", "yield", "you", "your", "yours",
];

/// Calls `each` with every word of `text`, in order, as compared (lowered, its ending taken
/// off) and as written (lowered); an identifier's parts are each given once.
pub fn each_word(bytes: &[u8], mut each: impl FnMut(&str, &str)) {
    let mut i = 0;
    let mut parts: Vec<(usize, usize)> = Vec::new();
    let mut lowered = String::new();
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let ident = &bytes[start..i];
        split(ident, &mut parts);
        parts.retain(|(a, b)| b - a >= 3);
        // The whole identifier too, when it has two such parts: `directorymonitor`.
        if parts.len() > 1 && ident.len() <= 30 {
            parts.push((0, ident.len()));
        }
        for (k, &(a, b)) in parts.iter().enumerate() {
            let part = &ident[a..b];
            // Each part once (`fooFoo` gives `foo` once).
            if parts[..k]
                .iter()
                .any(|&(x, y)| ident[x..y].eq_ignore_ascii_case(part))
            {
                continue;
            }
            lowered.clear();
            lowered.extend(part.iter().map(|c| char::from(c.to_ascii_lowercase())));
            if part.iter().all(u8::is_ascii_digit) || STOP_SLOTS.find(STOP, &lowered).is_some() {
                continue;
            }
            each(stem(&lowered), &lowered);
        }
    }
}

/// `ident`'s parts, as ranges: a run of capitals not followed by a small letter (`XML` of
/// `XMLParser`), a capital and the small letters after it, small letters, or digits.
fn split(b: &[u8], parts: &mut Vec<(usize, usize)>) {
    parts.clear();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i].is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else if b[i].is_ascii_uppercase() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_uppercase() {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_lowercase() {
                // The last capital begins a word (`P` of `XMLParser`), unless it is the only one.
                if j - i > 1 {
                    parts.push((i, j - 1));
                    i = j - 1;
                    continue;
                }
                i = j;
                while i < b.len() && b[i].is_ascii_lowercase() {
                    i += 1;
                }
            } else {
                i = j;
            }
        } else {
            while i < b.len() && b[i].is_ascii_lowercase() {
                i += 1;
            }
        }
        parts.push((start, i));
    }
}

/// `word` with a plain ending taken off, when four letters or more are left before it:
/// `monitoring` → `monitor`, `policies` → `polici` (records and code alike).
pub fn stem(word: &str) -> &str {
    const ENDINGS: &[&str] = &[
        "ations", "ation", "ings", "ing", "ers", "er", "es", "ed", "ly", "s",
    ];
    for end in ENDINGS {
        if word.len() > end.len() + 3 && word.ends_with(end) {
            return &word[..word.len() - end.len()];
        }
    }
    word
}

/// How rare `word` (as [`each_word`] gives it) is in code: the natural log of one over the
/// share of a repository's files that have it, at most that of one file in five hundred.
pub fn rarity(word: &str) -> f64 {
    let share = match SLOTS.find(&TABLE_WORDS, word) {
        Some(at) => f64::from(TABLE[at].1) / SCALE,
        None => 0.0,
    };
    (1.0 / share.max(FLOOR)).ln()
}

/// FNV-1a of `bytes`: where a word's slot begins, here and in a vocabulary's index
/// (`related::text`).
pub const fn fnv(bytes: &[u8]) -> u64 {
    let (mut h, mut i) = (0xcbf2_9ce4_8422_2325u64, 0);
    while i < bytes.len() {
        h = (h ^ bytes[i] as u64).wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

/// Slots for a list's words, made when the program is compiled (a binary search of the lists,
/// once for each word of a file, was most of what reading a file's words cost): open
/// addressing over [`fnv`], each slot one past a word's place in its list, or 0. `N`, a power
/// of two, is at least four times the words.
struct Slots<const N: usize>([u16; N]);

static TABLE_WORDS: [&str; TABLE.len()] = table_words();
static SLOTS: Slots<{ 1 << 15 }> = Slots::of(&TABLE_WORDS);
static STOP_SLOTS: Slots<1024> = Slots::of(STOP);

/// [`TABLE`]'s words, in its order.
const fn table_words() -> [&'static str; TABLE.len()] {
    let mut out = [""; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        out[i] = TABLE[i].0;
        i += 1;
    }
    out
}

impl<const N: usize> Slots<N> {
    const fn of(words: &[&str]) -> Self {
        assert!(N.is_power_of_two() && words.len() * 4 <= N && words.len() < u16::MAX as usize);
        let mut slots = [0u16; N];
        let mut i = 0;
        while i < words.len() {
            let mut s = (fnv(words[i].as_bytes()) as usize) & (N - 1);
            while slots[s] != 0 {
                s = (s + 1) & (N - 1);
            }
            slots[s] = (i + 1) as u16;
            i += 1;
        }
        Slots(slots)
    }

    /// `word`'s place in `words`, the list these slots were made of.
    fn find(&self, words: &[&str], word: &str) -> Option<usize> {
        let mut s = (fnv(word.as_bytes()) as usize) & (N - 1);
        loop {
            let at = usize::from(self.0[s]).checked_sub(1)?;
            if words.get(at) == Some(&word) {
                return Some(at);
            }
            s = (s + 1) & (N - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        each_word(text.as_bytes(), |w, _| out.push(w.to_string()));
        out
    }

    #[test]
    fn identifiers_are_split_where_their_case_changes() {
        assert_eq!(
            words("XMLParser DirectoryMonitor"),
            [
                "xml",
                "pars",
                "xmlpars",
                "directory",
                "monitor",
                "directorymonitor"
            ]
        );
        assert_eq!(words("snake_case_name"), ["snake", "name"]);
        assert_eq!(words("auth0_controller"), ["auth", "controll"]);
    }

    #[test]
    fn english_keywords_and_short_parts_are_left_out() {
        assert_eq!(
            words("the class of a Case to be used"),
            Vec::<String>::new()
        );
        assert_eq!(words("fn ab(x: u8)"), Vec::<String>::new());
    }

    #[test]
    fn the_stop_list_is_sorted_for_its_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn endings_are_taken_off_alike() {
        assert_eq!(stem("monitoring"), "monitor");
        assert_eq!(stem("monitors"), "monitor");
        assert_eq!(stem("policies"), "polici");
        assert_eq!(stem("serialization"), "serializ");
        assert_eq!(stem("cats"), "cats");
    }

    #[test]
    fn every_word_of_the_table_is_found_in_its_slots() {
        for (at, (w, _)) in TABLE.iter().enumerate() {
            assert_eq!(SLOTS.find(&TABLE_WORDS, w), Some(at), "{w}");
        }
        for (at, w) in STOP.iter().enumerate() {
            assert_eq!(STOP_SLOTS.find(STOP, w), Some(at), "{w}");
        }
        assert_eq!(STOP_SLOTS.find(STOP, "monitor"), None);
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn common_code_words_are_less_rare() {
        assert!(rarity("name") < rarity("directory"));
        assert!(rarity("directory") < rarity("zzqqxx"));
        assert!((rarity("zzqqxx") - (1.0 / FLOOR).ln()).abs() < 1e-9);
    }
}
