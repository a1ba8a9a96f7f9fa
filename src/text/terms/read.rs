//! Reading a record's lines for terms (ADR-0017): one pass over its visible lines, a table's
//! header read as the nouns of its columns, each kind of term gathered, then the phrases, the
//! controllers and the names said often enough to count, each term once at its first line.

use super::commands::{command, invocation};
use super::names::{
    enumerated, go_qualified, in_longer_names, is_product, languages_of, product_key,
    title_products,
};
use super::nouns::{
    controllers, named_folders, noun, nouns_beside, units_and_types, CONTROLLER_NOUNS,
};
use super::prose::{code_links, is_name, phrases, prose_of, tokens, without_external_link_texts};
use super::words::{
    is_placeholder, is_short_code, is_stop, singular, without_generics, LANGUAGE_TYPES,
};
use super::{classify, key, Kind, Term};
use crate::text::line_marks::{AfterLists, Examples, Pipes};
use crate::text::markdown::code_spans;
use crate::text::path::clean_code_path;
use std::collections::{HashMap, HashSet};

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
        // A name of two letters only in backticks (`` the `pg` backend ``): resolving asks
        // the prose to say what kind of code it is (ADR-0017's amendment of 2026-12-05).
        let short = kind == Kind::Code && is_short_code(&k);
        if (is_stop(&k) && !short) || is_placeholder(text) {
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
            let path = clean_code_path(span).is_some() && !member && !module_member(word);
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
    // A product the title names, ending a run of capitalised words as often as not ("Adopt
    // OPA Gatekeeper"): a name, at the title's line (ADR-0017's amendment of 2026-12-05).
    for word in title_products(title) {
        push(word, title_line, Kind::Name, &mut out, &mut seen, &mut code);
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

/// A module's path and a member of it, written with dots (`jobserver.models.common.new_ulid_str`):
/// four parts or more, each an identifier, the last no file's extension. A name, not a file
/// called `common.new_ulid_str` (`mentions::lookup` finds the module's file).
fn module_member(word: &str) -> bool {
    let parts: Vec<&str> = word.split('.').collect();
    let identifier = |p: &str| {
        p.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // A file's extension: of source code, or of data, configuration and pages.
    let extension = |p: &str| {
        let p = p.to_ascii_lowercase();
        crate::text::path::is_source_extension(&p) || NOT_SOURCE.contains(&p.as_str())
    };
    #[rustfmt::skip]
    const NOT_SOURCE: &[&str] = &[
        "json", "yml", "yaml", "toml", "md", "txt", "xml", "lock", "sh", "cfg", "ini", "conf",
        "env", "example", "sample", "template", "tmpl", "j2", "html", "css",
    ];
    parts.len() >= 4 && parts.iter().all(|p| identifier(p)) && !extension(parts[parts.len() - 1])
}
