//! A link to a record file renumbered since it was written (docs/reading.md, "Links to records
//! that aren't there").

use super::Resolver;

impl<'a> Resolver<'a> {
    /// The record a link to a file that is no record names, when that record was renumbered
    /// since: the one record file in the link's folder, not `own`'s, whose name past the number
    /// is the link's (GSA-TTS/FAC's `0016-compliance-documentation.md`, now `0025-…`). Its path
    /// and id.
    pub(super) fn renumbered(&self, target: &str, own: &str) -> Option<(&'a str, &'a str)> {
        if self.is_record(target) {
            return None;
        }
        let (dir, name) = target.rsplit_once('/')?;
        let words = past_number(name)?;
        let mut found = self.by_path.iter().filter(|(path, id)| {
            **id != own
                && path
                    .rsplit_once('/')
                    .is_some_and(|(d, n)| d == dir && past_number(n).as_ref() == Some(&words))
        });
        let (path, id) = found.next()?;
        found.next().is_none().then_some((*path, *id))
    }
}

/// A `.md` file's name past its number.
fn past_number(name: &str) -> Option<String> {
    let stem = name
        .strip_suffix(".md")
        .or_else(|| name.strip_suffix(".MD"))?;
    crate::text::ids::name_past_number(stem)
}
