//! A record folder's file-name convention, learned from the names of its records: numbered
//! (`0007-x.md`, `adr-7-x.md`, `ADR-007_x.md`) or dated (`2024-05-01-x.md`, `20240501-x.md`,
//! with or without a number after the date), and how its slugs are made (ADR-0013). Only
//! names are read, never the records: finding the next number costs one folder listing.

/// How the folder names its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Naming {
    pub scheme: Scheme,
    /// The slug's word separator (`-` or `_`) and whether it is lower case.
    pub slug_sep: char,
    pub slug_lower: bool,
    /// Whose rules make the slug from the title.
    pub slugs: Slugs,
}

/// The tool whose slugs a folder's names follow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Slugs {
    /// adr-tools': every run of characters that are not letters or digits is one separator.
    #[default]
    AdrTools,
    /// log4brains' (`super::log4brains::slugify`): punctuation dropped (`Next.js` → `nextjs`).
    Log4brains,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scheme {
    /// `{prefix}{number padded to width}{sep}{slug}.md`; width 0 is no padding.
    Numbered {
        prefix: String,
        width: usize,
        sep: String,
    },
    /// `{date}{sep}[{number}{sep}]{slug}.md`, the date `YYYY-MM-DD` (`dashes`) or `YYYYMMDD`.
    Dated {
        dashes: bool,
        sep: String,
        /// The width of the number after the date, when the folder numbers its records.
        number: Option<usize>,
    },
}

/// One record file name, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub scheme: Scheme,
    pub number: Option<u64>,
    pub slug: String,
}

/// Reads a record file name; `None` when it follows neither scheme. By hand, not by regex: a
/// folder of 5,000 names is read on every write, and a capturing regex per name cost 40 ms.
pub fn read_name(name: &str) -> Option<Name> {
    read(name).map(|r| r.owned())
}

/// A name read without copying its parts: `survey` reads every name of a folder and keeps one
/// (ADR-0013).
struct Read<'a> {
    scheme: ReadScheme<'a>,
    number: Option<u64>,
    slug: &'a str,
}

enum ReadScheme<'a> {
    Numbered {
        prefix: &'a str,
        width: usize,
        sep: &'a str,
    },
    Dated {
        dashes: bool,
        sep: &'a str,
        number: Option<usize>,
    },
}

impl Read<'_> {
    fn owned(&self) -> Name {
        Name {
            scheme: match self.scheme {
                ReadScheme::Numbered { prefix, width, sep } => Scheme::Numbered {
                    prefix: prefix.to_string(),
                    width,
                    sep: sep.to_string(),
                },
                ReadScheme::Dated {
                    dashes,
                    sep,
                    number,
                } => Scheme::Dated {
                    dashes,
                    sep: sep.to_string(),
                    number,
                },
            },
            number: self.number,
            slug: self.slug.to_string(),
        }
    }
}

