//! A link to a record file renumbered since it was written (docs/reading.md, "Links to records
//! that aren't there").

use super::Resolver;
use crate::parse::Ref;
use std::collections::BTreeSet;

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

    /// The one record file in the folder of `target` (a file that is no record) whose name
    /// has the same number, renamed since: the file a link to celestia-app's
    /// `adr-025-promise-rules.md` means is `adr-025-fibre-local-promise-cache.md`, not the
    /// nearest spelling (`adr-002-qgb-valset.md`).
    pub(super) fn same_number(&self, target: &str) -> Option<&'a str> {
        let (dir, name) = target.rsplit_once('/')?;
        let number = |n: &str| {
            let stem = n.rsplit_once('.').map_or(n, |(s, _)| s);
            crate::text::ids::number_in_file_name(stem)?
                .parse::<u64>()
                .ok()
        };
        let wanted = number(name)?;
        let mut found = self.by_path.keys().filter(|path| {
            path.rsplit_once('/')
                .is_some_and(|(d, n)| d == dir && number(n) == Some(wanted))
        });
        let path = found.next()?;
        found.next().is_none().then_some(*path)
    }

    /// The record a relation written as a forge's web address names: the record at its path,
    /// or the one renumbered since; `None` for another repository's page.
    pub(super) fn web_id(&self, target: &str, own: &str) -> Option<&'a str> {
        self.by_path
            .get(target)
            .copied()
            .or_else(|| self.renumbered(target, own).map(|(_, id)| id))
    }

    /// Settles the citations of `p`'s relations written as web addresses of its own records:
    /// the number such a link's text gives is the file's old one when the record was renumbered
    /// (FAC's "ADR 16" for what is now record 25), so that number is no citation unless the prose
    /// names it too; and a link to a file that isn't there is no citation either (a renamed
    /// file's, too).
    pub(super) fn settle_web(&self, p: &crate::parse::ParsedRecord, cites: &mut BTreeSet<String>) {
        let own = p.id.as_str();
        let relations = p.supersedes.iter().chain(&p.superseded_by).chain(&p.amends);
        for r in relations.chain(&p.amended_by) {
            let Ref::Web { target, text_id } = r else {
                continue;
            };
            let Some(id) = self.web_id(target, own) else {
                continue;
            };
            if !self.is_record(target) {
                cites.remove(id);
            }
            if let Some(said) = text_id.as_deref().filter(|t| *t != id) {
                if !p.mentions.iter().any(|m| m == said) {
                    cites.remove(said);
                }
            }
        }
    }
}

/// A `.md` file's name past its number.
fn past_number(name: &str) -> Option<String> {
    let stem = name
        .strip_suffix(".md")
        .or_else(|| name.strip_suffix(".MD"))?;
    crate::text::ids::name_past_number(stem)
}
