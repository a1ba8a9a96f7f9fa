//! A line's prose (ADR-0017): its code spans, links and tags blanked, its tokens, its phrases,
//! and the links into a forge's code it holds.

use super::key;
use super::words::{is_record_word, is_stop};
use crate::text::markdown::text_links;

/// The phrases of a line's prose: each run of two or three adjacent words (letters only,
/// nothing but spaces between them) in which no word is a common word or a placeholder and
/// one at least has a lower-case letter (`AWS VPC` is two acronyms). Punctuation, a code
/// span, a link or a URL ends a run.
pub(super) fn phrases(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, out: &mut Vec<String>| {
        for n in [2, 3] {
            for w in run.windows(n) {
                // A record word needs another word beside it: `ADR slug`, not `ADR records`.
                let named = w.iter().any(|x| !is_record_word(&key(x)));
                if named && w.iter().any(|x| x.chars().any(|c| c.is_ascii_lowercase())) {
                    out.push(w.join(" "));
                }
            }
        }
        run.clear();
    };
    for chunk in prose.split([' ', '\t']) {
        if chunk.is_empty() {
            continue;
        }
        let lead = chunk.trim_start_matches(['(', '"', '\'', '*', '[']);
        let core = lead.trim_end_matches([')', '"', '\'', '*', ']', ',', '.', ';', ':', '!', '?']);
        let word = core.len() >= 2
            && core.chars().all(|c| c.is_ascii_alphabetic())
            && (!is_stop(&key(core)) || is_record_word(&key(core)));
        if lead.len() != chunk.len() || !word {
            flush(&mut run, &mut out);
        }
        if word {
            run.push(core);
        }
        if core.len() != lead.len() {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `line` with the text of each link to another site blanked: it names something elsewhere
/// (`[govuk_publishing_components](https://…)` is a gem, not the initializer of that name),
/// unless the link goes into a repository's code.
pub(super) fn without_external_link_texts(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("](") {
        return std::borrow::Cow::Borrowed(line);
    }
    let hidden: std::collections::HashSet<&str> = text_links(line)
        .into_iter()
        .filter(|(_, target)| {
            // A link into a repository's code (a commit, a file, a pull request) still names
            // code.
            let code = ["/commit/", "/blob/", "/tree/", "/pull/", "/merge_requests/"]
                .iter()
                .any(|p| target.contains(p));
            (target.contains("://") || target.starts_with("mailto:")) && !code
        })
        .map(|(text, _)| text)
        .collect();
    // A mark, not spaces: the words on either side are not one phrase. Every `[text]` of
    // those links, in one pass (a replace per link was quadratic: ADR-0011).
    std::borrow::Cow::Owned(crate::text::line_marks::blank_bracketed(line, &hidden))
}

/// The links in `line` into a forge's view of a repository's code, up to a `#`, `?`, `)` or
/// space: `https://host/owner/name/blob/REF/path` (`/tree/`; GitLab's `/-/blob/`). The
/// lookup reads the repository's name and the path (a branch with a `/` in its name leaves a
/// segment of it before the path: the lookup tries the path without it).
pub(super) fn code_links(line: &str) -> Vec<&str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    if !line.contains("://") {
        return Vec::new();
    }
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r#"https?://[^\s/]+/[^\s/]+/[^\s/]+/(?:-/)?(?:blob|tree)/[^\s/#?)\]>"'`]+/[^\s#?)\]>"'`]+"#,
        )
        .expect("regex")
    });
    re.find_iter(line)
        .map(|m| m.as_str().trim_end_matches(['/', '.', ',', ';', ':']))
        .filter(|u| !u.contains(".."))
        .collect()
}

/// A single name: letters, digits, `_`, `-`, `.`, `::`, starting with a letter or `_`.
pub(super) fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '#'))
        && !s.ends_with([':', '.', '-', '#'])
        && s.matches('#').count() <= 1
}

/// A line's prose: code spans, link targets, URLs and HTML tags blanked.
pub(super) fn prose_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    // Code spans (their words were read as `Kind::Code`).
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let ticks = after.chars().take_while(|&c| c == '`').count();
        let body = &after[ticks..];
        match body.find(&"`".repeat(ticks)) {
            Some(end) => {
                // A mark, not a space: a code span ends a run of prose words.
                out.push_str(" | ");
                rest = &body[end + ticks..];
            }
            None => {
                rest = body;
            }
        }
    }
    out.push_str(rest);
    // Link targets, URLs, and tags: words inside them are addresses, not prose.
    let mut cleaned = String::with_capacity(out.len());
    for word in out.split(' ') {
        let w = match word.find("](") {
            Some(at) => &word[..at],
            None => word,
        };
        // A path written bare (`server/protocols/webadmin-cli`) is not a run of names.
        if w.contains("://")
            || w.starts_with("www.")
            || w.contains('@')
            || w.starts_with('<')
            || w.contains('/')
        {
            cleaned.push_str(" | ");
        } else {
            cleaned.push_str(w);
            cleaned.push(' ');
        }
    }
    cleaned
}

/// The tokens of prose: runs of letters, digits, `_`, and `-`, `.`, `::` between them.
pub(super) fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
            // Skip the rest of a run that starts with a digit or a non-ASCII letter.
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        loop {
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let sep = match bytes.get(i..) {
                Some([b':', b':', n, ..]) if word(*n) => 2,
                Some([b'-' | b'.', n, ..]) if word(*n) => 1,
                // A method of a class, as Ruby's and Java's documentation write it
                // (`Invoice#total`): after a capitalised name, before a lower-case one.
                Some([b'#', n, ..])
                    if (n.is_ascii_lowercase() || *n == b'_')
                        && bytes[start].is_ascii_uppercase() =>
                {
                    1
                }
                _ => 0,
            };
            if sep == 0 {
                break;
            }
            i += sep;
        }
        // A word running into non-ASCII letters is not a name.
        if bytes.get(i).is_some_and(|b| *b >= 0x80) {
            while i < bytes.len() && (word(bytes[i]) || bytes[i] >= 0x80) {
                i += 1;
            }
            continue;
        }
        out.push(&text[start..i]);
    }
    out
}
