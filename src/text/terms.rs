//! The terms a record's prose may name code by (CONTRACT.md §11, ADR-0017): words in
//! backticks that are not paths, compound identifiers, bare words; common words, placeholders
//! and a record's own title words are not terms. Pure text: `mentions` resolves them against
//! the tracked paths.

use crate::text::line_marks::{AfterLists, Examples, Pipes};
use crate::text::markdown::{code_spans, text_links};
use crate::text::path::clean_code_path;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// How a term was written, which decides what it may name and how sure a match is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A word in backticks that is not a path (`` `billing` ``, `` `Invoice::Total` ``).
    Code,
    /// A compound identifier in prose: CamelCase, snake_case, kebab-case, a dotted or `::`
    /// module path.
    Identifier,
    /// A bare word: it may only name a top-level folder or a package.
    Word,
    /// Two or three adjacent prose words, none a common word (`Worldwide Organisations`,
    /// `RDS instance`): they may name a file or folder of as many words, the last word's
    /// plural folded (`worldwide_organisation.rb`, `rds_instance/`).
    Phrase,
    /// A product's or a tool's name written capitalised in prose (`Lambda`, `MySQL`,
    /// `Lerna`, `ESLint`, `Next.js`; not an acronym) and said twice or in the title: it may
    /// name the one folder or tool's file of the tree whose name begins with it (`lambda/`,
    /// `mysql/`, `lerna.json`, `.eslintrc.js`).
    Name,
    /// A folder named as one: "the projects directory", "the `lambda` folder".
    Folder,
    /// A phrase of the title: read as [`Kind::Phrase`], but never the records' vocabulary (the
    /// title is what the record is about: `Region Migration`).
    TitlePhrase,
    /// Said once, not a term by itself: read only to count how many records say it (a word
    /// or phrase most records say is the domain's vocabulary, not a name of code).
    Once,
    /// A command in backticks, its program and a first subcommand the record's title names
    /// (`jj sparse` of `` `jj sparse set --add x` `` in a record titled "Sparse patterns"): it
    /// may name that subcommand's file or folder in a folder of commands
    /// (`cli/src/commands/sparse/`).
    Command,
    /// A link into a forge's view of code (`https://github.com/o/r/blob/REF/a/b.rs`,
    /// GitLab's `/-/tree/REF/a/`): it names that tracked file or folder, and nothing else.
    Link,
    /// A programming language the record names (`Python`, `.NET`, `C#`, `Java`), by the name
    /// of the folder a multi-language repository keeps its port in (`python`, `dotnet`):
    /// never a name of code, read only to tell which language's port the record is about.
    Language,
    /// A lower-case word in backticks listed among three code spans or more (`` `consumer`,
    /// `receiver`, `processor` ``): a value of an enumeration, a column, a source, or the
    /// names of modules. It may name only a top-level folder or a package of code, as a bare
    /// word may (issue 20's seventh round).
    Value,
    /// A word written right before a noun saying it is a unit of code ("the Suggest
    /// component", "the `logins` crate" aside: in prose): it may name the one folder of that
    /// name holding a package's manifest, or a Go package (`components/suggest/`).
    Unit,
    /// A capitalised word the prose calls a type ("an Optional type", "the Node struct"): it
    /// may name only the one source file that defines a type of that name
    /// (`type Optional[T any] struct`).
    Type,
    /// A name the prose calls a controller ("the Usage controller", "the `trigger`
    /// controller", "the Node Health controller"): it may name only the one folder of that
    /// name in a folder of controllers (`internal/controller/protection/usage/`).
    Controller,
    /// A command line, in backticks or a line of a fenced block (`` `flux push artifact
    /// oci://…` ``, `$ egctl config envoy-ratelimit`): the program and the subcommand words
    /// after it. It may name only the one file of those words joined, or of the longest run
    /// of them from the first, in the program's own folder in a folder of commands
    /// (`cmd/flux/push_artifact.go`, cobra's layout; issue 20's ninth round).
    Invocation,
}

/// A term as a record writes it, and its line (1-based); each term once per record, at its
/// first line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Term {
    pub text: String,
    pub line: u32,
    pub kind: Kind,
    /// The nouns the record writes next to the name, wherever it writes it, each as its key
    /// in the singular: the kind of thing the prose says it is (`` the `aws_s3` source ``,
    /// `` `throttle` transform ``, a table's column headed "sink"), which may be the name
    /// of the folder of that kind of code (`sources/`, `transforms/`). Always stored: the
    /// index's codec is not self-describing.
    pub nouns: Vec<String>,
    /// How many times the record writes the name in backticks (0 for a term of another
    /// kind): a single word written so once may be said in passing (`` the `Map` ``).
    pub coded: u32,
}