fn read(name: &str) -> Option<Read<'_>> {
    let stem = name.strip_suffix(".md")?;
    let b = stem.as_bytes();
    let digits_at = |from: usize| {
        b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let is_sep = |c: u8| c == b'-' || c == b'_';
    // `YYYY-MM-DD` or `YYYYMMDD`, a separator, then maybe a number and a separator.
    let dashes = b.len() > 10
        && digits_at(0) == 4
        && b[4] == b'-'
        && digits_at(5) == 2
        && b[7] == b'-'
        && digits_at(8) == 2;
    let date_len = if dashes {
        Some(10)
    } else if b.len() > 8 && digits_at(0) == 8 {
        Some(8)
    } else {
        None
    };
    if let Some(len) = date_len.filter(|&l| b.len() > l + 1 && is_sep(b[l])) {
        let sep = &stem[len..len + 1];
        let after = len + 1;
        let n = digits_at(after);
        let (number, slug_at) = if n > 0 && b.len() > after + n + 1 && is_sep(b[after + n]) {
            (Some(&stem[after..after + n]), after + n + 1)
        } else {
            (None, after)
        };
        return Some(Read {
            scheme: ReadScheme::Dated {
                dashes,
                sep,
                number: number.map(str::len),
            },
            number: number.and_then(|d| d.parse().ok()),
            slug: &stem[slug_at..],
        });
    }
    // `{adr|rfc|dr|dd}{-|_}?{digits}{separators}{slug}`.
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let mut at = 0;
    if letters > 0 {
        if !["adr", "rfc", "dr", "dd"]
            .iter()
            .any(|p| stem[..letters].eq_ignore_ascii_case(p))
        {
            return None;
        }
        at = letters;
        if b.get(at).copied().is_some_and(is_sep) {
            at += 1;
        }
    }
    let n = digits_at(at);
    if n == 0 {
        return None;
    }
    let digits = &stem[at..at + n];
    let seps = b[at + n..]
        .iter()
        .take_while(|c| matches!(c, b'-' | b'_' | b'.' | b' '))
        .count();
    let slug_at = at + n + seps;
    if seps == 0 || slug_at >= b.len() {
        return None;
    }
    Some(Read {
        scheme: ReadScheme::Numbered {
            prefix: &stem[..at],
            width: if digits.starts_with('0') && digits.len() > 1 {
                digits.len()
            } else {
                0
            },
            sep: &stem[at + n..slug_at],
        },
        number: digits.parse().ok(),
        slug: &stem[slug_at..],
    })
}

impl Naming {
    /// adr-tools' convention, for a folder with no records yet: `0001-record-title.md`.
    pub fn default_numbered() -> Naming {
        Naming {
            scheme: Scheme::Numbered {
                prefix: String::new(),
                width: 4,
                sep: "-".into(),
            },
            slug_sep: '-',
            slug_lower: true,
            slugs: Slugs::AdrTools,
        }
    }

    /// The convention of the folder's newest record name (the highest number; for dated names
    /// the latest), among `names` (file names of its records). A padded width is kept when the
    /// newest name's number outgrew no padding (`0999` → `1000`).
    pub fn learn<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<Naming> {
        survey(names).naming
    }

    /// Whether records are numbered (a new one takes the next number).
    pub fn numbered(&self) -> bool {
        match &self.scheme {
            Scheme::Numbered { .. } => true,
            Scheme::Dated { number, .. } => number.is_some(),
        }
    }

    /// The file name of a record numbered `number` (ignored by a dated scheme without
    /// numbers), decided on `date` (`YYYY-MM-DD`), titled `title`.
    pub fn file_name(&self, number: u64, date: &str, title: &str) -> String {
        let slug = match self.slugs {
            Slugs::AdrTools => slug(title, self.slug_sep, self.slug_lower),
            Slugs::Log4brains => super::log4brains::slugify(title),
        };
        match &self.scheme {
            Scheme::Numbered { prefix, width, sep } => {
                format!("{prefix}{number:0>width$}{sep}{slug}.md", width = *width)
            }
            Scheme::Dated {
                dashes,
                sep,
                number: n,
            } => {
                let day = if *dashes {
                    date.to_string()
                } else {
                    date.replace('-', "")
                };
                match n {
                    Some(width) => {
                        format!("{day}{sep}{number:0>width$}{sep}{slug}.md", width = *width)
                    }
                    None => format!("{day}{sep}{slug}.md"),
                }
            }
        }
    }
}

/// What a folder's record names say, read in one pass (each name once).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Survey {
    /// The convention of the newest name; `None` when no name follows one.
    pub naming: Option<Naming>,
    /// The newest record's file name: the highest number, else the latest dated name.
    pub newest: Option<String>,
    /// The highest number among the names, 0 when none is numbered.
    pub highest: u64,
}

