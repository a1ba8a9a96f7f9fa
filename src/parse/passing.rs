//! Paths a record names in passing (docs/reading.md, "Named in passing"; ADR-0017): each path
//! its prose names (a code span or a link) is governing, or passing with the phrase that made
//! it so. Judged by phrasing, not by section: an example ("e.g.", "for example", "such as"), a
//! comparison ("similar to", "as in", "like", "following", "the same API as"), reuse of what exists ("reuses the existing",
//! "the existing"), a pointer ("see", "read … first", "described in", "documented in",
//! "relative to": where the paths it then writes start), a
//! possessive naming a part of a file (`` `package.json`'s `scripts` section ``), another
//! party's file ("their `go.mod`", "your `package.json`"); and, by
//! section only where the section says so, a link to documentation in Context or References
//! and any path in an option that was not chosen. Pure text; the graph decides which exist.

use crate::text::markdown::link_target;
use crate::text::path::clean_code_path;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::OnceLock;

/// A path a record's prose names, once, at its first naming.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ProsePath {
    /// As the graph meets it: root-relative, without a leading or trailing `/`.
    pub path: String,
    /// As written: the code span's text, or the link's target.
    pub written: String,
    /// Its first naming's line (1-based).
    pub line: u32,
    /// The phrase that made it passing when every naming of it is passing; `None` when one
    /// naming governs.
    pub passing: Option<String>,
}

/// What one naming of a path is to the decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    Governing,
    /// Named in passing, by this phrase.
    Passing(String),
}

/// Every path the visible `lines` (numbered from 0, as `visible_lines` gives them) name in a
/// code span or a link, each once, in first-naming order, with whether it is passing. `folder`
/// is the record's (links are relative to it).
pub fn prose_paths(lines: &[(usize, &str)], folder: &str) -> Vec<ProsePath> {
    let mut out: Vec<ProsePath> = Vec::new();
    let mut at: BTreeMap<String, usize> = BTreeMap::new();
    for (path, written, line, role) in namings(lines, folder) {
        let phrase = match role {
            Role::Governing => None,
            Role::Passing(p) => Some(p),
        };
        match at.get(&path) {
            Some(&i) => {
                if phrase.is_none() {
                    out[i].passing = None;
                }
            }
            None => {
                at.insert(path.clone(), out.len());
                out.push(ProsePath {
                    path,
                    written,
                    line,
                    passing: phrase,
                });
            }
        }
    }
    out
}

/// Each naming of a path: (path as the graph meets it, as written, line, role).
fn namings(lines: &[(usize, &str)], folder: &str) -> Vec<(String, String, u32, Role)> {
    let mut text = String::new();
    let mut starts = Vec::with_capacity(lines.len());
    for (_, l) in lines {
        starts.push(text.len());
        text.push_str(l);
        text.push('\n');
    }
    let masked = mask_abbreviations(&text);
    let sections = Sections::of(lines);
    let chosen = chosen_option(&text);
    let mut out = Vec::new();
    // Whether each naming is written right after "top-level" or "root".
    let mut at_top: Vec<bool> = Vec::new();
    for m in naming_re().captures_iter(&text) {
        let whole = m.get(0).expect("match");
        if text[..whole.start()].ends_with('!') {
            continue; // an image
        }
        let mut found: Vec<(String, String)> = Vec::new();
        if let Some(span) = m.get(1) {
            if let Some(p) = clean_code_path(span.as_str()) {
                found.push((p, span.as_str().trim().to_string()));
            }
        } else {
            let label = m.get(2).map_or("", |t| t.as_str());
            for span in crate::text::markdown::code_spans(label) {
                if let Some(p) = clean_code_path(span) {
                    found.push((p, span.to_string()));
                }
            }
            if let Some(target) = m.get(3) {
                if let Some(p) = link_target(folder, target.as_str()) {
                    found.push((p, target.as_str().to_string()));
                }
            }
        }
        if found.is_empty() {
            continue;
        }
        let row = starts.partition_point(|s| *s <= whole.start()) - 1;
        let line = lines[row].0 as u32 + 1;
        // A code span leading an item nested under a folder's item is a path in that folder;
        // so is a file name written alone in parentheses right after a folder.
        let under = m.get(1).and_then(|span| {
            tree::listed_under(lines, row, whole.start() - starts[row]).or_else(|| {
                (!span.as_str().contains('/'))
                    .then(|| tree::in_parentheses_after(&text, whole.start(), folder))
                    .flatten()
            })
        });
        for (path, written) in found {
            let bare = path.trim_start_matches('/').trim_end_matches('/');
            if bare.is_empty() {
                continue;
            }
            let before = text[..whole.start()].trim_end().to_ascii_lowercase();
            at_top.push(before.ends_with("top-level") || before.ends_with("root"));
            if let Some(parent) = under.as_deref().filter(|p| !is_under(bare, p)) {
                let phrase = format!("{} `{parent}/`", tree::LISTED_UNDER);
                out.push((
                    format!("{parent}/{bare}"),
                    written,
                    line,
                    Role::Passing(phrase),
                ));
                continue;
            }
            let role = role_of(&masked, &text, whole.start(), whole.end(), bare)
                .or_else(|| sections.role(row, bare, chosen.as_deref()))
                .map_or(Role::Governing, Role::Passing);
            out.push((bare.to_string(), written, line, role));
        }
    }
    shorthands(&mut out, &at_top);
    out
}

