//! Identifiers, code and words (ADR-0017): what a term names by its key (a CamelCase,
//! snake_case, dotted or `::` name, a word in backticks, a bare word), a name spelled by a
//! path's last parts, and the folder of the kind the prose calls it. Every other kind of term
//! is sent to its own file from [`Names::lookup`].

use super::names::{Entry, Names, BULK_FROM};
use super::paths::{dotted_last, in_tests, is_source, leaf_stem, word_count, words_of};
use crate::text::terms::{classify, go_qualified, key, singular, Kind, Term};
use std::collections::HashSet;

/// A bare word found in the names of more files than this is a word of the repository's
/// domain.
const DOMAIN_WORD: usize = 20;

impl Names {
    /// The entries of `found` in the folder of the kind the prose calls the name (its
    /// [`Term::nouns`]: `` the `aws_s3` source `` is `sources/aws_s3/`, not `sinks/aws_s3/`),
    /// when the tree has a folder of that kind beside a folder they are in (`src/sinks/`
    /// beside `src/internal_events/`). None is: the name's words spelled by a path of that
    /// kind (`` `datadog_traces` sink `` is `sinks/datadog/traces/`). No noun names such a
    /// folder, or nothing of the name lies in one: `found` (`` the `TextToImage` service ``
    /// is no folder of services' code).
    pub(super) fn of_kind<'a>(&'a self, term: &Term, found: Vec<&'a Entry>) -> Vec<&'a Entry> {
        // The folders above each found path, and the folders those are in.
        let mut beside: HashSet<&str> = HashSet::new();
        for e in &found {
            let trimmed = e.path.trim_end_matches('/');
            for (at, _) in trimmed.match_indices('/') {
                let above = &trimmed[..at];
                beside.insert(above.rsplit_once('/').map_or("", |(p, _)| p));
            }
        }
        let kinds: Vec<&str> = term
            .nouns
            .iter()
            .map(String::as_str)
            .filter(|n| {
                let plural = match n.strip_suffix('y') {
                    Some(stem) => format!("{stem}ies"),
                    None => format!("{n}s"),
                };
                [n.to_string(), plural, format!("{n}es")]
                    .iter()
                    .filter_map(|k| self.by_key.get(k))
                    .flatten()
                    .map(|&i| &self.entries[i as usize])
                    .filter(|e| e.path.ends_with('/') && !in_tests(&e.path))
                    .any(|e| {
                        let trimmed = e.path.trim_end_matches('/');
                        let (parent, leaf) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
                        singular(&key(leaf)) == **n && beside.contains(parent)
                    })
            })
            .collect();
        if kinds.is_empty() {
            return found;
        }
        // How many of the kinds a path is of: the paths of the most are kept (`OpenAI`
        // said a connector and Python's is `python/…/connectors/…/open_ai/`).
        let of_kinds = |e: &Entry| {
            let trimmed = e.path.trim_end_matches('/');
            let above = trimmed.rsplit_once('/').map_or("", |(a, _)| a);
            let parts: Vec<String> = above.split('/').map(|p| singular(&key(p))).collect();
            kinds
                .iter()
                .filter(|k| parts.iter().any(|p| p == *k))
                .count()
        };
        let of_kind = |e: &Entry| of_kinds(e) > 0;
        let best = found.iter().map(|e| of_kinds(e)).max().unwrap_or(0);
        if best > 0 {
            return found.into_iter().filter(|e| of_kinds(e) == best).collect();
        }
        if word_count(&term.text) >= 2 && !term.text.contains([':', '.']) {
            let spelled: Vec<&Entry> = self
                .spelled(&term.text)
                .into_iter()
                .filter(|e| of_kind(e) && !in_tests(&e.path))
                .collect();
            if !spelled.is_empty() {
                return spelled;
            }
        }
        found
    }

