//! `words` evidence (docs/related.md): distinctive words of the record's title in PATH's own
//! name (its file's stem, or the folder's name when PATH is a folder; never a folder above
//! it), split on case, `_`, `-` and `.`. A word counts when it is not common English (a name
//! every repository has, `client` or `plugin`, may tell) and the titles of at most
//! [`MAX_TITLES`] records have it: one record's alone weighs [`ALONE`], a word two titles
//! share [`SHARED`], unless it is the whole of PATH's name (then [`ALONE`]). Title words in a
//! row that spell one part of the name together (`filetreediff/` for "Version file tree
//! diff", `clientsettingspolicy_types.go` for "Client Settings Policy") weigh [`ALONE`].

use super::title::{begins_as, lowered_titles, title_runs, Wanted};
use crate::model::{Evidence, Pickable};
use crate::text::terms::{is_common, is_title_filler_key, singular, singular_of};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

type Fast = foldhash::fast::FixedState;

pub const MAX_TITLES: usize = 2;
pub const ALONE: u32 = 2;
pub const SHARED: u32 = 1;
/// The most title words weigh together.
pub const MAX_WEIGHT: u32 = 3;

/// For each record (by its place in `records`) with distinctive title words in `path`'s own
/// name, the words (in title order) and their weight.
pub fn evidence<R: Pickable>(records: &[R], path: &str) -> Vec<(usize, Evidence, u32)> {
    let parts = name_parts(path);
    if parts.is_empty() {
        return Vec::new();
    }
    // The name's own parts, without the common words of software (`job`, `handler`, `worker`).
    let kept_parts: Vec<String> = parts
        .iter()
        .filter(|p| !is_common(&singular(p)))
        .cloned()
        .collect();
    let core = if kept_parts.is_empty() {
        &parts
    } else {
        &kept_parts
    };
    let whole_name = singular(&core.concat());
    let spelled: BTreeSet<String> = parts.iter().map(|p| singular(p)).collect();
    // Runs of two to four parts as one (`FileTransfer/` spells "filetransfer" as
    // `filetreediff/` does).
    // Not the name of the project or namespace PATH is in (`TestPlatformOptions.cs` under
    // `Microsoft.TestPlatform.ObjectModel/`): every file there may repeat it.
    let above = joined_above(path);
    let spelled_together: BTreeSet<String> = joined_runs(&parts)
        .filter(|joined| !above.contains(joined))
        .collect();
    // Each title split and lowered once, its words borrowed from there (a warm answer's
    // share, issue 41).
    let (lowered, from_name) = lowered_titles(records);
    // Only a word that begins as one of the name's parts does may be spelled by them
    // ([`spells`]): the others are neither counted nor folded.
    let firsts: Vec<u8> = parts.iter().filter_map(|p| p.bytes().next()).collect();
    let titles: Vec<Vec<Cow<str>>> = lowered
        .iter()
        .map(|title| words_of(title.words().filter(|w| begins_as(&firsts, w))))
        .collect();
    // Only the runs that spell a part or parts of this name matter (and how many titles have
    // each): the others are never made.
    let wanted_sets = [&spelled, &spelled_together];
    let wanted = Wanted::new(&wanted_sets);
    let runs: Vec<Vec<(String, String)>> = lowered
        .iter()
        .map(|title| title_runs(title, &wanted))
        .collect();
    let mut titles_with: HashMap<&str, usize, Fast> = HashMap::default();
    let mut distinct: Vec<&str> = Vec::new();
    for words in &titles {
        distinct.clear();
        distinct.extend(words.iter().map(|w| w.as_ref()));
        distinct.sort_unstable();
        distinct.dedup();
        for w in &distinct {
            *titles_with.entry(w).or_default() += 1;
        }
    }
    let mut titles_with_run: HashMap<&str, usize, Fast> = HashMap::default();
    for each in &runs {
        let distinct: BTreeSet<&str> = each.iter().map(|(_, k)| k.as_str()).collect();
        for k in distinct {
            *titles_with_run.entry(k).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for (i, words) in titles.iter().enumerate() {
        let mut kept: Vec<String> = Vec::new();
        let mut kinds: Vec<String> = Vec::new();
        let mut weight = 0;
        for (said, joined) in &runs[i] {
            let shared = titles_with_run.get(joined.as_str()).copied().unwrap_or(0);
            if shared <= MAX_TITLES && spelled.contains(joined) && !kept.contains(said) {
                weight += ALONE;
                kept.push(said.clone());
            }
        }
        for w in words {
            let w: &str = w;
            let shared = titles_with.get(w).copied().unwrap_or(0);
            let exact = spells(&parts, w, false);
            if shared > MAX_TITLES
                || kept.iter().any(|k| k == w)
                || !(exact || spells(&parts, w, true))
            {
                continue;
            }
            // A kind of code every repository has (`controller`, `registry`, `factory`)
            // tells only as the whole of PATH's name (`registry/`): as a part of a longer one
            // (`ActivityRegistry.cs`, `Cas1DomainEventsController.kt`) it is the kind, not
            // the thing.
            if KINDS.contains(&w) && singular(&parts.concat()) != w {
                kinds.push(w.to_string());
                continue;
            }
            // A word that is the whole of PATH's name (`salesforce.py`, `tagging/`), but for
            // the common words of software (`popularity_job.rb`), tells as much when a second
            // title has it. A word spelled only by its stem ("Paginating large data sets",
            // `PaginationMetadata.kt`) tells alone only as the whole name (`allocator.h` for
            // "allocation"): a part of a longer name (`head_series_limiter.go` for
            // "limiting") is as often another thing done the same way.
            weight += match exact {
                true if shared <= 1 || whole_name == w => ALONE,
                false if stem(&whole_name) == stem(w) => ALONE,
                _ => SHARED,
            };
            kept.push(w.to_string());
        }
        // Told less than a word alone tells: title words in a row spelling two to four parts
        // of the name as one (`FileTransfer/` for "SimpleX File Transfer protocol", whose
        // "file" three titles have and "transfer" two) tell as one word alone, in their stead.
        if weight < ALONE {
            let together = runs[i]
                .iter()
                .filter(|(_, joined)| {
                    spelled_together.contains(joined)
                        && titles_with_run.get(joined.as_str()).copied().unwrap_or(0) <= MAX_TITLES
                })
                .max_by_key(|(said, _)| said.len());
            if let Some((said, _)) = together {
                weight = ALONE;
                kept = vec![said.clone()];
                kinds.retain(|k| !said.split(' ').any(|w| singular(w) == *k));
            }
        }
        // Beside another word of the title (`StateProvider` for "API state providers"), a
        // kind tells what of the thing the file is.
        if !kept.is_empty() && !kinds.is_empty() {
            weight += SHARED * kinds.len() as u32;
            kept.extend(kinds);
        }
        if !kept.is_empty() {
            let words = Evidence::Words {
                words: kept,
                file_name: from_name[i],
            };
            out.push((i, words, weight.min(MAX_WEIGHT)));
        }
    }
    out
}

/// A title's words that may tell: lower case, plurals folded, common words left out, and so
/// is a word left with fewer than three letters once its plural is folded (`CAS`, `ca`).
#[cfg(test)]
fn title_words(title: &super::title::Lowered) -> Vec<Cow<'_, str>> {
    words_of(title.words())
}

/// [`title_words`] of some of a title's words.
fn words_of<'a>(words: impl Iterator<Item = &'a str>) -> Vec<Cow<'a, str>> {
    // A word split on anything not alphanumeric, in lower case, is its own key.
    words
        .filter(|w| !is_title_filler_key(w))
        .map(singular_of)
        .filter(|w| w.chars().any(char::is_alphabetic) && w.len() >= 3)
        .collect()
}

