//! Each record's citing commits and drift, computed from one walk of the history (`history.rs`).
//!
//! Pure: no I/O. The cost is one pass over the commits' mentions, plus, per current record, range
//! scans of `by_path` under its governed entries: never records × commits.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::git::{CommitMeta, HistoryData};
use crate::governs::Pattern;
use crate::model::{AuthorCount, Commit, Drift, Record};
use crate::text::date::{format_day, parse_date, utc_date, SECONDS_PER_DAY};

/// The most citing commits a record lists.
pub const MAX_CITING_COMMITS: usize = 20;

/// Sets `commits` and `drift` of every record from `data` (CONTRACT.md §3):
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

    for record in records.iter_mut() {
        record.commits = citing
            .get(record.id.as_str())
            .map(|list| {
                list.iter()
                    .map(|&i| commit_json(&data.commits[i as usize], abbrev, None))
                    .collect()
            })
            .unwrap_or_default();
        record.drift = drift_for(record, data, &renames, abbrev, notes);
    }
}

fn drift_for(
    record: &Record,
    data: &HistoryData,
    renames: &HashMap<(u32, &str), &str>,
    abbrev: usize,
    notes: &mut Vec<String>,
) -> Option<Drift> {
    if !record.status.is_current() || record.governs.is_empty() {
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
    for entry in &record.governs {
        for (_, list) in data.under(&Pattern::new(entry)) {
            // Each list is newest first, so the commits since the date are a prefix of it.
            hits.extend(
                list.iter()
                    .copied()
                    .take_while(|&i| data.commits[i as usize].time >= since_seconds),
            );
        }
    }
    hits.sort_unstable();
    hits.dedup();

    let commits: Vec<Commit> = hits
        .iter()
        .map(|&i| {
            let c = &data.commits[i as usize];
            let cites = c.mentions.contains(&record.id);
            commit_json(c, abbrev, Some(cites))
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
        last_change: commits.first().map(|c| c.date.clone()),
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

fn commit_json(c: &CommitMeta, abbrev: usize, cites_record: Option<bool>) -> Commit {
    Commit {
        sha: c.sha.get(..abbrev).unwrap_or(&c.sha).to_string(),
        date: utc_date(c.time),
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
mod tests {
    use super::*;
    use crate::git::Rename;
    use crate::model::Status;

    fn record(
        id: &str,
        status: Status,
        date: Option<&str>,
        path: &str,
        governs: &[&str],
    ) -> Record {
        Record {
            id: id.into(),
            title: "T".into(),
            status,
            status_text: status.as_str().into(),
            date: date.map(Into::into),
            path: path.into(),
            supersedes: vec![],
            superseded_by: vec![],
            amends: vec![],
            cites: vec![],
            cited_by: vec![],
            governs: governs.iter().map(|g| g.to_string()).collect(),
            missing_paths: vec![],
            commits: vec![],
            drift: None,
            successors: vec![],
            successors_only_claimed_by_successor: vec![],
            moved: BTreeMap::new(),
        }
    }

    /// `(day "YYYY-MM-DD" at noon, author, message, is_merge, paths)`, given newest first.
    fn history(commits: &[(&str, &str, &str, bool, &[&str])]) -> HistoryData {
        let mut data = HistoryData {
            head: "h".into(),
            ..Default::default()
        };
        for (i, (day, author, message, merge, paths)) in commits.iter().enumerate() {
            data.commits.push(CommitMeta {
                sha: format!("{i:02x}{}", "0".repeat(38)),
                time: parse_date(day).unwrap() * SECONDS_PER_DAY + 12 * 3600,
                author: (*author).into(),
                subject: message.lines().next().unwrap().into(),
                mentions: crate::text::ids::mentioned_ids(message),
                is_merge: *merge,
            });
            for p in *paths {
                data.by_path
                    .entry(p.to_string())
                    .or_default()
                    .push(i as u32);
            }
        }
        data
    }

    #[test]
    fn drift_counts_governed_commits_since_the_date() {
        let data = history(&[
            ("2025-04-01", "Ben", "Merge branch x", true, &[]),
            (
                "2025-03-20",
                "Ben",
                "Tune login\n\nPer ADR-0001.",
                false,
                &["src/auth/login.rs"],
            ),
            (
                "2025-03-10",
                "Ana",
                "Add session",
                false,
                &["src/auth/s/session.rs", "README.md"],
            ),
            (
                "2025-03-05",
                "Cy",
                "Unrelated",
                false,
                &["src/other.rs", "src/authz.rs"],
            ),
            (
                "2025-03-02",
                "Ana",
                "Same day",
                false,
                &["src/auth/login.rs"],
            ),
            (
                "2025-03-01",
                "Ana",
                "Before",
                false,
                &["src/auth/login.rs", "docs/adr/0001-x.md"],
            ),
        ]);
        let mut records = vec![record(
            "ADR-0001",
            Status::Accepted,
            Some("2025-03-02"),
            "docs/adr/0001-x.md",
            &["src/auth/"],
        )];
        let mut notes = vec![];
        fill(&mut records, &data, &mut notes);
        let drift = records[0].drift.as_ref().unwrap();
        assert_eq!(drift.since, "2025-03-02");
        assert_eq!(drift.since_from, "record");
        assert_eq!(drift.count, 3);
        assert_eq!(drift.not_citing_record, 2);
        let dates: Vec<&str> = drift.commits.iter().map(|c| c.date.as_str()).collect();
        assert_eq!(dates, ["2025-03-20", "2025-03-10", "2025-03-02"]);
        assert_eq!(drift.commits[0].cites_record, Some(true));
        assert_eq!(drift.commits[0].sha.len(), 7);
        let authors: Vec<(&str, usize)> = drift
            .authors
            .iter()
            .map(|a| (a.name.as_str(), a.commits))
            .collect();
        assert_eq!(authors, [("Ana", 2), ("Ben", 1)]);
        assert_eq!(drift.last_change.as_deref(), Some("2025-03-20"));
        assert_eq!(drift.record_last_edited.as_deref(), Some("2025-03-01"));
        assert_eq!(records[0].commits.len(), 1);
        assert_eq!(records[0].commits[0].cites_record, None);
        assert!(notes.is_empty());
    }

    #[test]
    fn file_entries_match_only_themselves() {
        let data = history(&[
            ("2025-03-10", "Ana", "a", false, &["src/lib.rs.bak"]),
            ("2025-03-09", "Ana", "b", false, &["src/lib.rs"]),
        ]);
        let mut records = vec![record(
            "ADR-0002",
            Status::Implemented,
            Some("2025-01-01"),
            "d.md",
            &["src/lib.rs"],
        )];
        fill(&mut records, &data, &mut vec![]);
        assert_eq!(records[0].drift.as_ref().unwrap().count, 1);
    }

    #[test]
    fn no_drift_for_records_not_current_or_governing_nothing() {
        let data = history(&[("2025-03-10", "Ana", "ADR-3 and ADR-4", false, &["src/a.rs"])]);
        let mut records = vec![
            record(
                "ADR-0003",
                Status::Deprecated,
                Some("2025-01-01"),
                "a.md",
                &["src/"],
            ),
            record(
                "ADR-0004",
                Status::Accepted,
                Some("2025-01-01"),
                "b.md",
                &[],
            ),
        ];
        fill(&mut records, &data, &mut vec![]);
        assert!(records.iter().all(|r| r.drift.is_none()));
        assert!(records.iter().all(|r| r.commits.len() == 1));
    }

    #[test]
    fn citing_commits_are_capped_newest_first_merges_included() {
        let days: Vec<String> = (1..=25).rev().map(|d| format!("2025-01-{d:02}")).collect();
        let rows: Vec<(&str, &str, &str, bool, &[&str])> = days
            .iter()
            .enumerate()
            .map(|(i, d)| (d.as_str(), "Ana", "see adr 7", i == 0, &[][..]))
            .collect();
        let data = history(&rows);
        let mut records = vec![record("ADR-0007", Status::Proposed, None, "x.md", &[])];
        fill(&mut records, &data, &mut vec![]);
        let dates: Vec<&str> = records[0].commits.iter().map(|c| c.date.as_str()).collect();
        assert_eq!(dates.len(), MAX_CITING_COMMITS);
        assert_eq!(dates[0], "2025-01-25");
        assert_eq!(dates[19], "2025-01-06");
    }

    #[test]
    fn no_date_counts_from_the_first_commit_through_renames() {
        let mut data = history(&[
            ("2025-05-01", "Ben", "Change", false, &["src/a.rs"]),
            (
                "2025-04-01",
                "Ana",
                "Rename",
                false,
                &["docs/adr/0001-new.md", "docs/adr/0001-old.md"],
            ),
            ("2025-03-15", "Cy", "Early change", false, &["src/a.rs"]),
            (
                "2025-03-10",
                "Ana",
                "Add the record",
                false,
                &["docs/adr/0001-old.md"],
            ),
            ("2025-03-01", "Ana", "Before", false, &["src/a.rs"]),
        ]);
        data.renames.push(Rename {
            commit: 1,
            from: "docs/adr/0001-old.md".into(),
            to: "docs/adr/0001-new.md".into(),
        });
        let mut records = vec![record(
            "ADR-0001",
            Status::Accepted,
            None,
            "docs/adr/0001-new.md",
            &["src/a.rs"],
        )];
        fill(&mut records, &data, &mut vec![]);
        let drift = records[0].drift.as_ref().unwrap();
        assert_eq!(drift.since, "2025-03-10");
        assert_eq!(drift.since_from, "first-commit");
        assert_eq!(drift.count, 2);
        assert_eq!(drift.record_last_edited.as_deref(), Some("2025-04-01"));
    }

    #[test]
    fn no_date_and_never_committed_gives_a_note_and_no_drift() {
        let data = history(&[("2025-05-01", "Ben", "Change", false, &["src/a.rs"])]);
        let mut records = vec![record(
            "ADR-0005",
            Status::Accepted,
            None,
            "docs/adr/0005-x.md",
            &["src/a.rs"],
        )];
        let mut notes = vec![];
        fill(&mut records, &data, &mut notes);
        assert!(records[0].drift.is_none());
        assert_eq!(
            notes,
            ["ADR-0005 (docs/adr/0005-x.md) has no date and its file is not committed yet: no history to measure drift from"]
        );
    }

    #[test]
    fn an_unusable_date_counts_from_the_first_commit_with_a_note() {
        let data = history(&[
            ("2025-05-01", "Ben", "Change", false, &["src/a.rs"]),
            ("2025-04-01", "Ana", "Add", false, &["d.md", "src/a.rs"]),
        ]);
        let mut records = vec![record(
            "ADR-0006",
            Status::Accepted,
            Some("spring 2025"),
            "d.md",
            &["src/"],
        )];
        let mut notes = vec![];
        fill(&mut records, &data, &mut notes);
        let drift = records[0].drift.as_ref().unwrap();
        assert_eq!(
            (drift.since.as_str(), drift.since_from.as_str()),
            ("2025-04-01", "first-commit")
        );
        assert_eq!(drift.count, 2);
        assert!(
            notes[0].contains("\"spring 2025\" is not YYYY-MM-DD"),
            "{notes:?}"
        );
    }

    #[test]
    fn abbreviations_depend_on_the_number_of_commits_only() {
        assert_eq!(abbrev_len(0), 7);
        assert_eq!(abbrev_len(1), 7);
        assert_eq!(abbrev_len(4095), 7);
        assert_eq!(abbrev_len(4096), 8);
        assert_eq!(abbrev_len(20_000), 9);
        assert_eq!(abbrev_len(1 << 20), 12);
        // A hand-built history with total_commits left at 0 counts the commits it holds.
        let mut data = history(&[("2025-05-01", "A", "ADR-1", false, &[])]);
        let mut records = vec![record("ADR-0001", Status::Proposed, None, "x.md", &[])];
        fill(&mut records, &data, &mut vec![]);
        assert_eq!(records[0].commits[0].sha.len(), 7);
        data.total_commits = 20_000;
        fill(&mut records, &data, &mut vec![]);
        assert_eq!(records[0].commits[0].sha.len(), 9);
    }

    /// `(meta, changed paths, renames (from, to))`.
    type TestCommit = (CommitMeta, Vec<String>, Vec<(String, String)>);

    /// A deterministic pseudo-random history: `n` commits with ties in time, merges, mentions,
    /// governed and unrelated paths, and renames of record files. Commits are
    /// `(meta, changed paths, renames)`.
    fn random_commits(n: usize) -> Vec<TestCommit> {
        let mut seed: u64 = 7;
        let mut rand = |m: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % m
        };
        let folders = ["src/auth/", "src/db/", "src/ui/", "lib/", "docs/guide/"];
        let mut record_paths: Vec<String> =
            (1..=6).map(|i| format!("docs/adr/{i:04}-r.md")).collect();
        let mut out = Vec::new();
        let mut time = 1_750_000_000i64;
        for i in 0..n {
            // Ties: about a third of the commits share their second with the one before.
            if rand(3) != 0 {
                time -= rand(4 * 3600) as i64 + 1;
            }
            let sha: String = (0..40)
                .map(|_| char::from_digit(rand(16) as u32, 16).unwrap())
                .collect();
            let merge = rand(10) == 0;
            let mut message = format!("Commit {i}");
            if rand(5) == 0 {
                message.push_str(&format!("\n\nPer ADR-{}.", rand(7) + 1));
            }
            let mut paths = Vec::new();
            let mut renames = Vec::new();
            if !merge {
                for _ in 0..=rand(3) {
                    let folder = folders[rand(folders.len() as u64) as usize];
                    paths.push(format!("{folder}f{}.rs", rand(4)));
                }
                if rand(6) == 0 {
                    paths.push(record_paths[rand(6) as usize].clone());
                }
                if rand(40) == 0 {
                    // Renamed, walking back in time: this commit renamed `old` to the current path.
                    let r = rand(6) as usize;
                    let old = format!("docs/adr/{:04}-old{i}.md", r + 1);
                    paths.push(record_paths[r].clone());
                    paths.push(old.clone());
                    renames.push((old.clone(), record_paths[r].clone()));
                    record_paths[r] = old;
                }
                paths.sort();
                paths.dedup();
            }
            let meta = CommitMeta {
                sha,
                time,
                author: ["Ana", "Ben", "Cy"][rand(3) as usize].into(),
                subject: format!("Commit {i}").into(),
                mentions: crate::text::ids::mentioned_ids(&message),
                is_merge: merge,
            };
            out.push((meta, paths, renames));
        }
        out
    }

    /// `HistoryData` from commits in any order, as `history::from_walk` builds it.
    fn assemble(mut commits: Vec<TestCommit>, total_commits: usize) -> HistoryData {
        commits.sort_by(|a, b| crate::git::canonical_order(&a.0, &b.0));
        let mut data = HistoryData {
            head: "h".into(),
            total_commits,
            ..Default::default()
        };
        for (i, (meta, paths, renames)) in commits.into_iter().enumerate() {
            for p in paths {
                data.by_path.entry(p).or_default().push(i as u32);
            }
            for (from, to) in renames {
                data.renames.push(Rename {
                    commit: i as u32,
                    from,
                    to,
                });
            }
            data.commits.push(meta);
        }
        data
    }

    #[test]
    fn a_sparse_history_gives_the_same_answers_as_the_full_one() {
        let n = 5_000;
        let commits = random_commits(n);
        let full = assemble(commits.clone(), n);
        let records = vec![
            record(
                "ADR-0001",
                Status::Accepted,
                Some("2025-05-01"),
                "docs/adr/0001-r.md",
                &["src/auth/"],
            ),
            record(
                "ADR-0002",
                Status::Accepted,
                None,
                "docs/adr/0002-r.md",
                &["src/db/", "lib/f1.rs"],
            ),
            record(
                "ADR-0003",
                Status::Implemented,
                Some("not a date"),
                "docs/adr/0003-r.md",
                &["src/ui/"],
            ),
            record(
                "ADR-0004",
                Status::Proposed,
                None,
                "docs/adr/0004-r.md",
                &["src/auth/"],
            ),
            record(
                "ADR-0005",
                Status::Accepted,
                None,
                "docs/adr/0005-never.md",
                &["lib/"],
            ),
            record(
                "ADR-0006",
                Status::Accepted,
                Some("2024-01-01"),
                "docs/adr/0006-r.md",
                &["src/ui/f1.rs"],
            ),
        ];
        for one in &records {
            let mut expected = vec![one.clone()];
            let mut expected_notes = vec![];
            fill(&mut expected, &full, &mut expected_notes);

            // Only the commits touching its governed paths or its file (following renames back)
            // or mentioning its id.
            let mut paths: Vec<String> = vec![one.path.clone()];
            let mut at = 0;
            while at < paths.len() {
                for (_, _, renames) in &commits {
                    for (from, to) in renames {
                        if *to == paths[at] && !paths.contains(from) {
                            paths.push(from.clone());
                        }
                    }
                }
                at += 1;
            }
            let wanted = |(meta, changed, _): &TestCommit| {
                meta.mentions.contains(&one.id)
                    || changed.iter().any(|p| {
                        paths.contains(p)
                            || one
                                .governs
                                .iter()
                                .any(|g| p == g || (g.ends_with('/') && p.starts_with(g.as_str())))
                    })
            };
            let sparse: Vec<_> = commits.iter().filter(|c| wanted(c)).cloned().collect();
            assert!(sparse.len() < n / 2, "{}: {} of {n}", one.id, sparse.len());
            let sparse = assemble(sparse, n);
            let mut got = vec![one.clone()];
            let mut notes = vec![];
            fill(&mut got, &sparse, &mut notes);
            assert_eq!(got, expected, "{}", one.id);
            assert_eq!(notes, expected_notes, "{}", one.id);
            assert_eq!(
                got[0].commits.first().map(|c| c.sha.len()),
                Some(8),
                "{}",
                one.id
            );
        }
        // And all records at once on the full history give what each gave alone.
        let mut all = records.clone();
        fill(&mut all, &full, &mut vec![]);
        assert!(all.iter().filter(|r| r.drift.is_some()).count() >= 3);
        assert!(all[1]
            .drift
            .as_ref()
            .is_some_and(|d| d.since_from == "first-commit"));
    }
}
