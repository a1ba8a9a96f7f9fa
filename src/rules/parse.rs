//! Reading the ```` ```context-graph ```` blocks of a record's text and the rule lines in them
//! (docs/rules.md). Fences are read as CommonMark reads them, so a block shown inside a longer
//! fence (an example of one) is code, not rules.

use super::{Except, Invalid, Rule, RuleBlock, RuleKind, Target};

/// The info string that makes a fenced block rules.
const INFO: &str = "context-graph";

/// The rules of every `context-graph` block in `text` (LF line ends, the record's whole file,
/// so line numbers are the file's); `None` when it has no such block.
pub fn read_block(text: &str) -> Option<RuleBlock> {
    let mut block: Option<RuleBlock> = None;
    // The open fence: its character, its length, and whether it is a rules block.
    let mut open: Option<(char, usize, bool)> = None;
    for (i, line) in text.split('\n').enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        match open {
            Some((c, len, rules)) => {
                if closes(line, c, len) {
                    open = None;
                } else if rules {
                    let b = block.get_or_insert_with(RuleBlock::default);
                    add_line(b, n, line);
                }
            }
            None => {
                if let Some((c, len, info)) = opens(line) {
                    let rules = info.split_whitespace().next() == Some(INFO);
                    if rules {
                        block.get_or_insert_with(RuleBlock::default);
                    }
                    open = Some((c, len, rules));
                }
            }
        }
    }
    block
}

/// Where a line added to the record's last `context-graph` block goes: the 0-based index of
/// its closing fence (the end of the text when it is never closed); `None` without a block.
pub fn block_end(text: &str) -> Option<usize> {
    let mut end = None;
    let mut open: Option<(char, usize, bool)> = None;
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        match open {
            Some((c, len, rules)) => {
                if closes(line, c, len) {
                    open = None;
                    if rules {
                        end = Some(i);
                    }
                }
            }
            None => {
                if let Some((c, len, info)) = opens(line) {
                    let rules = info.split_whitespace().next() == Some(INFO);
                    open = Some((c, len, rules));
                }
            }
        }
    }
    match open {
        // An unclosed block runs to the end (a trailing newline leaves an empty last line).
        Some((_, _, true)) => Some(lines.len() - usize::from(text.ends_with('\n'))),
        _ => end,
    }
}

/// An opening fence: up to three spaces, three or more backticks or tildes, the info string.
fn opens(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.chars().take_while(|x| *x == c).count();
    if len < 3 {
        return None;
    }
    let info = rest[len..].trim();
    if c == '`' && info.contains('`') {
        return None;
    }
    Some((c, len, info))
}

/// A closing fence for one opened with `len` of `c`.
fn closes(line: &str, c: char, len: usize) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let rest = &line[indent..];
    let n = rest.chars().take_while(|x| *x == c).count();
    n >= len && rest[n..].trim().is_empty()
}

/// Adds one line of a block: a comment or blank line is nothing.
fn add_line(b: &mut RuleBlock, line: u32, raw: &str) {
    let text = raw.trim();
    if text.is_empty() || text.starts_with('#') {
        return;
    }
    match parse_line(text) {
        Ok(Parsed::Rule(kind)) => b.rules.push(Rule {
            line,
            text: text.to_string(),
            kind,
        }),
        Ok(Parsed::Except {
            path,
            target,
            reason,
        }) => b.excepts.push(Except {
            line,
            text: text.to_string(),
            path,
            target,
            reason,
        }),
        Err(why) => b.invalid.push(Invalid {
            line,
            text: text.to_string(),
            why,
        }),
    }
}

/// What one rule line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Rule(RuleKind),
    Except {
        path: String,
        target: Option<Target>,
        reason: String,
    },
}