/// The kinds of code files are named by in every repository. The names every repository has
/// and the common words of software (`api`, `server`, `queue`, `event`) are not among them:
/// readers named records by them as often as not (docs/related.md).
const KINDS: [&str; 16] = [
    "controller",
    "registry",
    "factory",
    "manager",
    "provider",
    "repository",
    "entity",
    "value",
    "base",
    "resource",
    "metadata",
    "builder",
    "loader",
    "load",
    "util",
    "spec",
];

/// A word without the ending of its verb or noun of action or agent (`paginating`,
/// `pagination` → `paginat`; `scheduler`, `scheduled` → `schedul`), when the word has 7
/// letters or more and 5 remain: a title says what is done, the file is named for the doing.
fn stem(word: &str) -> &str {
    if word.len() < 7 {
        return word;
    }
    for ending in ["ing", "ion", "ed", "or", "er"] {
        if let Some(rest) = word.strip_suffix(ending) {
            if rest.len() >= 5 {
                return rest;
            }
        }
    }
    word
}

/// PATH's own name split into lower-case parts: on `_`, `-`, spaces and digits, and where the
/// case changes (`BibtexStringWriter` → `bibtex`, `string`, `writer`); a file's extensions
/// left out.
fn name_parts(path: &str) -> Vec<String> {
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    // Every extension left out: `edit.html.erb` is `edit`, `keys.test.ts` is `keys`.
    let stem = match name.split_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    };
    split_name(stem)
}

/// The runs of two to four parts of each folder above PATH, joined
/// (`Microsoft.TestPlatform.ObjectModel/` gives `testplatform`): a project's or a namespace's
/// name, which every file under it may repeat.
fn joined_above(path: &str) -> BTreeSet<String> {
    let mut folders: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    folders.pop();
    folders
        .into_iter()
        .flat_map(|folder| joined_runs(&split_name(folder)).collect::<Vec<_>>())
        .collect()
}

/// Each run of two to four of `parts` in a row, joined, in the singular.
fn joined_runs(parts: &[String]) -> impl Iterator<Item = String> + '_ {
    (0..parts.len()).flat_map(move |from| {
        (2..=4).filter_map(move |len| {
            parts
                .get(from..from + len)
                .map(|run| singular(&run.concat()))
        })
    })
}

