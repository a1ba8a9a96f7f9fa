//! A record's text → every field the reference decides, in its order: id, title, status,
//! date, relations, mentions, links and the paths its code spans name (ADR-0001).

use super::fields::{
    date_in_name, is_section_heading, number_after_date, plain_text, read_date, read_status,
    record_stem,
};
use super::relations::{fm_refs, link_text_id, prose_relations, status_relations, Ctx};
use super::{dedup, ParsedRecord, Ref};
use crate::model::Status;
use crate::text::frontmatter::{self, Frontmatter};
use crate::text::ids::{self, Prefix};
use crate::text::markdown::{
    code_spans, fenced_blocks, fenced_lines, lf, link_target, text_links, visible_lines,
};
use crate::text::mentions::{blank_code_examples, prose_ids};
use crate::text::{parent_folder, path};
use regex::Regex;
use std::sync::OnceLock;

mod heading;
pub use heading::name_id;
use heading::{first_heading, heading_parts, opening_heading, read_id, read_title};

/// The same, from text.
pub fn parse_text(rel_path: &str, text: &str, prefix: Prefix) -> ParsedRecord {
    let rules = read_rules(rel_path, text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = lf(text);
    // A reStructuredText record is read as the Markdown it maps to (docs/reading.md).
    let text = crate::text::rst::as_markdown(rel_path, &text);
    let (fm, body_start) = frontmatter::split(&text);
    let fm = fm.unwrap_or_default();
    let all_lines: Vec<&str> = text.split('\n').collect();
    let lines = visible_lines(&all_lines, body_start);
    let folder = parent_folder(rel_path);
    let stem = record_stem(rel_path);

    let mut notes = Vec::new();
    if let Some(why) = &fm.invalid {
        let why = why.lines().next().unwrap_or("");
        notes.push(match fm.toml {
            true => format!(
                "{rel_path}: frontmatter is not valid TOML ({why}); read its key = value lines instead"
            ),
            false => format!(
                "{rel_path}: frontmatter is not valid YAML ({why}); read its key: value lines instead"
            ),
        });
    }

    let heading = first_heading(&lines);
    let heading = heading.as_deref();
    let Head {
        id,
        title,
        mut status,
        mut status_text,
    } = head(&fm, &lines, stem, prefix);
    let date = read_date(&fm, &lines, &all_lines, body_start, date_in_name(stem));

    let mut supersedes = fm_refs(&fm, &["supersedes", "replaces"], folder, prefix);
    let mut superseded_by = fm_refs(&fm, &["supersededby", "replacedby"], folder, prefix);
    let mut amends = fm_refs(&fm, &["amends"], folder, prefix);
    let mut amended_by = fm_refs(&fm, &["amendedby"], folder, prefix);
    let mut mentions: Vec<String> = ids::mentioned_ids(&fm.raw);
    for r in supersedes
        .iter()
        .chain(&superseded_by)
        .chain(&amends)
        .chain(&amended_by)
    {
        if let Ref::Id(id) = r {
            mentions.push(id.clone());
        }
    }
    let mut links = Vec::new();
    let mut code_paths = Vec::new();
    // Regexes run once over the visible text, not once per line.
    let visible: String = lines.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
    // Relations in prose, where the record itself is the subject; code-span examples blanked.
    let shown = blank_code_examples(&visible);
    let shown_lines: Vec<(usize, &str)> = lines
        .iter()
        .map(|(i, _)| *i)
        .zip(shown.split('\n'))
        .collect();
    let ctx = Ctx {
        folder,
        prefix,
        own_id: &id,
    };
    prose_relations(
        &shown_lines,
        &ctx,
        [
            &mut superseded_by,
            &mut supersedes,
            &mut amends,
            &mut amended_by,
        ],
    );
    // The status line may itself say "Superseded by ADR-9".
    let successors_before = superseded_by.len();
    status_relations(
        &status_text,
        &ctx,
        [
            &mut superseded_by,
            &mut supersedes,
            &mut amends,
            &mut amended_by,
        ],
    );
    // A status that says, whole, that the record is superseded is its status, whatever word
    // it opens with ("Implemented. Superseded by ADR-013", celestia-app's record 9).
    let status_says_superseded = superseded_by.len() > successors_before;
    let prose = prose_ids(&visible);
    mentions.extend(prose.ids);
    // The number its own heading gives it (`# RFC 958 - …` in `2021-10-12-9568-x.md`) names the
    // record itself, not another one.
    if let Some(n) = heading
        .map(heading_parts)
        .filter(|p| p.kind)
        .and_then(|p| p.number)
    {
        let alias = ids::format_id(prefix, n);
        mentions.retain(|m| *m != alias);
    }
    let linked_mentions = prose.linked;
    let mut site_links = Vec::new();
    for (text, written) in text_links(&visible) {
        if let Some(target) = link_target(folder, written) {
            if written.starts_with('/') {
                site_links.push(target.clone());
            }
            links.push(Ref::Link {
                text_id: link_text_id(text, prefix),
                target,
            });
        }
    }
    for (_, line) in &lines {
        for span in code_spans(line) {
            if let Some(p) = path::clean_code_path(span) {
                code_paths.push(p);
            }
        }
    }
    for list in [
        &mut supersedes,
        &mut superseded_by,
        &mut amends,
        &mut amended_by,
    ] {
        dedup(list);
    }
    mentions.sort();
    mentions.dedup();
    dedup(&mut links);
    // A folder named right before a block listing paths under it: the listed paths are named,
    // the folder is where they go (`parse::listed`).
    let fenced = fenced_lines(&all_lines, body_start);
    let mut prose_paths = super::passing::prose_paths(&lines, folder);
    for listed in super::listed::listed_under(&lines, &fenced) {
        code_paths.extend(listed.paths);
        if let Some(p) = prose_paths
            .iter_mut()
            .find(|p| p.path == listed.folder && p.line == listed.line && p.passing.is_none())
        {
            p.passing = Some(super::listed::WHERE.to_string());
        }
    }
    // A path listed under a folder's item in a nested list is named at its full path, in
    // passing (`parse::passing`): written alone, it is no candidate unless named so elsewhere.
    for n in &prose_paths {
        if !n
            .passing
            .as_deref()
            .is_some_and(super::passing::is_listed_under)
        {
            continue;
        }
        let written = path::clean_code_path(&n.written).unwrap_or_default();
        let plain = written.trim_matches('/');
        if !prose_paths.iter().any(|o| o.path == plain) {
            code_paths.retain(|c| c.trim_matches('/') != plain);
        }
    }
    code_paths.sort();
    code_paths.dedup();
    // A record that says of itself that it is superseded, and has no status, is superseded.
    if status == Status::Unknown && !superseded_by.is_empty() {
        status = Status::Superseded;
        status_text = format!("Superseded by {}", successor_names(&superseded_by));
    }
    if status_says_superseded
        && matches!(
            status,
            Status::Accepted | Status::Implemented | Status::Proposed
        )
    {
        status = Status::Superseded;
    }

    // "> **Archived:** kept for historical reference only" above the body: deprecated.
    if status == Status::Unknown && archived_callout(&lines) {
        status = Status::Deprecated;
        status_text = "Archived".to_string();
    }
    let placeholders = placeholder_re().is_match(&visible);
    // A heading that starts with "Decision" ("Decision", "Decision Outcome"), or is that word.
    let decision_heading = |whole: bool| {
        lines.iter().any(|(_, l)| {
            let h = l.trim_start_matches('#').trim().to_ascii_lowercase();
            l.starts_with('#')
                && if whole {
                    h == "decision"
                } else {
                    h.starts_with("decision")
                }
        })
    };
    // Nothing a record has but its text: no status, date, id or decision section.
    let unmarked = fm.get(&["title", "id", "adr", "rfc"]).is_none()
        && status == Status::Unknown
        && date.is_none()
        && !decision_heading(true);
    let bare = unmarked && heading.is_none() && opening_heading(&lines).is_none();
    // A heading and no decision section either (hermes' `architecture.md`): an overview
    // when its name carries no number and its folder's records do (`drop_non_records`).
    let overview = unmarked && !decision_heading(false);
    // The title's line: its heading, or its frontmatter key (a title made of the file's name
    // is on no line: the first).
    let title_line = all_lines
        .iter()
        .position(|l| !title.is_empty() && l.contains(title.as_str()))
        .unwrap_or(0);
    let mut terms = crate::text::terms::terms(&lines, &title, title_line);
    // The command lines a shell block shows being run (`flux push artifact …`), and the kinds
    // of resource its manifests show (`kind: NginxGateway`).
    let shown_in_blocks = crate::text::terms::invocations(&fenced)
        .into_iter()
        .chain(crate::text::terms::kinds(&fenced))
        .chain(crate::text::terms::drawn(&fenced_blocks(
            &all_lines, body_start,
        )));
    for call in shown_in_blocks {
        if !terms
            .iter()
            .any(|t| t.kind == call.kind && t.text == call.text)
        {
            terms.push(call);
        }
    }
    // Citations named only as what the decision replaces; the rest, to tell a record cited
    // both ways (its frontmatter and code-span paths cite it otherwise too).
    let (replaced, mut cited_otherwise) =
        super::replaced::replaced_citations(&shown, folder, prefix);
    if !replaced.is_empty() {
        cited_otherwise.extend(ids::mentioned_ids(&fm.raw).into_iter().map(Ref::Id));
        cited_otherwise.extend(code_paths.iter().map(|p| Ref::Link {
            target: p.clone(),
            text_id: None,
        }));
        dedup(&mut cited_otherwise);
    }
    ParsedRecord {
        path: rel_path.to_string(),
        prefix,
        id,
        title,
        status,
        status_text,
        date,
        supersedes,
        superseded_by,
        amends,
        amended_by,
        mentions,
        linked_mentions,
        links,
        code_paths,
        removed_paths: super::roles::removed_paths(&visible, folder),
        host_paths: super::roles::host_only_paths(&visible, folder),
        prose_paths,
        related: fm_refs(
            &fm,
            &["relatesto", "related", "relatedto", "relates"],
            folder,
            prefix,
        ),
        declared: super::scope::declared_scope(&fm),
        declared_in: super::scope::declared_in(&fm),
        notes,
        placeholders,
        bare,
        overview,
        supersession_mentions: supersession_mentions(&shown_lines, folder, prefix),
        replaced,
        cited_otherwise,
        origin: origin_re()
            .captures(&fm.raw)
            .map(|c| c[1].to_ascii_lowercase()),
        terms,
        rules,
        site_links,
        words: super::words_of(rel_path, &text),
    }
}

/// Whether a blockquote or callout at the top of the body (before the first `##` section) says
/// the record is archived (docs/reading.md, "Status in a callout").
fn archived_callout(lines: &[(usize, &str)]) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:\[![a-z]+\]\s*)?[*_]*(?:archived(?-u:\b)|this\s+\w+\s+(?:is|has\s+been|was)\s+archived)")
            .expect("archived regex compiles")
    });
    lines
        .iter()
        .take_while(|(_, l)| !l.starts_with("## "))
        .filter_map(|(_, l)| l.trim_start().strip_prefix('>'))
        .any(|q| re.is_match(q.trim_start_matches(['>', ' ', '\t'])))
}