/// The key a name is matched by: lower case, without `_`, `-`, `.`, `:` or `/`.
pub fn key(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ':' | '/' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
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

/// The names of a language's own standard types, written in backticks as any program's code
/// writes them (`Vec`, `HashMap`, `Optional`): the language's, not the repository's code.
/// Compared as written.
#[rustfmt::skip]
const LANGUAGE_TYPES: &[&str] = &[
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

fn is_record_word(k: &str) -> bool {
    RECORD_WORDS.contains(&k)
}

fn is_stop(k: &str) -> bool {
    static SET: std::sync::OnceLock<HashSet<String>> = std::sync::OnceLock::new();
    let set = SET.get_or_init(|| {
        STOP.iter()
            .chain(EVERYWHERE)
            .chain(PLACEHOLDERS)
            .map(|w| key(w))
            .collect()
    });
    k.len() < 3 || set.contains(k) || k.chars().all(|c| c.is_ascii_digit())
}

/// Whether a key is a common word of English or of records (not one of the names every
/// repository has).
fn is_english(k: &str) -> bool {
    is_stop(k) && !EVERYWHERE.iter().any(|w| key(w) == k)
}

/// A name written as a placeholder: `my-app`, `your_service`, `<name>`, `example-*`.
fn is_placeholder(text: &str) -> bool {
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

/// What a prose token is: a compound identifier, a bare word, or nothing to look up.
pub fn classify(token: &str) -> Option<Kind> {
    if token.contains("::") || token.contains('.') {
        // A dotted or `::` path: every part a name of two letters or more (not `e.g`, `i.e`).
        let parts: Vec<&str> = token.split([':', '.']).filter(|p| !p.is_empty()).collect();
        return (parts.len() >= 2 && parts.iter().all(|p| p.len() >= 2))
            .then_some(Kind::Identifier);
    }
    if token.contains(['_', '-']) {
        let letters = token.split(['_', '-']).filter(|p| !p.is_empty()).count();
        return (letters >= 2 && token.chars().any(|c| c.is_ascii_alphabetic()))
            .then_some(Kind::Identifier);
    }
    let camel = token
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    if camel {
        return Some(Kind::Identifier);
    }
    // A bare word names a folder only written as folders are, in lower case: `Terraform` or
    // `Nat` mid-sentence is a product or a person, `HTTP` an acronym.
    if token.chars().any(|c| c.is_uppercase()) {
        return None;
    }
    Some(Kind::Word)
}

/// The terms in a record's visible lines (fenced code blocks already left out: their names
/// are examples), each once at its first line. `title` is the record's title, on line
/// `title_line` (0-based; in the frontmatter, or the heading): its words are not bare-word
/// terms (a record titled "Billing" mentions billing everywhere), its phrases are.
pub fn terms(lines: &[(usize, &str)], title: &str, title_line: usize) -> Vec<Term> {
    let title_words: HashSet<String> = title
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .map(key)
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut code: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    // Each phrase by its key, plural folded: as first written, its line, how often said.
    let mut said: HashMap<String, (String, usize, usize)> = HashMap::new();
    // Each capitalised name the same way.
    let mut names: HashMap<String, (String, usize, usize)> = HashMap::new();
    // Each controller's name likewise, and whether a heading says it.
    let mut controlled: HashMap<String, (String, usize, usize, bool)> = HashMap::new();
    let push = |text: &str,
                line: usize,
                kind: Kind,
                out: &mut Vec<Term>,
                seen: &mut HashSet<String>,
                code: &mut HashSet<String>| {
        let k = key(text);
        if is_stop(&k) || is_placeholder(text) {
            return;
        }
        if matches!(kind, Kind::Code | Kind::Identifier) && LANGUAGE_TYPES.contains(&text) {
            return;
        }
        // A title word is said by the record, but is no bare-word term.
        let kind = match kind {
            Kind::Word if title_words.contains(&k) => Kind::Once,
            k => k,
        };
        // A name or a folder is looked up its own way: it may share its key with a term.
        let k = match kind {
            Kind::Name => format!("name:{k}"),
            Kind::Folder => format!("folder:{k}"),
            Kind::Unit => format!("unit:{k}"),
            Kind::Type => format!("type:{k}"),
            Kind::Controller => format!("controller:{k}"),
            Kind::Invocation => format!("invocation:{k}"),
            _ => k,
        };
        // A name read as code, plural folded (`BlobStores`): no phrase repeats it.
        if matches!(kind, Kind::Code | Kind::Identifier | Kind::Word) {
            code.insert(singular(&k));
        }
        if seen.insert(k.clone()) {
            out.push(Term {
                text: text.to_string(),
                line: line as u32 + 1,
                kind,
                nouns: Vec::new(),
                coded: 0,
            });
        } else if matches!(kind, Kind::Code | Kind::Identifier) {
            // Said bare first (a bare word, a title word, a listed value), written as code
            // later (`` used by `mdatagen` ``, `` the `Node` ``): the name is read as code, as
            // and where the code writes it.
            if let Some(t) = out.iter_mut().find(|t| {
                matches!(t.kind, Kind::Word | Kind::Once | Kind::Value) && key(&t.text) == k
            }) {
                t.text = text.to_string();
                t.line = line as u32 + 1;
                t.kind = kind;
            }
        }
    };
    // The nouns written next to each name, by the name's key.
    let mut nouns: HashMap<String, Vec<String>> = HashMap::new();
    // How many times each name is written in backticks, by its key.
    let mut spans_said: HashMap<String, u32> = HashMap::new();
    let mut languages: Vec<&str> = Vec::new();
    // The header of the table the line is a row of: its cells.
    let mut header: Option<Vec<&str>> = None;
    for (at, &(i, line)) in lines.iter().enumerate() {
        for language in languages_of(line) {
            if !languages.contains(&language) {
                languages.push(language);
            }
        }
        let row = table_row(line);
        if !row {
            header = None;
        }
        // A table's header row labels its columns: it names no code, and each cell says
        // what the column's cells are (`| sink | encoding |`).
        if row && lines.get(at + 1).is_some_and(|(_, next)| table_rule(next)) {
            header = Some(cells(line));
            continue;
        }
        if table_rule(line) {
            continue;
        }
        for path in code_links(line) {
            push(path, i, Kind::Link, &mut out, &mut seen, &mut code);
        }
        let line = &without_external_link_texts(line);
        let pipes = header.as_ref().map(|_| Pipes::of(line));
        let column = |offset: usize| -> Option<String> {
            let cells = header.as_ref()?;
            let before = pipes.as_ref()?.before(offset);
            let n = before.checked_sub(usize::from(line.trim_start().starts_with('|')))?;
            noun(cells.get(n)?.split_whitespace().last()?)
        };
        // Words in backticks that are not paths.
        let spans = code_spans(line);
        let values = enumerated(line);
        // A code span after "e.g." in the same clause (no sentence's end, closing parenthesis
        // or semicolon between) is given as an example: a name written to show a pattern or
        // a call (`` e.g., `OpenAI_ChatCompletion` ``). Not after "for example", which as often
        // brings in the case a record is about (`` For example, a `CassandraMailboxManager`
        // has to extend `StoreMailboxManager` ``), nor a prose word ("each component (e.g.
        // fxaclient, places, logins)" names the components).
        let examples = Examples::of(line);
        let mut lists = AfterLists::default();
        for span in &spans {
            let offset = span.as_ptr() as usize - line.as_ptr() as usize;
            if examples.at(offset) {
                continue;
            }
            let said = nouns.entry(key(span.trim_end_matches("()"))).or_default();
            for n in nouns_beside(line, offset, offset + span.len(), &mut lists)
                .into_iter()
                .chain(column(offset))
            {
                if !said.contains(&n) {
                    said.push(n);
                }
            }
            if let Some(call) = invocation(span) {
                push(&call, i, Kind::Invocation, &mut out, &mut seen, &mut code);
            }
            if let Some(command) = command(span, &title_words) {
                push(&command, i, Kind::Command, &mut out, &mut seen, &mut code);
                continue;
            }
            let word = without_generics(span.trim_end_matches("()"));
            // An all-capitals word is a constant or an acronym (`HEAD`, `PATH`), not a name.
            let shouting = !word.chars().any(|c| c.is_lowercase());
            // A lower-case word listed among three code spans or more is a value: a column,
            // a source, an option (`opentsdb` / `loki` / `custom`).
            let value = !word.chars().any(|c| c.is_uppercase()) && values.contains(span);
            // A dotted name whose first and last parts are capitalised is a namespace or a
            // project (`SemanticKernel.Connectors.OpenAI`), not a file's extension; one
            // starting in lower case is a variable's member or a path (`agent.Id`, `retry.Do`).
            // Go's `package.Name` (`confmap.Provider`) likewise: no file's extension is
            // capitalised.
            let member = !word.contains('/')
                && word.starts_with(|c: char| c.is_ascii_uppercase())
                && word.rsplit_once('.').is_some_and(|(_, last)| {
                    last.chars().any(|c| c.is_ascii_uppercase())
                        && last.chars().any(|c| c.is_ascii_lowercase())
                })
                || go_qualified(word).is_some();
            let path = clean_code_path(span).is_some() && !member;
            // A name with a leading or trailing underscore is a column's, a field's or a
            // private helper's (`__column_`, `_sum`), not a module's.
            if path || !is_name(word) || shouting || word.starts_with('_') || word.ends_with('_') {
                continue;
            }
            *spans_said.entry(key(word)).or_default() += 1;
            if value {
                // A single lower-case word is read as a bare word is: it may name a
                // top-level folder or a package (`consumer/`), never a file.
                if classify(word) == Some(Kind::Word) {
                    push(word, i, Kind::Value, &mut out, &mut seen, &mut code);
                }
                continue;
            }
            push(word, i, Kind::Code, &mut out, &mut seen, &mut code);
        }
        for folder in named_folders(line) {
            push(folder, i, Kind::Folder, &mut out, &mut seen, &mut code);
        }
        let prose = prose_of(line);
        let longer = in_longer_names(&prose);
        let mut lists = AfterLists::default();
        for token in tokens(&prose) {
            if let Some(kind) = classify(token) {
                let offset = token.as_ptr() as usize - prose.as_ptr() as usize;
                let said = nouns.entry(key(token)).or_default();
                for n in nouns_beside(&prose, offset, offset + token.len(), &mut lists) {
                    if !said.contains(&n) {
                        said.push(n);
                    }
                }
                push(token, i, kind, &mut out, &mut seen, &mut code);
            }
            if is_product(token) && !longer.contains(token) {
                let at = names
                    .entry(key(product_key(token)))
                    .or_insert((token.to_string(), i, 0));
                at.2 += 1;
            }
        }
        for (word, kind) in units_and_types(&prose) {
            if !title_words.contains(&key(word)) {
                push(word, i, kind, &mut out, &mut seen, &mut code);
            }
        }
        let before = at.checked_sub(1).and_then(|b| {
            prose_of(lines[b].1)
                .split_whitespace()
                .last()
                .map(str::to_string)
        });
        let heading = line.trim_start().starts_with('#');
        for name in controllers(&prose, before.as_deref()) {
            let at = controlled.entry(key(&name)).or_insert((name, i, 0, false));
            at.2 += 1;
            at.3 |= heading;
        }
        for phrase in phrases(&prose) {
            let k = singular(&key(&phrase));
            let at = said.entry(k).or_insert((phrase, i, 0));
            at.2 += 1;
        }
    }
    // Phrases last, so a name written as code wins the paths both name; a phrase only when
    // the record says it twice or more, or in its title (a concept it is about, not a
    // passing list item), and not when it is a name already read (`Blob Store`, `BlobStore`).
    // A phrase of the title is a term even when only the frontmatter says it ("Feature Name:
    // Region Migration Procedure"): the title is what the record is about.
    let in_title: HashSet<String> = phrases(title).iter().map(|p| singular(&key(p))).collect();
    for p in phrases(title) {
        let k = singular(&key(&p));
        said.entry(k).or_insert((p, title_line, 0));
    }
    let mut said: Vec<(String, (String, usize, usize))> = said.into_iter().collect();
    said.sort_by(|a, b| (a.1 .1, &a.0).cmp(&(b.1 .1, &b.0)));
    for (k, (phrase, line, count)) in said {
        let kind = match (in_title.contains(&k), count >= 2 && !code.contains(&k)) {
            _ if code.contains(&k) => Kind::Once,
            (true, _) => Kind::TitlePhrase,
            (false, true) => Kind::Phrase,
            (false, false) => Kind::Once,
        };
        push(&phrase, line, kind, &mut out, &mut seen, &mut code);
    }
    // A controller named in prose by a compound name ("the WatchOperation controller", "the
    // Node Health controller"), or by a single word said twice or in a heading ("#### Usage
    // Controller"): a single word said once in passing is context ("the lifecycle controller
    // already sets it"). Its name may be a title word ("the Usage controller" of a record
    // titled "Generic Usage Type"): the noun makes it a name of code, as a title's phrase is.
    let mut controlled: Vec<_> = controlled.into_values().collect();
    controlled.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    for (name, line, count, heading) in controlled {
        let compound = name.contains(' ')
            || name
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
        if compound || count >= 2 || heading {
            push(
                &name,
                line,
                Kind::Controller,
                &mut out,
                &mut seen,
                &mut code,
            );
        }
    }
    // Names likewise: said twice, or in the title.
    // Not the title's first word: capitalised as any sentence's first word is (`Retry policy`).
    let longer = in_longer_names(title);
    let title_names: HashSet<String> = tokens(title)
        .into_iter()
        .skip(1)
        .filter(|t| is_product(t) && !longer.contains(t))
        .map(|t| key(product_key(t)))
        .collect();
    let mut names: Vec<(String, (String, usize, usize))> = names.into_iter().collect();
    names.sort_by(|a, b| (a.1 .1, &a.0).cmp(&(b.1 .1, &b.0)));
    for (k, (name, line, count)) in names {
        let kind = match count >= 2 || title_names.contains(&k) {
            true => Kind::Name,
            false => Kind::Once,
        };
        push(&name, line, kind, &mut out, &mut seen, &mut code);
    }
    for term in &mut out {
        if matches!(term.kind, Kind::Code | Kind::Identifier) {
            if let Some(said) = nouns.remove(&key(&term.text)) {
                term.nouns = said;
            }
        }
        if term.kind == Kind::Code {
            term.coded = spans_said.get(&key(&term.text)).copied().unwrap_or(0);
        }
    }
    // A name in backticks the prose calls a controller (`` the `trigger` controller ``).
    let called: Vec<(String, u32)> = out
        .iter()
        .filter(|t| {
            t.kind == Kind::Code
                && t.nouns
                    .iter()
                    .any(|n| CONTROLLER_NOUNS.contains(&n.as_str()))
        })
        .map(|t| (t.text.clone(), t.line))
        .collect();
    for (text, line) in called {
        let k = format!("controller:{}", key(&text));
        if seen.insert(k) {
            out.push(Term {
                text,
                line,
                kind: Kind::Controller,
                nouns: Vec::new(),
                coded: 0,
            });
        }
    }
    for language in languages {
        out.push(Term {
            text: language.to_string(),
            line: 0,
            kind: Kind::Language,
            nouns: Vec::new(),
            coded: 0,
        });
    }
    out
}

/// The nouns a name at `start..end` of `line` (a code span's contents, or a prose token) has
/// beside it: the word after it, past its closing backticks and any names listed with it
/// (`` `dedupe`, `filter` or `sample` transforms ``), and the word before it, past its
/// opening backticks and a "called" or "named" (`a source called `x``). Keys, singular;
/// common words are none. `lists` keeps, for the line, what follows each list of spans
/// walked, so a line's names walk each list once.
fn nouns_beside(line: &str, start: usize, end: usize, lists: &mut AfterLists) -> Vec<String> {
    let mut out = Vec::new();
    let heading = line.trim_start().starts_with('#');
    let mut rest = line[end..].trim_start_matches('`');
    // The listed spans walked past, by where each starts in `line`.
    let mut walked = Vec::new();
    let after = loop {
        let trimmed = rest.trim_start_matches([' ', ',', '/', '\t']);
        if let Some(after) = ["and ", "or ", "nor "]
            .iter()
            .find_map(|w| trimmed.strip_prefix(w))
        {
            rest = after;
            continue;
        }
        if let Some(span) = trimmed.strip_prefix('`') {
            let at = trimmed.as_ptr() as usize - line.as_ptr() as usize;
            if let Some(known) = lists.get(at) {
                break known.clone();
            }
            walked.push(at);
            match span.find('`') {
                Some(close) => {
                    rest = span[close..].trim_start_matches('`');
                    continue;
                }
                None => break None,
            }
        }
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let ends = trimmed[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '`' | '\'')));
        // A capitalised word after a name is a product's or a person's, not a kind of
        // code (`vector-aggregator Helm chart`), but in a heading (`` `throttle` Transform ``).
        if ends && (heading || !word.starts_with(|c: char| c.is_ascii_uppercase())) {
            break noun(&word);
        }
        break None;
    };
    lists.keep(&walked, &after);
    out.extend(after);
    let before = line[..start].trim_end_matches('`').trim_end();
    let word = last_word(before);
    let word = match word.to_ascii_lowercase().as_str() {
        "called" | "named" => last_word(before[..before.len() - word.len()].trim_end()),
        _ => word,
    };
    if heading || !word.starts_with(|c: char| c.is_ascii_uppercase()) {
        out.extend(noun(word));
    }
    out
}

/// The run of ASCII letters `text` ends with, when a word ends there.
fn last_word(text: &str) -> &str {
    let from = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphabetic())
        .last()
        .map_or(text.len(), |(at, _)| at);
    let word = &text[from..];
    match text[..from].chars().next_back() {
        Some(c) if c.is_alphanumeric() || matches!(c, '_' | '-' | '.') => "",
        _ => word,
    }
}