/// Reads the names once: the convention, the newest name and the highest number.
pub fn survey<'a>(names: impl IntoIterator<Item = &'a str>) -> Survey {
    let mut newest: Option<(Read, &str)> = None;
    let mut padded = 0;
    let mut highest = 0;
    for n in names {
        let Some(read) = read(n) else { continue };
        if let ReadScheme::Numbered { width, .. } = &read.scheme {
            padded = padded.max(*width);
        }
        highest = highest.max(read.number.unwrap_or(0));
        let newer = match &newest {
            None => true,
            Some((best, best_name)) => match (&read.scheme, &best.scheme) {
                (ReadScheme::Dated { .. }, ReadScheme::Dated { .. }) => n > *best_name,
                (ReadScheme::Dated { .. }, _) => true,
                (_, ReadScheme::Dated { .. }) => false,
                // Equal numbers: the first name in sorted order, whatever order they come in.
                _ => read.number > best.number || (read.number == best.number && n < *best_name),
            },
        };
        if newer {
            newest = Some((read, n));
        }
    }
    let Some((name, file)) = newest else {
        return Survey::default();
    };
    let name = name.owned();
    let scheme = match name.scheme {
        Scheme::Numbered { prefix, width, sep } => Scheme::Numbered {
            prefix,
            width: if width == 0 { padded } else { width },
            sep,
        },
        dated => dated,
    };
    let slug_sep = if name.slug.contains('_') && !name.slug.contains('-') {
        '_'
    } else {
        '-'
    };
    Survey {
        naming: Some(Naming {
            scheme,
            slug_sep,
            slug_lower: name.slug == name.slug.to_lowercase(),
            slugs: Slugs::AdrTools,
        }),
        newest: Some(file.to_string()),
        highest,
    }
}

/// The highest number among record file names, 0 when none is numbered.
pub fn highest_number<'a>(names: impl IntoIterator<Item = &'a str>) -> u64 {
    survey(names).highest
}

/// A title as a file-name slug, as adr-tools makes one: every run of characters that are
/// not letters or digits becomes one separator, none at either end.
pub fn slug(title: &str, sep: char, lower: bool) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            if lower {
                out.extend(c.to_lowercase());
            } else {
                out.push(c);
            }
        } else if !out.is_empty() && !out.ends_with(sep) {
            out.push(sep);
        }
    }
    while out.ends_with(sep) {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("record");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn next(names: &[&str], title: &str) -> String {
        let naming = Naming::learn(names.iter().copied()).unwrap_or_else(Naming::default_numbered);
        let n = highest_number(names.iter().copied()) + 1;
        naming.file_name(n, "2024-05-01", title)
    }

    #[test]
    fn numbered_conventions() {
        assert_eq!(
            next(&["0001-a.md", "0007-b-c.md"], "Use X!"),
            "0008-use-x.md"
        );
        assert_eq!(
            next(&["adr-6-a.md", "adr-7-b.md"], "Use X"),
            "adr-8-use-x.md"
        );
        assert_eq!(next(&["ADR-007-a.md"], "Use X"), "ADR-008-use-x.md");
        assert_eq!(next(&["ADR_0003_Foo_Bar.md"], "Use X"), "ADR_0004_Use_X.md");
        assert_eq!(next(&["0999-a.md"], "Use X"), "1000-use-x.md");
        assert_eq!(next(&[], "Use X"), "0001-use-x.md");
    }

    #[test]
    fn names_that_follow_no_scheme() {
        for n in [
            "README.md",
            "notes.md",
            "0007.md",
            "x-0007-y.md",
            "0007-x.txt",
        ] {
            assert_eq!(read_name(n), None, "{n}");
        }
        let r = read_name("2021-05-04-1234-retry.md").unwrap();
        assert_eq!((r.number, r.slug.as_str()), (Some(1234), "retry"));
        let r = read_name("20240102-use-x.md").unwrap();
        assert_eq!((r.number, r.slug.as_str()), (None, "use-x"));
    }

    #[test]
    fn dated_conventions() {
        assert_eq!(next(&["2024-01-02-a.md"], "Use X"), "2024-05-01-use-x.md");
        assert_eq!(next(&["20240102-a.md"], "Use X"), "20240501-use-x.md");
        assert_eq!(
            next(
                &["2021-05-04-1234-retry.md", "2021-06-01-1240-b.md"],
                "Use X"
            ),
            "2024-05-01-1241-use-x.md"
        );
    }
}
