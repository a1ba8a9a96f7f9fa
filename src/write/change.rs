//! Changes to an existing record in its own form (ADR-0013): its status set (`status`), marked
//! superseded by a successor (`supersede`) or amended by another (`amend`), as line edits that
//! touch only the lines that change. Where the status is written is the parser's to say
//! (`parse::status_in`), so the edit changes what the next read reads.

pub use super::form::{cased, field_line, fm_entries, fm_lines, link_line};
use super::form::{CorpusKeys, Link};
use super::{bare, split_lines, LineEdit, WriteError};
use crate::parse::{status_in, StatusAt};
use crate::text::frontmatter::normalise_key;

/// What to change in a record.
#[derive(Debug, Clone)]
pub enum Mark {
    /// Its status is this word.
    Status(String),
    /// Superseded by the record this links to.
    SupersededBy(Link),
    /// Amended by the record this links to (its status unchanged).
    AmendedBy(Link),
}

/// The edits that make `text` (the file as read) say `mark`, with `keys` the relation keys
/// the folder's frontmatter uses.
pub fn plan(text: &str, mark: &Mark, keys: &CorpusKeys) -> Result<Vec<LineEdit>, WriteError> {
    if text.contains('\r') && text.replace("\r\n", "").contains('\r') {
        return Err(WriteError(
            "the file ends lines with a lone CR; edit it by hand".into(),
        ));
    }
    let raw: Vec<&str> = split_lines(text).into_iter().map(bare).collect();
    let lf = crate::text::markdown::lf(text);
    let lf = lf.strip_prefix('\u{feff}').unwrap_or(&lf);
    let fm = fm_lines(lf);
    let fm_len = fm.as_ref().map(|l| l.len() + 2).unwrap_or(0);
    let heading = raw.iter().position(|l| l.starts_with("# "));
    let found = status_in(lf);
    let old = found.as_ref().map(|(_, v)| v.clone()).unwrap_or_default();
    let like = if old.is_empty() {
        "Accepted"
    } else {
        old.as_str()
    };
    let replace = |at: usize, line: String| LineEdit {
        at,
        remove: 1,
        insert: vec![line],
    };
    let insert = |at: usize, lines: Vec<String>| LineEdit {
        at,
        remove: 0,
        insert: lines,
    };
    // Prose after the title heading (or the frontmatter): where a form without a place for a
    // relation gets one.
    let after_heading = |line: String| match heading {
        Some(h) => insert(h + 1, vec![String::new(), line]),
        None => insert(fm_len, vec![line, String::new()]),
    };
    // MADR's place for links, in a record whose status is (or goes) in frontmatter.
    let more_information = |line: String| {
        let (at, block) = super::madr::more_information(&raw, &[line]);
        insert(at, block)
    };
    let unplaced = || {
        WriteError("its status is not where it can be changed line by line; edit it by hand".into())
    };
    let mut edits = Vec::new();
    match (found.map(|(at, _)| at), mark) {
        (Some(StatusAt::Frontmatter), mark) => {
            let lines = fm.unwrap_or_default();
            let at = key_line(&lines, &["status"]).ok_or_else(unplaced)?;
            let (key, value) = lines[at].split_once(':').ok_or_else(unplaced)?;
            let quote = value
                .trim()
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\''));
            let q = |v: &str| match quote {
                Some(q) => format!("{q}{v}{q}"),
                None => super::form::yaml_scalar(v),
            };
            match mark {
                Mark::Status(word) => {
                    edits.push(replace(at + 1, format!("{key}: {}", q(&cased(word, like)))))
                }
                Mark::SupersededBy(link) => match &keys.superseded_by {
                    Some(k) => {
                        edits.push(replace(
                            at + 1,
                            format!("{key}: {}", q(&cased("superseded", like))),
                        ));
                        edits.extend(set_key(&lines, k, keys.value_of(&link.id, link.number)));
                    }
                    None => {
                        let v = format!(
                            "{} by [{}]({})",
                            cased("superseded", like),
                            link.text,
                            link.target
                        );
                        edits.push(replace(at + 1, format!("{key}: {}", q(&v))));
                    }
                },
                Mark::AmendedBy(link) => match &keys.amended_by {
                    Some(k) => {
                        edits.extend(set_key(&lines, k, keys.value_of(&link.id, link.number)))
                    }
                    None => edits.push(more_information(link_line("Amended by", link))),
                },
            }
        }
        (Some(StatusAt::Line(i)), mark) | (Some(StatusAt::Table(i)), mark) => {
            let line = *raw.get(i).ok_or_else(unplaced)?;
            let table = line.contains('|');
            let field = field_line(line);
            if !table && field.is_none() {
                return Err(unplaced());
            }
            let new_value = |v: String| -> String {
                match &field {
                    Some((lead, key, sep, _)) if !table => format!("{lead}{key}{sep}{v}"),
                    _ => line.replacen(old.as_str(), &v, 1),
                }
            };
            match mark {
                Mark::Status(word) => edits.push(replace(i, new_value(cased(word, like)))),
                Mark::SupersededBy(link) => {
                    let word = cased("superseded by", like);
                    edits.push(replace(
                        i,
                        new_value(format!("{word} [{}]({})", link.text, link.target)),
                    ));
                }
                // log4brains lists links under `## Links`, not in its header list.
                Mark::AmendedBy(link) if keys.log4brains && !table => {
                    let (at, block) =
                        super::log4brains::link_at(&raw, &link_line("Amended by", link));
                    edits.push(insert(at, block));
                }
                Mark::AmendedBy(link) if !table => {
                    let lead = field.as_ref().map(|f| f.0.clone()).unwrap_or_default();
                    let lead = if lead.contains("**") || lead.contains("__") {
                        String::new()
                    } else {
                        lead
                    };
                    edits.push(insert(
                        i + 1,
                        vec![format!("{lead}{}", link_line("Amended by", link))],
                    ));
                }
                // Under a status table, a paragraph of its own (issue 39).
                Mark::AmendedBy(link) => edits.push(insert(
                    super::table::extent(&raw, i).1,
                    vec![String::new(), link_line("Amended by", link)],
                )),
            }
            // A cell changed in an aligned table keeps it aligned, as the folder writes it.
            for e in edits
                .iter_mut()
                .filter(|e| table && e.at == i && e.remove == 1)
            {
                if let Some((start, lines)) = super::table::relayout(&raw, i, &e.insert[0]) {
                    *e = LineEdit {
                        at: start,
                        remove: lines.len(),
                        insert: lines,
                    };
                }
            }
        }
        (Some(StatusAt::Section(i)), mark) => match mark {
            Mark::Status(word) => edits.push(replace(i, cased(word, like))),
            Mark::SupersededBy(link) => edits.push(replace(i, link_line("Superseded by", link))),
            Mark::AmendedBy(link) => {
                // As adr-tools' `_adr_add_link`: the line, then a blank one, before the next
                // section.
                let next = (i + 1..raw.len()).find(|&j| raw[j].starts_with('#'));
                match next {
                    Some(j) => edits.push(insert(
                        j,
                        vec![link_line("Amended by", link), String::new()],
                    )),
                    None => edits.push(insert(
                        raw.len(),
                        vec![String::new(), link_line("Amended by", link)],
                    )),
                }
            }
        },
        (None, mark) => {
            let line = match mark {
                Mark::Status(word) => format!("Status: {}", cased(word, like)),
                Mark::SupersededBy(link) => format!("Status: {}", link_line("Superseded by", link)),
                Mark::AmendedBy(link) => link_line("Amended by", link),
            };
            // With frontmatter (MADR 3 and 4), the status is its `status:` field, and links to
            // other records go in `## More Information`: YAML stays YAML.
            match (&fm, mark) {
                (Some(_), Mark::Status(word)) => {
                    edits.push(insert(fm_len - 1, vec![format!("status: {word}")]))
                }
                (Some(_), Mark::SupersededBy(link)) => {
                    let v = format!("superseded by [{}]({})", link.text, link.target);
                    edits.push(insert(
                        fm_len - 1,
                        vec![format!("status: {}", super::form::yaml_scalar(&v))],
                    ))
                }
                (Some(_), Mark::AmendedBy(link)) => {
                    edits.push(more_information(link_line("Amended by", link)))
                }
                _ => edits.push(after_heading(line)),
            }
        }
    }
    Ok(edits)
}