/// A word as a noun of kind: its key in the singular, unless it is a common word or says
/// what a name is in the language (`type`, `class`, `function`), not where its code lies.
fn noun(word: &str) -> Option<String> {
    #[rustfmt::skip]
    const CONSTRUCTS: &[&str] = &[
        "type", "struct", "trait", "enum", "class", "interface", "function", "method", "field",
        "object", "variable", "value", "macro", "constant", "attribute", "property",
        "parameter", "argument", "instance", "file", "folder", "directory", "name", "key",
        "call", "test", "example", "sample", "option", "setting", "flag", "string", "note",
    ];
    let word = word.trim_matches(|c: char| !c.is_ascii_alphabetic());
    let k = singular(&key(word));
    (word.len() >= 3
        && word.chars().all(|c| c.is_ascii_alphabetic())
        && !is_english(&key(word))
        && !is_english(&k)
        && !CONSTRUCTS.contains(&k.as_str()))
    .then_some(k)
}

/// The nouns that say a word before them names a unit of code: a package, a crate, a module.
const UNIT_NOUNS: &[&str] = &[
    "component",
    "components",
    "crate",
    "crates",
    "package",
    "packages",
    "module",
    "modules",
    "library",
    "gem",
    "plugin",
    "extension",
];

/// The nouns that say the name before them is a controller's (a Kubernetes operator's
/// reconciling loop, each in a folder of its name among the controllers), as a key.
const CONTROLLER_NOUNS: &[&str] = &["controller", "reconciler"];

