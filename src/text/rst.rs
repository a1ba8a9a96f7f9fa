//! reStructuredText records, read as the Markdown the record parser knows (docs/reading.md,
//! "Records in reStructuredText"; ADR-0001): a section title (underlined, and maybe overlined)
//! becomes a `#` heading, a field line (`:Status: Accepted`) a `Key: value` line, a literal
//! block (`::`, `.. code-block::`) a fenced block, a link (`` `text <path>`_ ``,
//! `:doc:`path``, a `.. _name: target` definition) a Markdown link, an inline literal
//! (``` ``x`` ```) a code span, and interpreted text (`` `x` ``) emphasis, not code. Each line
//! stays on its line (a literal block that ends without a blank line adds one), so what the
//! parser says of a line is said of the record's own. Pure text (ADR-0001).

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

/// Whether a path is a reStructuredText file (`.rst`, any case).
pub fn is_rst(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(_, e)| e.eq_ignore_ascii_case("rst"))
}

/// A record's text (LF line endings) as Markdown: converted when `rel_path` is `.rst`, else
/// as it is.
pub fn as_markdown<'a>(rel_path: &str, text: &'a str) -> Cow<'a, str> {
    if is_rst(rel_path) {
        to_markdown(text).into()
    } else {
        text.into()
    }
}

/// The characters a section title's adornment may be made of.
const ADORNMENTS: &str = "=-~*#^\"'+_:.`<>";

/// The directives whose body is code, not prose.
const CODE_DIRECTIVES: [&str; 7] = [
    "code-block",
    "code",
    "sourcecode",
    "parsed-literal",
    "math",
    "doctest",
    "literal",
];

/// An LF text in reStructuredText → the same text as Markdown, line for line.
pub fn to_markdown(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Blocks::default();
    let mut styles: Vec<(char, bool)> = Vec::new();
    let mut titled = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        let after_blank = i == 0 || lines[i - 1].trim().is_empty() || out.heading_last;
        // An overlined title: adornment, title, the same adornment.
        if let (Some(c), Some(title), Some(under)) = (
            adornment(line),
            lines.get(i + 1),
            lines.get(i + 2).and_then(|l| adornment(l)),
        ) {
            if after_blank
                && c == under
                && !title.trim().is_empty()
                && adornment(title).is_none()
                && line.trim().chars().count() >= title.trim().chars().count()
            {
                out.prose(String::new());
                out.heading(heading(title.trim(), (c, true), &mut styles, &mut titled));
                out.prose(String::new());
                i += 3;
                continue;
            }
        }
        // An underlined title.
        if let Some(c) = lines.get(i + 1).and_then(|l| adornment(l)) {
            let under = lines[i + 1].trim().chars().count();
            if after_blank
                && !trimmed.is_empty()
                && !line.starts_with([' ', '\t'])
                && adornment(line).is_none()
                && !trimmed.starts_with("..")
                && under >= trimmed.chars().count()
            {
                out.heading(heading(trimmed, (c, false), &mut styles, &mut titled));
                out.prose(String::new());
                i += 2;
                continue;
            }
        }
        out.heading_last = false;
        // A transition, or an adornment with nothing to adorn.
        if adornment(line).is_some() && trimmed.chars().count() >= 4 {
            out.prose(String::new());
            i += 1;
            continue;
        }
        if let Some(rest) = trimmed
            .strip_prefix("..")
            .filter(|r| r.is_empty() || r.starts_with(' '))
        {
            i = explicit(&lines, i, rest.trim(), &mut out);
            continue;
        }
        // A paragraph that ends with `::` introduces a literal block.
        if trimmed.ends_with("::") && lines.get(i + 1).is_some_and(|l| l.trim().is_empty()) {
            let at = indent(line);
            let body = block_end(&lines, i + 2, at);
            if body > i + 2 {
                let kept = match trimmed.strip_suffix("::").unwrap_or("").trim_end() {
                    "" => String::new(),
                    t if trimmed.ends_with(" ::") => format!("{}{t}", &line[..at]),
                    t => format!("{}{t}:", &line[..at]),
                };
                out.prose(kept);
                out.code("```".to_string());
                i = literal(&lines, i + 2, body, &mut out);
                continue;
            }
        }
        out.prose(field_line(line).unwrap_or_else(|| line.to_string()));
        i += 1;
    }
    out.finish()
}

/// The converted lines, each either prose (inline markup still to convert) or code.
#[derive(Default)]
struct Blocks {
    lines: Vec<(String, bool)>,
    /// The last line emitted was a title's (a title may follow a title without a blank line).
    heading_last: bool,
}

