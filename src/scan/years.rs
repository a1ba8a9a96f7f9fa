//! Record files named by a year (docs/reading.md, "Ids and dates from file names"; ADR-0001).

use crate::parse::ParsedRecord;

/// Record files named by the year they were written (react-spectrum's `rfcs/2019-v3-slots.md`,
/// seven of them from 2019): a leading year (1990–2099, then `-` and a word) that two record
/// files of one folder share is no record number. Every record of that folder whose id is
/// such a year takes its file's stem as id, as a record with a dated name does
/// (docs/reading.md); a folder whose leading numbers are all different keeps them (a Rust RFC
/// `2019-x.md` is RFC 2019).
pub(super) fn year_named(parsed: &mut [ParsedRecord]) {
    use std::collections::HashMap;
    // (folder, year, stem) of a record whose id is its name's leading year.
    let year_of = |p: &ParsedRecord| -> Option<(String, String, String)> {
        let (folder, name) = p.path.rsplit_once('/').unwrap_or(("", p.path.as_str()));
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        let year = stem
            .get(..4)
            .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))?;
        let word = stem[4..].strip_prefix('-')?;
        let in_range = year
            .parse::<u32>()
            .is_ok_and(|y| (1990..=2099).contains(&y));
        (in_range
            && word.starts_with(|c: char| c.is_ascii_alphabetic())
            && p.id == crate::text::ids::format_id(p.prefix, year))
        .then(|| (folder.to_string(), year.to_string(), stem.to_string()))
    };
    let mut shared: HashMap<(String, String), usize> = HashMap::new();
    for (folder, year, _) in parsed.iter().filter_map(year_of) {
        *shared.entry((folder, year)).or_default() += 1;
    }
    let by_year = |folder: &str| {
        shared
            .iter()
            .any(|((f, _), n)| f.as_str() == folder && *n >= 2)
    };
    for p in parsed.iter_mut() {
        if let Some((folder, _, stem)) = year_of(p) {
            if by_year(&folder) {
                p.id = stem;
            }
        }
    }
}