/// A folder of one name written alone (`internal/`) where the record also names a longer
/// folder ending in it (`cmd/jaeger/internal/`, written as a folder: `owner/repo` is no
/// folder here) is that folder said short, not the repository's
/// top-level folder of the name: passing, unless written right after "top-level" or "root"
/// ("The top-level `components/`"). jaegertracing/jaeger's record 11 on its facades says
/// "Config structs remain in `internal/`" of `cmd/jaeger/internal/`, and governed all of the
/// top-level `internal/`.
fn shorthands(out: &mut [(String, String, u32, Role)], at_top: &[bool]) {
    let folder = |written: &str| written.trim().ends_with('/');
    let longer: Vec<String> = out
        .iter()
        .filter(|(_, written, ..)| folder(written))
        .map(|(p, ..)| format!("/{p}"))
        .collect();
    for (i, (path, written, _, role)) in out.iter_mut().enumerate() {
        let alone = !path.contains('/') && folder(written);
        if !alone || at_top.get(i) == Some(&true) || !matches!(role, Role::Governing) {
            continue;
        }
        let end = format!("/{path}");
        if let Some(full) = longer
            .iter()
            .find(|l| l.len() > end.len() && l.ends_with(&end))
        {
            *role = Role::Passing(format!("`{}/` said short", &full[1..]));
        }
    }
}

/// A code span, or a Markdown link (its text, then its target).
fn naming_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"`([^`\n]+)`|\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+["'][^"']*["'])?\s*\)"#)
            .expect("naming regex compiles")
    })
}

/// The text with the dots of "e.g.", "i.e.", "cf.", "etc." and "vs." made `_`, so they end no
/// sentence; same length, same offsets.
fn mask_abbreviations(text: &str) -> String {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:e\.\s?g\.|i\.\s?e\.|eg\.|cf\.|etc\.|vs\.)").expect("regex")
    });
    let mut bytes = text.as_bytes().to_vec();
    for m in re.find_iter(text) {
        for b in &mut bytes[m.start()..m.end()] {
            if *b == b'.' {
                *b = b'_';
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// The phrases that make a path after them passing, in one alternation (leftmost-first, so a
/// longer phrase is listed before a phrase it starts with).
fn trigger_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)\b(?:
              e_\s?g_ | eg_ | for\s+example | for\s+instance | such\s+as
            | similar(?:ly)?\s+to | as\s+in | as\s+(?:is\s+|was\s+|we\s+)?(?:done|used|seen|do|did)\s+(?:in|by|for|with)
            | (?:in\s+)?the\s+same\s+way\s+as | analogous(?:ly)?\s+to | inspired\s+by
            | the\s+same\s+(?:[\w-]+\s+){1,4}?as
            | model(?:l)?ed\s+(?:on|after) | like | following
            | reus(?:e|es|ed|ing)\s+(?:the\s+|our\s+)?(?:existing|current)
            | (?:the|our|an?)\s+(?:already\s+)?existing | reus(?:e|es|ed|ing)
            | see(?:\s+also)? | cf_ | refer(?:s|ring)?\s+to | relative\s+to
            | read\s+more\s+(?:in|at|on) | read | (?:as\s+)?(?:described|documented|explained|outlined|detailed|discussed|shown|illustrated)\s+in
            | (?:more|further)\s+(?:information|details?)\s+(?:in|at|on)
            | (?:any|every|no|else)where\s+(?:in|under|within|inside|across)
            )\b",
        )
        .expect("trigger regex compiles")
    })
}

