//! `scope ID --add PATH…` and `--accept` (docs/mentions.md, ADR-0017): paths written into a
//! record in the form its scope already takes — its frontmatter `governs` list, else its
//! `affects` list, else a `Governs:` line of backticked paths in its header (backticked paths
//! govern, as the reference reads them). Only added lines where the form allows; the file's
//! line endings and trailing newline kept. The plan is pure ([`plan`]); [`scope_add`] checks the
//! paths, writes, and brings the index up to date.

use super::error::{Error, Result};
use super::{Ask, Session};
use crate::governs::Scope;
use crate::model::{Query, ScopeEdit, ScopeHunk as Hunk};
use crate::text::path::escape_glob;
use line::governs_line;

mod line;

/// How the paths were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Governs,
    Affects,
    GovernsLine,
}

impl Form {
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Governs => "frontmatter governs",
            Form::Affects => "frontmatter affects",
            Form::GovernsLine => "governs line",
        }
    }
}

/// A planned edit: the new text, the form, and the hunks.
#[derive(Debug, Clone)]
pub struct Plan {
    pub text: String,
    pub form: Form,
    pub hunks: Vec<Hunk>,
}

/// `paths` (root-relative, a folder ending with `/`) written into the record `text`.
pub fn plan(text: &str, paths: &[String]) -> Plan {
    let crlf = text.contains("\r\n");
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect();
    let (form, hunk) = match frontmatter_key(&lines) {
        Some((at, Form::Governs)) => (Form::Governs, governs_list(&lines, at, paths)),
        Some((at, _)) => (Form::Affects, affects_list(&lines, at, paths)),
        None => (Form::GovernsLine, governs_line(&lines, paths)),
    };
    // Applied: `at` is 1-based; the old lines are replaced by the new.
    let start = hunk.at - 1;
    lines.splice(start..start + hunk.old.len(), hunk.new.iter().cloned());
    let eol = if crlf { "\r\n" } else { "\n" };
    let last = lines.len() - 1;
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        if i < last {
            out.push_str(eol);
        }
    }
    // A file that ended without a line ending keeps its last line as it was.
    if crlf && !text.ends_with("\r\n") && text.ends_with('\n') {
        out.truncate(out.len() - 2);
        out.push('\n');
    }
    Plan {
        text: out,
        form,
        hunks: vec![hunk],
    }
}

/// The 0-based line of the frontmatter's `governs:` key (else its `affects:`), when the file
/// opens with frontmatter.
fn frontmatter_key(lines: &[String]) -> Option<(usize, Form)> {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return None;
    }
    let end = lines
        .iter()
        .skip(1)
        .position(|l| matches!(l.trim_end(), "---" | "..."))?
        + 1;
    let key = |name: &str| {
        lines[1..end].iter().position(|l| {
            l.split_once(':').is_some_and(|(k, _)| {
                !k.starts_with([' ', '\t']) && k.trim().eq_ignore_ascii_case(name)
            })
        })
    };
    key("governs")
        .map(|i| (i + 1, Form::Governs))
        .or_else(|| key("affects").map(|i| (i + 1, Form::Affects)))
}

