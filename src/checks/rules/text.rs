//! `forbid text /REGEX/ in GLOB` (docs/rules.md): every line of a tracked file the pattern
//! matches that the regex matches.

use super::{Files, Violation};
use crate::governs::Pattern;

pub(super) fn forbid_text(
    regex: &str,
    within: &str,
    paths: &[String],
    files: &dyn Files,
) -> Vec<Violation> {
    // The regex compiled when the line was read; one that no longer would finds nothing.
    let Ok(re) = regex::Regex::new(regex) else {
        return Vec::new();
    };
    let pattern = Pattern::new(within);
    let matching: Vec<&String> = paths.iter().filter(|p| pattern.matches(p)).collect();
    let found = crate::util::parallel_map(&matching, |path| {
        let Some(bytes) = files.read(path) else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&bytes);
        text.split('\n')
            .enumerate()
            .filter(|(_, l)| re.is_match(l.strip_suffix('\r').unwrap_or(l)))
            .map(|(i, _)| Violation {
                path: (*path).clone(),
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                target: None,
            })
            .collect::<Vec<_>>()
    });
    found.into_iter().flatten().collect()
}