/// The phrase before (or around) the naming at `start..end` that makes it passing, if any.
fn role_of(masked: &str, text: &str, start: usize, end: usize, bare: &str) -> Option<String> {
    let clause_from = clause_start(masked, start);
    let clause = &masked[clause_from..start];
    if let Some(t) = trigger_re().find_iter(clause).last() {
        let word = t.as_str().to_ascii_lowercase();
        let glue = &clause[t.end()..];
        let before = &clause[..t.start()];
        let ok = glue_is_short(glue)
            && match word.split_whitespace().next().unwrap_or("") {
                "like" => !wanting(before),
                "following" => !ends_with_the(before),
                "read" if word == "read" => read_first(&masked[end..]),
                w if w.starts_with("reus") || word.contains("existing") => !changing(before),
                _ => true,
            };
        if ok {
            let phrase = text[clause_from + t.start()..clause_from + t.end()]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_ascii_lowercase();
            return Some(if word == "read" {
                "read … first".to_string()
            } else {
                phrase
            });
        }
    }
    if !bare.contains('/') && files_of_a_kind(&masked[end..]) {
        return Some(format!("`{bare}` files"));
    }
    if !bare.contains('/') && each_ones(clause) {
        return Some(format!("each one's `{bare}`"));
    }
    if !bare.contains('/') && someone_elses(clause) {
        return Some(format!("someone else's `{bare}`"));
    }
    if is_manifest(bare) && dependencies_in(clause) {
        return Some(format!("where dependencies go (`{bare}`)"));
    }
    if etc_after(&masked[end..]) {
        return Some("a list ending \"etc.\"".to_string());
    }
    if let Some(label) = labelled_example(clause) {
        return Some(label);
    }
    possessive(&masked[end..]).map(|rest| format!("`{bare}`'s … {rest}"))
}

/// How far back a clause is looked for: a phrase further away says nothing of the path, and a
/// record of one endless line is read in linear time (ADR-0011).
const CLAUSE_REACH: usize = 240;

/// Where the sentence or clause holding `at` begins: after the last `.`, `?` or `!` followed by
/// a space, a `;`, a blank line, or a line that is a heading or a list item; at most
/// [`CLAUSE_REACH`] bytes back.
fn clause_start(masked: &str, at: usize) -> usize {
    let bytes = masked.as_bytes();
    let mut floor = at.saturating_sub(CLAUSE_REACH);
    while !masked.is_char_boundary(floor) {
        floor += 1;
    }
    let mut i = at;
    while i > floor {
        let c = bytes[i - 1];
        if c == b';' {
            return i;
        }
        if matches!(c, b'.' | b'?' | b'!') && i < at && bytes[i].is_ascii_whitespace() {
            return i;
        }
        if c == b'\n' {
            let line = &masked[i..];
            let t = line.trim_start();
            let item = t.starts_with(['-', '*', '+', '#', '>', '|'])
                || t.split_once(['.', ')']).is_some_and(|(n, _)| {
                    !n.is_empty() && n.len() < 4 && n.bytes().all(|b| b.is_ascii_digit())
                });
            if item || (i >= 2 && bytes[i - 2] == b'\n') {
                return i;
            }
        }
        i -= 1;
    }
    floor
}

/// The words between a phrase and the path it makes passing, other paths aside: at most four,
/// each a word that only joins ("the", "and", "module"…), so "like the `a/` service, move
/// `b/`" leaves `b/` governing.
fn glue_is_short(glue: &str) -> bool {
    const GLUE: &[&str] = &[
        "the",
        "a",
        "an",
        "and",
        "or",
        "its",
        "their",
        "our",
        "this",
        "that",
        "these",
        "those",
        "in",
        "at",
        "under",
        "of",
        "on",
        "to",
        "for",
        "from",
        "both",
        "either",
        "module",
        "modules",
        "folder",
        "folders",
        "directory",
        "directories",
        "package",
        "packages",
        "file",
        "files",
        "class",
        "classes",
        "service",
        "services",
        "crate",
        "crates",
        "library",
        "libraries",
        "component",
        "components",
        "project",
        "code",
        "script",
        "scripts",
        "detail",
        "details",
        "more",
        "also",
        "existing",
        "current",
        "how",
        "docs",
        "documentation",
        "section",
        "guide",
        "page",
        "first",
        "example",
        "examples",
        "one",
        "ones",
        "implementation",
        "approach",
        "pattern",
        "setup",
        "e_g_",
        "i_e_",
        "eg_",
        "what",
        "is",
        "done",
        "used",
        "already",
        "we",
        "there",
        "here",
    ];
    let plain = naming_re().replace_all(glue, " ");
    let words: Vec<String> = plain
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    words.len() <= 4 && words.iter().all(|w| GLUE.contains(&w.as_str()))
}

