//! The records' vocabulary (ADR-0017): the words, phrases and code that several records and a
//! tenth of them say, the domain's words rather than the name of a small file.

use crate::text::terms::{key, product_key, singular, Kind, Term};
use std::collections::{HashMap, HashSet};

/// The records' vocabulary: the words and phrases (not compound names) that at least
/// [`VOCABULARY_RECORDS`] records and a tenth of them say. A database's records all say
/// "time series", "query engine", `schema`; a kernel's, "function calling": the domain's
/// words, not the name of the small file that happens to be called so.
#[derive(Debug, Default)]
pub struct Vocabulary {
    words: HashSet<String>,
    /// The words some record writes in lower case in its prose: ordinary words, not names
    /// (`Security`, `Networking` at the start of a sentence or in a title).
    lower: HashSet<String>,
    /// The names as many records write them in code (`RecordBatch`), as written.
    coded: HashSet<String>,
    /// For each of those, the most times one record writes it in backticks, and the most
    /// any other record does: [`Vocabulary::owns`].
    most_coded: HashMap<String, (u32, u32)>,
}

/// The fewest times a record writes a name of the vocabulary in backticks to own it
/// ([`Vocabulary::owns`]).
pub const OWNER_CODED: u32 = 5;

/// The fewest records that make a word the vocabulary.
pub const VOCABULARY_RECORDS: usize = 3;

impl Vocabulary {
    /// The vocabulary of the records whose terms are `each` (one list per record).
    pub fn new<'a>(each: impl IntoIterator<Item = &'a [Term]>) -> Vocabulary {
        let mut said: HashMap<String, usize> = HashMap::new();
        let mut coded: HashMap<String, usize> = HashMap::new();
        let mut most_coded: HashMap<String, (u32, u32)> = HashMap::new();
        let mut lower: HashSet<String> = HashSet::new();
        let mut records: usize = 0;
        for terms in each {
            records += 1;
            let mut code: HashMap<&str, u32> = HashMap::new();
            for t in terms
                .iter()
                .filter(|t| matches!(t.kind, Kind::Code | Kind::Identifier))
            {
                let n = code.entry(t.text.as_str()).or_default();
                *n = (*n).max(t.coded);
            }
            for (c, n) in code {
                *coded.entry(c.to_string()).or_default() += 1;
                let (first, second) = most_coded.entry(c.to_string()).or_insert((0, 0));
                if n > *first {
                    *second = *first;
                    *first = n;
                } else {
                    *second = (*second).max(n);
                }
            }
            let keys: HashSet<String> = terms
                .iter()
                .filter(|t| t.kind != Kind::Language)
                .map(vocabulary_key)
                .collect();
            lower.extend(
                terms
                    .iter()
                    .filter(|t| {
                        matches!(t.kind, Kind::Word | Kind::Once)
                            && t.text.chars().all(|c| c.is_ascii_lowercase())
                    })
                    .map(|t| key(&t.text)),
            );
            for k in keys {
                *said.entry(k).or_default() += 1;
            }
        }
        let least = VOCABULARY_RECORDS.max(records.div_ceil(10));
        let coded: HashSet<String> = coded
            .into_iter()
            .filter(|(_, n)| *n >= least)
            .map(|(k, _)| k)
            .collect();
        most_coded.retain(|k, _| coded.contains(k));
        Vocabulary {
            words: said
                .into_iter()
                .filter(|(_, n)| *n >= least)
                .map(|(k, _)| k)
                .collect(),
            lower,
            coded,
            most_coded,
        }
    }

    /// Whether at least [`VOCABULARY_RECORDS`] records and a tenth of them write `term` as
    /// code, as it is written: a type they all use, most often a library's (`RecordBatch`).
    pub fn coded(&self, term: &Term) -> bool {
        self.coded.contains(&term.text)
    }

    /// Whether the record whose term is `term` owns a name of the vocabulary written as code:
    /// it writes it in backticks at least [`OWNER_CODED`] times and more than three times as
    /// often as any other record does. nginx-gateway-fabric's proposal of the
    /// `ClientSettingsPolicy` API writes it 35 times; four others name it once each.
    pub fn owns(&self, term: &Term) -> bool {
        self.most_coded
            .get(&term.text)
            .is_some_and(|&(first, second)| {
                term.coded >= OWNER_CODED && term.coded == first && first > 3 * second
            })
    }

    /// Whether at least [`VOCABULARY_RECORDS`] records and a tenth of them say `term`, of
    /// whatever kind (`TableScan`, a library's type many records name): not a name a path's
    /// last parts may spell.
    pub fn says(&self, term: &Term) -> bool {
        self.words.contains(&vocabulary_key(term))
    }

    /// Whether a capitalised name is an ordinary word some record writes in lower case.
    pub fn ordinary(&self, term: &Term) -> bool {
        term.kind == Kind::Name && self.lower.contains(&key(product_key(&term.text)))
    }

    /// Whether `term` is a word or phrase of the vocabulary: a compound name (CamelCase,
    /// snake_case, dotted or `::`) or a folder named as one never is.
    pub fn holds(&self, term: &Term) -> bool {
        let compound = term.text.contains(['_', '.', ':'])
            || term
                .text
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            // A kebab-case name in backticks (`datadog-agent`) is written as code, not as the
            // domain's words (in prose, `time-series` is English).
            || (term.kind == Kind::Code && term.text.contains('-'));
        !matches!(
            term.kind,
            Kind::Folder
                | Kind::TitlePhrase
                | Kind::Command
                | Kind::Invocation
                | Kind::Link
                | Kind::Controller
        ) && !compound
            && self.words.contains(&vocabulary_key(term))
    }
}

/// A term's key as the vocabulary counts it: plural folded, a product's `.js` left out.
fn vocabulary_key(term: &Term) -> String {
    singular(&key(product_key(&term.text)))
}