/// The ids and links each line names after a supersession word ("supersedes", "superseded",
/// "replaces"…), whoever the subject.
fn supersession_mentions(lines: &[(usize, &str)], folder: &str, prefix: Prefix) -> Vec<Ref> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:supersed|superced|replac)[a-z]*")
            .expect("supersession regex compiles")
    });
    let mut out = Vec::new();
    for (_, line) in lines {
        let Some(m) = re.find(line) else { continue };
        let before = line[..m.start()].to_ascii_lowercase();
        let negated = before
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .any(|w| matches!(w, "not" | "never" | "no") || w.ends_with("n't"));
        if negated {
            continue;
        }
        let rest = &line[m.end()..];
        out.extend(ids::mentions(rest).into_iter().map(|m| Ref::Id(m.id)));
        for (text, target) in text_links(rest) {
            if let Some(target) = link_target(folder, target) {
                out.push(Ref::Link {
                    text_id: link_text_id(text, prefix),
                    target,
                });
            }
        }
    }
    dedup(&mut out);
    out
}

/// A pull request's repository in frontmatter: `github.com/OWNER/REPO/pull/N`.
fn origin_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/[0-9]+")
            .expect("origin regex compiles")
    })
}

/// A template's placeholders: `[short title…]`, `{title}`, `{{ title }}`, `NNNN`, `YYYY-MM-DD`.
fn placeholder_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)\[short title|\{\{?\s*title\s*\}|(?-u:\b)NNNN(?-u:\b)|(?-u:\b)YYYY-MM-DD(?-u:\b)",
        )
        .expect("placeholder regex compiles")
    })
}