/// "would like", "'d like": wanting, not a comparison.
fn wanting(before: &str) -> bool {
    let b = before.trim_end().to_ascii_lowercase();
    ["would", "'d", "’d", "should", "might", "also", "we"]
        .iter()
        .any(|w| b.ends_with(w))
}

/// "the following `X`" lists what comes next; "following `X`" alone names a precedent.
fn ends_with_the(before: &str) -> bool {
    let b = before.trim_end().to_ascii_lowercase();
    b == "the" || b.ends_with(" the")
}

/// A verb of change in the clause before "the existing" / "reuse": the existing code is what
/// the decision changes ("replace the existing `src/legacy/`"), so it governs.
fn changing(before: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:replac|remov|rewrit|refactor|migrat|move|moving|chang|modif|updat|deprecat|split|extend|delet|drop|retir|rework|restructur|renam|merg|extract|consolidat|simplif|rebuild|rebuilt|convert|port|fold)\w*",
        )
        .expect("regex")
    })
    .is_match(before)
}

/// "read `X` first" / "before …": the rest of the clause after the path says "first" or
/// "before" within a few words.
fn read_first(after: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)^[^.;\n]{0,40}?\b(?:first|before)\b").expect("regex"))
        .is_match(after)
}

/// Lower-case words joined by one space.
fn norm(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the headings above each line say.
struct Sections {
    /// Per row: the headings above it (level, text), outermost first, its own if a heading.
    stacks: Vec<Vec<(usize, Rc<str>)>>,
    /// Per row: the list item it is in (its first line's text), if any.
    items: Vec<Option<Rc<str>>>,
}

impl Sections {
    fn of(lines: &[(usize, &str)]) -> Sections {
        let mut stack: Vec<(usize, Rc<str>)> = Vec::new();
        let mut stacks = Vec::with_capacity(lines.len());
        let mut items = Vec::with_capacity(lines.len());
        let mut item: Option<Rc<str>> = None;
        for (_, line) in lines {
            let t = line.trim_start();
            let level = t.bytes().take_while(|b| *b == b'#').count();
            if (1..=6).contains(&level)
                && t[level..].starts_with([' ', '\t'])
                && line.len() - t.len() < 4
            {
                while stack.last().is_some_and(|(l, _)| *l >= level) {
                    stack.pop();
                }
                stack.push((level, t[level..].trim().into()));
                item = None;
            } else if t.starts_with(['-', '*', '+'])
                || t.split_once(['.', ')']).is_some_and(|(n, _)| {
                    !n.is_empty() && n.len() < 4 && n.bytes().all(|b| b.is_ascii_digit())
                })
            {
                item = Some(t.into());
            } else if t.is_empty() || t.len() == line.len() {
                item = None;
            }
            stacks.push(stack.clone());
            items.push(item.clone());
        }
        Sections { stacks, items }
    }

    /// Passing by where `row` is: a documentation path in a Context or References section, any
    /// path in a section of exceptions or in an option that was not chosen.
    fn role(&self, row: usize, bare: &str, chosen: Option<&str>) -> Option<String> {
        let stack = self.stacks.get(row)?;
        if let Some((_, h)) = stack.iter().find(|(_, h)| pointers_like(h)) {
            // Save the item that says it is the decision's own code ("Implementation:
            // `pkg/config/config.go`", as go-trust's records end their Links).
            let own = !is_documentation(bare)
                && self
                    .items
                    .get(row)
                    .cloned()
                    .flatten()
                    .is_some_and(|i| implementation_item(&i));
            if !own {
                return Some(format!("linked in {}", h.trim_end_matches(':')));
            }
        }
        if is_documentation(bare) {
            if let Some((_, h)) = stack.iter().find(|(_, h)| context_like(h)) {
                return Some(format!(
                    "documentation linked in {}",
                    h.trim_end_matches(':')
                ));
            }
        }
        if let Some((_, h)) = stack.iter().find(|(_, h)| exception_like(h)) {
            return Some(format!("an exception to it ({})", h.trim_end_matches(':')));
        }
        let Some(at) = stack.iter().position(|(_, h)| options_like(h).is_some()) else {
            // An option's own heading under some other (`## Design`, `### Option 2: …`),
            // when the record says which option it chose (`## Decision` `Option 1: …`).
            let (h, named) = stack
                .iter()
                .find_map(|(_, h)| option_named(h).map(|named| (h, named)))?;
            let chosen = chosen_label(chosen?)?;
            return (named != chosen)
                .then(|| format!("an option not chosen ({})", h.trim_end_matches(':')));
        };
        let rejected = options_like(&stack[at].1) == Some(true);
        let label = match stack.get(at + 1) {
            Some((_, h)) => Some(h.to_string()),
            None => self
                .items
                .get(row)
                .cloned()
                .flatten()
                .map(|i| i.to_string()),
        };
        let heading = stack[at].1.trim_end_matches(':');
        match (chosen, label) {
            (Some(c), Some(l)) => {
                let l = norm(&l);
                let is_chosen =
                    !l.is_empty() && (l.contains(c) || (l.len() >= 3 && c.contains(&l)));
                (!is_chosen).then(|| format!("an option not chosen ({heading})"))
            }
            _ => rejected.then(|| format!("an option not chosen ({heading})")),
        }
    }
}

/// Documentation, by its name: a Markdown, reStructuredText, AsciiDoc, text, HTML or PDF file,
/// or anything in or named a documentation folder.
fn is_documentation(bare: &str) -> bool {
    let lower = bare.to_ascii_lowercase();
    let doc_ext = [
        ".md",
        ".mdx",
        ".markdown",
        ".rst",
        ".adoc",
        ".txt",
        ".html",
        ".pdf",
    ]
    .iter()
    .any(|e| lower.ends_with(e));
    doc_ext
        || lower
            .split('/')
            .any(crate::text::path::is_documentation_folder)
}

/// A section that sets the scene: Context, Background, Related. (One that only points elsewhere
/// is [`pointers_like`], asked first.)
fn context_like(heading: &str) -> bool {
    heading_is(heading, &["context", "background", "related"])
}

/// A section that only points elsewhere: References, More information, Further reading, Links,
/// See also, Resources, Prior art. Whatever it links is where to read more, not what the
/// decision is about (ev-node's lazy-aggregation record links all of `block/` there).
fn pointers_like(heading: &str) -> bool {
    heading_is(
        heading,
        &[
            "reference",
            "more information",
            "further information",
            "further reading",
            "links",
            "see also",
            "resources",
            "prior art",
        ],
    )
}

/// A list item that says which of the decision's code a path is: "Implementation: `…`",
/// "Implemented in …", and any short label then a colon then the path in backticks ("Step
/// registry: `pkg/pipeline/step_registry.go`", "Health checks: `pkg/api/health.go`", as
/// go-trust's records end their Links); not a label that points on ("Related:", "See:",
/// "Example:", "Docs:", "Existing pattern:"), nor a Markdown link, which is where to read more.
fn implementation_item(item: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*|__)?(?:implemented\s+(?:in|by|at)\b|([a-z][a-z0-9 /-]{0,40}?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*`)",
        )
        .expect("regex")
    });
    let Some(caps) = re.captures(item) else {
        return false;
    };
    let Some(label) = caps.get(1) else {
        return true;
    };
    const POINTING: &[&str] = &[
        "related",
        "see",
        "example",
        "sample",
        "more",
        "reference",
        "doc",
        "background",
        "discussion",
        "issue",
        "spec",
        "prior",
        "inspir",
        "alternative",
        "original",
        "previous",
        "old",
        "upstream",
        "external",
        "link",
        "existing",
        "pattern",
        "similar",
        "like",
        "compar",
    ];
    let label = label.as_str().trim().to_ascii_lowercase();
    !POINTING
        .iter()
        .any(|w| label.split([' ', '/', '-']).any(|l| l.starts_with(w)))
}

/// Whether `heading`, a leading number left aside, starts with one of `starts`.
fn heading_is(heading: &str, starts: &[&str]) -> bool {
    let h = norm(heading);
    let h = h.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
    starts.iter().any(|s| h.starts_with(s))
}

/// A section listing what the decision does not cover: Exceptions, Exclusions, Out of scope,
/// Non-goals.
fn exception_like(heading: &str) -> bool {
    let h = norm(heading);
    [
        "exception",
        "exclusion",
        "out of scope",
        "non-goal",
        "non goal",
        "not in scope",
    ]
    .iter()
    .any(|s| h.contains(s))
}

/// Whether a passing phrase says the path was listed under a folder in a nested list.
pub fn is_listed_under(phrase: &str) -> bool {
    phrase.starts_with(tree::LISTED_UNDER)
}

/// Whether `path` is `folder` or inside it (written whole under its own item).
fn is_under(path: &str, folder: &str) -> bool {
    path == folder
        || path
            .strip_prefix(folder)
            .is_some_and(|r| r.starts_with('/'))
}

mod kinds;
mod options;
mod tree;
use kinds::{
    dependencies_in, each_ones, etc_after, files_of_a_kind, is_manifest, labelled_example,
    possessive, someone_elses,
};
use options::{chosen_label, chosen_option, option_named, options_like};

#[cfg(test)]
mod tests;
