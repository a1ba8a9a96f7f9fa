//! Pure text: what records and guides say, read without the file system, git or the other
//! records in view. Markdown lexing, id mentions, frontmatter, dates and paths as written
//! (ADR-0001, ADR-0007).

pub mod code_words;
mod code_words_table;
pub mod date;
pub mod frontmatter;
pub mod ids;
pub mod line_marks;
pub mod markdown;
pub mod marker;
pub mod mentions;
pub mod path;
pub mod rst;
pub mod sections;
pub mod similar;
pub mod terms;

/// The file name of a `/`-separated path without its last extension (`docs/adr/0007-x.md` →
/// `0007-x`).
pub fn file_stem(rel_path: &str) -> &str {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.rsplit_once('.').map(|(s, _)| s).unwrap_or(name)
}

/// The folder of a `/`-separated path (`""` at the top).
pub fn parent_folder(rel_path: &str) -> &str {
    rel_path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}
