//! A record's terms resolved to code mentions (ADR-0017): each term looked up by its kind, what
//! it names filtered (record folders, tests, documentation, vendored code, the vocabulary,
//! another language's port, the governed paths), a type's name by its definition, two paths
//! told apart by the title or the name as written, and how sure each mention is.

use super::definitions::{definable, definition_source, definitions_kept, Defined};
use super::names::{Entry, Names};
use super::paths::{beside_the_code, client_generated, leaf_stem, vendored, word_count};
use super::vocabulary::Vocabulary;
use super::{JOINED_CONFIDENCE, MAX_MATCHES};
use crate::governs::Pattern;
use crate::model::CodeMention;
use crate::text::terms::{
    classify, is_common, is_version_name, key, product_key, title_products, Kind, Term,
    LANGUAGE_PORTS,
};
use std::collections::{HashMap, HashSet};

/// How sure a match is: a backticked word or a compound identifier more than a bare word, one
/// path more than two or three.
pub(super) fn confidence(term: &Term, matches: usize) -> f64 {
    let compound = classify(&term.text) == Some(Kind::Identifier);
    // In tenths, so the figures print as written.
    let base: u8 = match term.kind {
        Kind::Identifier => 9,
        Kind::Code if compound => 9,
        Kind::Code => 7,
        Kind::Word | Kind::Phrase | Kind::TitlePhrase | Kind::Folder => 6,
        Kind::Command => 7,
        Kind::Invocation => 9,
        Kind::Link => 9,
        Kind::Value | Kind::Unit | Kind::Controller => 6,
        Kind::Type => 7,
        Kind::Name | Kind::Once | Kind::Language => 5,
    };
    let less = match matches {
        0 | 1 => 0,
        2 => 2,
        _ => 4,
    };
    f64::from(base.saturating_sub(less)) / 10.0
}

impl Names {
    /// The code mentions of a record's `terms`: the paths each names, unless ambiguous, under
    /// the record folders `skip`, or governed by the record (`governs`). In line order, each
    /// path once.
    pub fn resolve(&self, terms: &[Term], governs: &[String], skip: &[String]) -> Vec<CodeMention> {
        self.resolve_with(terms, governs, skip, &Vocabulary::default(), "")
    }

    /// [`Names::resolve_defined`] without the types' definitions.
    pub fn resolve_with(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
    ) -> Vec<CodeMention> {
        self.resolve_defined(
            terms,
            governs,
            skip,
            vocabulary,
            title,
            &Defined::default(),
            "",
        )
    }

