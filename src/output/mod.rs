//! Rendering: the library returns data, these turn it into Markdown or JSON (ADR-0003); what
//! the hooks and `review` say is `hooks`'s (ADR-0008).

pub mod context;
// `coverage` (ADR-0017).
pub mod coverage;
pub mod graph;
pub mod hooks;
pub mod html;
pub mod json;
pub mod layout;
pub mod markdown;
pub mod markup;
mod rules;
pub mod schema;
pub mod scope;
pub mod svg;
pub mod table;
pub mod write;

/// Escapes control characters (C0, DEL, C1) so a title or subject can't drive the terminal,
/// and the invisible format characters (Unicode's Cf: the bidirectional controls U+202A–202E
/// and U+2066–2069 that reorder what is shown, zero-width ones) and line separators, so none
/// can hide or disguise what is printed: `\n`, `\t`, `\r` by name, anything else as `\u{..}`.
pub fn escape(text: &str) -> String {
    // Most text has nothing to escape: copied whole, not char by char.
    if plain(text, false) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || invisible(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Whether `text` holds nothing [`escape`] changes, line breaks and tabs aside when `breaks`.
pub(crate) fn plain(text: &str, breaks: bool) -> bool {
    let kept = |c: char| breaks && (c == '\n' || c == '\t');
    if text.is_ascii() {
        text.bytes()
            .all(|b| (b' '..=b'~').contains(&b) || kept(char::from(b)))
    } else {
        text.chars()
            .all(|c| !(c.is_control() || invisible(c)) || kept(c))
    }
}

/// Unicode's format characters (general category Cf, Unicode 15.1), and the line and paragraph
/// separators (Zl, Zp).
fn invisible(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// [`escape`], then what Markdown would read as HTML, an entity, a link or an image (`<`, `>`,
/// `&`, `[`, `]`) or code (`` ` ``), and the backslash, escaped with a backslash: `<img src=x>`
/// shows as text in a pull request.
pub fn md(text: &str) -> String {
    let mut out = String::new();
    for c in escape(text).chars() {
        if matches!(c, '\\' | '<' | '>' | '&' | '[' | ']' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// [`md`] for Markdown of our own making that holds a record's words (a finding's message, a
/// note): its code spans kept as written (nothing in a code span renders as HTML), the rest
/// escaped as [`md`] escapes it, so a status or a path it quotes can't render either.
pub fn md_text(text: &str) -> String {
    let text = escape(text);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(['\\', '<', '>', '&', '[', ']', '`']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if !rest.starts_with('`') {
            out.push('\\');
            let c = rest.chars().next().expect("a character found");
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let ticks = rest.bytes().take_while(|&b| b == b'`').count();
        match closing_run(&rest[ticks..], ticks) {
            Some(end) => {
                let span = ticks + end + ticks;
                out.push_str(&rest[..span]);
                rest = &rest[span..];
            }
            None => {
                for _ in 0..ticks {
                    out.push_str("\\`");
                }
                rest = &rest[ticks..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where in `body` a run of exactly `ticks` backticks starts: the end of a code span.
fn closing_run(body: &str, ticks: usize) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = body[from..].find('`') {
        let at = from + found;
        let run = body[at..].bytes().take_while(|&b| b == b'`').count();
        if run == ticks {
            return Some(at);
        }
        from = at + run;
    }
    None
}

/// [`escape`]d text as a Markdown code span, fenced by more backticks than it holds in a row
/// (nothing in a code span renders as HTML), and `|` escaped for a table cell.
pub fn code(text: &str) -> String {
    let text = escape(text).replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// [`escape`], then `|` escaped for a Markdown table cell.
pub fn cell(text: &str) -> String {
    escape(text).replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(escape("\u{9b}x"), "\\u{9b}x");
        assert_eq!(cell("a|b"), "a\\|b");
        // Bidirectional controls and other invisible format characters.
        assert_eq!(escape("a\u{202e}b\u{2066}c"), "a\\u{202e}b\\u{2066}c");
        assert_eq!(escape("x\u{200b}\u{feff}"), "x\\u{200b}\\u{feff}");
        assert_eq!(escape("é ✓ 中"), "é ✓ 中");
    }

    #[test]
    fn markdown_text_cannot_render_html_and_code_cannot_break_out() {
        assert_eq!(md("<img src=x> & [a](b)"), "\\<img src=x\\> \\& \\[a\\](b)");
        assert_eq!(code("src/a.rs"), "`src/a.rs`");
        assert_eq!(code("a`<b>`"), "`` a`<b>` ``");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(
            md_text("status \"<b>x</b>\" in `a<b>` and ``c`d``, ` e & [f]"),
            "status \"\\<b\\>x\\</b\\>\" in `a<b>` and ``c`d``, \\` e \\& \\[f\\]"
        );
    }
}
