//! Drift on hand-built histories, and a sparse history answering as the full one.

use super::*;
use crate::git::Rename;
use crate::model::Status;

fn record(id: &str, status: Status, date: Option<&str>, path: &str, governs: &[&str]) -> Record {
    Record {
        title: "T".into(),
        date: date.map(Into::into),
        governs: governs.iter().map(|g| g.to_string()).collect(),
        ..Record::bare(id, "T", status, path)
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
            sha: crate::git::Sha::parse(&format!("{i:02x}{}", "0".repeat(38))).unwrap(),
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
    let dates: Vec<&str> = drift.commits.iter().map(|c| &*c.date).collect();
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
    let dates: Vec<&str> = records[0].commits.iter().map(|c| &*c.date).collect();
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
    let mut record_paths: Vec<String> = (1..=6).map(|i| format!("docs/adr/{i:04}-r.md")).collect();
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
            sha: crate::git::Sha::parse(&sha).unwrap(),
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

#[test]
fn records_filled_on_two_threads_answer_as_one_at_a_time() {
    // Enough commits for the second half of the records to be filled on another thread.
    let days: Vec<String> = (0..256)
        .map(|i| format!("2024-{:02}-{:02}", 12 - i / 40, 28 - (i % 40) / 2))
        .collect();
    let paths: [&[&str]; 3] = [
        &["src/a/x.rs"],
        &["src/b/y.rs"],
        &["src/a/z.rs", "src/b/y.rs"],
    ];
    let commits: Vec<(&str, &str, &str, bool, &[&str])> = days
        .iter()
        .enumerate()
        .map(|(i, day)| {
            let message = match i % 5 {
                0 => "Tune a (ADR-0001)",
                1 => "Touch b per ADR-0002",
                _ => "Plain change",
            };
            (
                day.as_str(),
                ["Ana", "Ben", "Cy"][i % 3],
                message,
                false,
                paths[i % 3],
            )
        })
        .collect();
    let data = history(&commits);
    assert!(data.commits.len() >= PARALLEL_FROM_COMMITS);
    let all = || {
        vec![
            // Undated and never committed: a note, one from each half, in the records' order.
            record(
                "ADR-0003",
                Status::Accepted,
                None,
                "docs/adr/0003-c.md",
                &["src/a/"],
            ),
            record(
                "ADR-0001",
                Status::Accepted,
                Some("2024-03-01"),
                "docs/adr/0001-a.md",
                &["src/a/"],
            ),
            record(
                "ADR-0002",
                Status::Accepted,
                Some("2024-06-01"),
                "docs/adr/0002-b.md",
                &["src/b/"],
            ),
            record(
                "ADR-0004",
                Status::Accepted,
                Some("2024-01-01"),
                "docs/adr/0004-d.md",
                &["src/"],
            ),
            record(
                "ADR-0005",
                Status::Accepted,
                None,
                "docs/adr/0005-e.md",
                &["src/b/"],
            ),
        ]
    };
    let (mut together, mut together_notes) = (all(), Vec::new());
    fill(&mut together, &data, &mut together_notes);
    let (mut one_by_one, mut one_by_one_notes) = (all(), Vec::new());
    for r in one_by_one.iter_mut() {
        fill(std::slice::from_mut(r), &data, &mut one_by_one_notes);
    }
    assert_eq!(together, one_by_one);
    assert_eq!(together_notes, one_by_one_notes);
    assert_eq!(together_notes.len(), 2);
    assert!(together_notes[0].starts_with("ADR-0003"));
    assert!(together_notes[1].starts_with("ADR-0005"));
    assert!(together[1].drift.as_ref().is_some_and(|d| d.count > 50));
    assert!(!together[2].commits.is_empty());
}
