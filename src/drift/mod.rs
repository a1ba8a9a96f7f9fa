//! Each record's citing commits and drift, computed from one walk of the history (`history.rs`).
//!
//! Pure: no I/O. The cost is one pass over the commits' mentions, plus, per current record, range
//! scans of `by_path` under its governed entries: never records × commits.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use crate::git::{CommitMeta, HistoryData};
use crate::governs::{Pattern, Scope};
use crate::model::{AuthorCount, Commit, Drift, Record};
use crate::text::date::{format_day, format_day_shared, parse_date, utc_date, SECONDS_PER_DAY};
use crate::text::marker::Markers;

/// The most citing commits a record lists.
pub const MAX_CITING_COMMITS: usize = 20;

/// Sets `commits` and `drift` of every record from `data` (docs/reading.md):
/// - `commits`: the commits (merges included) whose message mentions the record's id, newest
///   first, at most [`MAX_CITING_COMMITS`];
/// - `drift`: for a current record that governs a path, the non-merge commits that touched a
///   governed path on or after the record's date (00:00 UTC), or, with no date, since the day its
///   file was first committed (following renames). `None` otherwise.
///
/// The answer depends only on `data.total_commits` and on the commits that touch a record's
/// governed paths or its file (following `.md` renames back) or mention its id: a sparse
/// `HistoryData` holding just those (the index's) gives the same answer, byte for byte. The cost
/// is one pass over the commits' mentions, then range scans per current record.
///
/// Pushes a note for each current record with no date whose file was never committed, and for
/// one whose date is not `YYYY-MM-DD` (it counts from its first commit). The caller says what
/// `data.shallow` and the other [`crate::git::Outcome`]s mean.
pub fn fill(records: &mut [Record], data: &HistoryData, notes: &mut Vec<String>) {
    fill_declared(records, data, &Markers::default(), notes);
}

