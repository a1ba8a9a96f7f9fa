//! A guide: a `.md` file outside the record folders, read for the ids it mentions and the
//! files it links to, outside fenced code blocks (ADR-0001).

use super::fields::declares_own_status;
use crate::text::frontmatter;
use crate::text::markdown::{lf, link_target, text_links, visible_lines};
use crate::text::mentions::prose_ids;
use crate::text::parent_folder;
use serde::{Deserialize, Serialize};

/// What a guide cites: its path, the ids it mentions and the targets of its links.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guide {
    pub path: String,
    pub mentions: Vec<String>,
    pub links: Vec<String>,
    /// It declares its own status (a spec, a plan of its own time): not a guide, and the
    /// documents bundled with it in a numbered or dated folder are not either.
    pub own_status: bool,
}

/// What the guide at `rel_path` cites: the ids it mentions and the root-relative targets of
/// its links, outside fenced code blocks. A document that declares its own status (frontmatter
/// `status`, or a `Status:` line with a status word in its header: a spec, a plan, a design note
/// of its own time) is not a guide: it cites nothing.
pub fn parse_guide(rel_path: &str, text: &str) -> Guide {
    let text = lf(text);
    let (fm, body_start) = frontmatter::split(&text);
    let all: Vec<&str> = text.split('\n').collect();
    let has_status = fm.is_some_and(|fm| fm.get(&["status"]).is_some())
        || declares_own_status(&visible_lines(&all, body_start));
    if has_status {
        return Guide {
            path: rel_path.to_string(),
            mentions: Vec::new(),
            links: Vec::new(),
            own_status: true,
        };
    }
    let folder = parent_folder(rel_path);
    let visible: String = visible_lines(&all, 0)
        .iter()
        .map(|(_, l)| *l)
        .collect::<Vec<_>>()
        .join("\n");
    // Code-span examples are not citations; ids linked to external URLs stay, since only the
    // ids of existing records count for a guide.
    let prose = prose_ids(&visible);
    let mut mentions: Vec<String> = prose.ids;
    mentions.extend(prose.linked);
    let mut links: Vec<String> = text_links(&visible)
        .into_iter()
        .filter_map(|(_, target)| link_target(folder, target))
        .collect();
    mentions.sort();
    mentions.dedup();
    links.sort();
    links.dedup();
    Guide {
        path: rel_path.to_string(),
        mentions,
        links,
        own_status: false,
    }
}