/// Reads one rule line (trimmed, not a comment); `Err` says why it is not a rule.
pub fn parse_line(text: &str) -> Result<Parsed, String> {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(rest) = strip_words(text, &["forbid", "import"]) {
        let (from, to) = arrow(rest)?;
        return Ok(Parsed::Rule(RuleKind::ForbidImport { from, to }));
    }
    if let Some(rest) = strip_words(text, &["only", "import"]) {
        let (from, to) = arrow(rest)?;
        return Ok(Parsed::Rule(RuleKind::OnlyImport { from, to }));
    }
    if let Some(rest) = strip_words(text, &["independent"]) {
        let groups = patterns(rest)?;
        if groups.len() < 2 && !groups.iter().any(|g| g.ends_with("/*")) {
            return Err(
                "`independent` needs two patterns or more, or one ending in `/*`".to_string(),
            );
        }
        return Ok(Parsed::Rule(RuleKind::Independent { groups }));
    }
    if let Some(rest) = strip_words(text, &["forbid", "dependency"]) {
        let (name, within) = match split_word(rest, "in") {
            Some((name, glob)) => (name.trim(), Some(glob.trim())),
            None => (rest.trim(), None),
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err("`forbid dependency` needs one package name".to_string());
        }
        if within.is_some_and(str::is_empty) {
            return Err("`in` needs a pattern of manifest files".to_string());
        }
        return Ok(Parsed::Rule(RuleKind::ForbidDependency {
            name: name.to_string(),
            within: within.map(str::to_string),
        }));
    }
    if let Some(rest) = strip_words(text, &["forbid", "text"]) {
        let rest = rest.trim();
        let body = rest
            .strip_prefix('/')
            .ok_or("`forbid text` needs a /REGEX/ in slashes")?;
        let end = body
            .rfind("/ in ")
            .or_else(|| body.rfind("/\tin "))
            .ok_or("`forbid text /REGEX/` needs `in GLOB` after the regex")?;
        let regex = &body[..end];
        let within = body[end + 1..].trim_start()[2..].trim();
        if regex.is_empty() {
            return Err("the regex is empty".to_string());
        }
        if within.is_empty() {
            return Err("`in` needs a pattern of files".to_string());
        }
        if let Err(e) = regex::Regex::new(regex) {
            let why = e.to_string();
            let last = why
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            return Err(format!("the regex does not compile ({})", last.trim()));
        }
        return Ok(Parsed::Rule(RuleKind::ForbidText {
            regex: regex.to_string(),
            within: within.to_string(),
        }));
    }
    if let Some(rest) = strip_words(text, &["except"]) {
        let (what, reason) = match rest.find(": ") {
            Some(at) => (&rest[..at], rest[at + 2..].trim()),
            None => (rest.trim_end().trim_end_matches(':'), ""),
        };
        if reason.is_empty() {
            return Err("an `except` needs a reason after `: `".to_string());
        }
        let (path, target) = match what.split_once("->") {
            Some((a, b)) => {
                let b = b.trim();
                if b.is_empty() || b.contains(',') {
                    return Err("`except A -> B` names one target".to_string());
                }
                (a.trim(), Some(target(b)))
            }
            None => (what.trim(), None),
        };
        if path.is_empty() || path.contains(char::is_whitespace) {
            return Err("`except` needs one path or pattern".to_string());
        }
        return Ok(Parsed::Except {
            path: path.to_string(),
            target,
            reason: reason.to_string(),
        });
    }
    Err(format!(
        "`{}` is not a rule (forbid import, only import, independent, forbid dependency, forbid text, except)",
        words(text).split(' ').take(2).collect::<Vec<_>>().join(" ")
    ))
}

/// `text` after the words `want`, separated by whitespace; `None` when it does not start so.
fn strip_words<'a>(text: &'a str, want: &[&str]) -> Option<&'a str> {
    let mut rest = text;
    for w in want {
        rest = rest.trim_start();
        let after = rest.strip_prefix(w)?;
        if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
            return None;
        }
        rest = after;
    }
    Some(rest)
}

/// Splits at the last word `word` standing alone.
fn split_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let padded = format!(" {word} ");
    let at = text.rfind(&padded)?;
    Some((&text[..at], &text[at + padded.len()..]))
}

/// `A, … -> B, …`.
fn arrow(rest: &str) -> Result<(Vec<String>, Vec<Target>), String> {
    let (a, b) = rest
        .split_once("->")
        .ok_or("an import rule needs `FROM -> TO`")?;
    let from = patterns(a)?;
    if from.iter().any(|p| p.starts_with("pkg:")) {
        return Err("the files on the left of `->` can't be a package".to_string());
    }
    let to = patterns(b)?.iter().map(|p| target(p)).collect();
    Ok((from, to))
}

