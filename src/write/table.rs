//! A status table (ADR-0013, issue 39): a record whose header is a Markdown table with a
//! `Status` column (`| Status | Date | Author(s) |`, DependencyTrack's records). A template's
//! placeholder row (`Proposed, Accepted, … | yyyy-mm-dd`) is filled with the status and the date,
//! and a changed cell keeps the table laid out as the folder lays it out: an aligned table (each
//! column padded to one width) stays aligned.

/// A table row's cells, as written between the pipes (untrimmed); `None` for a line that is
/// no table row.
fn cells(line: &str) -> Option<Vec<&str>> {
    let t = line.trim();
    let inner = t.strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').collect())
}

/// Whether a row is the header's separator (`|:---|---:|`, `| :--- |`).
fn is_separator(cells: &[&str]) -> bool {
    cells.iter().all(|c| {
        let c = c.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        !c.is_empty() && c.bytes().all(|b| b == b'-')
    })
}

/// The lines `[start, end)` of the table around line `at`: the run of lines starting with `|`.
pub fn extent<S: AsRef<str>>(lines: &[S], at: usize) -> (usize, usize) {
    let row = |i: usize| lines[i].as_ref().trim_start().starts_with('|');
    let mut start = at;
    while start > 0 && row(start - 1) {
        start -= 1;
    }
    let mut end = at;
    while end < lines.len() && row(end) {
        end += 1;
    }
    (start, end)
}

/// A table: its rows' cells (trimmed), which row is the separator, and how it is written.
struct Table {
    rows: Vec<Vec<String>>,
    separator: Option<usize>,
    /// Each separator cell's alignment colons (left, right).
    colons: Vec<(bool, bool)>,
    /// The separator's cells are written with a space each side (`| :--- |`).
    spaced: bool,
    /// Every line has the same length: the columns are padded.
    aligned: bool,
    /// Each column's width as written (when aligned).
    widths: Vec<usize>,
}

fn read(lines: &[&str]) -> Option<Table> {
    let mut rows = Vec::new();
    let mut separator = None;
    let mut colons = Vec::new();
    let mut spaced = false;
    let mut widths: Vec<usize> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let raw = cells(line)?;
        if separator.is_none() && is_separator(&raw) {
            separator = Some(k);
            spaced = raw.iter().all(|c| c.starts_with(' '));
            colons = raw
                .iter()
                .map(|c| (c.trim().starts_with(':'), c.trim().ends_with(':')))
                .collect();
        } else {
            for (j, c) in raw.iter().enumerate() {
                let w = c.trim().chars().count();
                let written = c.chars().count().saturating_sub(2);
                let w = w.max(written);
                match widths.get_mut(j) {
                    Some(x) => *x = (*x).max(w),
                    None => widths.push(w),
                }
            }
        }
        rows.push(raw.iter().map(|c| c.trim().to_string()).collect());
    }
    let len = lines.first().map(|l| l.trim_end().chars().count());
    let aligned = lines.len() > 1
        && lines
            .iter()
            .all(|l| Some(l.trim_end().chars().count()) == len);
    Some(Table {
        rows,
        separator,
        colons,
        spaced,
        aligned,
        widths,
    })
}

impl Table {
    /// The table's lines: padded to each column's widest cell when it was aligned (`shrink`:
    /// no wider, as a filled template's placeholders no longer need; else never narrower than
    /// written, so a cell that still fits changes its line alone).
    fn lines(&self, shrink: bool) -> Vec<String> {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0usize; columns];
        for (k, row) in self.rows.iter().enumerate() {
            if Some(k) == self.separator {
                continue;
            }
            for (j, c) in row.iter().enumerate() {
                widths[j] = widths[j].max(c.chars().count());
            }
        }
        if !shrink {
            for (w, old) in widths.iter_mut().zip(&self.widths) {
                *w = (*w).max(*old);
            }
        }
        self.rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let mut out = String::from("|");
                for (j, c) in row.iter().enumerate() {
                    let w = if self.aligned { widths[j] } else { 0 };
                    if Some(k) == self.separator {
                        let (l, r) = self.colons.get(j).copied().unwrap_or_default();
                        let inner = if self.spaced { w } else { w + 2 };
                        let dashes = inner.max(3).saturating_sub(l as usize + r as usize);
                        let cell = format!(
                            "{}{}{}",
                            if l { ":" } else { "" },
                            "-".repeat(dashes),
                            if r { ":" } else { "" }
                        );
                        if self.spaced {
                            out.push_str(&format!(" {cell} |"));
                        } else {
                            out.push_str(&format!("{cell}|"));
                        }
                    } else {
                        let pad = w.saturating_sub(c.chars().count());
                        out.push_str(&format!(" {c}{} |", " ".repeat(pad)));
                    }
                }
                out
            })
            .collect()
    }

    /// The index of the header's column named `name` (any case).
    fn column(&self, name: &str) -> Option<usize> {
        self.rows
            .first()?
            .iter()
            .position(|c| c.trim_matches('*').eq_ignore_ascii_case(name))
    }
}

