//! `why`'s related records in Markdown (docs/related.md): a short part after the governing
//! decisions, one line each, with the evidence in words.

use super::super::{code, md};
use crate::model::{Evidence, Related};
use std::fmt::Write;

/// The "Related (not governing)" part, or nothing when there is none; `prose` when the path
/// asked about is prose, whose links are lines, not comments.
pub fn related_part(out: &mut String, related: &[Related], prose: bool) {
    if related.is_empty() {
        return;
    }
    out.push_str("## Related (not governing)\n\n");
    for r in related {
        let _ = writeln!(out, "{}", related_line(r, prose));
    }
    out.push('\n');
}

/// One related record: its id, title and status, then its evidence in words (`prose` as for
/// [`related_part`]).
pub fn related_line(r: &Related, prose: bool) -> String {
    let evidence: Vec<String> = r.evidence.iter().map(|e| in_words(e, prose)).collect();
    format!(
        "- {}: {} ({}): {}",
        md(&r.id),
        md(&r.title),
        r.status.as_str(),
        evidence.join("; ")
    )
}

/// One piece of evidence, as a reader checks it: a link in prose (a guide, a record linking
/// another) is on a line of it, one in code on a comment.
pub fn in_words(e: &Evidence, prose: bool) -> String {
    match e {
        Evidence::Name { term, line } => format!("named {} on line {line}", code(term)),
        Evidence::Link { term, line } if prose => format!("line {line} says {}", code(term)),
        Evidence::Link { term, line } => format!("comment on line {line} says {}", code(term)),
        Evidence::Cited { commits: 1 } => "cited by 1 commit that changed this file".into(),
        Evidence::Cited { commits } => {
            format!("cited by {commits} commits that changed this file")
        }
        Evidence::Introduced { commit } => format!("added with this file in {}", code(commit)),
        Evidence::Words { words, file_name } => {
            let words: Vec<String> = words.iter().map(|w| code(w)).collect();
            let whose = match file_name {
                true => "file name words",
                false => "title words",
            };
            format!("{whose} {}", words.join(", "))
        }
        Evidence::Text { words } => {
            let words: Vec<String> = words.iter().map(|w| code(w)).collect();
            format!("its words in this file: {}", words.join(", "))
        }
    }
}