/// The index of the first top-level frontmatter line whose key is one of `norm` (normalised).
fn key_line(lines: &[&str], norm: &[&str]) -> Option<usize> {
    lines.iter().position(|l| {
        !l.starts_with([' ', '\t', '-'])
            && l.split_once(':')
                .is_some_and(|(k, _)| norm.contains(&normalise_key(k).as_str()))
    })
}

/// The edits giving frontmatter key `key` the id `value` as well: a list gains an item, an
/// empty value becomes it, a missing key is added before the closing fence.
fn set_key(lines: &[&str], key: &str, value: String) -> Vec<LineEdit> {
    let norm = normalise_key(key);
    let Some(at) = key_line(lines, &[norm.as_str()]) else {
        return vec![LineEdit {
            at: lines.len() + 1,
            remove: 0,
            insert: vec![format!("{key}: {value}")],
        }];
    };
    let Some((k, v)) = lines[at].split_once(':') else {
        return Vec::new();
    };
    let v = v.trim();
    let block_end = (at + 1..lines.len())
        .take_while(|&j| lines[j].starts_with([' ', '\t', '-']))
        .last();
    if let Some(end) = block_end {
        let indent: String = lines[end].chars().take_while(|c| *c == ' ').collect();
        return vec![LineEdit {
            at: end + 2,
            remove: 0,
            insert: vec![format!("{indent}- {value}")],
        }];
    }
    let new = if let Some(inner) = v.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        if inner.trim().is_empty() {
            format!("[{value}]")
        } else {
            format!("[{}, {value}]", inner.trim())
        }
    } else if matches!(v, "" | "null" | "~" | "\"\"" | "''") {
        value
    } else {
        format!("[{v}, {value}]")
    };
    vec![LineEdit {
        at: at + 1,
        remove: 1,
        insert: vec![format!("{k}: {new}")],
    }]
}