/// Words that say which kind of controller, not which one: "an external controller", "the
/// managed reconciler" (crossplane-runtime's, used by every provider).
const CONTROLLER_QUALITIES: &[&str] = &[
    "external",
    "internal",
    "custom",
    "generic",
    "default",
    "separate",
    "dedicated",
    "standard",
    "native",
    "main",
    "core",
    "central",
    "single",
    "individual",
    "underlying",
    "upstream",
    "downstream",
    "dummy",
    "fake",
    "mock",
    "sample",
    "simple",
    "old",
    "legacy",
];

/// The names `prose` calls controllers: a word (or a capitalised word after another, "Node
/// Health") right before "controller" or "reconciler" ("the Usage controller", "the
/// WatchOperation controller"). Not a common word, a placeholder or a language's name; not
/// a quality ("an external controller", "the managed reconciler"); not a word a lower-case
/// word before it qualifies ("the infrastructure machine controller" is a provider's, "the
/// resource claim controller" is no `claim/`), nor a program ("the provider controller
/// manager"). `before` is the last word of the line before, for a name starting the line.
fn controllers(prose: &str, before: Option<&str>) -> Vec<String> {
    let words: Vec<&str> = prose.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (at, pair) in words.windows(2).enumerate() {
        let noun = pair[1].trim_end_matches([',', '.', ';', ':', ')', '!', '?', '\'']);
        let noun = noun.strip_suffix("'s").unwrap_or(noun).to_ascii_lowercase();
        let noun = noun.strip_suffix('s').unwrap_or(&noun);
        if !CONTROLLER_NOUNS.contains(&noun) {
            continue;
        }
        let word = pair[0];
        let k = key(word);
        let plain = |w: &str| {
            w.len() >= 3
                && w.chars().all(|c| c.is_ascii_alphanumeric())
                && w.starts_with(|c: char| c.is_ascii_alphabetic())
                && !is_stop(&key(w))
                && !is_placeholder(w)
        };
        let lower = word.to_ascii_lowercase();
        if !plain(word)
            || CONTROLLER_QUALITIES.contains(&lower.as_str())
            || (lower.len() > 4 && lower.ends_with("ed"))
            || LANGUAGE_PORTS
                .iter()
                .any(|(port, said)| *port == k || said.contains(&k.as_str()))
        {
            continue;
        }
        if words
            .get(at + 2)
            .is_some_and(|w| w.to_ascii_lowercase().starts_with("manager"))
        {
            continue;
        }
        let capital = |w: &str| w.starts_with(|c: char| c.is_ascii_uppercase());
        match at.checked_sub(1).map(|b| words[b]).or(before) {
            Some(before) if capital(word) && capital(before) && plain(before) => {
                out.push(format!("{before} {word}"));
            }
            Some(before)
                if before.len() >= 3
                    && before.chars().all(|c| c.is_ascii_lowercase())
                    && !is_english(&key(before)) => {}
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// The nouns that say a capitalised word before them names a type.
const TYPE_NOUNS: &[&str] = &[
    "type",
    "types",
    "struct",
    "structs",
    "class",
    "classes",
    "interface",
    "interfaces",
    "trait",
    "traits",
    "enum",
    "enums",
    "protocol",
];

/// The words of `prose` written right before a noun of a unit of code ("the Suggest
/// component", "the places crate": [`Kind::Unit`]), and the capitalised ones written right
/// before a noun of a type ("an Optional type": [`Kind::Type`]). Not a common word, a
/// placeholder, a language's name (`Python package`), a word after a name it qualifies
/// (`Copilot Studio plugin`), nor a compound name (read as such already).
fn units_and_types(prose: &str) -> Vec<(&str, Kind)> {
    let words: Vec<&str> = prose.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    for (at, pair) in words.windows(2).enumerate() {
        let (word, noun) = (pair[0], pair[1]);
        let noun = noun.trim_end_matches([',', '.', ';', ':', ')', '!', '?']);
        let unit = UNIT_NOUNS.contains(&noun);
        let of_type = TYPE_NOUNS.contains(&noun);
        if !(unit || of_type) || !word.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let k = key(word);
        let language = LANGUAGE_PORTS
            .iter()
            .any(|(port, said)| *port == k || said.contains(&k.as_str()));
        let capital = word.starts_with(|c: char| c.is_ascii_uppercase());
        // A capitalised word after another is a longer name's (`Copilot Studio`).
        let after_name = at > 0
            && words[at - 1].starts_with(|c: char| c.is_ascii_uppercase())
            && !is_stop(&key(words[at - 1]));
        if word.len() < 3
            || is_stop(&k)
            || is_placeholder(word)
            || language
            || after_name
            || !word.starts_with(|c: char| c.is_ascii_alphabetic())
            || classify(word) == Some(Kind::Identifier)
        {
            continue;
        }
        if unit {
            out.push((word, Kind::Unit));
        } else if capital && word.chars().any(|c| c.is_ascii_lowercase()) {
            out.push((word, Kind::Type));
        }
    }
    out
}

/// A name written with its type's parameters (`Optional[T]`, `Result<T, E>`) without them.
fn without_generics(word: &str) -> &str {
    match word.find(['[', '<']) {
        Some(at) if at > 0 && word.ends_with([']', '>']) => &word[..at],
        _ => word,
    }
}

/// Whether `line` is a row of a Markdown table.
fn table_row(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.len() > 1
}

/// Whether `line` is the rule under a table's header (`| --- | :-: |`).
fn table_rule(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.contains('|')
        && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// The cells of a table row, without the outer bars.
fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::trim).collect()
}

/// The folders a multi-language repository keeps its ports in, and the words that name each
/// port's language in prose (compared in lower case, as whole words).
pub const LANGUAGE_PORTS: &[(&str, &[&str])] = &[
    ("python", &["python"]),
    ("dotnet", &[".net", "dotnet", "c#", "csharp"]),
    ("java", &["java"]),
    ("typescript", &["typescript"]),
    ("javascript", &["javascript"]),
    ("rust", &["rust"]),
    ("ruby", &["ruby"]),
    ("kotlin", &["kotlin"]),
    ("swift", &["swift"]),
    ("golang", &["golang"]),
];

/// The ports whose language `line` names (by the port's folder name).
fn languages_of(line: &str) -> Vec<&'static str> {
    let lower = line.to_ascii_lowercase();
    let mut out = Vec::new();
    for (port, words) in LANGUAGE_PORTS {
        let named = words.iter().any(|w| {
            lower.match_indices(w).any(|(at, _)| {
                let before = lower[..at].chars().next_back();
                let after = lower[at + w.len()..].chars().next();
                // `.net` must not be a domain's end (`dotnet.microsoft.com` aside, `x.net/`).
                let word =
                    |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
                word(after)
                    && (w.starts_with('.') || word(before))
                    && !(w.starts_with('.') && before.is_some_and(|c| c.is_ascii_alphanumeric()))
            })
        });
        if named {
            out.push(*port);
        }
    }
    out
}

/// A command line in a code span, the program and its first subcommand, when that subcommand
/// is a word of the record's title (`title_words`, by [`key`]): `jj sparse` of
/// `jj sparse set --add foo/bar` in a record titled "Sparse Patterns". The program and its
/// subcommands are lower-case names; an option or an argument ends them. A command the title
/// does not name is not one the record is about (`jj log` said in passing, `git bisect run`
/// in a record titled "run"): `None`. A title word by itself is still no
/// term (CONTRACT.md §11); here it only picks which command of the record's the record is.
fn command(span: &str, title_words: &HashSet<String>) -> Option<String> {
    let words: Vec<&str> = span
        .split(' ')
        .take_while(|w| {
            w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-'))
        })
        .collect();
    if words.len() < 2 || !span.contains(' ') {
        return None;
    }
    title_words
        .contains(&key(words[1]))
        .then(|| words[..2].join(" "))
}

/// The command line `text` starts (past a shell prompt, `$ `): a program and one to four
/// subcommand words after it, each lower case (`flux push artifact` of `flux push artifact
/// oci://x:v1 --path=.`), ending at the first option, argument or other character. `None`
/// when there is no subcommand word.
pub fn invocation(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.strip_prefix("$ ").unwrap_or(text).trim_start();
    let mut words = Vec::new();
    for w in text.split(' ') {
        let plain = w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !plain || words.len() == 5 {
            break;
        }
        words.push(w);
    }
    (words.len() >= 2).then(|| words.join(" "))
}

/// The command lines in a record's fenced code blocks ([`invocation`]), each once at its first
/// line: what a shell block shows being run.
pub fn invocations(fenced: &[(usize, &str)]) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    for &(i, line) in fenced {
        if let Some(call) = invocation(line) {
            if !out.iter().any(|t| t.text == call) {
                out.push(Term {
                    text: call,
                    line: i as u32 + 1,
                    kind: Kind::Invocation,
                    nouns: Vec::new(),
                    coded: 0,
                });
            }
        }
    }
    out
}

