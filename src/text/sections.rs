//! A record's sections: its Markdown split at the headings under its title, for `context`
//! (docs/agents.md; ADR-0014).

/// One section: its heading as written (`""` for the text before the first heading) and its
/// text, trimmed, subheadings included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub heading: String,
    pub text: String,
}

/// Which part of a decision a section is, most wanted first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Decision,
    Consequences,
    Context,
    Other,
    /// The status section: said in the pack's own header line.
    Status,
}

/// What a heading names: `## Decision`, `## 3. Decision Outcome`, `## Consequences`,
/// `## Context and Problem Statement`, …
pub fn part(heading: &str) -> Part {
    let h = heading
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ')
        .trim_end_matches(':')
        .trim()
        .to_lowercase();
    let h = h.trim_matches('*').trim_matches('_');
    let starts = |words: &[&str]| words.iter().any(|w| h.starts_with(w));
    if h.starts_with("status") {
        Part::Status
    } else if (h.starts_with("decision") && !h.contains("driver"))
        || starts(&[
            "the decision",
            "proposal",
            "proposed solution",
            "resolution",
        ])
    {
        Part::Decision
    } else if starts(&["consequence", "implications"]) {
        Part::Consequences
    } else if starts(&["context", "problem", "background", "motivation"]) {
        Part::Context
    } else {
        Part::Other
    }
}

/// The sections of a record's text (LF line endings): frontmatter and the title heading are
/// dropped, as are the header's `Key: value` lines (status, date, deciders: the pack says
/// them); the text is split at every heading of level 1 or 2 outside code fences.
pub fn sections(text: &str) -> Vec<Section> {
    let (_, body_start) = super::frontmatter::split(text);
    let mut out: Vec<Section> = Vec::new();
    let mut heading = String::new();
    let mut lines: Vec<&str> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut titled = false;
    let flush = |heading: &str, lines: &mut Vec<&str>, out: &mut Vec<Section>| {
        let text = lines.join("\n").trim().to_string();
        lines.clear();
        if !text.is_empty() || !heading.is_empty() {
            out.push(Section {
                heading: heading.to_string(),
                text,
            });
        }
    };
    for line in text.split('\n').skip(body_start) {
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            lines.push(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            lines.push(line);
            continue;
        }
        let level = line.chars().take_while(|c| *c == '#').count();
        let is_heading = (1..=2).contains(&level) && line[level..].starts_with(' ');
        if !is_heading {
            // The header's metadata lines, before the first section.
            if out.is_empty() && heading.is_empty() && is_meta(line) {
                continue;
            }
            lines.push(line);
            continue;
        }
        let name = line[level..].trim().trim_end_matches('#').trim();
        if level == 1 && !titled && out.is_empty() && heading.is_empty() && blank(&lines) {
            titled = true; // the title
            continue;
        }
        flush(&heading, &mut lines, &mut out);
        heading = name.to_string();
    }
    flush(&heading, &mut lines, &mut out);
    out.retain(|s| !s.text.is_empty());
    out
}

fn blank(lines: &[&str]) -> bool {
    lines.iter().all(|l| l.trim().is_empty())
}

/// A header line such as `Status: accepted`, `* Date: 2021-03-04`, `**Deciders:** A, B`.
fn is_meta(line: &str) -> bool {
    let l = line
        .trim()
        .trim_start_matches(['*', '-', '>'])
        .trim_start()
        .trim_start_matches('*');
    let Some((key, _)) = l.split_once(':') else {
        return false;
    };
    let key = key.trim_end_matches('*').trim();
    !key.is_empty()
        && key.len() <= 24
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        && key.chars().next().is_some_and(char::is_alphabetic)
        && key.split_whitespace().count() <= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_nygard_record_under_its_title() {
        let text = "# 4. Use JWT\n\nDate: 2021-03-04\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe use JWT.\n\n### Detail\n\nMore.\n\n## Consequences\n\nTokens.\n";
        let s = sections(text);
        let heads: Vec<&str> = s.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(heads, ["Status", "Context", "Decision", "Consequences"]);
        assert_eq!(s[2].text, "We use JWT.\n\n### Detail\n\nMore.");
        assert_eq!(part(&s[2].heading), Part::Decision);
        assert_eq!(part("3. Decision Outcome"), Part::Decision);
        assert_eq!(part("Decision Drivers"), Part::Other);
        assert_eq!(part("Context and Problem Statement"), Part::Context);
    }

    #[test]
    fn keeps_prose_before_any_heading_and_ignores_fenced_headings() {
        let text = "---\nstatus: accepted\n---\n# Title\n\nStatus: accepted\n\nWe do X.\n\n```sh\n# not a heading\n```\n";
        let s = sections(text);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].heading, "");
        assert!(s[0].text.starts_with("We do X."), "{:?}", s[0].text);
        assert!(s[0].text.contains("# not a heading"));
    }
}
