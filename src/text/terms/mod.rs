//! The terms a record's prose may name code by (docs/mentions.md, ADR-0017): words in
//! backticks that are not paths, compound identifiers, bare words; common words, placeholders
//! and a record's own title words are not terms. Pure text: `mentions` resolves them against
//! the tracked paths.
//!
//! One file per concern: `read` (the pass over a record's lines), `prose` (a line's prose, its
//! tokens and phrases), `words` (what is no term), `nouns` (what the prose calls a name),
//! `names` (products, Go's names, listed values, languages), `commands` (command lines) and
//! `drawn` (the names a diagram's boxes carry).

mod commands;
mod drawn;
mod names;
mod nouns;
mod prose;
mod read;
#[cfg(test)]
mod tests;
mod words;

pub use commands::{invocation, invocations, kinds};
pub use drawn::drawn;
pub use names::{go_qualified, product_key, title_products, LANGUAGE_PORTS};
pub use read::terms;
use serde::{Deserialize, Serialize};
pub use words::{is_common, is_stop, is_version_name, singular, singular_of};

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
        .filter(|&c| !is_key_separator(c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The characters a key leaves out.
fn is_key_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.' | ':' | '/' | ' ')
}

/// Whether a word says nothing of the code in a record's title: common English and
/// decision-record words, placeholders, numbers and words under three letters. The names every
/// repository has (`client`, `plugin`, `api`) do tell there, when few titles have them
/// (`why`'s related records' title words, docs/related.md).
pub fn is_title_filler(word: &str) -> bool {
    words::is_english(&key(word))
}

/// [`is_title_filler`] of a word that is its own key already (lower case, no separator).
pub fn is_title_filler_key(word: &str) -> bool {
    words::is_english(word)
}

/// What a prose token is: a compound identifier, a bare word, or nothing to look up.
pub fn classify(token: &str) -> Option<Kind> {
    if token.contains("::") || token.contains(['.', '#']) {
        // A dotted or `::` path, or a method (`Invoice#total`): every part a name of two
        // letters or more (not `e.g`, `i.e`).
        let parts: Vec<&str> = token
            .split([':', '.', '#'])
            .filter(|p| !p.is_empty())
            .collect();
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