/// A prose token written as a product's or a tool's name: capitalised, three letters or
/// more with a lower-case one, not a common word, no `_` or `-` (`Lambda`, `DocumentDB`,
/// `ESLint`, `Next.js`; not an acronym, `VPC`, `EC2`, an acronym's plural, `APIs`, `CRDs`,
/// nor `external-dns`).
fn is_product(token: &str) -> bool {
    let name = product_key(token);
    // `Next.js` is a product even though `next` is a common word.
    let product = name.len() < token.len();
    let acronyms = name
        .strip_suffix('s')
        .is_some_and(|a| a.len() >= 2 && a.chars().all(|c| c.is_ascii_uppercase()));
    !acronyms
        && name.len() >= 3
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && (product || !is_stop(&key(name)))
        && !is_placeholder(name)
}

/// The capitalised words of `prose` written next to another (`Corporate Information Pages`,
/// `Copilot Studio`): words of a longer name, not names of their own. Common words do not
/// count (`Use Lerna`).
fn in_longer_names(prose: &str) -> HashSet<&str> {
    let words: Vec<&str> = prose.split_whitespace().collect();
    fn capital(w: &str) -> Option<&str> {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.');
        let core = core.trim_end_matches('.');
        (core.starts_with(|c: char| c.is_ascii_uppercase()) && !is_stop(&key(product_key(core))))
            .then_some(core)
    }
    let mut out = HashSet::new();
    for pair in words.windows(2) {
        // Punctuation between them ends the name.
        let joined = !pair[0].ends_with([',', ';', ':', '.', ')', '!', '?', '|'])
            && !pair[1].starts_with(['(', '|']);
        if let (true, Some(a), Some(b)) = (joined, capital(pair[0]), capital(pair[1])) {
            out.insert(a);
            out.insert(b);
        }
    }
    out
}

