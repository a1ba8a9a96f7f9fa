//! Rendering: the library returns data, these turn it into Markdown or JSON (ADR-0003); what
//! the hooks and `review` say is `hooks`'s (ADR-0008).

pub mod hooks;
pub mod json;
pub mod markdown;
pub mod scope;

/// Escapes control characters (C0, DEL, C1) so a title or subject can't drive the terminal:
/// `\n`, `\t`, `\r` by name, anything else as `\u{..}`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
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
    }
}
