//! Writing records (docs/writing.md, ADR-0013): plans, as data, of the files `init`, `new`,
//! `supersede`, `amend` and `status` create or change. A plan is made from texts and names
//! alone (no file system): a new record's text in the folder's own conventions (`naming`,
//! `render`), and the line edits that change an existing record in its own form (`change`),
//! both reading a record's form line by line with `form`.
//! `app::write` reads the inputs and applies the plan; `output::write` renders it.

pub mod change;
mod form;
pub mod log4brains;
pub mod madr;
pub mod naming;
pub mod render;
mod table;

pub use naming::Naming;

/// One file a command writes: a new record, or edits to an existing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePlan {
    /// Root-relative, `/`-separated.
    pub path: String,
    /// The record's id (`""` for a file that is not a record, such as `.adr-dir`).
    pub id: String,
    pub change: Change,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A new file with this text.
    Create(String),
    /// Line edits of the file whose text (as read, any line endings) is `before`.
    Edit {
        before: String,
        edits: Vec<LineEdit>,
    },
}

/// Replaces `remove` lines (0, 1, or a whole table's) at line `at` (0-based, of the file's lines) with `insert`.
/// Lines are written without their line ending: applying gives each the file's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEdit {
    pub at: usize,
    pub remove: usize,
    pub insert: Vec<String>,
}

/// What writing the error means: one line naming the file or argument (exit 2 at the edge).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WriteError(pub String);

/// The line ending a text uses: CRLF when its first line ends so, else LF.
pub fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// A text's lines, each with its own ending (the last may have none).
pub fn split_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// A line without its ending.
pub fn bare(line: &str) -> &str {
    line.trim_end_matches('\n').trim_end_matches('\r')
}

/// `before` with `edits` applied: every line not edited is kept byte for byte, an edited line
/// keeps its own ending, an inserted line takes the ending of the line before it (else the
/// file's), and the trailing newline (or its absence) stays.
pub fn apply(before: &str, edits: &[LineEdit]) -> String {
    let lines = split_lines(before);
    let eol = line_ending(before);
    let mut edits: Vec<&LineEdit> = edits.iter().collect();
    edits.sort_by_key(|e| e.at);
    let mut out = String::with_capacity(before.len() + 256);
    let mut next = 0;
    let ending_of = |l: &str| -> &str {
        if l.ends_with("\r\n") {
            "\r\n"
        } else if l.ends_with('\n') {
            "\n"
        } else {
            ""
        }
    };
    for e in edits {
        while next < e.at && next < lines.len() {
            out.push_str(lines[next]);
            next += 1;
        }
        // An edit at the very end of a file without a final newline: end that line first.
        if next == lines.len() && !out.is_empty() && !out.ends_with('\n') && !e.insert.is_empty() {
            out.push_str(eol);
        }
        let replaced = (e.remove > 0).then(|| lines.get(next).copied()).flatten();
        let last_ending = replaced.map(ending_of);
        next += e.remove.min(lines.len().saturating_sub(next));
        let count = e.insert.len();
        for (k, line) in e.insert.iter().enumerate() {
            out.push_str(line);
            let ending = match last_ending {
                Some(end) if k + 1 == count => end,
                _ if next >= lines.len() && k + 1 == count && !before.ends_with('\n') => "",
                _ => eol,
            };
            out.push_str(ending);
        }
    }
    for line in &lines[next.min(lines.len())..] {
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(at: usize, remove: usize, insert: &[&str]) -> LineEdit {
        LineEdit {
            at,
            remove,
            insert: insert.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn keeps_line_endings_and_the_rest() {
        let before = "# T\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Context\r\n";
        let after = apply(before, &[edit(4, 1, &["Superseded by X"])]);
        assert_eq!(
            after,
            "# T\r\n\r\n## Status\r\n\r\nSuperseded by X\r\n\r\n## Context\r\n"
        );
        let after = apply(before, &[edit(5, 0, &["", "Amended by Y"])]);
        assert_eq!(
            after,
            "# T\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\nAmended by Y\r\n\r\n## Context\r\n"
        );
    }

    #[test]
    fn no_final_newline_stays_so() {
        assert_eq!(
            apply("a\nStatus: x", &[edit(1, 1, &["Status: y"])]),
            "a\nStatus: y"
        );
        assert_eq!(apply("a\nb", &[edit(2, 0, &["c"])]), "a\nb\nc");
    }
}