/// A name written as Go writes a package's exported name: `package.Name`, the package in
/// lower case, the name capitalised (`confmap.Provider`; not `agent.id`, `Azure.AI`).
pub fn go_qualified(text: &str) -> Option<(&str, &str)> {
    let (package, name) = text.split_once('.')?;
    let package_ok = package.len() >= 2
        && package.starts_with(|c: char| c.is_ascii_lowercase())
        && package
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let name_ok = name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric());
    (package_ok && name_ok).then_some((package, name))
}

/// A product's name without its `.js` (`Next.js` is `Next`).
pub fn product_key(token: &str) -> &str {
    token.strip_suffix(".js").unwrap_or(token)
}

/// The code spans of `line` listed three or more in a row, separated only by commas, slashes,
/// bars, `and` or `or` (`` `a`, `b` and `c` ``, `` `x` / `y` / `z` ``).
fn enumerated(line: &str) -> HashSet<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static SPAN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if line.matches('`').count() < 6 {
        return HashSet::new();
    }
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"(?:`[^`]+`\s*(?:,|/|\||\band\b|\bor\b)\s*){2,}`[^`]+`").expect("regex")
    });
    let span = SPAN.get_or_init(|| regex::Regex::new(r"`([^`]+)`").expect("regex"));
    re.find_iter(line)
        .flat_map(|m| span.captures_iter(m.as_str()))
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect()
}

