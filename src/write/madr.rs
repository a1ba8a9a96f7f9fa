//! MADR's own form (ADR-0013, docs/writing.md#madr-and-log4brains): what its template carries
//! that a record does not (the frontmatter's comments, Jekyll's page settings for the
//! template's own page, markdownlint directives), and where MADR puts links to other records:
//! its `## More Information` section (MADR's own decision 0009), never inside the frontmatter.

use crate::text::frontmatter::normalise_key;

/// The heading MADR keeps links to other records under.
pub const MORE_INFORMATION: &str = "## More Information";

/// Frontmatter keys that set the template's own page in a Jekyll site (`nav_order: 100` puts
/// it last in the menu): not the new record's.
const PAGE_ONLY: &[&str] = &["navorder"];

/// A template's text (LF) with what is the template's own taken out: the frontmatter's
/// comments (MADR's `# status: "{proposed | … | superseded by ADR-0123"` is a comment, its
/// `status` and `date` uncommented so that they are filled), its page-only keys, the blank
/// lines left between keys, and the HTML comments before the title heading and markdownlint's
/// anywhere (`<!-- markdownlint-disable-next-line MD025 -->`).
pub fn tidy_template(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let fm_len = super::form::fm_lines(text)
        .map(|l| l.len() + 2)
        .unwrap_or(0);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    if fm_len > 0 {
        let inner = &lines[1..fm_len - 1];
        let real_keys: Vec<String> = inner
            .iter()
            .filter(|l| !l.starts_with([' ', '\t', '#', '-']))
            .filter_map(|l| l.split_once(':').map(|(k, _)| normalise_key(k)))
            .collect();
        out.push(lines[0].to_string());
        let mut kept: Vec<String> = Vec::new();
        let mut skipping_block = false;
        for l in inner {
            let top = !l.starts_with([' ', '\t', '-']) && !l.trim().is_empty();
            if top {
                skipping_block = false;
            } else if skipping_block {
                continue;
            }
            if let Some(rest) = l.strip_prefix('#') {
                // A commented-out `status:` or `date:`: the record's own, uncommented.
                let rest = rest.trim_start();
                let key = rest.split_once(':').map(|(k, _)| normalise_key(k));
                match key {
                    Some(k)
                        if matches!(k.as_str(), "status" | "date")
                            && !real_keys.contains(&k)
                            && !rest.starts_with(' ') =>
                    {
                        kept.push(rest.to_string())
                    }
                    _ => {}
                }
                continue;
            }
            if top
                && l.split_once(':')
                    .is_some_and(|(k, _)| PAGE_ONLY.contains(&normalise_key(k).as_str()))
            {
                skipping_block = true;
                continue;
            }
            kept.push(l.to_string());
        }
        // A blank line left between top-level keys (or at either end) is the comments' own.
        for (i, l) in kept.iter().enumerate() {
            if l.trim().is_empty() {
                let next = kept[i + 1..].iter().find(|n| !n.trim().is_empty());
                if next.is_none_or(|n| !n.starts_with([' ', '\t'])) {
                    continue;
                }
            }
            out.push(l.clone());
        }
        out.push(lines[fm_len - 1].to_string());
    }
    let mut titled = false;
    let body = &lines[fm_len.min(lines.len())..];
    let mut i = 0;
    while i < body.len() {
        let l = body[i];
        let t = l.trim();
        let comment = t.starts_with("<!--") && t.ends_with("-->");
        if comment && (!titled || t.to_ascii_lowercase().contains("markdownlint")) {
            i += 1;
            continue;
        }
        // A comment of several lines naming the template (DependencyTrack's `Template
        // source: …`) is the template's own page, never the record's.
        if t.starts_with("<!--") && !t.contains("-->") {
            if let Some(end) = body[i..].iter().position(|n| n.contains("-->")) {
                let block = body[i..=i + end].join("\n").to_ascii_lowercase();
                if block.contains("template") {
                    i += end + 1;
                    continue;
                }
            }
        }
        titled |= l.starts_with("# ");
        out.push(l.to_string());
        i += 1;
    }
    while out.len() > 1
        && out.last().is_some_and(|l| l.trim().is_empty())
        && out[out.len() - 2].trim().is_empty()
    {
        out.pop();
    }
    out.join("\n")
}

/// Where links go in a record that keeps its status in frontmatter (MADR 3 and 4): under its
/// `## More Information` heading, first, or a new such section at the end. The line to insert
/// at (0-based, of `lines`) and the lines to insert.
pub fn more_information<S: AsRef<str>>(lines: &[S], links: &[String]) -> (usize, Vec<String>) {
    let heading = lines
        .iter()
        .position(|l| l.as_ref().trim_end().eq_ignore_ascii_case(MORE_INFORMATION));
    match heading {
        Some(h) => {
            let mut block = vec![String::new()];
            block.extend(links.iter().cloned());
            (h + 1, block)
        }
        None => {
            // At the end, after the last line with text.
            let end = lines
                .iter()
                .rposition(|l| !l.as_ref().trim().is_empty())
                .map_or(0, |i| i + 1);
            let mut block = vec![String::new(), MORE_INFORMATION.to_string(), String::new()];
            block.extend(links.iter().cloned());
            (end, block)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_comments_and_page_settings_go() {
        let t = "---\n# Configuration for the Jekyll template \"Just the Docs\"\nparent: Decisions\nnav_order: 100\ntitle: ADR Template\n\n# These are optional elements.\n# status: \"{proposed | superseded by ADR-0123\"\n# date: {YYYY-MM-DD when the decision was last updated}\n# consulted: {list}\n---\n<!-- we need to disable MD025 -->\n<!-- markdownlint-disable-next-line MD025 -->\n# {short title}\n\n<!-- This is an optional element. Feel free to remove. -->\n## Decision Drivers\n";
        assert_eq!(
            tidy_template(t),
            "---\nparent: Decisions\ntitle: ADR Template\nstatus: \"{proposed | superseded by ADR-0123\"\ndate: {YYYY-MM-DD when the decision was last updated}\n---\n# {short title}\n\n<!-- This is an optional element. Feel free to remove. -->\n## Decision Drivers\n"
        );
    }

    #[test]
    fn a_comment_naming_the_template_s_source_goes() {
        let t = "| Status | Date |\n|---|---|\n| Proposed | yyyy-mm-dd |\n\n## Consequences\n\nWhat becomes easier?\n\n<!--\nTemplate source:\nhttps://example.org/templates/nygard/index.md\n-->\n";
        let out = tidy_template(t);
        assert!(!out.contains("Template source"), "{out}");
        assert!(!out.contains("<!--"), "{out}");
        assert!(out.contains("What becomes easier?"), "{out}");
        let kept = "## Context\n\n<!--\nWhy we decide this, in a few lines.\n-->\n";
        assert_eq!(tidy_template(kept), kept);
    }

    #[test]
    fn links_go_under_more_information() {
        let lines = ["# T", "", "## More Information", "", "{placeholder}"];
        assert_eq!(
            more_information(&lines, &["Supersedes [ADR-0001](0001-x.md)".into()]),
            (
                3,
                vec![String::new(), "Supersedes [ADR-0001](0001-x.md)".into()]
            )
        );
        let lines = ["# T", "", "## Decision", "", "A.", ""];
        assert_eq!(
            more_information(&lines, &["Amends [ADR-0001](0001-x.md)".into()]).0,
            5
        );
    }
}
