//! log4brains' own form (ADR-0013, docs/writing.md#madr-and-log4brains): its slugs, made by
//! `@log4brains/core` with the `slugify` package (`lower` and `strict`: `Next.js` is `nextjs`,
//! not `next-js`), and its `## Links` section, where it lists `Supersedes [slug](file.md)`.

/// The heading's word log4brains lists links under.
const LINKS: &str = "links";

/// A title as log4brains slugs it (`slugify(title, {lower: true, strict: true})`, trailing
/// dashes dropped): each character mapped as slugify's table maps it (`&` → `and`, `é` → `e`),
/// a `-` made a space, every character but ASCII letters, digits and spaces dropped, and runs
/// of spaces made one `-`.
pub fn slugify(title: &str) -> String {
    let mut s = String::with_capacity(title.len());
    for c in title.chars() {
        match char_map(c) {
            Some(m) => s.push_str(m),
            None if c == '-' || c.is_whitespace() => s.push(' '),
            None if c.is_ascii_alphanumeric() => s.push(c),
            None => {}
        }
    }
    let slug = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_lowercase();
    if slug.is_empty() {
        "record".to_string()
    } else {
        slug
    }
}

/// slugify's `charmap.json` for the ASCII symbols it names and the Latin letters: what a
/// title in a European language meets.
fn char_map(c: char) -> Option<&'static str> {
    Some(match c {
        '$' => "dollar",
        '%' => "percent",
        '&' => "and",
        '<' => "less",
        '>' => "greater",
        '|' => "or",
        'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => "A",
        'à'..='å' | 'ā' | 'ă' | 'ą' => "a",
        'Æ' => "AE",
        'æ' => "ae",
        'Ç' | 'Ć' | 'Č' => "C",
        'ç' | 'ć' | 'č' => "c",
        'Ď' | 'Đ' | 'Ð' => "D",
        'ď' | 'đ' | 'ð' => "d",
        'È'..='Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'Ğ' | 'Ģ' => "G",
        'ğ' | 'ģ' => "g",
        'Ì'..='Ï' | 'Ī' | 'Į' | 'İ' => "I",
        'ì'..='ï' | 'ī' | 'į' | 'ı' => "i",
        'Ķ' => "k",
        'ķ' => "k",
        'Ł' | 'Ļ' | 'Ľ' => "L",
        'ł' | 'ļ' | 'ľ' => "l",
        'Ñ' | 'Ń' | 'Ň' | 'Ņ' => "N",
        'ñ' | 'ń' | 'ň' | 'ņ' => "n",
        'Ò'..='Ö' | 'Ø' | 'Ō' | 'Ő' => "O",
        'ò'..='ö' | 'ø' | 'ō' | 'ő' => "o",
        'Œ' => "OE",
        'œ' => "oe",
        'Ř' => "R",
        'ř' => "r",
        'Ś' | 'Š' | 'Ş' | 'Ș' => "S",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'ß' => "ss",
        'Ť' | 'Ţ' | 'Ț' => "T",
        'ť' | 'ţ' | 'ț' => "t",
        'Þ' => "TH",
        'þ' => "th",
        'Ù'..='Ü' | 'Ū' | 'Ů' | 'Ű' | 'Ų' => "U",
        'ù'..='ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'Ý' | 'Ÿ' => "Y",
        'ý' | 'ÿ' => "y",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// Whether a line is a `## Links` heading (`## Links <!-- optional -->` in its template).
fn is_links_heading(line: &str) -> bool {
    let Some(h) = line.strip_prefix("## ") else {
        return false;
    };
    let h = match h.find("<!--") {
        Some(i) => &h[..i],
        None => h,
    };
    h.trim().eq_ignore_ascii_case(LINKS)
}

/// The new record's lines with `links` listed under its `## Links` heading as log4brains lists
/// them (`- Supersedes [slug](file.md)`), the template's placeholder items (`- [Link type][link
/// to adr] <!-- … -->`, `- … <!-- … -->`) taken out; a `## Links` section added at the end
/// when there is none, as log4brains' `addLink` does. `false` when it has no `## Links`
/// heading and `add` is false (nothing changed).
pub fn list_links(lines: &mut Vec<String>, links: &[String], add: bool) -> bool {
    let items: Vec<String> = links.iter().map(|l| format!("- {l}")).collect();
    let Some(h) = lines.iter().position(|l| is_links_heading(l)) else {
        if !add {
            return false;
        }
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        lines.extend([String::new(), "## Links".to_string(), String::new()]);
        lines.extend(items);
        return true;
    };
    let end = (h + 1..lines.len())
        .find(|&j| lines[j].starts_with("## ") || lines[j].starts_with("# "))
        .unwrap_or(lines.len());
    // The template's placeholder items go; the first one's place is the links'.
    let mut first = None;
    let mut kept = Vec::new();
    for (j, l) in lines.drain(h + 1..end).enumerate() {
        if is_placeholder(&l) {
            first.get_or_insert(j);
        } else {
            kept.push(l);
        }
    }
    let at = match (
        kept.iter().rposition(|l| l.trim_start().starts_with("- ")),
        first,
    ) {
        (Some(last), _) => last + 1,
        (None, Some(j)) => j.min(kept.len()),
        (None, None) => {
            // An empty section: the list after a blank line.
            while kept.first().is_some_and(|l| l.trim().is_empty()) {
                kept.remove(0);
            }
            kept.insert(0, String::new());
            1
        }
    };
    kept.splice(at..at, items);
    lines.splice(h + 1..h + 1, kept);
    true
}

/// Where a record's lines (`lines`, without endings) take one more link (`item`, as `Amended by
/// [slug](file.md)`) as log4brains' `addLink` puts it: after the last item of its `## Links`
/// list, else a new `## Links` section at the end. The line to insert at and the lines.
pub fn link_at<S: AsRef<str>>(lines: &[S], item: &str) -> (usize, Vec<String>) {
    let item = format!("- {item}");
    let Some(h) = lines.iter().position(|l| is_links_heading(l.as_ref())) else {
        let end = lines
            .iter()
            .rposition(|l| !l.as_ref().trim().is_empty())
            .map_or(0, |i| i + 1);
        return (
            end,
            vec![String::new(), "## Links".into(), String::new(), item],
        );
    };
    let end = (h + 1..lines.len())
        .find(|&j| lines[j].as_ref().starts_with('#'))
        .unwrap_or(lines.len());
    match (h + 1..end)
        .rev()
        .find(|&j| lines[j].as_ref().trim_start().starts_with("- "))
    {
        Some(last) => (last + 1, vec![item]),
        None => (h + 1, vec![String::new(), item]),
    }
}

/// A placeholder item of log4brains' template: `- [Link type][link to adr] <!-- … -->`,
/// `- … <!-- … -->`.
fn is_placeholder(line: &str) -> bool {
    let Some(item) = line.trim_start().strip_prefix("- ") else {
        return false;
    };
    let item = item.find("<!--").map_or(item, |i| &item[..i]).trim();
    item.starts_with('…') || (item.starts_with('[') && !item.contains("]("))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_as_slugify_makes_them() {
        for (title, slug) in [
            (
                "Allow default exports in Next.js pages",
                "allow-default-exports-in-nextjs-pages",
            ),
            (
                "Use Prettier-ESLint Airbnb for the code style",
                "use-prettier-eslint-airbnb-for-the-code-style",
            ),
            ("Ops & dev: één  team!", "ops-and-dev-een-team"),
            ("  trailing -- ", "trailing"),
            ("???", "record"),
        ] {
            assert_eq!(slugify(title), slug, "{title}");
        }
    }

    #[test]
    fn links_replace_the_templates_placeholders() {
        let mut lines: Vec<String> = [
            "# T",
            "",
            "## Links <!-- optional -->",
            "",
            "- [Link type][link to adr] <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->",
            "- … <!-- numbers of links can vary -->",
        ]
        .map(String::from)
        .to_vec();
        assert!(list_links(
            &mut lines,
            &["Supersedes [a](a.md)".into()],
            false
        ));
        assert_eq!(lines[3..], ["", "- Supersedes [a](a.md)"]);
        let mut bare: Vec<String> = ["# T", "", "## Context", "", "Why.", ""]
            .map(String::from)
            .to_vec();
        assert!(!list_links(&mut bare.clone(), &["x".into()], false));
        assert!(list_links(
            &mut bare,
            &["Supersedes [a](a.md)".into()],
            true
        ));
        assert_eq!(
            bare[4..],
            ["Why.", "", "## Links", "", "- Supersedes [a](a.md)"]
        );
    }
}
