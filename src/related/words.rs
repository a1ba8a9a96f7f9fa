//! `words` evidence (docs/related.md): distinctive words of the record's title in PATH's own
//! name (its file's stem, or the folder's name when PATH is a folder; never a folder above
//! it), split on case, `_`, `-` and `.`. A word counts when it is not common English (a name
//! every repository has, `client` or `plugin`, may tell) and the titles of at most
//! [`MAX_TITLES`] records have it: one record's alone weighs [`ALONE`], a word two titles
//! share [`SHARED`], unless it is the whole of PATH's name (then [`ALONE`]). Title words in a
//! row that spell one part of the name together (`filetreediff/` for "Version file tree
//! diff", `clientsettingspolicy_types.go` for "Client Settings Policy") weigh [`ALONE`].

use crate::model::{Evidence, Pickable};
use crate::text::terms::{is_common, is_title_filler_key, singular, singular_of};
use std::collections::{BTreeSet, HashMap};

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
    let titles: Vec<Vec<String>> = records.iter().map(|r| title_words(r.title())).collect();
    // Only the runs that spell a part or parts of this name matter (and how many titles have
    // each): the others are never made (a warm answer's share, issue 41).
    let runs: Vec<Vec<(String, String)>> = records
        .iter()
        .map(|r| {
            title_runs(r.title(), &|joined| {
                spelled.contains(joined) || spelled_together.contains(joined)
            })
        })
        .collect();
    let mut titles_with: HashMap<&str, usize> = HashMap::new();
    for words in &titles {
        let distinct: BTreeSet<&str> = words.iter().map(String::as_str).collect();
        for w in distinct {
            *titles_with.entry(w).or_default() += 1;
        }
    }
    let mut titles_with_run: HashMap<&str, usize> = HashMap::new();
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
            let shared = titles_with.get(w.as_str()).copied().unwrap_or(0);
            let exact = spells(&parts, w, false);
            if shared > MAX_TITLES || kept.contains(w) || !(exact || spells(&parts, w, true)) {
                continue;
            }
            // A kind of code every repository has (`controller`, `registry`, `factory`)
            // tells only as the whole of PATH's name (`registry/`): as a part of a longer one
            // (`ActivityRegistry.cs`, `Cas1DomainEventsController.kt`) it is the kind, not
            // the thing.
            if KINDS.contains(&w.as_str()) && singular(&parts.concat()) != *w {
                kinds.push(w.clone());
                continue;
            }
            // A word that is the whole of PATH's name (`salesforce.py`, `tagging/`), but for
            // the common words of software (`popularity_job.rb`), tells as much when a second
            // title has it. A word spelled only by its stem ("Paginating large data sets",
            // `PaginationMetadata.kt`) tells alone only as the whole name (`allocator.h` for
            // "allocation"): a part of a longer name (`head_series_limiter.go` for
            // "limiting") is as often another thing done the same way.
            weight += match exact {
                true if shared <= 1 || whole_name == *w => ALONE,
                false if stem(&whole_name) == stem(w) => ALONE,
                _ => SHARED,
            };
            kept.push(w.clone());
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
            out.push((i, Evidence::Words { words: kept }, weight.min(MAX_WEIGHT)));
        }
    }
    out
}

/// A title's words that may tell: lower case, plurals folded, common words left out, and so
/// is a word left with fewer than three letters once its plural is folded (`CAS`, `ca`).
fn title_words(title: &str) -> Vec<String> {
    // A word split on anything not alphanumeric, in lower case, is its own key.
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !is_title_filler_key(w))
        .map(|w| singular(&w))
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

/// The fewest letters of title words in a row that spell one part of a name.
const RUN_LETTERS: usize = 8;

/// A title's runs of two to four words in a row, as said (`file tree diff`) and joined in
/// the singular (`filetreediff`), of [`RUN_LETTERS`] letters or more and not all filler.
/// Only the runs whose joined form `wanted` accepts are made.
fn title_runs(title: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, String)> {
    let words: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut out = Vec::new();
    let mut concat = String::new();
    for from in 0..words.len() {
        concat.clear();
        concat.push_str(&words[from]);
        for len in 2..=4 {
            let Some(next) = words.get(from + len - 1) else {
                break;
            };
            concat.push_str(next);
            if concat.len() < RUN_LETTERS || !concat.chars().all(char::is_alphabetic) {
                continue;
            }
            let joined = singular_of(&concat);
            let run = &words[from..from + len];
            if joined.len() >= RUN_LETTERS
                && wanted(&joined)
                && run.iter().any(|w| !is_title_filler_key(w))
            {
                out.push((run.join(" "), joined.into_owned()));
            }
        }
    }
    out
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
    let fold = |w: &str| match stemmed {
        true => stem(w).to_string(),
        false => w.to_string(),
    };
    // Past this many letters, no ending folds the parts to the word.
    let longest = word.len() + if stemmed { 4 } else { 1 };
    let word = fold(word);
    for from in 0..parts.len() {
        let mut joined = String::new();
        for part in &parts[from..] {
            joined.push_str(part);
            if joined.len() > longest {
                break;
            }
            if fold(&singular(&joined)) == word {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let runs = title_runs("Version file tree diff", &|_| true);
        assert!(runs.contains(&("file tree diff".to_string(), "filetreediff".to_string())));
        assert!(runs.iter().all(|(_, j)| j.len() >= RUN_LETTERS));
        assert!(title_runs("Use of a", &|_| true).is_empty(), "too short");
        assert_eq!(
            title_words("Head series limiting"),
            ["head", "series", "limiting"]
        );
        assert!(
            title_runs("API v3", &|_| true).is_empty(),
            "a number is no letter"
        );
        assert_eq!(
            title_runs("Version file tree diff", &|j| j == "filetreediff"),
            [("file tree diff".to_string(), "filetreediff".to_string())]
        );
    }

    #[test]
    fn common_words_of_a_title_do_not_tell() {
        assert_eq!(
            title_words("Use # as indicator for BibTeX string constants"),
            ["indicator", "bibtex", "string", "constant"]
        );
    }
}