impl Blocks {
    fn prose(&mut self, line: String) {
        self.lines.push((line, false));
    }
    fn heading(&mut self, line: String) {
        self.lines.push((line, false));
        self.heading_last = true;
    }
    fn code(&mut self, line: String) {
        self.lines.push((line, true));
    }
    /// Inline markup converted in each run of prose lines (a link's text may span lines).
    fn finish(self) -> String {
        let mut out: Vec<String> = Vec::with_capacity(self.lines.len());
        let mut run: Vec<String> = Vec::new();
        let flush = |run: &mut Vec<String>, out: &mut Vec<String>| {
            if !run.is_empty() {
                out.extend(inline(&run.join("\n")).split('\n').map(str::to_string));
                run.clear();
            }
        };
        for (line, fixed) in self.lines {
            if fixed {
                flush(&mut run, &mut out);
                out.push(line);
            } else {
                run.push(line);
            }
        }
        flush(&mut run, &mut out);
        out.join("\n")
    }
}

/// The character a line of adornment repeats (`=====`), if it is one.
fn adornment(line: &str) -> Option<char> {
    let t = line.trim_end();
    let c = t.chars().next()?;
    (ADORNMENTS.contains(c) && t.chars().all(|x| x == c) && t.len() >= 2 && t != "::" && t != "..")
        .then_some(c)
}

/// A title's Markdown heading: the first title is the record's (`#`); a style keeps the
/// level of its first use, below the title (`##` and deeper).
fn heading(
    title: &str,
    style: (char, bool),
    styles: &mut Vec<(char, bool)>,
    titled: &mut bool,
) -> String {
    let rank = styles.iter().position(|s| *s == style).unwrap_or_else(|| {
        styles.push(style);
        styles.len() - 1
    });
    let level = if *titled { (rank + 1).clamp(2, 6) } else { 1 };
    *titled = true;
    format!("{} {title}", "#".repeat(level))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The end (exclusive) of the indented block from `from`: lines blank or indented deeper than
/// `at`.
fn block_end(lines: &[&str], from: usize, at: usize) -> usize {
    let mut end = from;
    while end < lines.len() && (lines[end].trim().is_empty() || indent(lines[end]) > at) {
        end += 1;
    }
    end
}

/// Emits a literal block's lines `from..end` as code and closes its fence: on its last blank
/// line, else on a line of its own. Returns the next line to read.
fn literal(lines: &[&str], from: usize, end: usize, out: &mut Blocks) -> usize {
    let last_blank = end > from && lines[end - 1].trim().is_empty();
    let body_end = if last_blank { end - 1 } else { end };
    for l in &lines[from..body_end] {
        out.code(l.to_string());
    }
    out.code("```".to_string());
    end
}

/// An explicit markup block at line `i` (`..` and `rest`): a link target, a directive, a
/// footnote or a comment. Returns the next line to read.
fn explicit(lines: &[&str], i: usize, rest: &str, out: &mut Blocks) -> usize {
    let at = indent(lines[i]);
    // `.. _name: target` and ``.. _`name`: target``: a Markdown reference definition.
    if let Some(target) = rest.strip_prefix('_') {
        let (name, url) = match target.strip_prefix('`') {
            Some(t) => t.split_once("`:").unwrap_or(("", "")),
            None => target.split_once(": ").unwrap_or((target, "")),
        };
        let url = url.trim();
        if name.is_empty() || url.is_empty() || url.ends_with('_') {
            out.prose(String::new());
        } else {
            out.prose(format!("[{}]: {url}", name.trim().trim_end_matches(':')));
        }
        return i + 1;
    }
    if let Some(c) = directive_re().captures(rest) {
        let name = c[1].to_ascii_lowercase();
        let args = c.get(2).map_or("", |m| m.as_str()).trim();
        if CODE_DIRECTIVES.contains(&name.as_str()) {
            let end = block_end(lines, i + 1, at);
            if end > i + 1 {
                let lang = args.split_whitespace().next().unwrap_or("");
                out.code(format!("```{lang}"));
                return literal(lines, i + 1, end, out);
            }
        }
        out.prose(String::new());
        // Its options (`:maxdepth: 2`) are not prose; its body (a note's) is, read on from
        // here (not measured first: nested directives stay linear).
        let mut j = i + 1;
        while j < lines.len() && indent(lines[j]) > at && lines[j].trim_start().starts_with(':') {
            out.prose(String::new());
            j += 1;
        }
        return j;
    }
    // A footnote or citation: its text is prose.
    if rest.starts_with('[') {
        out.prose(format!("{}{rest}", &lines[i][..at]));
        return i + 1;
    }
    // A comment (or a substitution definition): not read, nor its indented lines.
    let end = block_end(lines, i + 1, at);
    for _ in i..end {
        out.prose(String::new());
    }
    end
}

fn directive_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^([A-Za-z][\w.+:-]*?)::(?:\s+(.*))?$").expect("directive regex compiles")
    })
}