/// The folders a line names as folders: "the projects directory", "the `lambda` folder".
fn named_folders(line: &str) -> Vec<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\bthe\s+`?([a-z_][a-z0-9_.-]*[a-z0-9])`?\s+(?:directory|folder|dir)\b",
        )
        .expect("regex")
    });
    // Most lines name no folder: the regex only where one of its words is.
    let lower = line.to_ascii_lowercase();
    if !(lower.contains("director") || lower.contains("folder") || lower.contains(" dir")) {
        return Vec::new();
    }
    re.captures_iter(line)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|w| !is_placeholder(w) && key(w).len() >= 3)
        .collect()
}

/// A key with its last word's plural folded: `organisations` → `organisation`, `policies` →
/// `policy`, `classes` → `class`; `status`, `analysis` and `access` kept.
pub fn singular(k: &str) -> String {
    if let Some(stem) = k.strip_suffix("ies") {
        return format!("{stem}y");
    }
    if let Some(stem) = k.strip_suffix("sses") {
        return format!("{stem}ss");
    }
    if k.ends_with('s') && !["ss", "us", "is"].iter().any(|e| k.ends_with(e)) {
        return k[..k.len() - 1].to_string();
    }
    k.to_string()
}

/// The phrases of a line's prose: each run of two or three adjacent words (letters only,
/// nothing but spaces between them) in which no word is a common word or a placeholder and
/// one at least has a lower-case letter (`AWS VPC` is two acronyms). Punctuation, a code
/// span, a link or a URL ends a run.
fn phrases(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, out: &mut Vec<String>| {
        for n in [2, 3] {
            for w in run.windows(n) {
                // A record word needs another word beside it: `ADR slug`, not `ADR records`.
                let named = w.iter().any(|x| !is_record_word(&key(x)));
                if named && w.iter().any(|x| x.chars().any(|c| c.is_ascii_lowercase())) {
                    out.push(w.join(" "));
                }
            }
        }
        run.clear();
    };
    for chunk in prose.split([' ', '\t']) {
        if chunk.is_empty() {
            continue;
        }
        let lead = chunk.trim_start_matches(['(', '"', '\'', '*', '[']);
        let core = lead.trim_end_matches([')', '"', '\'', '*', ']', ',', '.', ';', ':', '!', '?']);
        let word = core.len() >= 2
            && core.chars().all(|c| c.is_ascii_alphabetic())
            && (!is_stop(&key(core)) || is_record_word(&key(core)));
        if lead.len() != chunk.len() || !word {
            flush(&mut run, &mut out);
        }
        if word {
            run.push(core);
        }
        if core.len() != lead.len() {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `line` with the text of each link to another site blanked: it names something elsewhere
/// (`[govuk_publishing_components](https://…)` is a gem, not the initializer of that name),
/// unless the link goes into a repository's code.
fn without_external_link_texts(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("](") {
        return std::borrow::Cow::Borrowed(line);
    }
    let hidden: HashSet<&str> = text_links(line)
        .into_iter()
        .filter(|(_, target)| {
            // A link into a repository's code (a commit, a file, a pull request) still names
            // code.
            let code = ["/commit/", "/blob/", "/tree/", "/pull/", "/merge_requests/"]
                .iter()
                .any(|p| target.contains(p));
            (target.contains("://") || target.starts_with("mailto:")) && !code
        })
        .map(|(text, _)| text)
        .collect();
    // A mark, not spaces: the words on either side are not one phrase. Every `[text]` of
    // those links, in one pass (issue 38: a replace per link was quadratic).
    std::borrow::Cow::Owned(crate::text::line_marks::blank_bracketed(line, &hidden))
}

/// The links in `line` into a forge's view of a repository's code, up to a `#`, `?`, `)` or
/// space: `https://host/owner/name/blob/REF/path` (`/tree/`; GitLab's `/-/blob/`). The
/// lookup reads the repository's name and the path (a branch with a `/` in its name leaves a
/// segment of it before the path: the lookup tries the path without it).
fn code_links(line: &str) -> Vec<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if !line.contains("://") {
        return Vec::new();
    }
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r#"https?://[^\s/]+/[^\s/]+/[^\s/]+/(?:-/)?(?:blob|tree)/[^\s/#?)\]>"'`]+/[^\s#?)\]>"'`]+"#,
        )
        .expect("regex")
    });
    re.find_iter(line)
        .map(|m| m.as_str().trim_end_matches(['/', '.', ',', ';', ':']))
        .filter(|u| !u.contains(".."))
        .collect()
}