    /// [`Names::resolve`], leaving out what the records' `vocabulary` words and phrases name,
    /// bar a top-level folder or a package. `title`, the record's, picks between two paths of
    /// a name: one under a top-level folder it names (`python/` for "… Semantic Kernel
    /// Python"); its words are never terms by themselves. `defined`: the source files
    /// defining the types the terms name ([`Names::defined`]).
    /// `home`: the package the record lies in ([`crate::text::path::record_home`]): of the
    /// paths a name names, those in it, when there are any.
    #[allow(clippy::too_many_arguments)]
    pub fn resolve_defined(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
        defined: &Defined,
        home: &str,
    ) -> Vec<CodeMention> {
        // The ports of a multi-language repository (`python/` beside `dotnet/`).
        let ports: Vec<&str> = LANGUAGE_PORTS
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| self.under_top.contains_key(&format!("{p}/")))
            .collect();
        if ports.len() < 2 {
            return self.resolve_in(terms, governs, skip, vocabulary, title, None, defined, home);
        }
        let port_of = |path: &str| -> Option<&str> {
            let top = path.split('/').next()?;
            ports
                .iter()
                .copied()
                .find(|p| *p == top && path.len() > top.len())
        };
        // A record is about the ports whose language it names, and, when none of those has
        // as many of its mentions as any other, the port most of its mentions are in (links
        // aside: they name their path whatever the language). A record naming Python in
        // passing is still about the .NET code it names; one naming no language, about the
        // port most of its mentions are in (all of them on a tie).
        let mut about: Vec<&str> = terms
            .iter()
            .filter(|t| t.kind == Kind::Language)
            .filter_map(|t| ports.iter().copied().find(|p| *p == t.text))
            .collect();
        let first = self.resolve_in(terms, governs, skip, vocabulary, title, None, defined, home);
        let mut per: HashMap<&str, usize> = HashMap::new();
        for m in first.iter().filter(|m| !m.term.contains("://")) {
            if let Some(p) = port_of(&m.path) {
                *per.entry(p).or_default() += 1;
            }
        }
        let most = per.values().copied().max().unwrap_or(0);
        let leading: Vec<&str> = per
            .iter()
            .filter(|(_, n)| **n == most)
            .map(|(p, _)| *p)
            .collect();
        if !about.iter().any(|p| leading.contains(p)) {
            about.extend(leading);
        }
        if ports.iter().all(|p| about.contains(p)) || most == 0 && about.is_empty() {
            return first;
        }
        self.resolve_in(
            terms,
            governs,
            skip,
            vocabulary,
            title,
            Some(&about),
            defined,
            home,
        )
    }

    /// [`Names::resolve_with`], a name in a language's port (of `LANGUAGE_PORTS`) kept only
    /// when the port is one of `ports` (all: `None`).
    #[allow(clippy::too_many_arguments)]
    fn resolve_in(
        &self,
        terms: &[Term],
        governs: &[String],
        skip: &[String],
        vocabulary: &Vocabulary,
        title: &str,
        ports: Option<&[&str]>,
        defined: &Defined,
        home: &str,
    ) -> Vec<CodeMention> {
        let title_tops: Vec<String> = title
            .split(|c: char| !c.is_ascii_alphanumeric())
            .map(key)
            .filter(|k| k.len() >= 3 && self.under_top.contains_key(&format!("{k}/")))
            .map(|k| format!("{k}/"))
            .collect();
        let patterns: Vec<Pattern> = governs.iter().map(|g| Pattern::new(g)).collect();
        let governed = |path: &str| {
            let probe = path.trim_end_matches('/');
            patterns.iter().any(|p| p.matches(path) || p.matches(probe))
        };
        let skipped = |path: &str| {
            vendored(path)
                || client_generated(path)
                || skip.iter().any(|f| {
                    let f = f.trim_end_matches('/');
                    !f.is_empty()
                        && path
                            .strip_prefix(f)
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
        };
        // Outside the record's ports: a port of another language.
        let elsewhere = |path: &str| -> bool {
            let Some(ports) = ports else {
                return false;
            };
            let top = path.split('/').next().unwrap_or("");
            path.len() > top.len()
                && !ports.contains(&top)
                && LANGUAGE_PORTS.iter().any(|(p, _)| *p == top)
        };
        // The products the title names: each names the one file or folder of its name, else
        // what a product's name names (`dex.tf` for "Use Dex for authentication").
        let titled: HashSet<String> = title_products(title)
            .into_iter()
            .map(|w| key(product_key(w)))
            .collect();
        let mut out: Vec<CodeMention> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        // The keys of the terms that named something: a name also read as an identifier
        // (`DocumentDB`) is looked up by its parts only when the whole names nothing.
        let mut named: HashSet<String> = HashSet::new();
        for term in terms {
            if matches!(term.kind, Kind::Once | Kind::Language)
                || (term.kind == Kind::Name && named.contains(&key(product_key(&term.text))))
                || vocabulary.ordinary(term)
            {
                continue;
            }
            // A common word (`extension`, "PostgreSQL") names code only written as code, as
            // a folder ("the extension directory") or as a product's name, and then only a
            // distinctive path (`src/servers/src/mysql/`, not `licenses/postgresql.json`).
            let common = is_common(&key(product_key(&term.text)));
            let as_code = matches!(term.kind, Kind::Code | Kind::Value | Kind::Name);
            if common && !as_code && !matches!(term.kind, Kind::Link | Kind::Folder) {
                continue;
            }
            // A product the title names: first the one file or folder of its name (the
            // entry point `gatekeeper.tf` over the module `modules/gatekeeper/` beneath it).
            let from_title =
                term.kind == Kind::Name && titled.contains(&key(product_key(&term.text)));
            let mut found = match from_title {
                true => self.titled(term),
                false => Vec::new(),
            };
            if found.is_empty() {
                found = self.lookup(term, vocabulary.says(term));
            }
            if common && as_code {
                found.retain(|e| self.distinctive(e));
            }
            // A folder of documentation alone is no code (`java/` of a README left where a
            // port moved out): a link names it as written, nothing else does.
            let mut found: Vec<&Entry> = found
                .into_iter()
                .filter(|e| !skipped(&e.path))
                .filter(|e| term.kind == Kind::Link || !beside_the_code(&e.path))
                .filter(|e| term.kind == Kind::Link || !e.path.ends_with('/') || e.docs < e.files)
                .collect();
            // The domain's vocabulary names no small part of the code: only a top-level
            // folder or a package (`event-bus/` for "event bus" in a mail server's records).
            if vocabulary.holds(term) {
                found.retain(|e| e.named);
            }
            // The kind of thing the prose says the name is (`` the `aws_s3` source ``): what
            // it names lies in the folder of that kind, when the tree has one beside it.
            if !term.nouns.is_empty() && !found.is_empty() {
                found = self.of_kind(term, found);
                found.retain(|e| !skipped(&e.path));
            }
            // A record of a package (`packages/gen-ai/docs/adr/`) names its package's code
            // first: every package of a monorepo may have an `internal/api/app.go`.
            if !home.is_empty() && found.len() > 1 && found.iter().any(|e| e.path.starts_with(home))
            {
                found.retain(|e| e.path.starts_with(home));
            }
            // A name of two letters (`` the `pg` backend ``) names only a folder in a folder
            // of the kind the prose calls it (`internal/backend/remote-state/pg/`).
            let k = key(&term.text);
            if k.len() < 3 || is_version_name(&k) {
                found.retain(|e| self.of_noun(e, &term.nouns));
            }

            // A single word is the name of many things: it must name one path.
            let most = match classify(&term.text) {
                Some(Kind::Identifier) if !matches!(term.kind, Kind::Name | Kind::Folder) => {
                    MAX_MATCHES
                }
                _ => 1,
            };
            // A type's name (`ControllerConfig`, `Node`, `Optional[T]`): the source file
            // defining a type of that name, when its name names nothing, too much, or
            // nothing holding the one file that defines it.
            let mut by_definition = false;
            if let Some(name) = definable(term).filter(|_| definitions_kept(term, vocabulary)) {
                let defs: Vec<&Entry> = defined
                    .0
                    .get(name)
                    .into_iter()
                    .flatten()
                    .map(|&n| &self.entries[n as usize])
                    .filter(|e| !skipped(&e.path))
                    .collect();
                // A folder named by the name that neither holds the file defining it nor is
                // that file's module (`region_server/` beside `region_server.rs`) is another
                // thing of the name (`nodebuilder/node/` for `Node`, defined in
                // `nodebuilder/node.go`); a file named by it is its own.
                // Not a top-level folder or a package: a module of the project is what its
                // name says (`event-bus/` for `EventBus`, though an event store defines one).
                // Likewise a source file named by it that does not define it, where one other
                // file defines the type (`08-wasm/types/client_message.go` beside the
                // `ClientMessage` interface of `core/exported/client.go`): the name is the
                // type's; the file is about one of its uses.
                let function = defined.1.contains(name);
                let other = match (found.as_slice(), defs.as_slice()) {
                    ([f], [d]) if !f.path.ends_with('/') => {
                        !function && definition_source(&f.path) && f.path != d.path
                    }
                    ([f], [d]) => {
                        let folder = f.path.trim_end_matches('/');
                        let module = d.path.ends_with(".rs")
                            && d.path.rsplit_once('.').map(|(s, _)| s) == Some(folder);
                        !f.named && !d.path.starts_with(&f.path) && !module
                    }
                    _ => false,
                };
                // A module path's first part (`serde::Serializer`, `tokio_util::codec::Decoder`)
                // must name something here: else it is another project's type.
                let foreign = term.text.split_once("::").is_some_and(|(first, _)| {
                    first.starts_with(|c: char| c.is_ascii_lowercase())
                        && !self.by_key.contains_key(&key(first))
                        && !self.by_key.contains_key(&format!("{}s", key(first)))
                });
                // Of several files defining it, the one named for it and its types
                // (`nginxproxy_types.go`, kubebuilder's API type, beside the controller's own
                // `graph/nginxproxy.go`) is its definition; the others are its uses.
                let typed: Vec<&Entry> = defs
                    .iter()
                    .copied()
                    .filter(|e| defs.len() > 1 && types_file_of(name, &e.path))
                    .collect();
                let defs = if typed.len() == 1 { typed } else { defs };
                if (found.is_empty() || other) && defs.len() == 1 && !foreign {
                    found = defs;
                    by_definition = true;
                }
            }
            if found.is_empty() || found.len() > most {
                continue;
            }
            // A language's port (`python/` beside `dotnet/`) is named only by a record about
            // that language: a .NET record's `CancellationToken` is not the Python port's
            // `cancellation_token.py`. (After the count: a name in every port is as ambiguous
            // as before.)
            if term.kind != Kind::Link {
                found.retain(|e| !elsewhere(&e.path));
                if found.is_empty() {
                    continue;
                }
            }
            // Of two paths, the one under a top-level folder the record's title names (a
            // record "… (Semantic Kernel Python)" is about `python/`), else the one whose name
            // is the term exactly as written (`NullMemory` is `NullMemory.cs`, not the Python
            // port's `null_memory.py`), is the one meant.
            if found.len() > 1 && matches!(term.kind, Kind::Identifier | Kind::Code) {
                let titled: Vec<&Entry> = found
                    .iter()
                    .copied()
                    .filter(|e| title_tops.iter().any(|t| e.path.starts_with(t.as_str())))
                    .collect();
                let exact: Vec<&Entry> = found
                    .iter()
                    .copied()
                    .filter(|e| leaf_stem(&e.path) == term.text)
                    .collect();
                if !titled.is_empty() {
                    found = titled;
                } else if !exact.is_empty() {
                    found = exact;
                }
            }
            named.insert(key(&term.text));
            // A word of a phrase that named code is no name of its own (`Organisations` of
            // `Worldwide Organisations`).
            if matches!(term.kind, Kind::Phrase | Kind::TitlePhrase) {
                named.extend(term.text.split(' ').map(key));
            }
            // A name matched by its words joined (`user_data` → `userdata/`) is less sure.
            let joined = term.kind != Kind::Link
                && term.text.contains('_')
                && !term.text.contains(['.', ':', '-'])
                && found
                    .iter()
                    .any(|e| word_count(leaf_stem(&e.path)) < word_count(&term.text));
            // A name spelled by a path's last parts (`EventMetadata` → `event/metadata.rs`)
            // rather than by its file's or folder's own name is as sure as a joined one.
            let k = key(&term.text);
            let spelled = matches!(term.kind, Kind::Identifier | Kind::Code)
                && !term.text.contains([':', '.', '#'])
                && found.iter().all(|e| {
                    let leaf = e
                        .path
                        .trim_end_matches('/')
                        .rsplit('/')
                        .next()
                        .unwrap_or("");
                    key(leaf_stem(&e.path)) != k && key(leaf) != k
                });
            // A name matched across styles that tell things apart: a hyphenated name is a
            // service's, a package's or English (`notification-publisher`, `user-data`, "the
            // open-database list"), an all-capitals one a column or a constant
            // (`REPOSITORY_TYPE`), not the file spelled in another style
            // (`NotificationPublisher.java`): right less than nine times in ten on the
            // corpora of ADR-0017's amendment of 2026-12-05, so below `scope --accept`.
            let kebab = term.text.contains('-') && !term.text.contains(['_', '.', ':', '#']);
            let shouting = !term.text.chars().any(|c| c.is_ascii_lowercase());
            let restyled = matches!(term.kind, Kind::Identifier | Kind::Code)
                && found.iter().any(|e| {
                    let leaf = leaf_stem(&e.path);
                    (kebab && !leaf.contains('-'))
                        || (shouting && leaf.chars().any(|c| c.is_ascii_lowercase()))
                });
            let confidence = match confidence(term, found.len()) {
                c if joined || spelled || by_definition || restyled => c.min(JOINED_CONFIDENCE),
                c => c,
            };
            for e in found {
                if governed(&e.path) || !seen.insert(e.path.as_str()) {
                    continue;
                }
                out.push(CodeMention {
                    path: e.path.clone(),
                    term: term.text.clone(),
                    line: term.line,
                    confidence,
                });
            }
        }
        out.sort_by(|a, b| (a.line, &a.path).cmp(&(b.line, &b.path)));
        out
    }
}

/// Whether the file at `path` is the types file of `name`: its stem is the name and the word
/// "types" (`nginxproxy_types.go`, `user.types.ts`, `OrderTypes.swift`), in any case.
fn types_file_of(name: &str, path: &str) -> bool {
    key(leaf_stem(path))
        .strip_suffix("types")
        .is_some_and(|rest| rest == key(name))
}