/// A path as a YAML scalar: quoted when YAML would read it otherwise.
fn yaml(path: &str) -> String {
    let plain = !path.starts_with([
        '!', '*', '&', '@', '`', '%', '{', '[', '"', '\'', '|', '>', '#', '-', '?', ':',
    ]) && !path.contains(": ")
        && !path.contains(" #");
    if plain {
        path.to_string()
    } else {
        format!("\"{}\"", path.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// The block list under the key at `at`: (index of its last item line, the items' prefix).
fn block_items(lines: &[String], at: usize) -> Option<(usize, String)> {
    let mut last = None;
    let mut prefix = None;
    for (i, line) in lines.iter().enumerate().skip(at + 1) {
        let t = line.trim_start();
        let indented = line.len() > t.len();
        if t.starts_with("- ") || t == "-" {
            prefix.get_or_insert_with(|| line[..line.len() - t.len() + 2].to_string());
            last = Some(i);
        } else if indented && !t.is_empty() && last.is_some() {
            last = Some(i); // a map item's further keys
        } else {
            break;
        }
    }
    Some((last?, prefix?))
}

/// Paths added to a `governs:` list: after its last item; a value on the key's own line (one
/// pattern, or a flow list) is rewritten as a block list (that line changes).
fn governs_list(lines: &[String], at: usize, paths: &[String]) -> Hunk {
    let (key, value) = lines[at].split_once(':').unwrap_or((&lines[at], ""));
    let value = value.trim();
    if value.is_empty() {
        if let Some((last, prefix)) = block_items(lines, at) {
            return Hunk {
                at: last + 2,
                old: Vec::new(),
                new: paths
                    .iter()
                    .map(|p| format!("{prefix}{}", yaml(&escape_glob(p))))
                    .collect(),
            };
        }
    }
    let existing: Vec<String> = match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        Some(inner) => inner
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None if value.is_empty() => Vec::new(),
        None => vec![value.to_string()],
    };
    let mut new = vec![format!("{key}:")];
    new.extend(existing.iter().map(|e| format!("  - {e}")));
    new.extend(
        paths
            .iter()
            .map(|p| format!("  - {}", yaml(&escape_glob(p)))),
    );
    Hunk {
        at: at + 1,
        old: vec![lines[at].clone()],
        new,
    }
}

/// Paths added to an `affects:` list: `type: path` items after its last (adrkit's form), or
/// `path:` strings when its items are strings.
fn affects_list(lines: &[String], at: usize, paths: &[String]) -> Hunk {
    match block_items(lines, at) {
        Some((last, prefix)) => {
            let maps = lines[at + 1..=last]
                .iter()
                .any(|l| l.trim_start().starts_with("- type:"));
            let inner = " ".repeat(prefix.len());
            let new = paths
                .iter()
                .flat_map(|p| {
                    if maps {
                        vec![
                            format!("{prefix}type: path"),
                            format!("{inner}pattern: {}", yaml(&escape_glob(p))),
                        ]
                    } else {
                        vec![format!(
                            "{prefix}{}",
                            yaml(&format!("path:{}", escape_glob(p)))
                        )]
                    }
                })
                .collect();
            Hunk {
                at: last + 2,
                old: Vec::new(),
                new,
            }
        }
        None => {
            let mut new = vec![format!(
                "{}:",
                lines[at].split_once(':').map_or("affects", |(k, _)| k)
            )];
            for p in paths {
                new.push("  - type: path".to_string());
                new.push(format!("    pattern: {}", yaml(&escape_glob(p))));
            }
            Hunk {
                at: at + 1,
                old: vec![lines[at].clone()],
                new,
            }
        }
    }
}

impl Session {
    /// `scope ID --add PATH…` (`paths`) and `--accept` (every code mention of the record at
    /// or above [`crate::mentions::ACCEPT_CONFIDENCE`]): written into the record, or only
    /// planned with `dry_run`. A path outside the root, or not tracked by git, is refused.
    pub fn scope_add(
        &mut self,
        id: &str,
        paths: &[String],
        accept: bool,
        dry_run: bool,
    ) -> Result<ScopeEdit> {
        let Some(repo) = self.repository().cloned() else {
            return Err(Error::no_git(self.root()));
        };
        let tracked = crate::git::tracked(&repo)?;
        let is_tracked = |p: &str| {
            let folder = format!("{}/", p.trim_end_matches('/'));
            tracked
                .files
                .binary_search_by(|f| f.path.as_str().cmp(p))
                .is_ok()
                || tracked.files.iter().any(|f| f.path.starts_with(&folder))
        };
        let mut wanted: Vec<String> = Vec::new();
        for arg in paths {
            let rel =
                crate::fs::root::query_path(self.root(), arg).map_err(|reason| Error::BadPath {
                    path: arg.clone(),
                    reason,
                })?;
            let rel = rel.trim_end_matches('/').to_string();
            if let Some(reason) = unwritable(&rel) {
                return Err(Error::BadPath {
                    path: arg.clone(),
                    reason: reason.into(),
                });
            }
            if rel.is_empty() || !is_tracked(&rel) {
                return Err(Error::BadPath {
                    path: arg.clone(),
                    reason: "is not tracked by git: only tracked code can be governed".into(),
                });
            }
            let is_file = tracked
                .files
                .binary_search_by(|f| f.path.as_str().cmp(&rel))
                .is_ok();
            wanted.push(if is_file { rel } else { format!("{rel}/") });
        }
        let answer = self.answer(&Ask::Record(id.to_string()), None)?;
        let found = match &answer.report.query {
            Some(Query::Record { record, .. }) => record.clone(),
            _ => return Err(Error::UnknownRecord(id.to_string())),
        };
        let record = answer
            .report
            .records
            .iter()
            .find(|r| r.id == found)
            .ok_or_else(|| Error::UnknownRecord(id.to_string()))?;
        super::write::refuse_rst(&record.path)?;
        if accept {
            wanted.extend(
                record
                    .code_mentions
                    .iter()
                    .filter(|m| m.confidence >= crate::mentions::ACCEPT_CONFIDENCE)
                    .map(|m| m.path.clone()),
            );
        }
        let scope = Scope::new(record.governs.iter().map(String::as_str));
        let mut added: Vec<String> = Vec::new();
        let mut already: Vec<String> = Vec::new();
        for p in wanted {
            let governed = scope.governs(p.trim_end_matches('/'));
            let list = if governed { &mut already } else { &mut added };
            if !list.contains(&p) {
                list.push(p);
            }
        }
        let file = self.root().join(&record.path);
        let write_err = |e: std::io::Error| Error::BadPath {
            path: record.path.clone(),
            reason: format!("could not be read or written: {e}"),
        };
        let text = super::context::record_text(self.root(), &record.path).map_err(write_err)?;
        let planned = plan(&text, &added);
        let mut edit = ScopeEdit {
            id: record.id.clone(),
            path: record.path.clone(),
            form: planned.form.as_str().to_string(),
            added: added.clone(),
            already,
            written: false,
            hunks: if added.is_empty() {
                Vec::new()
            } else {
                planned.hunks
            },
        };
        if dry_run || added.is_empty() {
            return Ok(edit);
        }
        crate::fs::atomic::replace(&file, planned.text.as_bytes()).map_err(write_err)?;
        edit.written = true;
        // Read back through the matcher `why` uses: each path written must now be governed,
        // else the record is put back byte for byte and the write refused (ADR-0017).
        let checked = self.index_if_used().and_then(|()| {
            let first_under = |folder: &str| {
                tracked
                    .files
                    .iter()
                    .find(|f| f.path.starts_with(folder))
                    .map(|f| f.path.clone())
            };
            self.not_governed(&edit.id, &added, &first_under)
        });
        let failed = match checked {
            Ok(missed) => match missed.first() {
                None => return Ok(edit),
                Some(path) => Error::BadPath {
                    path: path.clone(),
                    reason: format!(
                        "does not read back as governed by {} once written into {}: the record is left as it was",
                        edit.id, edit.path
                    ),
                },
            },
            Err(e) => e,
        };
        if let Err(e) = crate::fs::atomic::replace(&file, text.as_bytes()) {
            return Err(Error::Write(format!(
                "{}: could not be put back as it was ({e}) after: {failed}",
                edit.path
            )));
        }
        // The index follows the record back; the refusal is the answer either way.
        let _ = self.index_if_used();
        Err(failed)
    }

    /// The index brought up to date, unless the session uses none: the next `why` reads the
    /// records from it.
    fn index_if_used(&mut self) -> Result<()> {
        if !self.options().no_index {
            self.index_update(false, None)?;
        }
        Ok(())
    }

    /// Of `paths` (a folder ending with `/`), those the record `id` as it reads now does not
    /// govern; a folder is asked through a file git tracks under it (`first_under`).
    fn not_governed(
        &mut self,
        id: &str,
        paths: &[String],
        first_under: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<String>> {
        let answer = self.answer(&Ask::Record(id.to_string()), None)?;
        let Some(record) = answer.report.records.iter().find(|r| r.id == id) else {
            return Ok(paths.to_vec());
        };
        let scope = Scope::new(record.governs.iter().map(String::as_str));
        Ok(paths
            .iter()
            .filter(|p| {
                let probe = match p.ends_with('/') {
                    true => first_under(p),
                    false => Some(p.to_string()),
                };
                !probe.is_some_and(|probe| scope.governs(&probe))
            })
            .cloned()
            .collect())
    }
}

/// Why the root-relative path `rel` cannot be written into a record as it is, if it cannot: a
/// backtick ends the code span a `Governs:` line holds it in, and a line break or other control
/// character ends the line (ADR-0017).
fn unwritable(rel: &str) -> Option<&'static str> {
    if rel.contains('`') {
        Some("has a backtick, which a record cannot hold as a path: govern its folder instead")
    } else if rel.chars().any(char::is_control) {
        Some("has a control character, which a record cannot hold as a path: govern its folder instead")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record `text` with `paths` added, and the form they went in.
    pub(super) fn added(text: &str, paths: &[&str]) -> (String, Form) {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        let p = plan(text, &paths);
        (p.text, p.form)
    }

    #[test]
    fn a_frontmatter_list_gains_items() {
        let (t, f) = added("---\ngoverns:\n  - src/a/\n---\n# T\n", &["src/b.rs"]);
        assert_eq!(t, "---\ngoverns:\n  - src/a/\n  - src/b.rs\n---\n# T\n");
        assert_eq!(f, Form::Governs);
        let (t, _) = added("---\ngoverns: src/a/\n---\n# T\n", &["src/b.rs"]);
        assert_eq!(t, "---\ngoverns:\n  - src/a/\n  - src/b.rs\n---\n# T\n");
    }

    #[test]
    fn glob_characters_and_spaces_are_written_escaped() {
        let (t, _) = added(
            "# T\n\nGoverns: `a/`\n\nText",
            &["src/db/star*.py", "src/db/sp ace.py"],
        );
        assert_eq!(
            t,
            "# T\n\nGoverns: `a/`, `src/db/star\\*.py`, `src/db/sp\\ ace.py`\n\nText"
        );
        let (t, _) = added(
            "---\ngoverns:\n  - src/a/\n---\n# T\n",
            &["src/q?.py", "[x].py", "sp ace.py"],
        );
        assert_eq!(
            t,
            "---\ngoverns:\n  - src/a/\n  - src/q\\?.py\n  - \\[x\\].py\n  - sp ace.py\n---\n# T\n"
        );
    }

    #[test]
    fn adrkit_affects_gains_a_path_item() {
        let (t, f) = added(
            "---\naffects:\n  - type: path\n    pattern: pkg/a/**\ntitle: x\n---\n# T\n",
            &["pkg/b/"],
        );
        assert_eq!(
            t,
            "---\naffects:\n  - type: path\n    pattern: pkg/a/**\n  - type: path\n    pattern: pkg/b/\ntitle: x\n---\n# T\n"
        );
        assert_eq!(f, Form::Affects);
    }
}
