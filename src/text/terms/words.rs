//! Words that are no terms (ADR-0017): common words, the names every repository has, a
//! language's own types, placeholders and the records' own words; and a key's plural folded.

#[cfg(test)]
use super::key;
use std::borrow::Cow;

/// The keys of some word lists, in a table made when the program is compiled: made at run
/// time, a warm answer's three sets cost it 160,000 instructions, more than its lookups
/// (issue 41). Open addressing over FNV-1a of each word's key; a slot holds the word as
/// listed, compared by its key.
struct KeyTable<const N: usize>([&'static str; N]);

/// The bytes a key keeps (the lists are ASCII): `super::is_key_separator`'s complement, which
/// a test holds it to.
const fn kept(c: u8) -> bool {
    !matches!(c, b'_' | b'-' | b'.' | b':' | b'/' | b' ')
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;

const fn hashed(h: u64, c: u8) -> u64 {
    (h ^ c as u64).wrapping_mul(0x0100_0000_01b3)
}

impl<const N: usize> KeyTable<N> {
    const fn of(lists: &[&[&'static str]]) -> Self {
        let mut slots = [""; N];
        let (mut l, mut filled) = (0, 0);
        while l < lists.len() {
            let mut i = 0;
            while i < lists[l].len() {
                let word = lists[l][i];
                assert!(
                    !word.is_empty() && filled < N / 2,
                    "a word table is kept half empty"
                );
                let mut s = Self::slot_of(word);
                while !slots[s].is_empty() {
                    s = (s + 1) % N;
                }
                slots[s] = word;
                filled += 1;
                i += 1;
            }
            l += 1;
        }
        Self(slots)
    }

    /// Where the word's key hashes: its kept bytes, lowered.
    const fn slot_of(word: &str) -> usize {
        let b = word.as_bytes();
        let (mut h, mut i) = (SEED, 0);
        while i < b.len() {
            if kept(b[i]) {
                h = hashed(h, b[i].to_ascii_lowercase());
            }
            i += 1;
        }
        (h % N as u64) as usize
    }

    /// Whether `k`, a key, is the key of a word listed.
    fn contains(&self, k: &str) -> bool {
        let h = k.bytes().fold(SEED, hashed);
        let mut s = (h % N as u64) as usize;
        loop {
            let word = self.0[s];
            if word.is_empty() {
                return false;
            }
            let its_key = word
                .bytes()
                .filter(|&c| kept(c))
                .map(|c| c.to_ascii_lowercase());
            if its_key.eq(k.bytes()) {
                return true;
            }
            s = (s + 1) % N;
        }
    }
}

/// Common words and the names every repository has: never terms. Compared by [`key`].
#[rustfmt::skip]
const STOP: &[&str] = &[
    // English
    "about", "above", "after", "again", "against", "all", "also", "and", "any", "are", "because",
    "been", "before", "being", "below", "between", "both", "but", "can", "could", "did", "does",
    "doing", "down", "during", "each", "either", "else", "few", "for", "from", "further", "had",
    "has", "have", "having", "her", "here", "hers", "him", "his", "how", "however", "into", "its",
    "itself", "just", "may", "might", "more", "most", "much", "must", "neither", "nor", "not",
    "now", "off", "once", "only", "other", "our", "ours", "out", "over", "own", "same", "shall",
    "she", "should", "since", "some", "such", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "through", "too", "under", "until", "upon", "very",
    "was", "way", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
    "with", "within", "without", "would", "yet", "you", "your", "new", "old", "use", "used",
    "uses", "using", "make", "made", "need", "needs", "one", "two", "three", "first", "last",
    "next", "see", "via", "per", "etc", "like", "well", "good", "bad", "yes", "get", "set", "add",
    "run", "let", "put", "end", "non", "pre", "post", "re", "co", "self", "up", "to", "on", "in",
    "at", "by", "of", "or", "an", "as", "be", "do", "go", "if", "is", "it", "no", "so", "we", "us",
    "my", "me",
    // common hyphenated prose
    "well-known", "long-term", "short-term", "third-party", "open-source", "built-in", "real-time",
    "read-only", "end-to-end", "up-to-date", "out-of-the-box", "day-to-day", "trade-off",
    "trade-offs", "follow-up", "opt-in", "opt-out", "one-off", "side-effect", "side-effects",
    "top-level", "low-level", "high-level", "e-mail", "so-called", "re-use", "pre-existing",
    "non-goals", "non-goal", "in-house", "in-memory", "on-call", "per-user", "server-side",
    "client-side", "back-end", "front-end", "run-time", "build-time", "compile-time",
    "case-by-case", "first-class", "fine-grained", "coarse-grained", "self-hosted", "multi-tenant",
    "single-tenant", "key-value", "human-readable",
    // decision-record words
    "adr", "adrs", "rfc", "rfcs", "decision", "decisions", "context", "consequences", "status",
    "accepted", "proposed", "rejected", "deprecated", "superseded", "option", "options",
    "considered", "pros", "cons", "outcome", "drivers", "record", "records",
];

/// Names every repository has: too common to tell anything as terms, but a noun of kind may
/// be one (`` the `exec` source ``: `sources/`).
#[rustfmt::skip]
const EVERYWHERE: &[&str] = &[
    "src", "lib", "libs", "bin", "doc", "docs", "test", "tests", "spec", "specs", "script",
    "scripts", "tool", "tools", "build", "dist", "vendor", "config", "configs", "app", "apps",
    "internal", "pkg", "cmd", "main", "index", "readme", "changelog", "license", "contributing",
    "makefile", "dockerfile", "github", "git", "example", "examples", "sample", "samples",
    "assets", "static", "public", "util", "utils", "common", "core", "shared", "data", "api",
    "web", "server", "client", "service", "services", "module", "modules", "package", "packages",
    "plugin", "plugins", "source", "code", "files", "file", "folder", "folders", "default",
    "defaults", "types", "type", "models", "model", "version", "versions", "feature", "features", "testing",
    "support", "docker", "deploy", "deployment", "release", "releases",
];

/// Common words of English and of software that name a technology or a concern, not a part
/// of this code (`extension`, `cache`, "PostgreSQL"): not a name unless written as code, and
/// then only of a distinctive path (docs/mentions.md, ADR-0017's amendment of 2026-12-05).
#[rustfmt::skip]
const COMMON_TECH: &[&str] = &[
    "extension", "extensions", "database", "databases", "cache", "caches", "caching", "storage",
    "queue", "queues", "backend", "backends", "frontend", "frontends", "postgresql", "postgres",
    "mysql", "sqlite", "redis", "mongodb", "kafka", "rabbitmq", "elasticsearch", "auth",
    "authentication", "authorization", "logging", "logs", "metrics", "monitoring", "security",
    "network", "networking", "http", "https", "json", "yaml", "xml", "html", "css", "email",
    "mail", "notification", "notifications", "search", "scheduler", "worker", "workers", "job",
    "jobs", "event", "events", "message", "messages", "messaging", "session", "sessions",
    "helper", "helpers", "handler", "handlers", "middleware", "schema", "schemas", "migration",
    "migrations", "template", "templates", "integration", "integrations", "infrastructure",
    "monitor", "alerts", "alerting", "license", "licenses", "licence", "licences", "gateway",
];

/// Whether a key is a common word of English or software naming a technology or a concern
/// ([`COMMON_TECH`]): a name only written as code, and then of a distinctive path.
pub fn is_common(k: &str) -> bool {
    static KEYS: KeyTable<256> = KeyTable::of(&[COMMON_TECH]);
    KEYS.contains(k)
}

/// The names of a language's own standard types, written in backticks as any program's code
/// writes them (`Vec`, `HashMap`, `Optional`): the language's, not the repository's code.
/// Compared as written.
#[rustfmt::skip]
pub(super) const LANGUAGE_TYPES: &[&str] = &[
    "Vec", "VecDeque", "HashMap", "HashSet", "BTreeMap", "BTreeSet", "String", "Option",
    "Result", "Box", "Arc", "Rc", "RefCell", "Cell", "Mutex", "RwLock", "Cow", "Future",
    "Iterator", "Optional", "Promise", "Exception", "Tuple", "IEnumerable", "IList",
    "IDictionary", "CancellationToken", "ArrayList", "LinkedList",
];

/// Placeholder names: never terms.
#[rustfmt::skip]
const PLACEHOLDERS: &[&str] = &[
    "foo", "bar", "baz", "qux", "quux", "foobar", "xxx", "yyy", "todo", "tbd", "placeholder",
    "something", "whatever", "acme", "myapp", "myproject", "myservice", "mycompany", "yourapp",
    "yourproject", "someservice", "hello", "helloworld", "lorem", "ipsum",
];

/// The decision-record words of [`STOP`]: inside a phrase with another word they may name
/// code of a tool about records (`ADR slug` is `AdrSlug.ts`).
#[rustfmt::skip]
const RECORD_WORDS: &[&str] = &["adr", "adrs", "rfc", "rfcs", "decision", "decisions", "record", "records"];

pub(super) fn is_record_word(k: &str) -> bool {
    RECORD_WORDS.contains(&k)
}

/// The keys of [`STOP`], [`EVERYWHERE`] and [`PLACEHOLDERS`].
static STOP_KEYS: KeyTable<1024> = KeyTable::of(&[STOP, EVERYWHERE, PLACEHOLDERS]);

pub fn is_stop(k: &str) -> bool {
    k.len() < 3 || STOP_KEYS.contains(k) || k.chars().all(|c| c.is_ascii_digit())
}

/// Whether a key of two letters may be a name written as code (`` the `pg` backend ``): lower
/// case, and not a word of [`STOP`] or a name every repository has (`go`, `do`).
pub(super) fn is_short_code(k: &str) -> bool {
    k.len() == 2 && k.chars().all(|c| c.is_ascii_lowercase()) && !STOP_KEYS.contains(k)
        || is_version_name(k)
}

/// Whether a key is a version's name, `v` and a number (`v3`, `v12`): in backticks beside the
/// kind it versions (`` API `v3` ``) it names the folder of that version (`api/v3/`), as a
/// name of two letters does.
pub fn is_version_name(k: &str) -> bool {
    k.len() >= 2 && k.len() <= 3 && k.starts_with('v') && k[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Whether a key is a common word of English or of records (not one of the names every
/// repository has).
pub(super) fn is_english(k: &str) -> bool {
    is_stop(k) && !is_everywhere(k)
}

/// Whether a key is one of the names every repository has (`src`, `api`, `build`, `plugin`).
fn is_everywhere(k: &str) -> bool {
    // A table, not a scan: `why`'s title words ask it of every record's title (issue 41).
    static KEYS: KeyTable<256> = KeyTable::of(&[EVERYWHERE]);
    KEYS.contains(k)
}

/// A name written as a placeholder: `my-app`, `your_service`, `<name>`, `example-*`.
pub(super) fn is_placeholder(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "my-", "my_", "your-", "your_", "example-", "example_", "some-", "some_",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || ["-example", "_example", "-name", "_name"]
            .iter()
            .any(|s| lower.ends_with(s))
}

/// A name written with its type's parameters (`Optional[T]`, `Result<T, E>`) without them.
pub(super) fn without_generics(word: &str) -> &str {
    match word.find(['[', '<']) {
        Some(at) if at > 0 && word.ends_with([']', '>']) => &word[..at],
        _ => word,
    }
}

/// A key with its last word's plural folded: `organisations` → `organisation`, `policies` →
/// `policy`, `classes` → `class`; `status`, `analysis`, `access` and `series` kept.
pub fn singular(k: &str) -> String {
    singular_of(k).into_owned()
}

/// [`singular`], borrowing `k` (or a part of it) when no letter is added: most words.
pub fn singular_of(k: &str) -> Cow<'_, str> {
    if k.ends_with("series") || k.ends_with("species") {
        return Cow::Borrowed(k);
    }
    if let Some(stem) = k.strip_suffix("ies") {
        return Cow::Owned(format!("{stem}y"));
    }
    if let Some(stem) = k.strip_suffix("sses") {
        return Cow::Borrowed(&k[..stem.len() + 2]);
    }
    if k.ends_with('s') && !["ss", "us", "is"].iter().any(|e| k.ends_with(e)) {
        return Cow::Borrowed(&k[..k.len() - 1]);
    }
    Cow::Borrowed(k)
}

#[cfg(test)]
mod key_sets {
    use super::*;

    #[test]
    fn every_listed_word_is_found_by_its_key() {
        for w in STOP.iter().chain(EVERYWHERE).chain(PLACEHOLDERS) {
            assert!(is_stop(&key(w)), "{w}");
        }
        for w in COMMON_TECH {
            assert!(is_common(&key(w)), "{w}");
        }
        assert!(is_stop("wellknown"), "a hyphenated word by its key");
        for w in [
            "policies", "classes", "series", "species", "status", "axis", "tokens", "key",
        ] {
            assert_eq!(singular_of(w), singular(w), "{w}");
        }
        assert!(matches!(singular_of("tokens"), Cow::Borrowed("token")));
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("classes"), "class");
        assert!(!is_stop("well-known"), "keys only");
    }

    #[test]
    fn a_table_finds_what_a_set_of_the_keys_finds() {
        use std::collections::HashSet;
        let lists: [&[&str]; 4] = [STOP, EVERYWHERE, PLACEHOLDERS, COMMON_TECH];
        for c in lists.iter().flat_map(|l| l.iter()).flat_map(|w| w.bytes()) {
            assert_eq!(
                kept(c),
                !super::super::is_key_separator(c as char),
                "{}",
                c as char
            );
        }
        let stop: HashSet<String> = [STOP, EVERYWHERE, PLACEHOLDERS]
            .iter()
            .flat_map(|l| l.iter())
            .map(|w| key(w))
            .collect();
        let asked = lists
            .iter()
            .flat_map(|l| l.iter())
            .flat_map(|w| {
                [
                    key(w),
                    w.to_string(),
                    format!("{}s", key(w)),
                    key(w)[1..].to_string(),
                ]
            })
            .chain(["", "x", "zzz", "Src", "well-known", "wellknown"].map(String::from));
        for k in asked {
            assert_eq!(STOP_KEYS.contains(&k), stop.contains(&k), "{k:?}");
            assert_eq!(
                is_everywhere(&k),
                EVERYWHERE.iter().any(|w| key(w) == k),
                "{k:?}"
            );
            assert_eq!(
                is_common(&k),
                COMMON_TECH.iter().any(|w| key(w) == k),
                "{k:?}"
            );
        }
    }
}