/// A template's status table filled: in the first table with a `Status` column, the row under
/// its header gets `status` (cased as the placeholder's first word) and, in a `Date` column,
/// `date`; the table laid out again. Whether there was such a table.
pub fn fill(lines: &mut Vec<String>, status: &str, date: &str) -> bool {
    let mut i = 0;
    // Only a table in the header (before the first section) or in a status section: a table
    // of options further down is the author's.
    let mut in_place = true;
    while i < lines.len() {
        if let Some(h) = lines[i].strip_prefix("## ") {
            in_place = h
                .trim()
                .trim_end_matches(':')
                .eq_ignore_ascii_case("status");
        }
        if !in_place || !lines[i].trim_start().starts_with('|') {
            i += 1;
            continue;
        }
        let (start, end) = extent(lines, i);
        let view: Vec<&str> = lines[start..end].iter().map(String::as_str).collect();
        if let Some(mut table) = read(&view) {
            let row = table.separator.map(|s| s + 1).unwrap_or(1);
            if let (Some(col), true) = (table.column("status"), row < table.rows.len()) {
                let like = table.rows[row][col].clone();
                table.rows[row][col] = super::form::cased(status, &like);
                if let Some(d) = table.column("date") {
                    table.rows[row][d] = date.to_string();
                }
                let new = table.lines(true);
                lines.splice(start..end, new);
                return true;
            }
        }
        i = end;
    }
    false
}

/// The status table heading a record without a title heading (the folder's newest record,
/// when there is no template), as a new record's: its header, and one row with `status`
/// (cased as the record's), `date`, and every other cell empty. `None` when no table with a
/// `Status` column comes before the first section.
pub fn header_table(body: &[&str], status: &str, date: &str) -> Option<Vec<String>> {
    let at = body
        .iter()
        .take_while(|l| !l.starts_with("## "))
        .position(|l| l.trim_start().starts_with('|'))?;
    let (start, end) = extent(body, at);
    let mut table = read(&body[start..end])?;
    let col = table.column("status")?;
    let row = table.separator.map(|s| s + 1).unwrap_or(1);
    let like = table.rows.get(row)?.get(col)?.clone();
    table.rows.truncate(row + 1);
    let date_col = table.column("date");
    for (j, cell) in table.rows[row].iter_mut().enumerate() {
        *cell = if j == col {
            super::form::cased(status, &like)
        } else if Some(j) == date_col {
            date.to_string()
        } else {
            String::new()
        };
    }
    Some(table.lines(true))
}

/// The table around line `at` with that line replaced by `row`, laid out again when it was
/// aligned: `(first line, its lines)`; `None` when it was not aligned (the line alone changes).
pub fn relayout(lines: &[&str], at: usize, row: &str) -> Option<(usize, Vec<String>)> {
    let (start, end) = extent(lines, at);
    let mut view: Vec<&str> = lines[start..end].to_vec();
    let old = read(&view)?;
    if !old.aligned {
        return None;
    }
    view[at - start] = row;
    let mut table = read(&view)?;
    table.aligned = true;
    table.widths = old.widths;
    Some((start, table.lines(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "| Status                                               | Date       | Author(s)                                        |\n|:-----------------------------------------------------|:-----------|:-------------------------------------------------|\n| Proposed, Accepted, Rejected, Deprecated, Superseded | yyyy-mm-dd | [@githubHandle](https://github.com/githubHandle) |\n\n## Context";

    #[test]
    fn a_template_row_is_filled_and_the_table_fits_it() {
        let mut lines: Vec<String> = TEMPLATE.lines().map(str::to_string).collect();
        assert!(fill(&mut lines, "accepted", "2026-12-05"));
        assert_eq!(
            lines[..3].join("\n"),
            "| Status   | Date       | Author(s)                                        |\n|:---------|:-----------|:-------------------------------------------------|\n| Accepted | 2026-12-05 | [@githubHandle](https://github.com/githubHandle) |"
        );
        assert_eq!(lines[4], "## Context");
        let mut options: Vec<String> =
            "# T\n\n## Options\n\n| Option | Status |\n|---|---|\n| A | Draft |"
                .lines()
                .map(str::to_string)
                .collect();
        let before = options.clone();
        assert!(!fill(&mut options, "accepted", "2026-12-05"));
        assert_eq!(options, before);
    }

    #[test]
    fn a_record_table_becomes_a_new_records() {
        let body = [
            "| Status   | Date       | Author(s)                      |",
            "|:---------|:-----------|:-------------------------------|",
            "| Accepted | 2025-01-07 | [@ann](https://github.com/ann) |",
            "",
            "## Context",
        ];
        assert_eq!(
            header_table(&body, "proposed", "2026-12-05").unwrap(),
            [
                "| Status   | Date       | Author(s) |",
                "|:---------|:-----------|:----------|",
                "| Proposed | 2026-12-05 |           |"
            ]
        );
        assert!(header_table(&["# T", "", "## Status", "| a |"], "x", "y").is_none());
    }

    #[test]
    fn a_changed_cell_widens_an_aligned_table_and_never_narrows_it() {
        let t = [
            "| Status   | Date       |",
            "| :------- | :--------- |",
            "| Proposed | 2025-05-14 |",
        ];
        let (at, lines) = relayout(&t, 2, "| Accepted | 2025-05-14 |").unwrap();
        assert_eq!(at, 0);
        assert_eq!(lines[..2], t[..2]);
        assert_eq!(lines[2], "| Accepted | 2025-05-14 |");
        let (_, lines) =
            relayout(&t, 2, "| Superseded by [ADR-9](009-x.md) | 2025-05-14 |").unwrap();
        assert_eq!(
            lines,
            [
                "| Status                          | Date       |",
                "| :------------------------------ | :--------- |",
                "| Superseded by [ADR-9](009-x.md) | 2025-05-14 |"
            ]
        );
        assert!(relayout(
            &[
                "| Status | Date |",
                "|---|---|",
                "| Proposed | 2025-05-14 |"
            ],
            2,
            "| Accepted | x |"
        )
        .is_none());
    }
}