/// [`fill`], where a record's governed paths are its entries and the files whose markers
/// declare it (docs/markers.md, ADR-0009): a declared file counts as a governed file, and a
/// record that only files declare has drift too.
pub fn fill_declared(
    records: &mut [Record],
    data: &HistoryData,
    markers: &Markers,
    notes: &mut Vec<String>,
) {
    let declared = markers.declared();
    // Never fewer than the commits at hand (a hand-built `HistoryData` may leave it 0).
    let abbrev = abbrev_len(data.total_commits.max(data.commits.len()));

    let wanted: HashSet<String> = records.iter().map(|r| r.id.clone()).collect();
    let mut citing: HashMap<&str, Vec<u32>> = HashMap::new();
    for (i, commit) in data.commits.iter().enumerate() {
        for id in &commit.mentions {
            if wanted.contains(id) {
                let list = citing.entry(id.as_str()).or_default();
                if list.len() < MAX_CITING_COMMITS {
                    list.push(i as u32);
                }
            }
        }
    }

    // (commit index, new path) -> old path, to follow a record file back through renames.
    let renames: HashMap<(u32, &str), &str> = data
        .renames
        .iter()
        .map(|r| ((r.commit, r.to.as_str()), r.from.as_str()))
        .collect();

    let fill_one = |record: &mut Record, notes: &mut Vec<String>| {
        record.commits = citing
            .get(record.id.as_str())
            .map(|list| {
                list.iter()
                    .map(|&i| {
                        let c = &data.commits[i as usize];
                        commit_json(c, abbrev, None, utc_date(c.time).into())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let files = declared
            .get(record.id.as_str())
            .map_or(&[][..], Vec::as_slice);
        record.drift = drift_for(record, files, data, &renames, abbrev, notes);
    };
    // Each record's lists are its own: with a long history, the second half of the records
    // is filled on another thread (the answer after a commit waited on this, one record after
    // the other, issue 17). The notes keep the records' order.
    if records.len() >= 2 && data.commits.len() >= PARALLEL_FROM_COMMITS {
        let (first, second) = records.split_at_mut(records.len() / 2);
        let later = std::thread::scope(|s| {
            let other = s.spawn(|| {
                let mut notes = Vec::new();
                second.iter_mut().for_each(|r| fill_one(r, &mut notes));
                notes
            });
            first.iter_mut().for_each(|r| fill_one(r, notes));
            other.join().expect("a drift thread panicked")
        });
        notes.extend(later);
    } else {
        records.iter_mut().for_each(|r| fill_one(r, notes));
    }
}

/// From how many commits at hand the records' lists are filled on two threads: below it, a
/// thread costs about what it saves.
const PARALLEL_FROM_COMMITS: usize = 256;

fn drift_for(
    record: &Record,
    declared: &[(&str, u32)],
    data: &HistoryData,
    renames: &HashMap<(u32, &str), &str>,
    abbrev: usize,
    notes: &mut Vec<String>,
) -> Option<Drift> {
    if !record.status.is_current() || (record.governs.is_empty() && declared.is_empty()) {
        return None;
    }
    let date = record.date.as_deref().filter(|d| !d.trim().is_empty());
    let (since_day, since_from) = match date.map(|d| (d, parse_date(d))) {
        Some((_, Some(day))) => (day, "record"),
        unusable => match first_commit(data, &record.path, renames) {
            Some(i) => {
                if let Some((written, None)) = unusable {
                    notes.push(format!(
                        "{} ({}): its date {written:?} is not YYYY-MM-DD, so drift counts from its first commit",
                        record.id, record.path
                    ));
                }
                (
                    data.commits[i as usize].time.div_euclid(SECONDS_PER_DAY),
                    "first-commit",
                )
            }
            None => {
                let what = match unusable {
                    Some((written, None)) => format!("has no usable date ({written:?})"),
                    _ => "has no date".to_string(),
                };
                notes.push(format!(
                    "{} ({}) {what} and its file is not committed yet: no history to measure drift from",
                    record.id, record.path
                ));
                return None;
            }
        },
    };
    let since_seconds = since_day * SECONDS_PER_DAY;

    let mut hits: Vec<u32> = Vec::new();
    let scope = Scope::new(&record.governs);
    for pattern in scope.positives() {
        for (_, list) in data.under(pattern).filter(|(path, _)| scope.governs(path)) {
            // Each list is newest first, so the commits since the date are a prefix of it.
            hits.extend(
                list.iter()
                    .copied()
                    .take_while(|&i| data.commits[i as usize].time >= since_seconds),
            );
        }
    }
    for (file, _) in declared {
        let pattern = Pattern::Path(file);
        for (_, list) in data.under(&pattern) {
            hits.extend(
                list.iter()
                    .copied()
                    .take_while(|&i| data.commits[i as usize].time >= since_seconds),
            );
        }
    }
    hits.sort_unstable();
    hits.dedup();

    // Commits come newest first, many on the same day: each day is written out once.
    // Shared by the commits of that day: a clone is a count, not a copy.
    let mut day: Option<(i64, Arc<str>)> = None;
    let commits: Vec<Commit> = hits
        .iter()
        .map(|&i| {
            let c = &data.commits[i as usize];
            let cites = c.mentions.contains(&record.id);
            let on = c.time.div_euclid(SECONDS_PER_DAY);
            let date = match &day {
                Some((d, date)) if *d == on => date.clone(),
                _ => day.insert((on, format_day_shared(on))).1.clone(),
            };
            commit_json(c, abbrev, Some(cites), date)
        })
        .collect();
    let mut by_author: BTreeMap<&str, usize> = BTreeMap::new();
    for commit in &commits {
        *by_author.entry(&commit.author).or_default() += 1;
    }
    let mut authors: Vec<AuthorCount> = by_author
        .into_iter()
        .map(|(name, commits)| AuthorCount {
            name: name.to_string(),
            commits,
        })
        .collect();
    // Stable over the name order of the map: by count, then name.
    authors.sort_by_key(|a| std::cmp::Reverse(a.commits));

    Some(Drift {
        since: format_day(since_day),
        since_from: since_from.to_string(),
        count: commits.len(),
        not_citing_record: commits
            .iter()
            .filter(|c| c.cites_record == Some(false))
            .count(),
        authors,
        last_change: commits.first().map(|c| c.date.to_string()),
        record_last_edited: data
            .by_path
            .get(&record.path)
            .and_then(|list| list.first())
            .map(|&i| utc_date(data.commits[i as usize].time)),
        commits,
    })
}

/// The commit that first added the file at `path`, following `.md` renames back: the oldest
/// commit touching the path; when that commit renamed it from another path, the oldest commit
/// before it touching the old path, and so on.
fn first_commit(
    data: &HistoryData,
    path: &str,
    renames: &HashMap<(u32, &str), &str>,
) -> Option<u32> {
    let mut path = path;
    let mut found: Option<u32> = None;
    loop {
        // Only commits older than the rename that led here (larger indices are older).
        let oldest = data.by_path.get(path).and_then(|list| {
            list.iter()
                .copied()
                .filter(|&i| found.is_none_or(|f| i > f))
                .max()
        });
        let Some(oldest) = oldest else {
            return found;
        };
        found = Some(oldest);
        match renames.get(&(oldest, path)) {
            Some(from) => path = from,
            None => return found,
        }
    }
}

/// A commit as the JSON lists it; `date` is its committer day (`utc_date` of its time).
fn commit_json(
    c: &CommitMeta,
    abbrev: usize,
    cites_record: Option<bool>,
    date: Arc<str>,
) -> Commit {
    Commit {
        sha: c.sha.abbrev(abbrev),
        date,
        author: c.author.clone(),
        subject: c.subject.clone(),
        cites_record,
    }
}

/// How many hex characters a sha is abbreviated to, from the number of commits HEAD reaches
/// alone (never from which commits are at hand, so a sparse history abbreviates as the full one):
/// at least 7, and about enough for `total` random shas to stay unique, as git sizes its
/// abbreviations: `max(7, (bit_length(total) + 1) / 2 + 1)` (up to 4,095 commits: 7; 20,000: 9).
pub fn abbrev_len(total: usize) -> usize {
    let bits = (usize::BITS - total.leading_zeros()) as usize;
    (bits.div_ceil(2) + 1).max(7)
}

#[cfg(test)]
mod tests;