/// What names a record and says its status: the first fields of [`parse_text`], read alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub id: String,
    pub title: String,
    pub status: Status,
    pub status_text: String,
}

fn head(fm: &Frontmatter, lines: &[(usize, &str)], stem: &str, prefix: Prefix) -> Head {
    let heading = first_heading(lines);
    let heading = heading.as_deref();
    let (status, status_text) = read_status(fm, lines);
    Head {
        id: read_id(fm, stem, heading, prefix),
        title: read_title(fm, heading, stem),
        status,
        status_text,
    }
}

/// A record's id, title and status as [`parse_text`] reads them, without its relations,
/// mentions and links (nor the regexes that find them): for `write`, which reads one or two
/// records (ADR-0013). A record without a status line is parsed whole, since it may say in
/// prose that it is superseded.
pub fn parse_head(rel_path: &str, text: &str, prefix: Prefix) -> Head {
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lf_text = lf(stripped);
    let (fm, body_start) = frontmatter::split(&lf_text);
    let fm = fm.unwrap_or_default();
    let all_lines: Vec<&str> = lf_text.split('\n').collect();
    let lines = visible_lines(&all_lines, body_start);
    let found = head(&fm, &lines, record_stem(rel_path), prefix);
    if found.status != Status::Unknown {
        return found;
    }
    let p = parse_text(rel_path, text, prefix);
    Head {
        id: p.id,
        title: p.title,
        status: p.status,
        status_text: p.status_text,
    }
}