/// `:Status: Accepted` → `Status: Accepted` (a field list's line).
fn field_line(line: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"^(\s*):([A-Za-z][^:`]*):(\s.*)?$").expect("field regex compiles")
    });
    let c = re.captures(line)?;
    Some(format!(
        "{}{}:{}",
        &c[1],
        &c[2],
        c.get(3).map_or("", |m| m.as_str())
    ))
}

/// The roles whose text is code (`:class:`Foo``, `:file:`a/b.py``).
const CODE_ROLES: [&str; 12] = [
    "code", "file", "class", "func", "meth", "mod", "attr", "obj", "data", "exc", "samp", "command",
];

/// Inline markup → Markdown: ``` ``x`` ``` stays a code span, `` `t <u>`_ `` and `:doc:` become
/// links, `` `name`_ `` a reference, `` `x` `` emphasis; a role names code or text by its kind.
fn inline(text: &str) -> String {
    static ROLE: OnceLock<Regex> = OnceLock::new();
    let role_re = ROLE.get_or_init(|| {
        Regex::new(r"^:([A-Za-z][\w+.-]*(?::[\w+.-]+)?):`").expect("role regex compiles")
    });
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    let mut prev: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        let word_start = prev.is_none_or(|p| !p.is_alphanumeric());
        // A backslash escape: the character itself, no markup (`Taxonomy \& Tags`); an
        // escaped space is nothing. A backquote stays escaped: Markdown would open a span.
        if c == '\\' {
            match rest[1..].chars().next() {
                Some(' ') => {
                    rest = &rest[2..];
                    continue;
                }
                Some('`') => {
                    out.push_str("\\`");
                    rest = &rest[2..];
                    prev = Some('`');
                    continue;
                }
                Some(n) if n.is_ascii_punctuation() => {
                    out.push(n);
                    rest = &rest[1 + n.len_utf8()..];
                    prev = Some(n);
                    continue;
                }
                _ => {}
            }
        }
        if rest.starts_with("``") {
            if let Some(end) = rest[2..].find("``") {
                let body = &rest[2..2 + end];
                out.push_str("``");
                out.push_str(body);
                out.push_str("``");
                rest = &rest[end + 4..];
                prev = Some('`');
                continue;
            }
        }
        if c == ':' && word_start {
            if let Some(m) = role_re.captures(rest) {
                let whole = m.get(0).map_or(0, |m| m.end());
                if let Some(end) = rest[whole..].find('`') {
                    let role = m[1].to_ascii_lowercase();
                    let body = &rest[whole..whole + end];
                    let breaks = body.matches('\n').count();
                    out.push_str(&role_text(&role, &body.replace('\n', " ")));
                    out.push_str(&"\n".repeat(breaks));
                    rest = &rest[whole + end + 1..];
                    prev = Some('`');
                    continue;
                }
            }
        }
        if c == '`' && word_start {
            if let Some(end) = rest[1..].find('`') {
                let body = &rest[1..1 + end];
                let after = &rest[end + 2..];
                let underscores = after.chars().take_while(|&u| u == '_').count().min(2);
                let breaks = body.matches('\n').count();
                let body = body.replace('\n', " ");
                out.push_str(&interpreted(&body, underscores > 0));
                out.push_str(&"\n".repeat(breaks));
                rest = &after[underscores..];
                prev = Some('`');
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
        prev = Some(c);
    }
    out
}

/// `text <target>` split, or the whole as both.
fn text_and_target(body: &str) -> (&str, &str) {
    let b = body.trim();
    if let Some(open) = b.strip_suffix('>').and_then(|s| s.rfind('<')) {
        let text = b[..open].trim();
        let target = b[open + 1..b.len() - 1].trim();
        return (if text.is_empty() { target } else { text }, target);
    }
    (b, b)
}

/// Backquoted text: a link or reference when followed by `_`, else emphasis.
fn interpreted(body: &str, reference: bool) -> String {
    if !reference {
        return format!("*{}*", body.trim());
    }
    let (text, target) = text_and_target(body);
    if target == text && !body.contains('<') || target.ends_with('_') {
        // A named reference: its target is a `.. _name:` definition.
        return format!("[{text}]");
    }
    format!("[{text}]({target})")
}

/// A role's text: `:doc:` a link to the document (`.rst` added), a code role a code span,
/// any other role (`:ref:`, `:term:`) its text.
fn role_text(role: &str, body: &str) -> String {
    let (text, target) = text_and_target(body);
    let kind = role.rsplit(':').next().unwrap_or(role);
    if kind == "doc" && !target.starts_with('/') {
        let name = target.rsplit('/').next().unwrap_or(target);
        let file = if name.contains('.') {
            target.to_string()
        } else {
            format!("{target}.rst")
        };
        return format!("[{text}]({file})");
    }
    if CODE_ROLES.contains(&kind) {
        let t = target.trim_start_matches(['~', '!']);
        return format!("`{t}`");
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_edx_record_reads_as_markdown_line_for_line() {
        let rst = "1. Use Kafka\n============\n\nStatus\n------\n\nAccepted\n\nDecision\n--------\n\nWe use ``src/queue.py`` and `the client <../../src/x.py>`_, see `Nygard`_.\n\n.. _Nygard: http://example.com/adr\n";
        let md = to_markdown(rst);
        assert_eq!(md.split('\n').count(), rst.split('\n').count());
        assert_eq!(
            md,
            "# 1. Use Kafka\n\n\n## Status\n\n\nAccepted\n\n## Decision\n\n\nWe use ``src/queue.py`` and [the client](../../src/x.py), see [Nygard].\n\n[Nygard]: http://example.com/adr\n"
        );
    }

    #[test]
    fn overlines_fields_and_deeper_sections() {
        let rst = "=====\nTitle\n=====\n\n:Status: Accepted\n:Date: 2021-03-04\n\nContext\n-------\n\nDetail\n~~~~~~\n\nText.\n";
        let md = to_markdown(rst);
        assert!(md.starts_with("\n# Title\n\n"), "{md}");
        assert!(
            md.contains("\nStatus: Accepted\nDate: 2021-03-04\n"),
            "{md}"
        );
        assert!(
            md.contains("\n## Context\n") && md.contains("\n### Detail\n"),
            "{md}"
        );
    }

    #[test]
    fn literal_blocks_are_fenced_and_comments_dropped() {
        let rst = "Title\n=====\n\nRun this::\n\n    make `x` src/a.py\n\nThen:\n\n.. code-block:: python\n\n   import os\n.. a comment\n   that goes on\n\nEnd ::\n\n    tail\n";
        let md = to_markdown(rst);
        assert_eq!(
            md,
            "# Title\n\n\nRun this:\n```\n    make `x` src/a.py\n```\nThen:\n\n```python\n\n   import os\n```\n\n\n\nEnd\n```\n    tail\n```"
        );
    }

    #[test]
    fn roles_and_interpreted_text() {
        let md = to_markdown(
            "See :doc:`0002-queue`, :doc:`the log <../logs/0003-log>`, :ref:`label`, \
             :class:`~app.models.Edition` and `emphasis`.\nA `long\nlink <a/b.py>`__ here.",
        );
        assert_eq!(
            md,
            "See [0002-queue](0002-queue.rst), [the log](../logs/0003-log.rst), label, \
             `app.models.Edition` and *emphasis*.\nA [long link](a/b.py)\n here."
        );
    }

    #[test]
    fn nested_directives_and_unclosed_markup_stay_linear() {
        let deep: String = (0..20_000)
            .map(|d| format!("{}.. note::\n", " ".repeat(d % 60)))
            .collect();
        let started = std::time::Instant::now();
        let md = to_markdown(&deep);
        assert_eq!(md.split('\n').count(), deep.split('\n').count());
        let ticks = "`` ` :doc:`x ".repeat(20_000);
        to_markdown(&ticks);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn backslash_escapes_are_their_characters() {
        assert_eq!(
            to_markdown(
                "Taxonomy \\& Tags\n================\n\nNot \\`code\\`, word\\ s, C:\\Users.\n"
            ),
            "# Taxonomy & Tags\n\n\nNot \\`code\\`, words, C:\\Users.\n"
        );
    }

    #[test]
    fn only_rst_files_are_converted() {
        assert!(is_rst("docs/decisions/0001-x.RST") && !is_rst("docs/adr/0001-x.md"));
        assert_eq!(as_markdown("a.md", "`x`"), "`x`");
        assert_eq!(as_markdown("a.rst", "`x`"), "*x*");
    }
}