    /// The entries `term` names, a file inside a named folder of the same name folded into it.
    /// `common`: the records' vocabulary says the term (counted over every kind), so it is
    /// not looked for as a path's last parts spell it.
    pub(super) fn lookup(&self, term: &Term, common: bool) -> Vec<&Entry> {
        let get = |k: &str| -> Vec<&Entry> {
            self.by_key
                .get(k)
                .map(|ns| ns.iter().map(|&n| &self.entries[n as usize]).collect())
                .unwrap_or_default()
        };
        match term.kind {
            Kind::Phrase | Kind::TitlePhrase => return self.phrase(term),
            Kind::Name => return self.product(term),
            Kind::Folder => return self.folder(term),
            Kind::Once | Kind::Language | Kind::Type => return Vec::new(),
            Kind::Value => return self.value(term),
            Kind::Unit => return self.unit(term),
            Kind::Controller => return self.controller(term),
            Kind::Command => return self.command(term),
            Kind::Invocation => return self.invocation(term),
            Kind::Link => return self.linked(&term.text),
            _ => {}
        }
        let qualified = term.text.contains("::") || term.text.contains(['.', '#']);
        // `confmap.Provider`, `componentstatus.Reporter`: Go's name of a package's type. In
        // backticks it is read as Go's only: elsewhere it is a variable's member (`agent.Id`),
        // not the name of a file.
        if let Some((package, name)) = go_qualified(&term.text) {
            let found = self.go_named(package, name);
            if !found.is_empty() || term.kind == Kind::Code {
                return found;
            }
        }
        // A name of several words names a file or folder of as many (`start-up` is not
        // `startup.sh`, `AuthenticationController` is `authentication_controller.rb`), or,
        // written in snake_case, one of those words joined (`user_data` is
        // `userdata/`): hyphenated English is not a name joined.
        let words = word_count(&term.text);
        let joinable = term.text.contains('_') && !term.text.contains('-');
        // A dotted name names a file or folder of as many dotted parts (`Plugins.Memory/`,
        // `config.toml`), not one whose words run together: `function.name` is a member,
        // not `FunctionName.cs`.
        let dotted = term
            .text
            .split([':', '.', '#'])
            .filter(|p| !p.is_empty())
            .count();
        let k = key(&term.text);
        let mut found: Vec<&Entry> = get(&k)
            .into_iter()
            .filter(|e| {
                let leaf = word_count(leaf_stem(&e.path));
                if qualified {
                    let whole = e.path.trim_end_matches('/');
                    let whole = whole.rsplit('/').next().unwrap_or(whole);
                    return [whole, leaf_stem(&e.path)].iter().any(|n| {
                        key(n) == k && n.split('.').filter(|p| !p.is_empty()).count() == dotted
                    });
                }
                let last = dotted_last(leaf_stem(&e.path)).filter(|l| key(l) == k);
                words < 2
                    || leaf == words
                    || (joinable && leaf < words)
                    || last.is_some_and(|l| word_count(l) == words)
            })
            .collect();
        if qualified && found.is_empty() {
            let parts: Vec<&str> = term
                .text
                .split([':', '.', '#'])
                .filter(|p| !p.is_empty())
                .collect();
            // `Hydra.Ledger.Cardano`, `org.acme.billing`: a module's path written with dots,
            // as Haskell, Java and Python write it: a file or folder whose last parts spell
            // every part, in order (`hydra-node/src/Hydra/Ledger/Cardano.hs`).
            if parts.len() >= 3 && !term.text.contains('#') {
                found = self.module_spelt(&parts);
                // The module is the file; a folder of its name holds its submodules.
                if found.iter().any(|e| !e.path.ends_with('/')) {
                    found.retain(|e| !e.path.ends_with('/'));
                }
                // `jobserver.models.common.new_ulid_str`: a module's path, then a member of
                // it: the module's file, every part of its path spelt.
                if found.is_empty() && parts.len() >= 4 {
                    found = self.module_spelt(&parts[..parts.len() - 1]);
                    found.retain(|e| !e.path.ends_with('/') && is_source(&e.path));
                }
            }
            // `SemanticKernel.Connectors.AzureOpenAI`: a project's folder named by the name's
            // last parts (`Connectors.AzureOpenAI/`), the longest that names a folder.
            for from in 1..parts.len().saturating_sub(1) {
                if !found.is_empty() {
                    break;
                }
                found = get(&key(&parts[from..].concat()))
                    .into_iter()
                    .filter(|e| e.path.ends_with('/'))
                    .collect();
                if !found.is_empty() {
                    break;
                }
            }
            // `billing::invoice::Total`, `app.services.Billing`: the last part, in a folder
            // named by the part before it. Not for a namespace, a dotted name in backticks or
            // one starting with a capital (`Azure.AI.OpenAI` is a vendor's package, not
            // `connectors/ai/open_ai/`; `Microsoft.SemanticKernel.Memory` is no Python folder).
            let namespace = (term.kind == Kind::Code
                || term.text.starts_with(|c: char| c.is_ascii_uppercase()))
                && !term.text.contains("::");
            if let [.., parent, last] = parts.as_slice() {
                let parent = key(parent);
                if found.is_empty() && !namespace {
                    found = get(&key(last))
                        .into_iter()
                        .filter(|e| {
                            let trimmed = e.path.trim_end_matches('/');
                            let above = trimmed.rsplit_once('/').map_or("", |(d, _)| d);
                            let folder = above.rsplit('/').next().unwrap_or(above);
                            key(folder) == parent
                        })
                        .collect();
                }
            }
            // `AuthenticationController.AuthenticateUser`, `Invoice#total`: a method names its
            // class's file.
            if found.is_empty() {
                found = self.method_class(&term.text);
            }
        }
        // `EventMetadata`, `metric_tags`: a CamelCase or snake_case name whose whole names
        // nothing, spelled by a path's last parts (`event/metadata.rs`, `metric/tags.rs`).
        if found.is_empty()
            && !qualified
            && !common
            && words >= 2
            && matches!(term.kind, Kind::Identifier | Kind::Code)
            && !term.text.contains('-')
        {
            found = self.spelled(&term.text);
        }
        if term.kind == Kind::Word {
            // A bare word names a package in a folder of packages, but not a hidden one (the
            // word names the tool: `.vscode/`) nor one holding most of the repository (the
            // word names what it is written in: `terraform/`). Not a top-level folder: in
            // prose its name is the word (`extension`, `jablib` said of the library), and
            // written as code it is a name (ADR-0017's amendment of 2026-12-05).
            found.retain(|e| {
                e.package
                    && !e.path.starts_with('.')
                    && !(e.path.trim_end_matches('/').contains('/') && self.bulk(e))
                    && self
                        .under_top
                        .get(&e.path)
                        .is_none_or(|n| n * 2 <= self.files)
            });
        }
        // Code first: a name also found in tests, fixtures or examples names the code; a
        // single word or hyphenated English (`min-max`, `self-join`) never names a test.
        let english = term.text.contains('-')
            && !term.text.contains(['_', '.', ':'])
            && !term
                .text
                .chars()
                .any(|c| c.is_ascii_uppercase() && c != term.text.chars().next().unwrap_or(c));
        if words < 2 || english || found.iter().any(|e| !in_tests(&e.path)) {
            found.retain(|e| !in_tests(&e.path));
        }
        // In tests, samples and examples, a file that is not source code, or a folder holding
        // none, is a fixture, data a test or a sample reads (`task_transform.yaml`,
        // `fluent-bit.conf`, a prompt's `ChatGPT/`), not code a record is about.
        found.retain(|e| {
            let code = match e.path.ends_with('/') {
                true => self.holds_code(e),
                false => is_source(&e.path),
            };
            code || !in_tests(&e.path)
        });
        // A compound name naming a folder below the top that holds the bulk of the
        // repository's code names the project (`SemanticKernel`, `python/semantic_kernel/`),
        // not a part of it.
        if matches!(term.kind, Kind::Identifier | Kind::Code) {
            found.retain(|e| {
                !(e.path.ends_with('/')
                    && e.path.trim_end_matches('/').contains('/')
                    && self.code_files >= BULK_FROM
                    && e.code as usize * 10 >= self.code_files)
            });
        }
        // A bare word the repository names many of its files by (`mailbox` in a mail server)
        // is a word of its domain, not the name of one folder.
        if term.kind == Kind::Word && !found.is_empty() {
            let k = key(&term.text);
            let named_by = self
                .file_keys
                .iter()
                .filter(|f| f.contains(&k))
                .take(DOMAIN_WORD + 1);
            if named_by.count() > DOMAIN_WORD {
                found.clear();
            }
        }
        // A folder and files of the same name: the folder, a module (`billing/` over
        // `billing/billing.go`; `event-bus/` over another module's `EventBus.scala`).
        if found.iter().any(|e| e.path.ends_with('/')) {
            found.retain(|e| e.path.ends_with('/'));
        }
        // A single lower-case word in backticks is a function, a method, a keyword or a
        // field (`rate`, `close`, `finish`): it may name a folder, never a file.
        if term.kind == Kind::Code && classify(&term.text) == Some(Kind::Word) {
            found.retain(|e| e.path.ends_with('/'));
        }
        // A single word is English as often as a name: the folder it names must hold code,
        // not only packaging, data or documentation (`distribution/`, `regression/`, a
        // README's `agents/`).
        if classify(&term.text) == Some(Kind::Word) {
            found.retain(|e| self.holds_code(e));
        }
        found
    }

    /// The files and folders whose name and the one or two folders above spell `name`'s
    /// words (`EventMetadata` → `event/metadata.rs`, `MetricTags` → `metric/tags.rs`): the
    /// name's last words the file's or folder's whole name, the words before them its
    /// folder's name (or its two folders' names run together).
    pub(super) fn spelled(&self, name: &str) -> Vec<&Entry> {
        let words = words_of(name);
        let mut out: Vec<&Entry> = Vec::new();
        for split in 1..words.len() {
            let (head, tail) = (key(&words[..split].concat()), words[split..].concat());
            let Some(ns) = self.by_key.get(&key(&tail)) else {
                continue;
            };
            for e in ns.iter().map(|&n| &self.entries[n as usize]) {
                if word_count(leaf_stem(&e.path)) != words.len() - split {
                    continue;
                }
                let trimmed = e.path.trim_end_matches('/');
                let mut above = trimmed.rsplit('/').skip(1).map(key);
                let (one, two) = (above.next().unwrap_or_default(), above.next());
                let spelled = one == head || two.is_some_and(|two| two + &one == head);
                if spelled && !out.iter().any(|o| o.path == e.path) {
                    out.push(e);
                }
            }
        }
        out
    }
}