/// A record's rules (docs/rules.md), read from the Markdown as written so a line is the
/// file's; a reStructuredText record carries none. What [`parse_text`] reads, alone: with
/// [`parse_head`], all the commit hook needs of a record with rules (ADR-0021).
pub fn read_rules(rel_path: &str, text: &str) -> Option<crate::rules::RuleBlock> {
    if rel_path.ends_with(".rst") {
        return None;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::rules::read_block(&lf(text))
}

/// Where the status of a record's text (LF line endings) is written, and what it says; lines
/// are indices into `text.split('\n')`. For `write`, which edits it in place (ADR-0013).
pub fn status_in(text: &str) -> Option<(super::StatusAt, String)> {
    let (fm, body_start) = frontmatter::split(text);
    let fm = fm.unwrap_or_default();
    let all_lines: Vec<&str> = text.split('\n').collect();
    let lines = visible_lines(&all_lines, body_start);
    super::fields::status_source(&fm, &lines)
}

/// The successors a record names, for its status text: ids, else link texts' ids, else files.
fn successor_names(refs: &[Ref]) -> String {
    let names: Vec<&str> = refs
        .iter()
        .map(|r| match r {
            Ref::Id(id) => id.as_str(),
            Ref::Link {
                text_id: Some(id), ..
            }
            | Ref::Web {
                text_id: Some(id), ..
            } => id.as_str(),
            Ref::Link { target, .. } | Ref::Web { target, .. } => {
                target.rsplit('/').next().unwrap_or(target)
            }
        })
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;

    fn p(text: &str) -> ParsedRecord {
        parse_text("docs/adr/0007-use-x.md", text, Prefix::Adr)
    }

    #[test]
    fn a_document_opening_with_a_deeper_or_setext_heading_is_titled_by_it() {
        let deeper = p("## Dominant Resource Fairness (DRF)\n\n## Introduction\n\nShares.\n");
        assert_eq!(deeper.title, "Dominant Resource Fairness (DRF)");
        assert!(!deeper.bare);
        let setext = p("CPU Throttle Feature Design\n===\n\nDesign Principles\n---\n");
        assert_eq!(setext.title, "CPU Throttle Feature Design");
        assert!(!setext.bare);
        // A section's name is no title, but the file still has a heading: not a guide.
        let section = p("## 1 Introduction\n\n### 1.1 Project Background\n\nWhy.\n");
        assert_eq!(section.title, "0007-use-x");
        assert!(!section.bare);
        // A heading further down is not what the document opens with.
        let later = p("Some words first.\n\n## Later\n");
        assert_eq!(later.title, "0007-use-x");
        assert!(later.bare);
        // A list item over a rule is no setext heading.
        assert!(p("- item\n---\n").bare);
    }

    #[test]
    fn reads_a_nygard_record() {
        let r = p("# 7. Use X\n\nDate: 2024-01-05\n\n## Status\n\nSuperseded by [9. Use Y](0009-use-y.md)\n\n## Context\n\nSee ADR-3 and `src/x/`.\n");
        assert_eq!(r.id, "ADR-0007");
        assert_eq!(r.title, "Use X");
        assert_eq!(r.status, Status::Superseded);
        assert_eq!(r.date.as_deref(), Some("2024-01-05"));
        assert_eq!(
            r.superseded_by,
            vec![Ref::Link {
                target: "docs/adr/0009-use-y.md".into(),
                text_id: Some("ADR-0009".into())
            }]
        );
        assert!(r.mentions.contains(&"ADR-0003".to_string()));
        assert_eq!(r.code_paths, vec!["src/x/".to_string()]);
    }

    #[test]
    fn status_forms() {
        for text in [
            "Status: Accepted",
            "**Status:** Accepted",
            "**Status**: Accepted",
            "- Status: accepted",
            "* Status: Accepted",
            "| Status | Accepted |",
            "| Status | Date |\n|---|---|\n| Accepted | 2024-01-01 |",
            "## Status\n\nAccepted\n",
        ] {
            let r = p(&format!("# T\n\n{text}\n"));
            assert_eq!(r.status, Status::Accepted, "{text}");
            assert!(r.status_text.eq_ignore_ascii_case("accepted"), "{text}");
        }
    }

    #[test]
    fn fenced_status_is_an_example() {
        let r = p("# T\n\n```\nStatus: Accepted\nDate: 2020-01-01\n```\n");
        assert_eq!(r.status, Status::Unknown);
        assert_eq!(r.date, None);
    }

    #[test]
    fn relation_lists() {
        let r = p(
            "# T\n\nSupersedes ADR-3 and ADR-4, then ADR-5.\nAmends `0002`.\nReplaced by RFC 12\n",
        );
        assert_eq!(
            r.supersedes,
            vec![Ref::Id("ADR-0003".into()), Ref::Id("ADR-0004".into())]
        );
        assert_eq!(r.amends, vec![Ref::Id("ADR-0002".into())]);
        assert_eq!(r.superseded_by, vec![Ref::Id("RFC-0012".into())]);
    }

    #[test]
    fn titles_lose_their_prefix() {
        assert_eq!(p("# ADR 7: Use X\n").title, "Use X");
        assert_eq!(p("# ADR-0007: Use X\n").title, "Use X");
        assert_eq!(p("# 7. Use X\n").title, "Use X");
        assert_eq!(p("# 0007 - Use X\n").title, "Use X");
        assert_eq!(p("# 7-day retention\n").title, "7-day retention");
        assert_eq!(p("# 2024 plans\n").title, "2024 plans");
        assert_eq!(p("no heading\n").title, "0007-use-x");
        assert_eq!(p("# RFC #12 - Use X\n").title, "Use X");
        assert_eq!(p("# 2024-05-02 - Use X\n").title, "Use X");
        assert_eq!(p("# ADR 7\n").title, "ADR 7");
        // Wikibase's: a number before `)`, the anchor's attributes after the title.
        assert_eq!(p("# 1) Use PSR-16 {#adr_0001}\n").title, "Use PSR-16");
        assert_eq!(p("# Use X {#use-x .unnumbered}\n").title, "Use X");
        assert_eq!(p("## Use X {#x}\n").title, "Use X");
        // Braces that are the title's stay.
        assert_eq!(
            p("# Use {braces} in templates\n").title,
            "Use {braces} in templates"
        );
        assert_eq!(p("# Render {x}\n").title, "Render {x}");
    }

    #[test]
    fn dated_names_with_a_number() {
        let at = |path: &str, text: &str| parse_text(path, text, Prefix::Rfc);
        let r = at(
            "rfcs/2021-05-04-1234-retry-budget.md",
            "# RFC 1234 - 2021-05-04 - Retry budget\n",
        );
        assert_eq!(
            (r.id.as_str(), r.title.as_str()),
            ("RFC-1234", "Retry budget")
        );
        let r = at(
            "rfcs/2021-05-04-retry-budget.md",
            "# RFC 77 - 2021-05-04 - Retry\n",
        );
        assert_eq!((r.id.as_str(), r.title.as_str()), ("RFC-0077", "Retry"));
        let r = at("rfcs/2023-05-02-plain.md", "# RFC 2023-05-02 - Plain\n");
        assert_eq!(
            (r.id.as_str(), r.title.as_str()),
            ("2023-05-02-plain", "Plain")
        );
        let r = at("rfcs/2022-11-2-14714-x.md", "# X\n");
        assert_eq!(
            (r.id.as_str(), r.date.as_deref()),
            ("RFC-14714", Some("2022-11-02"))
        );
        // A plain dated name with a heading that names no kind keeps the stem.
        assert_eq!(at("rfcs/2024-06-11-x.md", "# 7. X\n").id, "2024-06-11-x");
    }

    #[test]
    fn dates_must_be_iso() {
        assert_eq!(p("# T\n\nDate: 2024-02-30\n").date, None);
        assert_eq!(
            p("# T\n\nDate: x 2024-02-29 y\n").date.as_deref(),
            Some("2024-02-29")
        );
        assert_eq!(p("# T\n\nDate: 2 March 2024\n").date, None);
    }
}