/// A comma-separated list of patterns, none empty.
fn patterns(text: &str) -> Result<Vec<String>, String> {
    let out: Vec<String> = text.split(',').map(|p| p.trim().to_string()).collect();
    if out.iter().any(|p| p.is_empty()) {
        return Err("an empty pattern in the list".to_string());
    }
    if let Some(p) = out.iter().find(|p| p.contains(char::is_whitespace)) {
        return Err(format!(
            "`{p}` is not one pattern: separate patterns with `,`"
        ));
    }
    Ok(out)
}

fn target(p: &str) -> Target {
    match p.strip_prefix("pkg:") {
        Some(name) => Target::Package(name.to_string()),
        None => Target::Files(p.trim_end_matches('/').to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_docs_rules_md_parses() {
        let text = "# T\n\n```context-graph\n# a comment\nforbid import src/domain/** -> src/infra/**, pkg:sqlx\nonly import src/api/** -> src/app/**, src/shared/**\nindependent src/billing, src/shipping\nindependent services/*\nforbid dependency moment\nforbid dependency left-pad in packages/*/package.json\nforbid text /\\.unwrap\\(\\)/ in src/**/*.rs\nexcept src/api/health.rs -> src/infra/db.rs: the health check opens the pool itself\nexcept src/legacy.rs: frozen 2026-12-05\n```\n";
        let b = read_block(text).expect("a block");
        assert!(b.invalid.is_empty(), "{:?}", b.invalid);
        assert_eq!(b.rules.len(), 7);
        assert_eq!(b.rules[0].line, 5);
        assert_eq!(
            b.rules[0].kind,
            RuleKind::ForbidImport {
                from: vec!["src/domain/**".into()],
                to: vec![
                    Target::Files("src/infra/**".into()),
                    Target::Package("sqlx".into())
                ]
            }
        );
        assert_eq!(
            b.rules[6].kind,
            RuleKind::ForbidText {
                regex: "\\.unwrap\\(\\)".into(),
                within: "src/**/*.rs".into()
            }
        );
        assert_eq!(
            b.rules[5].kind,
            RuleKind::ForbidDependency {
                name: "left-pad".into(),
                within: Some("packages/*/package.json".into())
            }
        );
        assert_eq!(b.excepts.len(), 2);
        assert_eq!(
            b.excepts[0].target,
            Some(Target::Files("src/infra/db.rs".into()))
        );
        assert_eq!(b.excepts[1].target, None);
    }

    #[test]
    fn a_block_inside_a_longer_fence_is_an_example_not_rules() {
        let text = "````markdown\n```context-graph\nforbid dependency moment\n```\n````\n";
        assert_eq!(read_block(text), None);
        let comments = "```context-graph\n# dropped: see ADR-9\n```\n";
        assert!(read_block(comments).expect("a block").is_empty());
    }

    #[test]
    fn a_freeze_goes_before_the_last_blocks_closing_fence() {
        let text = "# T\n\n```context-graph\nforbid dependency a\n```\n\n```rust\nx\n```\n\n```context-graph\nforbid dependency b\n```\n";
        assert_eq!(block_end(text), Some(12));
        assert_eq!(
            block_end("```context-graph\nforbid dependency a\n"),
            Some(2)
        );
        assert_eq!(block_end("````md\n```context-graph\n```\n````\n"), None);
    }

    #[test]
    fn a_line_that_does_not_parse_says_why() {
        for (line, why) in [
            ("forbid import src/a", "FROM -> TO"),
            ("except src/a.rs", "reason"),
            ("except src/a.rs:", "reason"),
            ("forbid text /(/ in src/**", "does not compile"),
            ("forbid text /x/", "in GLOB"),
            ("forbid imports a -> b", "not a rule"),
            ("independent src/a", "two patterns"),
            ("forbid import a -> b c", "one pattern"),
            ("forbid dependency", "one package name"),
        ] {
            let err = parse_line(line).expect_err(line);
            assert!(err.contains(why), "{line}: {err}");
        }
    }
}
