//! Relations: "Supersedes", "Superseded by", "Amends" and their kin, from frontmatter and
//! from prose, and the id a link's text names (ADR-0001).

use super::Ref;
use crate::text::frontmatter::Frontmatter;
use crate::text::ids::{self, Prefix};
use crate::text::markdown::{link_re, link_target};
use regex::Regex;
use std::sync::OnceLock;

pub(super) fn fm_refs(fm: &Frontmatter, keys: &[&str], prefix: Prefix) -> Vec<Ref> {
    let mut out = Vec::new();
    for key in keys {
        if let Some(v) = fm.fields.get(*key) {
            for item in v.items() {
                for piece in item.split(',') {
                    if let Some(id) = ids::parse_id(piece, prefix) {
                        out.push(Ref::Id(id));
                    }
                }
            }
        }
    }
    out
}

/// "Superseded by" / "Replaced by" (group 1), "Supersedes" / "Replaces" (group 2), and the
/// amending verbs (group 3), in one pass.
fn relation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)(?:((?:superseded|replaced)\s+by)|(supersedes|replaces)|(amends|extends|refines|narrows|overrides|modifies))(?-u:\b)",
        )
        .expect("regex")
    })
}

fn list_separator_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:\s|[,;:*_(]|&|(?-u:\b)and(?-u:\b)|(?-u:\b)or(?-u:\b))*").expect("regex")
    })
}

fn bare_number_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Where an id is expected in prose, a bare number counts only when it is plainly one:
    // backticked (`0022`), zero-padded (0022) or numbered (#22).
    RE.get_or_init(|| {
        Regex::new(r"^(?:`#?([0-9]+)`|#([0-9]+)(?-u:\b)|(0[0-9]+)(?-u:\b))").expect("regex")
    })
}

/// After each relation keyword in `text`, reads the list of ids and links that follows it on
/// the same line into its list: `[superseded_by, supersedes, amends]`.
pub(super) fn relations(text: &str, folder: &str, prefix: Prefix, lists: [&mut Vec<Ref>; 3]) {
    for c in relation_re().captures_iter(text) {
        let Some(kind) = (1..=3).find(|&i| c.get(i).is_some()) else {
            continue;
        };
        let out = &mut *lists[kind - 1];
        let m = c.get(0).expect("group 0 always matches");
        let after = &text[m.end()..];
        let mut rest = &after[..after.find('\n').unwrap_or(after.len())];
        loop {
            let skip = list_separator_re().find(rest).map(|s| s.end()).unwrap_or(0);
            rest = &rest[skip..];
            let unticked = rest.strip_prefix('`').unwrap_or(rest);
            if let Some(c) = link_re()
                .captures(rest)
                .filter(|c| c.get(0).unwrap().start() == 0)
            {
                if let Some(target) = link_target(folder, &c[2]) {
                    out.push(Ref::Link {
                        text_id: link_text_id(&c[1], prefix),
                        target,
                    });
                } else if let Some(id) = link_text_id(&c[1], prefix) {
                    out.push(Ref::Id(id));
                }
                rest = &rest[c.get(0).unwrap().end()..];
            } else if let Some(mention) = ids::mentions(unticked)
                .into_iter()
                .next()
                .filter(|m| m.start == 0)
            {
                out.push(Ref::Id(mention.id));
                rest = &unticked[mention.end..];
                rest = rest.strip_prefix('`').unwrap_or(rest);
            } else if let Some(c) = bare_number_re().captures(rest) {
                let digits = c.get(1).or(c.get(2)).or(c.get(3)).unwrap().as_str();
                out.push(Ref::Id(ids::format_id(prefix, digits)));
                rest = &rest[c.get(0).unwrap().end()..];
            } else {
                break;
            }
        }
    }
}

/// The id a link's text names: `[ADR-3: Title]`, `[3. Title]`, `[0003]`.
pub(super) fn link_text_id(text: &str, prefix: Prefix) -> Option<String> {
    let t = text.trim().trim_matches('`');
    if let Some(m) = ids::mentions(t).into_iter().next().filter(|m| m.start == 0) {
        return Some(m.id);
    }
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = t[digits.len()..].chars().next();
    (!digits.is_empty() && matches!(after, None | Some('.') | Some(':') | Some(' ')))
        .then(|| ids::format_id(prefix, &digits))
}