/// A single name: letters, digits, `_`, `-`, `.`, `::`, starting with a letter or `_`.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
        && !s.ends_with([':', '.', '-'])
}

/// A line's prose: code spans, link targets, URLs and HTML tags blanked.
fn prose_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    // Code spans (their words were read as `Kind::Code`).
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let ticks = after.chars().take_while(|&c| c == '`').count();
        let body = &after[ticks..];
        match body.find(&"`".repeat(ticks)) {
            Some(end) => {
                // A mark, not a space: a code span ends a run of prose words.
                out.push_str(" | ");
                rest = &body[end + ticks..];
            }
            None => {
                rest = body;
            }
        }
    }
    out.push_str(rest);
    // Link targets, URLs, and tags: words inside them are addresses, not prose.
    let mut cleaned = String::with_capacity(out.len());
    for word in out.split(' ') {
        let w = match word.find("](") {
            Some(at) => &word[..at],
            None => word,
        };
        // A path written bare (`server/protocols/webadmin-cli`) is not a run of names.
        if w.contains("://")
            || w.starts_with("www.")
            || w.contains('@')
            || w.starts_with('<')
            || w.contains('/')
        {
            cleaned.push_str(" | ");
        } else {
            cleaned.push_str(w);
            cleaned.push(' ');
        }
    }
    cleaned
}

/// The tokens of prose: runs of letters, digits, `_`, and `-`, `.`, `::` between them.
fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
            // Skip the rest of a run that starts with a digit or a non-ASCII letter.
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        loop {
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let sep = match bytes.get(i..) {
                Some([b':', b':', n, ..]) if word(*n) => 2,
                Some([b'-' | b'.', n, ..]) if word(*n) => 1,
                _ => 0,
            };
            if sep == 0 {
                break;
            }
            i += sep;
        }
        // A word running into non-ASCII letters is not a name.
        if bytes.get(i).is_some_and(|b| *b >= 0x80) {
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            continue;
        }
        out.push(&text[start..i]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_is_its_program_and_subcommand_words() {
        let call = |t: &str| invocation(t);
        assert_eq!(
            call("$ flux push artifact oci://x:v1 --path=.").as_deref(),
            Some("flux push artifact")
        );
        assert_eq!(
            call("  egctl config ENTITY").as_deref(),
            Some("egctl config")
        );
        assert_eq!(
            call("a b c d e f g").as_deref(),
            Some("a b c d e"),
            "a program and four words at most"
        );
        assert_eq!(call("flux"), None, "no subcommand");
        assert_eq!(call("Flux push"), None, "prose, not a program");
        assert_eq!(call("make -j4"), None);
        let fenced = [
            (3, "kubectl apply -f x.yaml"),
            (4, "kubectl apply -f y.yaml"),
        ];
        let got = invocations(&fenced);
        assert_eq!(got.len(), 1, "each once, at its first line: {got:?}");
        assert_eq!((got[0].line, got[0].kind), (4, Kind::Invocation));
    }

    fn phrases_of(text: &str, title: &str) -> Vec<String> {
        let lines: Vec<(usize, &str)> = text.split('\n').enumerate().collect();
        terms(&lines, title, 0)
            .into_iter()
            .filter(|t| matches!(t.kind, Kind::Phrase | Kind::TitlePhrase))
            .map(|t| t.text)
            .collect()
    }

    #[test]
    fn phrases_said_twice_or_in_the_title() {
        let got = phrases_of(
            "# Using Worldwide Organisations\nThe Worldwide Offices and the worldwide offices.\n\
             A passing list: bulk republishing, search.",
            "Using Worldwide Organisations",
        );
        assert_eq!(got, ["Worldwide Organisations", "Worldwide Offices"]);
    }

    #[test]
    fn common_words_punctuation_code_and_links_end_a_phrase() {
        let got = phrases_of(
            "We set up the service. We set up the service.\n\
             The blob, store; the blob, store.\n\
             The `x` event `y` bus and the event `z` bus.\n\
             See [event bus](https://example.com) and [event bus](https://example.com).\n\
             The AWS VPC and the AWS VPC.",
            "Title",
        );
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn a_phrase_of_a_name_written_as_code_is_not_repeated() {
        let got = phrases_of(
            "The blob store is the BlobStore; the blob stores grow.",
            "Title",
        );
        assert!(got.is_empty(), "{got:?}");
    }
}