/// A name split into lower-case parts: on anything not a letter, and where the case changes.
fn split_name(stem: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for chunk in stem.split(|c: char| !c.is_alphabetic()) {
        let chars: Vec<char> = chunk.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let lower_then_upper = chars[i - 1].is_lowercase() && chars[i].is_uppercase();
            let acronym_ends = chars[i - 1].is_uppercase()
                && chars[i].is_uppercase()
                && chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            if lower_then_upper || acronym_ends {
                parts.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        if start < chars.len() {
            parts.push(chars[start..].iter().collect::<String>().to_lowercase());
        }
    }
    parts
}

/// Whether `word` is one of the parts, or some parts in a row spell it (`BibTeX` split as
/// `bib`, `te`, `x`), plurals folded; `stemmed`, the endings of [`stem`] folded too.
fn spells(parts: &[String], word: &str, stemmed: bool) -> bool {
    let firsts: Vec<u8> = parts.iter().filter_map(|p| p.bytes().next()).collect();
    if !begins_as(&firsts, word) {
        return false;
    }
    fn folded(w: &str, stemmed: bool) -> &str {
        match stemmed {
            true => stem(w),
            false => w,
        }
    }
    // Past this many letters, no ending folds the parts to the word.
    let longest = word.len() + if stemmed { 4 } else { 1 };
    let word = folded(word, stemmed);
    // One buffer for every run (a related answer asks this of every title word, issue 41).
    let mut joined = String::new();
    for from in 0..parts.len() {
        // A run begins as its first part does, and so does what it folds to (above).
        let first = parts[from].bytes().next();
        if first.is_some() && first != word.bytes().next() {
            continue;
        }
        joined.clear();
        for part in &parts[from..] {
            joined.push_str(part);
            if joined.len() > longest {
                break;
            }
            let one = singular_of(&joined);
            if folded(&one, stemmed) == word {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::related::title::{Lowered, RUN_LETTERS};

    #[test]
    fn a_name_splits_on_case_separators_and_its_extension() {
        assert_eq!(
            name_parts("src/bibtex/BibtexStringWriter.java"),
            ["bibtex", "string", "writer"]
        );
        assert_eq!(name_parts("lib/HTTPServer.rb"), ["http", "server"]);
        assert_eq!(
            name_parts("app/field_writer-v2.ts"),
            ["field", "writer", "v"]
        );
        assert_eq!(name_parts("src/x/"), ["x"]);
        assert_eq!(name_parts("app/views/edit.html.erb"), ["edit"]);
        assert!(spells(&name_parts("BibTeXStrings.java"), "bibtex", false));
        assert!(spells(&name_parts("BibTeXStrings.java"), "string", false));
        assert!(!spells(&name_parts("Writer.java"), "bibtex", false));
        assert!(!spells(
            &name_parts("PaginationMetadata.kt"),
            "paginating",
            false
        ));
        assert!(spells(
            &name_parts("PaginationMetadata.kt"),
            "paginating",
            true
        ));
        assert!(spells(&name_parts("scheduler.rs"), "scheduled", true));
        assert!(spells(&name_parts("allocator.h"), "allocation", true));
        assert!(
            !spells(&name_parts("user.rs"), "used", true),
            "too short to fold"
        );
    }

    #[test]
    fn title_words_in_a_row_spell_a_name_of_one_part() {
        let every: BTreeSet<String> = ["filetreediff", "versionfile", "versionfiletree"]
            .map(String::from)
            .into();
        let every = [&every];
        let all = Wanted::new(&every);
        let runs = title_runs(&Lowered::of("Version file tree diff"), &all);
        assert!(runs.contains(&("file tree diff".to_string(), "filetreediff".to_string())));
        assert!(runs.iter().all(|(_, j)| j.len() >= RUN_LETTERS));
        assert_eq!(runs.len(), 3, "{runs:?}");
        let short: BTreeSet<String> = ["useofa".to_string()].into();
        assert!(
            title_runs(&Lowered::of("Use of a"), &Wanted::new(&[&short])).is_empty(),
            "too short"
        );
        assert_eq!(
            title_words(&Lowered::of("Head series limiting")),
            ["head", "series", "limiting"]
        );
        assert!(
            title_runs(
                &Lowered::of("API v3"),
                &Wanted::new(&[&["apiv3".to_string()].into()])
            )
            .is_empty(),
            "a number is no letter"
        );
        assert_eq!(
            title_runs(
                &Lowered::of("Version file tree diff"),
                &Wanted::new(&[&["filetreediff".to_string()].into()])
            ),
            [("file tree diff".to_string(), "filetreediff".to_string())]
        );
    }

    #[test]
    fn common_words_of_a_title_do_not_tell() {
        assert_eq!(
            title_words(&Lowered::of(
                "Use # as indicator for BibTeX string constants"
            )),
            ["indicator", "bibtex", "string", "constant"]
        );
    }
}
