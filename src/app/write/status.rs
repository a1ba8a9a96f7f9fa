//! `status ID WORD` (ADR-0013): the record's status changed in place, in its own form, or
//! given one in its folder's form when it states none.

use super::*;

/// `status ID WORD`: the record's status changed in place.
pub fn set_status(
    session: &Session,
    input: &str,
    word: &str,
    force: bool,
    dry_run: bool,
) -> Result<WriteReport> {
    let root = session.root().to_path_buf();
    let status = normalise_status(word);
    match status {
        Status::Unrecognised | Status::Unknown => {
            return Err(refuse(crate::app::near::unknown_status(word)))
        }
        Status::Superseded => {
            return Err(refuse(format!(
                "{word}: a record is superseded by another: `context-graph supersede {input} \"Title\"` writes both"
            )))
        }
        _ => {}
    }
    let found = find_record(session, input, &mut Listings::default())?;
    refuse_rst(&found.path)?;
    if found.parsed.status == Status::Superseded && !force {
        return Err(refuse(format!(
            "{} ({}) is superseded ({}); --force to change its status",
            found.parsed.id, found.path, found.parsed.status_text
        )));
    }
    let mut keys = CorpusKeys::default();
    keys.learn(&found.text);
    let cased = |like: &str| change::cased(word.trim(), like);
    let edits = match status_section_like_neighbours(&root, &found, cased)? {
        Some(edits) => edits,
        None => change::plan(&found.text, &Mark::Status(word.trim().to_string()), &keys)
            .map_err(|e| refuse(format!("{}: {e}", found.path)))?,
    };
    let plans = [FilePlan {
        path: found.path.clone(),
        id: found.parsed.id.clone(),
        change: Change::Edit {
            before: found.text.clone(),
            edits,
        },
    }];
    finish(&root, &plans, dry_run)
}

/// A record that states no status, in a folder whose records keep theirs in a `## Status`
/// section (adr-tools', whitehall's): the section, before its first other section, as theirs
/// (issue 39), not a `Status:` line. `line` is its first line, given the status as a
/// neighbour writes it (`status`'s word cased so, `supersede`'s `Superseded by` link). The form is read from up to three of the newest other
/// records; `None` when the record has a status or they keep it otherwise.
pub(super) fn status_section_like_neighbours(
    root: &Path,
    found: &Found,
    line: impl FnOnce(&str) -> String,
) -> Result<Option<Vec<LineEdit>>> {
    let lf = crate::text::markdown::lf(&found.text);
    if crate::parse::status_in(&lf).is_some() {
        return Ok(None);
    }
    let folder = home_folder(&found.path);
    let mut names = Listings::default().records(root, folder)?;
    names.sort_unstable_by(|a, b| b.cmp(a));
    let others = names
        .iter()
        .map(|n| listed_file(root, folder, n))
        .filter(|f| *f != found.path)
        .take(3);
    for file in others {
        let Ok(text) = read_text(root, &file) else {
            continue;
        };
        let text = crate::text::markdown::lf(&text).into_owned();
        let Some((at, like)) = crate::parse::status_in(&text) else {
            continue;
        };
        if !matches!(at, crate::parse::StatusAt::Section(_)) {
            return Ok(None);
        }
        let word = line(&like);
        let lines = crate::write::split_lines(&found.text);
        let fm = crate::write::change::fm_lines(&lf).map_or(0, |l| l.len() + 2);
        let next = (fm..lines.len()).find(|&j| lines[j].starts_with("## "));
        let edit = match next {
            Some(j) => LineEdit {
                at: j,
                remove: 0,
                insert: vec!["## Status".into(), String::new(), word, String::new()],
            },
            None => LineEdit {
                at: lines.len(),
                remove: 0,
                insert: vec![String::new(), "## Status".into(), String::new(), word],
            },
        };
        return Ok(Some(vec![edit]));
    }
    Ok(None)
}
